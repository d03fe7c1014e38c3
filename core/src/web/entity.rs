//! HTML character references, read the way a lenient HTML reader (or a
//! model) reads them: both the strip layer's normalization and the
//! envelope's tag check must see `&#105;gnore` as `ignore`.

/// Named references a page is likely to use to spell a marker: the
/// markup-significant ones, spaces and invisible ones, quotes and dashes,
/// and the Latin letters with diacritics (which normalization folds).
const NAMED: &[(&str, char)] = &[
    ("amp", '&'),
    ("lt", '<'),
    ("gt", '>'),
    ("quot", '"'),
    // HTML also knows these four in capitals.
    ("AMP", '&'),
    ("LT", '<'),
    ("GT", '>'),
    ("QUOT", '"'),
    ("apos", '\''),
    ("nbsp", '\u{A0}'),
    ("ensp", '\u{2002}'),
    ("emsp", '\u{2003}'),
    ("thinsp", '\u{2009}'),
    ("shy", '\u{AD}'),
    ("zwsp", '\u{200B}'),
    ("zwnj", '\u{200C}'),
    ("zwj", '\u{200D}'),
    ("lrm", '\u{200E}'),
    ("rlm", '\u{200F}'),
    ("NoBreak", '\u{2060}'),
    ("Tab", '\t'),
    ("NewLine", '\n'),
    ("lowbar", '_'),
    ("UnderBar", '_'),
    ("hyphen", '\u{2010}'),
    ("dash", '\u{2010}'),
    ("ndash", '\u{2013}'),
    ("mdash", '\u{2014}'),
    ("colon", ':'),
    ("semi", ';'),
    ("comma", ','),
    ("period", '.'),
    ("excl", '!'),
    ("quest", '?'),
    ("num", '#'),
    ("vert", '|'),
    ("verbar", '|'),
    ("VerticalLine", '|'),
    ("lsqb", '['),
    ("lbrack", '['),
    ("rsqb", ']'),
    ("rbrack", ']'),
    ("lpar", '('),
    ("rpar", ')'),
    ("sol", '/'),
    ("bsol", '\\'),
    ("ast", '*'),
    ("midast", '*'),
    ("equals", '='),
    ("lsquo", '\u{2018}'),
    ("rsquo", '\u{2019}'),
    ("ldquo", '\u{201C}'),
    ("rdquo", '\u{201D}'),
    ("laquo", '\u{AB}'),
    ("raquo", '\u{BB}'),
    ("lsaquo", '\u{2039}'),
    ("rsaquo", '\u{203A}'),
    ("hellip", '\u{2026}'),
    ("middot", '\u{B7}'),
    ("bull", '\u{2022}'),
    ("copy", '\u{A9}'),
    ("reg", '\u{AE}'),
    ("trade", '\u{2122}'),
    ("iexcl", '\u{A1}'),
    ("iquest", '\u{BF}'),
    ("szlig", '\u{DF}'),
    ("aacute", '\u{E1}'),
    ("agrave", '\u{E0}'),
    ("acirc", '\u{E2}'),
    ("auml", '\u{E4}'),
    ("atilde", '\u{E3}'),
    ("aring", '\u{E5}'),
    ("ccedil", '\u{E7}'),
    ("eacute", '\u{E9}'),
    ("egrave", '\u{E8}'),
    ("ecirc", '\u{EA}'),
    ("euml", '\u{EB}'),
    ("iacute", '\u{ED}'),
    ("igrave", '\u{EC}'),
    ("icirc", '\u{EE}'),
    ("iuml", '\u{EF}'),
    ("ntilde", '\u{F1}'),
    ("oacute", '\u{F3}'),
    ("ograve", '\u{F2}'),
    ("ocirc", '\u{F4}'),
    ("ouml", '\u{F6}'),
    ("otilde", '\u{F5}'),
    ("oslash", '\u{F8}'),
    ("uacute", '\u{FA}'),
    ("ugrave", '\u{F9}'),
    ("ucirc", '\u{FB}'),
    ("uuml", '\u{FC}'),
    ("yacute", '\u{FD}'),
    ("yuml", '\u{FF}'),
    ("Aacute", '\u{C1}'),
    ("Agrave", '\u{C0}'),
    ("Auml", '\u{C4}'),
    ("Eacute", '\u{C9}'),
    ("Egrave", '\u{C8}'),
    ("Iacute", '\u{CD}'),
    ("Ntilde", '\u{D1}'),
    ("Oacute", '\u{D3}'),
    ("Ouml", '\u{D6}'),
    ("Uacute", '\u{DA}'),
    ("Uuml", '\u{DC}'),
];

