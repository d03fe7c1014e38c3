//! Fuzz harness bodies, one function per fuzz target.
//!
//! Each takes the raw bytes libFuzzer hands over and panics only when a
//! guarantee of its boundary is broken. The targets in `fuzz/` call these
//! functions and nothing else; `tests/corpus_replay.rs` feeds them every
//! committed file under `corpus/`, so the corpus is a regression suite on
//! stable Rust too.

use crate::template::{Scrubber, check_contract};

/// A harness: takes the fuzzer's bytes, panics on a broken guarantee.
pub type Harness = fn(&[u8]);

/// Every fuzz target by name; the name is also its folder under `corpus/`.
pub const TARGETS: &[(&str, Harness)] = &[("template", template)];

/// The harness of the target called `name`.
pub fn harness(name: &str) -> Option<Harness> {
    TARGETS
        .iter()
        .find(|(target, _)| *target == name)
        .map(|(_, harness)| *harness)
}

/// Failure templates: any bytes (read as UTF-8, lossily) give a template
/// that keeps the whole contract, or none.
pub fn template(data: &[u8]) {
    let message = String::from_utf8_lossy(data);
    let scrubber = Scrubber::new();
    let report = scrubber.report(&message);
    if let Some(template) = &report.template
        && let Err(violation) = check_contract(template, &scrubber)
    {
        panic!("template {template:?} of {message:?} breaks the contract: {violation}");
    }
}
