//! An HTTP answer described by the fuzzer and served on loopback, for the
//! `fetch_mock` target: one current-thread runtime and one listener on
//! `127.0.0.1` serve every run of the process; each run spawns a task that
//! answers every connection with the described bytes until the fetch is
//! done.

use std::io::Write;
use std::sync::Arc;
use std::time::Duration;

use arbitrary::{Result, Unstructured};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpListener;
use tokio::runtime::Runtime;

use crate::web::fetch::{self, FetchConfig, FetchedPage};
use crate::web::{AddressPolicy, WebError};

/// The body cap of the harness: small, so that the fuzzer reaches it.
pub const CAP: usize = 512;

/// How the body is framed on the wire.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Framing {
    /// `Content-Length` with the true length.
    Length,
    /// No length: the body ends when the connection closes.
    Close,
    /// `Transfer-Encoding: chunked`, in chunks of at most this many bytes.
    Chunked(usize),
    /// A `Content-Length` that lies by this much.
    LyingLength(i64),
    /// A `Content-Length` that is no number.
    BadLength,
}

/// The answer, as described.
#[derive(Debug, Clone)]
pub struct Answer {
    pub status: u16,
    pub content_type: Option<&'static str>,
    pub gzip: bool,
    /// A `Content-Encoding` the body is not really in (or that is unknown).
    pub other_encoding: Option<&'static str>,
    pub framing: Framing,
    pub location: Option<&'static str>,
    /// The body before content encoding.
    pub body: Vec<u8>,
}

const CONTENT_TYPES: &[&str] = &[
    "text/plain",
    "text/plain; charset=utf-8",
    "text/html",
    "text/html; charset=UTF-8",
    "application/json",
    "text/plain; charset=iso-8859-1",
    "text/html; charset=windows-1252",
    "text/plain; charset=utf-16le",
    "text/plain; charset=shift_jis",
    "text/plain; charset=bogus",
    "application/octet-stream",
    "image/png",
    "application/ld+json",
    "",
    ";;;",
];

/// Locations on loopback only: a fuzzer never sends traffic elsewhere.
const LOCATIONS: &[&str] = &[
    "/",
    "/next",
    "",
    "http://127.0.0.1:1/",
    "file:///etc/passwd",
    "http://u:pw@127.0.0.1:1/",
    "::",
];

const BODIES: &[&[u8]] = &[
    b"hello",
    b"<html><head><meta charset=\"windows-1252\"></head><body>caf\xe9</body></html>",
    b"\xef\xbb\xbfbom first",
    b"\xff\xfeh\x00i\x00",
    b"{\"a\": 1}",
    b"caf\xc3\xa9 \xe2\x80\x94 ok",
    b"bad \xff\xfe utf-8",
];

impl Answer {
    pub fn build(u: &mut Unstructured<'_>) -> Result<Answer> {
        let status = match u.int_in_range(0..=5)? {
            0..=2 => 200,
            3 => *u.choose(&[201, 203, 204, 206, 299])?,
            4 => *u.choose(&[301, 302, 303, 307, 308, 304])?,
            _ => u.int_in_range(200..=599)?,
        };
        let content_type = if u.ratio(1, 8)? {
            None
        } else {
            Some(*u.choose(CONTENT_TYPES)?)
        };
        let gzip = u.ratio(1, 4)?;
        let other_encoding = if u.ratio(1, 10)? {
            Some(*u.choose(&["identity", "br", "deflate", "x-bogus", "gzip"])?)
        } else {
            None
        };
        let framing = match u.int_in_range(0..=9)? {
            0..=3 => Framing::Length,
            4 | 5 => Framing::Close,
            6 | 7 => Framing::Chunked(u.int_in_range(1..=300)?),
            8 => Framing::LyingLength(u.int_in_range(-20..=20)?),
            _ => Framing::BadLength,
        };
        let location = if u.ratio(1, 6)? {
            Some(*u.choose(LOCATIONS)?)
        } else {
            None
        };
        let mut body = match u.int_in_range(0..=3)? {
            0 => u.choose(BODIES)?.to_vec(),
            // Around the cap: just under, at, just over.
            1 => vec![b'a'; (CAP - 2) + u.int_in_range(0..=4)?],
            _ => Vec::new(),
        };
        let rest: &[u8] = u.arbitrary()?;
        body.extend_from_slice(rest);
        Ok(Answer {
            status,
            content_type,
            gzip,
            other_encoding,
            framing,
            location,
            body,
        })
    }

    /// The body as sent: gzip-compressed when the answer says so.
    fn wire_body(&self) -> Vec<u8> {
        if !self.gzip {
            return self.body.clone();
        }
        let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        encoder
            .write_all(&self.body)
            .and_then(|()| encoder.finish())
            .expect("gzip into memory does not fail")
    }

    /// The whole answer, head and body, as bytes on the wire.
    pub fn bytes(&self) -> Vec<u8> {
        let body = self.wire_body();
        let mut out =
            format!("HTTP/1.1 {} Fuzz\r\nConnection: close\r\n", self.status).into_bytes();
        let mut header = |name: &str, value: &str| {
            out.extend_from_slice(format!("{name}: {value}\r\n").as_bytes());
        };
        if let Some(content_type) = self.content_type {
            header("Content-Type", content_type);
        }
        if self.gzip {
            header("Content-Encoding", "gzip");
        }
        if let Some(encoding) = self.other_encoding {
            header("Content-Encoding", encoding);
        }
        if let Some(location) = self.location {
            header("Location", location);
        }
        match self.framing {
            Framing::Length => header("Content-Length", &body.len().to_string()),
            Framing::Close => {}
            Framing::Chunked(_) => header("Transfer-Encoding", "chunked"),
            Framing::LyingLength(by) => {
                let length = i64::try_from(body.len()).unwrap_or(i64::MAX) + by;
                header("Content-Length", &length.max(0).to_string());
            }
            Framing::BadLength => header("Content-Length", "12abc"),
        }
        out.extend_from_slice(b"\r\n");
        match self.framing {
            Framing::Chunked(size) => {
                for chunk in body.chunks(size) {
                    out.extend_from_slice(format!("{:x}\r\n", chunk.len()).as_bytes());
                    out.extend_from_slice(chunk);
                    out.extend_from_slice(b"\r\n");
                }
                out.extend_from_slice(b"0\r\n\r\n");
            }
            _ => out.extend_from_slice(&body),
        }
        out
    }

