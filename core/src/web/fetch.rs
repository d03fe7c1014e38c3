//! HTTP GET of one page, with the body cap enforced while streaming and
//! the address policy applied to every resolved address and redirect hop.
//!
//! Guarantees of [`get`]:
//! - only `GET`, only `http` and `https`, never through a proxy (so an
//!   environment proxy cannot carry the request past the policy), and no
//!   URL with credentials (`user:pw@`), on the first URL and on every
//!   redirect hop;
//! - every connection goes to an address the [`AddressPolicy`] allows:
//!   names are resolved by a resolver that drops refused addresses (and
//!   fails when none is left), so the check applies to the address that is
//!   connected to, not to a name that could resolve differently later;
//!   literal IP hosts, which skip the resolver, are checked before any
//!   connection, on the first URL and on every hop. The one exception is
//!   [`FetchConfig::pinned_hosts`], names the caller maps to addresses
//!   itself;
//! - at most [`FetchConfig::max_redirects`] redirects; a redirect back to
//!   a URL already visited counts as too many;
//! - one timeout covers everything: resolution, connection, redirects and
//!   the whole body;
//! - the body, after content decoding (gzip, deflate, brotli), never takes
//!   more than [`FetchConfig::max_body_bytes`]: a `Content-Length` over it
//!   is refused before reading, a streamed body fails the moment it passes
//!   it; a body over the cap fails, it is never truncated;
//! - only 2xx answers with a text, HTML, JSON or XML `Content-Type` are
//!   read, and the type is checked before the body; the text is decoded
//!   with the charset the answer declares (see [`get`]), malformed bytes
//!   becoming U+FFFD;
//! - no error holds the body or URL credentials; nothing panics.

use std::error::Error as StdError;
use std::fmt;
use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;
use std::time::Duration;

use encoding_rs::Encoding;
use reqwest::header::{self, HeaderMap};
use url::Url;

use super::{
    AddressPolicy, DEFAULT_MAX_BODY_BYTES, DEFAULT_MAX_REDIRECTS, DEFAULT_TIMEOUT, WebError,
};

/// How a page is fetched.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FetchConfig {
    /// For the whole fetch, body included.
    pub timeout: Duration,
    /// Largest body, counted after content decoding.
    pub max_body_bytes: usize,
    /// Redirect hops followed; one more fails the fetch.
    pub max_redirects: usize,
    pub policy: AddressPolicy,
    /// Host names resolved to the given address without asking DNS or the
    /// policy, like curl's `--resolve`: the caller vouches for them. Meant
    /// for a test fixture or conformance runner serving on loopback under
    /// the default policy, so that everything else a page points to (a
    /// redirect to `127.0.0.1`, to `localhost`, to `169.254.169.254`) is
    /// still refused. Names are matched case-insensitively in their ASCII
    /// (punycode) form; a pin applies to every hop; the URL's port is used.
    pub pinned_hosts: Vec<PinnedHost>,
}

impl Default for FetchConfig {
    fn default() -> FetchConfig {
        FetchConfig {
            timeout: DEFAULT_TIMEOUT,
            max_body_bytes: DEFAULT_MAX_BODY_BYTES,
            max_redirects: DEFAULT_MAX_REDIRECTS,
            policy: AddressPolicy::default(),
            pinned_hosts: Vec::new(),
        }
    }
}

/// A host name the caller resolves itself; see [`FetchConfig::pinned_hosts`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PinnedHost {
    pub host: String,
    pub address: IpAddr,
}

impl PinnedHost {
    pub fn new(host: impl Into<String>, address: IpAddr) -> PinnedHost {
        PinnedHost {
            host: host.into(),
            address,
        }
    }
}

/// A fetched page.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FetchedPage {
    /// The final URL, after redirects; never holds credentials.
    pub url: String,
    /// Always 2xx.
    pub status: u16,
    /// The media type without parameters, lowercase (`text/html`);
    /// `text/plain` when the answer had none.
    pub content_type: String,
    /// The decoded body.
    pub text: String,
}

