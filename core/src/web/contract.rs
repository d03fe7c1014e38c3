//! The web contract as checks anyone can run on an input and what the strip
//! layer or the envelope made of it. The fuzz harnesses, the property tests
//! and the corpus replay all call these, so each guarantee is stated once,
//! here.
//!
//! - [`check_strip`]: the output holds exactly one `[STRIPPED]` per label,
//!   and stripping it again changes nothing and finds nothing but the
//!   layer's own tokens (no marker survives);
//! - [`check_planted_removed`]: a marker planted in a page, as it was
//!   spelled, is gone from the output (the same words in the page's own
//!   prose may stay);
//! - [`check_envelope`]: the envelope holds exactly one opening tag, at its
//!   start, and one closing tag, at its end, and unwraps to the very parts
//!   it was given.

use thiserror::Error;

use super::envelope::{self, count_tags};
use super::strip::{STRIPPED, Stripped, rules::PLANTED_MARKER, strip};

/// A way the strip layer breaks its contract.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum StripViolation {
    #[error("the output holds {tokens} [STRIPPED] tokens for {labels} labels")]
    TokensAndLabelsDiffer { tokens: usize, labels: usize },
    #[error("stripping the output again changes it to {again:?}")]
    NotIdempotent { again: String },
    #[error("stripping the output again finds {labels:?}: a marker survived")]
    MarkerSurvived { labels: Vec<String> },
    #[error("the planted {label:?} marker {spelled:?} survived")]
    PlantedSurvived { label: String, spelled: String },
}

/// A way the envelope breaks its contract.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum EnvelopeViolation {
    #[error("the envelope holds {tags} tags, not its own two")]
    SecondTag { tags: usize },
    #[error("the envelope does not open and close with its own tags")]
    NotFramed,
    #[error("the envelope does not unwrap: {reason}")]
    DoesNotUnwrap { reason: String },
    #[error("unwrap gave back {got}, not the parts {given}")]
    PartsDiffer { got: String, given: String },
}

/// Strips `text` and checks every guarantee of the result, which it
/// returns: [`check_labels`] and [`check_idempotent`].
pub fn check_strip(text: &str) -> Result<Stripped, StripViolation> {
    let once = strip(text);
    check_labels(&once)?;
    if once.text == text {
        // The strip is a function of its input: stripping an output equal
        // to the input is the strip just done, so its result is `once`.
        // This halves the cost of a text without markers.
        check_second_strip(&once, &once)?;
    } else {
        check_idempotent(&once)?;
    }
    Ok(once)
}

/// The output of a strip holds exactly one `[STRIPPED]` per label.
pub fn check_labels(once: &Stripped) -> Result<(), StripViolation> {
    let tokens = once.text.matches(STRIPPED).count();
    if tokens != once.removed_patterns.len() {
        return Err(StripViolation::TokensAndLabelsDiffer {
            tokens,
            labels: once.removed_patterns.len(),
        });
    }
    Ok(())
}

/// Stripping the output of a strip again changes nothing and finds nothing
/// but the layer's own `[STRIPPED]` tokens: no marker survives.
pub fn check_idempotent(once: &Stripped) -> Result<(), StripViolation> {
    check_second_strip(once, &strip(&once.text))
}

/// `twice`, the strip of `once.text`, leaves it as it is and finds nothing
/// but the layer's own `[STRIPPED]` tokens.
fn check_second_strip(once: &Stripped, twice: &Stripped) -> Result<(), StripViolation> {
    if twice.text != once.text {
        return Err(StripViolation::NotIdempotent {
            again: twice.text.clone(),
        });
    }
    if twice.removed_patterns.iter().any(|l| l != PLANTED_MARKER) {
        return Err(StripViolation::MarkerSurvived {
            labels: twice.removed_patterns.clone(),
        });
    }
    Ok(())
}

/// Checks that no marker planted in `page` (each as `(label, spelled)`)
/// survives in `output`, the strip of `page`: the spelled words may stay
/// only as often as the page's own prose holds them outside the plants.
pub fn check_planted_removed(
    page: &str,
    planted: &[(&str, &str)],
    output: &str,
) -> Result<(), StripViolation> {
    for (label, spelled) in planted {
        let plants = planted.iter().filter(|(_, s)| s == spelled).count();
        let in_prose = page.matches(spelled).count().saturating_sub(plants);
        if output.matches(spelled).count() > in_prose {
            return Err(StripViolation::PlantedSurvived {
                label: label.to_string(),
                spelled: spelled.to_string(),
            });
        }
    }
    Ok(())
}

/// Wraps `body` with `src`, `sanitized_at` and `labels`, and checks every
/// guarantee of the envelope, which it returns.
pub fn check_envelope(
    src: &str,
    sanitized_at: &str,
    labels: &[String],
    body: &str,
) -> Result<String, EnvelopeViolation> {
    let out = envelope::envelope(src, sanitized_at, labels, body);
    let tags = count_tags(&out);
    if tags != 2 {
        return Err(EnvelopeViolation::SecondTag { tags });
    }
    let open = format!("<{} ", envelope::TAG);
    let close = format!("\n</{}>", envelope::TAG);
    if !out.starts_with(&open) || !out.ends_with(&close) {
        return Err(EnvelopeViolation::NotFramed);
    }
    let back = envelope::unwrap(&out).map_err(|error| EnvelopeViolation::DoesNotUnwrap {
        reason: error.to_string(),
    })?;
    // Empty labels name nothing and are not written (see `envelope`).
    let written: Vec<&str> = labels
        .iter()
        .map(String::as_str)
        .filter(|l| !l.is_empty())
        .collect();
    let got: Vec<&str> = back.removed_patterns.iter().map(String::as_str).collect();
    if (back.src.as_str(), got.as_slice(), back.body.as_str()) != (src, written.as_slice(), body) {
        return Err(EnvelopeViolation::PartsDiffer {
            got: format!("{back:?}"),
            given: format!("src {src:?}, labels {written:?}, body {body:?}"),
        });
    }
    Ok(out)
}
