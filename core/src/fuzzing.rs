//! Fuzz harness bodies, one function per fuzz target.
//!
//! Each takes the raw bytes libFuzzer hands over and panics only when a
//! guarantee of its boundary is broken. The targets in `fuzz/` call these
//! functions and nothing else; `tests/corpus_replay.rs` feeds them every
//! committed file under `corpus/`, so the corpus is a regression suite on
//! stable Rust too.

use std::collections::BTreeMap;

use arbitrary::Unstructured;

pub mod differential;
mod fetch_mock;
mod html_grammar;
mod template_grammar;

pub use html_grammar::SEED_MARKERS;

use crate::chat::{self, ChatError, Context, Message, NONCE_KEY, Role};
use crate::template::{Scrubber, check_contract};
use crate::web::envelope as web_envelope;
use crate::web::strip::{self as web_strip, STRIPPED, rules::PLANTED_MARKER};

/// A harness: takes the fuzzer's bytes, panics on a broken guarantee.
pub type Harness = fn(&[u8]);

/// Every fuzz target by name; the name is also its folder under `corpus/`.
pub const TARGETS: &[(&str, Harness)] = &[
    ("template", template),
    ("chat_parse", chat_parse),
    ("chat_strict", chat_strict),
    ("strip", strip),
    ("envelope", envelope),
    ("template_structured", template_structured),
    ("strip_html", strip_html),
    ("fetch_mock", fetch_mock),
    ("chat_roundtrip", chat_roundtrip),
];

/// The harness of the target called `name`: a target of `fuzz/`, or a
/// differential one of `fuzz-upstream/` (run against agentfence itself).
pub fn harness(name: &str) -> Option<Harness> {
    TARGETS
        .iter()
        .chain(differential::TARGETS)
        .find(|(target, _)| *target == name)
        .map(|(_, harness)| *harness)
}

/// The crate's own scrubber, built once for every run of a harness.
fn scrubber() -> &'static Scrubber {
    static SCRUBBER: std::sync::LazyLock<Scrubber> = std::sync::LazyLock::new(Scrubber::new);
    &SCRUBBER
}

/// Failure templates: any bytes (read as UTF-8, lossily) give a template
/// that keeps the whole contract, or none.
pub fn template(data: &[u8]) {
    let message = String::from_utf8_lossy(data);
    let scrubber = scrubber();
    let report = scrubber.report(&message);
    if let Some(template) = &report.template
        && let Err(violation) = check_contract(template, scrubber)
    {
        panic!("template {template:?} of {message:?} breaks the contract: {violation}");
    }
}

/// The kinds `chat::parse` may return.
const PARSE_KINDS: [&str; 3] = ["nonce_mismatch", "duplicate_nonce", "marker_count_mismatch"];

/// Whether the non-strict parser reads `raw` (one line of a text, a `\r`
/// before its `\n` included; `last` when no `\n` follows it) as a marker.
fn is_marker_line(raw: &str, last: bool) -> bool {
    let probe = format!("x\n{raw}{}", if last { "" } else { "\n" });
    chat::parse(&probe, None).is_ok_and(|messages| messages.len() == 2)
}

/// Chat parsing on raw bytes: `[count][nonce…] 0x00 [text…]`, read as
/// UTF-8 lossily; without a `0x00` all bytes are the text, the nonce is
/// `n1` and the count 0.
///
/// - the non-strict parse never fails, trims the newlines at the edges of
///   every content and never puts a `nonce` key in the metadata;
/// - the strict parse (any nonce, any marker count) returns one of its
///   documented error kinds, or the very messages of the non-strict parse;
/// - pre-rendering the text itself as a template fails only with
///   `invalid_nonce` or `reserved_attribute`; the strict parse of the
///   result either gives the non-strict messages of the text, or refuses
///   with `nonce_mismatch` a line that the non-strict parser did not read
///   as a marker (an author's marker is never refused).
pub fn chat_parse(data: &[u8]) {
    let (head, body) = match data.iter().position(|&b| b == 0) {
        Some(at) => (&data[..at], &data[at + 1..]),
        None => (&[][..], data),
    };
    let text = String::from_utf8_lossy(body);
    let (markers, nonce) = match head.split_first() {
        Some((&count, nonce)) => (
            usize::from(count % 16),
            String::from_utf8_lossy(nonce).into_owned(),
        ),
        None => (0, "n1".to_string()),
    };

    let plain = chat::parse(&text, None)
        .unwrap_or_else(|error| panic!("non-strict parse of {text:?} failed: {error}"));
    for message in &plain {
        assert!(
            !message.content.starts_with('\n') && !message.content.ends_with('\n'),
            "untrimmed content {message:?} of {text:?}"
        );
        assert!(
            !message.metadata.contains_key(NONCE_KEY),
            "nonce in the metadata {message:?} of {text:?}"
        );
    }

    let context = Context { nonce, markers };
    let strict = chat::parse(&text, Some(&context));
    match &strict {
        Ok(strict) => assert_eq!(
            strict, &plain,
            "strict and non-strict differ on {text:?} ({context:?})"
        ),
        Err(error) => assert!(
            PARSE_KINDS.contains(&error.kind()),
            "undocumented kind {error:?} for {text:?}"
        ),
    }

    match chat::pre_render_with_nonce(&text, &context.nonce) {
        Err(error) => assert!(
            matches!(error.kind(), "invalid_nonce" | "reserved_attribute"),
            "pre-render of {text:?} failed with {error:?}"
        ),
        // A text without markers pre-renders to itself: when the context
        // is the same too, the strict parse above was this very call.
        Ok((prepared, prepared_context)) => {
            match if prepared == *text && prepared_context == context {
                strict
            } else {
                chat::parse(&prepared, Some(&prepared_context))
            } {
                Ok(strict) => assert_eq!(
                    strict, plain,
                    "strict parse of the pre-rendered {text:?} differs from the non-strict one"
                ),
                Err(ChatError::NonceMismatch { line }) => {
                    let body = text.strip_prefix('\u{feff}').unwrap_or(&text);
                    let mut lines = body.split('\n');
                    let raw = lines.nth(line - 1).unwrap_or_else(|| {
                        panic!("nonce_mismatch at line {line} of {text:?}, which has no such line")
                    });
                    assert!(
                        !is_marker_line(raw, lines.next().is_none()),
                        "the author's own marker {raw:?} (line {line} of {text:?}) was refused"
                    );
                }
                Err(error) => panic!("strict parse of the pre-rendered {text:?} failed: {error:?}"),
            }
        }
    }
}

