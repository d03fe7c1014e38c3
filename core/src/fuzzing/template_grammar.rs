//! Tool error messages built from typed fragments, for the
//! `template_structured` target: the kinds of text a failure template must
//! hide (paths, URLs, e-mail addresses, quoted spans, numbers, identifiers,
//! placeholder-shaped input) between vocabulary words, glued by the
//! separators and line breaks real messages use.

use arbitrary::{Result, Unstructured};

use crate::template::{KNOWN_IDENTIFIERS, PLACEHOLDERS, Vocabulary};

const PATHS: &[&str] = &[
    "/Users/anna/My Docs/x.txt",
    "/etc/passwd",
    "~/.ssh/id_rsa",
    "./src/main.rs",
    "../a/b",
    "C:\\Users\\Anna Meier\\Desktop\\tax 2024.pdf",
    "\\\\server\\share\\q.xlsx",
    "src/lib.rs:12:5",
    ".env",
    "New folder (2)\\x.txt",
    "/tmp/a b/c d.md",
    "main.rs",
    "/",
];

const URLS: &[&str] = &[
    "https://example.com/a?b=1",
    "http://10.0.0.1:8080/x",
    "www.example.org",
    "mailto:anna@example.com",
    "file:///etc/hosts",
    "javascript:alert(1)",
    "ftp://u:pw@host/f",
    "data:text/plain,hi",
];

const EMAILS: &[&str] = &[
    "anna@example.com",
    "a.b+c@d.co",
    "root@localhost",
    "x@y",
    "Anna.Meier@Firma.DE",
];

const NUMBERS: &[&str] = &[
    "42",
    "4111111111111111",
    "0x7f000001",
    "-1",
    "3.14",
    "1e9",
    "2026-11-29",
    "v1.2.3",
    "12:30",
    "0",
];

const IDENTIFIERS: &[&str] = &[
    "snake_case_name",
    "camelCaseName",
    "std::io::Error",
    "API_KEY=sk-live-123",
    "$HOME",
    "#channel",
    "100%",
    "a+b",
    "ctx_read",
    "ctx_payroll_anna",
    "ThisIsAVeryLongIdentifierIndeed",
];

/// Input shaped like a placeholder, or like half of one.
const PLACEHOLDER_LIKE: &[&str] = &[
    "‹anna›",
    "‹4111111111111111›",
    "‹pa",
    "th›",
    "‹›",
    "‹‹n››",
    "‹str",
    "…",
    "‹n›…",
];

const QUOTES: &[(&str, &str)] = &[
    ("'", "'"),
    ("\"", "\""),
    ("`", "`"),
    ("“", "”"),
    ("„", "“"),
    ("‘", "’"),
    ("«", "»"),
    ("「", "」"),
    ("『", "』"),
    ("'", ""),
    ("\"", ""),
];

const QUOTED_TEXT: &[&str] = &[
    "Anna Meier",
    "it's here",
    "secret value",
    "x",
    "",
    "can't open",
    "a 'nested' one",
    "4111 1111",
];

const CONTRACTIONS: &[&str] = &["can't", "don't", "file's", "it's", "won't", "isn't"];

const SEPARATORS: &[&str] = &[
    " ", " ", " ", "  ", "\t", ": ", ", ", " - ", " — ", "; ", " (", ") ",
];

const LINE_BREAKS: &[&str] = &[
    "\n", "\r\n", "\r", "\u{2028}", "\u{2029}", "\u{85}", "\u{b}", "\u{c}", "\n\n",
];

const ODD: &[&str] = &[
    "\u{1b}[31m",
    "\u{1b}[0m",
    "\u{200b}",
    "\u{feff}",
    "日本語",
    "Привет",
    "👍🏽",
    "ｆｕｌｌ",
    "=",
    "|",
    "&&",
    "->",
    "...",
    "(/)",
];

/// A vocabulary word, in its case or capitalized, possessive or hyphenated
/// with another at times.
fn word(u: &mut Unstructured<'_>, words: &[&'static str]) -> Result<String> {
    let mut out = u.choose(words)?.to_string();
    match u.int_in_range(0..=5)? {
        0 => {
            if let Some(first) = out.get(..1) {
                out = first.to_ascii_uppercase() + &out[1..];
            }
        }
        1 => out.push_str("'s"),
        2 => {
            out.push('-');
            out.push_str(u.choose(words)?);
        }
        3 => out.push_str(u.choose(&[":", ",", ".", "!", "?", "…"])?),
        _ => {}
    }
    Ok(out)
}

/// The vocabulary's words, borrowed from the built-in list once.
fn vocabulary_words() -> &'static [&'static str] {
    static WORDS: std::sync::OnceLock<Vec<&'static str>> = std::sync::OnceLock::new();
    WORDS.get_or_init(|| Vocabulary::builtin().words().collect())
}

/// One fragment of a message.
fn fragment(u: &mut Unstructured<'_>) -> Result<String> {
    let words = vocabulary_words();
    Ok(match u.int_in_range(0..=15)? {
        0..=5 => word(u, words)?,
        6 => u.choose(PATHS)?.to_string(),
        7 => u.choose(URLS)?.to_string(),
        8 => u.choose(EMAILS)?.to_string(),
        9 => {
            let (open, close) = *u.choose(QUOTES)?;
            format!("{open}{}{close}", u.choose(QUOTED_TEXT)?)
        }
        10 => u.choose(NUMBERS)?.to_string(),
        11 => {
            if u.arbitrary()? {
                u.choose(KNOWN_IDENTIFIERS)?.to_string()
            } else {
                u.choose(IDENTIFIERS)?.to_string()
            }
        }
        12 => {
            if u.arbitrary()? {
                u.choose(&PLACEHOLDERS)?.to_string()
            } else {
                u.choose(PLACEHOLDER_LIKE)?.to_string()
            }
        }
        13 => u.choose(CONTRACTIONS)?.to_string(),
        14 => u.choose(ODD)?.to_string(),
        // A long run: a quote, token or word list near the 400-char window.
        _ => {
            let unit = u.choose(&["a", "word ", "'x ", "/p", "9"])?;
            unit.repeat(u.int_in_range(50..=500)?)
        }
    })
}

/// A message: fragments joined by separators, at times a line break
/// (blank lines before the first one that shows anything).
pub fn message(u: &mut Unstructured<'_>) -> Result<String> {
    let mut out = String::new();
    if u.ratio(1, 8)? {
        out.push_str(u.choose(&["", " ", "\n", "\u{1b}[0m\n", "\u{200b}\n", "\t\r\n"])?);
    }
    let count = u.int_in_range(1..=24)?;
    for i in 0..count {
        if i > 0 {
            if u.ratio(1, 12)? {
                out.push_str(u.choose(LINE_BREAKS)?);
            } else {
                out.push_str(u.choose(SEPARATORS)?);
            }
        }
        out.push_str(&fragment(u)?);
    }
    Ok(out)
}
