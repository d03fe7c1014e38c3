//! The inputs `agentfence diff` sends: one per case, drawn by the fuzz
//! generators of `agentfence::fuzzing` (the ones the fuzz targets and the
//! property tests use) from bytes of a seeded ChaCha8 stream, so that a
//! seed and a case number always give the same input, on any machine.

use arbitrary::Unstructured;
use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::{RngCore, SeedableRng};
use serde_json::{Value, json};

use agentfence::fuzzing::{chat_cases, html_grammar, template_grammar};

use crate::suites::{chat, template, web};

/// Bytes each case is drawn from: enough that no generator runs dry (a
/// dry `Unstructured` answers the smallest choice, which would bias the
/// cases towards short ones).
const BYTES_PER_CASE: usize = 16 * 1024;

/// The operations cases can be drawn for, with their suite, in the order a
/// run takes them round-robin. `fetch` is not among them: its cases need
/// an HTTP fixture, which the vectors describe by hand.
pub const OPERATIONS: &[(&str, &str)] = &[
    ("template", template::OPERATION),
    ("chat", chat::PARSE),
    ("chat", chat::PRE_RENDER),
    ("chat", chat::FLOW),
    ("web", web::STRIP),
    ("web", web::ENVELOPE),
];

/// The bytes of case `index` under `seed`: the ChaCha8 stream `index` of
/// the seed, so each case is drawn independently of the others.
fn case_bytes(seed: u64, index: u64) -> Vec<u8> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    rng.set_stream(index);
    let mut bytes = vec![0; BYTES_PER_CASE];
    rng.fill_bytes(&mut bytes);
    bytes
}

/// The input of case `index` of operation `op` under `seed`, or `None` for
/// an operation no generator draws for (or, in theory, a generator that
/// gave up on its bytes).
pub fn draw_input(op: &str, seed: u64, index: u64) -> Option<Value> {
    let bytes = case_bytes(seed, index);
    let mut u = Unstructured::new(&bytes);
    let input = match op {
        template::OPERATION => json!({ "message": template_grammar::message(&mut u).ok()? }),
        chat::FLOW => {
            let case = chat_cases::StrictCase::build(&mut u).ok()?;
            json!({
                "template": case.template_text(),
                "values": case.values(),
                "nonce": case.nonce(),
            })
        }
        chat::PRE_RENDER => {
            let case = chat_cases::StrictCase::build(&mut u).ok()?;
            json!({ "template": case.template_text(), "nonce": case.nonce() })
        }
        chat::PARSE => parse_input(&mut u).ok()?,
        web::STRIP => {
            // A page with planted markers, or the property tests' text.
            let text = if u.arbitrary().ok()? {
                html_grammar::page(&mut u).ok()?.0
            } else {
                html_grammar::text(&mut u).ok()?
            };
            json!({ "text": text })
        }
        web::ENVELOPE => envelope_input(&mut u).ok()?,
        _ => return None,
    };
    Some(input)
}

/// Written-out messages, strict (a context with the nonce and the marker
/// count) or not.
fn parse_input(u: &mut Unstructured<'_>) -> arbitrary::Result<Value> {
    let nonce = chat_cases::nonce(u)?;
    let strict: bool = u.arbitrary()?;
    let (messages, text) = chat_cases::written_messages(u, strict.then_some(nonce.as_str()))?;
    Ok(if strict {
        json!({
            "rendered": text,
            "context": { "nonce": nonce, "markers": messages.len() },
        })
    } else {
        json!({ "rendered": text })
    })
}

/// Sources with what an attribute must escape (quotes, `&`, `<`, line
/// breaks) and what it need not.
const SOURCES: &[&str] = &[
    "https://example.com/page",
    "https://example.com/a?b=1&c=2",
    "https://example.com/\"quoted\"",
    "https://example.com/<tag>",
    "file:///tmp/x y.html",
    "https://例え.jp/パス",
    "https://example.com/a\nb",
    "",
];

/// Timestamps RFC 3339 allows in its forms (offsets, fractions, lowercase
/// separators, a space), and ones it does not.
const TIMESTAMPS: &[&str] = &[
    "2026-11-29T10:00:00Z",
    "2026-11-29t10:00:00z",
    "2026-11-29 10:00:00Z",
    "2026-11-29T10:00:00.500+02:00",
    "2026-11-29T10:00:00.120000Z",
    "1985-04-12T23:20:50.52Z",
    "2026-11-29T23:59:60Z",
    "2026-02-30T00:00:00Z",
    "2026-11-29T10:00:00",
    "2026-11-29_10:00:00Z",
    "yesterday",
];

/// A body (an HTML page, or one built to escape), a source, a time and
/// labels: those of the markers planted in the body, at times with labels no strip would write
/// (commas, quotes, line breaks).
fn envelope_input(u: &mut Unstructured<'_>) -> arbitrary::Result<Value> {
    // A page with planted markers, or a body built to escape the envelope.
    let (body, planted) = if u.arbitrary()? {
        html_grammar::page(u)?
    } else {
        (html_grammar::hostile_body(u)?, Vec::new())
    };
    let mut labels: Vec<String> = planted
        .iter()
        .filter(|_| u.ratio(3, 4).unwrap_or(true))
        .map(|marker| marker.label.to_string())
        .collect();
    if u.ratio(1, 4)? {
        labels.push(
            u.choose(&["a,b", "\"x\"", "<|user|>", "line\nbreak", "", "&amp;"])?
                .to_string(),
        );
    }
    Ok(json!({
        "body": body,
        "src": u.choose(SOURCES)?,
        "sanitized_at": u.choose(TIMESTAMPS)?,
        "removed_patterns": labels,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_seed_and_an_index_always_draw_the_same_input() {
        for &(_, op) in OPERATIONS {
            let first = draw_input(op, 7, 3);
            assert!(first.is_some(), "{op} draws an input");
            assert_eq!(first, draw_input(op, 7, 3), "{op}");
            // Cases and seeds draw apart (a few short inputs may repeat).
            let distinct = |draws: Vec<Option<Value>>| {
                let mut texts: Vec<String> = draws.iter().map(|d| format!("{d:?}")).collect();
                texts.sort();
                texts.dedup();
                texts.len()
            };
            let by_index = distinct((0..20).map(|index| draw_input(op, 7, index)).collect());
            let by_seed = distinct((0..20).map(|seed| draw_input(op, seed, 3)).collect());
            assert!(
                by_index >= 15 && by_seed >= 15,
                "{op}: {by_index}, {by_seed}"
            );
        }
    }

    #[test]
    fn fetch_is_not_drawn() {
        assert_eq!(draw_input(web::FETCH, 1, 0), None);
    }
}
