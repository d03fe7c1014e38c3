//! Guards on the repository as a whole.
//!
//! - It stands alone: a person who clones it can read everything code,
//!   tests, vectors and documents cite. A citation of the design brief or
//!   the research notes the project started from (files outside the
//!   repository), a `docs/….md` path or a relative Markdown link naming a
//!   file that is not there, or a `#section` that the cited file does not
//!   define, fails (docs/design.md#citations).
//! - A test target built with `harness = false` holds no `#[test]`
//!   function: such a function is compiled out and would pass by never
//!   running.
//!
//! The files are those `git ls-files` lists, or, without git, those found
//! by walking the tree; with neither the trials end as ignored, saying why.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::Command;

use libtest_mimic::{Arguments, Completion, Failed, Trial};
use regex::Regex;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("the conformance crate sits in the repository root")
        .to_path_buf()
}

/// The repository's files, relative to its root with `/`, and how they
/// were listed; `Err` says why there is no listing.
fn repository_files(root: &Path) -> Result<(Vec<String>, &'static str), String> {
    match Command::new("git")
        .arg("-C")
        .arg(root)
        .args(["ls-files", "-z"])
        .output()
    {
        Ok(output) if output.status.success() => {
            let files = String::from_utf8_lossy(&output.stdout)
                .split('\0')
                .filter(|path| !path.is_empty() && root.join(path).is_file())
                .map(str::to_owned)
                .collect();
            return Ok((files, "git ls-files"));
        }
        _ => {}
    }
    // Not a git checkout (a source archive), or git is missing.
    let mut files = Vec::new();
    walk(root, root, &mut files)
        .map_err(|error| format!("neither git nor a readable tree: {error}"))?;
    if files.is_empty() {
        return Err("neither git nor a readable tree".into());
    }
    files.sort();
    Ok((files, "a walk of the tree"))
}

/// Folders a walk skips: build output, VCS data, fuzzing's working folders.
fn skipped_folder(relative: &str) -> bool {
    let name = relative.rsplit('/').next().unwrap_or(relative);
    name.starts_with('.') && name != ".ci" && name != ".github" && name != ".clusterfuzzlite"
        || name.starts_with("target")
        || name == "__pycache__"
        || matches!(
            relative,
            "fuzz/corpus" | "fuzz/artifacts" | "fuzz/coverage" | "fuzz-upstream/corpus"
        )
}

fn walk(root: &Path, dir: &Path, files: &mut Vec<String>) -> std::io::Result<()> {
    for entry in std::fs::read_dir(dir)? {
        let path = entry?.path();
        let relative = path
            .strip_prefix(root)
            .expect("a walked path is under the root")
            .to_string_lossy()
            .replace('\\', "/");
        if path.is_dir() {
            if !skipped_folder(&relative) {
                walk(root, &path, files)?;
            }
        } else {
            files.push(relative);
        }
    }
    Ok(())
}

/// Files whose text is data, not prose that cites: fuzz inputs, labelled
/// corpora, harvested error messages (their own `.md` files are prose).
fn is_data(path: &str) -> bool {
    (path.starts_with("corpus/") && !path.ends_with(".md"))
        || path.starts_with("core/tests/data/")
        || path.starts_with("core/proptest-regressions/")
        || path.ends_with(".lock")
}

/// GitHub's id for a heading: lowercase, punctuation but `-` and `_`
/// dropped, spaces as `-`.
fn slug(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
            _ => None,
        })
        .collect()
}

/// The section ids a Markdown file defines: its headings' ids (outside code
/// fences, repeated ones numbered as GitHub does) and `<a id>`/`<a name>`.
fn section_ids(text: &str) -> BTreeSet<String> {
    let explicit = Regex::new(r#"<a\s+(?:id|name)="([^"]+)""#).expect("a valid pattern");
    let mut ids = BTreeSet::new();
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    let mut fence: Option<&str> = None;
    for line in text.lines() {
        let trimmed = line.trim_start();
        for marker in ["```", "~~~"] {
            if trimmed.starts_with(marker) {
                fence = match fence {
                    Some(open) if open == marker => None,
                    None => Some(marker),
                    other => other,
                };
            }
        }
        if fence.is_some() {
            continue;
        }
        for found in explicit.captures_iter(line) {
            ids.insert(found[1].to_owned());
        }
        let hashes = trimmed.chars().take_while(|&c| c == '#').count();
        if (1..=6).contains(&hashes) && trimmed[hashes..].starts_with(' ') {
            let base = slug(trimmed[hashes..].trim_end_matches('#'));
            let count = seen.entry(base.clone()).or_insert(0);
            ids.insert(if *count == 0 {
                base.clone()
            } else {
                format!("{base}-{count}")
            });
            *count += 1;
        }
    }
    ids
}

/// `relative` from the folder of `from`, with `.` and `..` resolved;
/// `None` when it leaves the repository.
fn resolve(from: &str, relative: &str) -> Option<String> {
    let mut parts: Vec<&str> = from.split('/').collect();
    parts.pop();
    for part in relative.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                parts.pop()?;
            }
            part => parts.push(part),
        }
    }
    Some(parts.join("/"))
}

