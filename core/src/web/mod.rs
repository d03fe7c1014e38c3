//! Web sanitize: a fetched page, stripped of prompt-injection markers and
//! wrapped in an `<untrusted_content>` envelope it cannot escape, with an
//! audit row that never holds the raw body.
//!
//! Guarantees:
//! - [`fetch`]: GET over `http`/`https` only; the body cap holds while the
//!   body streams (a page never takes more memory than the cap plus one
//!   chunk), and a body over it fails rather than being cut; every
//!   connection, redirect hops included, goes to an address the
//!   [`AddressPolicy`] allows, checked on the *resolved* address; URL
//!   credentials never reach an error, the envelope or the audit row;
//! - [`strip`]: markers are matched after normalization (entities, tags,
//!   NFKC, invisible characters, look-alike letters, case, spacing) and
//!   with word boundaries, then replaced on the original text; the result
//!   holds exactly one `[STRIPPED]` per label, and stripping it again
//!   changes nothing;
//! - [`semantic`]: the model review fails open on every failure and says
//!   which in [`SemanticStatus`]; it only removes text found verbatim;
//! - [`envelope`]: the output holds exactly one opening tag, at its start,
//!   and one closing tag, at its end, for any body, source and labels, and
//!   [`envelope::unwrap`] gives back the body;
//! - [`audit`]: the row is written atomically, owner-only, and never holds
//!   the raw body.

pub mod address;
pub mod audit;
pub mod contract;
mod entity;
pub mod envelope;
pub mod fetch;
pub mod semantic;
pub mod strip;

use std::path::PathBuf;
use std::time::Duration;

use serde::{Deserialize, Serialize};
use thiserror::Error;
use time::OffsetDateTime;

pub use address::AddressPolicy;
pub use semantic::{SemanticConfig, SemanticStatus};
pub use strip::{Stripped, strip};

/// Largest body accepted, after content decoding (2 MiB, as upstream).
pub const DEFAULT_MAX_BODY_BYTES: usize = 2 * 1024 * 1024;
/// Total time for one fetch, body included.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(10);
/// Redirect hops followed before the fetch fails.
pub const DEFAULT_MAX_REDIRECTS: usize = 5;

/// Why a fetch failed. The message never holds the body or URL
/// credentials; [`WebError::kind`] is stable and is what vectors expect.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum WebError {
    #[error("invalid URL: {reason}")]
    InvalidUrl { reason: String },
    #[error("unsupported scheme {scheme:?}: only http and https are fetched")]
    UnsupportedScheme { scheme: String },
    #[error("blocked address: {host} resolves to {address}, which the address policy refuses")]
    BlockedAddress { host: String, address: String },
    #[error("HTTP status {status}")]
    HttpStatus { status: u16 },
    #[error("body too large: more than {limit} bytes")]
    BodyTooLarge { limit: usize },
    #[error("timeout: no complete answer within {millis} ms")]
    Timeout { millis: u128 },
    #[error("too many redirects: more than {limit}")]
    TooManyRedirects { limit: usize },
    #[error("unsupported content type {content_type:?}: only text, HTML, JSON and XML are read")]
    UnsupportedContentType { content_type: String },
    #[error("cannot decode the body: {reason}")]
    Decode { reason: String },
    #[error("I/O error: {reason}")]
    Io { reason: String },
}

crate::stable_kind::stable_kinds!(WebError {
    InvalidUrl => "invalid_url",
    UnsupportedScheme => "unsupported_scheme",
    BlockedAddress => "blocked_address",
    HttpStatus => "http_status",
    BodyTooLarge => "body_too_large",
    Timeout => "timeout",
    TooManyRedirects => "too_many_redirects",
    UnsupportedContentType => "unsupported_content_type",
    Decode => "decode",
    Io => "io",
});

/// Where the time of a fetch comes from: the system clock, or a fixed
/// instant so that vectors and tests are reproducible.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Clock {
    #[default]
    System,
    Fixed(OffsetDateTime),
}

impl Clock {
    pub fn now(&self) -> OffsetDateTime {
        match self {
            Clock::System => OffsetDateTime::now_utc(),
            Clock::Fixed(at) => *at,
        }
    }
}

