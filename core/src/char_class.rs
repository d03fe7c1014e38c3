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

/// Where the first char of `text` that `is_break` takes for a line break
/// is, and its length in bytes. `is_break` is [`is_line_break`] or
/// [`is_line_break_but_lf`]: every such break starts with a byte below
/// 0x20, 0xC2 (NEL) or 0xE2 (U+2028, U+2029), so only chars starting with
/// one are decoded and asked, and whole 16-byte chunks without one are
/// skipped with a fold that compiles to vector code. Every failure
/// template and every content line of a strict chat parse is scanned here.
pub fn find_line_break(text: &str, is_break: fn(char) -> bool) -> Option<(usize, usize)> {
    let bytes = text.as_bytes();
    // Never a UTF-8 continuation byte, so a candidate starts a char.
    let might_break = |b: u8| (b < 0x20) | (b == 0xC2) | (b == 0xE2);
    let mut at = bytes
        .chunks(16)
        .take_while(|chunk| !chunk.iter().fold(false, |any, &b| any | might_break(b)))
        .map(<[u8]>::len)
        .sum::<usize>();
    while at < bytes.len() {
        if might_break(bytes[at]) {
            let c = text[at..].chars().next()?;
            if is_break(c) {
                return Some((at, c.len_utf8()));
            }
            at += c.len_utf8();
        } else {
            at += 1;
        }
    }
    None
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
    fn find_line_break_agrees_with_the_char_predicates() {
        let predicates: [fn(char) -> bool; 2] = [is_line_break, is_line_break_but_lf];
        let mut texts: Vec<String> = [
            "",
            "ab",
            "a:b",
            "x\u{FF1A}\u{2236}\u{A789}\u{02D0}\u{0589}\u{05C3}\u{FE13}\u{FE55}",
            "a\rb",
            "a\nb\rc",
            "\u{0B}\u{0C}\u{1C}\u{1D}\u{1E}",
            "\u{85}",
            "\u{A0}\u{C5}",
            "é日本\u{2027}\u{202A}x\u{2028}y\u{2029}",
            "\u{2026}\u{2030}",
            "\t\u{1F}\u{1B}",
            "a long line of more than sixteen bytes, then\u{2029}",
        ]
        .map(String::from)
        .to_vec();
        // Every char of the planes the candidate bytes lead, and of two
        // more, one by one.
        texts.extend(
            (0..0x3000u32)
                .chain(0xA700..0xA800)
                .chain(0xFE00..0xFF20)
                .filter_map(char::from_u32)
                .map(String::from),
        );
        for text in &texts {
            for is_break in predicates {
                assert_eq!(
                    find_line_break(text, is_break),
                    text.find(is_break)
                        .map(|at| (at, text[at..].chars().next().map_or(0, char::len_utf8))),
                    "{text:?}"
                );
            }
        }
    }

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
