//! HTTP fixtures: the pages a web `fetch` case is fetched from, served by
//! wiremock on `127.0.0.1` for the length of one case.
//!
//! A fixture is a list of routes, each a path and the one answer served
//! for it (status, headers, body, delay); any other path answers 404.
//! Header values may name the server with two placeholders, which
//! [`substitute`] also replaces in the case's input and expected output:
//!
//! - `{base}`: the server's base URL, `http://127.0.0.1:PORT`;
//! - `{port}`: its port alone, for a URL that names the server by a host
//!   name the case's input resolves to `127.0.0.1`.
//!
//! So a vector says `"url": "{base}/start"` and a `Location: {base}/next`,
//! and an implementation only ever sees an ordinary loopback URL.

use std::collections::BTreeMap;
use std::net::TcpListener;
use std::time::Duration;

use base64::Engine as _;
use serde::Deserialize;
use serde_json::Value;
use wiremock::matchers::path;
use wiremock::{Mock, MockServer, ResponseTemplate};

/// Stands for the server's base URL, `http://127.0.0.1:PORT`.
pub const BASE: &str = "{base}";
/// Stands for the server's port.
pub const PORT: &str = "{port}";

/// The largest body a route may serve: a fixture stands for one page, and
/// the web suite's cap is 2 MiB; this leaves room to go past it.
pub const MAX_BODY_BYTES: usize = 16 * 1024 * 1024;
/// The longest delay a route may take before answering.
pub const MAX_DELAY_MS: u64 = 10_000;

/// Headers the server itself writes from the body it serves; a route that
/// set them would describe a framing wiremock does not send.
const FRAMING_HEADERS: &[&str] = &["content-length", "transfer-encoding", "connection"];

/// The pages of one case.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Fixture {
    pub routes: Vec<Route>,
}

/// One path and its answer.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Route {
    /// The path, from `/`, without query or fragment.
    pub path: String,
    #[serde(default = "default_status")]
    pub status: u16,
    /// Sent as given, `{base}` and `{port}` replaced in the values.
    #[serde(default)]
    pub headers: BTreeMap<String, String>,
    /// The body as UTF-8 text.
    pub body: Option<String>,
    /// The body as bytes, base64 (standard alphabet, padded).
    pub body_base64: Option<String>,
    /// The body as `text` repeated `times` times.
    pub body_repeat: Option<Repeat>,
    /// How long the server waits before it answers.
    #[serde(default)]
    pub delay_ms: u64,
}

fn default_status() -> u16 {
    200
}

#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Repeat {
    pub text: String,
    pub times: usize,
}

impl Route {
    /// The body bytes, or why the route's body is unusable.
    pub fn body_bytes(&self) -> Result<Vec<u8>, String> {
        let given = [
            self.body.is_some(),
            self.body_base64.is_some(),
            self.body_repeat.is_some(),
        ];
        if given.iter().filter(|given| **given).count() > 1 {
            return Err(format!(
                "route {:?} has more than one of body, body_base64 and body_repeat",
                self.path
            ));
        }
        let bytes = if let Some(text) = &self.body {
            text.clone().into_bytes()
        } else if let Some(encoded) = &self.body_base64 {
            base64::engine::general_purpose::STANDARD
                .decode(encoded)
                .map_err(|error| format!("route {:?}: body_base64: {error}", self.path))?
        } else if let Some(repeat) = &self.body_repeat {
            let len = repeat
                .text
                .len()
                .checked_mul(repeat.times)
                .filter(|len| *len <= MAX_BODY_BYTES)
                .ok_or_else(|| {
                    format!(
                        "route {:?}: body_repeat is over {MAX_BODY_BYTES} bytes",
                        self.path
                    )
                })?;
            let mut bytes = Vec::with_capacity(len);
            for _ in 0..repeat.times {
                bytes.extend_from_slice(repeat.text.as_bytes());
            }
            bytes
        } else {
            Vec::new()
        };
        if bytes.len() > MAX_BODY_BYTES {
            return Err(format!(
                "route {:?}: the body is over {MAX_BODY_BYTES} bytes",
                self.path
            ));
        }
        Ok(bytes)
    }
}

impl Fixture {
    /// Reads and checks a case's `fixture`.
    pub fn parse(value: &Value) -> Result<Fixture, String> {
        let fixture: Fixture = serde_path_to_error::deserialize(value).map_err(|error| {
            let at = error.path().to_string();
            if at == "." {
                format!("fixture: {}", error.inner())
            } else {
                format!("fixture.{at}: {}", error.inner())
            }
        })?;
        fixture.check()?;
        Ok(fixture)
    }

