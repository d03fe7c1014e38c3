//! The templates of real tool errors, harvested on a real machine into
//! `tests/data/real_errors/` (see each file's `# how:` lines).
//!
//! The vocabulary is built from the wording of these messages, so the
//! corpus measures what the vocabulary is for: most real messages must keep
//! at least two plain words (target: 90%), and every template must still
//! keep the whole contract.

use std::path::{Path, PathBuf};

use agentfence::template::{Scrubber, check_contract};

/// Share of messages whose template must survive (two plain words or more).
const SURVIVAL_TARGET: f64 = 0.90;

/// The floor for messages the vocabulary never saw: measured at 97.7%
/// (see the README), kept a few points below so that a vocabulary edit that
/// costs real coverage fails.
const HELD_OUT_FLOOR: f64 = 0.93;

fn corpus_files() -> Vec<PathBuf> {
    files_in("real_errors")
}

fn files_in(folder: &str) -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(folder);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|error| panic!("{} unreadable: {error}", dir.display()))
        .map(|entry| entry.expect("a directory entry").path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "txt"))
        .collect();
    files.sort();
    files
}

/// The messages of one corpus file: every line but `# ` comments.
fn messages(path: &Path) -> Vec<String> {
    std::fs::read_to_string(path)
        .unwrap_or_else(|error| panic!("{} unreadable: {error}", path.display()))
        .lines()
        .filter(|line| !line.is_empty() && !line.starts_with("# "))
        .map(str::to_owned)
        .collect()
}

#[test]
fn real_error_templates_keep_the_contract() {
    let scrubber = Scrubber::new();
    for path in corpus_files() {
        for message in messages(&path) {
            if let Some(template) = scrubber.template(&message) {
                let checked = check_contract(&template, &scrubber);
                assert!(
                    checked.is_ok(),
                    "{}: {message:?} -> {template:?}: {checked:?}",
                    path.display()
                );
            }
        }
    }
}

/// Prints the per-source figures the README quotes:
/// `cargo test -p agentfence --test real_errors -- --nocapture`.
#[test]
fn most_real_errors_keep_two_plain_words() {
    let scrubber = Scrubber::new();
    let (mut kept, mut total) = (0usize, 0usize);
    for path in corpus_files() {
        let messages = messages(&path);
        let survived = messages
            .iter()
            .filter(|message| scrubber.template(message).is_some())
            .count();
        println!(
            "{:<14} {survived:>4} of {:>4} kept ({:.1}%)",
            path.file_name()
                .map_or_else(String::new, |name| name.to_string_lossy().into_owned()),
            messages.len(),
            100.0 * survived as f64 / messages.len().max(1) as f64
        );
        kept += survived;
        total += messages.len();
    }
    assert!(total >= 500, "the corpus holds only {total} messages");
    let share = kept as f64 / total as f64;
    println!(
        "all            {kept:>4} of {total:>4} kept ({:.1}%)",
        100.0 * share
    );
    assert!(
        share >= SURVIVAL_TARGET,
        "only {:.1}% of real errors keep two plain words",
        100.0 * share
    );
}

/// The same measure on messages the vocabulary was not built from
/// (`tests/data/held_out_errors/`: javac, java, g++, node, perl, archivers,
/// sqlite, tcl, qemu-img, openssl, gdb, valgrind, make, package managers),
/// so the figure is not flattered by the vocabulary having seen them.
#[test]
fn held_out_errors_keep_two_plain_words_and_the_contract() {
    let scrubber = Scrubber::new();
    let (mut kept, mut total) = (0usize, 0usize);
    for path in files_in("held_out_errors") {
        let messages = messages(&path);
        let mut survived = 0;
        for message in &messages {
            if let Some(template) = scrubber.template(message) {
                let checked = check_contract(&template, &scrubber);
                assert!(checked.is_ok(), "{message:?} -> {template:?}: {checked:?}");
                survived += 1;
            }
        }
        println!(
            "held out {:<14} {survived:>4} of {:>4} kept ({:.1}%)",
            path.file_name()
                .map_or_else(String::new, |name| name.to_string_lossy().into_owned()),
            messages.len(),
            100.0 * survived as f64 / messages.len().max(1) as f64
        );
        kept += survived;
        total += messages.len();
    }
    assert!(
        total >= 400,
        "the held-out corpus holds only {total} messages"
    );
    let share = kept as f64 / total as f64;
    println!(
        "held out all            {kept:>4} of {total:>4} kept ({:.1}%)",
        100.0 * share
    );
    assert!(
        share >= HELD_OUT_FLOOR,
        "only {:.1}% of held-out errors keep two plain words",
        100.0 * share
    );
}
