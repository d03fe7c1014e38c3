//! The chat contract as checks anyone can run on an input and what the
//! parser made of it. The fuzz harnesses, the property tests and the corpus
//! replay all call these, so each guarantee is stated once, here.
//!
//! - [`check_parse`]: parsing never fails without a strict context, trims
//!   the newlines at the edges of every content and never puts the nonce in
//!   the metadata; strict parsing returns one of its own error kinds or the
//!   very messages of the non-strict parse; a pre-rendered text parses back
//!   strictly to its own messages, and no line of the template is ever
//!   refused as forged (`nonce_mismatch`).
//! - [`check_strict_render`]: a forged line in a value always fails the
//!   strict render, with the kind the case expects; a clean case always
//!   succeeds, with the author's roles and metadata.
//! - [`check_round_trip`]: messages written out as markers parse back to
//!   the very same messages.

use std::collections::BTreeMap;

use thiserror::Error;

use super::{
    ChatError, Context, Message, Metadata, NONCE_KEY, Role, parse, pre_render_with_nonce, render,
    render_strict,
};

/// A way the chat parser, pre-render or render breaks the contract. Each
/// variant carries what a person needs to reproduce it (as `Debug` text).
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ChatViolation {
    #[error("the non-strict parse failed: {error}")]
    NonStrictFailed { error: String },
    #[error("content {content:?} starts or ends with a newline")]
    UntrimmedContent { content: String },
    #[error("the reserved `nonce` key is in the metadata of {message}")]
    NonceInMetadata { message: String },
    #[error("the strict parse gave {strict} where the non-strict one gave {plain}")]
    StrictDiffers { strict: String, plain: String },
    #[error("{operation} failed with {error}, a kind it never returns")]
    UndocumentedKind {
        operation: &'static str,
        error: String,
    },
    #[error("the author's own marker {line:?} (line {number}) was refused")]
    AuthorMarkerRefused { line: String, number: usize },
    #[error("nonce_mismatch names line {number}, which the text does not have")]
    NoSuchLine { number: usize },
    #[error("a forged line gave {got} instead of the error kind {expected}")]
    ForgedNotRefused { expected: &'static str, got: String },
    #[error("a clean render was refused: {error}")]
    CleanRefused { error: String },
    #[error("the plain render of a clean case failed: {error}")]
    PlainRenderFailed { error: String },
    #[error("{messages} messages for {markers} author markers")]
    MessageCount { messages: usize, markers: usize },
    #[error("roles and metadata {ours} are not the author's {theirs}")]
    NotTheAuthors { ours: String, theirs: String },
    #[error("the round trip of {text:?} gave {got} instead of {expected}")]
    RoundTripDiffers {
        text: String,
        got: String,
        expected: String,
    },
}

/// Whether `parse` may fail with `error`: the strict checks' kinds only,
/// and a context nonce pre-render would refuse (render and the nonce source
/// have kinds of their own).
pub fn is_parse_error(error: &ChatError) -> bool {
    matches!(
        error,
        ChatError::InvalidNonce { .. }
            | ChatError::NonceMismatch { .. }
            | ChatError::DuplicateNonce { .. }
            | ChatError::MarkerCountMismatch { .. }
    )
}

/// Whether `pre_render` may fail with `error` on a template without
/// placeholders.
fn is_pre_render_error(error: &ChatError) -> bool {
    matches!(
        error,
        ChatError::InvalidNonce { .. }
            | ChatError::ReservedAttribute { .. }
            | ChatError::UnclearTemplateMarker { .. }
    )
}

/// The non-strict parse's own guarantees: it never fails, every content is
/// trimmed of newlines at its edges, and no metadata holds the nonce.
fn checked_non_strict(text: &str) -> Result<Vec<Message<'_>>, ChatViolation> {
    let plain = parse(text, None).map_err(|error| ChatViolation::NonStrictFailed {
        error: format!("{error:?}"),
    })?;
    for message in &plain {
        if message.content.starts_with('\n') || message.content.ends_with('\n') {
            return Err(ChatViolation::UntrimmedContent {
                content: message.content.to_string(),
            });
        }
        if message.metadata.contains_key(NONCE_KEY) {
            return Err(ChatViolation::NonceInMetadata {
                message: format!("{message:?}"),
            });
        }
    }
    Ok(plain)
}