struct Citations {
    /// Spellings that name the files the project started from, which the
    /// repository does not hold (written in pieces so this file does not
    /// cite them itself).
    outside: Regex,
    /// `docs/<name>.md`, with an optional `#section`.
    docs: Regex,
    /// A Markdown link's target.
    link: Regex,
    /// A section of docs/upstream-faults.md cited by id alone, after the file
    /// was named once (`#prompty-role-by-mode`).
    fault_id: Regex,
}

impl Citations {
    fn new() -> Citations {
        let outside = [
            regex::escape(&["DESIGN", ".md"].concat()),
            [r"\bresearch/", r"[a-z]+\.md"].concat(),
            regex::escape(&["..", "/shared"].concat()),
            regex::escape(&["/work", "/shared"].concat()),
        ]
        .join("|");
        Citations {
            outside: Regex::new(&outside).expect("a valid pattern"),
            docs: Regex::new(r"(?:^|[^\w./-])(docs/[\w.-]+\.md)(?:#([\w-]+))?")
                .expect("a valid pattern"),
            link: Regex::new(r"\]\(([^()\s]+)\)").expect("a valid pattern"),
            fault_id: Regex::new(r"(?:^|[\s(,;])#((?:leanctx|prompty|agentsec)-[a-z0-9-]+)")
                .expect("a valid pattern"),
        }
    }
}

/// How many citations were checked, and those that point at nothing the
/// repository holds.
fn broken_citations(files: &[String], root: &Path) -> (usize, Vec<String>) {
    let held: BTreeSet<&str> = files.iter().map(String::as_str).collect();
    let mut sections: BTreeMap<String, Option<BTreeSet<String>>> = BTreeMap::new();
    let mut sections_of = |path: &str| -> Option<BTreeSet<String>> {
        sections
            .entry(path.to_owned())
            .or_insert_with(|| {
                std::fs::read_to_string(root.join(path))
                    .ok()
                    .map(|text| section_ids(&text))
            })
            .clone()
    };
    let citations = Citations::new();
    let mut broken = Vec::new();
    let mut checked = 0;
    for path in files.iter().filter(|path| !is_data(path)) {
        let Ok(text) = std::fs::read_to_string(root.join(path)) else {
            continue; // not text
        };
        for (number, line) in text.lines().enumerate() {
            let at = format!("{path}:{}", number + 1);
            if let Some(found) = citations.outside.find(line) {
                broken.push(format!(
                    "{at}: cites {:?}, which is outside the repository; cite docs/ instead",
                    found.as_str()
                ));
            }
            let mut cited: Vec<(String, Option<String>)> = Vec::new();
            for found in citations.docs.captures_iter(line) {
                cited.push((
                    found[1].to_owned(),
                    found.get(2).map(|m| m.as_str().to_owned()),
                ));
            }
            if path.ends_with(".md") {
                for found in citations.link.captures_iter(line) {
                    let target = &found[1];
                    if target.contains("://") || target.starts_with("mailto:") {
                        continue;
                    }
                    let (file, section) = match target.split_once('#') {
                        Some((file, section)) => (file, Some(section.to_owned())),
                        None => (target, None),
                    };
                    let file = if file.is_empty() {
                        Some(path.clone())
                    } else {
                        resolve(path, file)
                    };
                    match file {
                        Some(file) => cited.push((file, section)),
                        None => broken.push(format!("{at}: {target} leaves the repository")),
                    }
                }
            }
            if citations.fault_id.is_match(line) {
                for found in citations.fault_id.captures_iter(line) {
                    cited.push((
                        "docs/upstream-faults.md".to_owned(),
                        Some(found[1].to_owned()),
                    ));
                }
            }
            checked += cited.len();
            for (file, section) in cited {
                let is_folder = files.iter().any(|held| {
                    held.strip_prefix(file.trim_end_matches('/'))
                        .is_some_and(|rest| rest.starts_with('/'))
                });
                if !held.contains(file.as_str()) && !is_folder {
                    broken.push(format!(
                        "{at}: cites {file}, which the repository does not hold"
                    ));
                    continue;
                }
                let Some(section) = section.filter(|_| file.ends_with(".md")) else {
                    continue;
                };
                let defined = sections_of(&file).unwrap_or_default();
                if !defined.contains(&section) {
                    broken.push(format!(
                        "{at}: cites {file}#{section}, which {file} does not define"
                    ));
                }
            }
        }
    }
    (checked, broken)
}

