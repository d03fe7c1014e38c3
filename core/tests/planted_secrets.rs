//! Secrets spelt in vocabulary words, planted in real-looking tool errors
//! (`tests/data/planted_secrets/messages.txt`): names, user and host
//! names, compounds, slash-joins, spaced and cut paths, padded quotes, ANSI
//! tricks, punctuation runs and `ctx_` names. A secret leaks when a word of
//! it shows in the template more often than in the template of the same
//! message with the secret replaced by a word of no vocabulary; this reader
//! counts words and marks itself and shares no code with the scrubber.
//!
//! The figures: `cargo test -p agentfence --test planted_secrets -- --nocapture`.

use std::collections::BTreeMap;

use agentfence::template::message_template;

/// Classes whose secret is a shape the rules close for every input: none
/// may leak.
const STRUCTURAL: &[&str] = &[
    "compound",
    "slash",
    "spaced_path",
    "cut_path",
    "quote",
    "ansi",
    "punct",
    "ctx",
];

/// Names and value names in sentence positions the rules cannot all tell
/// from wording (a host after `to`, a name after `by`): a handful may leak.
const MAX_NAME_LEAKS: usize = 3;

/// A stand-in for a secret: no vocabulary holds it.
const NEUTRAL: &str = "Qzxvq";

struct Case {
    class: String,
    message: String,
    control: String,
    secrets: Vec<String>,
}

fn cases() -> Vec<Case> {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/planted_secrets/messages.txt"
    );
    let text = std::fs::read_to_string(path).unwrap_or_else(|error| panic!("{path}: {error}"));
    let mut cases = Vec::new();
    for line in text.lines() {
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (class, marked) = line
            .split_once('\t')
            .unwrap_or_else(|| panic!("no class before a tab: {line:?}"));
        let marked = marked.replace("\\x1b", "\u{1b}");
        let (mut message, mut control, mut secrets) = (String::new(), String::new(), Vec::new());
        let mut rest = marked.as_str();
        while let Some(open) = rest.find("[[") {
            let close = rest[open..]
                .find("]]")
                .map(|at| open + at)
                .unwrap_or_else(|| panic!("unclosed [[ in {line:?}"));
            message.push_str(&rest[..open]);
            control.push_str(&rest[..open]);
            let secret = &rest[open + 2..close];
            message.push_str(secret);
            control.push_str(NEUTRAL);
            secrets.push(secret.to_string());
            rest = &rest[close + 2..];
        }
        message.push_str(rest);
        control.push_str(rest);
        assert!(!secrets.is_empty(), "no secret planted in {line:?}");
        cases.push(Case {
            class: class.to_string(),
            message,
            control,
            secrets,
        });
    }
    cases
}

/// The runs of ASCII letters of `text`, case kept.
fn letter_runs(text: &str) -> Vec<&str> {
    text.split(|c: char| !c.is_ascii_alphabetic())
        .filter(|run| !run.is_empty())
        .collect()
}

fn occurrences(haystack: &str, needle: &str) -> usize {
    if needle.is_empty() {
        return 0;
    }
    haystack.matches(needle).count()
}

/// The parts of `secret` that leak from `template` beyond what `control`
/// shows: its letter runs counted as words, or, for a secret without
/// letters, the secret itself.
fn leaked(secret: &str, template: &str, control: &str) -> Vec<String> {
    let runs = letter_runs(secret);
    if runs.is_empty() {
        return (occurrences(template, secret) > occurrences(control, secret))
            .then(|| secret.to_string())
            .into_iter()
            .collect();
    }
    let (words, control_words) = (letter_runs(template), letter_runs(control));
    let count = |list: &[&str], word: &str| list.iter().filter(|w| **w == word).count();
    runs.into_iter()
        .filter(|run| count(&words, run) > count(&control_words, run))
        .map(str::to_string)
        .collect()
}

#[test]
fn planted_vocabulary_secrets_do_not_survive() {
    let cases = cases();
    assert!(cases.len() >= 100, "only {} planted cases", cases.len());
    let mut per_class: BTreeMap<&str, (usize, usize)> = BTreeMap::new();
    let mut leaks = Vec::new();
    for case in &cases {
        let template = message_template(&case.message).unwrap_or_default();
        let control = message_template(&case.control).unwrap_or_default();
        let found: Vec<String> = case
            .secrets
            .iter()
            .flat_map(|secret| leaked(secret, &template, &control))
            .collect();
        let entry = per_class.entry(&case.class).or_default();
        entry.0 += 1;
        if !found.is_empty() {
            entry.1 += 1;
            leaks.push((case.class.as_str(), found, case.message.clone(), template));
        }
    }
    for (class, (total, leaked)) in &per_class {
        println!("{class:<12} {leaked:>3} of {total:>3} leak");
    }
    for (class, found, message, template) in &leaks {
        println!("LEAK {class}: {found:?}\n  in:  {message:?}\n  out: {template:?}");
    }
    let structural: Vec<_> = leaks
        .iter()
        .filter(|(class, ..)| STRUCTURAL.contains(class))
        .collect();
    let names = leaks.len() - structural.len();
    println!(
        "all {} of {} leak ({} structural, {names} names)",
        leaks.len(),
        cases.len(),
        structural.len()
    );
    assert!(
        structural.is_empty(),
        "{} structural leaks",
        structural.len()
    );
    assert!(names <= MAX_NAME_LEAKS, "{names} name leaks");
}

#[test]
fn the_reader_sees_a_leak_it_is_shown() {
    // The measure itself: a template that kept the secret is a leak, one
    // that hid it is not.
    assert_eq!(
        leaked("Max Power", "user Max Power on", "user ‹text› on"),
        ["Max", "Power"]
    );
    assert!(leaked("Max Power", "user ‹text› on", "user ‹text› on").is_empty());
    assert_eq!(leaked("(-.-)", "login (-.-) for", "login for"), ["(-.-)"]);
}
