//! Tool errors that carry a secret made of the vocabulary's own words (a
//! name, a user or host name, a hyphen compound, a slash-join, a spaced or
//! window-cut path, a padded quote, a quote behind a malformed colour code,
//! a run of marks, a `ctx_` name): every word of such a secret is one the
//! vocabulary alone would keep, so only the scrubber's rules hide it. Drawn
//! through `arbitrary::Unstructured`, for the template property tests and
//! the `template_structured` target.

use arbitrary::{Result, Unstructured};

use super::template_grammar::{Case, Lexicon, capitalize};
use crate::template::{FUNCTION_WORDS, PLACEHOLDERS, VALUE_NOUNS, VALUE_PHRASES, Vocabulary};

/// What kind of secret a message carries.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SecretClass {
    /// Two or three capitalised words inside a sentence.
    Name,
    /// One listed name, capitalised, inside a sentence.
    SingleName,
    /// A word right after a noun that names a value.
    Value,
    /// Words joined by `-`.
    Compound,
    /// Words joined by `/`.
    SlashJoin,
    /// A path whose folders have spaces in them.
    SpacedPath,
    /// The same, starting near the end of the 400-char window.
    CutPath,
    /// A quote padded with spaces.
    PaddedQuote,
    /// A quote behind a malformed colour code.
    BrokenAnsi,
    /// A run of four or more punctuation marks.
    Punctuation,
    /// A `ctx_` name of two or more words.
    CtxName,
}

/// A message, the class of the secret planted in it, and the secret: its
/// words (matched as words) or, for marks and `ctx_` names, the exact text.
#[derive(Debug, Clone)]
pub struct Planted {
    pub class: SecretClass,
    pub case: Case,
}

/// The wording around a secret: fixed words, none of which is ever
/// drawn as a secret, so that any secret word in a template leaked.
const CARRIER: &[&str] = &[
    "error",
    "could",
    "not",
    "open",
    "failed",
    "for",
    "the",
    "sync",
    "on",
    "device",
    "while",
    "reading",
    "is",
    "locked",
    "was",
    "by",
    "with",
    "shared",
    "approved",
    "to",
    "access",
    "denied",
    "cannot",
    "unknown",
    "invalid",
    "found",
    "a",
    "no",
    "such",
    "file",
    "or",
    "directory",
    "and",
    "retry",
    "later",
    "from",
    "fatal",
    "warning",
    "host",
    "rejected",
    "token",
    "tool",
];

/// Openings that end inside a sentence, where a name is not the first
/// word of a clause.
const SENTENCE_OPENINGS: &[&str] = &[
    "sync failed for",
    "access denied for",
    "the file was shared with",
    "fatal: approved by",
    "error: could not open the file for",
    "warning: the file is locked by",
    "no access to the device for",
];

/// Endings after a secret: lowercase wording.
const ENDINGS: &[&str] = &[
    "",
    " on device",
    " is locked",
    " was not found",
    " and retry later",
    ": access denied",
    ", retry later",
    " while reading the file",
];

const MARKS: &[char] = &[
    '(', ')', '-', '.', '/', '<', '>', '[', ']', '{', '}', '!', '?', ':',
];

/// The words a lexicon's secrets are made of.
pub struct PlantedWords {
    /// The vocabulary's plain words that a secret may be made of: not
    /// carrier or function words, not placeholder names, letters only.
    secret_words: Vec<String>,
    /// The listed names that may be drawn, lowercased.
    names: Vec<String>,
}

impl PlantedWords {
    fn new(vocabulary: &Vocabulary) -> PlantedWords {
        let placeholder_words: Vec<&str> = PLACEHOLDERS
            .iter()
            .map(|p| p.trim_matches(['‹', '›']))
            .collect();
        let secret_words = vocabulary
            .plain_words()
            .filter(|word| {
                word.len() >= 3
                    && word.bytes().all(|b| b.is_ascii_lowercase())
                    && !CARRIER.contains(word)
                    && !FUNCTION_WORDS.contains(word)
                    && !placeholder_words.contains(word)
            })
            .map(str::to_string)
            .collect();
        let names = vocabulary
            .names()
            .map(str::to_ascii_lowercase)
            // A lowercase function word ends a spaced path by design
            // (`./a b for reading`): such names (`During`) are drawn by no
            // class here.
            .filter(|name| {
                vocabulary.contains(name)
                    && !CARRIER.contains(&name.as_str())
                    && !FUNCTION_WORDS.contains(&name.as_str())
            })
            .collect();
        PlantedWords {
            secret_words,
            names,
        }
    }
}

