//! Every case count the documents quote matches the vector files: a new
//! port author once found 353 chat cases in one document and 352 in
//! another (issue 15).
//!
//! The documents quote counts in the forms the runner prints, and those
//! forms are what this test reads:
//! - a file's summary line, `suite NAME VERSION: P passed, F failed,
//!   S skipped  [embedded vectors/FILE]` (without the bracket only for a
//!   suite of one file): the version is the file's, P + F + S its cases;
//! - a closing line alone in a code block, `P passed, F failed[, S
//!   skipped][, X expected failures]`: a whole run, so every case;
//! - UPSTREAM.md's matrix, whose columns are headed `NAME VERSION` or
//!   `NAME VERSION (FILE)` and `all files`: each cell, a tally or `not run
//!   (S skipped)`, adds up to its column's cases;
//! - a measured-figures row of README.md, `... NAME vectors where ... |
//!   N of M` or `FILE N of M, ...`: M is the cases of that suite or file.

use std::collections::BTreeMap;
use std::path::Path;

use agentfence_conformance::loader;
use agentfence_conformance::suites::SuiteRegistry;
use regex::Regex;

const DOCUMENTS: [&str; 4] = ["../README.md", "PROTOCOL.md", "PORTING.md", "UPSTREAM.md"];

/// A vector file's suite, version and case count, by file name.
struct Counts {
    files: BTreeMap<String, (String, String, usize)>,
    total: usize,
}

impl Counts {
    fn shipped() -> Counts {
        let vectors = loader::embedded(&SuiteRegistry::standard())
            .unwrap_or_else(|error| panic!("the vectors load: {error}"));
        let files: BTreeMap<String, (String, String, usize)> = vectors
            .files
            .iter()
            .map(|file| {
                (
                    file.source.file_name().into_owned(),
                    (file.suite.clone(), file.version.clone(), file.cases.len()),
                )
            })
            .collect();
        let total = files.values().map(|(_, _, count)| count).sum();
        Counts { files, total }
    }

    /// The file named `file`, or the only file of suite `suite`.
    fn file(&self, suite: &str, file: Option<&str>) -> Result<(&str, usize), String> {
        if let Some(name) = file {
            return self
                .files
                .get(name)
                .filter(|(own, _, _)| own == suite)
                .map(|(_, version, count)| (version.as_str(), *count))
                .ok_or_else(|| format!("no vector file {name} of suite {suite}"));
        }
        let of_suite: Vec<_> = self
            .files
            .values()
            .filter(|(own, _, _)| own == suite)
            .collect();
        match of_suite.as_slice() {
            [(_, version, count)] => Ok((version.as_str(), *count)),
            [] => Err(format!("no suite {suite}")),
            _ => Err(format!(
                "suite {suite} has several files: name the file in brackets"
            )),
        }
    }

    /// The cases of a file (`strip`, `envelope.json`) or of a suite.
    fn of_name(&self, name: &str) -> Option<usize> {
        let file = if name.ends_with(".json") {
            name.to_owned()
        } else {
            format!("{name}.json")
        };
        self.files
            .get(&file)
            .map(|(_, _, count)| *count)
            .or_else(|| {
                let counts: Vec<usize> = self
                    .files
                    .values()
                    .filter(|(suite, _, _)| suite == name)
                    .map(|(_, _, count)| *count)
                    .collect();
                (!counts.is_empty()).then(|| counts.iter().sum())
            })
    }
}

const TALLY: &str = r"(\d+) passed, (\d+) failed(?:, (\d+) skipped)?(?:, (\d+) expected failures)?";

/// P + F + S + X of a tally's captures, starting at group `first`.
fn tally_total(captures: &regex::Captures, first: usize) -> usize {
    (first..first + 4)
        .filter_map(|group| captures.get(group))
        .map(|count| count.as_str().parse::<usize>().unwrap_or(usize::MAX))
        .sum()
}

