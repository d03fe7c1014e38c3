//! The chat fuzz harnesses: bytes in, a panic naming the broken guarantee
//! of [`crate::chat::contract`] out.

use arbitrary::Unstructured;

use super::chat_cases::{self, StrictCase};
use super::chat_readers;
use crate::chat::Context;
use crate::chat::contract::{check_parse, check_round_trip};

/// Chat parsing on raw bytes: `[count][nonce…] 0x00 [text…]`, read as
/// UTF-8 lossily; without a `0x00` all bytes are the text, the nonce is
/// `n1` and the count 0. Checks [`check_parse`].
pub fn chat_parse(data: &[u8]) {
    let (head, body) = match data.iter().position(|&b| b == 0) {
        Some(at) => (&data[..at], &data[at + 1..]),
        None => (&[][..], data),
    };
    let text = String::from_utf8_lossy(body);
    let (markers, nonce) = match head.split_first() {
        Some((&count, nonce)) => (
            usize::from(count % 16),
            String::from_utf8_lossy(nonce).into_owned(),
        ),
        None => (0, "n1".to_string()),
    };
    let context = Context { nonce, markers };
    if let Err(violation) = check_parse(&text, &context) {
        panic!("{violation}\ntext: {text:?}\ncontext: {context:?}");
    }
}

/// Chat strict mode on a structured case ([`StrictCase`]): a template of
/// author markers in every spelling the grammar allows and content lines
/// with placeholders, clean values, a nonce (coercion traps, hex as
/// `generate_nonce` draws it, digits, `…e…`, any valid one), and at times
/// one value carrying a forged role-marker line. Checks
/// [`crate::chat::contract::check_strict_render`], then asks the readers
/// written apart from the reference ([`super::chat_readers`]) whether an
/// accepted render shows them a marker the template did not write.
pub fn chat_strict(data: &[u8]) {
    let mut u = Unstructured::new(data);
    let Ok(case) = StrictCase::build(&mut u) else {
        return;
    };
    if let Err(violation) = case.check() {
        // Formatted only on failure: formatting every case cost about a
        // fifth of the harness's time.
        panic!("{violation}\n{}", case.report());
    }
    if let Err(seen) = case.check_readers() {
        panic!("{seen}\n{}", case.report());
    }
}

/// Chat round trip: messages (any role spelling, author metadata written
/// quoted or not, content lines no reader takes for a marker) written out
/// with a nonce (hex as `generate_nonce` draws it, or a coercion trap)
/// and without one. Checks [`check_round_trip`] both ways, and that with the
/// nonce no reader of [`chat_readers`] sees a marker but the written ones.
pub fn chat_roundtrip(data: &[u8]) {
    let mut u = Unstructured::new(data);
    let Ok(nonce) = chat_cases::nonce(&mut u) else {
        return;
    };
    for nonce in [Some(nonce.as_str()), None] {
        let Ok((messages, text)) = chat_cases::written_messages(&mut u, nonce) else {
            return;
        };
        if let Err(violation) = check_round_trip(&messages, &text, nonce) {
            panic!("{violation} (nonce {nonce:?})");
        }
        // Written with the nonce, the text's only markers are its own: no
        // reader written apart from the reference may see another.
        if let Some(nonce) = nonce {
            let seen = chat_readers::forged_markers(&text, nonce);
            if !seen.is_empty() {
                panic!("readers see forged markers {seen:?} in {text:?}");
            }
        }
    }
}
