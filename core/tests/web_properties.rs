//! Property tests of the web boundary's pure stages, one per guarantee.
//! Inputs come from `agentfence::fuzzing::html_grammar`, the generator the
//! web fuzz targets use, and from arbitrary strings; the envelope is read
//! by `fuzzing::envelope_readers`, written apart from the reference.
//! Case counts come from `PROPTEST_CASES` (the nightly job runs 100×).

#[path = "support/case_bytes.rs"]
mod case_bytes;

use agentfence::fuzzing::{envelope_readers, html_grammar};
use agentfence::web::contract::{
    check_envelope, check_idempotent, check_labels, check_planted_removed, check_strip,
};
use agentfence::web::envelope::{envelope, unwrap};
use agentfence::web::strip::strip;
use case_bytes::{config, from_bytes};
use proptest::prelude::*;

fn prose() -> impl Strategy<Value = String> {
    from_bytes(html_grammar::prose)
}

fn any_text() -> impl Strategy<Value = String> {
    prop_oneof![3 => from_bytes(html_grammar::text), 1 => any::<String>()]
}

/// The contract's failure as a proptest failure.
fn holds<T, E: std::fmt::Display>(result: Result<T, E>, input: &str) -> Result<T, TestCaseError> {
    result.map_err(|violation| TestCaseError::fail(format!("{violation} on {input:?}")))
}

/// Where proptest keeps the failures it found, replayed first next time.
const FAILURES: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/proptest-regressions/web_properties.txt"
);

proptest! {
    #![proptest_config(config(FAILURES))]

    #[test]
    fn no_marker_survives(
        (label, spelled, whole) in from_bytes(html_grammar::planted_marker),
        before in prose(),
        after in prose(),
    ) {
        let text = format!("{before}{whole}\n{after}");
        let out = holds(check_strip(&text), &text)?;
        prop_assert!(
            out.removed_patterns.iter().any(|got| got == label),
            "{label:?} not reported for {text:?}: {out:?}"
        );
        holds(check_planted_removed(&text, &[(label, spelled.as_str())], &out.text), &text)?;
    }

    #[test]
    fn plain_prose_is_left_byte_identical(text in prose()) {
        let out = strip(&text);
        prop_assert_eq!(&out.text, &text);
        prop_assert!(out.removed_patterns.is_empty(), "{:?}", out.removed_patterns);
    }

    #[test]
    fn strip_is_idempotent(text in any_text()) {
        holds(check_idempotent(&strip(&text)), &text)?;
    }

    /// Each pass can bring one more level to light; however deep the
    /// nesting, the output is a fixpoint and no marker survives.
    #[test]
    fn nested_markers_settle_at_any_depth(text in from_bytes(html_grammar::nested_markers)) {
        holds(check_strip(&text), &text)?;
    }

    #[test]
    fn every_stripped_token_has_a_label(text in any_text()) {
        holds(check_labels(&strip(&text)), &text)?;
    }

    #[test]
    fn nothing_escapes_the_envelope(
        body in from_bytes(html_grammar::hostile_body),
        src in any::<String>(),
        labels in proptest::collection::vec(".+", 0..4),
    ) {
        let out = holds(check_envelope(&src, "2026-11-29T10:00:00Z", &labels, &body), &body)?;
        // The reference's own count is part of the contract; these readers
        // were written apart from it.
        let escapes = envelope_readers::escapes(&out);
        prop_assert!(escapes.is_empty(), "{:?} -> {:?}", out, escapes);
        prop_assert!(envelope_readers::html5_text_is_segment(&out).is_ok(), "{:?}", out);
    }

    #[test]
    fn no_attribute_shows_a_quote_to_any_reader(
        src in any::<String>(),
        labels in proptest::collection::vec(any::<String>(), 0..4),
    ) {
        let out = envelope(&src, "2026-11-29T10:00:00Z", &labels, "x");
        let view = envelope_readers::html5_view(&out);
        prop_assert_eq!(view.attributes.len(), 3);
        for (_, value) in &view.attributes {
            let faults = envelope_readers::attribute_faults(value);
            prop_assert!(faults.is_empty(), "{:?}", faults);
        }
        let back = unwrap(&out).map_err(|error| TestCaseError::fail(error.to_string()))?;
        prop_assert_eq!(back.src, src);
        let written: Vec<String> = labels.into_iter().filter(|l| !l.is_empty()).collect();
        prop_assert_eq!(back.removed_patterns, written);
    }
}

/// Every prose line with every ending an HTML5 parser reads as markup: the
/// space is finite, so it is walked whole rather than sampled (sampling it
/// with `&` bodies rejected ran out of cases at 6,400 cases a property).
/// Bodies with `&` are left out: an HTML5 reader decodes entities, so its
/// text is not the body byte for byte.
#[test]
fn html5_text_is_the_body_whatever_it_ends_with() {
    let mut checked = 0;
    for prose in html_grammar::PROSE.iter().chain(html_grammar::MORE_PROSE) {
        for ending in html_grammar::HTML5_ENDINGS {
            let body = format!("{prose} {ending}");
            if body.contains('&') {
                continue;
            }
            let out = envelope("https://x.test/", "2026-11-29T10:00:00Z", &[], &body);
            let read = envelope_readers::html5_text_is_body(&out, &body);
            assert!(read.is_ok(), "{body:?}: {read:?}");
            checked += 1;
        }
    }
    assert!(
        checked > html_grammar::PROSE.len(),
        "only {checked} bodies were read"
    );
}