/// Chat strict mode on a structured case: a template of author markers (in
/// every spelling the grammar allows) and content lines with placeholders,
/// clean values, a nonce (coercion traps, hex as `generate_nonce` draws
/// it, digits, `…e…`, any valid one), and at times one value carrying a forged role-marker line (any
/// case, blanks, `#`, attribute blocks with wrong or duplicate nonces,
/// look-alike letters and colons, invisible characters, Unicode blanks,
/// behind any line break).
///
/// - a forged line always fails the strict flow: `duplicate_nonce` when it
///   is a marker of the grammar on a line of its own with two or more
///   `nonce` attributes, `nonce_mismatch` otherwise;
/// - a clean case always succeeds, with the messages a non-strict parse of
///   the plainly rendered template gives, and with the author's roles and
///   metadata (as a non-strict parse of the template's markers reads them).
pub fn chat_strict(data: &[u8]) {
    let mut u = Unstructured::new(data);
    let Ok(case) = chat_cases::StrictCase::build(&mut u) else {
        return;
    };
    case.check();
}

/// The fragments chat cases are built from, shared by the `chat_strict`
/// harness and the chat property tests so that both explore one grammar.
pub mod chat_grammar {
    /// Blanks the marker grammar allows (`WS := space | tab`).
    pub const GRAMMAR_BLANKS: &[&str] = &["", " ", "\t", "  ", " \t"];

    /// `#` as the grammar allows it: at most one.
    pub const GRAMMAR_HASHES: &[&str] = &["", "#", "# ", "#\t"];

    /// Author attribute keys: anything but the reserved `nonce`; the other
    /// spellings of it are ordinary metadata.
    pub const KEYS: &[&str] = &[
        "name", "id", "lang", "x", "_", "A1", "NONCE", "Nonce", "nonce_", "nonce2", "n0nce",
    ];

    /// Quoted attribute values: commas, brackets, colons, blanks, Unicode and
    /// line separators are all allowed between the quotes.
    pub const QUOTED_VALUES: &[&str] = &[
        "Alice",
        "A, B",
        "a]b",
        "x: y",
        "]:",
        "日本語",
        "",
        " padded ",
        "a\u{2028}b",
        "0123",
        "1e5",
        "true",
        "inf",
        "0123456789012345",
        "user:",
        "[nonce=x]",
    ];

    /// Unquoted attribute values (trimmed by the parser; no `"`, `,` or `]`).
    pub const UNQUOTED_VALUES: &[&str] = &[
        "Bob", "7", "-3", "1.5", "TRUE", "x y", "", "inf", "a:b", "[", "ü",
    ];

    /// Words a clean line may start with: none of them reads as a role, even
    /// folded.
    pub const START_WORDS: &[&str] = &[
        "Note",
        "the",
        "Hello",
        "Please",
        "Answer",
        "Q",
        "x",
        "Rules",
        "日本語",
        "Привет",
        "مرحبا",
        "🙂",
        "naïve",
        "Ｎote",
        "key",
        "title",
        "nonce",
        "1.",
        "-",
        "*",
        ">",
        "`code`",
        "http://x:8080",
        "users",
        "username",
        "systemic",
        "Assistants",
        "ſome",
        "0123456789012345",
        "1234e56789012345",
        "[nonce=\"abc\"]",
        "said",
        "e\u{301}t\u{e9}",
    ];

    /// Words that may follow anywhere in a clean line.
    pub const TAIL_WORDS: &[&str] = &[
        "user",
        "system:",
        "ASSISTANT",
        "said:",
        ":",
        "::",
        "the",
        "[",
        "]",
        "=",
        "\"",
        ",",
        "nonce=\"x\"",
        "[nonce=\"0123456789012345\"]:",
        "0123456789012345",
        "1234e56789012345",
        "👍🏽",
        "\u{200f}עברית",
        "ſ",
        "ｆｕｌｌ",
        "a\u{200d}b",
        "\u{a0}",
        "#",
        "##",
        "user: hello",
        "k=v",
        "ѕ",
    ];

    pub const TAIL_SEPARATORS: &[&str] = &[" ", "", ", ", "\t", " — "];
    pub const LINE_ENDS: &[&str] = &["", ":", " :", ".", "?", "：", "∶"];

    /// Visible words that may follow `role:` in a clean `user: hello` line.
    pub const SPOKEN: &[&str] = &[
        "hello",
        "hi there",
        "do X",
        "日本語",
        "🙂",
        "42",
        "ok:",
        "[x]:",
    ];

    /// Braces in values stay text (values are never re-read).
    pub const BRACE_WORDS: &[&str] = &["{{a}}", "{{ b }}", "}}", "{{", "{{nonce}}"];

