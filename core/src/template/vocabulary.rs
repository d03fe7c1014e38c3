//! The word list a template's plain words must come from.
//!
//! The list is data, not code: the crate ships one (`vocabulary.txt`, built
//! from the wording of real tool errors), a caller can load its own, and the
//! conformance vectors name the exact file they were written against so a
//! port in another language loads the same list.

use rustc_hash::FxHashSet;
use thiserror::Error;

/// The crate's own list, one lowercase word per line, sorted.
pub const BUILTIN_VOCABULARY: &str = include_str!("vocabulary.txt");

/// A vocabulary word is at most this long; longer tokens are identifiers.
pub const MAX_WORD_LEN: usize = 24;

/// A vocabulary file that cannot be used, with the line that is wrong.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum VocabularyError {
    #[error(
        "vocabulary line {line}: {word:?} is not a lowercase ASCII word \
         (letters a-z, with at most one apostrophe between letters, as in \"can't\")"
    )]
    InvalidWord { line: usize, word: String },
    #[error(
        "vocabulary line {line}: {word:?} is longer than {MAX_WORD_LEN} characters; \
         a token that long is always treated as an identifier"
    )]
    WordTooLong { line: usize, word: String },
    #[error(
        "vocabulary line {line}: {word:?} does not come after {previous:?}; the list \
         must be sorted by byte order and hold each word once"
    )]
    NotSorted {
        line: usize,
        word: String,
        previous: String,
    },
    #[error("the vocabulary holds no words")]
    Empty,
}

/// A sorted list of lowercase words; lookups ignore ASCII case.
#[derive(Debug, Clone)]
pub struct Vocabulary {
    words: Vec<Box<str>>,
    /// The same words for lookup, each packed into three machine words
    /// (a word is at most 24 bytes): a lookup runs for every word of every
    /// message, and hashing and comparing three integers beats both a
    /// binary search and a hash of byte strings.
    index: FxHashSet<PackedWord>,
    /// The words of at most 8 bytes, most of them, as one integer each.
    short_index: FxHashSet<u64>,
}

impl PartialEq for Vocabulary {
    fn eq(&self, other: &Self) -> bool {
        self.words == other.words
    }
}

impl Eq for Vocabulary {}

impl Vocabulary {
    /// The list shipped with the crate.
    pub fn builtin() -> &'static Vocabulary {
        static BUILTIN: std::sync::OnceLock<Vocabulary> = std::sync::OnceLock::new();
        BUILTIN.get_or_init(|| {
            Vocabulary::parse(BUILTIN_VOCABULARY)
                .expect("the shipped vocabulary.txt is checked by a unit test to parse")
        })
    }

    /// Reads the file format: one word per line, sorted by byte order, no
    /// duplicates; blank lines and lines starting with `#` are ignored, and
    /// a trailing `\r` (a file saved with CRLF endings) is not part of a word.
    pub fn parse(text: &str) -> Result<Vocabulary, VocabularyError> {
        let mut words: Vec<Box<str>> = Vec::new();
        for (index, raw) in text.split('\n').enumerate() {
            let line = index + 1;
            let word = raw.strip_suffix('\r').unwrap_or(raw);
            if word.is_empty() || word.starts_with('#') {
                continue;
            }
            if !is_valid_word(word) {
                return Err(VocabularyError::InvalidWord {
                    line,
                    word: word.to_string(),
                });
            }
            if word.len() > MAX_WORD_LEN {
                return Err(VocabularyError::WordTooLong {
                    line,
                    word: word.to_string(),
                });
            }
            if let Some(previous) = words.last()
                && **previous >= *word
            {
                return Err(VocabularyError::NotSorted {
                    line,
                    word: word.to_string(),
                    previous: previous.to_string(),
                });
            }
            words.push(word.into());
        }
        if words.is_empty() {
            return Err(VocabularyError::Empty);
        }
        let index = words
            .iter()
            .filter(|word| word.len() > 8)
            .filter_map(|word| pack(word.as_bytes()))
            .collect();
        let short_index = words
            .iter()
            .filter_map(|word| pack_short(word.as_bytes()))
            .collect();
        Ok(Vocabulary {
            words,
            index,
            short_index,
        })
    }

    /// Builds a vocabulary from words in any order and case; words are
    /// lowercased, sorted and deduplicated, and each must still be a word.
    pub fn from_words<I, S>(words: I) -> Result<Vocabulary, VocabularyError>
    where
        I: IntoIterator<Item = S>,
        S: AsRef<str>,
    {
        let mut list: Vec<String> = words
            .into_iter()
            .map(|word| word.as_ref().to_ascii_lowercase())
            .collect();
        list.sort();
        list.dedup();
        Vocabulary::parse(&list.join("\n"))
    }

    /// The words, in sorted order.
    pub fn words(&self) -> impl Iterator<Item = &str> {
        self.words.iter().map(|word| &**word)
    }

    pub fn len(&self) -> usize {
        self.words.len()
    }

    pub fn is_empty(&self) -> bool {
        self.words.is_empty()
    }

    /// Whether `word` is in the list, ignoring ASCII case.
    pub fn contains(&self, word: &str) -> bool {
        if word.is_empty() || word.len() > MAX_WORD_LEN {
            return false;
        }
        match pack_short(word.as_bytes()) {
            Some(short) => self.short_index.contains(&short),
            None => pack(word.as_bytes()).is_some_and(|packed| self.index.contains(&packed)),
        }
    }
}