/// Where the id of an audit row comes from.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum IdSource {
    /// A random UUID v4.
    #[default]
    Random,
    /// This id, for vectors and tests.
    Fixed(String),
}

/// Everything [`fetch_and_sanitize`] reads; [`Config::new`] gives the
/// defaults.
#[derive(Debug, Clone)]
pub struct Config {
    /// The audit rows go to `<home>/web_log/`.
    pub home: PathBuf,
    pub fetch: fetch::FetchConfig,
    pub semantic: SemanticConfig,
    pub clock: Clock,
    pub id: IdSource,
}

impl Config {
    pub fn new(home: impl Into<PathBuf>) -> Config {
        Config {
            home: home.into(),
            fetch: fetch::FetchConfig::default(),
            semantic: SemanticConfig::default(),
            clock: Clock::System,
            id: IdSource::Random,
        }
    }
}

/// One sanitize call's result, as written to the audit row.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SanitizedContent {
    pub id: String,
    /// The URL asked for, without credentials.
    pub url: String,
    /// When the fetch started, RFC 3339 UTC with `Z`.
    pub fetched_at: String,
    /// The envelope.
    pub sanitized_text: String,
    /// Labels of both layers, in order of appearance.
    pub removed_patterns: Vec<String>,
    /// `applied`, `skipped: no key` or `failed: <kind>`.
    pub semantic: SemanticStatus,
    pub log_path: PathBuf,
}

/// RFC 3339 in UTC with `Z`, whole seconds unless the instant has a
/// fraction (then as few digits as it needs), so equal instants always
/// give equal text.
pub fn format_timestamp(at: OffsetDateTime) -> String {
    let at = utc(at);
    let mut out = utc_date_time(at, ":");
    let nanos = at.nanosecond();
    if nanos != 0 {
        let fraction = format!("{nanos:09}");
        out.push('.');
        out.push_str(fraction.trim_end_matches('0'));
    }
    out.push('Z');
    out
}

/// `at` in UTC. `parse_timestamp` only returns instants whose UTC form
/// has a four-digit year, and the system clock gives no other; a caller's
/// own out-of-range instant keeps its own fields rather than panicking in
/// the conversion.
pub(crate) fn utc(at: OffsetDateTime) -> OffsetDateTime {
    at.checked_to_offset(time::UtcOffset::UTC).unwrap_or(at)
}

/// `YYYY-MM-DDTHH:MM:SS` of `at` as it is, with `colons` between the time's
/// fields.
pub(crate) fn utc_date_time(at: OffsetDateTime, colons: &str) -> String {
    format!(
        "{:04}-{:02}-{:02}T{:02}{colons}{:02}{colons}{:02}",
        at.year(),
        u8::from(at.month()),
        at.day(),
        at.hour(),
        at.minute(),
        at.second()
    )
}

/// Why a timestamp was refused.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum TimestampError {
    #[error("{0}")]
    NotRfc3339(#[from] time::error::Parse),
    #[error("the date and the time are separated by {found:?}, not `T` or a space")]
    Separator { found: String },
    #[error("in UTC it falls outside the years 0000 to 9999, which RFC 3339 can write")]
    OutOfRange,
}

/// Reads an RFC 3339 timestamp (any offset) and returns it in UTC. Out-of-
/// range fields (`02-30`, `24:00`) are refused; so is an instant whose UTC
/// form has no four-digit year (`9999-12-31T23:59:59-01:00`), which
/// [`format_timestamp`] could not write.
pub fn parse_timestamp(text: &str) -> Result<OffsetDateTime, TimestampError> {
    // The `time` crate takes any byte between the date and the time; RFC
    // 3339 allows `T` (either case) and, by its section 5.6 note, a space.
    if let Some(found) = text.get(10..).and_then(|rest| rest.chars().next())
        && !matches!(found, 'T' | 't' | ' ')
    {
        return Err(TimestampError::Separator {
            found: found.to_string(),
        });
    }
    let at = OffsetDateTime::parse(text, &time::format_description::well_known::Rfc3339)?;
    at.checked_to_offset(time::UtcOffset::UTC)
        .filter(|utc| (0..=9999).contains(&utc.year()))
        .ok_or(TimestampError::OutOfRange)
}