/// Every guarantee of parsing `text`, non-strict and with `context`, and of
/// pre-rendering `text` itself as a template with `context`'s nonce.
pub fn check_parse(text: &str, context: &Context) -> Result<(), ChatViolation> {
    let plain = checked_non_strict(text)?;
    let strict = parse(text, Some(context));
    match &strict {
        Ok(strict) if *strict != plain => {
            return Err(ChatViolation::StrictDiffers {
                strict: format!("{strict:?}"),
                plain: format!("{plain:?}"),
            });
        }
        Err(error) if !is_parse_error(error) => {
            return Err(ChatViolation::UndocumentedKind {
                operation: "parse",
                error: format!("{error:?}"),
            });
        }
        _ => {}
    }

    let (prepared, prepared_context) = match pre_render_with_nonce(text, &context.nonce) {
        Ok(prepared) => prepared,
        Err(error) if is_pre_render_error(&error) => return Ok(()),
        Err(error) => {
            return Err(ChatViolation::UndocumentedKind {
                operation: "pre-render",
                error: format!("{error:?}"),
            });
        }
    };
    // The template is trusted: every line some reader takes for a marker
    // became an author's marker (or the template was refused), so the
    // strict parse of what pre-render made gives its non-strict messages,
    // and never refuses a line of the template as forged.
    let prepared_plain = checked_non_strict(&prepared)?;
    match parse(&prepared, Some(&prepared_context)) {
        Ok(again) if again == prepared_plain => Ok(()),
        Ok(again) => Err(ChatViolation::StrictDiffers {
            strict: format!("{again:?}"),
            plain: format!("{prepared_plain:?}"),
        }),
        Err(ChatError::NonceMismatch { line }) => {
            let body = prepared.strip_prefix('\u{feff}').unwrap_or(&prepared);
            let raw = body
                .split('\n')
                .nth(line.saturating_sub(1))
                .ok_or(ChatViolation::NoSuchLine { number: line })?;
            Err(ChatViolation::AuthorMarkerRefused {
                line: raw.to_string(),
                number: line,
            })
        }
        Err(error) => Err(ChatViolation::UndocumentedKind {
            operation: "the strict parse of a pre-rendered text",
            error: format!("{error:?}"),
        }),
    }
}

/// Every guarantee of a strict render of `template` with `values` and
/// `nonce`. `markers` is the template's author marker lines, one per line;
/// `forged` names the error kind a forged value must cause, or is `None`
/// for a clean case.
///
/// - a forged line fails the render with exactly the `forged` kind;
/// - a clean case succeeds with the messages a non-strict parse of the
///   plainly rendered template gives, with the author's roles and metadata
///   (as a non-strict parse of `markers` reads them), and no message holds
///   the nonce in its metadata.
pub fn check_strict_render(
    template: &str,
    markers: &str,
    values: &BTreeMap<String, String>,
    nonce: &str,
    forged: Option<&'static str>,
) -> Result<(), ChatViolation> {
    let result = render_strict(template, values, nonce);
    if let Some(expected) = forged {
        return match &result {
            Err(error) if error.kind() == expected => Ok(()),
            other => Err(ChatViolation::ForgedNotRefused {
                expected,
                got: format!("{other:?}"),
            }),
        };
    }
    let messages = result.map_err(|error| ChatViolation::CleanRefused {
        error: format!("{} ({error})", error.kind()),
    })?;
    let rendered = render(template, values).map_err(|error| ChatViolation::PlainRenderFailed {
        error: format!("{error:?}"),
    })?;
    let plain = checked_non_strict(&rendered)?;
    if messages != plain {
        return Err(ChatViolation::StrictDiffers {
            strict: format!("{messages:?}"),
            plain: format!("{plain:?}"),
        });
    }
    let authored = checked_non_strict(markers)?;
    // One message more than markers is the preamble before the first one.
    let preamble = messages.len().checked_sub(authored.len());
    if !matches!(preamble, Some(0 | 1)) {
        return Err(ChatViolation::MessageCount {
            messages: messages.len(),
            markers: authored.len(),
        });
    }
    let ours: Vec<(Role, &Metadata)> = messages[messages.len() - authored.len()..]
        .iter()
        .map(|m| (m.role, &m.metadata))
        .collect();
    let theirs: Vec<(Role, &Metadata)> = authored.iter().map(|m| (m.role, &m.metadata)).collect();
    if ours != theirs {
        return Err(ChatViolation::NotTheAuthors {
            ours: format!("{ours:?}"),
            theirs: format!("{theirs:?}"),
        });
    }
    Ok(())
}

/// `messages`, written out as `text` with markers carrying `nonce` (or
/// none), parse back to the very same messages: strictly with that nonce
/// and the marker count, or non-strictly without a nonce.
pub fn check_round_trip(
    messages: &[Message<'_>],
    text: &str,
    nonce: Option<&str>,
) -> Result<(), ChatViolation> {
    let context = nonce.map(|nonce| Context {
        nonce: nonce.to_string(),
        markers: messages.len(),
    });
    match parse(text, context.as_ref()) {
        Ok(parsed) if parsed == messages => Ok(()),
        other => Err(ChatViolation::RoundTripDiffers {
            text: text.to_string(),
            got: format!("{other:?}"),
            expected: format!("{messages:?}"),
        }),
    }
}
