//! Precision on real, benign pages (issue 14): the HTML documentation of
//! the Rust toolchain that runs the tests (`$(rustc --print sysroot)/share/
//! doc/rust/html`, on every machine with the `rust-docs` component), a
//! spread of at least 1,000 pages (every n-th in path order). None of them
//! attacks a model, so a page strip changes is a false positive; at most
//! 0.5% may change. A second set is the other HTML documentation the
//! machine has installed (Debian's `/usr/share/doc`, npm's docs), a third
//! the Markdown docs of the crates the build compiled, a fourth the
//! change logs, news files and other text docs Debian's packages install
//! gzipped under `/usr/share/doc`, a fifth the manual pages. The figures
//! are printed; without the pages a test says it was skipped.
//!
//! `AGENTFENCE_SHOW_CHANGED=1` prints what was removed from each changed
//! page.

use agentfence::web::strip::{STRIPPED, strip};

#[path = "support/rust_docs.rs"]
mod rust_docs;
use rust_docs::{doc_root, files_ending, html_files};

use std::path::{Path, PathBuf};

/// Pages read: at least the 1,000.
const PAGES: usize = 1_200;

/// Most pages that may change, in thousandths.
const MAX_CHANGED_PER_MILLE: usize = 5;

/// The words around each `[STRIPPED]` of `out`, for the report.
fn removals(out: &str) -> Vec<String> {
    out.match_indices(STRIPPED)
        .map(|(at, _)| {
            let start = out.floor_char_boundary(at.saturating_sub(60));
            let end = out.ceil_char_boundary((at + STRIPPED.len() + 60).min(out.len()));
            out[start..end].replace('\n', " ")
        })
        .collect()
}

/// What stripping some pages changed.
struct Changed {
    read: usize,
    bytes: usize,
    /// The changed pages, by path under the root they were found in.
    changed: Vec<String>,
}

impl Changed {
    /// Prints the figure for `what` and fails past 0.5% changed.
    fn assert_at_most_half_a_percent(&self, what: &str) {
        let Changed {
            read,
            bytes,
            changed,
        } = self;
        println!(
            "{} of {read} {what} ({bytes} bytes) changed: {:.2}% (at most {:.1}% allowed): {changed:?}",
            changed.len(),
            changed.len() as f64 * 100.0 / (*read).max(1) as f64,
            MAX_CHANGED_PER_MILLE as f64 / 10.0,
        );
        assert!(
            changed.len() * 1000 <= read * MAX_CHANGED_PER_MILLE,
            "{} of {read} benign {what} changed: {changed:?}",
            changed.len()
        );
    }
}

/// Strips each of `paths` (found under `root`) and names those whose text
/// changed, as a reader of the two texts sees it, whatever the labels
/// say; `AGENTFENCE_SHOW_CHANGED` prints what was removed.
fn changed_pages(root: &Path, paths: &[PathBuf]) -> Changed {
    changed_texts(root, paths, |path| std::fs::read(path).ok())
}

/// [`changed_pages`] for texts that `read` gets from each path (`None`
/// for one that cannot be read, which is not counted).
fn changed_texts(
    root: &Path,
    paths: &[PathBuf],
    read_text: impl Fn(&Path) -> Option<Vec<u8>>,
) -> Changed {
    let show = std::env::var_os("AGENTFENCE_SHOW_CHANGED").is_some();
    let mut read = 0;
    let mut bytes = 0;
    let mut changed = Vec::new();
    for path in paths {
        let Some(raw) = read_text(path) else {
            continue;
        };
        let page = String::from_utf8_lossy(&raw);
        read += 1;
        bytes += page.len();
        let out = strip(&page);
        if out.text != page {
            let name = path
                .strip_prefix(root)
                .unwrap_or(path)
                .display()
                .to_string();
            if show {
                println!("{name}: {:?}", out.removed_patterns);
                for removal in removals(&out.text) {
                    println!("    {removal}");
                }
            }
            changed.push(name);
        }
    }
    Changed {
        read,
        bytes,
        changed,
    }
}