    /// Whether the fetch must succeed and give back exactly the body: a
    /// 2xx answer whose body can be read (status with a body, honest
    /// framing, a content encoding reqwest decodes), of a text type in
    /// UTF-8 (declared or by default) without a byte-order mark, that is
    /// valid UTF-8 and within the cap, and, for plain text, whatever
    /// `<meta>` it may hold.
    fn must_decode_to_body(&self) -> bool {
        (200..300).contains(&self.status)
            && !matches!(self.status, 204 | 205)
            && self.honest()
            && matches!(
                self.content_type,
                None | Some("text/plain" | "text/plain; charset=utf-8" | "application/json")
            )
            && std::str::from_utf8(&self.body).is_ok()
            && !self.body.starts_with(b"\xef\xbb\xbf")
            && self.body.len() <= CAP
    }

    /// Whether the fetch must fail with `body_too_large`: as above, with a
    /// body over the cap (after decoding) in any accepted text type.
    fn must_be_too_large(&self) -> bool {
        (200..300).contains(&self.status)
            && !matches!(self.status, 204 | 205)
            && self.honest()
            && matches!(
                self.content_type,
                None | Some(
                    "text/plain"
                        | "text/plain; charset=utf-8"
                        | "text/html"
                        | "application/json"
                        | "text/plain; charset=iso-8859-1"
                )
            )
            && self.body.len() > CAP
    }

    /// Framing that tells the truth and an encoding reqwest reads.
    fn honest(&self) -> bool {
        let framing = matches!(
            self.framing,
            Framing::Length | Framing::Close | Framing::Chunked(_)
        );
        let encoding = match self.other_encoding {
            None => true,
            Some(other) => !self.gzip && other == "identity",
        };
        framing && encoding
    }
}

struct Mock {
    runtime: Runtime,
    listener: Arc<TcpListener>,
    port: u16,
}

thread_local! {
    static MOCK: Mock = {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .expect("a current-thread runtime");
        let listener = runtime
            .block_on(TcpListener::bind("127.0.0.1:0"))
            .expect("a loopback port");
        let port = listener.local_addr().expect("a bound address").port();
        Mock { runtime, listener: Arc::new(listener), port }
    };
}

/// Answers every connection with `bytes`, after reading the request head.
async fn serve(listener: Arc<TcpListener>, bytes: Arc<Vec<u8>>) {
    loop {
        let Ok((mut stream, _)) = listener.accept().await else {
            return;
        };
        let bytes = bytes.clone();
        tokio::spawn(async move {
            let mut head = Vec::new();
            let mut buffer = [0u8; 1024];
            while !head.windows(4).any(|w| w == b"\r\n\r\n") {
                match stream.read(&mut buffer).await {
                    Ok(0) | Err(_) => return,
                    Ok(n) => head.extend_from_slice(&buffer[..n]),
                }
            }
            let _ = stream.write_all(&bytes).await;
            let _ = stream.shutdown().await;
        });
    }
}

/// Serves `answer` on loopback and fetches it.
pub fn fetch_answer(answer: &Answer) -> std::result::Result<FetchedPage, WebError> {
    let bytes = Arc::new(answer.bytes());
    MOCK.with(|mock| {
        let config = FetchConfig {
            timeout: Duration::from_secs(5),
            max_body_bytes: CAP,
            max_redirects: 2,
            policy: AddressPolicy {
                allow_private: true,
            },
            pinned_hosts: Vec::new(),
        };
        let url = format!("http://127.0.0.1:{}/", mock.port);
        mock.runtime.block_on(async {
            let server = tokio::spawn(serve(mock.listener.clone(), bytes));
            let result = fetch::get(&config, &url).await;
            server.abort();
            result
        })
    })
}

/// The checks of the `fetch_mock` target on one answer.
pub fn check(answer: &Answer) {
    let result = fetch_answer(answer);
    match &result {
        Ok(page) => {
            assert!(
                (200..300).contains(&page.status),
                "a {} answer was taken: {answer:?}",
                page.status
            );
            // Every char of the text comes from at least one byte of the
            // decoded body, which the cap bounds.
            assert!(
                page.text.chars().count() <= CAP,
                "{} chars of text from a {CAP}-byte cap: {answer:?}",
                page.text.chars().count()
            );
        }
        Err(error) => assert!(
            WebError::KINDS.contains(&error.kind()),
            "undocumented kind {error:?}"
        ),
    }
    if answer.must_decode_to_body() {
        let body = std::str::from_utf8(&answer.body).expect("checked UTF-8");
        match &result {
            Ok(page) => assert_eq!(page.text, body, "the text is not the body: {answer:?}"),
            Err(error) => panic!("a readable text answer failed with {error:?}: {answer:?}"),
        }
    }
    if answer.must_be_too_large() {
        assert!(
            matches!(result, Err(WebError::BodyTooLarge { .. })),
            "a body over the cap gave {result:?}: {answer:?}"
        );
    }
}