/// Parses a URL the fetch accepts: `http` or `https`, no credentials.
///
/// Unparsable input and credentials fail with `invalid_url`, another
/// scheme with `unsupported_scheme`; no message echoes the input. Whether
/// a literal IP host is allowed depends on the policy and is checked by
/// [`get`].
pub fn parse_url(url: &str) -> Result<Url, WebError> {
    let parsed = Url::parse(url).map_err(|error| WebError::InvalidUrl {
        reason: error.to_string(),
    })?;
    check_scheme_and_credentials(&parsed)?;
    Ok(parsed)
}

/// `url` without credentials, for messages and logs. Input that does not
/// parse loses everything between the first `//` and the last `@`, so
/// nothing that could be a password is echoed.
pub fn redact(url: &str) -> String {
    if let Ok(mut parsed) = Url::parse(url)
        && parsed.has_host()
        && parsed.set_username("").is_ok()
        && parsed.set_password(None).is_ok()
    {
        return parsed.into();
    }
    match (url.find("//"), url.rfind('@')) {
        (Some(start), Some(at)) if at > start => {
            let mut out = String::with_capacity(url.len());
            out.push_str(&url[..start + 2]);
            out.push_str(&url[at + 1..]);
            out
        }
        // An `@` without a `//` before it: `user:pw@host` without a
        // scheme, which would parse as scheme `user`.
        (_, Some(at)) => url[at + 1..].to_string(),
        _ => url.to_string(),
    }
}

/// Fetches `url` with a `GET`.
///
/// The answer must be 2xx (`http_status`, also for a redirect not
/// followed) with an accepted `Content-Type`: `text/*`,
/// `application/json`, `application/xml`, `application/xhtml+xml`, or any
/// `*/*+json` or `*/*+xml`; none at all (or an empty one) counts as
/// `text/plain`, anything else fails with `unsupported_content_type`
/// before the body is read.
///
/// The text is decoded with, in order: a byte-order mark (it wins over
/// any declaration, as in browsers, since it cannot be there by
/// accident), the `charset` of the `Content-Type` (an unknown label fails
/// with `decode`), for HTML a `<meta charset>` or `<meta http-equiv
/// content-type>` in the first 1024 bytes (an unknown label there is
/// ignored, as in browsers), else UTF-8. A `Content-Encoding` other than
/// gzip, deflate, brotli or identity fails with `decode`.
///
/// Runs inside a Tokio runtime with I/O and time enabled, as reqwest needs.
pub async fn get(config: &FetchConfig, url: &str) -> Result<FetchedPage, WebError> {
    let first = parse_url(url)?;
    check_literal_host(&first, config.policy)?;
    match tokio::time::timeout(config.timeout, fetch(config, first)).await {
        Ok(result) => result,
        Err(_elapsed) => Err(WebError::Timeout {
            millis: config.timeout.as_millis(),
        }),
    }
}

