//! Carriers: HTML comments and hidden elements, which a reader of the page
//! never sees but a model reading the markup does. A carrier that holds a
//! marker is removed whole, since everything in it is the attacker's text.

use std::ops::Range;
use std::sync::LazyLock;

use memchr::memmem;
use regex::Regex;

/// What hides a carrier's text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CarrierKind {
    Comment,
    HiddenElement,
    /// An element hidden from sight but read aloud by screen readers
    /// (`sr-only`, `visually-hidden`): content for people, removed only
    /// when it holds a marker.
    ScreenReaderText,
    /// The value of an attribute a model reads as prose (`alt`, `title`,
    /// `content`, …); only the value is removed.
    Attribute,
    /// The value of a prose attribute the page labels as meant for a model
    /// (`<meta name="ai-instructions" content="…">`, `data-llm-instructions`,
    /// blind9): an order to the model whatever it says, removed whole.
    ModelAttribute,
    /// Base64 or hex; what it carries is its decoded text.
    Encoded,
    /// Eight or more Unicode tag characters in a row (an emoji flag uses
    /// at most six): invisible text, removed whatever it says.
    TagCharacters,
}

/// One carrier: its whole range in the original, and the range of what it
/// carries.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Carrier {
    pub kind: CarrierKind,
    pub range: Range<usize>,
    pub inner: Range<usize>,
}

/// Every comment (`<!--` to `-->`, or to the end of the text as HTML reads
/// an unclosed one).
pub fn comments(text: &str) -> Vec<Carrier> {
    let mut found = Vec::new();
    let mut at = 0;
    while let Some(offset) = memmem::find(&text.as_bytes()[at..], b"<!--") {
        let start = at + offset;
        let inner_start = start + 4;
        let (inner_end, end) = match memmem::find(&text.as_bytes()[inner_start..], b"-->") {
            Some(offset) => (inner_start + offset, inner_start + offset + 3),
            None => (text.len(), text.len()),
        };
        found.push(Carrier {
            kind: CarrierKind::Comment,
            range: start..end,
            inner: inner_start..inner_end,
        });
        at = end;
    }
    found
}

/// Most attribute units an opening tag holds (a unit is a character
/// outside quotes, or a whole quoted value); a longer one is text.
const MAX_TAG_UNITS: usize = 2048;

/// Longest tag name read.
const MAX_TAG_NAME: usize = 16;

/// One opening tag: where it is, its lowercase name, where its attributes
/// are.
pub struct OpeningTag {
    range: Range<usize>,
    /// The name lowercased, in place: a page has a tag every few words,
    /// and a `String` each was an allocation each.
    name: [u8; MAX_TAG_NAME],
    name_len: u8,
    attributes: Range<usize>,
}

/// Every opening tag, found once for every kind of carrier that needs them:
/// `<`, a name of up to 16 ASCII letters and digits starting with a letter,
/// then `>` or whitespace and up to 2048 units (a character other than
/// `<>"'`, or a quoted value without `<`) before a `>`. No `<` inside, and
/// a `>` only in a quoted value, as the view reads tags. Scanned by hand
/// (each attempt stops at the next `<`, so the scan is linear); the test
/// `opening_tags_are_the_patterns_matches` holds it to the pattern
/// `<[A-Za-z][A-Za-z0-9]{0,15}(?:\s(?:[^<>"']|"[^<"]*"|'[^<']*'){0,2048})?>`.
pub fn opening_tags(text: &str) -> Vec<OpeningTag> {
    let bytes = text.as_bytes();
    let mut found = Vec::new();
    let mut at = 0;
    while let Some(offset) = memchr::memchr(b'<', &bytes[at..]) {
        let start = at + offset;
        match opening_tag_at(text, start) {
            Some(end) => {
                let name_len = bytes[start + 1..]
                    .iter()
                    .take_while(|b| b.is_ascii_alphanumeric())
                    .count();
                let mut name = [0u8; MAX_TAG_NAME];
                for (to, from) in name.iter_mut().zip(&bytes[start + 1..start + 1 + name_len]) {
                    *to = from.to_ascii_lowercase();
                }
                found.push(OpeningTag {
                    range: start..end,
                    name,
                    name_len: u8::try_from(name_len)
                        .expect("opening_tag_at reads names of at most MAX_TAG_NAME bytes"),
                    attributes: start + 1 + name_len..end - 1,
                });
                at = end;
            }
            None => at = start + 1,
        }
    }
    found
}