#[test]
fn at_most_half_a_percent_of_real_doc_pages_change() {
    let root = match doc_root() {
        Ok(root) => root,
        Err(why) => {
            eprintln!("SKIPPED: no Rust HTML docs to read ({why})");
            return;
        }
    };
    let mut paths = Vec::new();
    html_files(&root, &mut paths);
    let Some(picked) = spread(&paths, PAGES, &root) else {
        return;
    };
    let pages = changed_pages(&root, &picked);
    assert!(
        pages.read >= 1_000,
        "only {} pages could be read",
        pages.read
    );
    pages.assert_at_most_half_a_percent("Rust doc pages");
}

/// Other documentation than the Rust docs, where the machine has it: the
/// HTML pages Debian's packages install under `/usr/share/doc` (nettle,
/// Node.js, valgrind, libxslt, …; `.ci/run` adds the git, Python and
/// PostgreSQL manuals, 3,106 pages in all instead of 316) and npm's own
/// docs, each at most `MAX_OTHER_PAGE` bytes so that a debug test run
/// stays short. 7 of 404 such pages had changed (issue 14, web 2.3.0), and
/// of the three manuals' pages of any size 53 of 2,728 had (web 2.14.0
/// fixed them; `conformance/tools/benign_pages.py` measures those); at
/// most 0.5% may. Without enough of them the test says it was skipped.
#[test]
fn at_most_half_a_percent_of_other_installed_doc_pages_change() {
    const MAX_OTHER_PAGE: u64 = 64 * 1024;
    const MIN_PAGES: usize = 100;
    let root = Path::new("/");
    let mut paths = Vec::new();
    for dir in ["/usr/share/doc", "/usr/lib/node_modules/npm/docs"] {
        html_files(Path::new(dir), &mut paths);
    }
    paths.retain(|path| std::fs::metadata(path).is_ok_and(|meta| meta.len() <= MAX_OTHER_PAGE));
    if too_few(paths.len(), MIN_PAGES, "installed HTML doc pages") {
        return;
    }
    changed_pages(root, &paths).assert_at_most_half_a_percent("installed doc pages");
}