async fn fetch(config: &FetchConfig, url: Url) -> Result<FetchedPage, WebError> {
    let client = client(config)?;
    let mut response = client
        .get(url)
        .send()
        .await
        .map_err(|error| from_reqwest(error, config))?;

    let status = response.status();
    if status.is_redirection() {
        // Redirects reqwest did not follow: a Location it could not turn
        // into a request (`file:///…`). Say why instead of just the status.
        if let Some(location) = response.headers().get(header::LOCATION) {
            let location = String::from_utf8_lossy(location.as_bytes());
            let next = response
                .url()
                .join(&location)
                .map_err(|error| WebError::InvalidUrl {
                    reason: format!("redirect location: {error}"),
                })?;
            check_hop(&next, config.policy)?;
        }
    }
    if !status.is_success() {
        return Err(WebError::HttpStatus {
            status: status.as_u16(),
        });
    }

    let media = MediaType::from_headers(response.headers())?;
    if let Some(encoding) = response.headers().get(header::CONTENT_ENCODING) {
        // reqwest removes the header when it decodes; one left over is an
        // encoding it does not know, whose bytes would read as garbage.
        if !encoding.as_bytes().eq_ignore_ascii_case(b"identity") {
            return Err(WebError::Decode {
                reason: format!(
                    "unsupported content encoding {:?}",
                    bounded(&String::from_utf8_lossy(encoding.as_bytes()))
                ),
            });
        }
    }

    let cap = config.max_body_bytes;
    let too_large = WebError::BodyTooLarge { limit: cap };
    // Known only for bodies without content encoding, where it is the
    // decoded size.
    let declared = response.content_length();
    if declared.is_some_and(|length| length > u64::try_from(cap).unwrap_or(u64::MAX)) {
        return Err(too_large);
    }
    let initial = declared
        .and_then(|length| usize::try_from(length).ok())
        .unwrap_or(0)
        .min(cap);
    let mut body: Vec<u8> = Vec::with_capacity(initial);
    while let Some(chunk) = response
        .chunk()
        .await
        .map_err(|error| from_reqwest(error, config))?
    {
        // `body.len() <= cap` holds throughout, so this cannot underflow.
        if chunk.len() > cap - body.len() {
            return Err(too_large);
        }
        let needed = body.len() + chunk.len();
        if needed > body.capacity() {
            // Grow by doubling, but never past the cap: `Vec`'s own growth
            // could reserve twice the cap.
            let target = needed.max(body.capacity().saturating_mul(2)).min(cap);
            body.reserve_exact(target - body.len());
        }
        body.extend_from_slice(&chunk);
    }

    let text = decode(&body, &media)?;
    Ok(FetchedPage {
        url: redact(response.url().as_str()),
        status: status.as_u16(),
        content_type: media.essence,
        text,
    })
}

fn client(config: &FetchConfig) -> Result<reqwest::Client, WebError> {
    let policy = config.policy;
    let limit = config.max_redirects;
    let redirects = reqwest::redirect::Policy::custom(move |attempt| {
        let next = attempt.url();
        if attempt.previous().contains(next) || attempt.previous().len() > limit {
            return attempt.error(Refusal(WebError::TooManyRedirects { limit }));
        }
        match check_hop(next, policy) {
            Ok(()) => attempt.follow(),
            Err(error) => attempt.error(Refusal(error)),
        }
    });
    let mut builder = reqwest::Client::builder()
        .no_proxy()
        .redirect(redirects)
        .referer(false)
        .user_agent(concat!("agentfence/", env!("CARGO_PKG_VERSION")))
        .dns_resolver(Arc::new(PolicyResolver { policy }))
        .default_headers(accept_header());
    for pin in &config.pinned_hosts {
        builder = builder.resolve(&pin.host, SocketAddr::new(pin.address, 0));
    }
    builder.build().map_err(|error| WebError::Io {
        reason: describe(error),
    })
}

fn accept_header() -> HeaderMap {
    let mut headers = HeaderMap::new();
    headers.insert(
        header::ACCEPT,
        header::HeaderValue::from_static(
            "text/html, application/xhtml+xml, application/xml;q=0.9, \
             application/json;q=0.9, text/*;q=0.8",
        ),
    );
    headers
}

/// What every URL fetched, the first and each hop, must satisfy.
fn check_hop(url: &Url, policy: AddressPolicy) -> Result<(), WebError> {
    check_scheme_and_credentials(url)?;
    check_literal_host(url, policy)
}

fn check_scheme_and_credentials(url: &Url) -> Result<(), WebError> {
    if !matches!(url.scheme(), "http" | "https") {
        return Err(WebError::UnsupportedScheme {
            scheme: bounded(url.scheme()),
        });
    }
    if !url.username().is_empty() || url.password().is_some() {
        return Err(WebError::InvalidUrl {
            reason: "credentials (user:password@) in a URL are not accepted".to_string(),
        });
    }
    if url.host().is_none() {
        return Err(WebError::InvalidUrl {
            reason: "no host".to_string(),
        });
    }
    Ok(())
}