    /// Template text around placeholders: starts with a word that is no role.
    pub const TEMPLATE_TEXTS: &[&str] = &[
        "Question: ",
        "Answer:",
        "Context (untrusted): ",
        "Q ",
        " and ",
        "Note: ",
        "«",
        "日本語: ",
        " (end)",
        "?",
    ];

    /// The variables of generated templates.
    pub const VARS: &[&str] = &["a", "b", "q.x", "_v"];

    /// The variable that carries the forged marker.
    pub const EVIL: &str = "evil";

    /// Line breaks inside values, `\n` and its neighbours included.
    pub const VALUE_BREAKS: &[&str] = &[
        "\n", "\r\n", "\n\n", "\u{2028}", "\u{2029}", "\r", "\u{85}", "\u{b}", "\u{c}",
    ];

    /// Line breaks other than `\n`: a marker behind one of them is on the same
    /// line for this parser, on a new one for some reader.
    pub const OTHER_BREAKS: &[&str] = &[
        "\r", "\u{2028}", "\u{2029}", "\u{85}", "\u{b}", "\u{c}", "\u{1c}", "\u{1d}", "\u{1e}",
    ];

    /// `word` in a random ASCII case, one bit of `mask` per letter.
    pub fn ascii_case(word: &str, mask: u32) -> String {
        word.chars()
            .enumerate()
            .map(|(i, c)| {
                if mask >> (i % 32) & 1 == 1 {
                    c.to_ascii_uppercase()
                } else {
                    c
                }
            })
            .collect()
    }

    pub fn map_letters(word: &str, lower: u32, upper: u32) -> String {
        word.chars()
            .map(|c| {
                let base = if c.is_ascii_lowercase() { lower } else { upper };
                char::from_u32(base + u32::from(c.to_ascii_lowercase()) - u32::from('a'))
                    .unwrap_or(c)
            })
            .collect()
    }

    /// `word` with one zero-width or invisible character inside it.
    pub fn with_invisible_inside(word: &str, at: usize, invisible: &str) -> String {
        let at = 1 + at % (word.len() - 1);
        format!("{}{invisible}{}", &word[..at], &word[at..])
    }

    pub const INVISIBLES: &[&str] = &[
        "\u{200b}",
        "\u{200c}",
        "\u{200d}",
        "\u{2060}",
        "\u{feff}",
        "\u{ad}",
        "\u{180e}",
        "\u{e0020}",
    ];
}

/// The chat cases built from [`chat_grammar`] with `arbitrary`: strict-mode
/// cases (`chat_strict`) and written-out messages (`chat_roundtrip`). The
/// chat property tests draw their cases from the same functions (through
/// bytes proptest generates), so the fuzz targets and the properties
/// explore one model.
pub mod chat_cases {
    use super::chat_grammar::*;
    use super::*;

    type Result<T> = arbitrary::Result<T>;

    const SPELLINGS: &[&str] = &["{{N}}", "{{ N }}", "{{\tN}}"];
    const NONCES: &[&str] = &[
        "0123456789012345",
        "1234e56789012345",
        "0000000000000000",
        "1e999",
        "9223372036854775808",
        "inf",
        "true",
        "00",
        "-1",
        "n1",
    ];

