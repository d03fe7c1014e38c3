//! The template contract as a check anyone can run on an output: the fuzz
//! harness, the property tests and the conformance runner all use it, so a
//! guarantee is stated once.

use thiserror::Error;

use super::scrub::{
    SAFE_PUNCTUATION, is_known_identifier, is_own_slash_words, is_own_word, is_placeholder,
    split_edges,
};
use super::{MAX_TEMPLATE_CHARS, Scrubber};

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
}

/// Checks every guarantee of a template produced by `scrubber`.
pub fn check_contract(template: &str, scrubber: &Scrubber) -> Result<(), ContractViolation> {
    let chars = template.chars().count();
    if chars > MAX_TEMPLATE_CHARS {
        return Err(ContractViolation::TooLong { chars });
    }
    if let Some(digit) = template.chars().find(char::is_ascii_digit) {
        return Err(ContractViolation::Digit { digit });
    }
    if let Some(found) = template
        .chars()
        .find(|&c| !c.is_ascii_alphabetic() && !SAFE_PUNCTUATION.contains(c))
    {
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
        if !(punctuation_only
            || is_known_identifier(core, vocabulary)
            || is_own_word(core, vocabulary)
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