impl OpeningTag {
    fn name(&self) -> &str {
        std::str::from_utf8(&self.name[..usize::from(self.name_len)])
            .expect("a tag name is ASCII letters and digits")
    }
}

/// The end of the opening tag that starts at `start` (a `<`), if one does.
fn opening_tag_at(text: &str, start: usize) -> Option<usize> {
    let bytes = text.as_bytes();
    if !bytes.get(start + 1).is_some_and(u8::is_ascii_alphabetic) {
        return None;
    }
    let name_len = bytes[start + 1..]
        .iter()
        .take_while(|b| b.is_ascii_alphanumeric())
        .count();
    if name_len > MAX_TAG_NAME {
        return None;
    }
    let mut at = start + 1 + name_len;
    let first = text[at..].chars().next()?;
    if first == '>' {
        return Some(at + 1);
    }
    if !first.is_whitespace() {
        return None;
    }
    at += first.len_utf8();
    let mut units = 0;
    loop {
        let c = text[at..].chars().next()?;
        match c {
            '>' => return Some(at + 1),
            '<' => return None,
            _ if units == MAX_TAG_UNITS => return None,
            '"' | '\'' => {
                let close = memchr::memchr2(c as u8, b'<', &bytes[at + 1..])?;
                if bytes[at + 1 + close] == b'<' {
                    return None;
                }
                at += close + 2;
            }
            c => at += c.len_utf8(),
        }
        units += 1;
    }
}

/// Attributes that hide an element: the `hidden` attribute or class,
/// `aria-hidden`, and styles that show nothing (no display, no
/// visibility, zero size or opacity, white or transparent text, far off
/// screen). Only ever asked whether it matches, so the Unicode word
/// boundary after `#fff` is spelled as the character after it (`\W` or the
/// end), which matches the same texts: a `\b` makes the lazy DFA give up on
/// the first non-ASCII byte and leave the search to the PikeVM.
static HIDING: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r#"(?i)(?:^|[\s"'])hidden(?:[\s"'=/]|$)|(?:^|[\s"'])(?:hide|invisible)(?:[\s"']|$)|aria-hidden\s*=\s*["']?\s*true|display\s*:\s*none|visibility\s*:\s*(?:hidden|collapse)|font-size\s*:\s*0*(?:\.0+)?(?:px|pt|em|rem|%)?\s*(?:[;"'!]|$)|opacity\s*:\s*0*(?:\.0+)?\s*(?:[;"'!]|$)|(?:^|[;\s"'])color\s*:\s*(?:white|#fff(?:fff)?(?:\W|$)|transparent|rgba?\(\s*255\s*,\s*255\s*,\s*255)|(?:max-)?(?:height|width)\s*:\s*0(?:px)?\s*(?:[;"'!]|$)|(?:left|top|text-indent)\s*:\s*-\d{3,}"#,
    )
    .expect("the hiding-attribute pattern is a valid regex")
});

/// Handlers of what a reader does (pointing, clicking, typing, focusing)
/// with their values: a style they set (`onMouseOut="….style.visibility =
/// 'hidden'"`, Erlang's docs, on every function's heading) hides nothing
/// until the reader acts, so the element is shown. `onload` and other
/// handlers that run unasked are kept and read.
static INTERACTION_HANDLERS: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r#"(?:^|[\s"'])(?i-u:on(?:mouse|pointer|touch|key|drag|focus|click|dblclick|blur|contextmenu)[a-z]*)\s*=\s*(?:"[^"]*"|'[^']*'|[^\s>"']*)"#,
    )
    .expect("the interaction-handler pattern is a valid regex")
});