/// A word of at most [`MAX_WORD_LEN`] bytes, ASCII-lowercased and
/// zero-padded into three integers.
type PackedWord = [u64; 3];

fn pack(word: &[u8]) -> Option<PackedWord> {
    if word.len() > MAX_WORD_LEN {
        return None;
    }
    let mut buffer = [0u8; MAX_WORD_LEN];
    buffer[..word.len()].copy_from_slice(word);
    buffer.make_ascii_lowercase();
    let mut packed = [0u64; 3];
    for (slot, chunk) in packed.iter_mut().zip(buffer.chunks_exact(8)) {
        let mut bytes = [0u8; 8];
        bytes.copy_from_slice(chunk);
        *slot = u64::from_le_bytes(bytes);
    }
    Some(packed)
}

/// A word of at most 8 bytes, ASCII-lowercased and zero-padded into one
/// integer.
fn pack_short(word: &[u8]) -> Option<u64> {
    if word.len() > 8 {
        return None;
    }
    let mut bytes = [0u8; 8];
    bytes[..word.len()].copy_from_slice(word);
    bytes.make_ascii_lowercase();
    Some(u64::from_le_bytes(bytes))
}

/// `[a-z]+('[a-z]+)?`: letters, optionally one apostrophe between letters.
fn is_valid_word(word: &str) -> bool {
    let mut parts = word.split('\'');
    let all_letters = |part: &str| !part.is_empty() && part.bytes().all(|b| b.is_ascii_lowercase());
    match (parts.next(), parts.next(), parts.next()) {
        (Some(head), None, None) => all_letters(head),
        (Some(head), Some(tail), None) => all_letters(head) && all_letters(tail),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builtin_vocabulary_parses() {
        let parsed = Vocabulary::parse(BUILTIN_VOCABULARY);
        assert!(parsed.is_ok(), "vocabulary.txt: {parsed:?}");
    }

    #[test]
    fn lookup_ignores_ascii_case_only() {
        let vocabulary = Vocabulary::parse("can't\nfile\nopen\n").expect("valid list");
        assert!(vocabulary.contains("FILE"));
        assert!(vocabulary.contains("Can't"));
        assert!(!vocabulary.contains("fil"));
        assert!(!vocabulary.contains("ﬁle"));
    }

    #[test]
    fn unsorted_list_names_the_line() {
        let error = Vocabulary::parse("# words\nopen\nfile\n").unwrap_err();
        assert_eq!(
            error,
            VocabularyError::NotSorted {
                line: 3,
                word: "file".into(),
                previous: "open".into()
            }
        );
    }

    #[test]
    fn duplicate_is_rejected_as_unsorted() {
        assert!(matches!(
            Vocabulary::parse("file\nfile\n"),
            Err(VocabularyError::NotSorted { line: 2, .. })
        ));
    }

    #[test]
    fn word_with_digit_or_capital_is_rejected() {
        for bad in ["utf8", "File", "re-read", "'tis", "don't'", "x y"] {
            assert!(
                matches!(
                    Vocabulary::parse(bad),
                    Err(VocabularyError::InvalidWord { line: 1, .. })
                ),
                "{bad} was accepted"
            );
        }
    }

    #[test]
    fn crlf_file_is_read() {
        let vocabulary = Vocabulary::parse("file\r\nopen\r\n").expect("CRLF list");
        assert_eq!(vocabulary.words().collect::<Vec<_>>(), ["file", "open"]);
    }

    #[test]
    fn from_words_sorts_and_lowercases() {
        let vocabulary = Vocabulary::from_words(["Open", "file", "open"]).expect("valid words");
        assert_eq!(vocabulary.words().collect::<Vec<_>>(), ["file", "open"]);
    }

    #[test]
    fn empty_list_is_an_error() {
        assert_eq!(
            Vocabulary::parse("# only a comment\n"),
            Err(VocabularyError::Empty)
        );
    }
}
