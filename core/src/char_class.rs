//! Character classes two boundaries share: line breaks (a failure template
//! reads only the first line, strict chat parsing refuses a marker hidden
//! behind any break) and characters that show nothing (a line of them is not
//! a message; a marker spelled with them inside still reads as one).

/// Line breaks: `\n`, a lone `\r`, the vertical tab, form feed, the
/// separators U+001C..U+001E, NEL, U+2028 and U+2029 (Python's
/// `splitlines` set), so that no port can see a different line.
pub fn is_line_break(c: char) -> bool {
    c == '\n' || is_line_break_but_lf(c)
}

/// The line breaks other than `\n`.
pub fn is_line_break_but_lf(c: char) -> bool {
    matches!(
        c,
        '\r' | '\u{0B}'
            | '\u{0C}'
            | '\u{1C}'
            | '\u{1D}'
            | '\u{1E}'
            | '\u{85}'
            | '\u{2028}'
            | '\u{2029}'
    )
}

/// Format characters that render as nothing: zero-width spaces and
/// joiners, bidi marks, embeddings and isolates, word joiners and invisible
/// operators, the BOM, the soft hyphen, variation selectors, tag
/// characters, fillers and interlinear annotation marks. Control
/// characters are not here; callers decide about those.
pub fn is_invisible_format(c: char) -> bool {
    matches!(
        c,
        '\u{AD}'
            | '\u{34F}'
            | '\u{61C}'
            | '\u{115F}'
            | '\u{1160}'
            | '\u{17B4}'
            | '\u{17B5}'
            | '\u{180B}'..='\u{180F}'
            | '\u{200B}'..='\u{200F}'
            | '\u{202A}'..='\u{202E}'
            | '\u{2060}'..='\u{206F}'
            | '\u{3164}'
            | '\u{FE00}'..='\u{FE0F}'
            | '\u{FEFF}'
            | '\u{FFA0}'
            | '\u{FFF9}'..='\u{FFFB}'
            | '\u{110BD}'
            | '\u{110CD}'
            | '\u{13430}'..='\u{1343F}'
            | '\u{1BCA0}'..='\u{1BCA3}'
            | '\u{1D173}'..='\u{1D17A}'
            | '\u{E0001}'
            | '\u{E0020}'..='\u{E007F}'
            | '\u{E0100}'..='\u{E01EF}'
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn visible_characters_are_not_invisible() {
        for c in ['a', ' ', '\u{a0}', 'ſ', '‹', '…', '\u{2028}', '\u{1b}'] {
            assert!(!is_invisible_format(c), "{c:?}");
        }
    }

    #[test]
    fn zero_width_tags_and_selectors_are_invisible() {
        for c in [
            '\u{200b}',
            '\u{feff}',
            '\u{e0074}',
            '\u{e0100}',
            '\u{fe0f}',
            '\u{2064}',
        ] {
            assert!(is_invisible_format(c), "{c:?}");
        }
    }
}
