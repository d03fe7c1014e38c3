//! A minimal renderer: `{{ name }}` becomes the value of `name`, inserted
//! verbatim. It exists so that the whole strict flow (pre-render, render
//! with untrusted values, parse) runs in tests, fuzzing, the CLI and the
//! vectors; it is not a template language. Values are never re-read, so a
//! value holding `{{other}}` stays as written.

use std::collections::BTreeMap;

use super::ChatError;

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
    while let Some(open) = rest.find("{{") {
        let after = &rest[open + 2..];
        let Some(close) = after.find("}}") else {
            break;
        };
        let name = after[..close].trim_matches([' ', '\t']);
        if !is_name(name) {
            out.push_str(&rest[..open + 2]);
            rest = after;
            continue;
        }
        let value = values.get(name).ok_or_else(|| ChatError::UnknownVariable {
            name: name.to_string(),
        })?;
        out.push_str(&rest[..open]);
        out.push_str(value);
        rest = &after[close + 2..];
    }
    out.push_str(rest);
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn values(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
        pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    }

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
    fn unknown_variable_is_an_error_naming_it() {
        assert_eq!(
            render("{{missing}}", &values(&[])),
            Err(ChatError::UnknownVariable {
                name: "missing".into()
            })
        );
    }
}
