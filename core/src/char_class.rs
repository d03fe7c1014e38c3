//! Character classes two boundaries share: line breaks (a failure template
//! reads only the first line, strict chat parsing refuses a marker hidden
//! behind any break) and characters that show nothing (a line of them is not
//! a message; a marker spelled with them inside still reads as one).
//! Every class is Unicode's own, read through `icu_properties`.

use icu_properties::props::{
    BidiClass, BidiControl, DefaultIgnorableCodePoint, GeneralCategory, LineBreak,
    PrependedConcatenationMark,
};
use icu_properties::{
    CodePointMapData, CodePointMapDataBorrowed, CodePointSetData, CodePointSetDataBorrowed,
};

// Evaluated once, at compile time: built at every call, the lookups cost
// microseconds in a debug build.
static LINE_BREAK: CodePointMapDataBorrowed<'static, LineBreak> = CodePointMapData::new();
static BIDI_CLASS: CodePointMapDataBorrowed<'static, BidiClass> = CodePointMapData::new();
static GENERAL_CATEGORY: CodePointMapDataBorrowed<'static, GeneralCategory> =
    CodePointMapData::new();
static DEFAULT_IGNORABLE: CodePointSetDataBorrowed<'static> =
    CodePointSetData::new::<DefaultIgnorableCodePoint>();
static BIDI_CONTROL: CodePointSetDataBorrowed<'static> = CodePointSetData::new::<BidiControl>();
static PREPENDED_CONCATENATION_MARK: CodePointSetDataBorrowed<'static> =
    CodePointSetData::new::<PrependedConcatenationMark>();

/// Line breaks, from Unicode's data: the mandatory breaks of the line
/// breaking algorithm (Line_Break BK, CR, LF, NL: `\n`, `\r`, VT, FF, NEL,
/// U+2028, U+2029) and the paragraph separators of the bidi algorithm
/// (Bidi_Class B, which adds U+001C..U+001E). Together they are the set
/// Python's `str.splitlines` splits on, so that no port sees another line.
pub fn is_line_break(c: char) -> bool {
    // Printable ASCII and the common tab are never a break: most chars of
    // most texts answer here without a property lookup.
    if (' '..='~').contains(&c) || c == '\t' {
        return false;
    }
    let code = u32::from(c);
    line_break_ranges()
        .iter()
        .any(|range| range.contains(&code))
}

/// The code points of [`is_line_break`], as ranges: a handful of chars,
/// read from the data once (a lookup in them is cheaper than two trie
/// lookups per char).
pub fn line_break_ranges() -> &'static [std::ops::RangeInclusive<u32>] {
    static BREAKS: std::sync::OnceLock<Vec<std::ops::RangeInclusive<u32>>> =
        std::sync::OnceLock::new();
    BREAKS.get_or_init(|| {
        let mut ranges: Vec<_> = [
            LineBreak::MandatoryBreak,
            LineBreak::CarriageReturn,
            LineBreak::LineFeed,
            LineBreak::NextLine,
        ]
        .into_iter()
        .flat_map(|value| LINE_BREAK.iter_ranges_for_value(value))
        .chain(BIDI_CLASS.iter_ranges_for_value(BidiClass::ParagraphSeparator))
        .collect();
        ranges.sort_by_key(|range| *range.start());
        ranges
    })
}

/// Where the first char of `text` that `is_break` takes for a line break
/// is, and its length in bytes. `is_break` is [`is_line_break`] or a
/// narrower predicate: every such break starts with a byte below
/// 0x20, 0xC2 (NEL) or 0xE2 (U+2028, U+2029), so only chars starting with
/// one are decoded and asked, and whole 16-byte chunks without one are
/// skipped with a fold that compiles to vector code. Every failure
/// template and every content line of a strict chat parse is scanned here.
pub fn find_line_break(text: &str, is_break: fn(char) -> bool) -> Option<(usize, usize)> {
    let bytes = text.as_bytes();
    // Never a UTF-8 continuation byte, so a candidate starts a char.
    let might_break = |b: u8| (b < 0x20) | (b == 0xC2) | (b == 0xE2);
    // Whole 16-byte blocks first, each tested at once (the fixed length
    // lets the compiler test all sixteen bytes with vector compares).
    let mut at = bytes
        .as_chunks::<16>()
        .0
        .iter()
        .take_while(|block| !block.iter().fold(false, |any, &b| any | might_break(b)))
        .count()
        * 16;
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

/// Characters that show nothing, from Unicode's data: every
/// Default_Ignorable_Code_Point, assigned or not (zero-width spaces and
/// joiners, bidi controls, the BOM, variation selectors, tag characters,
/// fillers, the reserved ranges kept for future ones), and every other
/// format character (General_Category Cf: interlinear annotation marks,
/// Egyptian format controls) but the prepended concatenation marks, which
/// are drawn (the Arabic number sign). Control characters are not here;
/// callers decide about those.
pub fn is_invisible_format(c: char) -> bool {
    if c.is_ascii() {
        return false;
    }
    is_default_ignorable(c)
        || (GENERAL_CATEGORY.get(c) == GeneralCategory::Format
            && !PREPENDED_CONCATENATION_MARK.contains(c))
}

/// Unicode's Default_Ignorable_Code_Point: what a renderer draws as
/// nothing when it has no glyph, assigned or not.
pub fn is_default_ignorable(c: char) -> bool {
    !c.is_ascii() && DEFAULT_IGNORABLE.contains(c)
}

/// Unicode's Bidi_Control: the marks, embeddings, overrides and isolates
/// that reorder how a line is drawn.
pub fn is_bidi_control(c: char) -> bool {
    !c.is_ascii() && BIDI_CONTROL.contains(c)
}

/// The code points of [`is_bidi_control`], as ranges.
pub fn bidi_control_ranges() -> impl Iterator<Item = std::ops::RangeInclusive<u32>> {
    BIDI_CONTROL.iter_ranges()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn find_line_break_agrees_with_the_char_predicates() {
        let predicates: [fn(char) -> bool; 2] = [is_line_break, |c| c != '\n' && is_line_break(c)];
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
    fn line_breaks_are_pythons_splitlines_set_and_lead_with_a_candidate_byte() {
        // The set `str.splitlines` documents; find_line_break decodes only
        // chars led by a byte below 0x20, 0xC2 or 0xE2.
        let breaks: Vec<u32> = (0..=0x10FFFFu32)
            .filter_map(char::from_u32)
            .filter(|&c| is_line_break(c))
            .map(u32::from)
            .collect();
        assert_eq!(
            breaks,
            [
                0x0A, 0x0B, 0x0C, 0x0D, 0x1C, 0x1D, 0x1E, 0x85, 0x2028, 0x2029
            ]
        );
    }

    #[test]
    fn unassigned_default_ignorables_are_invisible_and_drawn_format_marks_are_not() {
        for c in [
            '\u{e0002}',
            '\u{e0fff}',
            '\u{2065}',
            '\u{fff0}',
            '\u{fff9}',
            '\u{13430}',
        ] {
            assert!(is_invisible_format(c), "{c:?}");
        }
        for c in ['\u{600}', '\u{6dd}', '\u{110bd}'] {
            assert!(!is_invisible_format(c), "{c:?}");
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
