//! Differential harnesses: agentfence against an upstream crate on inputs
//! where the two agree by design. The upstream function is a parameter, so
//! this crate never depends on the upstream crates: the targets in
//! `fuzz-upstream/` pass them in (`fuzz-upstream/src/lib.rs`), and
//! `tests/corpus_replay.rs` replays the committed corpora with agentfence
//! standing in for the upstream (which checks the domains and rules never
//! panic and agentfence agrees with itself).
//!
//! Each harness builds its input from a domain where both sides should
//! agree, then drops inputs that hit a known divergence by a named rule;
//! each rule's comment names the conformance vectors (flagged
//! `upstream-divergence`) that pin the divergence.

use arbitrary::{Result, Unstructured};

use crate::chat;
use crate::template::{KNOWN_IDENTIFIERS, Vocabulary, message_template};
use crate::web::strip as web_strip;

// ---------------------------------------------------------------------------
// Failure templates against lean-ctx 3.12.0
// ---------------------------------------------------------------------------

/// The upstream failure template function's shape
/// (`lean_ctx::core::failure_template::message_template`).
pub type TemplateFn = fn(&str) -> Option<String>;

/// A one-line message of vocabulary words, numbers, known identifiers and
/// words outside the vocabulary, with clause punctuation, joined by single
/// spaces.
fn template_message(u: &mut Unstructured<'_>) -> Result<String> {
    let words: Vec<&str> = Vocabulary::builtin().words().collect();
    let mut out = Vec::new();
    for _ in 0..u.int_in_range(1..=16)? {
        let mut token = match u.int_in_range(0..=19)? {
            0..=13 => u.choose(&words)?.to_string(),
            14 | 15 => u.int_in_range(0..=99_999u32)?.to_string(),
            16 | 17 => u.choose(KNOWN_IDENTIFIERS)?.to_string(),
            18 => u.choose(&["anna", "meier", "zorblax", "qux"])?.to_string(),
            _ => u.choose(&["-", "->", "(", ")"])?.to_string(),
        };
        token.push_str(u.choose(&["", "", "", ":", ",", ";", ".", "!", "?"])?);
        out.push(token);
    }
    Ok(out.join(" "))
}

/// Divergence rule: lean-ctx keeps every ASCII word, agentfence only the
/// words of its vocabulary (the rest become `‹text›`, and a run of them
/// collapses). Pinned by template-0003.
pub fn holds_word_outside_vocabulary(message: &str) -> bool {
    let vocabulary = Vocabulary::builtin();
    message.split(' ').any(|token| {
        let core = token.trim_matches(|c: char| !c.is_ascii_alphanumeric() && c != '_');
        core.bytes().all(|b| b.is_ascii_alphabetic())
            && !core.is_empty()
            && !vocabulary.contains(core)
    })
}

/// Divergence rule: the two cut a template over 160 chars differently
/// (lean-ctx by chars, possibly inside a placeholder; agentfence at a
/// space, collapsing a cut twin). Pinned by template-0175, template-0176,
/// template-0177, template-0179, template-0324, template-0325. Messages
/// whose template could reach the cap are left out: a token becomes at
/// most itself or a placeholder (at most 7 chars) and its punctuation, so
/// 8 chars or its own length, and a space.
pub fn may_reach_the_cut(message: &str) -> bool {
    let bound: usize = message
        .split(' ')
        .map(|token| token.chars().count().max(8) + 1)
        .sum();
    bound > 160
}

/// Divergence rule: lean-ctx pairs any two apostrophes as a quote, those
/// of contractions included (`couldn't, wasn't` becomes `couldn ‹str› t`);
/// agentfence opens a quote only after a non-alphanumeric character.
/// Pinned by template-0038, template-0042, template-0043.
pub fn holds_two_apostrophes(message: &str) -> bool {
    message.matches('\'').nth(1).is_some()
}

/// Failure templates: agentfence and lean-ctx give the same template.
pub fn diff_template(data: &[u8], upstream: TemplateFn) {
    let mut u = Unstructured::new(data);
    let Ok(message) = template_message(&mut u) else {
        return;
    };
    if holds_word_outside_vocabulary(&message)
        || may_reach_the_cut(&message)
        || holds_two_apostrophes(&message)
    {
        return;
    }
    let ours = message_template(&message);
    let theirs = upstream(&message);
    assert_eq!(ours, theirs, "templates of {message:?} differ");
}