/// Fetches `url`, strips and reviews the body, wraps it in the envelope
/// and writes the audit row under `<home>/web_log/`.
///
/// Fails with the fetch's error kind, or `io` when the audit row cannot
/// be written (a sanitize call that leaves no audit trail does not
/// return content). The semantic review never fails the call: its
/// outcome is in [`SanitizedContent::semantic`]. The raw body is never
/// written anywhere: only the envelope, built from the stripped and
/// reviewed text, reaches the row.
pub async fn fetch_and_sanitize(config: &Config, url: &str) -> Result<SanitizedContent, WebError> {
    // Taken before the fetch: the row says when the page was read, which
    // is before it was sanitized (upstream took it after).
    let fetched_at = config.clock.now();
    let page = fetch::get(&config.fetch, url).await?;
    let stripped = strip(&page.text);
    // The raw body goes no further than the strip layer.
    drop(page);
    let review = semantic::review(&config.semantic, &stripped.text).await;
    let mut removed_patterns = stripped.removed_patterns;
    removed_patterns.extend(review.removed_patterns);
    let sanitized_at = format_timestamp(config.clock.now());
    // The source is the URL asked for, not the final one after redirects:
    // the final URL comes from `Location` headers the fetched server
    // chooses, so naming it would let a page pick the source the reader
    // sees (and it could differ run to run); the requested URL is what the
    // caller can check, and it is the row's `url` too. Redacted even
    // though `fetch::get` refuses credentials, so that nothing here
    // depends on that.
    let src = fetch::redact(url);
    let sanitized_text = envelope::envelope(&src, &sanitized_at, &removed_patterns, &review.text);
    let id = match &config.id {
        IdSource::Random => random_uuid()?,
        IdSource::Fixed(id) => id.clone(),
    };
    let mut content = SanitizedContent {
        id,
        url: src,
        fetched_at: format_timestamp(fetched_at),
        sanitized_text,
        removed_patterns,
        semantic: review.status,
        log_path: PathBuf::new(),
    };
    audit::write_row(&config.home, &mut content, fetched_at)?;
    Ok(content)
}

/// A random UUID v4 (RFC 9562), lowercase, hyphenated.
fn random_uuid() -> Result<String, WebError> {
    let mut bytes = [0u8; 16];
    getrandom::fill(&mut bytes).map_err(|error| WebError::Io {
        reason: format!("cannot get random bytes for the row id: {error}"),
    })?;
    bytes[6] = (bytes[6] & 0x0f) | 0x40;
    bytes[8] = (bytes[8] & 0x3f) | 0x80;
    let hex: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
    Ok(format!(
        "{}-{}-{}-{}-{}",
        &hex[..8],
        &hex[8..12],
        &hex[12..16],
        &hex[16..20],
        &hex[20..]
    ))
}

#[cfg(test)]
mod timestamp_tests {
    use super::*;

    /// Found by the JavaScript port's author: `9999-12-31T23:59:59-01:00`
    /// is year 10000 in UTC, and converting it panicked in
    /// `format_timestamp`; `0000-01-01T00:30:00+01:00` was written as the
    /// year `-001`; `2026-11-29x10:00:00Z` was taken.
    #[test]
    fn a_timestamp_rfc_3339_cannot_write_in_utc_is_refused() {
        for text in [
            "9999-12-31T23:59:59-01:00",
            "0000-01-01T00:30:00+01:00",
            "2026-11-29x10:00:00Z",
            "2026-02-30T10:00:00Z",
        ] {
            assert!(parse_timestamp(text).is_err(), "{text}");
        }
        for (text, utc) in [
            ("2026-11-29T10:00:00Z", "2026-11-29T10:00:00Z"),
            ("2026-11-29 10:00:00+01:00", "2026-11-29T09:00:00Z"),
            ("2026-11-29t10:00:00.5z", "2026-11-29T10:00:00.5Z"),
            ("9999-12-31T23:59:59+00:00", "9999-12-31T23:59:59Z"),
        ] {
            let at = parse_timestamp(text).unwrap_or_else(|error| panic!("{text}: {error}"));
            assert_eq!(format_timestamp(at), utc);
        }
    }
}