fn check_document(name: &str, text: &str, counts: &Counts) -> (usize, Vec<String>) {
    let summary = Regex::new(&format!(
        r"suite ([a-z]+) (\d+\.\d+\.\d+): {TALLY}(?:\s+\[(?:embedded vectors/|[^\]]*/)?([a-z_]+\.json)\])?"
    ))
    .expect("the summary pattern is valid");
    let closing = Regex::new(&format!(r"^(?:# )?{TALLY}$")).expect("the closing pattern is valid");
    let cell = Regex::new(&format!(r"^(?:{TALLY}|not run \((\d+) skipped\))$"))
        .expect("the cell pattern is valid");
    let column = Regex::new(r"^([a-z]+) (\d+\.\d+\.\d+)(?: \(([a-z_]+\.json)\))?$")
        .expect("the column pattern is valid");
    let share =
        Regex::new(r"(?:\b([a-z]+) )?(\d+) of (\d+)\b").expect("the share pattern is valid");
    let vectors_of = Regex::new(r"\b([a-z]+) vectors where\b").expect("the row pattern is valid");

    let mut checked = 0;
    let mut problems = Vec::new();
    let mut in_code = false;
    let mut header: Option<Vec<String>> = None;
    for (index, line) in text.lines().enumerate() {
        let at = format!("{name}:{}", index + 1);
        if line.trim_start().starts_with("```") {
            in_code = !in_code;
            continue;
        }
        for found in summary.captures_iter(line) {
            checked += 1;
            let suite = &found[1];
            let file = found.get(7).map(|file| file.as_str());
            match counts.file(suite, file) {
                Ok((version, count)) => {
                    if &found[2] != version {
                        problems.push(format!(
                            "{at}: suite {suite} is version {version}, not {}",
                            &found[2]
                        ));
                    }
                    let quoted = tally_total(&found, 3);
                    if quoted != count {
                        problems.push(format!(
                            "{at}: {quoted} cases quoted, the file has {count}: {line}"
                        ));
                    }
                }
                Err(problem) => problems.push(format!("{at}: {problem}")),
            }
        }
        if in_code && let Some(found) = closing.captures(line.trim()) {
            checked += 1;
            let quoted = tally_total(&found, 1);
            if quoted != counts.total {
                problems.push(format!(
                    "{at}: a closing line counts {quoted} cases, a whole run has {}: {line}",
                    counts.total
                ));
            }
        }
        // UPSTREAM.md's matrix: a header row naming suites and files, then
        // rows of tallies.
        if line.starts_with('|') {
            let cells: Vec<String> = line
                .trim()
                .trim_matches('|')
                .split('|')
                .map(|cell| cell.trim().to_owned())
                .collect();
            if cells.iter().any(|cell| column.is_match(cell)) {
                header = Some(cells.clone());
                continue;
            }
            if let Some(header) = &header {
                for (title, value) in header.iter().zip(&cells) {
                    let Some(found) = cell.captures(value) else {
                        continue;
                    };
                    let quoted = match found.get(5) {
                        Some(skipped) => skipped.as_str().parse().unwrap_or(usize::MAX),
                        None => tally_total(&found, 1),
                    };
                    let expected = if title == "all files" {
                        Some(counts.total)
                    } else if let Some(col) = column.captures(title) {
                        match counts.file(&col[1], col.get(3).map(|file| file.as_str())) {
                            Ok((version, count)) => {
                                if &col[2] != version {
                                    problems.push(format!(
                                        "{at}: column {title:?}: suite {} is version {version}",
                                        &col[1]
                                    ));
                                }
                                Some(count)
                            }
                            Err(problem) => {
                                problems.push(format!("{at}: column {title:?}: {problem}"));
                                None
                            }
                        }
                    } else {
                        None
                    };
                    if let Some(expected) = expected {
                        checked += 1;
                        if quoted != expected {
                            problems.push(format!("{at}: column {title:?} holds {expected} cases, the cell {value:?} counts {quoted}"));
                        }
                    }
                }
            }
            // A README figures row: "NAME vectors where ... | N of M".
            if let Some(suite) = vectors_of.captures(line) {
                for found in share.captures_iter(line) {
                    let name = found.get(1).map_or(&suite[1], |name| name.as_str());
                    let name = if counts.of_name(name).is_some() {
                        name
                    } else {
                        &suite[1]
                    };
                    let Some(count) = counts.of_name(name) else {
                        problems.push(format!("{at}: no suite or file {name}"));
                        continue;
                    };
                    checked += 1;
                    let quoted: usize = found[3].parse().unwrap_or(usize::MAX);
                    if quoted != count {
                        problems.push(format!(
                            "{at}: {name} has {count} cases, the row says {quoted}: {line}"
                        ));
                    }
                }
            }
        } else {
            header = None;
        }
    }
    (checked, problems)
}

#[test]
fn case_counts_in_the_documents_match_the_vectors() {
    let counts = Counts::shipped();
    let mut checked = 0;
    let mut problems = Vec::new();
    for document in DOCUMENTS {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(document);
        let text = std::fs::read_to_string(&path)
            .unwrap_or_else(|error| panic!("{}: {error}", path.display()));
        let (found, wrong) = check_document(document, &text, &counts);
        checked += found;
        problems.extend(wrong);
    }
    assert!(
        problems.is_empty(),
        "{} case count(s) in the documents do not match the vectors:\n  {}",
        problems.len(),
        problems.join("\n  ")
    );
    // The documents quote the suite in these forms today (PORTING's
    // example runs, UPSTREAM's matrix, README's figures): a reader that
    // finds none of them has stopped reading them.
    assert!(checked >= 30, "only {checked} counts recognised");
}

#[test]
fn a_wrong_count_in_each_form_is_found() {
    let counts = Counts::shipped();
    let chat = counts.of_name("chat").expect("a chat suite");
    let version = &counts.files["chat.json"].1;
    let text = format!(
        "```\nsuite chat {version}: 0 passed, 0 failed, {} skipped\n1 passed, 0 failed\n```\n\
         | implementation | chat {version} | all files |\n| --- | --- | --- |\n| x | not run ({} skipped) | 1 passed, 0 failed |\n\n\
         | chat vectors where x answers differently | 1 of {} |\n",
        chat + 1,
        chat - 1,
        chat + 2
    );
    let (checked, problems) = check_document("t.md", &text, &counts);
    assert_eq!(checked, 5, "{problems:?}");
    assert_eq!(problems.len(), 5, "{problems:#?}");
}
