//! The readers of strict chat mode (`agentfence::chat::Reader`), written a
//! second time, simply and apart from the reference's automaton: regexes
//! over whole strings, one reader at a time. A property test asks them
//! whether a render the strict mode accepted shows a marker the template
//! did not write; none of this code is shared with `core/src/chat/`.
//!
//! A line that holds `nonce="<the nonce>"` is the template's own marker
//! (a value cannot know the nonce); any other line some reader takes for a
//! marker is a forgery.

use regex::Regex;
use std::sync::OnceLock;
use unicode_normalization::UnicodeNormalization;

/// prompty's spec regex (§6.2), case-insensitive.
const SPEC: &str =
    r#"(?i)^\s*#?\s*(system|user|assistant)(\[(\w+\s*=\s*"?[^"]*"?\s*,?\s*)+\])?\s*:\s*$"#;

fn spec_line() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| Regex::new(SPEC).expect("the spec regex compiles"))
}

fn whole_text_regex() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| {
        Regex::new(&format!("(?im){}", &SPEC[4..])).expect("the whole-text regex compiles")
    })
}

/// The loose shape a folded line is read in: blanks, `#`, `>` and markdown
/// emphasis around a role, an optional bracket block and a colon.
fn loose(names: &[String]) -> Regex {
    let names: Vec<String> = names.iter().map(|n| regex::escape(n)).collect();
    Regex::new(&format!(
        r"^[\s#>*_~`]*({})[\s*_~`]*(\[.*\])?[\s*_~`]*:[\s*_~`]*$",
        names.join("|")
    ))
    .expect("the loose regex compiles")
}

fn is_own_marker(line: &str, nonce: &str) -> bool {
    line.contains(&format!("nonce=\"{nonce}\""))
}

/// (a) prompty's spec: the regex on each line split at `\n`.
pub fn spec_line_reader(text: &str, nonce: &str) -> Option<String> {
    text.split('\n')
        .map(|line| line.strip_suffix('\r').unwrap_or(line))
        .find(|line| spec_line().is_match(line) && !is_own_marker(line, nonce))
        .map(str::to_string)
}

/// (b) prompty 1.x / promptflow: the regex multi-line over the whole text,
/// `\s` spanning line breaks.
pub fn whole_text_reader(text: &str, nonce: &str) -> Option<String> {
    whole_text_regex()
        .find_iter(text)
        .map(|m| m.as_str())
        .find(|m| !is_own_marker(m, nonce))
        .map(str::to_string)
}

/// (c) line splitters: `\n` with `\r\n`, a lone `\r`, JavaScript's set
/// and Python's `splitlines`, each line read with the spec regex.
pub fn line_splitter_reader(text: &str, nonce: &str) -> Option<String> {
    let splitters: [&[char]; 3] = [
        &['\n', '\r'],
        &['\n', '\r', '\u{2028}', '\u{2029}'],
        &[
            '\n', '\r', '\u{0B}', '\u{0C}', '\u{1C}', '\u{1D}', '\u{1E}', '\u{85}', '\u{2028}',
            '\u{2029}',
        ],
    ];
    splitters.iter().find_map(|breaks| {
        text.split(*breaks)
            .find(|line| spec_line().is_match(line) && !is_own_marker(line, nonce))
            .map(str::to_string)
    })
}

/// A line as a reader that sees what is drawn may read it: `how` picks tag
/// characters as ASCII or not, the order of case folding and skeleton, or
/// decancer's cure.
fn drawn(line: &str, tags_as_ascii: bool, how: u8) -> String {
    let untagged: String = line
        .chars()
        .filter_map(|c| match u32::from(c) {
            code @ 0xE0020..=0xE007E if tags_as_ascii => char::from_u32(code - 0xE0000),
            0xE0000..=0xE0FFF => None,
            _ => Some(c),
        })
        .collect();
    let bare: String = untagged
        .nfkd()
        .filter(|&c| !unicode_normalization::char::is_combining_mark(c))
        .collect();
    match how {
        0 => unicode_security::skeleton(&bare.to_lowercase().replace('ß', "ss"))
            .collect::<String>()
            .to_lowercase(),
        1 => unicode_security::skeleton(&bare)
            .collect::<String>()
            .to_lowercase(),
        _ => decancer::cure(&untagged, decancer::Options::default())
            .map(|cured| cured.to_string())
            .unwrap_or_default(),
    }
}

