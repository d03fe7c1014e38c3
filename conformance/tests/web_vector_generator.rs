//! The web vector files (`vectors/strip.json`, `envelope.json`,
//! `fetch.json`) are generated from the cases in
//! `conformance/tools/web_vectors/`, with the reference's answers: a case
//! written into a JSON file by hand (which the generator would drop the
//! next time it ran), a suite version set in the file and not in
//! `gen.py`, or an answer the reference no longer gives makes
//! `gen.py --check` fail. Without `python3` the trial ends as ignored with
//! the reason printed beside it.

use std::path::Path;
use std::process::{Command, Stdio};

use libtest_mimic::{Arguments, Completion, Trial};

mod common;
use common::text;

fn main() {
    let arguments = Arguments::from_args();
    let trials = vec![Trial::ignorable_test(
        "web_vector_files_are_what_their_generator_writes",
        || {
            let probe = Command::new("python3")
                .arg("--version")
                .stdin(Stdio::null())
                .output();
            if !probe.is_ok_and(|output| output.status.success()) {
                return Ok(Completion::ignored_with(
                    "skipped: python3 does not start; gen.py --check is not run",
                ));
            }
            let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
            let output = Command::new("python3")
                .arg("conformance/tools/web_vectors/gen.py")
                .arg("--check")
                .arg("--bin")
                .arg(env!("CARGO_BIN_EXE_agentfence"))
                .current_dir(&root)
                .stdin(Stdio::null())
                .output()
                .map_err(|error| format!("gen.py does not start: {error}"))?;
            if output.status.success() {
                Ok(Completion::Completed)
            } else {
                Err(format!(
                    "gen.py --check fails:\n{}{}",
                    text(&output.stdout),
                    text(&output.stderr)
                )
                .into())
            }
        },
    )];
    libtest_mimic::run(&arguments, trials).exit();
}
