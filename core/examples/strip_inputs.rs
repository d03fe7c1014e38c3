//! Writes the texts the `strip` and `strip_html` fuzz harnesses strip, one
//! JSON string per line, for `agentfence web strip --jsonl`: each file of
//! the given folders read as the harness reads it (`strip`: the bytes as
//! UTF-8, lossily; `strip_html`: the page the HTML generator builds from
//! them). `.ci/strip_identity` feeds them to two builds of the CLI and
//! compares the answers byte for byte, so that a faster strip is shown to
//! give the same answer on every input the fuzzers ever kept.
//!
//!     cargo run -p agentfence --example strip_inputs -- strip_html corpus/strip_html

use std::io::Write;
use std::process::ExitCode;

use arbitrary::Unstructured;

fn main() -> ExitCode {
    let mut args = std::env::args().skip(1);
    let target = args.next().unwrap_or_default();
    if target != "strip" && target != "strip_html" {
        eprintln!("usage: strip_inputs strip|strip_html <corpus folder>...");
        return ExitCode::from(2);
    }
    let mut files = Vec::new();
    for folder in args {
        let entries = match std::fs::read_dir(&folder) {
            Ok(entries) => entries,
            Err(error) => {
                eprintln!("{folder}: {error}");
                return ExitCode::FAILURE;
            }
        };
        files.extend(entries.flatten().map(|entry| entry.path()));
    }
    // Path order, so that two runs write the same lines.
    files.sort();
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    for path in files.iter().filter(|path| path.is_file()) {
        let Ok(data) = std::fs::read(path) else {
            eprintln!("{}: unreadable, skipped", path.display());
            continue;
        };
        let text = if target == "strip" {
            String::from_utf8_lossy(&data).into_owned()
        } else {
            match agentfence::fuzzing::html_grammar::page(&mut Unstructured::new(&data)) {
                Ok((page, _)) => page,
                Err(_) => continue,
            }
        };
        let line = serde_json::to_string(&text).expect("a String always serialises");
        if writeln!(out, "{line}").is_err() {
            return ExitCode::FAILURE;
        }
    }
    if out.flush().is_err() {
        return ExitCode::FAILURE;
    }
    ExitCode::SUCCESS
}