/// The Markdown documentation of the crates this build compiled (each
/// crate's top-level `*.md` in Cargo's registry: READMEs, changelogs,
/// licences, contributing guides), on every machine that builds the
/// project. Identical texts (the same licence in many crates) count once,
/// and the upstream crates this project measures itself against are left
/// out: their docs quote injections on purpose. Found on them (issue 14):
/// `Notwithstanding the above` of the Apache-2.0 licence, `AIX:` in a
/// changelog, a `### Changed` heading over a `task:`, a `# Instructions
/// for AI Agents` heading; at most 0.5% may change.
#[test]
fn at_most_half_a_percent_of_the_built_crates_markdown_docs_change() {
    const MIN_FILES: usize = 100;
    const MEASURED: [&str; 3] = ["agentsec", "lean-ctx", "prompty"];
    let home = std::env::var_os("CARGO_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|home| Path::new(&home).join(".cargo")));
    let Some(sources) = home.map(|home| home.join("registry/src")) else {
        eprintln!("SKIPPED: no CARGO_HOME or HOME to find Cargo's registry");
        return;
    };
    let mut paths = Vec::new();
    for index in std::fs::read_dir(&sources).into_iter().flatten().flatten() {
        for krate in std::fs::read_dir(index.path())
            .into_iter()
            .flatten()
            .flatten()
        {
            let name = krate.file_name().to_string_lossy().into_owned();
            if MEASURED.iter().any(|measured| name.starts_with(measured)) {
                continue;
            }
            for file in std::fs::read_dir(krate.path())
                .into_iter()
                .flatten()
                .flatten()
            {
                let path = file.path();
                if path.extension().is_some_and(|ext| ext == "md") {
                    paths.push(path);
                }
            }
        }
    }
    let paths = distinct_texts(paths, |path| std::fs::read(path).ok());
    let what = format!("Markdown files under {}", sources.display());
    if too_few(paths.len(), MIN_FILES, &what) {
        return;
    }
    changed_pages(&sources, &paths).assert_at_most_half_a_percent("crates' Markdown docs");
}

/// The change logs, news files, READMEs and other text docs Debian's
/// packages install gzipped under `/usr/share/doc` (`changelog.Debian.gz`,
/// `NEWS.gz`, curl's Markdown docs, GDB's reference card): prose and code
/// about programs that handle keys, passwords and cookies, much of it in
/// the imperative of change-log entries. Read here: each distinct text of
/// at most `MAX_TEXT` bytes once decompressed, so that a debug test run
/// stays short. On this project's machine that is 1,557 texts, of which
/// 18 had changed with the rules of web 2.16.0 (`Show error if entered
/// passwords do not match`, `* agent: Do not delete any secret key`,
/// `@include common-password`, `## User` over a description of curl's
/// roles) and 5 with those of web 2.17.0 (issue 14); at most 0.5% may.
#[test]
fn at_most_half_a_percent_of_installed_gzipped_text_docs_change() {
    const MAX_TEXT: u64 = 128 * 1024;
    const MIN_TEXTS: usize = 100;
    let root = Path::new("/usr/share/doc");
    let mut paths = Vec::new();
    files_ending(root, "gz", &mut paths);
    let paths = distinct_texts(paths, |path| gunzipped(path, MAX_TEXT));
    if too_few(
        paths.len(),
        MIN_TEXTS,
        "gzipped text docs under /usr/share/doc",
    ) {
        return;
    }
    changed_texts(root, &paths, |path| gunzipped(path, MAX_TEXT))
        .assert_at_most_half_a_percent("gzipped text docs");
}

/// The manual pages installed in English (`/usr/share/man/man1` to
/// `man8`, gzipped troff, as `man` reads them): what commands, calls and
/// files do with passwords, keys, cookies and credentials, in the
/// imperative of option lists. A spread of `PAGES` distinct pages of at
/// most `MAX_TEXT` bytes (every n-th in path order). Measured first on
/// every such page of this project's machine: 82 of 20,768 changed with
/// the rules of web 2.16.0 (0.39%; `To list versions for a model, use …`
/// and `a specific iOS model, run …` in gcloud's pages, `may be used to
/// print information about good passwords`), 50 with those of web 2.17.0
/// (issue 14); at most 0.5% may change.
#[test]
fn at_most_half_a_percent_of_installed_manual_pages_change() {
    const MAX_TEXT: u64 = 64 * 1024;
    const PAGES: usize = 2_000;
    let root = Path::new("/usr/share/man");
    let mut paths = Vec::new();
    for section in 1..=8 {
        files_ending(&root.join(format!("man{section}")), "gz", &mut paths);
    }
    let paths = distinct_texts(paths, |path| gunzipped(path, MAX_TEXT));
    let Some(picked) = spread(&paths, PAGES, root) else {
        return;
    };
    changed_texts(root, &picked, |path| gunzipped(path, MAX_TEXT))
        .assert_at_most_half_a_percent("manual pages");
}

/// `pages` of `paths` spread evenly over them (every n-th), or `None`,
/// said to be a skip, when there are fewer (found under `root`).
fn spread(paths: &[PathBuf], pages: usize, root: &Path) -> Option<Vec<PathBuf>> {
    if too_few(
        paths.len(),
        pages,
        &format!("pages under {}", root.display()),
    ) {
        return None;
    }
    let step = paths.len() / pages;
    Some(paths.iter().step_by(step).take(pages).cloned().collect())
}

/// Whether `found` of `what` are fewer than the `least` a test needs,
/// which it then says it skipped.
fn too_few(found: usize, least: usize, what: &str) -> bool {
    if found < least {
        eprintln!("SKIPPED: {found} {what}, fewer than {least}");
    }
    found < least
}

/// `paths` in path order, without those `read` gets no text from or the
/// same text as from one before.
fn distinct_texts(
    mut paths: Vec<PathBuf>,
    read: impl Fn(&Path) -> Option<Vec<u8>>,
) -> Vec<PathBuf> {
    paths.sort();
    let mut seen = std::collections::HashSet::new();
    paths.retain(|path| read(path).is_some_and(|text| seen.insert(text)));
    paths
}

/// The text of the gzipped file at `path`, if it is one of at most `max`
/// bytes once decompressed: one longer is left out, not cut (a cut could
/// split a marker, or make one), and so is a compressed binary (a
/// `.pdf.gz`, a `.ps.gz`: a NUL byte).
fn gunzipped(path: &Path, max: u64) -> Option<Vec<u8>> {
    use std::io::Read;
    let file = std::fs::File::open(path).ok()?;
    let mut text = Vec::new();
    flate2::read::GzDecoder::new(file)
        .take(max + 1)
        .read_to_end(&mut text)
        .ok()?;
    (text.len() as u64 <= max && !text.contains(&0)).then_some(text)
}