fn words_of(lexicon: &Lexicon) -> &PlantedWords {
    lexicon
        .planted
        .get_or_init(|| PlantedWords::new(lexicon.vocabulary()))
}

fn secret_words(lexicon: &Lexicon) -> &[String] {
    &words_of(lexicon).secret_words
}

fn names(lexicon: &Lexicon) -> &[String] {
    &words_of(lexicon).names
}

/// A word of the vocabulary, or a listed name, in a random case style.
fn word(u: &mut Unstructured<'_>, lexicon: &Lexicon) -> Result<String> {
    let base = if u.ratio(1, 4)? {
        u.choose(names(lexicon))?.clone()
    } else {
        u.choose(secret_words(lexicon))?.to_string()
    };
    Ok(if u.arbitrary()? {
        capitalize(&base)
    } else {
        base
    })
}

/// `count` words joined by `joint`, none a listed line of its own.
fn joined(
    u: &mut Unstructured<'_>,
    lexicon: &Lexicon,
    joint: char,
    parts: std::ops::RangeInclusive<usize>,
) -> Result<String> {
    let count = u.int_in_range(parts)?;
    let mut out = Vec::with_capacity(count);
    for _ in 0..count {
        out.push(u.choose(secret_words(lexicon))?.to_string());
    }
    let joined = out.join(&joint.to_string());
    Ok(if lexicon.vocabulary().contains(&joined) {
        format!("{joined}{joint}{}", u.choose(secret_words(lexicon))?)
    } else {
        joined
    })
}

/// A spaced path: a start, then folders of one to three words each.
fn spaced_path(
    u: &mut Unstructured<'_>,
    lexicon: &Lexicon,
    secrets: &mut Vec<String>,
) -> Result<String> {
    let start = *u.choose(&[
        "/",
        "./",
        "../",
        "~/",
        "/home/ann/",
        "/srv/",
        "C:\\Users\\ann\\",
    ])?;
    let separator = if start.contains('\\') { '\\' } else { '/' };
    let mut path = start.to_string();
    let folders = u.int_in_range(2..=4)?;
    for folder in 0..folders {
        if folder > 0 {
            path.push(separator);
        }
        let words = u.int_in_range(1..=3)?;
        for index in 0..words {
            if index > 0 {
                path.push(' ');
            }
            let word = word(u, lexicon)?;
            path.push_str(&word);
            secrets.push(word);
        }
    }
    Ok(path)
}