/// `[[test]]` targets with `harness = false` in `Cargo.toml` files, as
/// their source paths.
fn harness_false_targets(files: &[String], root: &Path) -> Vec<String> {
    let mut targets = Vec::new();
    for manifest in files.iter().filter(|path| path.ends_with("Cargo.toml")) {
        let Ok(text) = std::fs::read_to_string(root.join(manifest)) else {
            continue;
        };
        let folder = manifest.trim_end_matches("Cargo.toml");
        for table in text.split("[[test]]").skip(1) {
            let table = table.split("\n[").next().unwrap_or_default();
            let field = |key: &str| {
                table.lines().find_map(|line| {
                    let (name, value) = line.split_once('=')?;
                    (name.trim() == key).then(|| value.trim().trim_matches('"').to_owned())
                })
            };
            if field("harness").as_deref() != Some("false") {
                continue;
            }
            let source = match (field("path"), field("name")) {
                (Some(path), _) => format!("{folder}{path}"),
                (None, Some(name)) => format!("{folder}tests/{name}.rs"),
                (None, None) => continue,
            };
            targets.push(source);
        }
    }
    targets
}

fn repository_cites_only_files_it_holds() -> Result<Completion, Failed> {
    let root = root();
    let (files, listing) = match repository_files(&root) {
        Ok(found) => found,
        Err(reason) => return Ok(Completion::ignored_with(format!("skipped: {reason}"))),
    };
    let (checked, broken) = broken_citations(&files, &root);
    if broken.is_empty() {
        println!(
            "{} files listed by {listing}: all {checked} citations of files and sections resolve",
            files.len()
        );
        Ok(Completion::Completed)
    } else {
        Err(format!("{} broken citations:\n{}", broken.len(), broken.join("\n")).into())
    }
}

fn no_test_attribute_in_a_harness_false_target() -> Result<Completion, Failed> {
    let root = root();
    let (files, _) = match repository_files(&root) {
        Ok(found) => found,
        Err(reason) => return Ok(Completion::ignored_with(format!("skipped: {reason}"))),
    };
    let targets = harness_false_targets(&files, &root);
    if targets.is_empty() {
        return Err("no `harness = false` test target found: the manifest reader is broken".into());
    }
    let mut found = Vec::new();
    for target in &targets {
        let text = std::fs::read_to_string(root.join(target))
            .map_err(|error| format!("{target} unreadable: {error}"))?;
        for (number, line) in text.lines().enumerate() {
            if line.trim() == "#[test]" {
                found.push(format!("{target}:{}", number + 1));
            }
        }
    }
    if found.is_empty() {
        Ok(Completion::Completed)
    } else {
        Err(format!(
            "`#[test]` in a `harness = false` target is never run; add it to the target's trials:\n{}",
            found.join("\n")
        )
        .into())
    }
}

fn main() {
    let arguments = Arguments::from_args();
    let trials = vec![
        Trial::ignorable_test(
            "repository_cites_only_files_it_holds",
            repository_cites_only_files_it_holds,
        ),
        Trial::ignorable_test(
            "no_test_attribute_in_a_harness_false_target",
            no_test_attribute_in_a_harness_false_target,
        ),
        Trial::test("section_ids_are_githubs", || {
            let text = "# Design\n## Template contract\n```\n# not a heading\n```\n\
                        ### prompty-nonce-coercion\n## Runner\n## Runner\n<a id=\"kept\"></a>\n";
            let ids: Vec<String> = section_ids(text).into_iter().collect();
            let expected = [
                "design",
                "kept",
                "prompty-nonce-coercion",
                "runner",
                "runner-1",
                "template-contract",
            ];
            if ids == expected {
                Ok(())
            } else {
                Err(format!("section ids {ids:?}, expected {expected:?}").into())
            }
        }),
        Trial::test("a_citation_outside_the_repository_is_found", || {
            let citations = Citations::new();
            let outside = [
                ["see ", "DESIGN", ".md"].concat(),
                ["(", "research/", "prompty.md §4)"].concat(),
                ["", "..", "/shared/seeds/x.txt"].concat(),
            ];
            for line in &outside {
                if !citations.outside.is_match(line) {
                    return Err(format!("{line:?} was not found").into());
                }
            }
            for line in [
                "cites docs/design.md",
                "a research/ folder of users",
                "shared/",
            ] {
                if citations.outside.is_match(line) {
                    return Err(format!("{line:?} was taken for a citation").into());
                }
            }
            Ok(())
        }),
    ];
    libtest_mimic::run(&arguments, trials).exit();
}