    fn check(&self) -> Result<(), String> {
        if self.routes.is_empty() {
            return Err("the fixture has no route".into());
        }
        let mut seen = std::collections::BTreeSet::new();
        for route in &self.routes {
            let path = &route.path;
            if !path.starts_with('/') || path.contains(['?', '#']) {
                return Err(format!(
                    "route path {path:?} must start with / and hold no query or fragment"
                ));
            }
            if !seen.insert(path.as_str()) {
                return Err(format!("route path {path:?} is listed twice"));
            }
            if !(200..=599).contains(&route.status) {
                return Err(format!(
                    "route {path:?}: status {} is not one of 200 to 599",
                    route.status
                ));
            }
            if route.delay_ms > MAX_DELAY_MS {
                return Err(format!("route {path:?}: delay_ms is over {MAX_DELAY_MS}"));
            }
            for (name, value) in &route.headers {
                if FRAMING_HEADERS.contains(&name.to_ascii_lowercase().as_str()) {
                    return Err(format!(
                        "route {path:?}: header {name:?} is written by the server from the body"
                    ));
                }
                wiremock::http::HeaderName::from_bytes(name.as_bytes())
                    .map_err(|_| format!("route {path:?}: {name:?} is not a header name"))?;
                // The value as the server will send it, with a port in.
                let sent = substitute_str(value, "http://127.0.0.1:65535", 65535);
                wiremock::http::HeaderValue::from_str(&sent).map_err(|_| {
                    format!("route {path:?}: the value of {name:?} is not a header value")
                })?;
            }
            route.body_bytes()?;
        }
        Ok(())
    }

    /// Every header value of every route, as written.
    pub fn header_values(&self) -> impl Iterator<Item = (&str, &str)> {
        self.routes.iter().flat_map(|route| {
            route
                .headers
                .iter()
                .map(|(name, value)| (name.as_str(), value.as_str()))
        })
    }

    /// Serves the fixture on `127.0.0.1` until the returned value is
    /// dropped.
    pub fn serve(&self) -> Result<ServedFixture, String> {
        let listener = TcpListener::bind("127.0.0.1:0")
            .map_err(|error| format!("cannot listen on 127.0.0.1: {error}"))?;
        let port = listener
            .local_addr()
            .map_err(|error| format!("cannot read the fixture's address: {error}"))?
            .port();
        let base = format!("http://127.0.0.1:{port}");
        let mut mocks = Vec::with_capacity(self.routes.len());
        for route in &self.routes {
            let mut template =
                ResponseTemplate::new(route.status).set_body_bytes(route.body_bytes()?);
            for (name, value) in &route.headers {
                template =
                    template.append_header(name.as_str(), substitute_str(value, &base, port));
            }
            if route.delay_ms > 0 {
                template = template.set_delay(Duration::from_millis(route.delay_ms));
            }
            mocks.push(Mock::given(path(route.path.as_str())).respond_with(template));
        }
        // wiremock serves from a thread and runtime of its own; this one
        // only runs the setup.
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .map_err(|error| format!("cannot start a runtime for the fixture: {error}"))?;
        let server = runtime.block_on(async {
            let server = MockServer::builder()
                .listener(listener)
                .disable_request_recording()
                .start()
                .await;
            for mock in mocks {
                mock.mount(&server).await;
            }
            server
        });
        Ok(ServedFixture { server, base, port })
    }
}

/// A fixture being served; dropping it stops the server.
pub struct ServedFixture {
    server: MockServer,
    base: String,
    port: u16,
}

impl ServedFixture {
    /// `http://127.0.0.1:PORT`.
    pub fn base(&self) -> &str {
        &self.base
    }

    pub fn port(&self) -> u16 {
        self.port
    }

    /// Replaces `{base}` and `{port}` in every string of `value` (object
    /// keys included) with this server's.
    pub fn substitute(&self, value: &Value) -> Value {
        substitute(value, &self.base, self.port)
    }
}

impl std::fmt::Debug for ServedFixture {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ServedFixture")
            .field("base", &self.base)
            .field("address", self.server.address())
            .finish()
    }
}

/// `text` with `{base}` and `{port}` replaced.
pub fn substitute_str(text: &str, base: &str, port: u16) -> String {
    if !text.contains('{') {
        return text.to_owned();
    }
    text.replace(BASE, base).replace(PORT, &port.to_string())
}

/// Replaces `{base}` and `{port}` in every string of `value`, object keys
/// included (a host name in a resolve map may carry the port).
pub fn substitute(value: &Value, base: &str, port: u16) -> Value {
    match value {
        Value::String(text) => Value::String(substitute_str(text, base, port)),
        Value::Array(items) => Value::Array(
            items
                .iter()
                .map(|item| substitute(item, base, port))
                .collect(),
        ),
        Value::Object(object) => Value::Object(
            object
                .iter()
                .map(|(key, item)| {
                    (
                        substitute_str(key, base, port),
                        substitute(item, base, port),
                    )
                })
                .collect(),
        ),
        other => other.clone(),
    }
}

