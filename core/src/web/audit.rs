//! The audit row of one sanitize call.
//!
//! Guarantees:
//! - the row is `<home>/web_log/<UTC time>-<id prefix>.json`, a name
//!   without colons or anything from outside (the id prefix keeps only
//!   ASCII letters, digits and `-`), so it is a portable file name that
//!   cannot leave the folder;
//! - it is written atomically: a reader sees no row or the whole row,
//!   never part of one, and a crash leaves at worst a hidden temporary
//!   file, never a half-written row;
//! - it is owner-only from its creation (file 0o600, and the folder 0o700
//!   when this creates it; on unix);
//! - an existing row is never overwritten: a second row with the same
//!   name gets a suffix (`-1`, `-2`, …);
//! - the row holds exactly the [`SanitizedContent`] it is given, with
//!   `log_path` set to the row's own path; error messages name the path,
//!   never the content.

use std::fs::{self, File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use time::OffsetDateTime;

use super::{SanitizedContent, WebError};

/// The folder under the home that holds the rows.
pub const LOG_DIR: &str = "web_log";

/// How many names are tried before the write gives up.
const MAX_ATTEMPTS: usize = 1000;

/// Writes `content` as the audit row of a fetch started at `fetched_at`,
/// sets its `log_path` to the row's path and returns that path.
pub fn write_row(
    home: &Path,
    content: &mut SanitizedContent,
    fetched_at: OffsetDateTime,
) -> Result<PathBuf, WebError> {
    let dir = home.join(LOG_DIR);
    create_dir(&dir).map_err(|error| io_error("cannot create the audit folder", &dir, &error))?;
    let stem = format!("{}-{}", file_timestamp(fetched_at), id_prefix(&content.id));
    for attempt in 0..MAX_ATTEMPTS {
        let name = match attempt {
            0 => format!("{stem}.json"),
            n => format!("{stem}-{n}.json"),
        };
        let path = dir.join(name);
        // Cheap skip of taken names; `publish` is what actually refuses
        // to overwrite, should another writer take the name meanwhile.
        if path.symlink_metadata().is_ok() {
            continue;
        }
        content.log_path.clone_from(&path);
        let row = serde_json::to_vec_pretty(&*content).map_err(|error| WebError::Io {
            reason: format!("cannot serialize the audit row {}: {error}", path.display()),
        })?;
        let temporary = write_temporary(&dir, &stem, &row)?;
        match publish(&temporary, &path) {
            Ok(()) => {
                sync_dir(&dir);
                return Ok(path);
            }
            Err(error) if error.kind() == io::ErrorKind::AlreadyExists => continue,
            Err(error) => return Err(io_error("cannot write the audit row", &path, &error)),
        }
    }
    content.log_path = PathBuf::new();
    Err(WebError::Io {
        reason: format!(
            "cannot write the audit row {}: {MAX_ATTEMPTS} names taken",
            dir.join(format!("{stem}.json")).display()
        ),
    })
}

/// `YYYY-MM-DDTHHMMSSZ` in UTC: RFC 3339 without the colons, which
/// Windows and some sync tools refuse in file names.
pub fn file_timestamp(at: OffsetDateTime) -> String {
    format!("{}Z", super::utc_date_time(super::utc(at), ""))
}

/// The first 8 characters of the id that are ASCII letters, digits or
/// `-` (all of a generated id's are); `id` if none is.
pub fn id_prefix(id: &str) -> String {
    let prefix: String = id
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || *c == '-')
        .take(8)
        .collect();
    if prefix.is_empty() {
        "id".to_owned()
    } else {
        prefix
    }
}

fn io_error(what: &str, path: &Path, error: &io::Error) -> WebError {
    // The io::Error's text comes from the OS (`Permission denied`, …) and
    // never holds file content.
    WebError::Io {
        reason: format!("{what} {}: {error}", path.display()),
    }
}

fn create_dir(dir: &Path) -> io::Result<()> {
    let mut builder = fs::DirBuilder::new();
    builder.recursive(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::DirBuilderExt;
        builder.mode(0o700);
    }
    builder.create(dir)
}

/// Writes `row` to a new hidden file beside the row, owner-only from its
/// creation (so no other user can open it between creation and a later
/// chmod), and flushes it to disk so the row it becomes is complete.
fn write_temporary(dir: &Path, stem: &str, row: &[u8]) -> Result<PathBuf, WebError> {
    for _ in 0..MAX_ATTEMPTS {
        let path = dir.join(format!(".{stem}.{}.tmp", random_hex()));
        let mut options = OpenOptions::new();
        options.write(true).create_new(true);
        #[cfg(unix)]
        {
            use std::os::unix::fs::OpenOptionsExt;
            options.mode(0o600);
        }
        let mut file = match options.open(&path) {
            Ok(file) => file,
            Err(error) if error.kind() == io::ErrorKind::AlreadyExists => continue,
            Err(error) => {
                return Err(io_error(
                    "cannot create the temporary audit file",
                    &path,
                    &error,
                ));
            }
        };
        let written = file.write_all(row).and_then(|()| file.sync_all());
        if let Err(error) = written {
            drop(file);
            let _ = fs::remove_file(&path);
            return Err(io_error(
                "cannot write the temporary audit file",
                &path,
                &error,
            ));
        }
        return Ok(path);
    }
    Err(WebError::Io {
        reason: format!("cannot create a temporary audit file in {}", dir.display()),
    })
}

/// Gives the temporary file its final name without ever replacing an
/// existing file, and removes the temporary name.
///
/// `rename` would replace a row written meanwhile under the same name,
/// so the new name is a hard link, which fails with `AlreadyExists`
/// instead, and is as atomic. Where hard links are not supported (some
/// network and FAT file systems) it falls back to `rename` after a
/// check, which can only lose a race no local writer runs.
fn publish(temporary: &Path, path: &Path) -> io::Result<()> {
    let outcome = match fs::hard_link(temporary, path) {
        Ok(()) => Ok(()),
        Err(error) if error.kind() == io::ErrorKind::AlreadyExists => Err(error),
        Err(_) if path.symlink_metadata().is_ok() => Err(io::ErrorKind::AlreadyExists.into()),
        Err(_) => {
            return fs::rename(temporary, path).inspect_err(|_| {
                let _ = fs::remove_file(temporary);
            });
        }
    };
    // The temporary name goes whatever happened: on success the row
    // lives on under its final name, on failure it is not needed.
    let _ = fs::remove_file(temporary);
    outcome
}

/// Makes the new directory entry durable. Best effort: some platforms
/// cannot open or sync a directory, and the row itself is already on
/// disk.
fn sync_dir(dir: &Path) {
    if let Ok(handle) = File::open(dir) {
        let _ = handle.sync_all();
    }
}

fn random_hex() -> String {
    let mut bytes = [0u8; 8];
    // Without randomness the name is still unique enough with the
    // process id and the time, and `create_new` refuses a clash anyway.
    if getrandom::fill(&mut bytes).is_err() {
        let fallback =
            u64::from(std::process::id()) ^ OffsetDateTime::now_utc().unix_timestamp_nanos() as u64;
        bytes = fallback.to_le_bytes();
    }
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}
