//! The fragments chat cases are built from, shared by the `chat_strict`
//! harness and the chat property tests so that both explore one grammar.

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
            char::from_u32(base + u32::from(c.to_ascii_lowercase()) - u32::from('a')).unwrap_or(c)
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