/// Literal IP hosts never reach the resolver, so they are checked here.
fn check_literal_host(url: &Url, policy: AddressPolicy) -> Result<(), WebError> {
    let ip = match url.host() {
        Some(url::Host::Ipv4(v4)) => IpAddr::V4(v4),
        Some(url::Host::Ipv6(v6)) => IpAddr::V6(v6),
        _ => return Ok(()),
    };
    policy
        .check(ip)
        .map_err(|class| blocked(url.host_str().unwrap_or(""), ip, class))
}

fn blocked(host: &str, ip: IpAddr, class: super::address::AddressClass) -> WebError {
    WebError::BlockedAddress {
        host: host.to_string(),
        address: format!("{ip} ({class})"),
    }
}

/// A [`WebError`] decided inside reqwest (resolver, redirect policy),
/// carried through its error chain and found again by [`from_reqwest`].
#[derive(Debug)]
struct Refusal(WebError);

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

impl StdError for Refusal {}

/// Resolves with the system resolver and keeps only allowed addresses.
struct PolicyResolver {
    policy: AddressPolicy,
}

impl reqwest::dns::Resolve for PolicyResolver {
    fn resolve(&self, name: reqwest::dns::Name) -> reqwest::dns::Resolving {
        let policy = self.policy;
        let host = name.as_str().to_string();
        Box::pin(async move {
            // Port 0: reqwest puts in the URL's port.
            let resolved = tokio::net::lookup_host((host.as_str(), 0))
                .await
                .map_err(|error| Box::new(error) as Box<dyn StdError + Send + Sync>)?;
            let mut first_refused = None;
            let mut allowed = Vec::new();
            for address in resolved {
                match policy.check(address.ip()) {
                    Ok(()) => allowed.push(address),
                    Err(class) => {
                        first_refused.get_or_insert((address.ip(), class));
                    }
                }
            }
            match first_refused {
                Some((ip, class)) if allowed.is_empty() => {
                    Err(Box::new(Refusal(blocked(&host, ip, class))) as Box<_>)
                }
                // Nothing resolved and nothing refused: let the connector
                // report the empty answer as it would for any resolver.
                _ => Ok(Box::new(allowed.into_iter()) as reqwest::dns::Addrs),
            }
        })
    }
}

