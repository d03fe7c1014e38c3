//! The failure-template fuzz harnesses: bytes in, a panic naming the broken
//! guarantee of [`crate::template::contract`] out.

use arbitrary::Unstructured;

use super::template_grammar;
use crate::template::{Scrubber, check_message, check_secrets};

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
/// placeholder-shaped input, line breaks, ANSI codes), on one that carries
/// a secret spelt in vocabulary words, or on one with fenced words where
/// they must not survive: the template keeps the contract, and none of the
/// planted secrets survives in it.
pub fn template_structured(data: &[u8]) {
    let mut u = Unstructured::new(data);
    let Ok((drawn, lexicon, case)) = template_grammar::any_case(&mut u) else {
        return;
    };
    let scrubber = lexicon.scrubber();
    let template = scrubber.template(&case.text);
    if let Err(violation) = check_message(&case.text, scrubber) {
        panic!(
            "template {template:?} of {:?} ({drawn:?}) breaks the contract: {violation}",
            case.text
        );
    }
    if let Some(template) = &template
        && let Err(violation) = check_secrets(template, &case.secrets)
    {
        panic!(
            "template {template:?} of {:?} ({drawn:?}): {violation}",
            case.text
        );
    }
}
