//! Fuzz harness bodies, one function per fuzz target, and the generators
//! they share with the property tests: one module per boundary, each beside
//! its grammar. Not part of the stable API: built only with the `fuzzing`
//! feature, as the fuzz targets, the property tests and the corpus replay
//! need it.
//!
//! Each harness takes the raw bytes libFuzzer hands over and panics only
//! when a guarantee of its boundary's `contract` module is broken. The
//! targets in `fuzz/` call these functions and nothing else;
//! `tests/corpus_replay.rs` feeds them every committed file under
//! `corpus/`, so the corpus is a regression suite on stable Rust too.

pub mod chat;
pub mod chat_cases;
pub mod chat_grammar;
pub mod chat_readers;
#[cfg(feature = "web")]
pub mod differential;
#[cfg(feature = "web")]
pub mod envelope_readers;
#[cfg(feature = "web")]
mod fetch_mock;
#[cfg(feature = "web")]
pub mod html_grammar;
pub mod look_alike;
pub mod template;
pub mod template_fenced;
pub mod template_grammar;
pub mod template_planted;
#[cfg(feature = "web")]
pub mod web;

#[cfg(feature = "web")]
pub use html_grammar::SEED_MARKERS;

/// A harness: takes the fuzzer's bytes, panics on a broken guarantee.
pub type Harness = fn(&[u8]);

/// Every fuzz target by name; the name is also its folder under `corpus/`.
pub const TARGETS: &[(&str, Harness)] = &[
    ("template", template::template),
    ("chat_parse", chat::chat_parse),
    ("chat_strict", chat::chat_strict),
    #[cfg(feature = "web")]
    ("strip", web::strip),
    #[cfg(feature = "web")]
    ("envelope", web::envelope),
    ("template_structured", template::template_structured),
    #[cfg(feature = "web")]
    ("strip_html", web::strip_html),
    #[cfg(feature = "web")]
    ("fetch_mock", web::fetch_mock),
    ("chat_roundtrip", chat::chat_roundtrip),
];

/// The differential targets of `fuzz-upstream/`, with agentfence standing
/// in for the upstream crate.
#[cfg(feature = "web")]
const DIFFERENTIAL: &[(&str, Harness)] = differential::TARGETS;
#[cfg(not(feature = "web"))]
const DIFFERENTIAL: &[(&str, Harness)] = &[];

/// The harness of the target called `name`: a target of `fuzz/`, or a
/// differential one of `fuzz-upstream/` (run against agentfence itself).
pub fn harness(name: &str) -> Option<Harness> {
    TARGETS
        .iter()
        .chain(DIFFERENTIAL)
        .find(|(target, _)| *target == name)
        .map(|(_, harness)| *harness)
}