fn from_reqwest(error: reqwest::Error, config: &FetchConfig) -> WebError {
    // reqwest calls every failure while reading a body a decode error, a
    // connection cut short included; the cause tells them apart.
    let mut invalid_data = false;
    let mut source: Option<&(dyn StdError + 'static)> = Some(&error);
    while let Some(current) = source {
        if let Some(Refusal(refusal)) = current.downcast_ref::<Refusal>() {
            return refusal.clone();
        }
        invalid_data |= current
            .downcast_ref::<std::io::Error>()
            .is_some_and(|io| io.kind() == std::io::ErrorKind::InvalidData);
        source = current.source();
    }
    if error.is_timeout() {
        WebError::Timeout {
            millis: config.timeout.as_millis(),
        }
    } else if invalid_data {
        WebError::Decode {
            reason: describe(error),
        }
    } else {
        WebError::Io {
            reason: describe(error),
        }
    }
}

/// The error and its causes on one line, without the URL.
fn describe(error: reqwest::Error) -> String {
    let error = error.without_url();
    let mut out = error.to_string();
    let mut source = error.source();
    while let Some(current) = source {
        let text = current.to_string();
        // hyper repeats the cause in its own message sometimes.
        if !out.ends_with(&text) {
            out.push_str(": ");
            out.push_str(&text);
        }
        source = current.source();
    }
    out
}

/// Header text in a message, cut so that a hostile server cannot make
/// errors arbitrarily long.
fn bounded(text: &str) -> String {
    const MAX: usize = 100;
    match text.char_indices().nth(MAX) {
        Some((end, _)) => format!("{}…", &text[..end]),
        None => text.to_string(),
    }
}

/// The parts of a `Content-Type` the fetch reads.
#[derive(Debug, Clone, PartialEq, Eq)]
struct MediaType {
    essence: String,
    charset: Option<String>,
}

impl MediaType {
    fn from_headers(headers: &HeaderMap) -> Result<MediaType, WebError> {
        let value = headers
            .get(header::CONTENT_TYPE)
            .map(|value| String::from_utf8_lossy(value.as_bytes()).into_owned());
        MediaType::parse(value.as_deref())
    }

    fn parse(value: Option<&str>) -> Result<MediaType, WebError> {
        let value = value.unwrap_or("").trim();
        if value.is_empty() {
            return Ok(MediaType {
                essence: "text/plain".to_string(),
                charset: None,
            });
        }
        let mut parts = value.split(';');
        let essence = parts.next().unwrap_or("").trim().to_ascii_lowercase();
        let refused = || WebError::UnsupportedContentType {
            content_type: bounded(value),
        };
        let (kind, subtype) = essence.split_once('/').ok_or_else(refused)?;
        let is_token = |s: &str| !s.is_empty() && !s.contains(|c: char| c.is_whitespace());
        if !is_token(kind) || !is_token(subtype) {
            return Err(refused());
        }
        let accepted = kind == "text"
            || matches!(
                essence.as_str(),
                "application/json" | "application/xml" | "application/xhtml+xml"
            )
            || subtype.ends_with("+json")
            || subtype.ends_with("+xml");
        if !accepted {
            return Err(refused());
        }
        let charset = parts.find_map(|parameter| {
            let (name, value) = parameter.split_once('=')?;
            let value = value.trim().trim_matches('"').trim();
            (name.trim().eq_ignore_ascii_case("charset") && !value.is_empty())
                .then(|| value.to_string())
        });
        Ok(MediaType { essence, charset })
    }

    fn is_html(&self) -> bool {
        matches!(self.essence.as_str(), "text/html" | "application/xhtml+xml")
    }
}

fn decode(body: &[u8], media: &MediaType) -> Result<String, WebError> {
    let declared = match &media.charset {
        Some(label) => {
            Some(
                Encoding::for_label(label.as_bytes()).ok_or_else(|| WebError::Decode {
                    reason: format!("unknown charset label {:?}", bounded(label)),
                })?,
            )
        }
        None if media.is_html() => meta_charset(body),
        None => None,
    };
    let encoding = declared.unwrap_or(encoding_rs::UTF_8);
    // `decode` lets a byte-order mark override `encoding` and removes it.
    let (text, _, _) = encoding.decode(body);
    Ok(text.into_owned())
}

/// The charset an HTML document declares in a `<meta>` in its first 1024
/// bytes, following the HTML standard's prescan, simplified: comments and
/// other tags are skipped, the first `<meta>` with a known label wins, and
/// a tag cut off by the end of the window ends the scan.
fn meta_charset(body: &[u8]) -> Option<&'static Encoding> {
    let head = &body[..body.len().min(1024)];
    let mut at = 0;
    while at < head.len() {
        let rest = &head[at..];
        if rest.starts_with(b"<!--") {
            at += 2 + find(&rest[2..], b"-->")? + 3;
        } else if starts_with_ignore_case(rest, b"<meta")
            && rest.get(5).is_some_and(|&b| is_space(b) || b == b'/')
        {
            let (end, encoding) = meta_tag(head, at + 5)?;
            if encoding.is_some() {
                return encoding;
            }
            at = end;
        } else if rest.len() > 1
            && rest[0] == b'<'
            && (rest[1].is_ascii_alphabetic()
                || (rest[1] == b'/' && rest.get(2).is_some_and(u8::is_ascii_alphabetic)))
        {
            let mut cursor = at + 1;
            while cursor < head.len() && !is_space(head[cursor]) && head[cursor] != b'>' {
                cursor += 1;
            }
            // Attributes are skipped one by one so a `>` in a quoted value
            // does not end the tag.
            loop {
                match attribute(head, cursor)? {
                    Attribute::Pair { next, .. } => cursor = next,
                    Attribute::TagEnd(end) => break at = end,
                }
            }
        } else if rest.starts_with(b"<!") || rest.starts_with(b"</") || rest.starts_with(b"<?") {
            at += find(rest, b">")? + 1;
        } else {
            at += 1;
        }
    }
    None
}

