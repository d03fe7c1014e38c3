//! agentsec-core 0.5.0's `web` module as a port of protocol v1 (suite
//! `web`).
//!
//! - `strip` calls `regex_layer::strip`.
//! - `envelope` calls `wrap::envelope`, then writes the case's
//!   `sanitized_at` in place of the clock reading it stamped (see
//!   [`envelope_at`]).
//! - `fetch` is the upstream pipeline without an API key: `fetch::get`,
//!   the regex layer, then the envelope. The semantic layer is a no-op
//!   without a key, so it is not called and `semantic` is
//!   `skipped: no key`. `id` and `fetched_at` are the case's (upstream draws
//!   a UUID and reads the clock), the audit row is not written, and `url` is
//!   echoed as given, credentials included, as upstream does. Upstream has
//!   no address policy, so `allow_private` is not read: every address is
//!   fetched.
//!
//! Build this binary with `--features agentsec` alone (see Cargo.toml): a
//! build that also links agentfence gives agentsec-core's HTTP client
//! gzip, brotli and deflate decoding, which the published crate does not
//! have; such a build skips `fetch` (see [`CLIENT_ALTERED`]).

use std::error::Error as _;
use std::time::Duration;

use agentfence_upstream::{Answer, Implementation, bad_request, serve};
use agentsec_core::web::fetch;
use agentsec_core::web::sanitize::{regex_layer, wrap};
use serde_json::{Value, json};

/// Whether this build links agentfence, whose reqwest features (gzip,
/// brotli, deflate) feature unification also turns on in agentsec-core's
/// client: its fetches would then decode compressed bodies, which the
/// published crate does not. `fetch` is skipped rather than answered for
/// an upstream that does not exist.
const CLIENT_ALTERED: bool = cfg!(any(feature = "prompty", feature = "injection-report"));

/// `wrap::envelope(src, body, removed)` with `at` as the value of its
/// `sanitized_at` attribute.
///
/// Upstream stamps `Utc::now().to_rfc3339()` and takes no clock, while a
/// port takes every clock as an input. The envelope starts with exactly
/// `<untrusted_content src="{src}" sanitized_at="`, and the stamp that
/// follows holds no `"`, so the value is found by position, not by
/// searching (which a `src` or body holding `sanitized_at="` could fool),
/// and is replaced by `at` verbatim. Nothing else of the text changes.
/// `None` if the envelope does not start that way (a future version).
fn envelope_at(src: &str, body: &str, removed: &[String], at: &str) -> Option<String> {
    let text = wrap::envelope(src, body, removed);
    let head = format!("<untrusted_content src=\"{src}\" sanitized_at=\"");
    let stamped = text.strip_prefix(&head)?;
    let end = stamped.find('"')?;
    Some(format!("{head}{at}{}", &stamped[end..]))
}

/// The string array `input[field]`, if it is one.
fn strings(input: &Value, field: &str) -> Option<Vec<String>> {
    input[field]
        .as_array()?
        .iter()
        .map(|item| item.as_str().map(str::to_owned))
        .collect()
}

/// The error and its sources, joined with ": ". reqwest puts what went
/// wrong in the sources (`builder error` alone says little).
fn full_message(error: &agentsec_core::Error) -> String {
    let mut message = error.to_string();
    let mut source = error.source();
    while let Some(cause) = source {
        let text = cause.to_string();
        if !message.contains(&text) {
            message.push_str(": ");
            message.push_str(&text);
        }
        source = cause.source();
    }
    message
}

