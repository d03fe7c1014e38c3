//! The progress line `agentfence run` keeps on a terminal.
//!
//! It is drawn on stderr only when stderr is a terminal (and `TERM` is not
//! `dumb`), only once the run has taken more than a second, updated in
//! place (`\r`, then erase to the end of the line) as each case starts, and
//! erased before the report is written. Anywhere else (a pipe, a file, a CI
//! log, the tests) nothing at all is written. [`progress_line`] is the
//! rendering, a pure function; [`Progress`] decides when to draw;
//! [`Observed`] feeds it from the runner's calls to the implementation.

use std::collections::HashMap;
use std::io::{IsTerminal, Write};
use std::time::{Duration, Instant};

use crate::outcome::Answer;
use crate::protocol::ImplementationInfo;
use crate::runner::Implementation;
use crate::vectors::{Case, VectorFile};

/// How long a run goes before the line appears.
pub const DELAY: Duration = Duration::from_secs(1);

/// Moves to the start of the line and erases it.
const ERASE_LINE: &str = "\r\x1b[K";

/// Where a run is: `done` of `total` cases finished, the current one
/// `case` of vector file `file`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Position<'a> {
    pub done: usize,
    pub total: usize,
    /// The vector file, as `suite version (file name)`.
    pub file: &'a str,
    pub case: &'a str,
}

/// Cells of the bar between its brackets.
const BAR: usize = 20;

/// The progress line for `position`, at most `width - 1` characters (the
/// last column stays free, so the terminal never wraps it):
/// `[#########...........] 512/1106 cases  web 1.0.0 (fetch.json)  web-3012`.
/// The bar is left out below 40 columns.
pub fn progress_line(position: &Position, width: usize) -> String {
    let total = position.total.max(1);
    let done = position.done.min(total);
    let mut line = String::new();
    if width >= 40 {
        let filled = done * BAR / total;
        line.push('[');
        line.extend(std::iter::repeat_n('#', filled));
        line.extend(std::iter::repeat_n('.', BAR - filled));
        line.push_str("] ");
    }
    line.push_str(&format!(
        "{done}/{} cases  {}  {}",
        position.total, position.file, position.case
    ));
    let limit = width.saturating_sub(1);
    if line.chars().count() > limit {
        line = line.chars().take(limit).collect();
    }
    line
}

/// Draws [`progress_line`] on a terminal, or does nothing.
pub struct Progress<W: Write> {
    /// `None`: not a terminal, never draws.
    out: Option<W>,
    started: Instant,
    width: usize,
    /// Something is on the line that [`Progress::clear`] must erase.
    drawn: bool,
}

impl Progress<std::io::Stderr> {
    /// Progress on stderr if it is a terminal that understands the erase
    /// sequence, else an inert one; the line is as wide as `COLUMNS` says,
    /// or 80.
    pub fn stderr() -> Progress<std::io::Stderr> {
        let stderr = std::io::stderr();
        let terminal =
            stderr.is_terminal() && std::env::var_os("TERM").is_none_or(|term| term != "dumb");
        let width = std::env::var("COLUMNS")
            .ok()
            .and_then(|columns| columns.trim().parse().ok())
            .filter(|&columns: &usize| columns > 0)
            .unwrap_or(80);
        Progress::new(terminal.then_some(stderr), width, Instant::now())
    }
}

impl<W: Write> Progress<W> {
    /// A progress line drawn on `out` (none when `None`) for a run that
    /// started at `started`.
    pub fn new(out: Option<W>, width: usize, started: Instant) -> Progress<W> {
        Progress {
            out,
            started,
            width,
            drawn: false,
        }
    }

    /// Shows `position`, if the run started more than [`DELAY`] before
    /// `now`. Errors writing to the terminal are ignored: the line is a
    /// courtesy, the report is what counts.
    pub fn show_at(&mut self, now: Instant, position: &Position) {
        let Some(out) = &mut self.out else { return };
        if now.saturating_duration_since(self.started) <= DELAY {
            return;
        }
        let line = progress_line(position, self.width);
        let _ = write!(out, "{ERASE_LINE}{line}").and_then(|()| out.flush());
        self.drawn = true;
    }

    /// Erases the line, if one was drawn.
    pub fn clear(&mut self) {
        if let Some(out) = &mut self.out
            && self.drawn
        {
            let _ = write!(out, "{ERASE_LINE}").and_then(|()| out.flush());
            self.drawn = false;
        }
    }

    #[cfg(test)]
    fn into_inner(self) -> Option<W> {
        self.out
    }
}