// ---------------------------------------------------------------------------
// Chat parsing against prompty 2.1.0 (non-strict)
// ---------------------------------------------------------------------------

/// The upstream non-strict parser's shape: each message as (role, content)
/// (`prompty::parsers::parse_chat`, adapted in `fuzz-upstream`).
pub type ChatFn = fn(&str) -> Vec<(String, String)>;

/// Lines of bare role markers (any case, optional blanks before the colon)
/// and prose lines, with LF or CRLF ends and blank lines at times.
fn chat_text(u: &mut Unstructured<'_>) -> Result<String> {
    let mut out = String::new();
    // Mostly LF ends and lower-case roles, which both sides read alike;
    // the rest exercises the divergence rules.
    let crlf = u.ratio(1, 8)?;
    for _ in 0..u.int_in_range(0..=10)? {
        match u.int_in_range(0..=5)? {
            0 | 1 => {
                let role = u.choose(&chat::Role::ALL)?.as_str();
                let role = if u.ratio(1, 8)? {
                    super::chat_grammar::ascii_case(role, u.arbitrary()?)
                } else {
                    role.to_string()
                };
                out.push_str(&role);
                out.push_str(u.choose(&[":", ":", " :"])?);
            }
            2 => {}
            _ => {
                let words = u.int_in_range(1..=6)?;
                let line: Vec<&str> = (0..words)
                    .map(|_| {
                        u.choose(&[
                            "hello", "the", "answer", "is", "Note", "x", "be", "brief", "ok", "42",
                        ])
                        .copied()
                    })
                    .collect::<Result<_>>()?;
                out.push_str(&line.join(" "));
            }
        }
        out.push_str(if crlf { "\r\n" } else { "\n" });
    }
    Ok(out)
}

/// Divergence rule: prompty 2.1.0's Rust parser looks roles up
/// case-sensitively, so `USER:` or `User:` is text there and a marker
/// here. Pinned by chat-0002, chat-0004.
pub fn has_role_not_in_lower_case(text: &str) -> bool {
    text.split('\n').any(|line| {
        let line = line.trim_end_matches('\r');
        let name = line.trim_end_matches(':').trim_end();
        chat::Role::ALL
            .iter()
            .any(|role| name.eq_ignore_ascii_case(role.as_str()) && name != role.as_str())
    })
}

/// Divergence rule: prompty keeps a `\r` of a CRLF end in the content and
/// reads a blank preamble or an empty text differently. Pinned by
/// chat-0073, chat-0074, chat-0077 (CRLF) and chat-0051 to chat-0056
/// (blank text and preamble).
pub fn has_crlf_or_blank_preamble(text: &str) -> bool {
    text.contains('\r') || text.trim().is_empty() || text.starts_with('\n')
}

/// Chat, non-strict: agentfence and prompty give the same roles and
/// contents.
pub fn diff_chat(data: &[u8], upstream: ChatFn) {
    let mut u = Unstructured::new(data);
    let Ok(text) = chat_text(&mut u) else {
        return;
    };
    if has_role_not_in_lower_case(&text) || has_crlf_or_blank_preamble(&text) {
        return;
    }
    let ours: Vec<(String, String)> = chat::parse(&text, None)
        .expect("non-strict never fails")
        .into_iter()
        .map(|m| (m.role.as_str().to_string(), m.content.into_owned()))
        .collect();
    let theirs = upstream(&text);
    assert_eq!(ours, theirs, "messages of {text:?} differ");
}

// ---------------------------------------------------------------------------
// Web strip against agentsec-core 0.5.0's regex layer
// ---------------------------------------------------------------------------

/// The upstream regex layer's shape
/// (`agentsec_core::web::sanitize::regex_layer::strip`).
pub type StripFn = fn(&str) -> (String, Vec<String>);