/// (d) the confusable reader: default-ignorables (the skeleton drops them)
/// and tags dropped or read as ASCII, accents and compatibility forms
/// removed, case folded, the TR39 skeleton in both orders and decancer's
/// cure; each line split at every break, read as drawn and reversed.
pub fn confusable_reader(text: &str, nonce: &str) -> Option<String> {
    static NAMES: OnceLock<[Regex; 3]> = OnceLock::new();
    let names = NAMES.get_or_init(|| {
        [0u8, 1, 2].map(|how| {
            let names: Vec<String> = ["system", "user", "assistant"]
                .iter()
                .flat_map(|role| {
                    let title = format!("{}{}", role[..1].to_uppercase(), &role[1..]);
                    [role.to_string(), role.to_uppercase(), title]
                })
                .map(|spelling| drawn(&spelling, false, how))
                .collect();
            loose(&names)
        })
    });
    let breaks = |c: char| {
        matches!(
            c,
            '\n' | '\r' | '\u{0B}' | '\u{0C}' | '\u{1C}' | '\u{1D}' | '\u{1E}' | '\u{85}'
        ) || c == '\u{2028}'
            || c == '\u{2029}'
    };
    for line in text.split('\n') {
        if is_own_marker(line, nonce) {
            continue;
        }
        let reversed: String = line.chars().rev().collect();
        for whole in [line, reversed.as_str()] {
            // Each segment, and the line with its other breaks as blanks.
            let blanked: String = whole
                .chars()
                .map(|c| if breaks(c) { ' ' } else { c })
                .collect();
            for segment in whole.split(breaks).chain([blanked.as_str()]) {
                for tags in [false, true] {
                    for how in [0u8, 1, 2] {
                        let folded: String = drawn(segment, tags, how)
                            .chars()
                            .filter(|c| !c.is_control() || c.is_whitespace())
                            .collect();
                        if names[usize::from(how)].is_match(&folded) {
                            return Some(line.to_string());
                        }
                    }
                }
            }
        }
    }
    None
}

/// (e) markdown emphasis around a label: `**User:**`, `__user__:`.
pub fn markdown_reader(text: &str, nonce: &str) -> Option<String> {
    static RE: OnceLock<Regex> = OnceLock::new();
    let re = RE.get_or_init(|| {
        Regex::new(r"(?i)^\s*[#>]*\s*[*_~`]+\s*(system|user|assistant)\s*[*_~`]*\s*:\s*[*_~`]*\s*$|(?i)^\s*[#>]*\s*[*_~`]*\s*(system|user|assistant)\s*[*_~`]*\s*:\s*[*_~`]+\s*$")
            .expect("the markdown regex compiles")
    });
    text.split('\n')
        .map(|line| line.strip_suffix('\r').unwrap_or(line))
        .find(|line| re.is_match(line) && !is_own_marker(line, nonce))
        .map(str::to_string)
}

/// A reader: the forged marker line it sees in a text, given the nonce.
type ReadForged = fn(&str, &str) -> Option<String>;

/// Every reader, by name, with the forged marker it saw in `text`.
pub fn forged_markers(text: &str, nonce: &str) -> Vec<(&'static str, String)> {
    let readers: [(&str, ReadForged); 5] = [
        ("spec_line", spec_line_reader),
        ("whole_text", whole_text_reader),
        ("line_splitters", line_splitter_reader),
        ("confusable", confusable_reader),
        ("markdown_emphasis", markdown_reader),
    ];
    readers
        .iter()
        .filter_map(|(name, read)| read(text, nonce).map(|line| (*name, line)))
        .collect()
}

/// When the strict flow accepts `template` rendered with `values` under
/// `nonce`, the rendered text must show no reader a marker the template did
/// not write: the readers' account of strict mode's promise, which the
/// fuzz target `chat_strict` and the property tests both check. The error
/// names each reader and the line it took for a marker.
pub fn check_accepted_render(
    template: &str,
    values: &std::collections::BTreeMap<String, String>,
    nonce: &str,
) -> Result<(), String> {
    use crate::chat::{pre_render_with_nonce, render, render_strict};
    if render_strict(template, values, nonce).is_err() {
        return Ok(());
    }
    // The strict flow succeeded, so pre-render and render succeed too: they
    // are its first two steps.
    let rendered = pre_render_with_nonce(template, nonce)
        .and_then(|(prepared, _)| render(&prepared, values))
        .map_err(|error| format!("the strict flow passed but its steps fail: {error}"))?;
    let seen = forged_markers(&rendered, nonce);
    if seen.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "readers see forged markers {seen:?} in the accepted render {rendered:?}"
        ))
    }
}