/// Reads the attributes of a `<meta` tag from `at`; returns where the tag
/// ends and the encoding it declares, if any; `None` if the window ends
/// inside the tag.
fn meta_tag(head: &[u8], mut at: usize) -> Option<(usize, Option<&'static Encoding>)> {
    let mut seen: Vec<Vec<u8>> = Vec::new();
    let mut got_pragma = false;
    let mut charset: Option<&'static Encoding> = None;
    let mut from_content: Option<&'static Encoding> = None;
    let mut has_charset_attribute = false;
    let end = loop {
        let (name, value) = match attribute(head, at)? {
            Attribute::TagEnd(end) => break end,
            Attribute::Pair { name, value, next } => {
                at = next;
                (name, value)
            }
        };
        if seen.contains(&name) {
            continue;
        }
        match name.as_slice() {
            b"http-equiv" => got_pragma |= value.eq_ignore_ascii_case(b"content-type"),
            b"content" => from_content = charset_in_content(&value),
            b"charset" => {
                has_charset_attribute = true;
                charset = Encoding::for_label(&value);
            }
            _ => {}
        }
        seen.push(name);
    };
    let encoding = if has_charset_attribute {
        charset
    } else if got_pragma {
        from_content
    } else {
        None
    };
    // A document the prescan can read is ASCII-compatible, so a UTF-16
    // declaration in it is wrong; the standard reads it as UTF-8.
    let encoding = encoding.map(|encoding| {
        if encoding == encoding_rs::UTF_16LE || encoding == encoding_rs::UTF_16BE {
            encoding_rs::UTF_8
        } else if encoding == encoding_rs::X_USER_DEFINED {
            encoding_rs::WINDOWS_1252
        } else {
            encoding
        }
    });
    Some((end, encoding))
}

enum Attribute {
    /// Lowercase name, lowercase value, position after the value.
    Pair {
        name: Vec<u8>,
        value: Vec<u8>,
        next: usize,
    },
    /// Position after the `>` that ends the tag.
    TagEnd(usize),
}

/// The next attribute of a tag from `at`; `None` if the window ends first.
fn attribute(head: &[u8], mut at: usize) -> Option<Attribute> {
    while at < head.len() && (is_space(head[at]) || head[at] == b'/') {
        at += 1;
    }
    if *head.get(at)? == b'>' {
        return Some(Attribute::TagEnd(at + 1));
    }
    let mut name = Vec::new();
    while at < head.len() {
        let b = head[at];
        // A leading `=` belongs to the name, so every call moves forward.
        if (b == b'=' && !name.is_empty()) || is_space(b) || b == b'/' || b == b'>' {
            break;
        }
        name.push(b.to_ascii_lowercase());
        at += 1;
    }
    while at < head.len() && is_space(head[at]) {
        at += 1;
    }
    if head.get(at) != Some(&b'=') {
        return Some(Attribute::Pair {
            name,
            value: Vec::new(),
            next: at,
        });
    }
    at += 1;
    while at < head.len() && is_space(head[at]) {
        at += 1;
    }
    let mut value = Vec::new();
    match *head.get(at)? {
        quote @ (b'"' | b'\'') => {
            at += 1;
            let end = at + find(&head[at..], &[quote])?;
            value.extend(head[at..end].iter().map(u8::to_ascii_lowercase));
            at = end + 1;
        }
        _ => {
            while at < head.len() && !is_space(head[at]) && head[at] != b'>' {
                value.push(head[at].to_ascii_lowercase());
                at += 1;
            }
            if at >= head.len() {
                return None;
            }
        }
    }
    Some(Attribute::Pair {
        name,
        value,
        next: at,
    })
}