/// Names that HTML also reads without the `;` (a subset of its legacy
/// list: the ones that can spell markup).
const BARE_NAMES: &[&str] = &["amp", "lt", "gt", "quot", "nbsp", "AMP", "LT", "GT", "QUOT"];

/// Longest entity looked at, in bytes: `&#x0000000010FFFF;` and the longest
/// name fit.
const MAX_ENTITY_LEN: usize = 20;

/// Reads a character reference at the start of `text` (which must start
/// with `&`): the character it stands for and its length in bytes. Numeric
/// references may lack the `;`, as HTML allows; so may the few names in
/// [`BARE_NAMES`]. A reference to U+0000, a surrogate or past U+10FFFF is
/// not one.
pub fn decode_at(text: &str) -> Option<(char, usize)> {
    let (c, len) = decode_after_ampersand(text.strip_prefix('&')?)?;
    Some((c, len + 1))
}

/// [`decode_at`] for the text after the `&`; the length excludes the `&`.
pub fn decode_after_ampersand(body: &str) -> Option<(char, usize)> {
    if let Some(number) = body.strip_prefix('#') {
        let (digits, radix, skip) = match number.strip_prefix(['x', 'X']) {
            Some(hex) => (hex, 16, 2),
            None => (number, 10, 1),
        };
        let len = digits
            .bytes()
            .take_while(|b| b.is_ascii_digit() || (radix == 16 && b.is_ascii_hexdigit()))
            .count();
        if len == 0 || len > MAX_ENTITY_LEN {
            return None;
        }
        let code = u32::from_str_radix(&digits[..len], radix).ok()?;
        let c = char::from_u32(code).filter(|&c| c != '\0')?;
        let semicolon = usize::from(digits[len..].starts_with(';'));
        return Some((c, skip + len + semicolon));
    }
    let name_len = body
        .bytes()
        .take(MAX_ENTITY_LEN)
        .take_while(u8::is_ascii_alphanumeric)
        .count();
    let name = &body[..name_len];
    if body[name_len..].starts_with(';')
        && let Some(&(_, c)) = NAMED.iter().find(|(known, _)| *known == name)
    {
        return Some((c, name_len + 1));
    }
    // `&ltuntrusted` reads as `<untrusted` to an HTML parser: the longest
    // bare name that prefixes the word wins.
    BARE_NAMES
        .iter()
        .filter(|bare| name.starts_with(**bare))
        .max_by_key(|bare| bare.len())
        .and_then(|bare| NAMED.iter().find(|(known, _)| known == bare))
        .map(|&(known, c)| (c, known.len()))
}

#[cfg(test)]
mod tests {
    use super::decode_at;

    #[test]
    fn numeric_named_and_bare_references_decode() {
        assert_eq!(decode_at("&#105;gnore"), Some(('i', 6)));
        assert_eq!(decode_at("&#x69gnore"), Some(('i', 5)));
        assert_eq!(decode_at("&#X3C;"), Some(('<', 6)));
        assert_eq!(decode_at("&nbsp;x"), Some(('\u{A0}', 6)));
        assert_eq!(decode_at("&ltuntrusted"), Some(('<', 3)));
        assert_eq!(decode_at("&amp;lt;"), Some(('&', 5)));
    }

    #[test]
    fn non_references_are_refused() {
        for text in [
            "&",
            "&;",
            "&#;",
            "&#x;",
            "&#0;",
            "&#xD800;",
            "&#x110000;",
            "&bogus;",
            "&#99999999999999999999999;",
        ] {
            assert_eq!(decode_at(text), None, "{text:?}");
        }
    }
}
