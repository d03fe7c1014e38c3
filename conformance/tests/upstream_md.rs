//! `conformance/UPSTREAM.md` explains every divergence from an upstream
//! project: each vector flagged `upstream-divergence` is listed in the
//! section of every upstream whose answer it records, and every id the page
//! names is a vector (in an upstream's section, one that diverges from that
//! upstream).

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use agentfence_conformance::loader;
use agentfence_conformance::suites::SuiteRegistry;
use agentfence_conformance::vectors::VectorSet;

const DIVERGENCE: &str = "upstream-divergence";

fn upstream_md() -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("UPSTREAM.md");
    std::fs::read_to_string(&path).unwrap_or_else(|error| panic!("{}: {error}", path.display()))
}

/// The vector ids in `text`: words of lower-case letters, a hyphen and four
/// digits (`template-0003`, `web-3061`).
fn ids_in(text: &str) -> BTreeSet<String> {
    text.split(|c: char| !(c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-'))
        .filter(|word| {
            word.split_once('-').is_some_and(|(prefix, number)| {
                !prefix.is_empty()
                    && prefix.bytes().all(|b| b.is_ascii_lowercase())
                    && number.len() == 4
                    && number.bytes().all(|b| b.is_ascii_digit())
            })
        })
        .map(str::to_owned)
        .collect()
}

/// The `## ` sections of the page, by heading line.
fn sections(markdown: &str) -> BTreeMap<String, String> {
    let mut sections = BTreeMap::new();
    let mut current: Option<(String, String)> = None;
    for line in markdown.lines() {
        if let Some(heading) = line.strip_prefix("## ") {
            sections.extend(current.take());
            current = Some((heading.to_owned(), String::new()));
        } else if let Some((_, body)) = &mut current {
            body.push_str(line);
            body.push('\n');
        }
    }
    sections.extend(current);
    sections
}

/// The section of upstream `key` (`lean-ctx@3.12.0`): the one whose heading
/// starts with `lean-ctx 3.12.0`.
fn section<'a>(sections: &'a BTreeMap<String, String>, key: &str) -> Option<&'a str> {
    let title = key.replacen('@', " ", 1);
    sections
        .iter()
        .find(|(heading, _)| {
            heading
                .strip_prefix(&title)
                .is_some_and(|rest| !rest.starts_with(|c: char| c.is_alphanumeric() || c == '.'))
        })
        .map(|(_, body)| body.as_str())
}

/// Divergent case ids by upstream key.
fn divergences(vectors: &VectorSet) -> BTreeMap<String, BTreeSet<String>> {
    let mut by_upstream: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (_, case) in vectors.cases() {
        if case.has_flag(DIVERGENCE) {
            assert!(
                !case.upstream.is_empty(),
                "{} is flagged {DIVERGENCE} but records no upstream answer",
                case.id
            );
            for key in case.upstream.keys() {
                by_upstream
                    .entry(key.clone())
                    .or_default()
                    .insert(case.id.clone());
            }
        }
    }
    by_upstream
}

fn embedded() -> VectorSet {
    loader::embedded(&SuiteRegistry::standard()).unwrap_or_else(|error| panic!("{error}"))
}

#[test]
fn every_divergence_is_listed_under_its_upstream() {
    let markdown = upstream_md();
    let sections = sections(&markdown);
    let mut missing = Vec::new();
    for (key, ids) in divergences(&embedded()) {
        let Some(body) = section(&sections, &key) else {
            missing.push(format!("no `## {}` section", key.replacen('@', " ", 1)));
            continue;
        };
        let listed = ids_in(body);
        missing.extend(
            ids.iter()
                .filter(|id| !listed.contains(*id))
                .map(|id| format!("{id} ({key})")),
        );
    }
    assert!(
        missing.is_empty(),
        "UPSTREAM.md does not explain {} divergence(s); list each under a reason of its upstream's section:\n  {}",
        missing.len(),
        missing.join("\n  ")
    );
}

#[test]
fn every_listed_id_is_a_vector_and_diverges_where_listed() {
    let markdown = upstream_md();
    let vectors = embedded();
    let known: BTreeSet<String> = vectors.cases().map(|(_, case)| case.id.clone()).collect();
    let unknown: Vec<String> = ids_in(&markdown).difference(&known).cloned().collect();
    assert!(
        unknown.is_empty(),
        "UPSTREAM.md names ids that are no vector: {unknown:?}"
    );

    let sections = sections(&markdown);
    let mut misplaced = Vec::new();
    for (key, ids) in divergences(&vectors) {
        if let Some(body) = section(&sections, &key) {
            misplaced.extend(
                ids_in(body)
                    .difference(&ids)
                    .map(|id| format!("{id} is listed under {key} but does not diverge from it")),
            );
        }
    }
    assert!(misplaced.is_empty(), "{}", misplaced.join("\n"));
}

#[test]
fn ids_are_found_as_words() {
    let ids = ids_in(
        "a template-0003, web-3061 and (chat-0002); not lean-ctx, utf-8, web-NNNN or xweb-12345",
    );
    assert_eq!(
        ids.into_iter().collect::<Vec<_>>(),
        ["chat-0002", "template-0003", "web-3061"]
    );
}