/// The standard's "extract a character encoding from a meta element":
/// `text/html; charset=koi8-r` gives KOI8-R.
fn charset_in_content(content: &[u8]) -> Option<&'static Encoding> {
    let mut at = 0;
    loop {
        at += find_ignore_case(&content[at..], b"charset")? + b"charset".len();
        let mut cursor = at;
        while cursor < content.len() && is_space(content[cursor]) {
            cursor += 1;
        }
        if content.get(cursor) != Some(&b'=') {
            continue;
        }
        cursor += 1;
        while cursor < content.len() && is_space(content[cursor]) {
            cursor += 1;
        }
        let value = match content.get(cursor) {
            Some(&quote) if quote == b'"' || quote == b'\'' => {
                let start = cursor + 1;
                let end = start + find(&content[start..], &[quote])?;
                &content[start..end]
            }
            _ => {
                let end = content[cursor..]
                    .iter()
                    .position(|&b| is_space(b) || b == b';')
                    .map_or(content.len(), |offset| cursor + offset);
                &content[cursor..end]
            }
        };
        return Encoding::for_label(value);
    }
}

fn is_space(b: u8) -> bool {
    matches!(b, b'\t' | b'\n' | b'\x0c' | b'\r' | b' ')
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    memchr::memmem::find(haystack, needle)
}

fn find_ignore_case(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack
        .windows(needle.len())
        .position(|window| window.eq_ignore_ascii_case(needle))
}

