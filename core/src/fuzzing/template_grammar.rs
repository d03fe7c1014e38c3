//! Tool error messages built from typed fragments, for the
//! `template_structured` target, the template property tests and
//! `agentfence diff`: the kinds of text a failure template must hide
//! (paths with spaces, Windows and UNC paths, URLs, e-mail addresses, quotes
//! of every kind, numbers, identifiers, API secrets, personal names, Unicode
//! look-alikes, placeholder-shaped input) between vocabulary words, glued by
//! the separators, colour codes and line breaks real messages use.
//!
//! Every [`Case`] remembers the text it planted that must not survive, so a
//! leak check ([`crate::template::contract::check_secrets`]) can name what
//! leaked. A planted secret is recorded as its runs of ASCII letters (three
//! or more) that the [`Lexicon`]'s vocabulary cannot spell: a run the
//! vocabulary also holds may legitimately stand in a template, from a
//! vocabulary word elsewhere in the message.
//!
//! Each class has a builder of its own (`path`, `url`, `email`,
//! `api_secret`, ...), so a property can draw messages focused on its class
//! ([`message_of`]); the fenced builders are in [`super::template_fenced`],
//! the secrets spelt in vocabulary words in [`super::template_planted`].

use std::collections::HashSet;
use std::sync::LazyLock;

use arbitrary::{Result, Unstructured};

use super::look_alike::cyrillic_twin;
use super::template_fenced::{FENCED, KEPT};
use crate::template::{KNOWN_IDENTIFIERS, PLACEHOLDERS, Scrubber, Vocabulary};

// ---------------------------------------------------------------------------
// Cases and lexicons
// ---------------------------------------------------------------------------

/// A generated message and the text planted in it that must not survive in
/// its template.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Case {
    pub text: String,
    /// Words (runs of ASCII letters, matched as whole letter runs ignoring
    /// case) or other text (matched as a piece of the template).
    pub secrets: Vec<String>,
}

impl Case {
    /// Text that plants nothing.
    pub fn plain(text: impl Into<String>) -> Case {
        Case {
            text: text.into(),
            secrets: Vec::new(),
        }
    }

    /// A fragment that is sensitive as a whole.
    pub fn secret(text: impl Into<String>, lexicon: &Lexicon) -> Case {
        let text = text.into();
        Case {
            secrets: lexicon.secret_runs(&text).collect(),
            text,
        }
    }

    /// `text`, of which the `parts` are sensitive.
    pub fn with(text: impl Into<String>, parts: &[String], lexicon: &Lexicon) -> Case {
        Case {
            text: text.into(),
            secrets: parts
                .iter()
                .flat_map(|part| lexicon.secret_runs(part))
                .collect(),
        }
    }

    pub fn push(&mut self, other: &Case) {
        self.text.push_str(&other.text);
        self.secrets.extend(other.secrets.iter().cloned());
    }
}

/// A scrubber the cases are built for, with the words they may draw as
/// plain wording and the letter runs its vocabulary can spell.
pub struct Lexicon {
    scrubber: Scrubber,
    words: Vec<String>,
    allowed: HashSet<String>,
    /// The words [`super::template_planted`] plants, computed on first use.
    pub(super) planted: std::sync::OnceLock<super::template_planted::PlantedWords>,
}

impl Lexicon {
    fn new(scrubber: Scrubber, words: Vec<String>) -> Lexicon {
        let vocabulary = scrubber.vocabulary();
        let allowed = vocabulary
            .words()
            .chain(PLACEHOLDERS)
            .chain(KNOWN_IDENTIFIERS.iter().copied())
            // `ctx_` and a vocabulary word is a known identifier too.
            .chain(["ctx"])
            .flat_map(letter_runs)
            .map(|run| run.to_ascii_lowercase())
            .collect();
        Lexicon {
            scrubber,
            words,
            allowed,
            planted: std::sync::OnceLock::new(),
        }
    }