/// The words filler text is made of: no letter of any of upstream's 16
/// markers (`ignore all previous instructions`, `<|system|>`, …) in either
/// case, so no reading of filler (leetspeak included) spells a marker;
/// and markup that upstream reads as plain text, which the strip layer
/// parses (comments, hidden elements, tags, references): a `<!--` before
/// a marker once hid it from the layer (web-1288).
const FILLER: &[&str] = &[
    "jazz",
    "quiz",
    "Zq",
    "kj",
    "xx",
    "42",
    "7",
    "0x1f",
    "z-k",
    "(jq)",
    "<!--",
    "-->",
    "<b>",
    "</b>",
    "<p hidden>",
    "</p>",
    "<br>",
    "&amp;",
    "&#x7a;",
];

/// Text of filler words and upstream's 16 markers in any ASCII case, each
/// token set apart by a blank or clause punctuation (both sides need
/// nothing more to see a marker as one).
fn strip_text(u: &mut Unstructured<'_>) -> Result<String> {
    let mut out = String::new();
    for _ in 0..u.int_in_range(0..=24)? {
        if u.ratio(1, 4)? {
            let marker = u.choose(web_strip::rules::SEED_LABELS)?;
            out.push_str(&super::chat_grammar::ascii_case(marker, u.arbitrary()?));
        } else {
            out.push_str(u.choose(FILLER)?);
        }
        out.push_str(u.choose(&[" ", " ", "\n", ", ", ". ", "! ", "\n\n", "\t"])?);
    }
    Ok(out)
}

/// Divergence rule: upstream strips `you are now` and `<!-- system`
/// wherever they stand, agentfence only in an attack context (a persona
/// after it, a directive comment), since both are ordinary prose ("You are
/// now subscribed", "<!-- System requirements -->"). Pinned by web-1189,
/// web-1190, web-1191, web-1192, web-1199.
pub fn needs_attack_context(marker: &str) -> bool {
    marker.eq_ignore_ascii_case("you are now") || marker.eq_ignore_ascii_case("<!-- system")
}

/// Web strip: agentfence strips every marker upstream strips (but the two
/// of [`needs_attack_context`]), so upstream finds no other marker in
/// agentfence's output; on text where upstream finds nothing (filler
/// alone), agentfence changes nothing either.
pub fn diff_strip(data: &[u8], upstream: StripFn) {
    let mut u = Unstructured::new(data);
    let Ok(text) = strip_text(&mut u) else {
        return;
    };
    let ours = web_strip::strip(&text);
    let (_, theirs) = upstream(&text);
    if theirs.is_empty() {
        assert_eq!(
            (ours.text.as_str(), ours.removed_patterns.len()),
            (text.as_str(), 0),
            "agentfence changed {text:?}, where upstream found no marker"
        );
        return;
    }
    if theirs.iter().any(|marker| !needs_attack_context(marker)) {
        assert!(
            !ours.removed_patterns.is_empty(),
            "upstream stripped {theirs:?} from {text:?}, agentfence nothing"
        );
    }
    // Without the `[STRIPPED]` tokens, which agentfence standing in for
    // upstream (the corpus replay) would report as planted.
    let (_, left) = upstream(&ours.text.replace(web_strip::STRIPPED, " "));
    assert!(
        left.iter().all(|marker| needs_attack_context(marker)),
        "upstream still finds {left:?} in agentfence's output {:?} of {text:?}",
        ours.text
    );
}

/// agentfence's own functions in the upstream's shapes: the stand-ins with
/// which `cargo test` replays the differential corpora.
pub mod ours {
    pub fn template(message: &str) -> Option<String> {
        crate::template::message_template(message)
    }

    pub fn chat(text: &str) -> Vec<(String, String)> {
        crate::chat::parse(text, None)
            .expect("non-strict never fails")
            .into_iter()
            .map(|m| (m.role.as_str().to_string(), m.content.into_owned()))
            .collect()
    }

    pub fn strip(text: &str) -> (String, Vec<String>) {
        let out = crate::web::strip::strip(text);
        (out.text, out.removed_patterns)
    }
}

/// The differential targets (in `fuzz-upstream/`), each with its harness
/// run against agentfence itself, for the corpus replay.
pub const TARGETS: &[(&str, super::Harness)] = &[
    ("diff_template", |data| diff_template(data, ours::template)),
    ("diff_chat", |data| diff_chat(data, ours::chat)),
    ("diff_strip", |data| diff_strip(data, ours::strip)),
];
