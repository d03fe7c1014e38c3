//! Readers of an envelope, written apart from `agentfence::web::envelope`
//! so that its guarantee is checked by code it did not write: an HTML5
//! parser (html5ever's tokenizer and tree builder), two confusable readers
//! (the TR39 skeleton, and decancer), and entity decoding applied one, two
//! and three times before each. Each says whether it sees anything but the
//! envelope's own two tags, and the HTML5 one whether the body stays text.

use std::sync::OnceLock;

use html5ever::tendril::TendrilSink;
use icu_properties::props::{DefaultIgnorableCodePoint, GeneralCategory, GeneralCategoryGroup};
use icu_properties::{CodePointMapData, CodePointSetData};
use markup5ever_rcdom::{Handle, NodeData, RcDom};
use regex::Regex;
use unicode_normalization::UnicodeNormalization;

const TAG: &str = "untrusted_content";

/// A reader that found more than the envelope: its name and what it saw.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Escape {
    pub reader: String,
    pub seen: String,
}

/// What html5ever makes of an envelope.
#[derive(Debug)]
pub struct Html5View {
    /// `untrusted_content` elements in the document.
    pub elements: usize,
    /// Nodes under the element that are not text (elements, comments).
    pub non_text_children: Vec<String>,
    /// The element's text content.
    pub text: String,
    /// The element's attributes, as the parser decoded them.
    pub attributes: Vec<(String, String)>,
    /// Text or nodes after the element's end inside `<body>`.
    pub after: String,
}

pub fn html5_view(envelope: &str) -> Html5View {
    let dom = html5ever::parse_document(RcDom::default(), Default::default()).one(envelope);
    let mut view = Html5View {
        elements: 0,
        non_text_children: Vec::new(),
        text: String::new(),
        attributes: Vec::new(),
        after: String::new(),
    };
    let mut seen_element = false;
    walk(&dom.document, &mut view, &mut seen_element);
    view
}

fn walk(node: &Handle, view: &mut Html5View, seen_element: &mut bool) {
    for child in node.children.borrow().iter() {
        match &child.data {
            NodeData::Element { name, attrs, .. } if &*name.local == TAG => {
                view.elements += 1;
                if view.elements == 1 {
                    view.attributes = attrs
                        .borrow()
                        .iter()
                        .map(|a| (a.name.local.to_string(), a.value.to_string()))
                        .collect();
                    collect_text(child, view);
                }
                *seen_element = true;
            }
            NodeData::Text { contents } if *seen_element => {
                view.after.push_str(&contents.borrow());
            }
            NodeData::Element { name, .. } if *seen_element => {
                view.after.push_str(&format!("<{}>", name.local));
                walk(child, view, seen_element);
            }
            NodeData::Comment { contents } if *seen_element => {
                view.after.push_str(&format!("<!--{contents}-->"));
            }
            _ => walk(child, view, seen_element),
        }
    }
}

fn collect_text(node: &Handle, view: &mut Html5View) {
    for child in node.children.borrow().iter() {
        match &child.data {
            NodeData::Text { contents } => view.text.push_str(&contents.borrow()),
            NodeData::Element { name, .. } => {
                if &*name.local == TAG {
                    view.elements += 1;
                }
                view.non_text_children.push(format!("<{}>", name.local));
                collect_text(child, view);
            }
            NodeData::Comment { contents } => {
                view.non_text_children.push(format!("<!--{contents}-->"));
            }
            other => view.non_text_children.push(format!("{other:?}")),
        }
    }
}

/// The body part of an envelope as its bytes say (between the first `>\n`
/// and the last `\n</untrusted_content>`), cut without any parser.
pub fn raw_body_segment(envelope: &str) -> Option<&str> {
    let start = envelope.find(">\n")? + 2;
    let end = envelope.rfind("\n</untrusted_content>")?;
    envelope.get(start..end)
}

/// HTML5's input preprocessing: CR LF and CR become LF; the tree builder
/// drops U+0000 in body text.
pub fn html5_preprocessed(text: &str) -> String {
    text.replace("\r\n", "\n")
        .replace('\r', "\n")
        .replace('\0', "")
}