/// `attributes` without [`INTERACTION_HANDLERS`], each replaced by a space.
fn shown_before_any_action(attributes: &str) -> std::borrow::Cow<'_, str> {
    INTERACTION_HANDLERS.replace_all(attributes, " ")
}

/// Classes that hide an element from sight and leave it to screen readers.
static SCREEN_READER: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r#"(?i)(?:^|[\s"'])(?:sr-only|visually-hidden|screen-reader-text)(?:[\s"']|$)"#)
        .expect("the screen-reader pattern is a valid regex")
});

/// Words one of which every match of [`HIDING`] or [`SCREEN_READER`]
/// holds: most tags of a page have none, and finding that costs a fraction
/// of asking the two patterns, which have no literal prefix to skip by.
static HIDING_WORDS: LazyLock<aho_corasick::AhoCorasick> = LazyLock::new(|| {
    aho_corasick::AhoCorasick::builder()
        .ascii_case_insensitive(true)
        .build([
            "hid", // hidden, hide, aria-hidden, visually-hidden
            "invisible",
            "display",
            "visibility",
            "font-size",
            "opacity",
            "color",
            "height",
            "width",
            "left",
            "top",
            "text-indent",
            "sr-only",
            "screen-reader-text",
        ])
        .expect("fourteen short words fit the automaton's limits")
});

/// Whether `attributes` may match [`HIDING`] or [`SCREEN_READER`]: `false`
/// only when neither can. Their `(?i)` is Unicode's (`ſ` matches `s`, the
/// Kelvin sign `k`), which differs from ASCII case folding only on
/// non-ASCII text, so such text is left to the patterns.
fn may_hide(attributes: &str) -> bool {
    !attributes.is_ascii() || HIDING_WORDS.is_match(attributes)
}

/// Elements without content: hiding one hides no text.
const VOID_ELEMENTS: &[&str] = &[
    "area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track",
    "wbr",
];

/// Every hidden element not inside another one, to its matching closing
/// tag (or the end of the text, as HTML closes an unclosed one).
pub fn hidden_elements(text: &str, tags: &[OpeningTag]) -> Vec<Carrier> {
    let mut found: Vec<Carrier> = Vec::new();
    for tag in tags {
        if found
            .last()
            .is_some_and(|last| tag.range.start < last.range.end)
        {
            continue;
        }
        let attributes = &text[tag.attributes.clone()];
        // A template's content is never rendered.
        let may_hide = may_hide(attributes);
        let shown = if may_hide {
            shown_before_any_action(attributes)
        } else {
            std::borrow::Cow::Borrowed(attributes)
        };
        let hidden = tag.name() == "template" || (may_hide && HIDING.is_match(&shown));
        let screen_reader = !hidden && may_hide && SCREEN_READER.is_match(&shown);
        if !(hidden || screen_reader)
            || VOID_ELEMENTS.contains(&tag.name())
            || attributes.trim_end().ends_with('/')
        {
            continue;
        }
        let inner_start = tag.range.end;
        let (inner_end, end) = closing_tag(text, inner_start, tag.name());
        // Nested carriers are read with the outer one: screen-reader text
        // that holds an element hidden from everyone is hidden text too.
        let hidden = hidden || HIDING.is_match(&text[inner_start..inner_end]);
        found.push(Carrier {
            kind: if hidden {
                CarrierKind::HiddenElement
            } else {
                CarrierKind::ScreenReaderText
            },
            range: tag.range.start..end,
            inner: inner_start..inner_end,
        });
    }
    found
}

/// Attributes whose values are prose to a model reading the markup.
static PROSE_ATTRIBUTE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r#"(?i)(?:^|\s)(?:alt|title|content|aria-label|aria-description|placeholder|value|label|summary|data-[a-z0-9-]{1,32})\s*=\s*(?:"[^"]*"|'[^']*')"#,
    )
    .expect("the prose-attribute pattern is a valid regex")
});

