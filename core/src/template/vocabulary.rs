//! The word list a template's plain words must come from.
//!
//! The list is data, not code: the crate ships one (`vocabulary.txt`, built
//! from the wording of real tool errors), a caller can load its own, and the
//! conformance vectors name the exact file they were written against so a
//! port in another language loads the same list.
//!
//! A line is one of five kinds, told apart by its spelling:
//! - a word, `file` or `can't`: a plain word a template may keep;
//! - a compound, `read-only`: words joined by `-`, kept only as listed
//!   (the parts alone do not make a compound a word, or any name spelt in
//!   words, `build-key-data`, would pass);
//! - a slash form, `read/write`: words joined by `/`, kept only as listed
//!   (any other slash-joined token is a path, a branch or a ref);
//! - a pair, `not found`: two words that may stand side by side where a
//!   rule would otherwise hide them (two capitalised words in a row, or a
//!   word after a noun that names a value), found in the harvested wording;
//! - a name, `Max`: a word that is also a common given name or surname, so
//!   that capitalised inside a sentence it is a name, not wording.

use rustc_hash::FxHashMap;
use thiserror::Error;

use super::lanes;
use super::scrub::{FUNCTION_WORDS, VALUE_NOUNS};

/// The crate's own list, one lowercase word per line, sorted.
pub const BUILTIN_VOCABULARY: &str = include_str!("vocabulary.txt");

/// A vocabulary word is at most this long; longer tokens are identifiers.
pub const MAX_WORD_LEN: usize = 24;

/// A vocabulary file that cannot be used, with the line that is wrong.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum VocabularyError {
    #[error(
        "vocabulary line {line}: {word:?} is not a lowercase ASCII word \
         (letters a-z, with at most one apostrophe between letters, as in \"can't\"), \
         a compound (\"read-only\"), a slash form (\"read/write\"), a pair of words \
         (\"not found\") or a capitalised name (\"Max\")"
    )]
    InvalidWord { line: usize, word: String },
    #[error(
        "vocabulary line {line}: the pair {pair:?} holds {word:?}, which is not a word of the list \
         (a pair lets two listed words stand side by side; it cannot add a word)"
    )]
    PairOfUnlistedWord {
        line: usize,
        pair: String,
        word: String,
    },
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

/// A sorted list of lowercase words, compounds, slash forms and pairs, and
/// of the names among the words; lookups ignore ASCII case.
#[derive(Debug, Clone)]
pub struct Vocabulary {
    /// Every line, in file order: what [`Vocabulary::words`] gives back, so
    /// a list sent to a port is the list read.
    words: Vec<Box<str>>,
    /// The same lines for lookup, lowercased, each packed into three
    /// machine words (a line is at most 24 bytes), with what the template
    /// rules know of the word: a lookup runs for every word of every
    /// message, and hashing and comparing three integers beats both a
    /// binary search and a hash of byte strings. The value nouns and
    /// function words are entered too, listed or not, so that one lookup
    /// answers every question the rules ask of a word.
    index: FxHashMap<PackedWord, WordClass>,
    /// The lines of at most 8 bytes, most of them, as one integer each.
    short_index: FxHashMap<u64, WordClass>,
}

/// What the template rules know of a word, from one lookup: whether it is
/// a listed line (word, compound, slash form or pair), a listed name, one
/// of [`VALUE_NOUNS`], or one of [`FUNCTION_WORDS`] (spelt in lowercase).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct WordClass(u8);

impl WordClass {
    const LISTED: u8 = 1;
    const NAME: u8 = 1 << 1;
    const VALUE_NOUN: u8 = 1 << 2;
    const FUNCTION_WORD: u8 = 1 << 3;

    pub(crate) fn is_listed(self) -> bool {
        self.0 & Self::LISTED != 0
    }

    pub(crate) fn is_name(self) -> bool {
        self.0 & Self::NAME != 0
    }

    pub(crate) fn is_value_noun(self) -> bool {
        self.0 & Self::VALUE_NOUN != 0
    }

