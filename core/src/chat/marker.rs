//! The role-marker grammar: what makes a line a marker, read exactly.
//!
//! ```text
//! marker := WS* ('#' WS*)? role ('[' attrs? ']')? WS* ':' WS*      (the whole line)
//! role   := system | user | assistant                         (ASCII, any case)
//! attrs  := attr (WS* ',' WS* attr)* WS* ','? WS*
//! attr   := WS* key WS* '=' WS* value
//! key    := [A-Za-z0-9_]+
//! value  := '"' [^"]* '"'  |  [^",\]]*   (unquoted: trimmed)
//! WS     := space | tab
//! ```
//!
//! Quoted values may hold `,` and `]` (every upstream port cut them there).
//! Only ASCII spelling counts here; look-alikes are the strict mode's
//! concern (see `suspect`).

use smallvec::SmallVec;

use super::Role;

/// One `key=value` of an attribute block, as written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Attribute<'a> {
    pub key: &'a str,
    /// The value without its quotes; unquoted values are trimmed.
    pub value: &'a str,
    /// The attribute as the author wrote it, for writing it back.
    pub raw: &'a str,
}

/// The attributes of one marker: held inline up to two (pre-render's
/// nonce and one of the author's), as every marker line of a parse is read
/// into one and an allocation would cost more than reading the line.
pub(crate) type Attributes<'a> = SmallVec<[Attribute<'a>; 2]>;

/// A marker line, read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Marker<'a> {
    pub role: Role,
    pub attributes: Attributes<'a>,
}

impl<'a> Marker<'a> {
    /// The values of every `nonce` attribute, in order.
    pub fn nonces(&self) -> impl Iterator<Item = &'a str> + '_ {
        self.attributes
            .iter()
            .filter(|attribute| attribute.key == super::NONCE_KEY)
            .map(|attribute| attribute.value)
    }
}

fn is_space(b: u8) -> bool {
    b == b' ' || b == b'\t'
}

/// A cursor over the bytes of one line.
struct Reader<'a> {
    line: &'a str,
    at: usize,
}

impl<'a> Reader<'a> {
    fn peek(&self) -> Option<u8> {
        self.line.as_bytes().get(self.at).copied()
    }

    fn rest(&self) -> &'a [u8] {
        self.line.as_bytes().get(self.at..).unwrap_or_default()
    }

    fn skip_spaces(&mut self) {
        self.at += self.rest().iter().take_while(|&&b| is_space(b)).count();
    }

    fn eat(&mut self, byte: u8) -> bool {
        if self.peek() == Some(byte) {
            self.at += 1;
            true
        } else {
            false
        }
    }

    fn role(&mut self) -> Option<Role> {
        let rest = self.rest();
        for role in Role::ALL {
            let name = role.as_str().as_bytes();
            if rest.len() >= name.len() && rest[..name.len()].eq_ignore_ascii_case(name) {
                self.at += name.len();
                return Some(role);
            }
        }
        None
    }

    /// Bytes up to the first one `stop` holds for (or the line's end);
    /// all ASCII tests, so the cut is on a char boundary.
    fn take_until(&mut self, stop: impl Fn(u8) -> bool) -> &'a str {
        let start = self.at;
        self.at += self
            .rest()
            .iter()
            .position(|&b| stop(b))
            .unwrap_or(self.rest().len());
        &self.line[start..self.at]
    }

    fn attribute(&mut self) -> Option<Attribute<'a>> {
        let start = self.at;
        let key = self.take_until(|b| !(b.is_ascii_alphanumeric() || b == b'_'));
        if key.is_empty() {
            return None;
        }
        self.skip_spaces();
        if !self.eat(b'=') {
            return None;
        }
        self.skip_spaces();
        let value = if self.eat(b'"') {
            let value = self.take_until(|b| b == b'"');
            if !self.eat(b'"') {
                return None;
            }
            value
        } else {
            let value = self.take_until(|b| matches!(b, b'"' | b',' | b']'));
            if self.peek() == Some(b'"') {
                return None;
            }
            value.trim_matches(|c| c == ' ' || c == '\t')
        };
        let raw = self.line[start..self.at].trim_end_matches([' ', '\t']);
        Some(Attribute { key, value, raw })
    }

    /// The block after `[`, through its `]`.
    fn attributes(&mut self) -> Option<Attributes<'a>> {
        let mut attributes = Attributes::new();
        loop {
            self.skip_spaces();
            if self.eat(b']') {
                return Some(attributes);
            }
            attributes.push(self.attribute()?);
            self.skip_spaces();
            if self.eat(b']') {
                return Some(attributes);
            }
            if !self.eat(b',') {
                return None;
            }
        }
    }
}

