//! The web fuzz harnesses: bytes in, a panic naming the broken guarantee of
//! [`crate::web::contract`] out.

use arbitrary::Unstructured;

use super::{envelope_readers, fetch_mock, html_grammar};
use crate::web::contract::{check_envelope, check_planted_removed, check_strip};

/// Web strip on any text (UTF-8, lossily). Checks [`check_strip`].
pub fn strip(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    if let Err(violation) = check_strip(&text) {
        panic!("{violation}\ntext: {text:?}");
    }
}

/// Web envelope on any source, labels and body, split out of the bytes;
/// the body raw, or built by [`html_grammar::hostile_body`].
/// Checks [`check_envelope`], then asks the readers written apart from the
/// reference ([`super::envelope_readers`]: an HTML5 parser, confusable
/// folds, entity decoding up to three times) whether any sees more than
/// the envelope's two tags, or part of the body as markup.
pub fn envelope(data: &[u8]) {
    let mut u = Unstructured::new(data);
    let src: String = u.arbitrary().unwrap_or_default();
    let labels: Vec<String> = u.arbitrary().unwrap_or_default();
    // Half the runs wrap a body the web generator built to escape (a
    // padded tag, an ending HTML5 reads as markup), half the raw rest.
    let body = match u.arbitrary::<bool>() {
        Ok(true) => html_grammar::hostile_body(&mut u).unwrap_or_default(),
        _ => String::from_utf8_lossy(u.take_rest()).into_owned(),
    };
    let wrapped = match check_envelope(&src, "2026-11-29T00:00:00Z", &labels, &body) {
        Ok(wrapped) => wrapped,
        Err(violation) => panic!("{violation}\nsrc: {src:?}\nlabels: {labels:?}\nbody: {body:?}"),
    };
    let escapes = envelope_readers::escapes(&wrapped);
    let segment = envelope_readers::html5_text_is_segment(&wrapped);
    if !escapes.is_empty() || segment.is_err() {
        panic!("readers see {escapes:?} / {segment:?} in {wrapped:?}\nbody: {body:?}");
    }
}

/// Web strip on an HTML page with upstream's seed markers planted in
/// carriers (text, comments, hidden elements, attributes) and spelled as a
/// page hides them (entities, zero-width and look-alike characters,
/// fullwidth forms, odd gaps). Checks [`check_strip`] and
/// [`check_planted_removed`].
pub fn strip_html(data: &[u8]) {
    let mut u = Unstructured::new(data);
    let Ok((page, planted)) = html_grammar::page(&mut u) else {
        return;
    };
    let planted: Vec<(&str, &str)> = planted
        .iter()
        .map(|marker| (marker.label, marker.spelled.as_str()))
        .collect();
    let outcome =
        check_strip(&page).and_then(|once| check_planted_removed(&page, &planted, &once.text));
    if let Err(violation) = outcome {
        panic!("{violation}\npage: {page:?}");
    }
}

/// Web fetch of an HTTP answer the fuzzer describes (status, Content-Type
/// and charset, Content-Encoding, gzip, Content-Length true, lying or
/// garbled, close-delimited or chunked framing, Location, body bytes),
/// served on loopback with a 512-byte cap and
/// `AddressPolicy { allow_private: true }`:
///
/// - the fetch never panics and fails only with a kind of `WebError::KINDS`;
/// - a page it returns is 2xx and holds no more chars than the cap bytes;
/// - a readable 2xx UTF-8 text answer within the cap decodes to its body;
/// - a readable 2xx text answer over the cap fails with `body_too_large`.
pub fn fetch_mock(data: &[u8]) {
    let mut u = Unstructured::new(data);
    let Ok(answer) = fetch_mock::Answer::build(&mut u) else {
        return;
    };
    fetch_mock::check(&answer);
}
