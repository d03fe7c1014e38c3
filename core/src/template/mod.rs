//! Failure templates: a tool's error message made safe to send as telemetry.
//!
//! Guarantees, for every input of any size and content:
//! - the template is at most [`MAX_TEMPLATE_CHARS`] chars of ASCII letters,
//!   [`SAFE_PUNCTUATION`] and the seven [`Placeholder`]s, and holds no digit;
//! - every plain word is a word of the [`Vocabulary`] (its possessive, or a
//!   compound or slash form the vocabulary lists whole) or a known
//!   identifier: no path, number, name or secret of the input survives;
//! - nor does one spelt in vocabulary words: the word after a noun that
//!   names a value ([`VALUE_NOUNS`]) is the value, capitalised words in a
//!   row are a name unless the vocabulary lists them as pairs, a listed
//!   name alone inside a clause is one, a path with spaces runs through its
//!   folder words (to the end of its clause, or of the window when the
//!   window cuts it), a quote padded with spaces is a quote, a malformed
//!   colour code swallows no text, and a run of marks is at most three;
//! - every `‹…›` is one of the seven placeholders, never input passed through;
//! - templating a template returns it unchanged;
//! - the work is linear in the input: only the first non-empty line is read,
//!   and of it only the first [`MAX_INPUT_CHARS`] chars.
//!
//! The rules follow lean-ctx's `failure_template` (seed
//! `000_3740eb3ea3ac5da7`, docs/design.md#seeds), fixing the leaks measured
//! in lean-ctx 3.12.0 (docs/upstream-faults.md, its lean-ctx section):
//! placeholder-shaped input, contraction apostrophes pairing with quotes,
//! long and cut quotes, `\r`/U+2028/U+2029 not ending the line, and
//! truncation that cut inside a placeholder; and the leaks of secrets spelt
//! in vocabulary words that the seed's vocabulary alone lets through.

mod classify;
pub mod contract;
mod lanes;
mod scrub;
mod vocabulary;

use serde::{Deserialize, Serialize};

pub use classify::{FailureKind, classify};
pub use contract::{ContractViolation, check_contract, check_message, check_secrets};
pub use scrub::{FUNCTION_WORDS, KNOWN_IDENTIFIERS, SAFE_PUNCTUATION, VALUE_NOUNS, VALUE_PHRASES};
pub use vocabulary::{BUILTIN_VOCABULARY, MAX_WORD_LEN, Vocabulary, VocabularyError};

/// Longest template that is reported.
pub const MAX_TEMPLATE_CHARS: usize = 160;

/// Chars of the first line that are read; the rest is not considered.
pub const MAX_INPUT_CHARS: usize = 400;

/// What a variable part of a message becomes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Placeholder {
    /// Quoted text, whatever its length and even when left unterminated.
    Str,
    /// A URL: anything with `://`, `www.` or a `mailto:`-like scheme.
    Url,
    /// An e-mail address.
    Email,
    /// A path, spaces included, or a file name.
    Path,
    /// Anything holding a digit.
    Number,
    /// An identifier: snake_case, camelCase, `::`, `KEY=value`, long tokens.
    Sym,
    /// Any other word: not in the vocabulary, or not ASCII.
    Text,
}

impl Placeholder {
    pub const ALL: [Placeholder; 7] = [
        Placeholder::Str,
        Placeholder::Url,
        Placeholder::Email,
        Placeholder::Path,
        Placeholder::Number,
        Placeholder::Sym,
        Placeholder::Text,
    ];

    pub const fn as_str(self) -> &'static str {
        match self {
            Placeholder::Str => "‹str›",
            Placeholder::Url => "‹url›",
            Placeholder::Email => "‹email›",
            Placeholder::Path => "‹path›",
            Placeholder::Number => "‹n›",
            Placeholder::Sym => "‹sym›",
            Placeholder::Text => "‹text›",
        }
    }
}

/// The seven placeholders as they appear in a template.
pub const PLACEHOLDERS: [&str; 7] = [
    Placeholder::Str.as_str(),
    Placeholder::Url.as_str(),
    Placeholder::Email.as_str(),
    Placeholder::Path.as_str(),
    Placeholder::Number.as_str(),
    Placeholder::Sym.as_str(),
    Placeholder::Text.as_str(),
];

/// What leaves the machine for one failed call: its class always, its
/// template when one survives.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FailureReport {
    pub kind: FailureKind,
    pub template: Option<String>,
}

/// Turns messages into templates under one vocabulary.
#[derive(Debug, Clone)]
pub struct Scrubber {
    vocabulary: std::borrow::Cow<'static, Vocabulary>,
}

impl Default for Scrubber {
    fn default() -> Self {
        Scrubber::new()
    }
}

impl Scrubber {
    /// A scrubber with the crate's own vocabulary.
    pub fn new() -> Scrubber {
        Scrubber {
            vocabulary: std::borrow::Cow::Borrowed(Vocabulary::builtin()),
        }
    }

    /// A scrubber whose plain words come from `vocabulary` instead.
    pub fn with_vocabulary(vocabulary: Vocabulary) -> Scrubber {
        Scrubber {
            vocabulary: std::borrow::Cow::Owned(vocabulary),
        }
    }

    pub fn vocabulary(&self) -> &Vocabulary {
        &self.vocabulary
    }

    /// The template of `message`, or `None` when fewer than two plain words
    /// would be left (only the class is reported then).
    pub fn template(&self, message: &str) -> Option<String> {
        scrub::template(message, &self.vocabulary)
    }

    /// The class and template of `message`.
    pub fn report(&self, message: &str) -> FailureReport {
        FailureReport {
            kind: classify(message),
            template: self.template(message),
        }
    }
}

/// The template of `message` under the crate's own vocabulary.
pub fn message_template(message: &str) -> Option<String> {
    scrub::template(message, Vocabulary::builtin())
}
