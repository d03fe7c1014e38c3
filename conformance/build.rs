//! Embeds every file under `vectors/` into the library, so `agentfence run`
//! works from any directory and a new vector file needs no code change.
//!
//! The list is generated rather than written by hand because a forgotten
//! `include_str!` would silently drop a suite from the default run.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

fn main() {
    let manifest_dir = PathBuf::from(
        std::env::var_os("CARGO_MANIFEST_DIR").expect("cargo always sets CARGO_MANIFEST_DIR"),
    );
    let vectors_dir = manifest_dir.join("vectors");
    // Cargo rescans a directory given here, so added or removed files rerun
    // this script too.
    println!("cargo::rerun-if-changed=vectors");

    let mut files = Vec::new();
    collect_files(&vectors_dir, &vectors_dir, &mut files);
    files.sort();

    let mut generated = String::from("&[\n");
    for (relative, absolute) in &files {
        writeln!(
            generated,
            "    ({relative:?}, include_str!({absolute:?})),",
            absolute = absolute.display().to_string()
        )
        .expect("writing to a String cannot fail");
    }
    generated.push_str("]\n");

    let out_dir = PathBuf::from(
        std::env::var_os("OUT_DIR").expect("cargo always sets OUT_DIR for build scripts"),
    );
    std::fs::write(out_dir.join("embedded_vectors.rs"), generated)
        .unwrap_or_else(|error| panic!("cannot write {}: {error}", out_dir.display()));
}

/// Vector files and the data they name, relative to `vectors/` with `/`
/// separators; dot files (editor leftovers) are skipped.
fn collect_files(root: &Path, dir: &Path, files: &mut Vec<(String, PathBuf)>) {
    let entries = std::fs::read_dir(dir)
        .unwrap_or_else(|error| panic!("cannot read {}: {error}", dir.display()));
    for entry in entries {
        let entry = entry.unwrap_or_else(|error| panic!("cannot read {}: {error}", dir.display()));
        let path = entry.path();
        let name = entry.file_name();
        if name.to_string_lossy().starts_with('.') {
            continue;
        }
        if path.is_dir() {
            collect_files(root, &path, files);
        } else {
            let relative = path
                .strip_prefix(root)
                .expect("every collected path lies under the vectors directory")
                .components()
                .map(|part| part.as_os_str().to_string_lossy().into_owned())
                .collect::<Vec<_>>()
                .join("/");
            files.push((relative, path));
        }
    }
}