/// The HTML5 reader: exactly one `untrusted_content` element, with nothing
/// but text inside, nothing after it, and its text the body segment as
/// written (no part of the body was read as markup or as a reference).
pub fn html5_escape(envelope: &str) -> Option<Escape> {
    let view = html5_view(envelope);
    let fail = |seen: String| {
        Some(Escape {
            reader: "html5".into(),
            seen,
        })
    };
    if view.elements != 1 {
        return fail(format!("{} untrusted_content elements", view.elements));
    }
    if !view.non_text_children.is_empty() {
        return fail(format!("markup inside: {:?}", view.non_text_children));
    }
    if !view.after.trim().is_empty() {
        return fail(format!("content after the element: {:?}", view.after));
    }
    if !view.text.ends_with('\n') {
        return fail("the closing tag was read as text".into());
    }
    None
}

/// Whether the HTML5 text content is the envelope's body segment as
/// written, references decoded once (framed by its two line breaks): no
/// part of the body was read as markup.
pub fn html5_text_is_segment(envelope: &str) -> Result<(), String> {
    let view = html5_view(envelope);
    let segment = raw_body_segment(envelope).ok_or("no body segment")?;
    // The framing line breaks count: a body ending in CR joins the LF after it.
    let want = decode_entities_once(&html5_preprocessed(&format!("\n{segment}\n")));
    if view.text == want {
        Ok(())
    } else {
        Err(format!("text {:?} != segment {:?}", view.text, want))
    }
}

/// Whether the HTML5 text content is `body` itself, framed by the two line
/// breaks (what a body holding no `&`, no tag and no U+27E6 gets).
pub fn html5_text_is_body(envelope: &str, body: &str) -> Result<(), String> {
    let view = html5_view(envelope);
    let want = html5_preprocessed(&format!("\n{body}\n"));
    if view.text == want {
        Ok(())
    } else {
        Err(format!("text {:?} != body {:?}", view.text, want))
    }
}

