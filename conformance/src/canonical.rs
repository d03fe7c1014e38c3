//! The canonical form of a vector file, byte for byte the one
//! `tools/record_upstream.py` writes (its `canonical()`), so that files
//! written by either tool, or by hand and then formatted, diff cleanly.
//!
//! The form:
//! - the document, the values of its top-level keys (`notes`, `cases`)
//!   and their items (each note, each case) are written one entry per
//!   line, indented by two spaces per level; the values of a note's or a
//!   case's fields (an input, an expected output), every scalar and every
//!   empty array or object are written on one line as `json.dumps(value,
//!   ensure_ascii=False, separators=(", ", ": "))` would;
//! - keys keep the order of the file; a key repeated in one object is an
//!   error here (Python would keep the last value silently);
//! - a string escapes `"`, `\` and control characters as JSON does (`\n`,
//!   `\t`, `\b`, `\f`, `\r`, else `\u00xx`), writes printable ASCII, `‹›…«»“”‘’„‚「」『』—–`,
//!   kana (U+3040–U+30FF) and CJK ideographs (U+4E00–U+9FFF) as
//!   themselves, and escapes every other character as `\uxxxx` (a UTF-16
//!   pair above U+FFFF, lowercase hex), so a reviewer sees each line
//!   break, joiner, control code and look-alike;
//! - an integer is written as its digits (`-0` as `0`); a number with a
//!   fraction or an exponent is a double written as Python's `repr` writes
//!   it (shortest round trip; `1e+16`, `1e-05`, `2.0`); one that overflows
//!   a double is an error (Python would write `Infinity`, which is not
//!   JSON);
//! - the file ends with one line break.

use std::fmt::{self, Write as _};

use thiserror::Error;

/// Why a text has no canonical form: it is not JSON the vectors can hold.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("line {line}, column {column}: {message}")]
pub struct CanonicalError {
    pub line: usize,
    pub column: usize,
    pub message: String,
}

/// The canonical form of a JSON text.
pub fn canonical(text: &str) -> Result<String, CanonicalError> {
    let mut parser = Parser {
        text,
        bytes: text.as_bytes(),
        at: 0,
    };
    parser.skip_whitespace();
    let document = parser.value()?;
    parser.skip_whitespace();
    if parser.at < parser.bytes.len() {
        return Err(parser.error("extra text after the JSON value"));
    }
    let mut out = String::with_capacity(text.len());
    render(&document, 0, &mut out);
    out.push('\n');
    Ok(out)
}

/// Where a text first differs from its canonical form.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Difference {
    /// 1-based line and column (in characters) of the first difference.
    pub line: usize,
    pub column: usize,
    /// That line as the file has it and as the canonical form has it;
    /// `None` past the end of the text.
    pub found: Option<String>,
    pub expected: Option<String>,
}

impl fmt::Display for Difference {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let show = |line: &Option<String>| match line {
            Some(line) => format!("{line:?}"),
            None => "(end of file)".to_owned(),
        };
        write!(
            f,
            "line {}, column {}: the file has\n    {}\n  the canonical form has\n    {}",
            self.line,
            self.column,
            show(&self.found),
            show(&self.expected)
        )
    }
}

/// The first place where `found` differs from `expected`, line by line;
/// `None` when they are equal.
pub fn first_difference(found: &str, expected: &str) -> Option<Difference> {
    if found == expected {
        return None;
    }
    let mut found_lines = found.split_inclusive('\n');
    let mut expected_lines = expected.split_inclusive('\n');
    let mut line = 1;
    loop {
        match (found_lines.next(), expected_lines.next()) {
            (Some(a), Some(b)) if a == b => line += 1,
            (a, b) => {
                let column = match (a, b) {
                    (Some(a), Some(b)) => {
                        a.chars().zip(b.chars()).take_while(|(x, y)| x == y).count() + 1
                    }
                    _ => 1,
                };
                let strip = |line: &str| line.strip_suffix('\n').unwrap_or(line).to_owned();
                return Some(Difference {
                    line,
                    column,
                    found: a.map(strip),
                    expected: b.map(strip),
                });
            }
        }
    }
}