/// An implementation that reports each case it is given to a [`Progress`]
/// before passing it on; everything else goes straight through.
pub struct Observed<'a, W: Write> {
    inner: &'a mut dyn Implementation,
    progress: Progress<W>,
    /// Each selected case's place in the run.
    positions: HashMap<String, usize>,
    total: usize,
    file: String,
}

impl<'a, W: Write> Observed<'a, W> {
    /// `ids`: the selected cases in the order the runner takes them.
    pub fn new<'i>(
        inner: &'a mut dyn Implementation,
        progress: Progress<W>,
        ids: impl IntoIterator<Item = &'i str>,
    ) -> Observed<'a, W> {
        let positions: HashMap<String, usize> = ids
            .into_iter()
            .enumerate()
            .map(|(index, id)| (id.to_owned(), index))
            .collect();
        Observed {
            inner,
            progress,
            total: positions.len(),
            positions,
            file: String::new(),
        }
    }

    /// Erases the line; call before writing anything else.
    pub fn clear(&mut self) {
        self.progress.clear();
    }
}

/// `suite version (file name)` of a vector file.
fn file_label(file: &VectorFile) -> String {
    let source = file.source.to_string();
    let name = source.rsplit(['/', '\\']).next().unwrap_or(&source);
    format!("{} {} ({name})", file.suite, file.version)
}

impl<W: Write> Implementation for Observed<'_, W> {
    fn info(&self) -> ImplementationInfo {
        self.inner.info()
    }

    fn supports(&self, op: &str) -> bool {
        self.inner.supports(op)
    }

    fn begin_file(&mut self, file: &VectorFile) -> Result<(), String> {
        self.file = file_label(file);
        self.inner.begin_file(file)
    }

    fn run_case(&mut self, file: &VectorFile, case: &Case) -> Answer {
        let done = self.positions.get(&case.id).copied().unwrap_or(0);
        self.progress.show_at(
            Instant::now(),
            &Position {
                done,
                total: self.total,
                file: &self.file,
                case: &case.id,
            },
        );
        self.inner.run_case(file, case)
    }

    fn finish(&mut self) {
        self.inner.finish();
        self.progress.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn position(done: usize, total: usize) -> Position<'static> {
        Position {
            done,
            total,
            file: "web 1.0.0 (fetch.json)",
            case: "web-3012",
        }
    }

    #[test]
    fn line_shows_the_bar_the_count_the_file_and_the_case() {
        assert_eq!(
            progress_line(&position(512, 1106), 80),
            "[#########...........] 512/1106 cases  web 1.0.0 (fetch.json)  web-3012"
        );
        assert_eq!(
            progress_line(&position(0, 10), 80),
            "[....................] 0/10 cases  web 1.0.0 (fetch.json)  web-3012"
        );
        assert_eq!(
            progress_line(&position(10, 10), 80),
            "[####################] 10/10 cases  web 1.0.0 (fetch.json)  web-3012"
        );
    }

    #[test]
    fn line_fits_the_terminal() {
        let line = progress_line(&position(512, 1106), 50);
        assert_eq!(line.chars().count(), 49, "{line}");
        assert!(line.starts_with("[#########...........] 512/1106 cases"));
        assert_eq!(
            progress_line(&position(3, 7), 30),
            "3/7 cases  web 1.0.0 (fetch.j"
        );
        assert_eq!(progress_line(&position(3, 7), 0), "");
        // Nothing to divide by: no panic, an empty bar.
        assert!(progress_line(&position(0, 0), 80).starts_with("[....................] 0/0"));
    }

    #[test]
    fn nothing_is_drawn_in_the_first_second_then_drawn_in_place_and_erased() {
        let start = Instant::now();
        let mut progress = Progress::new(Some(Vec::new()), 80, start);
        progress.show_at(start + Duration::from_millis(500), &position(1, 4));
        progress.clear();
        assert_eq!(
            progress.out.as_deref(),
            Some(&b""[..]),
            "a quick run draws nothing, and has nothing to erase"
        );
        progress.show_at(start + Duration::from_millis(1500), &position(2, 4));
        progress.show_at(start + Duration::from_millis(1600), &position(3, 4));
        progress.clear();
        let written = String::from_utf8(progress.into_inner().expect("a terminal")).expect("UTF-8");
        assert_eq!(
            written,
            format!(
                "\r\x1b[K{}\r\x1b[K{}\r\x1b[K",
                progress_line(&position(2, 4), 80),
                progress_line(&position(3, 4), 80)
            )
        );
    }

    #[test]
    fn without_a_terminal_nothing_is_ever_written() {
        let start = Instant::now();
        let mut progress: Progress<Vec<u8>> = Progress::new(None, 80, start);
        progress.show_at(start + Duration::from_secs(5), &position(1, 4));
        progress.clear();
        assert!(progress.into_inner().is_none());
    }
}