    /// The word, lowercased, is a function word: the lookup ignores case,
    /// and `Will` may be a name where `will` is wording.
    pub(crate) fn is_function_word_ignoring_case(self) -> bool {
        self.0 & Self::FUNCTION_WORD != 0
    }
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
        let mut kinds: Vec<LineKind> = Vec::new();
        let mut lines: Vec<usize> = Vec::new();
        for (index, raw) in text.split('\n').enumerate() {
            let line = index + 1;
            let word = raw.strip_suffix('\r').unwrap_or(raw);
            if word.is_empty() || word.starts_with('#') {
                continue;
            }
            let Some(kind) = line_kind(word) else {
                return Err(VocabularyError::InvalidWord {
                    line,
                    word: word.to_string(),
                });
            };
            kinds.push(kind);
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
            lines.push(line);
        }
        if words.is_empty() {
            return Err(VocabularyError::Empty);
        }
        let mut vocabulary = Vocabulary {
            words: Vec::new(),
            index: FxHashMap::default(),
            short_index: FxHashMap::default(),
        };
        for (word, kind) in words.iter().zip(&kinds) {
            let class = match kind {
                LineKind::Name => WordClass::NAME,
                _ => WordClass::LISTED,
            };
            vocabulary.enter(word, class);
        }
        for noun in VALUE_NOUNS {
            vocabulary.enter(noun, WordClass::VALUE_NOUN);
        }
        for word in FUNCTION_WORDS {
            vocabulary.enter(word, WordClass::FUNCTION_WORD);
        }
        vocabulary.words = words;
        // A pair only lets listed words stand together: each of its two
        // words must be a word of the list.
        for ((pair, kind), line) in vocabulary.words.iter().zip(&kinds).zip(&lines) {
            if *kind != LineKind::Pair {
                continue;
            }
            if let Some(word) = pair.split(' ').find(|word| !vocabulary.contains(word)) {
                return Err(VocabularyError::PairOfUnlistedWord {
                    line: *line,
                    pair: pair.to_string(),
                    word: word.to_string(),
                });
            }
        }
        Ok(vocabulary)
    }

    /// Builds a vocabulary from words in any order and case; words are
    /// lowercased, sorted and deduplicated, and each must still be a line
    /// of the file format (so a name line, `Max`, comes only from
    /// [`Vocabulary::parse`]).
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

    /// Every line of the list (words, compounds, slash forms, pairs and
    /// names), in sorted order.
    pub fn words(&self) -> impl Iterator<Item = &str> {
        self.words.iter().map(|word| &**word)
    }

    pub fn len(&self) -> usize {
        self.words.len()
    }

    pub fn is_empty(&self) -> bool {
        self.words.is_empty()
    }

    /// The plain words of the list: no compound, slash form, pair or name.
    pub fn plain_words(&self) -> impl Iterator<Item = &str> {
        self.words()
            .filter(|word| line_kind(word) == Some(LineKind::Word))
    }

    /// The names of the list (`Max`): words that, capitalised inside a
    /// sentence, are a person's name.
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.words()
            .filter(|word| line_kind(word) == Some(LineKind::Name))
    }

    /// Whether `word` (a word, in any case) is listed as a name.
    pub fn is_name(&self, word: &str) -> bool {
        self.class_of(word).is_name()
    }

    /// Adds `class` to what is known of `word` (at most
    /// [`MAX_WORD_LEN`] bytes, which every caller's line is).
    fn enter(&mut self, word: &str, class: u8) {
        let bytes = word.as_bytes();
        let entry = match pack_short(bytes) {
            Some(short) => Some(self.short_index.entry(short).or_default()),
            None => pack(bytes).map(|packed| self.index.entry(packed).or_default()),
        };
        if let Some(entry) = entry {
            entry.0 |= class;
        }
    }

    /// What is known of `word`, ignoring ASCII case; nothing for a word
    /// that is in no list.
    pub(crate) fn class_of(&self, word: &str) -> WordClass {
        if word.is_empty() || word.len() > MAX_WORD_LEN {
            return WordClass::default();
        }
        let class = match pack_short(word.as_bytes()) {
            Some(short) => self.short_index.get(&short),
            None => pack(word.as_bytes()).and_then(|packed| self.index.get(&packed)),
        };
        class.copied().unwrap_or_default()
    }

    /// Whether the two words `first second` are listed as a pair.
    pub fn contains_pair(&self, first: &str, second: &str) -> bool {
        let length = first.len() + 1 + second.len();
        if first.is_empty() || second.is_empty() || length > MAX_WORD_LEN {
            return false;
        }
        let mut buffer = [0u8; MAX_WORD_LEN];
        buffer[..first.len()].copy_from_slice(first.as_bytes());
        buffer[first.len()] = b' ';
        buffer[first.len() + 1..length].copy_from_slice(second.as_bytes());
        std::str::from_utf8(&buffer[..length]).is_ok_and(|pair| self.contains(pair))
    }

    /// Whether `word` is in the list as a word, compound, slash form or
    /// pair, ignoring ASCII case (names are looked up by [`Self::is_name`]).
    pub fn contains(&self, word: &str) -> bool {
        self.class_of(word).is_listed()
    }
}

/// A word of at most [`MAX_WORD_LEN`] bytes, ASCII-lowercased and
/// zero-padded into three integers.
type PackedWord = [u64; 3];

