//! The templates of real tool errors, harvested on a real machine (see each
//! file's `# how:` lines).
//!
//! The vocabulary is built from the wording of `tests/data/real_errors/`, so
//! that corpus measures what the vocabulary is for: most real messages must
//! keep at least two plain words (target: 90%). `tests/data/held_out_errors/`
//! holds messages of other tools (javac, java, g++, node, perl, archivers,
//! sqlite, tcl, qemu-img, openssl, gdb, valgrind, make, package managers)
//! that the vocabulary was not built from, so its figure is not flattered
//! by the vocabulary having seen them. Every template of both keeps the
//! whole contract.
//!
//! The figures the README quotes:
//! `cargo test -p agentfence --test real_errors -- --nocapture`.

use std::path::{Path, PathBuf};

use agentfence::template::{Scrubber, check_contract};

/// Share of harvested messages whose template must survive.
const SURVIVAL_TARGET: f64 = 0.90;

/// The floor for messages the vocabulary never saw: measured at 97.7%, kept
/// a few points below so that a vocabulary edit that costs real coverage
/// fails.
const HELD_OUT_FLOOR: f64 = 0.93;

/// The messages of one corpus file: every line but `# ` comments.
fn messages(path: &Path) -> Vec<String> {
    std::fs::read_to_string(path)
        .unwrap_or_else(|error| panic!("{} unreadable: {error}", path.display()))
        .lines()
        .filter(|line| !line.is_empty() && !line.starts_with("# "))
        .map(str::to_owned)
        .collect()
}

/// Templates every message of `tests/data/<folder>/*.txt`, asserts the
/// contract on each template, prints the share that survives per file, and
/// returns the share overall with the number of messages.
fn survival(folder: &str) -> (f64, usize) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(folder);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|error| panic!("{} unreadable: {error}", dir.display()))
        .map(|entry| entry.expect("a directory entry").path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "txt"))
        .collect();
    files.sort();
    let scrubber = Scrubber::new();
    let (mut kept, mut total) = (0usize, 0usize);
    for path in files {
        let messages = messages(&path);
        let mut survived = 0;
        for message in &messages {
            if let Some(template) = scrubber.template(message) {
                let checked = check_contract(&template, &scrubber);
                assert!(
                    checked.is_ok(),
                    "{}: {message:?} -> {template:?}: {checked:?}",
                    path.display()
                );
                survived += 1;
            }
        }
        let name = path
            .file_name()
            .map_or_else(String::new, |name| name.to_string_lossy().into_owned());
        println!(
            "{folder}/{name:<14} {survived:>4} of {:>4} kept ({:.1}%)",
            messages.len(),
            100.0 * survived as f64 / messages.len().max(1) as f64
        );
        kept += survived;
        total += messages.len();
    }
    let share = kept as f64 / total.max(1) as f64;
    println!(
        "{folder} all {kept} of {total} kept ({:.1}%)",
        100.0 * share
    );
    (share, total)
}

#[test]
fn most_real_errors_keep_two_plain_words_and_the_contract() {
    let (share, total) = survival("real_errors");
    assert!(total >= 500, "the corpus holds only {total} messages");
    assert!(
        share >= SURVIVAL_TARGET,
        "only {:.1}% of real errors keep two plain words",
        100.0 * share
    );
}

#[test]
fn held_out_errors_keep_two_plain_words_and_the_contract() {
    let (share, total) = survival("held_out_errors");
    assert!(
        total >= 400,
        "the held-out corpus holds only {total} messages"
    );
    assert!(
        share >= HELD_OUT_FLOOR,
        "only {:.1}% of held-out errors keep two plain words",
        100.0 * share
    );
}