    /// The builtin vocabulary; plain wording is any of its plain words.
    pub fn builtin() -> &'static Lexicon {
        static LEXICON: LazyLock<Lexicon> = LazyLock::new(|| {
            let scrubber = Scrubber::new();
            let words = scrubber
                .vocabulary()
                .plain_words()
                .map(str::to_string)
                .collect();
            Lexicon::new(scrubber, words)
        });
        &LEXICON
    }

    /// The fenced vocabulary ([`KEPT`] and [`FENCED`] words); plain wording
    /// is only the kept words, so a fenced word in a template leaked.
    pub fn fenced() -> &'static Lexicon {
        static LEXICON: LazyLock<Lexicon> = LazyLock::new(|| {
            let vocabulary = Vocabulary::from_words(KEPT.iter().chain(FENCED))
                .expect("the fenced words are lowercase ASCII words");
            let words = KEPT.iter().map(|word| word.to_string()).collect();
            Lexicon::new(Scrubber::with_vocabulary(vocabulary), words)
        });
        &LEXICON
    }

    pub fn scrubber(&self) -> &Scrubber {
        &self.scrubber
    }

    pub fn vocabulary(&self) -> &Vocabulary {
        self.scrubber.vocabulary()
    }

    /// The plain words a message draws as wording.
    pub fn words(&self) -> &[String] {
        &self.words
    }

    /// The runs of ASCII letters of `text` (three or more) that no line of
    /// the vocabulary, placeholder name or known identifier spells.
    fn secret_runs<'t>(&'t self, text: &'t str) -> impl Iterator<Item = String> + 't {
        letter_runs(text)
            .filter(|run| run.len() >= 3 && !self.allowed.contains(&run.to_ascii_lowercase()))
            .map(str::to_string)
    }
}

fn letter_runs(text: &str) -> impl Iterator<Item = &str> {
    text.split(|c: char| !c.is_ascii_alphabetic())
        .filter(|run| !run.is_empty())
}

