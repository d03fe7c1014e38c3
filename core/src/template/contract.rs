//! The template contract as a check anyone can run on an output: the fuzz
//! harness, the property tests and the conformance runner all use it, so a
//! guarantee is stated once.

use thiserror::Error;

use super::scrub::{
    SAFE_PUNCTUATION, is_known_identifier, is_own_slash_words, is_own_word, is_placeholder,
    split_edges,
};
use super::{FailureKind, MAX_TEMPLATE_CHARS, PLACEHOLDERS, Scrubber};

/// A way a template breaks the contract.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ContractViolation {
    #[error("template has {chars} chars, more than {MAX_TEMPLATE_CHARS}")]
    TooLong { chars: usize },
    #[error("template holds the digit {digit:?}")]
    Digit { digit: char },
    #[error("template holds {found:?}, outside the safe charset")]
    UnsafeChar { found: char },
    #[error("template holds {found:?}, which is not one of the seven placeholders")]
    UnknownPlaceholder { found: String },
    #[error("template word {word:?} is neither a vocabulary word nor a known identifier")]
    NotAVocabularyWord { word: String },
    #[error("template has fewer than two plain words")]
    TooFewWords,
    #[error("templating the template changes it to {again:?}")]
    NotIdempotent { again: Option<String> },
    #[error("the message was classified {kind:?}, which is not one of the documented kinds")]
    UndocumentedKind { kind: String },
    #[error("the planted secrets {secrets:?} survive in the template")]
    SecretSurvives { secrets: Vec<String> },
}

/// Checks every guarantee of what `scrubber` makes of `message`: its class
/// is one of the documented kinds, and its template, when it has one, keeps
/// the whole contract ([`check_contract`]).
pub fn check_message(message: &str, scrubber: &Scrubber) -> Result<(), ContractViolation> {
    let report = scrubber.report(message);
    if !FailureKind::ALL.contains(&report.kind) {
        return Err(ContractViolation::UndocumentedKind {
            kind: format!("{:?}", report.kind),
        });
    }
    match &report.template {
        Some(template) => check_contract(template, scrubber),
        None => Ok(()),
    }
}

/// Checks every guarantee of a template produced by `scrubber`.
pub fn check_contract(template: &str, scrubber: &Scrubber) -> Result<(), ContractViolation> {
    // One pass for the length and both charset checks; a digit is reported
    // as such before any other unsafe character, and the length first.
    let (mut chars, mut digit, mut unsafe_char) = (0, None, None);
    for c in template.chars() {
        chars += 1;
        if c.is_ascii_alphabetic() {
            continue;
        }
        if c.is_ascii_digit() {
            digit = digit.or(Some(c));
        } else if unsafe_char.is_none() && !SAFE_PUNCTUATION.contains(c) {
            unsafe_char = Some(c);
        }
    }
    if chars > MAX_TEMPLATE_CHARS {
        return Err(ContractViolation::TooLong { chars });
    }
    if let Some(digit) = digit {
        return Err(ContractViolation::Digit { digit });
    }
    if let Some(found) = unsafe_char {
        return Err(ContractViolation::UnsafeChar { found });
    }
    let vocabulary = scrubber.vocabulary();
    let mut plain_words = 0;
    for word in template.split(' ') {
        let (_, core, _) = split_edges(word);
        if is_placeholder(core) {
            continue;
        }
        if core.contains(['‹', '›']) {
            return Err(ContractViolation::UnknownPlaceholder {
                found: core.to_string(),
            });
        }
        if core.bytes().filter(u8::is_ascii_alphabetic).count() >= 2 {
            plain_words += 1;
        }
        let punctuation_only = !core.bytes().any(|b| b.is_ascii_alphanumeric());
        // The vocabulary lookup first: most words are vocabulary words, and
        // the known identifiers are a list compared one by one.
        if !(punctuation_only
            || is_own_word(core, vocabulary)
            || is_known_identifier(core, vocabulary)
            || is_own_slash_words(core, vocabulary))
        {
            return Err(ContractViolation::NotAVocabularyWord {
                word: core.to_string(),
            });
        }
    }
    if plain_words < 2 {
        return Err(ContractViolation::TooFewWords);
    }
    let again = scrubber.template(template);
    if again.as_deref() != Some(template) {
        return Err(ContractViolation::NotIdempotent { again });
    }
    Ok(())
}

/// Checks that no planted secret survives in `template`: the text a
/// generator put into the message knowing it must not reach telemetry. The
/// template is read without the scrubber's rules, so that a rule that is
/// wrong cannot also excuse itself: the placeholders are blanked, then a
/// secret that is a word (ASCII letters only) survives when it is one of
/// the template's runs of letters, ignoring case, and any other secret (a
/// run of marks, a `ctx_` name) when it is a piece of the template's text.
pub fn check_secrets<S: AsRef<str>>(
    template: &str,
    secrets: &[S],
) -> Result<(), ContractViolation> {
    let mut blanked = template.to_string();
    for placeholder in PLACEHOLDERS {
        blanked = blanked.replace(placeholder, " ");
    }
    let runs: Vec<String> = blanked
        .split(|c: char| !c.is_ascii_alphabetic())
        .filter(|run| !run.is_empty())
        .map(str::to_ascii_lowercase)
        .collect();
    let mut surviving: Vec<String> = Vec::new();
    for secret in secrets.iter().map(AsRef::as_ref) {
        let survives = if !secret.is_empty() && secret.bytes().all(|b| b.is_ascii_alphabetic()) {
            runs.contains(&secret.to_ascii_lowercase())
        } else {
            !secret.is_empty() && blanked.contains(secret)
        };
        if survives && !surviving.iter().any(|seen| seen == secret) {
            surviving.push(secret.to_string());
        }
    }
    if surviving.is_empty() {
        Ok(())
    } else {
        Err(ContractViolation::SecretSurvives { secrets: surviving })
    }
}
