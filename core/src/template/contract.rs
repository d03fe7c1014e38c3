//! The template contract as a check anyone can run on an output: the fuzz
//! harness, the property tests and the conformance runner all use it, so a
//! guarantee is stated once.

use thiserror::Error;

use super::scrub::{
    SAFE_PUNCTUATION, is_known_identifier, is_own_slash_words, is_own_word, is_placeholder,
    split_edges,
};
use super::{FailureKind, MAX_TEMPLATE_CHARS, Scrubber};

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
