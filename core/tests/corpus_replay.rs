//! Replays every committed fuzz input under `corpus/` through its harness,
//! so the corpus (seeds and minimised crashes alike) is a regression suite
//! that runs on stable Rust in every `cargo test`.

use std::path::{Path, PathBuf};

use agentfence::fuzzing;

fn corpus_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus")
}

/// Folders under `corpus/` that hold data for something other than a fuzz
/// target (dictionaries, the labelled injection corpus).
const NOT_TARGETS: &[&str] = &["dict", "injection"];

fn files_of(target: &str) -> Vec<PathBuf> {
    let dir = corpus_root().join(target);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|error| panic!("corpus folder {} unreadable: {error}", dir.display()))
        .map(|entry| entry.expect("a directory entry of the corpus").path())
        .filter(|path| path.is_file())
        .collect();
    files.sort();
    files
}

#[test]
fn every_corpus_folder_has_a_harness() {
    let root = corpus_root();
    for entry in std::fs::read_dir(&root).expect("corpus/ exists at the repository root") {
        let entry = entry.expect("a directory entry of corpus/");
        let name = entry.file_name().to_string_lossy().into_owned();
        if !entry.path().is_dir() || NOT_TARGETS.contains(&name.as_str()) {
            continue;
        }
        assert!(
            fuzzing::harness(&name).is_some(),
            "corpus/{name} has no harness in agentfence::fuzzing::TARGETS"
        );
    }
}

#[test]
fn every_harness_replays_its_corpus() {
    // The differential targets' harnesses run with agentfence standing in
    // for the upstream crate (`fuzz-upstream/` runs them against it).
    for (target, harness) in fuzzing::TARGETS
        .iter()
        .chain(fuzzing::differential::TARGETS)
    {
        let files = files_of(target);
        assert!(!files.is_empty(), "corpus/{target} holds no seed");
        for file in files {
            let data = std::fs::read(&file).expect("a corpus file is readable");
            let outcome = std::panic::catch_unwind(|| harness(&data));
            assert!(
                outcome.is_ok(),
                "corpus file {} breaks the {target} harness",
                file.display()
            );
        }
    }
}

#[test]
fn every_target_has_a_dictionary() {
    for (target, _) in fuzzing::TARGETS
        .iter()
        .chain(fuzzing::differential::TARGETS)
    {
        let dict = corpus_root().join("dict").join(format!("{target}.dict"));
        assert!(dict.is_file(), "{} is missing", dict.display());
    }
}

/// Every `[[bin]]` of `fuzz/Cargo.toml` and `fuzz-upstream/Cargo.toml` is a
/// target with a harness (so with a corpus folder and a dictionary).
#[test]
fn every_fuzz_binary_has_a_harness() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    for package in ["fuzz", "fuzz-upstream"] {
        let manifest = std::fs::read_to_string(root.join(package).join("Cargo.toml"))
            .expect("the fuzz package's manifest is readable");
        for line in manifest.lines() {
            if let Some(name) = line
                .strip_prefix("name = \"")
                .and_then(|rest| rest.strip_suffix('"'))
                && !name.starts_with("agentfence")
            {
                assert!(
                    fuzzing::harness(name).is_some(),
                    "{package}/Cargo.toml's target {name} has no harness"
                );
            }
        }
    }
}