/// A parsed JSON value that keeps what the canonical form needs: key order,
/// and numbers already in their canonical spelling.
enum Node {
    Literal(&'static str),
    Number(String),
    String(String),
    Array(Vec<Node>),
    Object(Vec<(String, Node)>),
}

/// Below this depth containers are written one entry per line.
const EXPANDED_DEPTH: usize = 3;

fn render(node: &Node, depth: usize, out: &mut String) {
    let expand = depth < EXPANDED_DEPTH
        && match node {
            Node::Array(items) => !items.is_empty(),
            Node::Object(entries) => !entries.is_empty(),
            _ => false,
        };
    if !expand {
        render_inline(node, out);
        return;
    }
    let pad = "  ".repeat(depth + 1);
    let (open, close) = match node {
        Node::Array(_) => ('[', ']'),
        _ => ('{', '}'),
    };
    out.push(open);
    out.push('\n');
    let mut first = true;
    let mut separate = |out: &mut String| {
        if !first {
            out.push_str(",\n");
        }
        first = false;
        out.push_str(&pad);
    };
    match node {
        Node::Array(items) => {
            for item in items {
                separate(out);
                render(item, depth + 1, out);
            }
        }
        Node::Object(entries) => {
            for (key, value) in entries {
                separate(out);
                write_string(key, out);
                out.push_str(": ");
                render(value, depth + 1, out);
            }
        }
        _ => unreachable!("only containers are expanded"),
    }
    out.push('\n');
    out.push_str(&"  ".repeat(depth));
    out.push(close);
}

fn render_inline(node: &Node, out: &mut String) {
    match node {
        Node::Literal(literal) => out.push_str(literal),
        Node::Number(number) => out.push_str(number),
        Node::String(text) => write_string(text, out),
        Node::Array(items) => {
            out.push('[');
            for (index, item) in items.iter().enumerate() {
                if index > 0 {
                    out.push_str(", ");
                }
                render_inline(item, out);
            }
            out.push(']');
        }
        Node::Object(entries) => {
            out.push('{');
            for (index, (key, value)) in entries.iter().enumerate() {
                if index > 0 {
                    out.push_str(", ");
                }
                write_string(key, out);
                out.push_str(": ");
                render_inline(value, out);
            }
            out.push('}');
        }
    }
}

/// The characters besides printable ASCII written as themselves:
/// placeholders, the ellipsis, quote marks and dashes.
const READABLE: &str = "‹›…«»“”‘’„‚「」『』—–";

/// Whether a character inside a string is written as itself.
fn is_readable(c: char) -> bool {
    match u32::from(c) {
        0x20..=0x7e => true,
        0..=0x7f => false,
        0x3040..=0x30ff | 0x4e00..=0x9fff => true,
        _ => READABLE.contains(c),
    }
}

fn write_string(text: &str, out: &mut String) {
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            c if is_readable(c) => out.push(c),
            c => {
                let mut units = [0u16; 2];
                for unit in c.encode_utf16(&mut units) {
                    // Writing to a String cannot fail.
                    let _ = write!(out, "\\u{unit:04x}");
                }
            }
        }
    }
    out.push('"');
}

/// A double as Python's `repr` writes it: the shortest digits that read
/// back as the same double, in positional notation when the decimal point
/// falls between 4 places left of the first digit and 16 places right of
/// it, else as `d.ddde±XX`.
fn python_float_repr(value: f64) -> String {
    if value == 0.0 {
        return if value.is_sign_negative() {
            "-0.0"
        } else {
            "0.0"
        }
        .to_owned();
    }
    // Rust's `{:e}` writes the shortest digits that read back as `value`,
    // but breaks a tie between two equally close ones upwards, where
    // Python takes the even one. Both have the same length, so the
    // correctly rounded (half-to-even) decimal of that length is Python's,
    // unless it does not read back (near a power of two the interval
    // below a double is half as wide as the one above).
    let shortest = format!("{value:e}");
    let length = shortest.split_once('e').map_or(0, |(mantissa, _)| {
        mantissa.bytes().filter(u8::is_ascii_digit).count()
    });
    let rounded = format!("{value:.*e}", length.saturating_sub(1));
    let scientific = if rounded.parse::<f64>() == Ok(value) {
        rounded
    } else {
        shortest
    };
    let (mantissa, exponent) = scientific
        .split_once('e')
        .expect("`{:e}` always writes an exponent");
    let exponent: i32 = exponent.parse().expect("`{:e}` writes an integer exponent");
    let (sign, mantissa) = match mantissa.strip_prefix('-') {
        Some(rest) => ("-", rest),
        None => ("", mantissa),
    };
    let digits: String = mantissa.chars().filter(|c| *c != '.').collect();
    let point = exponent + 1;
    let mut out = String::from(sign);
    if point <= -4 || point > 16 {
        out.push_str(&digits[..1]);
        if digits.len() > 1 {
            out.push('.');
            out.push_str(&digits[1..]);
        }
        let _ = write!(
            out,
            "e{}{:02}",
            if exponent < 0 { '-' } else { '+' },
            exponent.abs()
        );
    } else if point <= 0 {
        out.push_str("0.");
        out.push_str(&"0".repeat(point.unsigned_abs() as usize));
        out.push_str(&digits);
    } else {
        let point = point as usize;
        if point >= digits.len() {
            out.push_str(&digits);
            out.push_str(&"0".repeat(point - digits.len()));
            out.push_str(".0");
        } else {
            out.push_str(&digits[..point]);
            out.push('.');
            out.push_str(&digits[point..]);
        }
    }
    out
}