    fn pick<'a>(u: &mut Unstructured<'_>, items: &[&'a str]) -> Result<&'a str> {
        u.choose(items).copied()
    }

    pub fn spelled_role(u: &mut Unstructured<'_>) -> Result<(Role, String)> {
        let role = *u.choose(&Role::ALL)?;
        Ok((role, ascii_case(role.as_str(), u.arbitrary()?)))
    }

    /// A role name some reader takes for the role, outside the grammar.
    pub fn look_alike_role(u: &mut Unstructured<'_>) -> Result<String> {
        let (role, word) = spelled_role(u)?;
        let plain = role.as_str();
        Ok(match u.int_in_range(0..=7)? {
            0 => word.replace(['s', 'S'], "ſ"),
            1 => word.replacen(['s', 'S'], "ſ", 1),
            2 => map_letters(&word, 0xFF41, 0xFF21),
            3 => map_letters(&word, 0x1D41A, 0x1D400),
            4 => {
                let at = 1 + usize::from(u.arbitrary::<u8>()?) % (word.len() - 1);
                format!("{}{}{}", &word[..at], pick(u, INVISIBLES)?, &word[at..])
            }
            5 => format!("\u{feff}{word}"),
            6 => plain.replace('e', "е").replace('s', "ѕ").replace('a', "а"),
            _ => plain.replace('t', "τ").replace('u', "υ").replace('i', "ı"),
        })
    }

    fn block(attrs: &[String], u: &mut Unstructured<'_>) -> Result<String> {
        let inner = pick(u, GRAMMAR_BLANKS)?;
        let around = pick(u, GRAMMAR_BLANKS)?;
        let mut out = format!("[{around}{}", attrs.join(&format!("{inner},{inner}")));
        if !attrs.is_empty() && u.arbitrary()? {
            out.push_str(inner);
            out.push(',');
        }
        out.push_str(around);
        out.push(']');
        Ok(out)
    }

    /// `key=value` with any spacing, quoted or not.
    fn author_attr(u: &mut Unstructured<'_>) -> Result<String> {
        let key = pick(u, KEYS)?;
        let (l, r) = (pick(u, GRAMMAR_BLANKS)?, pick(u, GRAMMAR_BLANKS)?);
        let value = if u.arbitrary()? {
            format!("\"{}\"", pick(u, QUOTED_VALUES)?)
        } else {
            format!(
                "{}{}{}",
                pick(u, GRAMMAR_BLANKS)?,
                pick(u, UNQUOTED_VALUES)?,
                pick(u, GRAMMAR_BLANKS)?
            )
        };
        Ok(format!("{key}{l}={r}{value}"))
    }

    pub fn author_marker(u: &mut Unstructured<'_>) -> Result<(String, Role)> {
        let lead = pick(u, GRAMMAR_BLANKS)?;
        let hash = pick(u, GRAMMAR_HASHES)?;
        let (role, name) = spelled_role(u)?;
        let block = if u.arbitrary()? {
            let count = u.int_in_range(0..=3)?;
            let attrs = (0..count)
                .map(|_| author_attr(u))
                .collect::<Result<Vec<_>>>()?;
            block(&attrs, u)?
        } else {
            String::new()
        };
        let (before, after) = (pick(u, GRAMMAR_BLANKS)?, pick(u, GRAMMAR_BLANKS)?);
        Ok((format!("{lead}{hash}{name}{block}{before}:{after}"), role))
    }

    /// One line, no line break, that no reader takes for a marker.
    pub fn clean_line(u: &mut Unstructured<'_>) -> Result<String> {
        Ok(match u.int_in_range(0..=4)? {
            0 => {
                let mut line = format!("{}{}", pick(u, &["", " ", "# "])?, pick(u, START_WORDS)?);
                for _ in 0..u.int_in_range(0..=4)? {
                    line.push_str(pick(u, &[" ", "", ", ", "\t"])?);
                    line.push_str(pick(u, TAIL_WORDS)?);
                }
                line.push_str(pick(u, LINE_ENDS)?);
                line
            }
            1 => {
                let name = if u.arbitrary()? {
                    spelled_role(u)?.1
                } else {
                    look_alike_role(u)?
                };
                format!("{name}{}: {}", pick(u, &["", " "])?, pick(u, SPOKEN)?)
            }
            2 => pick(u, &["", " ", "\t", "\u{a0}"])?.to_string(),
            3 => format!("{}: {}", pick(u, KEYS)?, pick(u, SPOKEN)?),
            _ => {
                // Free text after a word that is no role: no break of any
                // kind (a new segment could start with a role) and no
                // braces (a template would read a placeholder).
                let free: &str = u.arbitrary()?;
                let free: String = free
                    .chars()
                    .filter(|c| {
                        !matches!(
                            c,
                            '\n' | '\r' | '\u{b}' | '\u{c}' | '\u{1c}'
                                ..='\u{1e}' | '\u{85}' | '\u{2028}' | '\u{2029}' | '{' | '}'
                        )
                    })
                    .take(24)
                    .collect();
                format!("{} {free}", pick(u, START_WORDS)?)
            }
        })
    }

    pub fn clean_value(u: &mut Unstructured<'_>) -> Result<String> {
        let mut value = pick(u, &["", "", "\n", "\r\n"])?.to_string();
        let count = u.int_in_range(1..=4)?;
        for i in 0..count {
            if u.ratio(1, 6)? {
                value.push_str(pick(u, BRACE_WORDS)?);
                value.push(' ');
            }
            value.push_str(&clean_line(u)?);
            if i + 1 < count {
                value.push_str(pick(u, VALUE_BREAKS)?);
            }
        }
        value.push_str(pick(u, &["", "", "\n", "\r\n"])?);
        Ok(value)
    }

    pub fn nonce(u: &mut Unstructured<'_>) -> Result<String> {
        Ok(match u.int_in_range(0..=5)? {
            0 => pick(u, NONCES)?.to_string(),
            1 => format!("{:016x}", u.arbitrary::<u64>()?),
            2 => format!("{:016}", u.arbitrary::<u64>()? % 10_000_000_000_000_000),
            3 => format!(
                "{}e{}",
                u.int_in_range(0..=99_999_999u32)?,
                u.int_in_range(0..=99_999_999u32)?
            ),
            4 => format!(
                "{:07x}e{:08x}",
                u.int_in_range(0..=0xfff_ffffu32)?,
                u.arbitrary::<u32>()?
            ),
            _ => {
                const ALPHABET: &[u8] = b"0123456789abcdefABCDEFxyzXYZ-_eE";
                let len = u.int_in_range(1..=64)?;
                (0..len)
                    .map(|_| u.choose(ALPHABET).map(|&b| char::from(b)))
                    .collect::<Result<String>>()?
            }
        })
    }

    /// A forged line: its text, whether every part is in the grammar, and
    /// how many exact `nonce` attributes it has.
    #[derive(Debug, Clone)]
    pub struct Forged {
        pub text: String,
        pub grammar: bool,
        pub nonces: usize,
    }

    fn part(u: &mut Unstructured<'_>, grammar: &[&str], other: &[&str]) -> Result<(String, bool)> {
        Ok(if u.ratio(3, 4)? {
            (pick(u, grammar)?.to_string(), true)
        } else {
            (pick(u, other)?.to_string(), false)
        })
    }

    /// A nonce attribute value that is not `nonce` as the parser reads it.
    fn wrong_nonce(u: &mut Unstructured<'_>, nonce: &str) -> Result<String> {
        let value = match u.int_in_range(0..=5)? {
            0 => nonce.to_ascii_uppercase(),
            // Written quoted only (see `forged`): unquoted, the blank
            // would be trimmed and the value be the nonce.
            5 => format!(" {nonce}"),
            1 => format!("0{nonce}"),
            2 => nonce[..nonce.len() - 1].to_string(),
            3 => format!("{:016x}", u.arbitrary::<u64>()?),
            _ => pick(
                u,
                &["0123456789012345", "1234e56789012345", "1.234e59", "", "n1"],
            )?
            .to_string(),
        };
        Ok(if value == nonce {
            format!("{nonce}x")
        } else {
            value
        })
    }

    pub fn forged(u: &mut Unstructured<'_>, nonce: &str) -> Result<Forged> {
        let lead = part(
            u,
            GRAMMAR_BLANKS,
            &[
                "\u{a0}",
                "\u{3000}",
                "\u{2003}",
                "\u{feff}",
                "\u{200b}",
                "\u{feff} ",
            ],
        )?;
        let hash = part(u, GRAMMAR_HASHES, &["##", "# #", "＃", "#\u{200b}", "### "])?;
        let role = if u.ratio(3, 5)? {
            (spelled_role(u)?.1, true)
        } else {
            (look_alike_role(u)?, false)
        };
        let (block, block_ok, nonces) = match u.int_in_range(0..=6)? {
            0 | 1 => (String::new(), true, 0),
            2..=5 => {
                let mut attrs = Vec::new();
                let mut nonces = 0;
                for _ in 0..u.int_in_range(0..=3)? {
                    match u.int_in_range(0..=3)? {
                        0 | 1 => {
                            let value = wrong_nonce(u, nonce)?;
                            let (l, r) = (pick(u, GRAMMAR_BLANKS)?, pick(u, GRAMMAR_BLANKS)?);
                            attrs.push(if value.starts_with(' ') || u.arbitrary()? {
                                format!("nonce{l}={r}\"{value}\"")
                            } else {
                                format!("nonce{l}={r}{value}")
                            });
                            nonces += 1;
                        }
                        2 => attrs.push(author_attr(u)?),
                        _ => attrs.push(format!(
                            "{}=\"{}\"",
                            pick(u, KEYS)?,
                            pick(u, &["a\u{2028}b", "x\ry", "\u{85}", "p\u{b}q"])?
                        )),
                    }
                }
                (block(&attrs, u)?, true, nonces)
            }
            _ => (
                pick(
                    u,
                    &[
                        "[a=b\"c]",
                        "[x]",
                        "[a b=c]",
                        "[=x]",
                        "[nonce=\"x\"][y=z]",
                        " [a=1]",
                        "[nonce]",
                        "\t[nonce=\"x\", nonce=\"y\"]",
                    ],
                )?
                .to_string(),
                false,
                0,
            ),
        };
        let before = part(
            u,
            GRAMMAR_BLANKS,
            &[
                "\u{a0}", "\u{3000}", "\u{200b}", "\u{2028}", "\u{85}", "\u{b}", "\u{c}", "\r",
            ],
        )?;
        let colon = part(u, &[":"], &["：", "﹕", "︓", "∶", "꞉"])?;
        let after = part(
            u,
            GRAMMAR_BLANKS,
            &["\u{a0}", "\u{200b}", "\u{3000}", "\u{2060}"],
        )?;
        Ok(Forged {
            text: format!(
                "{}{}{}{block}{}{}{}",
                lead.0, hash.0, role.0, before.0, colon.0, after.0
            ),
            grammar: lead.1 && hash.1 && role.1 && block_ok && before.1 && colon.1 && after.1,
            nonces,
        })
    }

    /// Whether the parser keeps `text` as the string it is (the documented
    /// coercion: booleans, integers, finite floats; anything else is text).
    pub fn stays_text(text: &str) -> bool {
        !text.eq_ignore_ascii_case("true")
            && !text.eq_ignore_ascii_case("false")
            && text.parse::<i64>().is_err()
            && text.parse::<f64>().map_or(true, |f| !f.is_finite())
    }

    /// A metadata value and a way of writing it that coerces back to it.
    fn meta_value(u: &mut Unstructured<'_>) -> Result<(serde_json::Value, String)> {
        use serde_json::Value;
        Ok(match u.int_in_range(0..=7)? {
            0..=2 => {
                let text = if u.arbitrary()? {
                    pick(u, QUOTED_VALUES)?.to_string()
                } else {
                    pick(u, UNQUOTED_VALUES)?.to_string()
                };
                let text = if stays_text(&text) {
                    text
                } else {
                    format!("{text}x")
                };
                let bare = u.arbitrary()?
                    && !text.is_empty()
                    && !text.contains(['"', ',', ']'])
                    && text.trim_matches([' ', '\t']) == text;
                let written = if bare {
                    text.clone()
                } else {
                    format!("\"{text}\"")
                };
                (Value::String(text), written)
            }
            6 => {
                // Free text: no quote, line feed or brace, kept as text.
                let free: &str = u.arbitrary()?;
                let text: String = free
                    .chars()
                    .filter(|c| !matches!(c, '"' | '\n' | '{' | '}'))
                    .take(12)
                    .collect();
                let text = if stays_text(&text) {
                    text
                } else {
                    format!("{text}x")
                };
                (Value::String(text.clone()), format!("\"{text}\""))
            }
            7 => {
                let f: f64 = u.arbitrary()?;
                let f = if f.is_finite() && f.fract() != 0.0 {
                    f
                } else {
                    0.25
                };
                (Value::from(f), f.to_string())
            }
            3 => {
                let i: i64 = u.arbitrary()?;
                let written = if u.arbitrary()? {
                    format!("\"{i}\"")
                } else {
                    i.to_string()
                };
                (Value::from(i), written)
            }
            4 => {
                let b: bool = u.arbitrary()?;
                let written = ascii_case(if b { "true" } else { "false" }, u.arbitrary()?);
                (Value::Bool(b), written)
            }
            _ => {
                let f = f64::from(u.arbitrary::<i32>()?) + 0.5;
                (Value::from(f), f.to_string())
            }
        })
    }

    /// Messages and one way of writing them out: each a marker line
    /// (any allowed spelling, author attributes written quoted or not,
    /// with `nonce="…"` among them when `nonce` is given) and content lines
    /// no reader takes for a marker, without blank lines at the edges.
    pub fn written_messages(
        u: &mut Unstructured<'_>,
        nonce: Option<&str>,
    ) -> Result<(Vec<Message<'static>>, String)> {
        let mut messages = Vec::new();
        let mut lines = Vec::new();
        for _ in 0..u.int_in_range(0..=5)? {
            let lead = pick(u, GRAMMAR_BLANKS)?;
            let hash = pick(u, GRAMMAR_HASHES)?;
            let (role, name) = spelled_role(u)?;
            let mut metadata = BTreeMap::new();
            let mut written = BTreeMap::new();
            for _ in 0..u.int_in_range(0..=3)? {
                let key = pick(u, KEYS)?;
                let (value, spelled) = meta_value(u)?;
                metadata.insert(key.to_string(), value);
                written.insert(key, spelled);
            }
            let mut attrs: Vec<String> = written.iter().map(|(k, w)| format!("{k}={w}")).collect();
            if let Some(nonce) = nonce {
                let at = u.int_in_range(0..=attrs.len())?;
                attrs.insert(at, format!("{NONCE_KEY}=\"{nonce}\""));
            }
            let block = if attrs.is_empty() && !u.arbitrary()? {
                String::new()
            } else {
                format!("[{}]", attrs.join(", "))
            };
            let before = pick(u, GRAMMAR_BLANKS)?;
            lines.push(format!("{lead}{hash}{name}{block}{before}:"));
            let mut content = Vec::new();
            for _ in 0..u.int_in_range(0..=4)? {
                content.push(clean_line(u)?);
            }
            while content.first().is_some_and(|l| l.is_empty()) {
                content.remove(0);
            }
            while content.last().is_some_and(|l| l.is_empty()) {
                content.pop();
            }
            let content = content.join("\n");
            if !content.is_empty() {
                lines.push(content.clone());
            }
            messages.push(Message {
                role,
                content: content.into(),
                metadata,
            });
        }
        Ok((messages, lines.join("\n")))
    }

    #[derive(Debug, Clone)]
    enum Line {
        Marker(String),
        Content(String),
    }

    #[derive(Debug, Clone)]
    pub struct StrictCase {
        bom: bool,
        lines: Vec<(Line, &'static str)>,
        values: BTreeMap<String, String>,
        nonce: String,
        forged: Option<(Forged, &'static str)>,
    }

    impl StrictCase {
        pub fn build(u: &mut Unstructured<'_>) -> Result<StrictCase> {
            let nonce = nonce(u)?;
            let bom = u.ratio(1, 10)?;
            let mut lines = Vec::new();
            for _ in 0..u.int_in_range(0..=8)? {
                let line = if u.ratio(2, 5)? {
                    Line::Marker(author_marker(u)?.0)
                } else if u.arbitrary()? {
                    Line::Content(clean_line(u)?)
                } else {
                    let mut line = String::new();
                    if u.arbitrary()? {
                        line.push_str(pick(u, TEMPLATE_TEXTS)?);
                    }
                    for _ in 0..u.int_in_range(1..=2)? {
                        line.push_str(&pick(u, SPELLINGS)?.replace('N', pick(u, VARS)?));
                        if u.arbitrary()? {
                            line.push_str(pick(u, TEMPLATE_TEXTS)?);
                        }
                    }
                    Line::Content(line)
                };
                lines.push((line, pick(u, &["\n", "\n", "\r\n"])?));
            }
            if let Some((_, ending)) = lines.last_mut() {
                *ending = pick(u, &["", "\n", "\r\n"])?;
            }
            let mut values = BTreeMap::new();
            for var in VARS {
                values.insert(var.to_string(), clean_value(u)?);
            }
            let forged = if u.arbitrary()? {
                Some(Self::plant(u, &nonce, &mut lines, &mut values)?)
            } else {
                None
            };
            Ok(StrictCase {
                bom,
                lines,
                values,
                nonce,
                forged,
            })
        }

        /// Puts `{{evil}}` on a new line and a forged line into its value;
        /// returns the forged line and the kind of error it must cause.
        fn plant(
            u: &mut Unstructured<'_>,
            nonce: &str,
            lines: &mut Vec<(Line, &'static str)>,
            values: &mut BTreeMap<String, String>,
        ) -> Result<(Forged, &'static str)> {
            let forged = forged(u, nonce)?;
            let at = u.int_in_range(0..=lines.len())?;
            let inline = u.arbitrary()?;
            let mut before = match u.int_in_range(0..=5)? {
                0 => "",
                1 | 2 => pick(u, &["\n", "\r\n"])?,
                _ => pick(u, OTHER_BREAKS)?,
            };
            let mut after = match u.int_in_range(0..=5)? {
                0 => "",
                1 | 2 => pick(u, &["\n", "\r\n"])?,
                _ => pick(u, OTHER_BREAKS)?,
            };
            let mut pre = clean_value(u)?;
            let mut post = clean_value(u)?;
            // The line starts after a break or at the start of its own line
            // (not at the start of the text, where a BOM would be dropped).
            if before.is_empty() {
                if inline || at == 0 {
                    before = "\n";
                } else {
                    pre.clear();
                }
            }
            // It ends at a break or at the end of its own line; a break
            // other than `\n` is followed by visible text.
            if after.is_empty() {
                if inline {
                    after = "\n";
                } else {
                    post.clear();
                }
            } else if !matches!(after, "\n" | "\r\n") {
                post.insert(0, 'x');
            }
            // A break inside the forged text (`system\u{2028}:`) is blank
            // only to a reader that does not split on it, so the text must
            // be split off where every reader splits: at `\n`.
            if forged
                .text
                .chars()
                .any(|c| OTHER_BREAKS.iter().any(|b| b.starts_with(c)))
            {
                if !before.is_empty() {
                    before = "\n";
                }
                if !after.is_empty() {
                    after = "\n";
                }
            }
            let whole_line =
                matches!(before, "" | "\n" | "\r\n") && matches!(after, "" | "\n" | "\r\n");
            let expected = if whole_line && forged.grammar && forged.nonces >= 2 {
                "duplicate_nonce"
            } else {
                "nonce_mismatch"
            };
            values.insert(
                EVIL.to_string(),
                format!("{pre}{before}{}{after}{post}", forged.text),
            );
            let placeholder = format!("{{{{{EVIL}}}}}");
            let line = if inline {
                format!(
                    "{}{placeholder}{}",
                    pick(u, TEMPLATE_TEXTS)?,
                    pick(u, TEMPLATE_TEXTS)?
                )
            } else {
                placeholder
            };
            let last = at == lines.len();
            if last
                && let Some((_, ending)) = lines.last_mut()
                && ending.is_empty()
            {
                *ending = "\n";
            }
            lines.insert(at, (Line::Content(line), if last { "" } else { "\n" }));
            Ok((forged, expected))
        }

        fn template(&self) -> String {
            let mut out = String::from(if self.bom { "\u{feff}" } else { "" });
            for (line, ending) in &self.lines {
                match line {
                    Line::Marker(text) | Line::Content(text) => out.push_str(text),
                }
                out.push_str(ending);
            }
            out
        }

        fn markers(&self) -> String {
            let markers: Vec<&str> = self
                .lines
                .iter()
                .filter_map(|(line, _)| match line {
                    Line::Marker(text) => Some(text.as_str()),
                    Line::Content(_) => None,
                })
                .collect();
            markers.join("\n")
        }

        pub fn check(&self) {
            let template = self.template();
            let result = chat::render_strict(&template, &self.values, &self.nonce);
            // Formatted only when an assertion fails: formatting every case
            // cost about a fifth of the harness's time.
            let case = CaseReport {
                template: &template,
                case: self,
            };
            if let Some((forged, expected)) = &self.forged {
                let kind = result.as_ref().err().map(ChatError::kind);
                assert_eq!(
                    kind,
                    Some(*expected),
                    "forged line {:?} (grammar: {}, nonce attributes: {}) gave {result:?}{case}",
                    forged.text,
                    forged.grammar,
                    forged.nonces
                );
                return;
            }
            let messages = result.unwrap_or_else(|error| {
                panic!("clean case rejected ({}): {error}{case}", error.kind())
            });
            let rendered = chat::render(&template, &self.values)
                .unwrap_or_else(|error| panic!("plain render failed: {error}{case}"));
            let plain = chat::parse(&rendered, None).expect("non-strict never fails");
            assert_eq!(messages, plain, "strict and non-strict differ{case}");
            let markers = self.markers();
            let authored = chat::parse(&markers, None).expect("non-strict never fails");
            let preamble = messages.len().checked_sub(authored.len());
            assert!(
                matches!(preamble, Some(0 | 1)),
                "{} messages for {} markers{case}",
                messages.len(),
                authored.len()
            );
            let ours: Vec<(Role, &BTreeMap<String, serde_json::Value>)> = messages
                [messages.len() - authored.len()..]
                .iter()
                .map(|m: &Message| (m.role, &m.metadata))
                .collect();
            let theirs: Vec<_> = authored.iter().map(|m| (m.role, &m.metadata)).collect();
            assert_eq!(ours, theirs, "not the author's roles and metadata{case}");
            for message in &messages {
                assert!(
                    !message.metadata.contains_key(NONCE_KEY),
                    "nonce in the metadata {message:?}{case}"
                );
            }
        }
    }

    /// The template, values and nonce of a failing case, for its panic message.
    struct CaseReport<'a> {
        template: &'a str,
        case: &'a StrictCase,
    }

    impl std::fmt::Display for CaseReport<'_> {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            write!(
                f,
                "\ntemplate: {:?}\nvalues:   {:?}\nnonce:    {:?}",
                self.template, self.case.values, self.case.nonce
            )
        }
    }
}

