//! The Rust toolchain's own HTML docs as a corpus of real, benign pages:
//! found through `rustc --print sysroot` and walked in path order. Shared by
//! the precision test (`benign_real_pages`) and the strip bench, which
//! include this file with `#[path]`.

use std::path::{Path, PathBuf};

/// The toolchain's HTML docs, or why there are none.
pub fn doc_root() -> Result<PathBuf, String> {
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".into());
    let out = std::process::Command::new(&rustc)
        .args(["--print", "sysroot"])
        .output()
        .map_err(|error| format!("{rustc} --print sysroot: {error}"))?;
    let sysroot = String::from_utf8_lossy(&out.stdout).trim().to_owned();
    let root = Path::new(&sysroot).join("share/doc/rust/html");
    if root.is_dir() {
        Ok(root)
    } else {
        Err(format!("{} is missing", root.display()))
    }
}

/// Every `.html` file under `dir`, in path order, appended to `into`.
pub fn html_files(dir: &Path, into: &mut Vec<PathBuf>) {
    files_ending(dir, "html", into);
}

/// Every file under `dir` whose extension is `extension`, in path order,
/// appended to `into`.
pub fn files_ending(dir: &Path, extension: &str, into: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<PathBuf> = entries.flatten().map(|entry| entry.path()).collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            files_ending(&path, extension, into);
        } else if path.extension().is_some_and(|ext| ext == extension) {
            into.push(path);
        }
    }
}
