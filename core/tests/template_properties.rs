//! Property tests of `agentfence::template`: one test per guarantee of the
//! failure-template contract (docs/design.md#template-contract) and per
//! leak measured in lean-ctx 3.12.0 (docs/upstream-faults.md, its lean-ctx
//! section).
//!
//! Inputs come from a grammar of error-message fragments (paths with spaces,
//! Windows and UNC paths, URLs, e-mails, quotes of every kind, contractions,
//! numbers, identifiers, secrets, personal names, Unicode look-alikes,
//! placeholder-shaped tokens, ANSI colour codes, punctuation, line breaks)
//! mixed with vocabulary words. Every generated [`Case`] remembers the
//! sensitive fragments it inserted, so a leak test can name what leaked.
//!
//! Two vocabularies are used, and no test depends on the words of the
//! shipped list:
//! - the builtin list, whose words the generators draw from
//!   `Vocabulary::builtin().plain_words()`;
//! - a fixed "fenced" list ([`KEPT`] and [`FENCED`]): the fenced words are
//!   vocabulary words, so they would survive if they were not quoted, on a
//!   later line, inside a path or URL, or disguised; the tests that use it
//!   put fenced words only where they must not survive and assert that none
//!   of them appears in the template.
//!
//! The number of cases comes from `PROPTEST_CASES` (default 256): the config
//! is `ProptestConfig::default()`, which reads the environment, with only
//! the failure file moved to `core/proptest-regressions/`. Nightly:
//! `PROPTEST_CASES=25600 cargo test --release -p agentfence --test
//! template_properties -- --include-ignored`.

use std::sync::OnceLock;
use std::time::{Duration, Instant};

use agentfence::fuzzing::look_alike::cyrillic_twin;
use agentfence::template::{
    FailureKind, KNOWN_IDENTIFIERS, MAX_INPUT_CHARS, MAX_TEMPLATE_CHARS, PLACEHOLDERS,
    SAFE_PUNCTUATION, Scrubber, Vocabulary, check_contract, classify, message_template,
};
use proptest::prelude::*;
use proptest::sample::{select, subsequence};
use proptest::test_runner::FileFailurePersistence;

// ---------------------------------------------------------------------------
// Cases and the checks shared by the properties
// ---------------------------------------------------------------------------

/// A generated message and the sensitive fragments inserted into it.
#[derive(Clone, Debug, Default)]
struct Case {
    text: String,
    secrets: Vec<String>,
}

impl Case {
    fn plain(text: impl Into<String>) -> Case {
        Case {
            text: text.into(),
            secrets: Vec::new(),
        }
    }

    /// A fragment that is sensitive as a whole.
    fn secret(text: impl Into<String>) -> Case {
        let text = text.into();
        Case {
            secrets: vec![text.clone()],
            text,
        }
    }

    fn with(text: impl Into<String>, secrets: Vec<String>) -> Case {
        Case {
            text: text.into(),
            secrets,
        }
    }

    fn push(&mut self, other: &Case) {
        self.text.push_str(&other.text);
        self.secrets.extend(other.secrets.iter().cloned());
    }
}

/// Fragments glued by separators: `f0 s0 f1 s1 … fn`.
fn join(parts: Vec<(Case, String)>) -> Case {
    let mut case = Case::default();
    let last = parts.len().saturating_sub(1);
    for (index, (fragment, separator)) in parts.into_iter().enumerate() {
        case.push(&fragment);
        if index < last {
            case.text.push_str(&separator);
        }
    }
    case
}

/// Punctuation that frames a word of a template without being part of it.
const EDGE: &str = "()[]{},;:.!?<>…";

/// The core of a template word: the word without its framing punctuation.
fn core_of(word: &str) -> &str {
    word.trim_matches(|c| EDGE.contains(c))
}

/// Everything a template may legitimately spell out: the vocabulary words,
/// the placeholder names and the known identifiers, one per line,
/// lowercase. An alphanumeric run of a sensitive fragment that occurs in
/// this text cannot be asserted absent (the template may hold it as, or
/// inside, an allowed word); every other run must never reach a template.
struct Allowed {
    text: String,
}

impl Allowed {
    fn new(vocabulary: &Vocabulary) -> Allowed {
        let mut text = String::new();
        for word in vocabulary
            .words()
            .chain(PLACEHOLDERS)
            .chain(KNOWN_IDENTIFIERS.iter().copied())
            .chain(["ctx"])
        {
            text.push_str(&word.to_ascii_lowercase());
            text.push('\n');
        }
        Allowed { text }
    }

    fn covers(&self, run: &str) -> bool {
        self.text.contains(run)
    }
}

fn builtin_allowed() -> &'static Allowed {
    static ALLOWED: OnceLock<Allowed> = OnceLock::new();
    ALLOWED.get_or_init(|| Allowed::new(Vocabulary::builtin()))
}

/// The alphanumeric runs (of at least 3 chars) of the sensitive fragments
/// that occur in `template`, ignoring ASCII case.
fn leaked(template: &str, secrets: &[String], allowed: &Allowed) -> Vec<String> {
    let template = template.to_ascii_lowercase();
    let mut found: Vec<String> = secrets
        .iter()
        .flat_map(|secret| secret.split(|c: char| !c.is_ascii_alphanumeric()))
        .filter(|run| run.len() >= 3)
        .map(str::to_ascii_lowercase)
        .filter(|run| !allowed.covers(run) && template.contains(run.as_str()))
        .collect();
    found.dedup();
    found
}

/// The fenced words of `FENCED` that occur in `template`, ignoring case.
fn fenced_in(template: &str) -> Vec<&'static str> {
    let template = template.to_ascii_lowercase();
    FENCED
        .iter()
        .copied()
        .filter(|word| template.contains(word))
        .collect()
}

/// The words of `template` whose core holds `‹` or `›` without being one
/// of the seven placeholders.
fn foreign_placeholders(template: &str) -> Vec<&str> {
    template
        .split(' ')
        .filter(|word| {
            let core = core_of(word);
            core.contains(['‹', '›']) && !PLACEHOLDERS.contains(&core)
        })
        .collect()
}

/// A line of the vocabulary with no space (a word, a listed compound such
/// as `read-only` or a listed slash form such as `read/write`), or a
/// word's possessive (`file's`). A compound or slash-join of words that is
/// not itself listed is not one: it can spell any name.
fn is_vocabulary_word(word: &str, vocabulary: &Vocabulary) -> bool {
    !word.is_empty()
        && !word.contains(' ')
        && (vocabulary.contains(word)
            || word
                .strip_suffix("'s")
                .is_some_and(|stem| vocabulary.contains(stem)))
}

/// One of the seed's parameter names, or `ctx_` followed by one lowercase
/// vocabulary word.
fn is_known_identifier(core: &str, vocabulary: &Vocabulary) -> bool {
    KNOWN_IDENTIFIERS.contains(&core)
        || core.strip_prefix("ctx_").is_some_and(|name| {
            !name.is_empty()
                && name.bytes().all(|b| b.is_ascii_lowercase())
                && vocabulary.contains(name)
        })
}

/// The words of `template` that are neither placeholders, punctuation,
/// vocabulary words (alone or joined by `/`) nor known identifiers.
fn foreign_words<'t>(template: &'t str, vocabulary: &Vocabulary) -> Vec<&'t str> {
    template
        .split(' ')
        .map(core_of)
        .filter(|core| {
            !(PLACEHOLDERS.contains(core)
                || !core.bytes().any(|b| b.is_ascii_alphanumeric())
                || is_known_identifier(core, vocabulary)
                || is_vocabulary_word(core, vocabulary))
        })
        .collect()
}

// ---------------------------------------------------------------------------
// Vocabularies
// ---------------------------------------------------------------------------

/// The builtin list's plain words (no compound, slash form, pair or name
/// line).
fn builtin_words() -> Vec<&'static str> {
    Vocabulary::builtin().plain_words().collect()
}

fn builtin() -> &'static Scrubber {
    static SCRUBBER: OnceLock<Scrubber> = OnceLock::new();
    SCRUBBER.get_or_init(Scrubber::new)
}

/// Words of the fenced vocabulary that may appear in a template.
const KEPT: &[&str] = &[
    "alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india", "juliet",
    "can't", "don't", "it's", "won't", "isn't",
];

/// Words of the fenced vocabulary that the fenced tests only ever place
/// where they must not survive. None is a substring of a kept word, a
/// placeholder name or a known identifier.
const FENCED: &[&str] = &[
    "kilo", "lima", "mike", "november", "oscar", "papa", "quebec", "romeo", "sierra", "tango",
    "uniform", "victor", "whiskey", "yankee", "zulu",
];