/// The names of a model in an attribute's name (`ai-instructions`,
/// `data-llm-notes`).
const MODEL_IN_A_NAME: &str = "(?:ai|llm|gpt|agent|assistant|chatbot|bot|model)s?";

/// A `<meta>` name that says its content is for a model (`ai-instructions`,
/// `llm-guidance`); not `ai-policy`, which opts a page out of training.
static MODEL_META_NAME: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(&format!(
        r#"(?i)(?:^|\s)(?:name|property|itemprop)\s*=\s*["']?[a-z0-9:._-]{{0,30}}?{MODEL_IN_A_NAME}[-_:.]?(?:instructions?|directives?|notes?|guidance|rules|prompts?|context)(?:["'\s>]|$)"#
    ))
    .expect("the model meta-name pattern is a valid regex")
});

/// A `data-` attribute whose name says its value is for a model.
static MODEL_ATTRIBUTE_NAME: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(&format!(
        r"(?i)(?:^|\s)data-{MODEL_IN_A_NAME}[-_]?(?:instructions?|directives?|notes?|guidance|rules)\s*="
    ))
    .expect("the model attribute-name pattern is a valid regex")
});

/// Every value of a prose attribute in an opening tag.
pub fn attribute_values(text: &str, tags: &[OpeningTag]) -> Vec<Carrier> {
    let mut found = Vec::new();
    for tag in tags {
        let attributes = &text[tag.attributes.clone()];
        if !attributes.contains('=') {
            continue;
        }
        let for_a_model = tag.name() == "meta" && MODEL_META_NAME.is_match(attributes);
        for attribute in PROSE_ATTRIBUTE.find_iter(attributes) {
            // The value lies between the first quote and the last byte,
            // which closes it.
            let Some(quote) = attribute.as_str().find(['"', '\'']) else {
                continue;
            };
            let value = attribute.start() + quote + 1..attribute.end() - 1;
            if value.is_empty() {
                continue;
            }
            let range = tag.attributes.start + value.start..tag.attributes.start + value.end;
            let kind = if for_a_model || MODEL_ATTRIBUTE_NAME.is_match(attribute.as_str()) {
                CarrierKind::ModelAttribute
            } else {
                CarrierKind::Attribute
            };
            found.push(Carrier {
                kind,
                range: range.clone(),
                inner: range,
            });
        }
    }
    found
}

/// Where the element `name` opened before `from` closes: the start and
/// end of its closing tag, counting nested elements of the same name.
fn closing_tag(text: &str, from: usize, name: &str) -> (usize, usize) {
    let bytes = text.as_bytes();
    let mut depth = 0usize;
    let mut at = from;
    while let Some(offset) = memchr::memchr(b'<', &bytes[at..]) {
        let start = at + offset;
        let closing = bytes.get(start + 1) == Some(&b'/');
        let name_start = start + 1 + usize::from(closing);
        let name_end = name_start + name.len();
        let same_name = bytes
            .get(name_start..name_end)
            .is_some_and(|candidate| candidate.eq_ignore_ascii_case(name.as_bytes()))
            && bytes
                .get(name_end)
                .is_none_or(|b| !b.is_ascii_alphanumeric());
        if same_name {
            if closing {
                if depth == 0 {
                    let end = memchr::memchr(b'>', &bytes[name_end..])
                        .map_or(text.len(), |offset| name_end + offset + 1);
                    return (start, end);
                }
                depth -= 1;
            } else {
                depth += 1;
            }
        }
        at = start + 1;
    }
    (text.len(), text.len())
}

/// Shortest run that may be base64 or hex: long enough to hold a phrase.
const MIN_ENCODED_RUN: usize = 24;

/// Longest run decoded: a payload is a sentence, an image is not.
const MAX_ENCODED_RUN: usize = 64 * 1024;