/// The suite's error kind for an error of `fetch::get`, as far as its type
/// and text tell.
///
/// - `Sanitize(..)` is both a non-2xx status (`fetch {url} returned HTTP
///   {status}`) and a body over the cap (`fetch {url} body exceeds {cap}
///   byte cap`): they differ only in the message, so they are told apart by
///   it.
/// - `Http(..)` is reqwest's error: a timeout (the total timeout, body
///   included) is `timeout`; a builder error is `unsupported_scheme` when
///   reqwest says `URL scheme is not allowed` (a scheme other than http and
///   https, or a URL without a host) and `invalid_url` otherwise (the URL
///   does not parse); a redirect error is `too_many_redirects` (the only
///   one its default policy raises); a decode error is `decode`; the rest
///   (connect, DNS, a broken connection) is `io`.
///
/// Upstream never refuses an address or a content type, so
/// `blocked_address` and `unsupported_content_type` are never answered.
fn error_kind(error: &agentsec_core::Error, message: &str) -> &'static str {
    match error {
        agentsec_core::Error::Sanitize(text) if text.contains("returned HTTP") => "http_status",
        agentsec_core::Error::Sanitize(text) if text.contains("byte cap") => "body_too_large",
        agentsec_core::Error::Http(http) if http.is_timeout() => "timeout",
        agentsec_core::Error::Http(http) if http.is_builder() => {
            if message.contains("URL scheme is not allowed") {
                "unsupported_scheme"
            } else {
                "invalid_url"
            }
        }
        agentsec_core::Error::Http(http) if http.is_redirect() => "too_many_redirects",
        agentsec_core::Error::Http(http) if http.is_decode() => "decode",
        _ => "io",
    }
}

/// One `fetch` case on `runtime`.
fn fetch_case(runtime: &tokio::runtime::Runtime, input: &Value) -> Answer {
    let (Some(url), Some(timeout_ms), Some(at), Some(id)) = (
        input["url"].as_str(),
        input["timeout_ms"].as_u64(),
        input["at"].as_str(),
        input["id"].as_str(),
    ) else {
        return bad_request("url, input.timeout_ms, input.at or input.id");
    };
    if CLIENT_ALTERED {
        return Answer::Skipped(
            "built with agentfence linked, which gives agentsec-core's HTTP client \
             decompression it does not have: rebuild with --features agentsec alone"
                .into(),
        );
    }
    // Upstream's timeout is whole seconds (`AGENTSEC_WEB_TIMEOUT`). A
    // timeout that is not is given to upstream rounded up, and the fetch is
    // cut at the exact milliseconds here, as a total timeout of that length
    // would be; a whole number of seconds (0 included: upstream then fails
    // every fetch) goes to upstream alone.
    let seconds = timeout_ms.div_ceil(1000);
    let fetched = runtime.block_on(async {
        if timeout_ms % 1000 == 0 {
            Some(fetch::get(url, seconds).await)
        } else {
            tokio::time::timeout(Duration::from_millis(timeout_ms), fetch::get(url, seconds))
                .await
                .ok()
        }
    });
    let raw = match fetched {
        Some(Ok(raw)) => raw,
        Some(Err(error)) => {
            let message = full_message(&error);
            return Answer::Error {
                kind: error_kind(&error, &message).into(),
                message,
            };
        }
        None => {
            return Answer::Error {
                kind: "timeout".into(),
                message: format!("no complete answer within {timeout_ms} ms"),
            };
        }
    };
    let (stripped, removed) = regex_layer::strip(&raw);
    let Some(sanitized_text) = envelope_at(url, &stripped, &removed, at) else {
        return Answer::Skipped("wrap::envelope's text has an unexpected layout".into());
    };
    Answer::Output(json!({
        "id": id,
        "url": url,
        "fetched_at": at,
        "sanitized_text": sanitized_text,
        "removed_patterns": removed,
        "semantic": "skipped: no key",
    }))
}

fn main() -> std::io::Result<()> {
    let implementation = Implementation {
        name: "agentsec-core",
        version: "0.5.0",
        operations: &["strip", "envelope", "fetch"],
    };
    // Only `fetch` is async; one current-thread runtime serves every case.
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    serve(&implementation, |op, input| match op {
        "strip" => {
            let Some(text) = input["text"].as_str() else {
                return bad_request("text");
            };
            let (text, removed) = regex_layer::strip(text);
            Answer::Output(json!({ "text": text, "removed_patterns": removed }))
        }
        "envelope" => {
            let (Some(body), Some(src), Some(at), Some(removed)) = (
                input["body"].as_str(),
                input["src"].as_str(),
                input["sanitized_at"].as_str(),
                strings(input, "removed_patterns"),
            ) else {
                return bad_request(
                    "body, input.src, input.sanitized_at or input.removed_patterns",
                );
            };
            match envelope_at(src, body, &removed, at) {
                Some(text) => Answer::Output(json!({ "text": text })),
                None => Answer::Skipped("wrap::envelope's text has an unexpected layout".into()),
            }
        }
        _ => fetch_case(&runtime, input),
    })
}