/// HTML5 named references (all of them, with the legacy ones that need no
/// `;`) and numeric ones with any zero padding, decoded once, the longest
/// name winning as the HTML5 tokenizer does.
pub fn decode_entities_once(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find('&') {
        out.push_str(&rest[..at]);
        let after = &rest[at + 1..];
        match decode_reference(after) {
            Some((decoded, len)) => {
                out.push_str(&decoded);
                rest = &after[len..];
            }
            None => {
                out.push('&');
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

fn decode_reference(after: &str) -> Option<(String, usize)> {
    if let Some(number) = after.strip_prefix('#') {
        let (digits, radix, skip) = match number.strip_prefix(['x', 'X']) {
            Some(hex) => (hex, 16, 2),
            None => (number, 10, 1),
        };
        let len = digits
            .chars()
            .take_while(|c| c.is_digit(radix))
            .map(char::len_utf8)
            .sum::<usize>();
        if len == 0 {
            return None;
        }
        let value = digits[..len].trim_start_matches('0');
        let code = if value.is_empty() {
            0
        } else if value.len() > 8 {
            0x110000
        } else {
            u32::from_str_radix(value, radix).ok()?
        };
        let c = char::from_u32(code)
            .filter(|&c| c != '\0')
            .unwrap_or('\u{FFFD}');
        let semicolon = usize::from(digits[len..].starts_with(';'));
        return Some((c.to_string(), skip + len + semicolon));
    }
    let name_len = after.bytes().take_while(u8::is_ascii_alphanumeric).count();
    let candidate = &after[..(name_len + 1).min(after.len())];
    // Longest key first: with the `;`, then shorter legacy prefixes.
    (1..=candidate.len()).rev().find_map(|len| {
        let key = candidate.get(..len)?;
        let &(first, second) = html5ever::data::NAMED_ENTITIES.get(key)?;
        if first == 0 {
            return None;
        }
        let mut decoded = String::new();
        decoded.extend(char::from_u32(first));
        if second != 0 {
            decoded.extend(char::from_u32(second));
        }
        Some((decoded, len))
    })
}

fn default_ignorable(c: char) -> bool {
    CodePointSetData::new::<DefaultIgnorableCodePoint>().contains(c)
}

fn is_mark(c: char) -> bool {
    GeneralCategoryGroup::Mark.contains(CodePointMapData::<GeneralCategory>::new().get(c))
}

/// Tag characters (U+E0020..U+E007E) read as the ASCII they shadow.
fn tag_as_ascii(c: char) -> Option<char> {
    let code = u32::from(c);
    (0xE0020..=0xE007E)
        .contains(&code)
        .then(|| char::from_u32(code - 0xE0000))
        .flatten()
}

/// The TR39 reader: tag characters as ASCII, every Default_Ignorable code
/// point and control dropped, accents dropped, NFKC, case folded, then the
/// TR39 skeleton, with whitespace gone.
pub fn fold_tr39(text: &str) -> String {
    let kept: String = text
        .chars()
        .map(|c| tag_as_ascii(c).unwrap_or(c))
        .filter(|&c| !default_ignorable(c) && !c.is_control())
        .nfd()
        .filter(|&c| !is_mark(c))
        .nfkc()
        .flat_map(char::to_lowercase)
        .collect();
    unicode_security::skeleton(&kept)
        .flat_map(char::to_lowercase)
        .filter(|c| !c.is_whitespace() && !default_ignorable(*c) && !is_mark(*c))
        .collect()
}

/// The decancer reader: each character cured (decancer drops what it takes
/// for invisible or combining), tag characters as ASCII, controls dropped.
pub fn fold_decancer(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        let c = tag_as_ascii(c).unwrap_or(c);
        if default_ignorable(c) || c.is_control() {
            continue;
        }
        match decancer::cure_char(c, decancer::Options::default()) {
            decancer::Translation::Character(x) => out.push(x),
            decancer::Translation::String(x) => out.push_str(&x),
            decancer::Translation::None => {}
        }
    }
    out.chars()
        .flat_map(char::to_lowercase)
        .filter(|c| !c.is_whitespace())
        .collect()
}

/// A plain reader: case folded, whitespace and controls gone.
pub fn fold_plain(text: &str) -> String {
    text.chars()
        .flat_map(char::to_lowercase)
        .filter(|c| !c.is_whitespace() && !c.is_control())
        .collect()
}

/// Openings of an `untrusted_content` tag in a text folded by `fold`: `<`,
/// an optional `/`, `untrusted`, `_`, `-` or nothing, `content`.
pub fn tag_pattern(fold: Fold) -> Regex {
    let piece = |s: &str| regex::escape(&fold(s));
    let pattern = format!(
        "{}(?:{})?{}(?:{}|{}|{})?{}",
        piece("<"),
        piece("/"),
        piece("untrusted"),
        piece("_"),
        piece("-"),
        piece("\u{2010}"),
        piece("content"),
    );
    Regex::new(&pattern).expect("the pattern is escaped text")
}

type Fold = fn(&str) -> String;

/// Every reader but HTML5: each fold after zero to three entity decodings.
pub fn readers() -> &'static [(String, Fold, usize, Regex)] {
    static READERS: OnceLock<Vec<(String, Fold, usize, Regex)>> = OnceLock::new();
    READERS.get_or_init(|| {
        let folds: [(&str, Fold); 3] = [
            ("plain", fold_plain),
            ("tr39", fold_tr39),
            ("decancer", fold_decancer),
        ];
        let mut readers = Vec::new();
        for decodings in 0..=3 {
            for (name, fold) in folds {
                readers.push((
                    format!("{name}+decode{decodings}"),
                    fold,
                    decodings,
                    tag_pattern(fold),
                ));
            }
        }
        readers
    })
}

/// Every reader that sees more than the envelope's two tags, or (HTML5)
/// reads part of the body as markup.
pub fn escapes(envelope: &str) -> Vec<Escape> {
    let mut found: Vec<Escape> = html5_escape(envelope).into_iter().collect();
    let mut decoded = vec![envelope.to_owned()];
    for _ in 0..3 {
        let next = decode_entities_once(decoded.last().expect("starts with one"));
        decoded.push(next);
    }
    for (name, fold, decodings, tags) in readers() {
        let count = tags.find_iter(&fold(&decoded[*decodings])).count();
        if count != 2 {
            found.push(Escape {
                reader: name.clone(),
                seen: format!("{count} tags"),
            });
        }
    }
    found
}

/// Characters an attribute value must not show to any reader: quotes
/// (straight, curly, fullwidth: whatever a fold reads as one), brackets,
/// `&`, line breaks.
pub fn attribute_faults(value: &str) -> Vec<String> {
    let mut faults = Vec::new();
    for (name, fold, decodings, _) in readers() {
        let mut text = value.to_owned();
        for _ in 0..*decodings {
            text = decode_entities_once(&text);
        }
        let folded = fold(&text);
        if let Some(c) = folded.chars().find(|c| "\"'`<>&".contains(*c)) {
            faults.push(format!("{name} reads {c:?} in {value:?}"));
        }
    }
    if value
        .chars()
        .any(|c| c.is_control() || c == '\u{2028}' || c == '\u{2029}')
    {
        faults.push(format!("a control or line break in {value:?}"));
    }
    faults
}