fn fenced() -> &'static Scrubber {
    static SCRUBBER: OnceLock<Scrubber> = OnceLock::new();
    SCRUBBER.get_or_init(|| {
        let vocabulary = Vocabulary::from_words(KEPT.iter().chain(FENCED))
            .expect("the fenced words are lowercase ASCII words");
        Scrubber::with_vocabulary(vocabulary)
    })
}

fn fenced_allowed() -> &'static Allowed {
    static ALLOWED: OnceLock<Allowed> = OnceLock::new();
    ALLOWED.get_or_init(|| Allowed::new(fenced().vocabulary()))
}

// ---------------------------------------------------------------------------
// The grammar: words
// ---------------------------------------------------------------------------

fn capitalize(word: &str) -> String {
    let mut chars = word.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// `word` as written, Capitalized or UPPERCASE.
fn cased(word: impl Strategy<Value = String>) -> impl Strategy<Value = String> {
    (word, 0..4u8).prop_map(|(word, style)| match style {
        0 | 1 => word,
        2 => capitalize(&word),
        _ => word.to_uppercase(),
    })
}

/// A builtin vocabulary word, in any case.
fn vocabulary_word() -> impl Strategy<Value = String> {
    cased(select(builtin_words()).prop_map(str::to_string))
}

fn kept_word() -> impl Strategy<Value = String> {
    cased(select(KEPT).prop_map(str::to_string))
}

fn fenced_bare_word() -> impl Strategy<Value = String> {
    cased(select(FENCED).prop_map(str::to_string))
}

/// A fenced word, sometimes as a possessive.
fn fenced_word() -> impl Strategy<Value = String> {
    (fenced_bare_word(), any::<bool>()).prop_map(|(word, possessive)| {
        if possessive {
            format!("{word}'s")
        } else {
            word
        }
    })
}

/// A letters-only word that is in no vocabulary: it holds a letter pair no
/// English word has.
fn odd_word() -> impl Strategy<Value = String> {
    cased("[a-z]{0,3}(qz|zq|xq|qj|jx|vq|wz|fq)[a-z]{0,3}".prop_map(|word| word))
}

/// Letters and digits mixed, as in user names, hosts and ids.
fn alnum_word() -> impl Strategy<Value = String> {
    "[a-z]{1,4}[0-9]{1,4}[a-z0-9]{0,5}".prop_map(|word| word)
}

const NAMES: &[&str] = &[
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
fn name_word() -> impl Strategy<Value = String> {
    prop_oneof![
        3 => select(NAMES).prop_map(str::to_string),
        1 => odd_word().prop_map(|word| capitalize(&word.to_lowercase())),
    ]
}

/// A non-vocabulary word of a path, a host or a quote.
fn secret_word() -> impl Strategy<Value = String> {
    prop_oneof![
        3 => odd_word(),
        2 => name_word(),
        2 => alnum_word(),
    ]
}

// ---------------------------------------------------------------------------
// The grammar: fragments
// ---------------------------------------------------------------------------

fn vocabulary_fragment() -> BoxedStrategy<Case> {
    vocabulary_word().prop_map(Case::plain).boxed()
}

fn contraction() -> BoxedStrategy<Case> {
    select(vec![
        "can't", "don't", "it's", "won't", "isn't", "doesn't", "couldn't", "wasn't", "I'm",
        "we're", "they've", "you'll", "file's", "user's", "can’t", "don’t", "it’s",
    ])
    .prop_map(Case::plain)
    .boxed()
}

/// Wording of real tool errors, class phrases included.
fn error_phrase() -> BoxedStrategy<Case> {
    select(vec![
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
    ])
    .prop_map(Case::plain)
    .boxed()
}

fn punctuation() -> BoxedStrategy<Case> {
    select(vec![
        ":", ",", ".", ";", "(", ")", "[", "]", "{", "}", "->", "=>", "|", "—", "–", "-", "--",
        "...", "…", "!", "?", "=", "&&", "#", "*", "'", "-'", ".'", "<", ">", "/", "\\", "~", "@",
        "%", "$", "^", "+", "\"", "`", "«", "»", "“", "”",
    ])
    .prop_map(Case::plain)
    .boxed()
}

fn file_name() -> impl Strategy<Value = String> {
    (
        secret_word(),
        select(vec![
            "txt", "md", "rs", "xlsx", "pdf", "json", "env", "tar.gz", "docx", "key", "pem",
        ]),
    )
        .prop_map(|(stem, ext)| format!("{stem}.{ext}"))
}

/// A path segment: one word, or words with spaces in it.
fn path_segment() -> impl Strategy<Value = String> {
    prop_oneof![
        3 => secret_word(),
        1 => (select(vec!["My", "New", "Old"]), secret_word())
            .prop_map(|(lead, word)| format!("{lead} {word}")),
        1 => (name_word(), name_word(), secret_word())
            .prop_map(|(first, last, tail)| format!("{first} {last} {tail}")),
    ]
}

/// Unix, home, relative, Windows and UNC paths, dotfiles and file names.
fn path() -> BoxedStrategy<Case> {
    let segments = || prop::collection::vec(path_segment(), 1..4);
    let with_secrets = |text: String, parts: Vec<String>| Case::with(text, parts);
    prop_oneof![
        (
            select(vec!["/Users", "/home", "/var/lib", "/tmp", "/srv/data"]),
            segments(),
            prop::option::of(file_name()),
        )
            .prop_map(move |(root, segments, file)| {
                let mut text = format!("{root}/{}", segments.join("/"));
                let mut secrets = segments;
                if let Some(file) = file {
                    text = format!("{text}/{file}");
                    secrets.push(file);
                }
                with_secrets(text, secrets)
            }),
        (
            select(vec!["~/", "./", "../", "~/."]),
            segments(),
            file_name()
        )
            .prop_map(move |(root, segments, file)| {
                let text = format!("{root}{}/{file}", segments.join("/"));
                let mut secrets = segments;
                secrets.push(file);
                with_secrets(text, secrets)
            }),
        ("[A-Z]", segments(), file_name()).prop_map(move |(drive, segments, file)| {
            let text = format!("{drive}:\\Users\\{}\\{file}", segments.join("\\"));
            let mut secrets = segments;
            secrets.push(file);
            with_secrets(text, secrets)
        }),
        (secret_word(), secret_word(), segments()).prop_map(move |(server, share, segments)| {
            let text = format!("\\\\{server}\\{share}\\{}", segments.join("\\"));
            let mut secrets = segments;
            secrets.extend([server, share]);
            with_secrets(text, secrets)
        }),
        secret_word().prop_map(|word| Case::with(format!(".{word}"), vec![word])),
        file_name().prop_map(Case::secret),
        Just(Case::with(".env", vec![])),
        Just(Case::secret("payroll.xlsx")),
        Just(Case::secret("/Users/anna/Anna Meier Docs/x.txt")),
        Just(Case::secret("C:\\Users\\anna\\x y\\z.txt")),
        Just(Case::secret("\\\\server\\share\\dir")),
    ]
    .boxed()
}

fn host() -> impl Strategy<Value = String> {
    (
        secret_word(),
        select(vec![
            "com",
            "ch",
            "io",
            "example.com",
            "internal",
            "technology",
        ]),
    )
        .prop_map(|(name, tld)| format!("{name}.{tld}"))
}

/// URLs with and without a scheme, with userinfo, ports, paths and queries.
fn url() -> BoxedStrategy<Case> {
    prop_oneof![
        (
            select(vec![
                "http", "https", "ftp", "ssh", "git+ssh", "s3", "HTTPS"
            ]),
            prop::option::of((secret_word(), secret_word())),
            host(),
            prop::option::of("[0-9]{2,5}"),
            prop::collection::vec(secret_word(), 0..3),
            prop::option::of((secret_word(), alnum_word())),
        )
            .prop_map(|(scheme, userinfo, host, port, path, query)| {
                let mut secrets = vec![host.clone()];
                let mut text = format!("{scheme}://");
                if let Some((user, password)) = userinfo {
                    text.push_str(&format!("{user}:{password}@"));
                    secrets.extend([user, password]);
                }
                text.push_str(&host);
                if let Some(port) = port {
                    text.push_str(&format!(":{port}"));
                }
                for segment in &path {
                    text.push_str(&format!("/{segment}"));
                }
                secrets.extend(path);
                if let Some((key, value)) = query {
                    text.push_str(&format!("?{key}={value}#frag"));
                    secrets.extend([key, value]);
                }
                Case::with(text, secrets)
            }),
        (host(), secret_word())
            .prop_map(|(host, path)| Case::with(format!("www.{host}/{path}"), vec![host, path])),
        (host(), secret_word())
            .prop_map(|(host, path)| Case::with(format!("{host}/{path}"), vec![host, path])),
        (secret_word(), secret_word(), host()).prop_map(|(user, password, host)| Case::with(
            format!("{user}:{password}@{host}"),
            vec![user, password, host]
        )),
        host().prop_map(Case::secret),
    ]
    .boxed()
}

/// E-mail addresses: dotted, plus-addressed, local hosts, mailto.
fn email() -> BoxedStrategy<Case> {
    (
        secret_word(),
        prop::option::of(secret_word()),
        prop::option::of(secret_word()),
        host(),
        0..4u8,
    )
        .prop_map(|(local, dotted, tag, host, style)| {
            let mut address = local.clone();
            let mut secrets = vec![local, host.clone()];
            if let Some(dotted) = dotted {
                address.push_str(&format!(".{dotted}"));
                secrets.push(dotted);
            }
            if let Some(tag) = tag {
                address.push_str(&format!("+{tag}"));
                secrets.push(tag);
            }
            let text = match style {
                0 => format!("{address}@{host}"),
                1 => format!("<{address}@{host}>"),
                2 => format!("mailto:{address}@{host}"),
                _ => format!("{address}@localhost"),
            };
            Case::with(text, secrets)
        })
        .boxed()
}

/// Ints, floats, hex, hashes, IPv4, IPv6, UUIDs, card and phone numbers,
/// durations, versions, dates.
fn number() -> BoxedStrategy<Case> {
    prop_oneof![
        "[0-9]{1,12}",
        "-?[0-9]{1,5}\\.[0-9]{1,6}",
        "0x[0-9a-fA-F]{1,16}",
        "[0-9a-f]{7,40}",
        "[0-9]{1,3}\\.[0-9]{1,3}\\.[0-9]{1,3}\\.[0-9]{1,3}(:[0-9]{2,5})?",
        "[0-9a-f]{1,4}(:[0-9a-f]{1,4}){7}",
        "fe80::[0-9a-f]{1,4}:[0-9a-f]{1,4}",
        "\\[::1\\]:[0-9]{2,5}",
        "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}",
        "4[0-9]{15}",
        "4[0-9]{3}( [0-9]{4}){3}",
        "5[1-5][0-9]{2}(-[0-9]{4}){3}",
        "\\+41 [0-9]{2} [0-9]{3} [0-9]{2} [0-9]{2}",
        "[0-9]{1,4}(ms|s|MB|KiB|%)",
        "v[0-9]\\.[0-9]{1,2}\\.[0-9]{1,2}",
        "\\(os error [0-9]{1,3}\\)",
        "#[0-9]{1,6}",
        "[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z",
    ]
    .prop_map(Case::secret)
    .boxed()
}

/// snake_case, camelCase, `a::b`, `KEY=value`, `$HOME`, `%VAR%`, flags.
fn identifier() -> BoxedStrategy<Case> {
    let lower = || odd_word().prop_map(|word| word.to_lowercase());
    prop_oneof![
        (lower(), lower()).prop_map(|(a, b)| format!("{a}_{b}")),
        (lower(), lower()).prop_map(|(a, b)| format!("{a}{}", capitalize(&b))),
        (lower(), lower(), lower()).prop_map(|(a, b, c)| format!("{}::{b}_{c}", capitalize(&a))),
        (lower(), secret_word()).prop_map(|(key, value)| format!("{}={value}", key.to_uppercase())),
        secret_word().prop_map(|value| format!("PASSWORD={value}")),
        lower().prop_map(|name| format!("${}", name.to_uppercase())),
        lower().prop_map(|name| format!("%{}%", name.to_uppercase())),
        lower().prop_map(|name| format!("${{{}}}", name.to_uppercase())),
        (lower(), name_word()).prop_map(|(a, name)| format!("ctx_{a}_{}", name.to_lowercase())),
        (lower(), lower(), secret_word()).prop_map(|(a, b, c)| format!("--{a}-{b}={c}")),
        (lower(), lower()).prop_map(|(a, b)| format!("{a}.{b}()")),
        "[a-z]{25,40}".prop_map(|word| word),
    ]
    .prop_map(Case::secret)
    .boxed()
}

/// API keys and tokens of the common vendors.
fn api_secret() -> BoxedStrategy<Case> {
    prop_oneof![
        "sk-[A-Za-z0-9]{20,48}",
        "sk-proj-[A-Za-z0-9_-]{20,40}",
        "sk-[a-z]{20}",
        "ghp_[A-Za-z0-9]{36}",
        "github_pat_[A-Za-z0-9_]{22,60}",
        "AKIA[A-Z0-9]{16}",
        "AIza[0-9A-Za-z_-]{35}",
        "xox[bpar]-[0-9]{10,12}-[A-Za-z0-9]{10,24}",
        "xoxb-[a-z]{6}-[a-z]{6}",
        "eyJ[A-Za-z0-9_-]{10,30}\\.eyJ[A-Za-z0-9_-]{10,30}\\.[A-Za-z0-9_-]{10,30}",
        "Bearer [A-Za-z0-9]{20,40}",
        "[a-f]{16,24}",
    ]
    .prop_map(Case::secret)
    .boxed()
}

fn personal_name() -> BoxedStrategy<Case> {
    prop_oneof![
        (name_word(), name_word()).prop_map(|(first, last)| format!("{first} {last}")),
        name_word(),
        Just("Anna Meier".to_string()),
        Just("Jürgen".to_string()),
    ]
    .prop_map(Case::secret)
    .boxed()
}

/// `word` disguised: Cyrillic and Greek letters, fullwidth letters, a
/// zero-width or invisible char inside, a combining mark, the Kelvin sign
/// or the long s.
fn disguise(word: &str, how: u8, at: usize) -> String {
    let at = if word.is_empty() { 0 } else { at % word.len() };
    let disguised: String = match how % 6 {
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
    if disguised == word {
        // No letter had a look-alike: hide a zero-width space inside.
        format!("{word}\u{200B}")
    } else {
        disguised
    }
}

/// A personal name or a non-vocabulary word disguised with look-alikes.
fn look_alike() -> BoxedStrategy<Case> {
    (secret_word(), any::<u8>(), any::<usize>())
        .prop_map(|(word, how, at)| {
            let disguised = disguise(&word, how, at);
            Case::with(disguised.clone(), vec![word, disguised])
        })
        .boxed()
}

/// Placeholder-shaped tokens: `‹anna›`, `‹4111111111111111›`, `‹/home/x›`,
/// `‹n›s`, nested, unbalanced and glued ones.
fn placeholder_shaped() -> BoxedStrategy<Case> {
    let inner = prop_oneof![
        secret_word(),
        "[0-9]{4,16}",
        secret_word().prop_map(|word| format!("/home/{word}")),
        select(vec![
            "n", "str", "path", "text", "sym", "url", "email", "N", "Path", " n "
        ])
        .prop_map(str::to_string),
    ];
    (
        select(vec!["", "", "x", "‹", "(", "\\", "‹n›"]),
        inner,
        select(vec!["", "", "s", "›", "‹n›", "123", "ab", "/x"]),
        select(vec![("‹", "›"), ("‹", ""), ("", "›"), ("‹‹", "››")]),
    )
        .prop_map(|(before, inner, after, (open, close))| {
            let text = format!("{before}{open}{inner}{close}{after}");
            Case::with(text.clone(), vec![inner, text])
        })
        .boxed()
}

/// The quote kinds: opening mark and closing mark.
const QUOTES: &[(&str, &str)] = &[
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

/// Quoted non-vocabulary words, sometimes unterminated.
fn quoted_secret() -> BoxedStrategy<Case> {
    (
        select(QUOTES),
        prop::collection::vec(prop_oneof![secret_word(), vocabulary_word()], 1..5),
        prop::option::of(contraction()),
        any::<bool>(),
    )
        .prop_map(|((open, close), words, before, terminated)| {
            let content = words.join(" ");
            let mut text = String::new();
            if let Some(before) = before {
                text.push_str(&before.text);
                text.push(' ');
            }
            text.push_str(open);
            text.push_str(&content);
            if terminated {
                text.push_str(close);
            }
            Case::with(text, words)
        })
        .boxed()
}

/// Line breaks of every kind, as separators inside a message.
const LINE_BREAKS: &[&str] = &[
    "\n", "\r", "\r\n", "\u{0B}", "\u{0C}", "\u{85}", "\u{2028}", "\u{2029}",
];

/// What glues two fragments: spaces, punctuation, ANSI colour codes,
/// invisible and control chars, nothing, or now and then a line break.
fn separator() -> impl Strategy<Value = String> {
    prop_oneof![
        19 => separator_in_line(),
        1 => select(LINE_BREAKS).prop_map(str::to_string),
    ]
}

/// What glues two fragments of one line.
fn separator_in_line() -> impl Strategy<Value = String> {
    prop_oneof![
        12 => Just(" ".to_string()),
        4 => select(vec![
            "  ", "\t", ": ", ", ", " - ", " — ", "\u{a0}", "\u{3000}", " (", ") ", "=", "/",
            "",
        ])
        .prop_map(str::to_string),
        2 => select(vec!["\u{1b}[31m", "\u{1b}[0m ", " \u{1b}[1;33m", "\u{1b}[0m", "\u{1}", "\u{1b}"])
            .prop_map(str::to_string),
    ]
}

/// Any fragment of the grammar.
fn fragment() -> BoxedStrategy<Case> {
    prop_oneof![
        12 => vocabulary_fragment(),
        3 => error_phrase(),
        2 => contraction(),
        3 => punctuation(),
        2 => path(),
        1 => url(),
        1 => email(),
        2 => quoted_secret(),
        2 => number(),
        2 => identifier(),
        1 => api_secret(),
        2 => personal_name(),
        1 => look_alike(),
        1 => placeholder_shaped(),
    ]
    .boxed()
}

/// A message of fragments, mostly vocabulary words so that templates are
/// produced, with `focus` fragments well represented.
fn message_of(focus: BoxedStrategy<Case>, lengths: std::ops::Range<usize>) -> BoxedStrategy<Case> {
    prop::collection::vec(
        (
            prop_oneof![
                6 => vocabulary_fragment(),
                3 => focus,
                3 => fragment(),
            ],
            separator(),
        ),
        lengths,
    )
    .prop_map(join)
    .boxed()
}

/// A message of the whole grammar: short ones, and one-line ones long
/// enough that the window cuts them and the template is truncated.
fn message() -> BoxedStrategy<Case> {
    let long_fragment = prop_oneof![
        8 => vocabulary_fragment(),
        3 => fragment(),
        2 => number(),
        2 => path(),
        1 => identifier(),
        1 => personal_name(),
    ];
    prop_oneof![
        3 => prop::collection::vec((fragment(), separator()), 1..20).prop_map(join),
        2 => prop::collection::vec((long_fragment, separator_in_line()), 40..120).prop_map(join),
    ]
    .boxed()
}

// ---------------------------------------------------------------------------
// The fenced grammar: kept words around fenced words that must vanish
// ---------------------------------------------------------------------------

/// Kept words, the only vocabulary words of a fenced message outside the
/// fenced spots.
fn kept_words(lengths: std::ops::Range<usize>) -> impl Strategy<Value = String> {
    prop::collection::vec(kept_word(), lengths).prop_map(|words| words.join(" "))
}

/// Fenced words joined by spaces.
fn fenced_words(lengths: std::ops::Range<usize>) -> impl Strategy<Value = String> {
    prop::collection::vec(fenced_word(), lengths).prop_map(|words| words.join(" "))
}

/// Kept words around `middle`, glued by spaces or framing punctuation.
fn fenced_message(middle: BoxedStrategy<Case>) -> BoxedStrategy<Case> {
    (
        kept_words(0..6),
        select(vec![" ", ": ", " (", " at "]),
        middle,
        select(vec![" ", ", ", ") ", ": ", ". ", " - "]),
        kept_words(0..6),
    )
        .prop_map(|(before, open, middle, close, after)| {
            let mut case = Case::plain(format!("{before}{open}"));
            case.push(&middle);
            case.text.push_str(close);
            case.text.push_str(&after);
            case
        })
        .boxed()
}

// ---------------------------------------------------------------------------
// Properties
// ---------------------------------------------------------------------------

/// The default config, so `PROPTEST_CASES` and the other `PROPTEST_*`
/// variables apply, with failures saved under `core/proptest-regressions/`
/// (proptest's own default looks for a `lib.rs` beside the test file, which
/// an integration test does not have).
fn config() -> ProptestConfig {
    ProptestConfig {
        failure_persistence: Some(Box::new(FileFailurePersistence::Direct(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/proptest-regressions/template_properties.txt"
        )))),
        ..ProptestConfig::default()
    }
}

proptest! {
    #![proptest_config(config())]

    /// The wire contract forbids ASCII digits, and lean-ctx 3.12.0's own
    /// safety check allowed them, so `‹4111111111111111›` reached the wire
    /// and one crafted error rejected the day's batch
    /// (docs/upstream-faults.md#leanctx-digits-allowed). No digit of any input
    /// (numbers, IPs, UUIDs, cards, secrets, placeholder-shaped tokens)
    /// reaches a template.
    #[test]
    fn no_digit_survives(case in message()) {
        let template = builtin().template(&case.text);
        if let Some(template) = &template {
            prop_assert!(
                !template.bytes().any(|b| b.is_ascii_digit()),
                "digit in template\ninput:    {:?}\ntemplate: {:?}",
                case.text,
                template
            );
        }
    }

    /// No non-vocabulary text of a path survives: Unix paths with spaces
    /// (lean-ctx 3.12.0 leaked the middle words of
    /// `/Users/anna/Anna Meier Docs/x.txt`), home, relative, Windows and
    /// UNC paths, dotfiles (`.env` survived upstream) and file names. No
    /// user name, folder name, server, share or file name of a path reaches
    /// a template, nor a backslash.
    #[test]
    fn no_path_text_outside_the_vocabulary_survives(
        case in fenced_message(fenced_path()),
        general in message_of(path(), 1..16),
    ) {
        for (case, scrubber, allowed) in [
            (&case, fenced(), fenced_allowed()),
            (&general, builtin(), builtin_allowed()),
        ] {
            if let Some(template) = scrubber.template(&case.text) {
                let leaked = leaked(&template, &case.secrets, allowed);
                prop_assert!(
                    leaked.is_empty() && !template.contains('\\'),
                    "path text in template: {:?}\ninput:    {:?}\ntemplate: {:?}",
                    leaked,
                    case.text,
                    template
                );
            }
        }
    }

    /// No path survives, not even its vocabulary words
    /// (docs/design.md#template-contract: the template holds no path;
    /// mod.rs: `‹path›` is "a path, spaces
    /// included"): vocabulary words between the spaced parts of a path are
    /// part of it, as in `C:\Users\anna\New folder (2)\x.txt` or
    /// `/Users/anna/Tax Return/summary`. The fenced words placed inside
    /// paths never appear in the template.
    #[test]
    fn no_path_survives(case in fenced_message(fenced_path())) {
        if let Some(template) = fenced().template(&case.text) {
            let fenced = fenced_in(&template);
            prop_assert!(
                fenced.is_empty(),
                "path words in template: {:?}\ninput:    {:?}\ntemplate: {:?}",
                fenced,
                case.text,
                template
            );
        }
    }

    /// URLs (with or without a scheme, `www.`, userinfo `user:pw@host`),
    /// e-mails (plus-addressing, `@localhost`, `mailto:`) and secrets
    /// (`sk-…`, `ghp_…`, `github_pat_…`, `AKIA…`, `xoxb-…`, JWTs, `Bearer`,
    /// `KEY=value`, all-letter hex) never survive, in part or whole: upstream
    /// kept `xoxb-abcdef-ghijkl`, `deadbeefcafebabe` and single-label hosts
    /// (docs/upstream-faults.md#leanctx-any-ascii-word), and `user:pw@` must
    /// never land in telemetry.
    /// Vocabulary words inside a URL or an address are not kept either.
    #[test]
    fn no_email_url_or_secret_survives(
        case in fenced_message(fenced_url_or_email()),
        general in message_of(
            prop_oneof![url(), email(), api_secret(), identifier()].boxed(),
            1..16,
        ),
    ) {
        if let Some(template) = fenced().template(&case.text) {
            let fenced = fenced_in(&template);
            let leaked = leaked(&template, &case.secrets, fenced_allowed());
            prop_assert!(
                fenced.is_empty() && leaked.is_empty(),
                "URL, address or secret text in template: {:?} {:?}\ninput:    {:?}\ntemplate: {:?}",
                fenced,
                leaked,
                case.text,
                template
            );
        }
        if let Some(template) = builtin().template(&general.text) {
            let leaked = leaked(&template, &general.secrets, builtin_allowed());
            prop_assert!(
                leaked.is_empty(),
                "URL, address or secret text in template: {:?}\ninput:    {:?}\ntemplate: {:?}",
                leaked,
                general.text,
                template
            );
        }
    }

    /// Personal names (`Anna Meier`, `Jürgen`; upstream 3.12.0 returned
    /// `user Alice Meier lacks role admin` unchanged) never survive, and a
    /// vocabulary word disguised with Unicode look-alikes (Cyrillic а/е/о,
    /// fullwidth letters, zero-width chars joined into it, a combining mark,
    /// the Kelvin sign) is not that word: it is non-ASCII input, `‹text›`.
    #[test]
    fn no_name_or_look_alike_survives(
        case in fenced_message(fenced_look_alike()),
        general in message_of(prop_oneof![personal_name(), look_alike()].boxed(), 1..16),
    ) {
        if let Some(template) = fenced().template(&case.text) {
            let fenced = fenced_in(&template);
            let leaked = leaked(&template, &case.secrets, fenced_allowed());
            prop_assert!(
                fenced.is_empty() && leaked.is_empty(),
                "name or look-alike in template: {:?} {:?}\ninput:    {:?}\ntemplate: {:?}",
                fenced,
                leaked,
                case.text,
                template
            );
        }
        if let Some(template) = builtin().template(&general.text) {
            let leaked = leaked(&template, &general.secrets, builtin_allowed());
            prop_assert!(
                leaked.is_empty(),
                "name in template: {:?}\ninput:    {:?}\ntemplate: {:?}",
                leaked,
                general.text,
                template
            );
        }
    }

    /// Every `‹…›` of a template is one of the seven placeholders, whole:
    /// never glued to letters, never cut by truncation (lean-ctx 3.12.0
    /// compared a byte offset with a char count and could cut `‹pa…`).
    #[test]
    fn every_placeholder_is_one_of_seven(case in message()) {
        if let Some(template) = builtin().template(&case.text) {
            let foreign = foreign_placeholders(&template);
            prop_assert!(
                foreign.is_empty(),
                "not a placeholder: {:?}\ninput:    {:?}\ntemplate: {:?}",
                foreign,
                case.text,
                template
            );
        }
    }

    /// Every plain word of a template is a word of the scrubber's
    /// vocabulary (alone, possessive, hyphenated or joined by `/`) or a
    /// known identifier (docs/design.md#template-contract; upstream 3.12.0
    /// kept any ASCII word: docs/upstream-faults.md#leanctx-any-ascii-word).
    /// Checked twice: re-derived here, and by `check_contract`, under the
    /// builtin list and under a random part of it, so a word outside the
    /// caller's list never survives because the builtin list has it.
    #[test]
    fn every_plain_word_is_vocabulary_or_known_identifier(
        case in message(),
        part in subsequence(builtin_words(), 1..=builtin_words().len()),
    ) {
        let partial = Scrubber::with_vocabulary(
            Vocabulary::from_words(&part).expect("builtin words are valid words"),
        );
        for scrubber in [builtin(), &partial] {
            if let Some(template) = scrubber.template(&case.text) {
                let foreign = foreign_words(&template, scrubber.vocabulary());
                prop_assert!(
                    foreign.is_empty(),
                    "not vocabulary: {:?}\ninput:    {:?}\ntemplate: {:?}\nvocabulary: {:?}",
                    foreign,
                    case.text,
                    template,
                    part
                );
                let verdict = check_contract(&template, scrubber);
                prop_assert!(
                    verdict.is_ok(),
                    "contract: {:?}\ninput:    {:?}\ntemplate: {:?}",
                    verdict,
                    case.text,
                    template
                );
            }
        }
    }

    /// A template is at most 160 chars of ASCII letters and the safe
    /// punctuation (the wire validator's charset), for grammar messages and
    /// for arbitrary strings; a cut template ends with `…`.
    #[test]
    fn template_fits_160_chars_of_safe_charset(
        case in prop_oneof![message().prop_map(|case| case.text), any::<String>()],
    ) {
        if let Some(template) = builtin().template(&case) {
            let chars = template.chars().count();
            prop_assert!(
                (1..=MAX_TEMPLATE_CHARS).contains(&chars),
                "{} chars\ninput:    {:?}\ntemplate: {:?}",
                chars,
                case,
                template
            );
            let unsafe_chars: Vec<char> = template
                .chars()
                .filter(|&c| !c.is_ascii_alphabetic() && !SAFE_PUNCTUATION.contains(c))
                .collect();
            prop_assert!(
                unsafe_chars.is_empty(),
                "unsafe chars {:?}\ninput:    {:?}\ntemplate: {:?}",
                unsafe_chars,
                case,
                template
            );
            prop_assert!(
                !template.starts_with(' ') && !template.ends_with(' ') && !template.contains("  "),
                "stray spaces\ninput:    {:?}\ntemplate: {:?}",
                case,
                template
            );
        }
    }

    /// Templating a template returns it unchanged
    /// (docs/design.md#template-contract), so
    /// a template seen twice counts once: for grammar messages, truncated
    /// ones included, and arbitrary strings, under both vocabularies.
    #[test]
    fn templating_a_template_changes_nothing(
        case in prop_oneof![message().prop_map(|case| case.text), any::<String>()],
    ) {
        for scrubber in [builtin(), fenced()] {
            if let Some(template) = scrubber.template(&case) {
                let again = scrubber.template(&template);
                prop_assert_eq!(
                    again.as_deref(),
                    Some(template.as_str()),
                    "input: {:?}",
                    case
                );
            }
        }
    }

    /// Only the first non-empty line counts, for every line-break kind
    /// (`\n`, `\r`, `\r\n`, VT, FF, NEL, U+2028, U+2029): lean-ctx 3.12.0
    /// read on past a lone `\r` or U+2028 (`fine\rsecond line Anna Meier`).
    /// The later lines hold fenced vocabulary words, which would survive on
    /// the first line, and secrets; none appears, and the template is the
    /// template of the first line alone.
    #[test]
    fn only_the_first_line_counts(
        blank in prop::collection::vec(("[ \t\u{a0}]{0,3}", select(LINE_BREAKS)), 0..3),
        first in first_line(),
        brk in select(LINE_BREAKS),
        later in prop::collection::vec(later_line(), 1..4),
    ) {
        let mut text: String = blank.iter().map(|(space, brk)| format!("{space}{brk}")).collect();
        text.push_str(&first.text);
        let mut secrets = first.secrets.clone();
        for line in &later {
            text.push_str(brk);
            text.push_str(&line.text);
            secrets.extend(line.secrets.iter().cloned());
        }
        let template = fenced().template(&text);
        if let Some(template) = &template {
            let fenced = fenced_in(template);
            let leaked = leaked(template, &secrets, fenced_allowed());
            prop_assert!(
                fenced.is_empty() && leaked.is_empty(),
                "later line in template: {:?} {:?}\ninput:    {:?}\ntemplate: {:?}",
                fenced,
                leaked,
                text,
                template
            );
        }
        prop_assert_eq!(
            template,
            fenced().template(&first.text),
            "input: {:?}",
            text
        );
    }

    /// Quoted text never survives (`‹str›`), for every quote kind (`'`, `"`,
    /// `` ` ``, “…”, „…“, ‘…’, «…», 「…」), after contractions (lean-ctx
    /// 3.12.0 paired the apostrophe of `can't` with the next quote and
    /// leaked `Anna Meier`), with apostrophes inside (`'it's here'`), left
    /// unterminated, longer than 300 chars (not matched upstream) and cut
    /// by the 400-char window (whose tail leaked upstream). The quotes hold
    /// fenced vocabulary words, which would survive outside a quote.
    #[test]
    fn quoted_text_never_survives(case in quoted_message()) {
        if let Some(template) = fenced().template(&case.text) {
            let fenced = fenced_in(&template);
            let leaked = leaked(&template, &case.secrets, fenced_allowed());
            prop_assert!(
                fenced.is_empty() && leaked.is_empty(),
                "quoted text in template: {:?} {:?}\ninput:    {:?}\ntemplate: {:?}",
                fenced,
                leaked,
                case.text,
                template
            );
        }
    }

    /// A placeholder-shaped input token never passes through: lean-ctx
    /// 3.12.0 copied `‹anna›`, `‹4111111111111111›` and `‹/home/anna/secret›`
    /// verbatim (docs/upstream-faults.md#leanctx-placeholder-passthrough).
    /// Whatever is between or
    /// around the marks, the template holds only the seven placeholders,
    /// no digit, and none of the token's text.
    #[test]
    fn placeholder_shaped_input_never_passes_through(case in fenced_message(fenced_placeholder_shaped())) {
        if let Some(template) = fenced().template(&case.text) {
            let foreign = foreign_placeholders(&template);
            let fenced = fenced_in(&template);
            let leaked = leaked(&template, &case.secrets, fenced_allowed());
            prop_assert!(
                foreign.is_empty()
                    && fenced.is_empty()
                    && leaked.is_empty()
                    && !template.bytes().any(|b| b.is_ascii_digit()),
                "placeholder-shaped input passed: {:?} {:?} {:?}\ninput:    {:?}\ntemplate: {:?}",
                foreign,
                fenced,
                leaked,
                case.text,
                template
            );
        }
    }

    /// Classification is total and stable (docs/design.md#template-contract:
    /// the class is one of nine stable kinds, reported even when no template
    /// survives): any
    /// input gets one of the nine kinds, the same every time, `report`
    /// agrees with `classify` and `template`, and text holding no class
    /// phrase, added before or after, does not change the kind.
    #[test]
    fn classify_is_total_and_stable(
        message in prop_oneof![message().prop_map(|case| case.text), any::<String>()],
        filler in unrelated_text(),
        place in 0..3u8,
    ) {
        let kind = classify(&message);
        prop_assert!(FailureKind::ALL.contains(&kind));
        prop_assert_eq!(classify(&message), kind);
        prop_assert_eq!(FailureKind::from_name(kind.as_str()), Some(kind));
        let report = builtin().report(&message);
        prop_assert_eq!(report.kind, kind);
        prop_assert_eq!(report.template, message_template(&message));
        let extended = match place {
            0 => format!("{filler}|{message}"),
            1 => format!("{message}|{filler}"),
            _ => format!("{filler}|{message}|{filler}"),
        };
        prop_assert_eq!(
            classify(&extended),
            kind,
            "message: {:?}\nextended: {:?}",
            message,
            extended
        );
        prop_assert_eq!(classify(&filler), FailureKind::Other, "filler: {:?}", filler);
    }
}

// ---------------------------------------------------------------------------
// Fenced fragments
// ---------------------------------------------------------------------------

/// A path whose spaced middle holds fenced words, then maybe a
/// parenthesized group, then a tail that continues the path:
/// `/Users/x/kilo lima/y.md`, `C:\Users\x\kilo lima (2)\y.md`,
/// `~/x/kilo (lima) y.md`, `/Users/x/kilo lima/tango`.
fn fenced_path() -> BoxedStrategy<Case> {
    let tail = prop_oneof![
        file_name(),
        (fenced_word(), file_name()).prop_map(|(word, file)| format!("{word}/{file}")),
        (fenced_word(), secret_word()).prop_map(|(word, last)| format!("{word}/{last}")),
        (fenced_word(), fenced_word()).prop_map(|(word, last)| format!("{word}/{last}")),
        (fenced_word(), fenced_bare_word()).prop_map(|(word, ext)| format!("{word}.{ext}")),
    ];
    let group = prop_oneof![fenced_words(1..3), "[0-9]{1,2}".prop_map(|number| number),];
    (
        select(vec!["/Users/", "/home/", "~/", "./", "C:\\Users\\", "\\\\"]),
        secret_word(),
        fenced_words(1..4),
        prop::option::of((group, any::<bool>())),
        tail,
    )
        .prop_map(|(root, owner, middle, group, tail)| {
            let separator = if root.contains('\\') { "\\" } else { "/" };
            let tail = tail.replace('/', separator);
            let mut text = format!("{root}{owner}{separator}{middle}");
            match group {
                // `New folder (2)\x.txt`
                Some((group, true)) => text.push_str(&format!(" ({group}){separator}")),
                // `Report (final) draft.pdf`
                Some((group, false)) => text.push_str(&format!(" ({group}) ")),
                None => text.push(' '),
            }
            text.push_str(&tail);
            Case::with(text, vec![owner, tail])
        })
        .boxed()
}

/// URLs and addresses made of fenced words and secrets.
fn fenced_url_or_email() -> BoxedStrategy<Case> {
    prop_oneof![
        (
            select(vec!["https://", "http://", "ftp://", "www.", ""]),
            secret_word(),
            prop::collection::vec(fenced_word(), 1..4),
            prop::option::of((fenced_word(), fenced_word())),
        )
            .prop_map(|(scheme, host, path, query)| {
                let mut text = format!("{scheme}{host}.com/{}", path.join("/"));
                if let Some((key, value)) = query {
                    text.push_str(&format!("?{key}={value}"));
                }
                Case::with(text, vec![host])
            }),
        (fenced_word(), fenced_word(), secret_word()).prop_map(|(user, password, host)| {
            Case::with(format!("https://{user}:{password}@{host}.ch/x"), vec![host])
        }),
        (fenced_word(), fenced_word(), secret_word()).prop_map(|(user, password, host)| {
            Case::with(format!("{user}:{password}@{host}"), vec![host])
        }),
        (fenced_word(), fenced_word(), fenced_word(), secret_word()).prop_map(
            |(local, dotted, tag, host)| {
                Case::with(format!("{local}.{dotted}+{tag}@{host}.ch"), vec![host])
            }
        ),
        (fenced_word(), fenced_word())
            .prop_map(|(local, host)| { Case::plain(format!("{local}@{host}")) }),
        (fenced_word(), fenced_word())
            .prop_map(|(key, value)| { Case::plain(format!("{}={value}", key.to_uppercase())) }),
        fenced_word().prop_map(|word| Case::plain(format!("${}", word.to_uppercase()))),
        (fenced_word(), fenced_word()).prop_map(|(a, b)| Case::plain(format!("{a}_{b}"))),
        (fenced_word(), fenced_word()).prop_map(|(a, b)| Case::plain(format!("{a}::{b}"))),
        api_secret(),
    ]
    .boxed()
}

/// Fenced words disguised with look-alikes, and personal names.
fn fenced_look_alike() -> BoxedStrategy<Case> {
    prop_oneof![
        (fenced_word(), any::<u8>(), any::<usize>())
            .prop_map(|(word, how, at)| Case::plain(disguise(&word, how, at))),
        personal_name(),
    ]
    .boxed()
}

/// Placeholder-shaped tokens holding fenced words, names and numbers.
fn fenced_placeholder_shaped() -> BoxedStrategy<Case> {
    prop_oneof![
        placeholder_shaped(),
        (fenced_words(1..3), select(vec!["", "s", "›", "‹n›"]))
            .prop_map(|(words, after)| Case::plain(format!("‹{words}›{after}"))),
        fenced_word().prop_map(|word| Case::plain(format!("‹n›{word}"))),
        fenced_word().prop_map(|word| Case::plain(format!("{word}‹text›"))),
        Just(Case::secret("‹anna›")),
        Just(Case::secret("‹4111111111111111›")),
        Just(Case::secret("‹/home/x›")),
        Just(Case::plain("‹n›s")),
    ]
    .boxed()
}

/// A first line: kept words and grammar fragments, no line break and no
/// fenced word, ending now and then in an open quote.
fn first_line() -> BoxedStrategy<Case> {
    let fragment = prop_oneof![
        4 => kept_word().prop_map(Case::plain),
        1 => path(),
        1 => number(),
        1 => identifier(),
        1 => personal_name(),
        1 => punctuation(),
    ];
    (
        kept_words(2..4),
        prop::collection::vec(fragment, 0..8),
        prop::option::of((select(QUOTES), secret_word())),
    )
        .prop_map(|(lead, fragments, open_quote)| {
            let mut case = Case::plain(lead);
            for fragment in &fragments {
                case.text.push(' ');
                case.push(fragment);
            }
            if let Some(((open, _), word)) = open_quote {
                case.text.push(' ');
                case.text.push_str(open);
                case.text.push_str(&word);
                case.secrets.push(word);
            }
            case
        })
        .boxed()
}

/// A later line: fenced words, which are vocabulary, and secrets.
fn later_line() -> BoxedStrategy<Case> {
    prop::collection::vec(
        prop_oneof![
            3 => fenced_word().prop_map(Case::plain),
            1 => secret_word().prop_map(Case::secret),
            1 => path(),
            1 => personal_name(),
        ],
        1..8,
    )
    .prop_map(|words| {
        let mut case = Case::default();
        for (index, word) in words.iter().enumerate() {
            if index > 0 {
                case.text.push(' ');
            }
            case.push(word);
        }
        case
    })
    .boxed()
}

/// A quote of fenced words in kept words: every quote kind, after a
/// contraction, with apostrophes inside, unterminated, over 300 chars, or
/// placed so that the 400-char window cuts it.
fn quoted_message() -> BoxedStrategy<Case> {
    let content_word = prop_oneof![
        4 => fenced_word().prop_map(Case::plain),
        1 => secret_word().prop_map(Case::secret),
        1 => Just(Case::plain("it's")),
    ];
    (
        kept_words(0..6),
        prop::option::of((
            select(vec![
                "can't", "don't", "it's", "won't", "isn't", "can’t", "don’t",
            ]),
            select(vec![" ", " alpha "]),
        )),
        prop::option::of(370..400usize),
        select(QUOTES),
        prop_oneof![
            3 => prop::collection::vec(content_word.clone(), 1..6),
            1 => prop::collection::vec(content_word, 50..90),
        ],
        any::<bool>(),
        kept_words(0..6),
    )
        .prop_map(
            |(before, contraction, pad_to, (open, close), content, terminated, after)| {
                let mut case = Case::plain(before);
                if let Some((contraction, gap)) = contraction {
                    case.text.push(' ');
                    case.text.push_str(contraction);
                    case.text.push_str(gap.trim_end());
                }
                if let Some(pad_to) = pad_to {
                    while case.text.chars().count() < pad_to {
                        case.text.push_str(" bravo");
                    }
                }
                case.text.push(' ');
                case.text.push_str(open);
                for (index, word) in content.iter().enumerate() {
                    if index > 0 {
                        case.text.push(' ');
                    }
                    case.push(word);
                }
                if terminated {
                    case.text.push_str(close);
                    case.text.push(' ');
                    case.text.push_str(&after);
                }
                case
            },
        )
        .boxed()
}

/// Text that holds no class phrase: every phrase has an ASCII vowel, and
/// this text has none (non-ASCII letters are not folded by the matcher).
fn unrelated_text() -> impl Strategy<Value = String> {
    "[bcdfghjklmnpqrstvwxzBCDFGHJKLMNPQRSTVWXZ0-9 .,:;/@#=_\\-\\n\\tа-яÀ-ÿ\u{2028}]{0,60}"
}

// ---------------------------------------------------------------------------
// Bounded work
// ---------------------------------------------------------------------------

const TEN_MB: usize = 10 * 1024 * 1024;

/// `unit` repeated to at least 10 MB.
fn ten_mb_of(unit: &str) -> String {
    unit.repeat(TEN_MB / unit.len() + 1)
}

/// Huge inputs return quickly: only the first non-empty line is read, and
/// of it only 400 chars (mod.rs: "the work is linear in the input"), and
/// `classify` makes one pass. A 10 MB first line, 10 MB of blank lines of
/// every break kind before a short line, a 10 MB token without separators,
/// 10 MB of quote marks, of ANSI codes or of placeholder marks each take a
/// bounded time, and the blank lines change nothing about the template.
#[test]
fn huge_input_returns_quickly() {
    let line = "error: permission denied while reading 'Anna Meier' in /Users/anna/My Docs/x.txt";
    // (name, repeated unit, what follows the 10 MB)
    let shapes = [
        ("10 MB first line", "can't open 'Anna Meier' file ", ""),
        (
            "10 MB of blank lines",
            "\n \r\n\t\r\u{0B}\u{0C}\u{85}\u{2028}\u{2029}",
            line,
        ),
        ("10 MB of spaces", " ", line),
        ("10 MB token", "a", ""),
        ("10 MB of quote marks", "'\"`“«", ""),
        ("10 MB of ANSI codes", "\u{1b}[31m", ""),
        ("10 MB of placeholder marks", "‹n›‹", ""),
        ("10 MB of digits", "4111111111111111 ", ""),
    ];
    let inputs: Vec<(&str, String)> = shapes
        .iter()
        .map(|(name, unit, tail)| (*name, ten_mb_of(unit) + *tail))
        .collect();
    // Linear work, whatever the machine's speed: the whole input may take
    // at most 32 times what an eighth of it takes (quadratic work would
    // take 64 times), plus a fixed allowance for timer noise. A wall-clock
    // budget alone failed on a loaded machine for a linear debug build.
    for ((name, unit, tail), (_, input)) in shapes.iter().zip(&inputs) {
        let eighth = unit.repeat(TEN_MB / 8 / unit.len() + 1) + *tail;
        let time = |text: &str| {
            let started = Instant::now();
            let _ = (message_template(text), classify(text));
            started.elapsed()
        };
        let (small, whole) = (time(&eighth), time(input));
        assert!(
            whole <= small * 32 + Duration::from_millis(250),
            "{name}: the whole took {whole:?}, an eighth {small:?}: more than linear"
        );
    }
    let expected = message_template(line);
    for (name, input) in &inputs {
        let template = message_template(input);
        let kind = classify(input);
        assert!(FailureKind::ALL.contains(&kind), "{name}");
        if let Some(template) = &template {
            assert!(
                template.chars().count() <= MAX_TEMPLATE_CHARS,
                "{name}: {template:?}"
            );
            assert!(
                check_contract(template, builtin()).is_ok(),
                "{name}: {template:?}"
            );
        }
        if name.starts_with("10 MB of blank") || name.starts_with("10 MB of spaces") {
            assert_eq!(template, expected, "{name}");
        } else {
            // One line: what lies past the 400-char window changes nothing.
            let head: String = input.chars().take(2 * MAX_INPUT_CHARS).collect();
            assert_eq!(template, message_template(&head), "{name}");
        }
    }
}

// ---------------------------------------------------------------------------
// Secrets spelt in vocabulary words (issue: no name or secret survives)
// ---------------------------------------------------------------------------

/// The attacker's generator: tool errors that carry a secret made of the
/// vocabulary's own words, drawn through `arbitrary::Unstructured` so that
/// the fuzz target `template_structured` can build the same messages from
/// its bytes. It is written here until the fuzzing module is split per
/// boundary; it then moves to `fuzzing/template.rs` and this file draws
/// from it there.
mod planted {
    use arbitrary::{Result, Unstructured};

    use agentfence::template::{
        FUNCTION_WORDS, PLACEHOLDERS, VALUE_NOUNS, VALUE_PHRASES, Vocabulary,
    };

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

    /// A message and the secrets planted in it.
    #[derive(Debug, Clone)]
    pub struct Planted {
        pub class: SecretClass,
        pub message: String,
        /// Each secret as planted: words (matched as words) or, for marks
        /// and `ctx_` names, the exact text.
        pub secrets: Vec<String>,
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

    /// The vocabulary's plain words that a secret may be made of: not
    /// carrier or function words, not placeholder names, letters only.
    fn secret_words(vocabulary: &'static Vocabulary) -> &'static [&'static str] {
        static WORDS: std::sync::OnceLock<Vec<&'static str>> = std::sync::OnceLock::new();
        WORDS.get_or_init(|| {
            let placeholder_words: Vec<String> = PLACEHOLDERS
                .iter()
                .map(|p| p.trim_matches(['‹', '›']).to_string())
                .collect();
            vocabulary
                .plain_words()
                .filter(|word| {
                    word.len() >= 3
                        && word.bytes().all(|b| b.is_ascii_lowercase())
                        && !CARRIER.contains(word)
                        && !FUNCTION_WORDS.contains(word)
                        && !placeholder_words.iter().any(|p| p == word)
                })
                .collect()
        })
    }

    /// The listed names that may be drawn, lowercased.
    fn names(vocabulary: &'static Vocabulary) -> &'static [String] {
        static NAMES: std::sync::OnceLock<Vec<String>> = std::sync::OnceLock::new();
        NAMES.get_or_init(|| {
            vocabulary
                .names()
                .map(str::to_ascii_lowercase)
                // A lowercase function word ends a spaced path by design
                // (`./a b for reading`): such names (`During`) are drawn
                // by no class here.
                .filter(|name| {
                    vocabulary.contains(name)
                        && !CARRIER.contains(&name.as_str())
                        && !FUNCTION_WORDS.contains(&name.as_str())
                })
                .collect()
        })
    }

    fn capitalize(word: &str) -> String {
        let mut out = word.to_string();
        if let Some(first) = out.get_mut(..1) {
            first.make_ascii_uppercase();
        }
        out
    }

    /// A word of the vocabulary, or a listed name, in a random case style.
    fn word(u: &mut Unstructured<'_>, vocabulary: &'static Vocabulary) -> Result<String> {
        let base = if u.ratio(1, 4)? {
            u.choose(names(vocabulary))?.clone()
        } else {
            u.choose(secret_words(vocabulary))?.to_string()
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
        vocabulary: &'static Vocabulary,
        joint: char,
        parts: std::ops::RangeInclusive<usize>,
    ) -> Result<String> {
        let count = u.int_in_range(parts)?;
        let mut out = Vec::with_capacity(count);
        for _ in 0..count {
            out.push(u.choose(secret_words(vocabulary))?.to_string());
        }
        let joined = out.join(&joint.to_string());
        Ok(if vocabulary.contains(&joined) {
            format!("{joined}{joint}{}", u.choose(secret_words(vocabulary))?)
        } else {
            joined
        })
    }

    /// A spaced path: a start, then folders of one to three words each.
    fn spaced_path(
        u: &mut Unstructured<'_>,
        vocabulary: &'static Vocabulary,
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
                let word = word(u, vocabulary)?;
                path.push_str(&word);
                secrets.push(word);
            }
        }
        Ok(path)
    }

    /// One message with a planted secret of any class.
    pub fn planted(u: &mut Unstructured<'_>, vocabulary: &'static Vocabulary) -> Result<Planted> {
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
                    let word = capitalize(&word(u, vocabulary)?.to_ascii_lowercase());
                    name.push(word);
                }
                // A listed pair is wording (`Not Found`), not a name.
                let listed = name
                    .windows(2)
                    .all(|pair| vocabulary.contains_pair(&pair[0], &pair[1]));
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
                let name = capitalize(u.choose(names(vocabulary))?);
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
                let value = u.choose(secret_words(vocabulary))?.to_string();
                let participle =
                    value.len() >= 5 && (value.ends_with("ed") || value.ends_with("ing"));
                let last = noun.rsplit(' ').next().unwrap_or(noun);
                // After a phrase, a value noun names what the value is
                // (`connect to user ‹text›`): it is wording by the rule, not
                // the value, so it is never planted there.
                let names_kind = phrase && VALUE_NOUNS.contains(&value.as_str());
                if participle
                    || names_kind
                    || vocabulary.contains_pair(last, &value)
                    || noun == value
                {
                    return Err(arbitrary::Error::IncorrectFormat);
                }
                let value = match u.int_in_range(0..=3)? {
                    0 => capitalize(&value),
                    1 => format!("{value}-{}", u.choose(secret_words(vocabulary))?),
                    _ => value,
                };
                secrets.extend(value.split('-').map(str::to_string));
                let opening = *u.choose(&["", "error: ", "fatal: the ", "sync failed for the "])?;
                format!("{opening}{noun} {value}{ending}")
            }
            SecretClass::Compound => {
                let compound = joined(u, vocabulary, '-', 2..=4)?;
                secrets.extend(compound.split('-').map(str::to_string));
                format!("{} {compound}{ending}", u.choose(SENTENCE_OPENINGS)?)
            }
            SecretClass::SlashJoin => {
                let join = joined(u, vocabulary, '/', 2..=3)?;
                secrets.extend(join.split('/').map(str::to_string));
                format!("fatal: could not open {join}{ending}")
            }
            SecretClass::SpacedPath => {
                let path = spaced_path(u, vocabulary, &mut secrets)?;
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
                let path = spaced_path(u, vocabulary, &mut secrets)?;
                let start = u.int_in_range(360..=398)?;
                let mut filler = String::from("error:");
                while filler.len() < start {
                    filler.push(' ');
                    filler.push_str(u.choose(CARRIER)?);
                }
                format!("{filler} {path} failed")
            }
            SecretClass::PaddedQuote => {
                let (open, close) =
                    *u.choose(&[("'", "'"), ("\"", "\""), ("‘", "’"), ("`", "`")])?;
                let joint = *u.choose(&[' ', '-'])?;
                let inner = joined(u, vocabulary, joint, 1..=3)?;
                secrets.extend(inner.split([' ', '-']).map(str::to_string));
                let (left, right) = (*u.choose(&[" ", "  ", ""])?, *u.choose(&[" ", "  ", ""])?);
                format!("rejected token {open}{left}{inner}{right}{close} for the file")
            }
            SecretClass::BrokenAnsi => {
                let junk = *u.choose(&[" ", "!", " !", "\"", "", "  "])?;
                let quote = *u.choose(&["\"", "'", "`"])?;
                let glue = *u.choose(&["", "X", "x", "m"])?;
                let inner = joined(u, vocabulary, '-', 1..=3)?;
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
                let name = format!("ctx_{}", joined(u, vocabulary, '_', 2..=4)?);
                secrets.push(name.clone());
                format!("unknown tool {name}{ending}")
            }
        };
        Ok(Planted {
            class,
            message,
            secrets,
        })
    }
}

/// The planted secrets of `planted` that show in `template`, read without
/// the scrubber: placeholders are blanked, then a word secret leaks when it
/// is a run of letters of the template (ignoring case), and a secret of
/// marks or a `ctx_` name when it is a piece of the template's text.
fn planted_leaks(planted: &planted::Planted, template: &str) -> Vec<String> {
    let mut blanked = template.to_string();
    for placeholder in PLACEHOLDERS {
        blanked = blanked.replace(placeholder, " ");
    }
    let runs: Vec<String> = blanked
        .split(|c: char| !c.is_ascii_alphabetic())
        .filter(|run| !run.is_empty())
        .map(str::to_ascii_lowercase)
        .collect();
    planted
        .secrets
        .iter()
        .filter(|secret| {
            if secret.bytes().all(|b| b.is_ascii_alphabetic()) {
                runs.contains(&secret.to_ascii_lowercase())
            } else {
                blanked.contains(secret.as_str())
            }
        })
        .cloned()
        .collect()
}

/// Bytes for `arbitrary`, as the fuzz target gets them.
fn planted_case() -> impl Strategy<Value = planted::Planted> {
    prop::collection::vec(any::<u8>(), 16..1024).prop_filter_map(
        "the bytes build a planted message",
        |bytes| {
            planted::planted(
                &mut arbitrary::Unstructured::new(&bytes),
                Vocabulary::builtin(),
            )
            .ok()
        },
    )
}

proptest! {
    #![proptest_config(config())]

    /// No secret spelt in the vocabulary's own words survives (issue: "no
    /// name or secret survives, even one spelled in vocabulary words"): two
    /// or three capitalised words or one listed name inside a sentence, a
    /// word after a noun that names a value, hyphen compounds, slash-joins,
    /// spaced paths and paths the 400-char window cuts, quotes padded with
    /// spaces, a quote behind a malformed colour code, a run of marks and a
    /// `ctx_` name of several words; each made of vocabulary words, which
    /// the vocabulary alone would keep. The template, when there is one,
    /// also keeps the contract.
    #[test]
    fn no_vocabulary_spelt_secret_survives(planted in planted_case()) {
        let template = builtin().template(&planted.message);
        if let Some(template) = &template {
            let leaks = planted_leaks(&planted, template);
            prop_assert!(
                leaks.is_empty(),
                "{:?} secret leaked: {:?}\ninput:    {:?}\ntemplate: {:?}",
                planted.class,
                leaks,
                planted.message,
                template
            );
            let verdict = check_contract(template, builtin());
            prop_assert!(verdict.is_ok(), "{verdict:?}: {template:?}");
        }
    }
}

#[test]
fn the_planted_reader_sees_what_it_is_shown() {
    // The leak reader itself: a kept secret word is a leak whatever its
    // case, a placeholder's letters are not, and marks count as text.
    let case = planted::Planted {
        class: planted::SecretClass::Name,
        message: String::new(),
        secrets: vec!["Power".into(), "text".into(), "(-.-)".into()],
    };
    assert_eq!(planted_leaks(&case, "sync for power ‹text›"), ["Power"]);
    assert!(planted_leaks(&case, "sync for ‹text› on").is_empty());
    assert_eq!(planted_leaks(&case, "sync (-.-) on"), ["(-.-)"]);
}