/// A byte of a base64 (standard or URL-safe) or hex run.
fn is_encoded_byte(byte: u8) -> bool {
    ENCODED_BYTES[usize::from(byte)]
}

/// [`is_encoded_byte`] as a table: the scan reads every byte of a page.
const ENCODED_BYTES: [bool; 256] = {
    let mut table = [false; 256];
    let mut byte = 0;
    while byte < 256 {
        let b = byte as u8;
        table[byte] = b.is_ascii_alphanumeric() || matches!(b, b'+' | b'/' | b'_' | b'-');
        byte += 1;
    }
    table
};

/// Every run that could be base64 or hex: the matches of
/// `[A-Za-z0-9+/_-]{24,}={0,2}` (scanned by hand, in one pass over the
/// bytes; `encoded_runs_are_the_patterns_matches` holds it to the pattern).
pub fn encoded_runs(text: &str) -> Vec<Carrier> {
    let bytes = text.as_bytes();
    let mut found = Vec::new();
    // No run crosses `at` from the left unread: the byte before it, or
    // the byte at it, is none of a run's.
    let mut at = 0;
    while at < bytes.len() {
        // A run long enough holds the byte MIN_ENCODED_RUN - 1 ahead of
        // every place it may start from here: if that byte is none of a
        // run's, no run starts before it (most words are shorter).
        let probe = at + MIN_ENCODED_RUN - 1;
        if probe >= bytes.len() {
            break;
        }
        if !is_encoded_byte(bytes[probe]) {
            at = probe + 1;
            continue;
        }
        let mut start = probe;
        while start > at && is_encoded_byte(bytes[start - 1]) {
            start -= 1;
        }
        let mut end = probe + 1;
        while end < bytes.len() && is_encoded_byte(bytes[end]) {
            end += 1;
        }
        if end - start < MIN_ENCODED_RUN {
            at = end + 1;
            continue;
        }
        let padding = bytes[end..]
            .iter()
            .take(2)
            .take_while(|&&b| b == b'=')
            .count();
        at = end + padding;
        if at - start <= MAX_ENCODED_RUN {
            found.push(Carrier {
                kind: CarrierKind::Encoded,
                range: start..at,
                inner: start..at,
            });
        }
    }
    found
}

/// The text a run decodes to, if it is base64 or hex of mostly printable
/// UTF-8.
pub fn decode_run(run: &str) -> Option<String> {
    use base64::Engine as _;
    let bytes = if run.len().is_multiple_of(2) && run.bytes().all(|b| b.is_ascii_hexdigit()) {
        (0..run.len())
            .step_by(2)
            .map(|i| u8::from_str_radix(&run[i..i + 2], 16).ok())
            .collect::<Option<Vec<u8>>>()?
    } else {
        let unpadded = run.trim_end_matches('=');
        let engine = if unpadded.contains(['-', '_']) {
            &base64::engine::general_purpose::URL_SAFE_NO_PAD
        } else {
            &base64::engine::general_purpose::STANDARD_NO_PAD
        };
        engine.decode(unpadded).ok()?
    };
    let text = String::from_utf8(bytes).ok()?;
    let printable = text
        .chars()
        .filter(|c| !c.is_control() || c.is_whitespace())
        .count();
    (printable * 10 >= text.chars().count() * 9).then_some(text)
}