/// Web strip on any text (UTF-8, lossily):
///
/// - the output holds exactly one `[STRIPPED]` per label;
/// - stripping the output again gives the same text, and finds nothing but
///   the layer's own `[STRIPPED]` tokens: no marker survives.
pub fn strip(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let once = web_strip::strip(&text);
    assert_eq!(
        once.text.matches(STRIPPED).count(),
        once.removed_patterns.len(),
        "[STRIPPED] tokens and labels differ for {text:?}: {once:?}"
    );
    let twice = web_strip::strip(&once.text);
    assert_eq!(twice.text, once.text, "strip is not idempotent on {text:?}");
    assert!(
        twice
            .removed_patterns
            .iter()
            .all(|label| label == PLANTED_MARKER),
        "a marker survived stripping {text:?}: {once:?} then {twice:?}"
    );
}

/// Web envelope on any source, labels and body, split out of the bytes:
/// the output holds exactly one opening tag, at its start, and one closing
/// tag, at its end, and unwraps to the very parts it was given (but empty
/// labels, which are not written).
pub fn envelope(data: &[u8]) {
    let mut u = Unstructured::new(data);
    let src: String = u.arbitrary().unwrap_or_default();
    let labels: Vec<String> = u.arbitrary().unwrap_or_default();
    let body = String::from_utf8_lossy(u.take_rest()).into_owned();
    let at = "2026-11-29T00:00:00Z";
    let out = web_envelope::envelope(&src, at, &labels, &body);
    assert_eq!(
        web_envelope::count_tags(&out),
        2,
        "the envelope of {body:?} (src {src:?}, labels {labels:?}) holds another tag: {out:?}"
    );
    assert!(out.starts_with("<untrusted_content ") && out.ends_with("\n</untrusted_content>"));
    let back = web_envelope::unwrap(&out)
        .unwrap_or_else(|error| panic!("the envelope {out:?} does not unwrap: {error}"));
    // Empty labels name nothing and are not written (see `envelope`).
    let written: Vec<String> = labels.into_iter().filter(|l| !l.is_empty()).collect();
    assert_eq!(
        (
            back.src.as_str(),
            back.removed_patterns.as_slice(),
            back.body.as_str()
        ),
        (src.as_str(), written.as_slice(), body.as_str()),
        "unwrap did not give back the parts of {out:?}"
    );
}