fn starts_with_ignore_case(haystack: &[u8], prefix: &[u8]) -> bool {
    haystack
        .get(..prefix.len())
        .is_some_and(|start| start.eq_ignore_ascii_case(prefix))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn media(value: &str) -> Result<MediaType, WebError> {
        MediaType::parse(Some(value))
    }

    #[test]
    fn accepted_media_types() {
        for (value, essence) in [
            ("text/html", "text/html"),
            ("Text/HTML; charset=UTF-8", "text/html"),
            ("text/plain", "text/plain"),
            ("text/csv", "text/csv"),
            ("application/json", "application/json"),
            ("application/problem+json", "application/problem+json"),
            ("application/xml", "application/xml"),
            ("application/atom+xml", "application/atom+xml"),
            ("image/svg+xml", "image/svg+xml"),
            ("application/xhtml+xml", "application/xhtml+xml"),
            ("", "text/plain"),
            ("  ", "text/plain"),
        ] {
            assert_eq!(media(value).map(|m| m.essence), Ok(essence.to_string()));
        }
        assert_eq!(
            MediaType::parse(None).map(|m| m.essence),
            Ok("text/plain".into())
        );
    }

    #[test]
    fn refused_media_types() {
        for value in [
            "image/png",
            "application/octet-stream",
            "application/pdf",
            "application/javascript",
            "application/jsonx",
            "video/mp4",
            "text",
            "/html",
            "text/",
            "te xt/html",
        ] {
            assert_eq!(
                media(value).map_err(|e| e.kind()),
                Err("unsupported_content_type"),
                "{value}"
            );
        }
    }

    #[test]
    fn charset_parameter_is_found_among_others() {
        let m = media("text/html; q=1; CHARSET=\"Shift_JIS\"").expect("accepted");
        assert_eq!(m.charset.as_deref(), Some("Shift_JIS"));
        assert_eq!(media("text/html;charset=").expect("accepted").charset, None);
    }

    #[test]
    fn meta_charset_forms() {
        let cases: &[(&[u8], Option<&Encoding>)] = &[
            (
                b"<meta charset=\"windows-1251\">",
                Some(encoding_rs::WINDOWS_1251),
            ),
            (b"<META CHARSET=koi8-r>", Some(encoding_rs::KOI8_R)),
            (
                b"<meta charset='iso-8859-2'/>",
                Some(encoding_rs::ISO_8859_2),
            ),
            (
                b"<meta http-equiv=\"Content-Type\" content=\"text/html; charset=shift_jis\">",
                Some(encoding_rs::SHIFT_JIS),
            ),
            (
                b"<meta content='text/html;charset = \"euc-jp\"' http-equiv=content-type>",
                Some(encoding_rs::EUC_JP),
            ),
            // content without the pragma is not a declaration
            (b"<meta content=\"text/html; charset=shift_jis\">", None),
            (b"<!-- <meta charset=koi8-r> --><p>", None),
            (
                b"<!-- x --><meta charset=koi8-r>",
                Some(encoding_rs::KOI8_R),
            ),
            (b"<div title='<meta charset=koi8-r>'></div>", None),
            (b"<meta charset=utf-16>", Some(encoding_rs::UTF_8)),
            (
                b"<meta charset=x-user-defined>",
                Some(encoding_rs::WINDOWS_1252),
            ),
            (
                b"<meta charset=bogus><meta charset=koi8-r>",
                Some(encoding_rs::KOI8_R),
            ),
            (b"<metadata charset=koi8-r>", None),
            (b"<meta charset=\"koi8-r", None),
            (b"", None),
            (b"<", None),
            (b"<meta", None),
            (b"<meta ", None),
        ];
        for (input, expected) in cases {
            assert_eq!(
                meta_charset(input),
                *expected,
                "{}",
                String::from_utf8_lossy(input)
            );
        }
    }

    #[test]
    fn meta_after_1024_bytes_is_ignored() {
        let mut page = vec![b' '; 1024];
        page.extend_from_slice(b"<meta charset=koi8-r>");
        assert_eq!(meta_charset(&page), None);
        let mut page = vec![b' '; 1000];
        page.extend_from_slice(b"<meta charset=koi8-r>");
        assert_eq!(meta_charset(&page), Some(encoding_rs::KOI8_R));
    }

    #[test]
    fn meta_prescan_never_panics_on_prefixes() {
        let page = b"<!doctype html><html lang='x'><!-- c --><head a=\"b\" c d=e/><meta http-equiv='content-type' content=\"text/html; charset='koi8-r'\">";
        for end in 0..=page.len() {
            let _ = meta_charset(&page[..end]);
        }
        assert_eq!(meta_charset(page), Some(encoding_rs::KOI8_R));
    }

    #[test]
    fn bom_wins_over_declarations() {
        let html = MediaType {
            essence: "text/html".into(),
            charset: Some("iso-8859-1".into()),
        };
        assert_eq!(decode(b"\xef\xbb\xbfcaf\xc3\xa9", &html), Ok("café".into()));
    }

    #[test]
    fn unknown_header_label_fails_to_decode() {
        let m = MediaType {
            essence: "text/plain".into(),
            charset: Some("no-such-charset".into()),
        };
        assert_eq!(decode(b"x", &m).map_err(|e| e.kind()), Err("decode"));
    }

    #[test]
    fn redact_removes_credentials() {
        assert_eq!(
            redact("http://user:pw@example.com/a"),
            "http://example.com/a"
        );
        assert_eq!(redact("https://user@example.com/"), "https://example.com/");
        assert_eq!(redact("http://example.com/a@b"), "http://example.com/a@b");
        assert_eq!(redact("http://u:p@[bad/x"), "http://[bad/x");
        assert_eq!(redact("http://u:p/w@exa mple/x"), "http://exa mple/x");
        assert_eq!(redact("u:secret@host"), "host");
        assert_eq!(redact("not a url"), "not a url");
        for input in [
            "http://u:s3cr3t@h/",
            "x://u:s3cr3t@[",
            "//u:s3cr3t@h",
            "s3cr3t@h",
        ] {
            assert!(!redact(input).contains("s3cr3t"), "{input}");
        }
    }

    #[test]
    fn parse_url_refuses_credentials_without_echoing_them() {
        for url in [
            "http://user:s3cr3t@example.com/",
            "https://s3cr3t@example.com/",
        ] {
            let error = parse_url(url).expect_err("credentials are refused");
            assert_eq!(error.kind(), "invalid_url");
            assert!(!error.to_string().contains("s3cr3t"));
        }
        for (url, kind) in [
            ("ftp://example.com/", "unsupported_scheme"),
            ("file:///etc/passwd", "unsupported_scheme"),
            ("data:text/plain,x", "unsupported_scheme"),
            ("example.com", "invalid_url"),
            ("http://", "invalid_url"),
            ("http://[::1/", "invalid_url"),
        ] {
            assert_eq!(parse_url(url).map_err(|e| e.kind()), Err(kind), "{url}");
        }
        assert!(parse_url("HTTPS://Example.COM/x").is_ok());
    }
}
