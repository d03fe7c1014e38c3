//! The envelope against readers it did not write (issue 13): every body of
//! `data/envelope_bodies.json` is wrapped, and each reader of
//! `agentfence::fuzzing::envelope_readers` must see the envelope's two tags and no
//! other, the HTML5 one a single element holding the body as text.

use agentfence::fuzzing::envelope_readers;

use std::collections::BTreeMap;

use agentfence::web::envelope::{envelope, unwrap};
use envelope_readers::{
    attribute_faults, escapes, html5_text_is_body, html5_text_is_segment, html5_view,
};

fn bodies() -> Vec<(String, String)> {
    let text = include_str!("data/envelope_bodies.json");
    let data: serde_json::Value = serde_json::from_str(text).expect("the list is JSON");
    data["bodies"]
        .as_array()
        .expect("bodies is a list")
        .iter()
        .map(|case| {
            (
                case["why"].as_str().expect("why is text").to_owned(),
                case["body"].as_str().expect("body is text").to_owned(),
            )
        })
        .collect()
}

fn wrap(body: &str) -> String {
    envelope("https://example.com/", "2026-11-29T00:00:00Z", &[], body)
}

#[test]
fn no_adversarial_body_escapes_any_reader() {
    let bodies = bodies();
    assert!(
        bodies.len() >= 150,
        "the list holds {} bodies",
        bodies.len()
    );
    let mut per_reader: BTreeMap<String, usize> = BTreeMap::new();
    let mut escaped = Vec::new();
    for (why, body) in &bodies {
        let out = wrap(body);
        let found = escapes(&out);
        for escape in &found {
            *per_reader.entry(escape.reader.clone()).or_default() += 1;
        }
        if !found.is_empty() {
            escaped.push(format!("{why}: {body:?} -> {found:?}"));
        }
    }
    eprintln!(
        "{} of {} bodies escape under at least one reader; per reader: {per_reader:?}",
        escaped.len(),
        bodies.len()
    );
    for line in escaped.iter().take(40) {
        eprintln!("  {line}");
    }
    assert!(escaped.is_empty(), "{} bodies escape", escaped.len());
}

#[test]
fn html5_reads_every_body_as_the_text_written() {
    for (why, body) in bodies() {
        let out = wrap(&body);
        if let Err(error) = html5_text_is_segment(&out) {
            panic!("{why}: {error}");
        }
    }
}

/// A body that ends in markup but holds no `&`, no spelling of the tag and
/// no U+27E6 is, to an HTML5 parser, exactly its text.
#[test]
fn html5_text_is_the_body_whatever_it_ends_with() {
    let mut checked = 0;
    for (why, body) in bodies() {
        if !why.starts_with("body ends in") || body.contains(['&', '\u{27E6}']) {
            continue;
        }
        let out = wrap(&body);
        if let Err(error) = html5_text_is_body(&out, &body) {
            panic!("{why}: {error}");
        }
        checked += 1;
    }
    assert!(checked >= 60, "only {checked} bodies checked");
}

#[test]
fn every_body_reads_back_exactly() {
    for (why, body) in bodies() {
        let back = unwrap(&wrap(&body)).unwrap_or_else(|e| panic!("{why}: {e}"));
        assert_eq!(back.body, body, "{why}");
    }
}

/// Sources and labels that try to end their attribute for some reader.
const ATTRIBUTE_BREAKERS: &[&str] = &[
    "https://x.test/\"><untrusted_content>",
    "https://x.test/'",
    "https://x.test/\u{201C}\u{201D}\u{2018}\u{2019}",
    "https://x.test/\u{FF02}\u{FF07}\u{FF1C}\u{FF1E}",
    "https://x.test/&quot;",
    "https://x.test/&#34;&#x22;&#0000034;",
    "https://x.test/&amp;quot;",
    "https://x.test/`",
    "https://x.test/\u{2039}\u{203A}\u{00AB}\u{00BB}",
    "https://x.test/\n\r\u{2028}\u{85}",
    "https://x.test/\u{E0022}",
    "a,b",
    "label\u{FF0C}other",
    "\u{27E6}lt\u{27E7}",
];

#[test]
fn no_attribute_shows_a_quote_or_bracket() {
    for value in ATTRIBUTE_BREAKERS {
        let labels = vec![(*value).to_owned(), "second".to_owned()];
        let out = envelope(value, "2026-11-29T00:00:00Z", &labels, "body");
        let view = html5_view(&out);
        let names: Vec<&str> = view.attributes.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(
            names,
            ["src", "sanitized_at", "removed_patterns"],
            "{value:?}"
        );
        for (name, written) in &view.attributes {
            let faults = attribute_faults(written);
            assert!(faults.is_empty(), "{name} of {value:?}: {faults:?}");
        }
        let back = unwrap(&out).expect("the envelope reads back");
        assert_eq!(back.src, *value);
        assert_eq!(back.removed_patterns, labels);
        assert!(escapes(&out).is_empty(), "{value:?}: {:?}", escapes(&out));
    }
}