/// A builder of one class of fragment.
pub type Fragment = fn(&mut Unstructured<'_>, &Lexicon) -> Result<Case>;

/// One of `choices`, picked with the given weights.
pub fn weighted<T: Copy>(u: &mut Unstructured<'_>, choices: &[(u32, T)]) -> Result<T> {
    let total: u32 = choices.iter().map(|(weight, _)| weight).sum();
    let mut pick = u.int_in_range(0..=total.saturating_sub(1))?;
    for (weight, choice) in choices {
        if pick < *weight {
            return Ok(*choice);
        }
        pick -= weight;
    }
    choices
        .last()
        .map(|(_, choice)| *choice)
        .ok_or(arbitrary::Error::EmptyChoose)
}

/// Chars of `alphabet`, `count` of them.
fn run_of(
    u: &mut Unstructured<'_>,
    alphabet: &str,
    count: std::ops::RangeInclusive<usize>,
) -> Result<String> {
    let chars: Vec<char> = alphabet.chars().collect();
    let count = u.int_in_range(count)?;
    (0..count).map(|_| u.choose(&chars).copied()).collect()
}

/// `shape` with each `#` replaced by a digit and each `h` by a hex digit.
fn shaped(u: &mut Unstructured<'_>, shape: &str) -> Result<String> {
    shape
        .chars()
        .map(|c| match c {
            '#' => u.choose(DIGITS.as_bytes()).map(|&b| char::from(b)),
            'h' => u.choose(HEX.as_bytes()).map(|&b| char::from(b)),
            other => Ok(other),
        })
        .collect()
}

const LOWER: &str = "abcdefghijklmnopqrstuvwxyz";
const DIGITS: &str = "0123456789";
const HEX: &str = "0123456789abcdef";
const ALNUM: &str = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

// ---------------------------------------------------------------------------
// Words
// ---------------------------------------------------------------------------

pub fn capitalize(word: &str) -> String {
    let mut chars = word.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// `word` as written, Capitalized or UPPERCASE.
pub fn cased(u: &mut Unstructured<'_>, word: &str) -> Result<String> {
    Ok(match u.int_in_range(0..=3)? {
        0 | 1 => word.to_string(),
        2 => capitalize(word),
        _ => word.to_uppercase(),
    })
}

/// A word of the lexicon's wording, in any case.
pub fn vocabulary_word(u: &mut Unstructured<'_>, lexicon: &Lexicon) -> Result<String> {
    let word = u.choose(lexicon.words())?;
    cased(u, word)
}

/// A letters-only word that is in no vocabulary: it holds a letter pair no
/// English word has.
pub fn odd_word(u: &mut Unstructured<'_>) -> Result<String> {
    let pair = *u.choose(&["qz", "zq", "xq", "qj", "jx", "vq", "wz", "fq"])?;
    let word = format!(
        "{}{pair}{}",
        run_of(u, LOWER, 0..=3)?,
        run_of(u, LOWER, 0..=3)?
    );
    cased(u, &word)
}

/// Letters and digits mixed, as in user names, hosts and ids.
pub fn alnum_word(u: &mut Unstructured<'_>) -> Result<String> {
    Ok(format!(
        "{}{}{}",
        run_of(u, LOWER, 1..=4)?,
        run_of(u, DIGITS, 1..=4)?,
        run_of(u, "abcdefghijklmnopqrstuvwxyz0123456789", 0..=5)?
    ))
}

pub const NAMES: &[&str] = &[
    "Anna",
    "Meier",
    "Jürgen",
    "Müller",
    "Zoë",
    "José",
    "Álvarez",
    "Xiomara",
    "Okonkwo",
    "Szymański",
    "Dvořák",
    "Nguyễn",
    "Brzęczyszczykiewicz",
    "Oyelaran",
    "Siobhan",
    "Bjørn",
    "Quinzel",
];

/// A personal name: one of a few real-looking ones or a generated one.
pub fn name_word(u: &mut Unstructured<'_>) -> Result<String> {
    if u.int_in_range(0..=3)? < 3 {
        Ok(u.choose(NAMES)?.to_string())
    } else {
        Ok(capitalize(&odd_word(u)?.to_lowercase()))
    }
}

/// A non-vocabulary word of a path, a host or a quote.
pub fn secret_word(u: &mut Unstructured<'_>) -> Result<String> {
    match u.int_in_range(0..=6)? {
        0..=2 => odd_word(u),
        3 | 4 => name_word(u),
        _ => alnum_word(u),
    }
}

// ---------------------------------------------------------------------------
// Fragments
// ---------------------------------------------------------------------------

pub fn vocabulary_fragment(u: &mut Unstructured<'_>, lexicon: &Lexicon) -> Result<Case> {
    Ok(Case::plain(vocabulary_word(u, lexicon)?))
}

pub const CONTRACTIONS: &[&str] = &[
    "can't", "don't", "it's", "won't", "isn't", "doesn't", "couldn't", "wasn't", "I'm", "we're",
    "they've", "you'll", "file's", "user's", "can’t", "don’t", "it’s",
];

pub fn contraction(u: &mut Unstructured<'_>, _: &Lexicon) -> Result<Case> {
    Ok(Case::plain(*u.choose(CONTRACTIONS)?))
}

/// Wording of real tool errors, class phrases included.
pub fn error_phrase(u: &mut Unstructured<'_>, _: &Lexicon) -> Result<Case> {
    Ok(Case::plain(*u.choose(&[
        "error:",
        "Error:",
        "ERROR",
        "failed:",
        "fatal:",
        "warning:",
        "permission denied",
        "Permission denied (os error 13)",
        "No such file or directory",
        "not found",
        "operation timed out",
        "blocked by policy",
        "already exists",
        "file too large",
        "connection refused",
        "invalid argument",
        "expected",
        "must be",
        "unknown tool",
        "cannot find",
        "old_string",
        "file_path",
        "timeout_ms",
        "ctx_read",
        "ctx_multi_edit",
        "at",
        "in",
        "->",
        "=>",
    ])?))
}

pub fn punctuation(u: &mut Unstructured<'_>, _: &Lexicon) -> Result<Case> {
    Ok(Case::plain(*u.choose(&[
        ":", ",", ".", ";", "(", ")", "[", "]", "{", "}", "->", "=>", "|", "—", "–", "-", "--",
        "...", "…", "!", "?", "=", "&&", "#", "*", "'", "-'", ".'", "<", ">", "/", "\\", "~", "@",
        "%", "$", "^", "+", "\"", "`", "«", "»", "“", "”",
    ])?))
}

pub fn file_name(u: &mut Unstructured<'_>) -> Result<String> {
    let stem = secret_word(u)?;
    let ext = *u.choose(&[
        "txt", "md", "rs", "xlsx", "pdf", "json", "env", "tar.gz", "docx", "key", "pem",
    ])?;
    Ok(format!("{stem}.{ext}"))
}

/// A path segment: one word, or words with spaces in it.
fn path_segment(u: &mut Unstructured<'_>) -> Result<String> {
    Ok(match u.int_in_range(0..=4)? {
        0..=2 => secret_word(u)?,
        3 => format!("{} {}", u.choose(&["My", "New", "Old"])?, secret_word(u)?),
        _ => format!("{} {} {}", name_word(u)?, name_word(u)?, secret_word(u)?),
    })
}

fn path_segments(u: &mut Unstructured<'_>) -> Result<Vec<String>> {
    let count = u.int_in_range(1..=3)?;
    (0..count).map(|_| path_segment(u)).collect()
}

/// Unix, home, relative, Windows and UNC paths, dotfiles and file names.
pub fn path(u: &mut Unstructured<'_>, lexicon: &Lexicon) -> Result<Case> {
    Ok(match u.int_in_range(0..=10)? {
        0 => {
            let root = *u.choose(&["/Users", "/home", "/var/lib", "/tmp", "/srv/data"])?;
            let mut secrets = path_segments(u)?;
            let mut text = format!("{root}/{}", secrets.join("/"));
            if u.arbitrary()? {
                let file = file_name(u)?;
                text = format!("{text}/{file}");
                secrets.push(file);
            }
            Case::with(text, &secrets, lexicon)
        }
        1 => {
            let root = *u.choose(&["~/", "./", "../", "~/."])?;
            let mut secrets = path_segments(u)?;
            let file = file_name(u)?;
            let text = format!("{root}{}/{file}", secrets.join("/"));
            secrets.push(file);
            Case::with(text, &secrets, lexicon)
        }
        2 => {
            let drive = *u.choose(&["C", "D", "Z", "E"])?;
            let mut secrets = path_segments(u)?;
            let file = file_name(u)?;
            let text = format!("{drive}:\\Users\\{}\\{file}", secrets.join("\\"));
            secrets.push(file);
            Case::with(text, &secrets, lexicon)
        }
        3 => {
            let (server, share) = (secret_word(u)?, secret_word(u)?);
            let mut secrets = path_segments(u)?;
            let text = format!("\\\\{server}\\{share}\\{}", secrets.join("\\"));
            secrets.extend([server, share]);
            Case::with(text, &secrets, lexicon)
        }
        4 => {
            let word = secret_word(u)?;
            Case::with(format!(".{word}"), &[word], lexicon)
        }
        5 => Case::secret(file_name(u)?, lexicon),
        6 => Case::plain(".env"),
        7 => Case::secret("payroll.xlsx", lexicon),
        8 => Case::secret("/Users/anna/Anna Meier Docs/x.txt", lexicon),
        9 => Case::secret("C:\\Users\\anna\\x y\\z.txt", lexicon),
        _ => Case::secret("\\\\server\\share\\dir", lexicon),
    })
}

pub fn host(u: &mut Unstructured<'_>) -> Result<String> {
    let name = secret_word(u)?;
    let tld = *u.choose(&["com", "ch", "io", "example.com", "internal", "technology"])?;
    Ok(format!("{name}.{tld}"))
}

/// URLs with and without a scheme, with userinfo, ports, paths and queries.
pub fn url(u: &mut Unstructured<'_>, lexicon: &Lexicon) -> Result<Case> {
    Ok(match u.int_in_range(0..=4)? {
        0 => {
            let scheme = *u.choose(&["http", "https", "ftp", "ssh", "git+ssh", "s3", "HTTPS"])?;
            let mut text = format!("{scheme}://");
            let mut secrets = Vec::new();
            if u.arbitrary()? {
                let (user, password) = (secret_word(u)?, secret_word(u)?);
                text.push_str(&format!("{user}:{password}@"));
                secrets.extend([user, password]);
            }
            let host = host(u)?;
            text.push_str(&host);
            secrets.push(host);
            if u.arbitrary()? {
                text.push_str(&format!(":{}", run_of(u, DIGITS, 2..=5)?));
            }
            for _ in 0..u.int_in_range(0..=2)? {
                let segment = secret_word(u)?;
                text.push_str(&format!("/{segment}"));
                secrets.push(segment);
            }
            if u.arbitrary()? {
                let (key, value) = (secret_word(u)?, alnum_word(u)?);
                text.push_str(&format!("?{key}={value}#frag"));
                secrets.extend([key, value]);
            }
            Case::with(text, &secrets, lexicon)
        }
        1 => {
            let (host, path) = (host(u)?, secret_word(u)?);
            Case::with(format!("www.{host}/{path}"), &[host, path], lexicon)
        }
        2 => {
            let (host, path) = (host(u)?, secret_word(u)?);
            Case::with(format!("{host}/{path}"), &[host, path], lexicon)
        }
        3 => {
            let (user, password, host) = (secret_word(u)?, secret_word(u)?, host(u)?);
            let text = format!("{user}:{password}@{host}");
            Case::with(text, &[user, password, host], lexicon)
        }
        _ => Case::secret(host(u)?, lexicon),
    })
}

/// E-mail addresses: dotted, plus-addressed, local hosts, mailto.
pub fn email(u: &mut Unstructured<'_>, lexicon: &Lexicon) -> Result<Case> {
    let local = secret_word(u)?;
    let host = host(u)?;
    let mut address = local.clone();
    let mut secrets = vec![local, host.clone()];
    if u.arbitrary()? {
        let dotted = secret_word(u)?;
        address.push_str(&format!(".{dotted}"));
        secrets.push(dotted);
    }
    if u.arbitrary()? {
        let tag = secret_word(u)?;
        address.push_str(&format!("+{tag}"));
        secrets.push(tag);
    }
    let text = match u.int_in_range(0..=3)? {
        0 => format!("{address}@{host}"),
        1 => format!("<{address}@{host}>"),
        2 => format!("mailto:{address}@{host}"),
        _ => format!("{address}@localhost"),
    };
    Ok(Case::with(text, &secrets, lexicon))
}

/// Ints, floats, hex, hashes, IPv4, IPv6, UUIDs, card and phone numbers,
/// durations, versions, dates.
pub fn number(u: &mut Unstructured<'_>, lexicon: &Lexicon) -> Result<Case> {
    let digits = |u: &mut Unstructured<'_>, count| run_of(u, DIGITS, count);
    let hex = |u: &mut Unstructured<'_>, count| run_of(u, HEX, count);
    let text = match u.int_in_range(0..=17)? {
        0 => digits(u, 1..=12)?,
        1 => format!(
            "{}{}.{}",
            if u.arbitrary()? { "-" } else { "" },
            digits(u, 1..=5)?,
            digits(u, 1..=6)?
        ),
        2 => format!("0x{}", run_of(u, "0123456789abcdefABCDEF", 1..=16)?),
        3 => hex(u, 7..=40)?,
        4 => {
            let mut ip = (0..4)
                .map(|_| digits(u, 1..=3))
                .collect::<Result<Vec<_>>>()?
                .join(".");
            if u.arbitrary()? {
                ip.push_str(&format!(":{}", digits(u, 2..=5)?));
            }
            ip
        }
        5 => (0..8)
            .map(|_| hex(u, 1..=4))
            .collect::<Result<Vec<_>>>()?
            .join(":"),
        6 => format!("fe80::{}:{}", hex(u, 1..=4)?, hex(u, 1..=4)?),
        7 => format!("[::1]:{}", digits(u, 2..=5)?),
        8 => shaped(u, "hhhhhhhh-hhhh-hhhh-hhhh-hhhhhhhhhhhh")?,
        9 => shaped(u, "4###############")?,
        10 => shaped(u, "4### #### #### ####")?,
        11 => format!(
            "5{}{}",
            run_of(u, "12345", 1..=1)?,
            shaped(u, "##-####-####-####")?
        ),
        12 => shaped(u, "+41 ## ### ## ##")?,
        13 => format!(
            "{}{}",
            digits(u, 1..=4)?,
            u.choose(&["ms", "s", "MB", "KiB", "%"])?
        ),
        14 => format!(
            "v{}.{}.{}",
            digits(u, 1..=1)?,
            digits(u, 1..=2)?,
            digits(u, 1..=2)?
        ),
        15 => format!("(os error {})", digits(u, 1..=3)?),
        16 => format!("#{}", digits(u, 1..=6)?),
        _ => shaped(u, "####-##-##T##:##:##Z")?,
    };
    Ok(Case::secret(text, lexicon))
}

/// snake_case, camelCase, `a::b`, `KEY=value`, `$HOME`, `%VAR%`, flags.
pub fn identifier(u: &mut Unstructured<'_>, lexicon: &Lexicon) -> Result<Case> {
    let lower = |u: &mut Unstructured<'_>| odd_word(u).map(|word| word.to_lowercase());
    let text = match u.int_in_range(0..=11)? {
        0 => format!("{}_{}", lower(u)?, lower(u)?),
        1 => format!("{}{}", lower(u)?, capitalize(&lower(u)?)),
        2 => format!("{}::{}_{}", capitalize(&lower(u)?), lower(u)?, lower(u)?),
        3 => format!("{}={}", lower(u)?.to_uppercase(), secret_word(u)?),
        4 => format!("PASSWORD={}", secret_word(u)?),
        5 => format!("${}", lower(u)?.to_uppercase()),
        6 => format!("%{}%", lower(u)?.to_uppercase()),
        7 => format!("${{{}}}", lower(u)?.to_uppercase()),
        8 => format!("ctx_{}_{}", lower(u)?, name_word(u)?.to_lowercase()),
        9 => format!("--{}-{}={}", lower(u)?, lower(u)?, secret_word(u)?),
        10 => format!("{}.{}()", lower(u)?, lower(u)?),
        _ => run_of(u, LOWER, 25..=40)?,
    };
    Ok(Case::secret(text, lexicon))
}

/// API keys and tokens of the common vendors.
pub fn api_secret(u: &mut Unstructured<'_>, lexicon: &Lexicon) -> Result<Case> {
    let token =
        |u: &mut Unstructured<'_>, extra: &str, count| run_of(u, &format!("{ALNUM}{extra}"), count);
    let text = match u.int_in_range(0..=11)? {
        0 => format!("sk-{}", token(u, "", 20..=48)?),
        1 => format!("sk-proj-{}", token(u, "_-", 20..=40)?),
        2 => format!("sk-{}", run_of(u, LOWER, 20..=20)?),
        3 => format!("ghp_{}", token(u, "", 36..=36)?),
        4 => format!("github_pat_{}", token(u, "_", 22..=60)?),
        5 => format!(
            "AKIA{}",
            run_of(u, "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789", 16..=16)?
        ),
        6 => format!("AIza{}", token(u, "_-", 35..=35)?),
        7 => format!(
            "xox{}-{}-{}",
            u.choose(&["b", "p", "a", "r"])?,
            run_of(u, DIGITS, 10..=12)?,
            token(u, "", 10..=24)?
        ),
        8 => format!(
            "xoxb-{}-{}",
            run_of(u, LOWER, 6..=6)?,
            run_of(u, LOWER, 6..=6)?
        ),
        9 => format!(
            "eyJ{}.eyJ{}.{}",
            token(u, "_-", 10..=30)?,
            token(u, "_-", 10..=30)?,
            token(u, "_-", 10..=30)?
        ),
        10 => format!("Bearer {}", token(u, "", 20..=40)?),
        _ => run_of(u, "abcdef", 16..=24)?,
    };
    Ok(Case::secret(text, lexicon))
}

pub fn personal_name(u: &mut Unstructured<'_>, lexicon: &Lexicon) -> Result<Case> {
    let name = match u.int_in_range(0..=3)? {
        0 => format!("{} {}", name_word(u)?, name_word(u)?),
        1 => name_word(u)?,
        2 => "Anna Meier".to_string(),
        _ => "Jürgen".to_string(),
    };
    Ok(Case::secret(name, lexicon))
}

/// `word` disguised: Cyrillic letters (Unicode's confusables), fullwidth
/// letters, a zero-width or invisible char inside, a combining mark, the
/// Kelvin sign or the long s.
pub fn disguise(u: &mut Unstructured<'_>, word: &str) -> Result<String> {
    let how = u.int_in_range(0..=5)?;
    let at = if word.is_empty() {
        0
    } else {
        u.int_in_range(0..=word.len() - 1)?
    };
    let disguised: String = match how {
        0 => word
            .chars()
            .map(|c| {
                if c.is_ascii_lowercase() {
                    cyrillic_twin(c).unwrap_or(c)
                } else {
                    c
                }
            })
            .collect(),
        1 => word
            .chars()
            .map(|c| {
                if c.is_ascii_graphic() {
                    char::from_u32(c as u32 + 0xFEE0).unwrap_or(c)
                } else {
                    c
                }
            })
            .collect(),
        2 => {
            let invisible = [
                '\u{200B}', '\u{200C}', '\u{200D}', '\u{2060}', '\u{FEFF}', '\u{AD}',
            ];
            let mut out = word.to_string();
            if word.is_char_boundary(at) {
                out.insert(at, invisible[at % invisible.len()]);
            }
            out
        }
        3 => format!("{word}\u{301}"),
        4 => word.replacen('k', "\u{212A}", 1).replacen('s', "ſ", 1) + "ο",
        _ => format!("{word}\u{200B}{word}"),
    };
    Ok(if disguised == word {
        // No letter had a look-alike: hide a zero-width space inside.
        format!("{word}\u{200B}")
    } else {
        disguised
    })
}

/// A personal name or a non-vocabulary word disguised with look-alikes.
pub fn look_alike(u: &mut Unstructured<'_>, lexicon: &Lexicon) -> Result<Case> {
    let word = secret_word(u)?;
    let disguised = disguise(u, &word)?;
    Ok(Case::with(disguised.clone(), &[word, disguised], lexicon))
}

/// Placeholder-shaped tokens: `‹anna›`, `‹4111111111111111›`, `‹/home/x›`,
/// `‹n›s`, nested, unbalanced and glued ones.
pub fn placeholder_shaped(u: &mut Unstructured<'_>, lexicon: &Lexicon) -> Result<Case> {
    let inner = match u.int_in_range(0..=3)? {
        0 => secret_word(u)?,
        1 => run_of(u, DIGITS, 4..=16)?,
        2 => format!("/home/{}", secret_word(u)?),
        _ => u
            .choose(&[
                "n", "str", "path", "text", "sym", "url", "email", "N", "Path", " n ",
            ])?
            .to_string(),
    };
    let before = *u.choose(&["", "", "x", "‹", "(", "\\", "‹n›"])?;
    let after = *u.choose(&["", "", "s", "›", "‹n›", "123", "ab", "/x"])?;
    let (open, close) = *u.choose(&[("‹", "›"), ("‹", ""), ("", "›"), ("‹‹", "››")])?;
    let text = format!("{before}{open}{inner}{close}{after}");
    Ok(Case::with(text.clone(), &[inner, text], lexicon))
}

/// The quote kinds: opening mark and closing mark.
pub const QUOTES: &[(&str, &str)] = &[
    ("'", "'"),
    ("\"", "\""),
    ("`", "`"),
    ("“", "”"),
    ("„", "“"),
    ("‘", "’"),
    ("‚", "‘"),
    ("«", "»"),
    ("「", "」"),
    ("『", "』"),
];

/// Quoted non-vocabulary and vocabulary words, sometimes unterminated,
/// sometimes after a contraction.
pub fn quoted_secret(u: &mut Unstructured<'_>, lexicon: &Lexicon) -> Result<Case> {
    let (open, close) = *u.choose(QUOTES)?;
    let count = u.int_in_range(1..=4)?;
    let mut words = Vec::with_capacity(count);
    for _ in 0..count {
        words.push(if u.arbitrary()? {
            secret_word(u)?
        } else {
            vocabulary_word(u, lexicon)?
        });
    }
    let mut text = String::new();
    if u.arbitrary()? {
        text.push_str(u.choose(CONTRACTIONS)?);
        text.push(' ');
    }
    text.push_str(open);
    text.push_str(&words.join(" "));
    if u.arbitrary()? {
        text.push_str(close);
    }
    Ok(Case::with(text, &words, lexicon))
}

/// Fixed fragments of real messages: paths, URLs, addresses, numbers and
/// identifiers as tools print them, placeholder-shaped input, ANSI codes,
/// invisible and non-Latin text, and long runs near the 400-char window.
pub fn fixed_fragment(u: &mut Unstructured<'_>, lexicon: &Lexicon) -> Result<Case> {
    Ok(match u.int_in_range(0..=4)? {
        0 => Case::secret(
            *u.choose(&[
                "/Users/anna/My Docs/x.txt",
                "/etc/passwd",
                "~/.ssh/id_rsa",
                "C:\\Users\\Anna Meier\\Desktop\\tax 2024.pdf",
                "\\\\server\\share\\q.xlsx",
                "New folder (2)\\x.txt",
                "/tmp/a b/c d.md",
                "https://example.com/a?b=1",
                "http://10.0.0.1:8080/x",
                "mailto:anna@example.com",
                "file:///etc/hosts",
                "javascript:alert(1)",
                "ftp://u:pw@host/f",
                "a.b+c@d.co",
                "root@localhost",
                "Anna.Meier@Firma.DE",
                "API_KEY=sk-live-123",
                "ctx_payroll_anna",
                "ThisIsAVeryLongIdentifierIndeed",
            ])?,
            lexicon,
        ),
        1 => {
            if u.arbitrary()? {
                Case::plain(*u.choose(KNOWN_IDENTIFIERS)?)
            } else {
                Case::plain(*u.choose(&PLACEHOLDERS)?)
            }
        }
        2 => Case::plain(*u.choose(&["‹pa", "th›", "‹›", "‹‹n››", "‹str", "…", "‹n›…"])?),
        3 => Case::plain(*u.choose(&[
            "\u{1b}[31m",
            "\u{1b}[0m",
            "\u{200b}",
            "\u{feff}",
            "日本語",
            "Привет",
            "👍🏽",
            "ｆｕｌｌ",
            "&&",
            "(/)",
        ])?),
        // A long run: a quote, token or word list near the 400-char window.
        _ => {
            let unit = *u.choose(&["a", "word ", "'x ", "/p", "9"])?;
            Case::plain(unit.repeat(u.int_in_range(50..=500)?))
        }
    })
}

/// Any fragment of the grammar.
pub fn fragment(u: &mut Unstructured<'_>, lexicon: &Lexicon) -> Result<Case> {
    let build: Fragment = weighted(
        u,
        &[
            (12, vocabulary_fragment as Fragment),
            (3, error_phrase),
            (2, contraction),
            (3, punctuation),
            (2, path),
            (1, url),
            (1, email),
            (2, quoted_secret),
            (2, number),
            (2, identifier),
            (1, api_secret),
            (2, personal_name),
            (1, look_alike),
            (1, placeholder_shaped),
            (2, fixed_fragment),
        ],
    )?;
    build(u, lexicon)
}

// ---------------------------------------------------------------------------
// Separators and messages
// ---------------------------------------------------------------------------

/// Line breaks of every kind, as separators inside a message.
pub const LINE_BREAKS: &[&str] = &[
    "\n", "\r", "\r\n", "\u{0B}", "\u{0C}", "\u{85}", "\u{2028}", "\u{2029}",
];

/// What glues two fragments of one line: spaces, punctuation, ANSI colour
/// codes, invisible and control chars, or nothing.
pub fn separator_in_line(u: &mut Unstructured<'_>) -> Result<&'static str> {
    Ok(match u.int_in_range(0..=8)? {
        0..=5 => " ",
        6 | 7 => u.choose(&[
            "  ", "\t", ": ", ", ", " - ", " — ", "\u{a0}", "\u{3000}", " (", ") ", "=", "/", "",
        ])?,
        _ => u.choose(&[
            "\u{1b}[31m",
            "\u{1b}[0m ",
            " \u{1b}[1;33m",
            "\u{1b}[0m",
            "\u{1}",
            "\u{1b}",
        ])?,
    })
}

/// What glues two fragments: mostly one of a line, now and then a break.
pub fn separator(u: &mut Unstructured<'_>) -> Result<&'static str> {
    if u.int_in_range(0..=19)? == 0 {
        u.choose(LINE_BREAKS).copied()
    } else {
        separator_in_line(u)
    }
}

/// `count` fragments of `build`, glued by `glue`.
fn joined(
    u: &mut Unstructured<'_>,
    lexicon: &Lexicon,
    count: usize,
    build: impl Fn(&mut Unstructured<'_>, &Lexicon) -> Result<Case>,
    glue: fn(&mut Unstructured<'_>) -> Result<&'static str>,
) -> Result<Case> {
    let mut case = Case::default();
    for index in 0..count {
        if index > 0 {
            case.text.push_str(glue(u)?);
        }
        case.push(&build(u, lexicon)?);
    }
    Ok(case)
}

/// A message of fragments, mostly vocabulary words so that templates are
/// produced, with fragments of one of `focus` well represented.
pub fn message_of(
    u: &mut Unstructured<'_>,
    lexicon: &Lexicon,
    focus: &[Fragment],
    lengths: std::ops::RangeInclusive<usize>,
) -> Result<Case> {
    let count = u.int_in_range(lengths)?;
    joined(
        u,
        lexicon,
        count,
        |u, lexicon| match u.int_in_range(0..=11)? {
            0..=5 => vocabulary_fragment(u, lexicon),
            6..=8 => u.choose(focus)?(u, lexicon),
            _ => fragment(u, lexicon),
        },
        separator,
    )
}

/// A message of the whole grammar: short ones (at times after blank or
/// invisible lines), and one-line ones long enough that the window cuts
/// them and the template is truncated.
pub fn message_case(u: &mut Unstructured<'_>, lexicon: &Lexicon) -> Result<Case> {
    if u.int_in_range(0..=4)? < 3 {
        let mut case = Case::default();
        if u.ratio(1, 8)? {
            case.text.push_str(u.choose(&[
                "",
                " ",
                "\n",
                "\u{1b}[0m\n",
                "\u{200b}\n",
                "\t\r\n",
            ])?);
        }
        let count = u.int_in_range(1..=19)?;
        case.push(&joined(u, lexicon, count, fragment, separator)?);
        Ok(case)
    } else {
        let count = u.int_in_range(40..=119)?;
        let long_fragment = |u: &mut Unstructured<'_>, lexicon: &Lexicon| {
            let build: Fragment = weighted(
                u,
                &[
                    (8, vocabulary_fragment as Fragment),
                    (3, fragment),
                    (2, number),
                    (2, path),
                    (1, identifier),
                    (1, personal_name),
                ],
            )?;
            build(u, lexicon)
        };
        joined(u, lexicon, count, long_fragment, separator_in_line)
    }
}

/// A message of the whole grammar over the builtin vocabulary, as text
/// (what `agentfence diff` feeds both implementations).
pub fn message(u: &mut Unstructured<'_>) -> Result<String> {
    message_case(u, Lexicon::builtin()).map(|case| case.text)
}

/// Which generator a structured case came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Drawn {
    /// The whole grammar over the builtin vocabulary.
    Message,
    /// A secret spelt in the builtin vocabulary's own words.
    Planted,
    /// Fenced words, of the fenced vocabulary, where they must not survive.
    Fenced,
}

/// A case of any generator and the lexicon it was built for: what the
/// `template_structured` target checks.
pub fn any_case(u: &mut Unstructured<'_>) -> Result<(Drawn, &'static Lexicon, Case)> {
    let drawn = weighted(
        u,
        &[(4, Drawn::Message), (3, Drawn::Planted), (3, Drawn::Fenced)],
    )?;
    Ok(match drawn {
        Drawn::Message => {
            let lexicon = Lexicon::builtin();
            (drawn, lexicon, message_case(u, lexicon)?)
        }
        Drawn::Planted => {
            let lexicon = Lexicon::builtin();
            let planted = super::template_planted::planted(u, lexicon)?;
            (drawn, lexicon, planted.case)
        }
        Drawn::Fenced => (
            drawn,
            Lexicon::fenced(),
            super::template_fenced::any_fenced(u)?,
        ),
    })
}