/// Every run of eight or more tag characters.
pub fn tag_character_runs(text: &str) -> Vec<Carrier> {
    let mut found = Vec::new();
    // Every tag character is encoded with the lead byte 0xF3, which starts
    // no other character of a run: text before the first one holds none.
    let Some(first) = memchr::memchr(0xF3, text.as_bytes()) else {
        return found;
    };
    let mut run: Option<(usize, usize, usize)> = None;
    for (offset, c) in text[first..].char_indices() {
        let at = first + offset;
        if ('\u{E0020}'..='\u{E007E}').contains(&c) {
            let (start, _, count) = run.unwrap_or((at, at, 0));
            run = Some((start, at + c.len_utf8(), count + 1));
            continue;
        }
        if let Some((start, end, count)) = run.take()
            && count >= 8
        {
            found.push(Carrier {
                kind: CarrierKind::TagCharacters,
                range: start..end,
                inner: start..end,
            });
        }
    }
    if let Some((start, end, count)) = run
        && count >= 8
    {
        found.push(Carrier {
            kind: CarrierKind::TagCharacters,
            range: start..end,
            inner: start..end,
        });
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::xorshift::xorshift;

    #[test]
    fn hidden_element_runs_to_its_own_closing_tag() {
        let text = r#"a<div style="display: none">x<div>y</div>z</div>b"#;
        let found = hidden_elements(text, &opening_tags(text));
        assert_eq!(found.len(), 1);
        assert_eq!(&text[found[0].inner.clone()], "x<div>y</div>z");
        assert_eq!(&text[found[0].range.end..], "b");
    }

    #[test]
    fn visible_elements_are_not_carriers() {
        let hidden = |text: &str| hidden_elements(text, &opening_tags(text));
        assert!(hidden(r#"<p class="note">x</p><span hidden-xs>y</span>"#).is_empty());
        assert_eq!(hidden(r#"<span class="a hidden">y</span>"#).len(), 1);
        assert_eq!(hidden(r#"<p style="font-size:0">y</p>"#).len(), 1);
    }

    /// The scanner against the pattern it replaced, read by `regex`.
    #[test]
    fn opening_tags_are_the_patterns_matches() {
        let pattern = Regex::new(
            r#"<[A-Za-z][A-Za-z0-9]{0,15}(?:\s(?:[^<>"']|"[^<"]*"|'[^<']*'){0,2048})?>"#,
        )
        .expect("the reference pattern is a valid regex");
        let alphabet = [
            "<", ">", "a", "B", "7", " ", "\u{A0}", "\n", "\"", "'", "=", "é", "/", "-",
        ];
        let mut next = xorshift(0x2545_F491_4F6C_DD1D);
        let mut texts: Vec<String> = vec![
            format!("<a {}>", "x".repeat(2047)),
            format!("<a {}>", "x".repeat(2048)),
            format!("<a {}>", "x".repeat(2049)),
            "<abcdefghijklmnop>".into(),
            "<abcdefghijklmnopq>".into(),
            "<a\u{3000}title=\"x>y\">".into(),
            "<a title=\"x<y\">".into(),
        ];
        for _ in 0..20_000 {
            let len = (next() % 24) as usize;
            texts.push(
                (0..len)
                    .map(|_| alphabet[(next() % alphabet.len() as u64) as usize])
                    .collect(),
            );
        }
        for text in &texts {
            let scanned: Vec<_> = opening_tags(text)
                .into_iter()
                .map(|tag| tag.range)
                .collect();
            let matched: Vec<_> = pattern.find_iter(text).map(|tag| tag.range()).collect();
            assert_eq!(scanned, matched, "{text:?}");
        }
    }

    /// The scanner against the pattern it replaced, read by `regex`.
    #[test]
    fn encoded_runs_are_the_patterns_matches() {
        let pattern = Regex::new(r"[A-Za-z0-9+/_-]{24,}={0,2}")
            .expect("the reference pattern is a valid regex");
        let alphabet = ["a", "Z", "0", "+", "/", "_", "-", "=", " ", "é", "\n"];
        let mut next = xorshift(0x9E37_79B9_7F4A_7C15);
        let mut texts: Vec<String> = vec![
            "a".repeat(23),
            "a".repeat(24),
            format!("{}===", "a".repeat(24)),
            format!("{}=={}", "a".repeat(30), "b".repeat(24)),
            format!("x {} y", "Q".repeat(70_000)),
        ];
        for _ in 0..5_000 {
            let len = (next() % 80) as usize;
            // Runs of one byte make long runs likely.
            texts.push(
                (0..len)
                    .map(|_| {
                        alphabet[(next() % alphabet.len() as u64) as usize]
                            .repeat(1 + (next() % 8) as usize)
                    })
                    .collect(),
            );
        }
        for text in &texts {
            let scanned: Vec<_> = encoded_runs(text)
                .into_iter()
                .map(|run| run.range)
                .collect();
            let matched: Vec<_> = pattern
                .find_iter(text)
                .filter(|run| run.len() <= MAX_ENCODED_RUN)
                .map(|run| run.range())
                .collect();
            assert_eq!(scanned, matched, "{text:?}");
        }
    }

    /// `HIDING` without its Unicode `\b` answers as the pattern with it.
    #[test]
    fn hiding_matches_as_with_a_word_boundary() {
        let with_boundary = Regex::new(r"(?i)(?:^|[;\s\x22'])color\s*:\s*#fff(?:fff)?\b")
            .expect("the reference pattern is a valid regex");
        let without = Regex::new(r"(?i)(?:^|[;\s\x22'])color\s*:\s*#fff(?:fff)?(?:\W|$)")
            .expect("the rewritten pattern is a valid regex");
        for head in [
            "color:#fff",
            "COLOR: #FFF",
            "x color:#ffffff",
            "color:#ffff",
            "color:#fffff",
        ] {
            for tail in [
                "", ";", " ", "\"", "f", "F", "0", "g", "_", "é", "\u{301}", "\u{212A}", "ſ",
                "\u{24B6}", "٣", "-", "\u{200D}", "\u{0345}", "中", "\u{FF10}",
            ] {
                let text = format!("{head}{tail}");
                assert_eq!(
                    with_boundary.is_match(&text),
                    without.is_match(&text),
                    "{text:?}"
                );
                assert_eq!(
                    with_boundary.is_match(&text),
                    HIDING.is_match(&text),
                    "{text:?}"
                );
            }
        }
    }

    /// An attribute text [`may_hide`] turns away matches neither pattern:
    /// over generated attribute texts of the patterns' own words, cut,
    /// cased and joined every way, ASCII and not.
    #[test]
    fn attributes_may_hide_turns_away_hide_nothing() {
        let pieces = [
            "hidden",
            "HIDDEN",
            "hid",
            "den",
            "hide",
            "invisible",
            "aria-hidden",
            "=",
            "\"",
            "'",
            " ",
            "\t",
            ";",
            ":",
            "true",
            "display",
            "DISPLAY",
            "none",
            "visibility",
            "viſibility",
            "collapse",
            "font-size",
            "0",
            ".0",
            "px",
            "%",
            "opacity",
            "color",
            "#fff",
            "white",
            "rgb(",
            "255",
            ",",
            ")",
            "height",
            "max-",
            "width",
            "left",
            "top",
            "-",
            "999",
            "text-indent",
            "sr-only",
            "visually-hidden",
            "screen-reader-text",
            "class",
            "style",
            "id",
            "href",
            "/",
            "x",
            "\u{212A}",
            "é",
            "data-",
            "title",
        ];
        let mut next = crate::xorshift::xorshift(0x004d_1de5);
        let (mut turned_away, mut matched) = (0, 0);
        for _ in 0..40_000 {
            let text: String = (0..1 + next() % 12)
                .map(|_| pieces[(next() % pieces.len() as u64) as usize])
                .collect();
            let matches = HIDING.is_match(&text) || SCREEN_READER.is_match(&text);
            matched += usize::from(matches);
            if !may_hide(&text) {
                turned_away += 1;
                assert!(!matches, "{text:?} matches, yet may_hide turned it away");
            }
        }
        assert!(
            turned_away > 1000 && matched > 1000,
            "too few of each kind: {turned_away} turned away, {matched} matched"
        );
    }

    #[test]
    fn unclosed_comment_runs_to_the_end() {
        let found = comments("a<!-- x");
        assert_eq!(found[0].range, 1..7);
        assert_eq!(found[0].inner, 5..7);
    }
}
