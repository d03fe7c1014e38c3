//! The failure-template fuzz harnesses: bytes in, a panic naming the broken
//! guarantee of [`crate::template::contract`] out.

use arbitrary::Unstructured;

use super::template_grammar;
use crate::template::{Scrubber, check_message};

/// The crate's own scrubber, built once for every run of a harness.
fn scrubber() -> &'static Scrubber {
    static SCRUBBER: std::sync::LazyLock<Scrubber> = std::sync::LazyLock::new(Scrubber::new);
    &SCRUBBER
}

fn check(message: &str) {
    if let Err(violation) = check_message(message, scrubber()) {
        let template = scrubber().template(message);
        panic!("template {template:?} of {message:?} breaks the contract: {violation}");
    }
}

/// Failure templates on any bytes (read as UTF-8, lossily).
pub fn template(data: &[u8]) {
    check(&String::from_utf8_lossy(data));
}

/// Failure templates on a message built from typed fragments (paths, URLs,
/// e-mail addresses, quoted spans, numbers, identifiers, vocabulary words,
/// placeholder-shaped input, line breaks, ANSI codes).
pub fn template_structured(data: &[u8]) {
    let mut u = Unstructured::new(data);
    if let Ok(message) = template_grammar::message(&mut u) {
        check(&message);
    }
}