/// A strict RFC 8259 parser: no comments, no trailing commas, no NaN.
struct Parser<'t> {
    text: &'t str,
    bytes: &'t [u8],
    at: usize,
}

impl Parser<'_> {
    fn error(&self, message: impl Into<String>) -> CanonicalError {
        self.error_at(self.at, message)
    }

    fn error_at(&self, at: usize, message: impl Into<String>) -> CanonicalError {
        let mut at = at.min(self.text.len());
        while !self.text.is_char_boundary(at) {
            at -= 1;
        }
        let before = &self.text[..at];
        let line = before.matches('\n').count() + 1;
        let line_start = before.rfind('\n').map_or(0, |index| index + 1);
        CanonicalError {
            line,
            column: before[line_start..].chars().count() + 1,
            message: message.into(),
        }
    }

    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.at).copied()
    }

    fn skip_whitespace(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            self.at += 1;
        }
    }

    fn expect(&mut self, byte: u8, what: &str) -> Result<(), CanonicalError> {
        if self.peek() == Some(byte) {
            self.at += 1;
            Ok(())
        } else {
            Err(self.error(format!("expected {what}")))
        }
    }

    fn value(&mut self) -> Result<Node, CanonicalError> {
        match self.peek() {
            Some(b'{') => self.object(),
            Some(b'[') => self.array(),
            Some(b'"') => self.string().map(Node::String),
            Some(b'-' | b'0'..=b'9') => self.number(),
            Some(_) => {
                for literal in ["true", "false", "null"] {
                    if self.bytes[self.at..].starts_with(literal.as_bytes()) {
                        self.at += literal.len();
                        return Ok(Node::Literal(literal));
                    }
                }
                Err(self.error("expected a JSON value"))
            }
            None => Err(self.error("the text ends where a value should be")),
        }
    }

    fn object(&mut self) -> Result<Node, CanonicalError> {
        self.at += 1;
        let mut entries: Vec<(String, Node)> = Vec::new();
        self.skip_whitespace();
        if self.peek() == Some(b'}') {
            self.at += 1;
            return Ok(Node::Object(entries));
        }
        loop {
            self.skip_whitespace();
            let key_at = self.at;
            if self.peek() != Some(b'"') {
                return Err(self.error("expected a string key"));
            }
            let key = self.string()?;
            if entries.iter().any(|(existing, _)| *existing == key) {
                return Err(self.error_at(key_at, format!("the key {key:?} is repeated")));
            }
            self.skip_whitespace();
            self.expect(b':', "':'")?;
            self.skip_whitespace();
            let value = self.value()?;
            entries.push((key, value));
            self.skip_whitespace();
            match self.peek() {
                Some(b',') => self.at += 1,
                Some(b'}') => {
                    self.at += 1;
                    return Ok(Node::Object(entries));
                }
                _ => return Err(self.error("expected ',' or '}'")),
            }
        }
    }

    fn array(&mut self) -> Result<Node, CanonicalError> {
        self.at += 1;
        let mut items = Vec::new();
        self.skip_whitespace();
        if self.peek() == Some(b']') {
            self.at += 1;
            return Ok(Node::Array(items));
        }
        loop {
            self.skip_whitespace();
            items.push(self.value()?);
            self.skip_whitespace();
            match self.peek() {
                Some(b',') => self.at += 1,
                Some(b']') => {
                    self.at += 1;
                    return Ok(Node::Array(items));
                }
                _ => return Err(self.error("expected ',' or ']'")),
            }
        }
    }

    fn number(&mut self) -> Result<Node, CanonicalError> {
        let start = self.at;
        let digits = |parser: &mut Self| {
            let from = parser.at;
            while matches!(parser.peek(), Some(b'0'..=b'9')) {
                parser.at += 1;
            }
            parser.at - from
        };
        if self.peek() == Some(b'-') {
            self.at += 1;
        }
        let integer_start = self.at;
        match digits(self) {
            0 => return Err(self.error("expected a digit")),
            n if n > 1 && self.bytes[integer_start] == b'0' => {
                return Err(self.error_at(integer_start, "a number has a leading zero"));
            }
            _ => {}
        }
        let mut is_float = false;
        if self.peek() == Some(b'.') {
            self.at += 1;
            is_float = true;
            if digits(self) == 0 {
                return Err(self.error("expected a digit after the decimal point"));
            }
        }
        if matches!(self.peek(), Some(b'e' | b'E')) {
            self.at += 1;
            is_float = true;
            if matches!(self.peek(), Some(b'+' | b'-')) {
                self.at += 1;
            }
            if digits(self) == 0 {
                return Err(self.error("expected a digit in the exponent"));
            }
        }
        let literal = &self.text[start..self.at];
        if !is_float {
            // Python reads an integer as an int: `-0` is `0`.
            let canonical = if literal == "-0" { "0" } else { literal };
            return Ok(Node::Number(canonical.to_owned()));
        }
        let value: f64 = literal
            .parse()
            .map_err(|_| self.error_at(start, "not a number"))?;
        if !value.is_finite() {
            return Err(self.error_at(start, format!("{literal} does not fit a double")));
        }
        Ok(Node::Number(python_float_repr(value)))
    }

    fn hex4(&mut self) -> Result<u16, CanonicalError> {
        let hex = self
            .text
            .get(self.at..self.at + 4)
            .filter(|hex| hex.bytes().all(|b| b.is_ascii_hexdigit()))
            .ok_or_else(|| self.error("expected four hex digits after \\u"))?;
        self.at += 4;
        Ok(u16::from_str_radix(hex, 16).expect("four hex digits"))
    }

    fn string(&mut self) -> Result<String, CanonicalError> {
        self.at += 1;
        let mut out = String::new();
        loop {
            let run_start = self.at;
            while let Some(byte) = self.peek() {
                if byte == b'"' || byte == b'\\' || byte < 0x20 {
                    break;
                }
                self.at += 1;
            }
            out.push_str(&self.text[run_start..self.at]);
            match self.peek() {
                None => return Err(self.error("the text ends inside a string")),
                Some(b'"') => {
                    self.at += 1;
                    return Ok(out);
                }
                Some(b'\\') => {
                    let escape_at = self.at;
                    self.at += 1;
                    let escaped = self.peek();
                    self.at += 1;
                    match escaped {
                        Some(b'"') => out.push('"'),
                        Some(b'\\') => out.push('\\'),
                        Some(b'/') => out.push('/'),
                        Some(b'b') => out.push('\u{8}'),
                        Some(b'f') => out.push('\u{c}'),
                        Some(b'n') => out.push('\n'),
                        Some(b'r') => out.push('\r'),
                        Some(b't') => out.push('\t'),
                        Some(b'u') => {
                            let unit = self.hex4()?;
                            let c = match unit {
                                0xd800..=0xdbff => {
                                    if !self.bytes[self.at..].starts_with(b"\\u") {
                                        return Err(self.error_at(escape_at, "a lone surrogate"));
                                    }
                                    self.at += 2;
                                    let low = self.hex4()?;
                                    if !(0xdc00..=0xdfff).contains(&low) {
                                        return Err(self.error_at(escape_at, "a lone surrogate"));
                                    }
                                    let code = 0x10000
                                        + ((u32::from(unit) - 0xd800) << 10)
                                        + (u32::from(low) - 0xdc00);
                                    char::from_u32(code).expect("a surrogate pair is a char")
                                }
                                0xdc00..=0xdfff => {
                                    return Err(self.error_at(escape_at, "a lone surrogate"));
                                }
                                unit => char::from_u32(u32::from(unit))
                                    .expect("a non-surrogate code unit is a char"),
                            };
                            out.push(c);
                        }
                        _ => return Err(self.error_at(escape_at, "an unknown escape")),
                    }
                }
                Some(_) => {
                    return Err(self.error("a raw control character inside a string"));
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn canon(text: &str) -> String {
        canonical(text).unwrap_or_else(|error| panic!("{text}: {error}"))
    }

    #[test]
    fn top_levels_are_expanded_and_deeper_values_inlined() {
        let text = r#"{"a":1,"notes":{"f":{"description":"d","effect":"e"}},"cases":[{"id":"x","input":{"k":[1,{"z":[]}]}}],"empty":[],"o":{}}"#;
        assert_eq!(
            canon(text),
            "{\n  \"a\": 1,\n  \"notes\": {\n    \"f\": {\n      \"description\": \"d\",\n      \"effect\": \"e\"\n    }\n  },\n  \"cases\": [\n    {\n      \"id\": \"x\",\n      \"input\": {\"k\": [1, {\"z\": []}]}\n    }\n  ],\n  \"empty\": [],\n  \"o\": {}\n}\n"
        );
    }

    #[test]
    fn canonical_text_is_a_fixed_point() {
        let once = canon(r#"{"cases":[{"a":"\u2028 ‹x› \u0001 é 😀 \\ \" /"}]}"#);
        assert_eq!(canon(&once), once);
    }

    #[test]
    fn strings_escape_what_a_reviewer_cannot_see() {
        assert_eq!(
            canon(r#""a\/b\u00e9\u200b‹›—\u007f\t\u0001😀ア漢""#),
            "\"a/b\\u00e9\\u200b‹›—\\u007f\\t\\u0001\\ud83d\\ude00ア漢\"\n"
        );
    }

    #[test]
    fn numbers_are_written_as_python_writes_them() {
        let cases = [
            ("0", "0"),
            ("-0", "0"),
            ("-0.0", "-0.0"),
            ("12345678901234567890123", "12345678901234567890123"),
            ("2.", ""),
            ("1.0", "1.0"),
            ("1E2", "100.0"),
            ("1e16", "1e+16"),
            ("1e15", "1000000000000000.0"),
            ("0.0001", "0.0001"),
            ("0.00001", "1e-05"),
            ("1.5e-10", "1.5e-10"),
            ("9223372036854775808.0", "9.223372036854776e+18"),
            ("123.456", "123.456"),
            ("1e-400", "0.0"),
            ("1e100", "1e+100"),
            // A tie between two shortest spellings goes to the even digit.
            ("-1113178120592002.25", "-1113178120592002.2"),
            ("0.5e-323", "5e-324"),
        ];
        for (literal, expected) in cases {
            if expected.is_empty() {
                assert!(canonical(literal).is_err(), "{literal}");
            } else {
                assert_eq!(canon(literal), format!("{expected}\n"), "{literal}");
            }
        }
    }

    #[test]
    fn what_is_not_json_is_an_error_with_its_place() {
        for text in [
            "{\"a\": 1,}",
            "{\"a\": 1, \"a\": 2}",
            "[01]",
            "\"\\ud800\"",
            "\"a\u{1}\"",
            "1e400",
            "NaN",
            "{} x",
            "\u{feff}{}",
        ] {
            assert!(canonical(text).is_err(), "{text:?} was accepted");
        }
        let error = canonical("{\n  \"a\": 1,\n  \"a\": 2\n}").expect_err("a repeated key");
        assert_eq!((error.line, error.column), (3, 3), "{error}");
    }

    #[test]
    fn first_difference_names_line_and_column() {
        assert_eq!(first_difference("a\nb\n", "a\nb\n"), None);
        let difference = first_difference("a\nbxc\n", "a\nbyc\n").expect("they differ");
        assert_eq!((difference.line, difference.column), (2, 2));
        assert_eq!(difference.found.as_deref(), Some("bxc"));
        let shorter = first_difference("a\n", "a\nb\n").expect("they differ");
        assert_eq!((shorter.line, shorter.found), (2, None));
    }
}