/// One message with a planted secret of any class.
pub fn planted(u: &mut Unstructured<'_>, lexicon: &Lexicon) -> Result<Planted> {
    let class = *u.choose(&[
        SecretClass::Name,
        SecretClass::SingleName,
        SecretClass::Value,
        SecretClass::Compound,
        SecretClass::SlashJoin,
        SecretClass::SpacedPath,
        SecretClass::CutPath,
        SecretClass::PaddedQuote,
        SecretClass::BrokenAnsi,
        SecretClass::Punctuation,
        SecretClass::CtxName,
    ])?;
    let mut secrets = Vec::new();
    let ending = *u.choose(ENDINGS)?;
    let message = match class {
        SecretClass::Name => {
            let count = u.int_in_range(2..=3)?;
            let mut name = Vec::new();
            for _ in 0..count {
                let word = capitalize(&word(u, lexicon)?.to_ascii_lowercase());
                name.push(word);
            }
            // A listed pair is wording (`Not Found`), not a name.
            let listed = name
                .windows(2)
                .all(|pair| lexicon.vocabulary().contains_pair(&pair[0], &pair[1]));
            if listed {
                return Err(arbitrary::Error::IncorrectFormat);
            }
            secrets.extend(name.iter().cloned());
            format!(
                "{} {}{ending}",
                u.choose(SENTENCE_OPENINGS)?,
                name.join(" ")
            )
        }
        SecretClass::SingleName => {
            let name = capitalize(u.choose(names(lexicon))?);
            secrets.push(name.clone());
            format!("{} {name}{ending}", u.choose(SENTENCE_OPENINGS)?)
        }
        SecretClass::Value => {
            let phrase = u.ratio(1, 4)?;
            let noun = if phrase {
                let (verb, function_word) = *u.choose(VALUE_PHRASES)?;
                format!("{verb} {function_word}")
            } else {
                u.choose(VALUE_NOUNS)?.to_string()
            };
            let noun = noun.as_str();
            let value = u.choose(secret_words(lexicon))?.to_string();
            let participle = value.len() >= 5 && (value.ends_with("ed") || value.ends_with("ing"));
            let last = noun.rsplit(' ').next().unwrap_or(noun);
            // After a phrase, a value noun names what the value is
            // (`connect to user ‹text›`): it is wording by the rule, not
            // the value, so it is never planted there.
            let names_kind = phrase && VALUE_NOUNS.contains(&value.as_str());
            // A word of the noun or phrase is its wording, in the template
            // by right, so no planted word may be one (`account
            // across-account` planted the noun itself).
            let in_noun = |word: &str| noun.split(' ').any(|part| part == word);
            if participle
                || names_kind
                || lexicon.vocabulary().contains_pair(last, &value)
                || in_noun(&value)
            {
                return Err(arbitrary::Error::IncorrectFormat);
            }
            let value = match u.int_in_range(0..=3)? {
                0 => capitalize(&value),
                1 => {
                    let second = u.choose(secret_words(lexicon))?;
                    if in_noun(second) {
                        return Err(arbitrary::Error::IncorrectFormat);
                    }
                    format!("{value}-{second}")
                }
                _ => value,
            };
            secrets.extend(value.split('-').map(str::to_string));
            let opening = *u.choose(&["", "error: ", "fatal: the ", "sync failed for the "])?;
            format!("{opening}{noun} {value}{ending}")
        }
        SecretClass::Compound => {
            let compound = joined(u, lexicon, '-', 2..=4)?;
            secrets.extend(compound.split('-').map(str::to_string));
            format!("{} {compound}{ending}", u.choose(SENTENCE_OPENINGS)?)
        }
        SecretClass::SlashJoin => {
            let join = joined(u, lexicon, '/', 2..=3)?;
            secrets.extend(join.split('/').map(str::to_string));
            format!("fatal: could not open {join}{ending}")
        }
        SecretClass::SpacedPath => {
            let path = spaced_path(u, lexicon, &mut secrets)?;
            let after = *u.choose(&[
                ": no such file or directory",
                " for reading",
                ", retry later",
                "",
                " is locked",
            ])?;
            format!("error: could not open {path}{after}")
        }
        SecretClass::CutPath => {
            let path = spaced_path(u, lexicon, &mut secrets)?;
            let start = u.int_in_range(360..=398)?;
            let mut filler = String::from("error:");
            while filler.len() < start {
                filler.push(' ');
                filler.push_str(u.choose(CARRIER)?);
            }
            format!("{filler} {path} failed")
        }
        SecretClass::PaddedQuote => {
            let (open, close) = *u.choose(&[("'", "'"), ("\"", "\""), ("‘", "’"), ("`", "`")])?;
            let joint = *u.choose(&[' ', '-'])?;
            let inner = joined(u, lexicon, joint, 1..=3)?;
            secrets.extend(inner.split([' ', '-']).map(str::to_string));
            let (left, right) = (*u.choose(&[" ", "  ", ""])?, *u.choose(&[" ", "  ", ""])?);
            format!("rejected token {open}{left}{inner}{right}{close} for the file")
        }
        SecretClass::BrokenAnsi => {
            let junk = *u.choose(&[" ", "!", " !", "\"", "", "  "])?;
            let quote = *u.choose(&["\"", "'", "`"])?;
            let glue = *u.choose(&["", "X", "x", "m"])?;
            let inner = joined(u, lexicon, '-', 1..=3)?;
            secrets.extend(inner.split('-').map(str::to_string));
            format!("error: host \u{1b}[{junk}{quote}{glue}{inner}{quote} is locked")
        }
        SecretClass::Punctuation => {
            let count = u.int_in_range(4..=8)?;
            let mut run = String::new();
            for _ in 0..count {
                run.push(*u.choose(MARKS)?);
            }
            secrets.push(run.clone());
            format!("sync failed {run} for the device")
        }
        SecretClass::CtxName => {
            let name = format!("ctx_{}", joined(u, lexicon, '_', 2..=4)?);
            secrets.push(name.clone());
            format!("unknown tool {name}{ending}")
        }
    };
    Ok(Planted {
        class,
        case: Case {
            text: message,
            secrets,
        },
    })
}