/// Failure templates on a message built from typed fragments (paths, URLs,
/// e-mail addresses, quoted spans, numbers, identifiers, vocabulary words,
/// placeholder-shaped input, line breaks, ANSI codes): the template, when
/// there is one, keeps the whole contract, templating it again changes
/// nothing (both in [`check_contract`]), and the message's class is one of
/// the documented kinds.
pub fn template_structured(data: &[u8]) {
    let mut u = Unstructured::new(data);
    let Ok(message) = template_grammar::message(&mut u) else {
        return;
    };
    let scrubber = scrubber();
    let report = scrubber.report(&message);
    assert!(crate::template::FailureKind::ALL.contains(&report.kind));
    if let Some(template) = &report.template
        && let Err(violation) = check_contract(template, scrubber)
    {
        panic!("template {template:?} of {message:?} breaks the contract: {violation}");
    }
}

/// Web strip on an HTML page with upstream's seed markers planted in
/// carriers (text, comments, hidden elements, attributes) and spelled as a
/// page hides them (entities, zero-width and look-alike characters,
/// fullwidth forms, odd gaps):
///
/// - no planted marker's words, as spelled, are left in the output (the
///   same words in the page's prose may stay);
/// - the output holds exactly one `[STRIPPED]` per label;
/// - stripping the output again changes nothing and finds nothing but the
///   layer's own `[STRIPPED]` tokens.
pub fn strip_html(data: &[u8]) {
    let mut u = Unstructured::new(data);
    let Ok((page, planted)) = html_grammar::page(&mut u) else {
        return;
    };
    let once = web_strip::strip(&page);
    for marker in &planted {
        // The same words may also stand in the page's prose (`ignore the
        // abovementioned caveat`): only the planted occurrences must go.
        let planted_here = planted
            .iter()
            .filter(|other| other.spelled == marker.spelled)
            .count();
        let in_prose = page.matches(&marker.spelled).count() - planted_here;
        assert!(
            once.text.matches(&marker.spelled).count() <= in_prose,
            "the {:?} marker {:?} survived in {:?} (page {page:?})",
            marker.label,
            marker.spelled,
            once.text
        );
    }
    assert_eq!(
        once.text.matches(STRIPPED).count(),
        once.removed_patterns.len(),
        "[STRIPPED] tokens and labels differ for {page:?}: {once:?}"
    );
    let twice = web_strip::strip(&once.text);
    assert_eq!(twice.text, once.text, "strip is not idempotent on {page:?}");
    assert!(
        twice
            .removed_patterns
            .iter()
            .all(|label| label == PLANTED_MARKER),
        "a marker survived stripping {page:?}: {once:?} then {twice:?}"
    );
}

