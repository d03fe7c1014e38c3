//! `agentfence vectors fmt` and `agentfence vectors check`: rewrite vector
//! files in their canonical form ([`crate::canonical`]), or verify that
//! they are in it.
//!
//! Exit status: 0 all files canonical (or formatted), 1 `check` found a
//! file that is not, 2 a path that cannot be read, parsed or written.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Args, Subcommand};

use super::{EXIT_FAILURE, EXIT_USAGE};
use crate::canonical::{canonical, first_difference};

#[derive(Debug, Args)]
pub struct VectorsArgs {
    #[command(subcommand)]
    pub command: VectorsCommand,
}

#[derive(Debug, Subcommand)]
pub enum VectorsCommand {
    /// Rewrite vector files in canonical form (the form
    /// tools/record_upstream.py writes).
    Fmt(PathsArgs),
    /// Check that vector files are in canonical form; for each one that is
    /// not, print its first difference and exit 1.
    Check(PathsArgs),
}

#[derive(Debug, Args)]
pub struct PathsArgs {
    /// Vector files, or directories whose *.json files are taken. Without
    /// any: conformance/vectors, or else vectors, under the current
    /// directory.
    #[arg(value_name = "PATH")]
    pub paths: Vec<PathBuf>,
}

pub fn vectors_command(args: &VectorsArgs) -> ExitCode {
    let (paths, rewrite) = match &args.command {
        VectorsCommand::Fmt(paths) => (&paths.paths, true),
        VectorsCommand::Check(paths) => (&paths.paths, false),
    };
    let files = match files_of(paths) {
        Ok(files) => files,
        Err(message) => {
            eprintln!("agentfence vectors: {message}");
            return ExitCode::from(EXIT_USAGE);
        }
    };
    let mut stdout = std::io::stdout().lock();
    let mut broken = 0;
    let mut not_canonical = 0;
    for file in &files {
        let shown = file.display();
        let text = match std::fs::read_to_string(file) {
            Ok(text) => text,
            Err(error) => {
                eprintln!("{shown}: cannot read: {error}");
                broken += 1;
                continue;
            }
        };
        let formatted = match canonical(&text) {
            Ok(formatted) => formatted,
            Err(error) => {
                eprintln!("{shown}:{}:{}: {}", error.line, error.column, error.message);
                broken += 1;
                continue;
            }
        };
        let Some(difference) = first_difference(&text, &formatted) else {
            continue;
        };
        not_canonical += 1;
        let written = if rewrite {
            match replace_contents(file, &formatted) {
                Ok(()) => writeln!(stdout, "formatted {shown}"),
                Err(error) => {
                    eprintln!("{shown}: cannot write: {error}");
                    broken += 1;
                    continue;
                }
            }
        } else {
            writeln!(
                stdout,
                "{shown}:{}:{}: not in canonical form (`agentfence vectors fmt {shown}` rewrites it); {difference}",
                difference.line, difference.column
            )
        };
        if written.is_err() {
            return ExitCode::from(EXIT_FAILURE);
        }
    }
    let summary = if rewrite {
        format!("{} files, {not_canonical} reformatted", files.len())
    } else {
        format!(
            "{} files, {not_canonical} not in canonical form",
            files.len()
        )
    };
    let _ = writeln!(stdout, "{summary}");
    if broken > 0 {
        ExitCode::from(EXIT_USAGE)
    } else if not_canonical > 0 && !rewrite {
        ExitCode::from(EXIT_FAILURE)
    } else {
        ExitCode::SUCCESS
    }
}

/// The files the paths name: a file as is, a directory's `*.json` files
/// in name order.
fn files_of(paths: &[PathBuf]) -> Result<Vec<PathBuf>, String> {
    let defaults;
    let paths = if paths.is_empty() {
        defaults = [
            PathBuf::from("conformance/vectors"),
            PathBuf::from("vectors"),
        ];
        let found = defaults.iter().find(|dir| dir.is_dir()).ok_or_else(|| {
            "no PATH given and neither conformance/vectors nor vectors is a directory here"
                .to_owned()
        })?;
        std::slice::from_ref(found)
    } else {
        paths
    };
    let mut files = Vec::new();
    for path in paths {
        if !path.is_dir() {
            files.push(path.clone());
            continue;
        }
        let entries = std::fs::read_dir(path)
            .map_err(|error| format!("cannot read {}: {error}", path.display()))?;
        let mut found = Vec::new();
        for entry in entries {
            let entry =
                entry.map_err(|error| format!("cannot read {}: {error}", path.display()))?;
            let file = entry.path();
            if file.extension().is_some_and(|ext| ext == "json") && file.is_file() {
                found.push(file);
            }
        }
        if found.is_empty() {
            return Err(format!("{} holds no *.json file", path.display()));
        }
        found.sort();
        files.extend(found);
    }
    Ok(files)
}

/// Replaces a file's contents through a temporary file beside it, so an
/// interrupted run leaves the old file or the new one, never half of one.
fn replace_contents(path: &Path, contents: &str) -> std::io::Result<()> {
    let dir = path
        .parent()
        .filter(|parent| !parent.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let permissions = std::fs::metadata(path)?.permissions();
    let mut temporary = tempfile::NamedTempFile::new_in(dir)?;
    temporary.write_all(contents.as_bytes())?;
    temporary.as_file().sync_all()?;
    temporary.as_file().set_permissions(permissions)?;
    temporary.persist(path).map_err(|error| error.error)?;
    Ok(())
}