/// Whether any string of `value` holds `{base}` or `{port}`.
pub fn mentions_server(value: &Value) -> bool {
    match value {
        Value::String(text) => text.contains(BASE) || text.contains(PORT),
        Value::Array(items) => items.iter().any(mentions_server),
        Value::Object(object) => object
            .iter()
            .any(|(key, item)| key.contains(BASE) || key.contains(PORT) || mentions_server(item)),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn routes_default_to_an_empty_200() {
        let fixture = Fixture::parse(&json!({"routes": [{"path": "/"}]})).expect("valid");
        assert_eq!(fixture.routes[0].status, 200);
        assert_eq!(fixture.routes[0].body_bytes(), Ok(Vec::new()));
    }

    #[test]
    fn each_body_form_gives_its_bytes() {
        let route = |extra: Value| {
            let mut route = json!({"path": "/a"});
            route
                .as_object_mut()
                .expect("an object")
                .extend(extra.as_object().expect("an object").clone());
            Fixture::parse(&json!({ "routes": [route] })).map(|fixture| fixture.routes[0].clone())
        };
        let bytes = |extra| route(extra).and_then(|route| route.body_bytes());
        assert_eq!(bytes(json!({"body": "hé"})), Ok("hé".as_bytes().to_vec()));
        assert_eq!(bytes(json!({"body_base64": "/w=="})), Ok(vec![0xff]));
        assert_eq!(
            bytes(json!({"body_repeat": {"text": "ab", "times": 3}})),
            Ok(b"ababab".to_vec())
        );
        assert!(route(json!({"body": "a", "body_base64": "YQ=="})).is_err());
        assert!(route(json!({"body_base64": "not base64!"})).is_err());
        assert!(route(json!({"body_repeat": {"text": "ab", "times": usize::MAX}})).is_err());
    }

    #[test]
    fn malformed_fixtures_name_the_problem() {
        let cases = [
            (json!({"routes": []}), "no route"),
            (json!({"routes": [{"path": "a"}]}), "must start with /"),
            (json!({"routes": [{"path": "/a?q=1"}]}), "query"),
            (json!({"routes": [{"path": "/a"}, {"path": "/a"}]}), "twice"),
            (json!({"routes": [{"path": "/a", "status": 99}]}), "status"),
            (
                json!({"routes": [{"path": "/a", "delay_ms": 60000}]}),
                "delay_ms",
            ),
            (
                json!({"routes": [{"path": "/a", "headers": {"Content-Length": "1"}}]}),
                "Content-Length",
            ),
            (
                json!({"routes": [{"path": "/a", "headers": {"X": "a\nb"}}]}),
                "header value",
            ),
            (json!({"routes": [{"path": "/a", "colour": 1}]}), "colour"),
            (json!({"routes": "x"}), "fixture.routes"),
        ];
        for (fixture, named) in cases {
            let error = Fixture::parse(&fixture).expect_err("a malformed fixture");
            assert!(error.contains(named), "{fixture}: {error}");
        }
    }

    #[test]
    fn substitution_reaches_nested_strings_and_keys() {
        let value = json!({"url": "{base}/a", "resolve": {"h:{port}": "x"}, "n": [1, "{port}"]});
        assert_eq!(
            substitute(&value, "http://127.0.0.1:8", 8),
            json!({"url": "http://127.0.0.1:8/a", "resolve": {"h:8": "x"}, "n": [1, "8"]})
        );
        assert!(mentions_server(&value));
        assert!(!mentions_server(&json!({"url": "http://x/"})));
    }

    #[test]
    fn served_fixture_answers_its_routes_and_substitutes_locations() {
        let fixture = Fixture::parse(&json!({"routes": [
            {"path": "/a", "status": 302, "headers": {"Location": "{base}/b"}},
            {"path": "/b", "headers": {"Content-Type": "text/plain"}, "body": "hi"}
        ]}))
        .expect("valid");
        let served = fixture.serve().expect("the fixture starts");
        assert!(served.base().starts_with("http://127.0.0.1:"), "{served:?}");
        let answer = raw_get(served.port(), "/a");
        assert!(answer.starts_with("HTTP/1.1 302"), "{answer}");
        let location = format!("location: {}/b", served.base());
        assert!(answer.to_ascii_lowercase().contains(&location), "{answer}");
        let answer = raw_get(served.port(), "/b");
        assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
        assert!(answer.ends_with("\r\n\r\nhi"), "{answer}");
        assert!(raw_get(served.port(), "/c").starts_with("HTTP/1.1 404"));
    }

    /// One GET over a plain socket, the whole answer as text.
    fn raw_get(port: u16, path: &str) -> String {
        use std::io::{Read, Write};
        let mut stream =
            std::net::TcpStream::connect(("127.0.0.1", port)).expect("the fixture listens");
        write!(
            stream,
            "GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"
        )
        .expect("the request is written");
        let mut answer = String::new();
        stream
            .read_to_string(&mut answer)
            .expect("the answer is read");
        answer
    }
}