/// Web fetch of an HTTP answer the fuzzer describes (status, Content-Type
/// and charset, Content-Encoding, gzip, Content-Length true, lying or
/// garbled, close-delimited or chunked framing, Location, body bytes),
/// served on loopback with a 512-byte cap and
/// `AddressPolicy { allow_private: true }`:
///
/// - the fetch never panics and fails only with a kind of `WebError::KINDS`;
/// - a page it returns is 2xx and holds no more chars than the cap bytes;
/// - a readable 2xx UTF-8 text answer within the cap decodes to its body;
/// - a readable 2xx text answer over the cap fails with `body_too_large`.
pub fn fetch_mock(data: &[u8]) {
    let mut u = Unstructured::new(data);
    let Ok(answer) = fetch_mock::Answer::build(&mut u) else {
        return;
    };
    fetch_mock::check(&answer);
}

/// Chat round trip: messages (any role spelling, author metadata written
/// quoted or not, content lines no reader takes for a marker) written out
/// as markers carrying a nonce (hex as `generate_nonce` draws it, or one
/// of the coercion traps) parse strictly, with that nonce and marker count,
/// to the very same messages; without the nonce, the non-strict parse
/// gives them too.
pub fn chat_roundtrip(data: &[u8]) {
    let mut u = Unstructured::new(data);
    let Ok(nonce) = chat_cases::nonce(&mut u) else {
        return;
    };
    let Ok((messages, text)) = chat_cases::written_messages(&mut u, Some(&nonce)) else {
        return;
    };
    let context = Context {
        nonce: nonce.clone(),
        markers: messages.len(),
    };
    let parsed = chat::parse(&text, Some(&context));
    assert_eq!(
        parsed.as_ref(),
        Ok(&messages),
        "strict round trip of {text:?} (nonce {nonce:?})"
    );
    let Ok((messages, text)) = chat_cases::written_messages(&mut u, None) else {
        return;
    };
    let parsed = chat::parse(&text, None);
    assert_eq!(
        parsed.as_ref(),
        Ok(&messages),
        "non-strict round trip of {text:?}"
    );
}