/// `word` as a [`PackedWord`]; `None` for a longer word or one with a byte
/// that is not ASCII.
fn pack(word: &[u8]) -> Option<PackedWord> {
    if word.len() > MAX_WORD_LEN {
        return None;
    }
    let mut packed = [0u64; 3];
    for (slot, chunk) in packed.iter_mut().zip(word.chunks(8)) {
        *slot = lowercase_ascii(lanes::load(chunk))?;
    }
    Some(packed)
}

/// A word of at most 8 bytes, ASCII-lowercased and zero-padded into one
/// integer; `None` for a longer word or one with a byte that is not ASCII
/// (no line holds one, so such a word is in no list).
fn pack_short(word: &[u8]) -> Option<u64> {
    if word.len() > 8 {
        return None;
    }
    lowercase_ascii(lanes::load(word))
}

/// `packed` with ASCII capitals made lowercase, or `None` when a byte is
/// not ASCII, which no listed word holds.
fn lowercase_ascii(packed: u64) -> Option<u64> {
    (lanes::non_ascii(packed) == 0).then(|| lanes::ascii_lowercase(packed))
}

/// The five kinds of vocabulary line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum LineKind {
    Word,
    Compound,
    SlashForm,
    Pair,
    Name,
}

/// What kind of line `line` is, or `None` when it is none of them.
fn line_kind(line: &str) -> Option<LineKind> {
    if is_valid_word(line) {
        return Some(LineKind::Word);
    }
    let all_words = |separator: char| {
        let mut parts = 0;
        line.split(separator)
            .all(|part| {
                parts += 1;
                is_valid_word(part)
            })
            .then_some(parts)
    };
    if line.contains('-') {
        return all_words('-')
            .filter(|&parts| parts >= 2)
            .map(|_| LineKind::Compound);
    }
    if line.contains('/') {
        return all_words('/')
            .filter(|&parts| parts >= 2)
            .map(|_| LineKind::SlashForm);
    }
    if line.contains(' ') {
        return all_words(' ')
            .filter(|&parts| parts == 2)
            .map(|_| LineKind::Pair);
    }
    let mut bytes = line.bytes();
    (bytes.next().is_some_and(|b| b.is_ascii_uppercase())
        && line.len() >= 2
        && bytes.all(|b| b.is_ascii_lowercase()))
    .then_some(LineKind::Name)
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
        for bad in [
            "utf8", "FIle", "re--read", "'tis", "don't'", "x  y", "a b c", "-x", "x/",
        ] {
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
    fn line_kinds_are_told_by_their_spelling() {
        let vocabulary =
            Vocabulary::parse("Max\nfound\nmax\nnot\nnot found\nread\nread-only\nread/write\n")
                .expect("valid list");
        assert!(vocabulary.contains("read-only") && vocabulary.contains("READ/write"));
        assert!(vocabulary.contains_pair("Not", "Found"));
        assert!(!vocabulary.contains_pair("found", "not"));
        assert!(vocabulary.is_name("MAX") && vocabulary.is_name("max"));
        assert!(!vocabulary.is_name("read") && !vocabulary.contains("Max "));
        assert_eq!(vocabulary.names().collect::<Vec<_>>(), ["Max"]);
        assert_eq!(
            vocabulary.plain_words().collect::<Vec<_>>(),
            ["found", "max", "not", "read"]
        );
    }

    #[test]
    fn one_lookup_knows_value_nouns_and_function_words_listed_or_not() {
        let vocabulary = Vocabulary::parse("Max\nfile\nhost\nmax\n").expect("valid list");
        let host = vocabulary.class_of("HOST");
        assert!(host.is_listed() && host.is_value_noun() && !host.is_name());
        // Neither is listed here: the rules still know what they are.
        let (user, the) = (vocabulary.class_of("user"), vocabulary.class_of("The"));
        assert!(!user.is_listed() && user.is_value_noun());
        assert!(!the.is_listed() && the.is_function_word_ignoring_case());
        assert!(!vocabulary.contains("user") && !vocabulary.contains("the"));
        let max = vocabulary.class_of("Max");
        assert!(max.is_listed() && max.is_name() && !max.is_value_noun());
        assert_eq!(vocabulary.class_of("missing"), WordClass::default());
        assert_eq!(vocabulary.class_of(""), WordClass::default());
    }

    #[test]
    fn pair_of_an_unlisted_word_names_it() {
        assert_eq!(
            Vocabulary::parse("not\nnot found\n").unwrap_err(),
            VocabularyError::PairOfUnlistedWord {
                line: 2,
                pair: "not found".into(),
                word: "found".into()
            }
        );
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