/// The marker this line is, if it is one. `line` holds no line break.
pub(crate) fn parse_marker(line: &str) -> Option<Marker<'_>> {
    if !ends_as_a_marker(line.as_bytes()) {
        return None;
    }
    read_marker(line)
}

/// Whether the line `bytes` ends as a marker does, with `:` before spaces:
/// the cheap rejection of [`parse_marker`]. Every line of a parse comes
/// here, and almost none is a marker: it is inlined into the line loop,
/// and only the lines it lets through pay for a call.
#[inline]
pub(crate) fn ends_as_a_marker(bytes: &[u8]) -> bool {
    // The last byte alone tells nearly every line.
    match bytes.last() {
        Some(b':') => true,
        Some(&b) if is_space(b) => {
            let last = bytes
                .iter()
                .rposition(|&b| !is_space(b))
                .map(|at| bytes[at]);
            last == Some(b':')
        }
        _ => false,
    }
}

/// [`parse_marker`] past its cheap rejection.
#[inline(never)]
pub(crate) fn read_marker(line: &str) -> Option<Marker<'_>> {
    let mut reader = Reader { line, at: 0 };
    reader.skip_spaces();
    if reader.eat(b'#') {
        reader.skip_spaces();
    }
    let role = reader.role()?;
    let attributes = if reader.eat(b'[') {
        reader.attributes()?
    } else {
        Attributes::new()
    };
    reader.skip_spaces();
    if !reader.eat(b':') {
        return None;
    }
    reader.skip_spaces();
    (reader.at == line.len()).then_some(Marker { role, attributes })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn attrs(line: &str) -> Vec<(&str, &str)> {
        parse_marker(line)
            .expect("a marker")
            .attributes
            .iter()
            .map(|a| (a.key, a.value))
            .collect()
    }

    #[test]
    fn bare_markers_in_every_allowed_spelling() {
        for line in ["user:", "  USER :  ", "# user:", "\t#\tUser\t:", "user[]:"] {
            assert_eq!(
                parse_marker(line).map(|m| m.role),
                Some(Role::User),
                "{line:?}"
            );
        }
    }

    #[test]
    fn other_words_and_trailing_text_are_not_markers() {
        for line in [
            "developer:",
            "tool:",
            "users:",
            "user: hello",
            "## user:",
            "user [a=b]:",
            "uſer:",
            "\u{feff}user:",
            "user",
        ] {
            assert_eq!(parse_marker(line), None, "{line:?}");
        }
    }

    #[test]
    fn quoted_value_keeps_comma_and_bracket() {
        // Every upstream port cut `name="A, B"` at the comma.
        assert_eq!(
            attrs(r#"user[name="A, B]", id=7]:"#),
            [("name", "A, B]"), ("id", "7")]
        );
    }

    #[test]
    fn unquoted_value_is_trimmed_and_raw_is_kept() {
        let marker = parse_marker("user[ name =  Bob , x=\"y\" ,]:").expect("a marker");
        assert_eq!(marker.attributes[0].value, "Bob");
        assert_eq!(marker.attributes[0].raw, "name =  Bob");
        assert_eq!(marker.attributes[1].raw, "x=\"y\"");
    }

    #[test]
    fn malformed_blocks_are_not_markers() {
        for line in [
            "user[name=\"unterminated]:",
            "user[=x]:",
            "user[a b=c]:",
            "user[a=b\"c]:",
            "user[a=b:",
            "user[a=b][c=d]:",
        ] {
            assert_eq!(parse_marker(line), None, "{line:?}");
        }
    }
}
