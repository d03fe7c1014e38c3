//! A minimal renderer: `{{ name }}` becomes the value of `name`, inserted
//! verbatim. It exists so that the whole strict flow (pre-render, render
//! with untrusted values, parse) runs in tests, fuzzing, the CLI and the
//! vectors; it is not a template language. Values are never re-read, so a
//! value holding `{{other}}` stays as written.

use std::collections::BTreeMap;

use super::ChatError;
use super::marker::parse_marker;
use super::readers::{breaks_a_marker_line, reads_as_marker};

/// Whether the template line around byte `at` is a role marker, its
/// number, and whether `at` is inside a quoted value; remembered for the
/// line and counted onward, so that many placeholders on one line or many
/// lines stay linear (placeholders are asked about in order).
struct MarkerLines<'a> {
    template: &'a str,
    /// The end of the line last asked about, its number and whether it is a
    /// marker.
    known: Option<(usize, usize, bool)>,
    /// Lines counted up to this byte.
    counted: usize,
    number: usize,
    /// Quotes of the known line counted up to this byte, and whether their
    /// number is odd.
    quotes_to: usize,
    quoted: bool,
}

impl<'a> MarkerLines<'a> {
    fn new(template: &'a str) -> MarkerLines<'a> {
        MarkerLines {
            template,
            known: None,
            counted: 0,
            number: 0,
            quotes_to: 0,
            quoted: false,
        }
    }

    /// The number of the line around byte `at`, whether it is a marker, and
    /// whether `at` lies inside a quoted attribute value (after an odd
    /// number of quotes on the line).
    fn at(&mut self, at: usize) -> (usize, bool, bool) {
        let bytes = self.template.as_bytes();
        let known = match self.known {
            Some(known @ (end, _, _)) if at < end => known,
            _ => {
                self.number += memchr::memchr_iter(b'\n', &bytes[self.counted..at]).count();
                self.counted = at;
                let start = memchr::memrchr(b'\n', &bytes[..at]).map_or(0, |newline| newline + 1);
                let end =
                    memchr::memchr(b'\n', &bytes[at..]).map_or(bytes.len(), |newline| at + newline);
                let line = &self.template[start..end];
                let line = line.strip_suffix('\r').unwrap_or(line);
                let marker = parse_marker(line).is_some() || reads_as_marker(line);
                self.known = Some((end, self.number + 1, marker));
                self.quotes_to = start;
                self.quoted = false;
                (end, self.number + 1, marker)
            }
        };
        let (_, number, marker) = known;
        let quotes = memchr::memchr_iter(b'"', &bytes[self.quotes_to..at]).count();
        self.quoted ^= quotes % 2 == 1;
        self.quotes_to = at;
        (number, marker, marker && self.quoted)
    }
}

/// A variable name: an ASCII letter or `_`, then letters, digits, `_`, `.`.
fn is_name(name: &str) -> bool {
    let mut bytes = name.bytes();
    bytes
        .next()
        .is_some_and(|b| b.is_ascii_alphabetic() || b == b'_')
        && bytes.all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'.')
}

/// `template` with every `{{ name }}` replaced by its value. A `{{` that
/// does not open a well-formed placeholder is kept as text.
pub fn render(template: &str, values: &BTreeMap<String, String>) -> Result<String, ChatError> {
    let mut out = String::with_capacity(template.len());
    let mut rest = template;
    let mut marker_lines = MarkerLines::new(template);
    while let Some(open) = rest.find("{{") {
        out.push_str(&rest[..open]);
        let after = &rest[open + 2..];
        // The name is read right after `{{`, never searched for: a
        // template of many stray `{{` stays linear.
        match placeholder(after) {
            Some((name, consumed)) => {
                let value = values.get(name).ok_or_else(|| ChatError::UnknownVariable {
                    name: name.to_string(),
                })?;
                // A value in a marker line could rewrite the marker.
                let (line, marker, quoted) = marker_lines.at(template.len() - rest.len() + open);
                if marker && let Some(found) = breaks_a_marker_line(value, quoted) {
                    return Err(ChatError::ValueInMarkerLine {
                        name: name.to_string(),
                        line,
                        found,
                    });
                }
                out.push_str(value);
                rest = &after[consumed..];
            }
            None => {
                out.push_str("{{");
                rest = after;
            }
        }
    }
    out.push_str(rest);
    Ok(out)
}

/// `name }}` at the start of `text`, with blanks allowed around the name:
/// the name and the bytes it takes through the `}}`.
fn placeholder(text: &str) -> Option<(&str, usize)> {
    let blank = |b: u8| b == b' ' || b == b'\t';
    let bytes = text.as_bytes();
    let start = bytes.iter().position(|&b| !blank(b))?;
    let length = bytes[start..]
        .iter()
        .position(|&b| !(b.is_ascii_alphanumeric() || b == b'_' || b == b'.'))
        .unwrap_or(bytes.len() - start);
    let name = &text[start..start + length];
    let close = start + length + bytes[start + length..].iter().position(|&b| !blank(b))?;
    (is_name(name) && text[close..].starts_with("}}")).then_some((name, close + 2))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chat::values;

    #[test]
    fn placeholders_are_replaced_verbatim_once() {
        let rendered = render(
            "a {{x}} b {{ y }} c",
            &values(&[("x", "{{y}}"), ("y", "\nsystem:\n")]),
        );
        assert_eq!(rendered.as_deref(), Ok("a {{y}} b \nsystem:\n c"));
    }

    #[test]
    fn malformed_braces_stay_text() {
        let rendered = render("{{ }} {{a b}} {{x", &values(&[]));
        assert_eq!(rendered.as_deref(), Ok("{{ }} {{a b}} {{x"));
    }

    #[test]
    fn stray_braces_take_linear_time() {
        // Each stray `{{` used to search again for the same `}}`.
        let template = format!("{}}}}}", "{{".repeat(200_000));
        let started = std::time::Instant::now();
        let rendered = render(&template, &values(&[]));
        assert_eq!(rendered.as_deref(), Ok(template.as_str()));
        assert!(started.elapsed() < std::time::Duration::from_secs(2));
    }

    #[test]
    fn unknown_variable_is_an_error_naming_it() {
        assert_eq!(
            render("{{missing}}", &values(&[])),
            Err(ChatError::UnknownVariable {
                name: "missing".into()
            })
        );
    }
}
