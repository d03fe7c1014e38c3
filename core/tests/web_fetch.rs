//! The fetch stage against loopback fixtures: wiremock for ordinary
//! answers, raw sockets (common_web) for what wiremock cannot serve.
//!
//! No test connects to anything but 127.0.0.1: addresses like
//! 169.254.169.254 appear only where the policy must refuse them before
//! any connection.

mod common_web;

use std::io::Write;
use std::sync::Arc;
use std::time::{Duration, Instant};

use agentfence::web::WebError;
use agentfence::web::fetch::{self, FetchConfig, FetchedPage};
use common_web::{PINNED_HOST, RawServer, StreamReport, hang, loopback, pinned, write_head};
use wiremock::matchers::{method, path, path_regex};
use wiremock::{Mock, MockServer, Request, ResponseTemplate};

const CAP: usize = agentfence::web::DEFAULT_MAX_BODY_BYTES;

async fn get(config: &FetchConfig, url: &str) -> Result<FetchedPage, WebError> {
    fetch::get(config, url).await
}

fn kind<T: std::fmt::Debug>(result: Result<T, WebError>) -> &'static str {
    match result {
        Ok(value) => panic!("expected an error, got {value:?}"),
        Err(error) => error.kind(),
    }
}

async fn serve(status: u16, mime: &str, body: impl Into<Vec<u8>>) -> MockServer {
    let server = MockServer::start().await;
    Mock::given(method("GET"))
        .respond_with(ResponseTemplate::new(status).set_body_raw(body.into(), mime))
        .mount(&server)
        .await;
    server
}

/// A wiremock server whose `/hop` answers 302 to `location`, and whose
/// `/secret` must never be asked for.
async fn redirect_to(location: &str) -> MockServer {
    let server = MockServer::start().await;
    redirect(&server, "/hop", 302, location).await;
    Mock::given(path("/secret"))
        .respond_with(ResponseTemplate::new(200).set_body_raw("secret", "text/plain"))
        .expect(0)
        .mount(&server)
        .await;
    server
}

fn pinned_url(server: &MockServer, path: &str) -> String {
    format!("http://{PINNED_HOST}:{}{path}", server.address().port())
}

// --- status and content type ---------------------------------------------

/// Makes `server` answer requests for `at` with `response`.
async fn answer(server: &MockServer, at: &str, response: ResponseTemplate) {
    Mock::given(path(at))
        .respond_with(response)
        .mount(server)
        .await;
}

/// Makes `server` redirect requests for `at` to `to` with `status`.
async fn redirect(server: &MockServer, at: &str, status: u16, to: impl AsRef<str>) {
    let response = ResponseTemplate::new(status).insert_header("Location", to.as_ref());
    answer(server, at, response).await;
}

/// Makes `server` answer requests for `at` with `body` as plain text.
async fn text_page(server: &MockServer, at: &str, body: &'static str) {
    let response = ResponseTemplate::new(200).set_body_raw(body, "text/plain");
    answer(server, at, response).await;
}

/// Asserts that no request reached `probe`.
async fn assert_never_asked(probe: &MockServer) {
    let requests = probe.received_requests().await.unwrap_or_default();
    assert!(
        requests.is_empty(),
        "{} request(s) reached the probe",
        requests.len()
    );
}

#[tokio::test]
async fn html_page_is_fetched_with_its_final_url_status_and_type() {
    let server = serve(200, "text/html; charset=utf-8", "<p>héllo</p>").await;
    let url = format!("{}/page?q=1", server.uri());
    let page = get(&loopback(), &url).await.expect("fetched");
    assert_eq!(page.url, url);
    assert_eq!(page.status, 200);
    assert_eq!(page.content_type, "text/html");
    assert_eq!(page.text, "<p>héllo</p>");
}

#[tokio::test]
async fn text_json_and_xml_types_are_accepted() {
    for mime in [
        "text/plain",
        "text/markdown",
        "application/json",
        "application/ld+json",
        "application/xml",
        "application/rss+xml",
        "application/xhtml+xml",
        "TEXT/HTML",
    ] {
        let server = serve(200, mime, "body").await;
        let page = get(&loopback(), &server.uri()).await.expect(mime);
        assert_eq!(page.content_type, mime.to_ascii_lowercase());
        assert_eq!(page.text, "body");
    }
}

#[tokio::test]
async fn missing_content_type_is_read_as_plain_text() {
    let server = MockServer::start().await;
    Mock::given(method("GET"))
        .respond_with(ResponseTemplate::new(200).set_body_bytes(b"<b>raw</b>".to_vec()))
        .mount(&server)
        .await;
    let page = get(&loopback(), &server.uri()).await.expect("fetched");
    assert_eq!(page.content_type, "text/plain");
    assert_eq!(page.text, "<b>raw</b>");
}

#[tokio::test]
async fn binary_types_are_refused() {
    for mime in ["image/png", "application/octet-stream", "application/pdf"] {
        let server = serve(200, mime, b"\x89PNG\r\n\x1a\n".to_vec()).await;
        let error = get(&loopback(), &server.uri()).await.expect_err(mime);
        assert_eq!(error.kind(), "unsupported_content_type", "{mime}");
    }
}

#[tokio::test]
async fn refused_type_fails_before_the_body_is_read() {
    // The body never comes: only a refusal from the headers is fast.
    let server = RawServer::start(|mut socket| async move {
        write_head(
            &mut socket,
            "200 OK",
            &["Content-Type: image/png", "Transfer-Encoding: chunked"],
        )
        .await;
        hang(socket).await;
    })
    .await;
    let started = Instant::now();
    assert_eq!(
        kind(get(&loopback(), &server.url("/")).await),
        "unsupported_content_type"
    );
    assert!(started.elapsed() < Duration::from_secs(2));
}

#[tokio::test]
async fn non_2xx_fails_with_the_status() {
    for status in [404u16, 500, 403, 300] {
        let server = serve(status, "text/html", "<h1>error page</h1>").await;
        let error = get(&loopback(), &server.uri()).await.expect_err("non-2xx");
        assert_eq!(error, WebError::HttpStatus { status });
        assert!(!error.to_string().contains("error page"));
    }
}

#[tokio::test]
async fn no_content_is_an_empty_page() {
    let server = MockServer::start().await;
    Mock::given(method("GET"))
        .respond_with(ResponseTemplate::new(204))
        .mount(&server)
        .await;
    let page = get(&loopback(), &server.uri()).await.expect("204 is 2xx");
    assert_eq!(page.status, 204);
    assert_eq!(page.text, "");
}

// --- body cap ------------------------------------------------------------

#[tokio::test]
async fn body_exactly_at_the_cap_is_accepted() {
    let server = serve(200, "text/plain", vec![b'a'; CAP]).await;
    let page = get(&loopback(), &server.uri()).await.expect("at the cap");
    assert_eq!(page.text.len(), CAP);
}

#[tokio::test]
async fn body_one_byte_over_the_cap_fails_rather_than_being_cut() {
    let server = serve(200, "text/plain", vec![b'a'; CAP + 1]).await;
    let error = get(&loopback(), &server.uri()).await.expect_err("over");
    assert_eq!(error, WebError::BodyTooLarge { limit: CAP });
}

#[tokio::test]
async fn configured_cap_is_the_one_enforced() {
    let server = serve(200, "text/plain", "0123456789").await;
    let config = FetchConfig {
        max_body_bytes: 10,
        ..loopback()
    };
    assert_eq!(
        get(&config, &server.uri()).await.expect("10").text.len(),
        10
    );
    let config = FetchConfig {
        max_body_bytes: 9,
        ..loopback()
    };
    assert_eq!(kind(get(&config, &server.uri()).await), "body_too_large");
}

#[tokio::test]
async fn declared_length_over_the_cap_is_refused_before_reading() {
    // Headers only, then silence: waiting for the body would time out.
    let server = RawServer::start(|mut socket| async move {
        let length = format!("Content-Length: {}", CAP + 1);
        write_head(
            &mut socket,
            "200 OK",
            &["Content-Type: text/plain", &length],
        )
        .await;
        hang(socket).await;
    })
    .await;
    let started = Instant::now();
    assert_eq!(
        kind(get(&loopback(), &server.url("/")).await),
        "body_too_large"
    );
    assert!(started.elapsed() < Duration::from_secs(2));
}

async fn chunked_server(total: u64) -> (RawServer, Arc<StreamReport>) {
    let report = Arc::new(StreamReport::default());
    let shared = Arc::clone(&report);
    let server = RawServer::start(move |socket| {
        common_web::stream_chunked(socket, "text/plain", total, b'z', Arc::clone(&shared))
    })
    .await;
    (server, report)
}

#[tokio::test]
async fn chunked_body_at_the_cap_is_accepted() {
    let (server, _) = chunked_server(CAP as u64).await;
    let page = get(&loopback(), &server.url("/"))
        .await
        .expect("at the cap");
    assert_eq!(page.text.len(), CAP);
    let (server, _) = chunked_server(CAP as u64 + 1).await;
    assert_eq!(
        kind(get(&loopback(), &server.url("/")).await),
        "body_too_large"
    );
}

#[tokio::test]
async fn chunked_body_is_cut_off_at_the_cap() {
    let total = 200 * 1024 * 1024;
    let (server, report) = chunked_server(total).await;
    assert_eq!(
        kind(get(&loopback(), &server.url("/")).await),
        "body_too_large"
    );
    // The client hangs up; the fixture sees it long before the end.
    tokio::time::timeout(Duration::from_secs(5), report.done.notified())
        .await
        .expect("the fixture stops once the client is gone");
    assert!(
        report
            .client_left
            .load(std::sync::atomic::Ordering::Relaxed)
    );
    let sent = report.sent.load(std::sync::atomic::Ordering::Relaxed);
    assert!(sent < total / 4, "sent {sent} bytes");
}

#[tokio::test]
async fn short_body_under_a_larger_content_length_fails() {
    let server = RawServer::start(|mut socket| async move {
        use tokio::io::AsyncWriteExt;
        write_head(
            &mut socket,
            "200 OK",
            &["Content-Type: text/plain", "Content-Length: 100"],
        )
        .await;
        let _ = socket.write_all(b"only ten b").await;
    })
    .await;
    assert_eq!(kind(get(&loopback(), &server.url("/")).await), "io");
}

#[tokio::test]
async fn bytes_past_the_content_length_are_not_read() {
    let server = RawServer::start(|mut socket| async move {
        use tokio::io::AsyncWriteExt;
        write_head(
            &mut socket,
            "200 OK",
            &["Content-Type: text/plain", "Content-Length: 5"],
        )
        .await;
        let _ = socket
            .write_all(b"hello, and more that was not declared")
            .await;
        hang(socket).await;
    })
    .await;
    let page = get(&loopback(), &server.url("/")).await.expect("fetched");
    assert_eq!(page.text, "hello");
}

// --- timeout -------------------------------------------------------------

fn quick() -> FetchConfig {
    FetchConfig {
        timeout: Duration::from_millis(300),
        ..loopback()
    }
}

#[tokio::test]
async fn slow_answer_times_out() {
    let server = MockServer::start().await;
    Mock::given(method("GET"))
        .respond_with(
            ResponseTemplate::new(200)
                .set_body_raw("late", "text/plain")
                .set_delay(Duration::from_secs(3)),
        )
        .mount(&server)
        .await;
    let started = Instant::now();
    let error = get(&quick(), &server.uri()).await.expect_err("too slow");
    assert_eq!(error, WebError::Timeout { millis: 300 });
    assert!(started.elapsed() < Duration::from_secs(2));
}

#[tokio::test]
async fn trickling_body_times_out() {
    // Each byte comes well within any per-read timeout; only a total one
    // catches this.
    let server = RawServer::start(|mut socket| async move {
        use tokio::io::AsyncWriteExt;
        write_head(
            &mut socket,
            "200 OK",
            &["Content-Type: text/plain", "Content-Length: 1000"],
        )
        .await;
        for _ in 0..1000 {
            if socket.write_all(b"x").await.is_err() {
                return;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    })
    .await;
    let started = Instant::now();
    assert_eq!(kind(get(&quick(), &server.url("/")).await), "timeout");
    assert!(started.elapsed() < Duration::from_secs(2));
}

// --- redirects -----------------------------------------------------------

/// `/chain/<n>` redirects to `/chain/<n-1>`; `/chain/0` is the page.
async fn chain_server() -> MockServer {
    let server = MockServer::start().await;
    Mock::given(path_regex(r"^/chain/\d+$"))
        .respond_with(|request: &Request| {
            let n: u32 = request
                .url
                .path()
                .trim_start_matches("/chain/")
                .parse()
                .expect("the matcher allows digits only");
            if n == 0 {
                ResponseTemplate::new(200).set_body_raw("arrived", "text/plain")
            } else {
                ResponseTemplate::new(302).insert_header("Location", format!("/chain/{}", n - 1))
            }
        })
        .mount(&server)
        .await;
    server
}

#[tokio::test]
async fn five_redirects_are_followed() {
    let server = chain_server().await;
    let page = get(&loopback(), &format!("{}/chain/5", server.uri()))
        .await
        .expect("5 hops");
    assert_eq!(page.text, "arrived");
    assert_eq!(page.url, format!("{}/chain/0", server.uri()));
}

#[tokio::test]
async fn six_redirects_fail() {
    let server = chain_server().await;
    let error = get(&loopback(), &format!("{}/chain/6", server.uri()))
        .await
        .expect_err("6 hops");
    assert_eq!(error, WebError::TooManyRedirects { limit: 5 });
}

#[tokio::test]
async fn configured_redirect_limit_is_the_one_enforced() {
    let server = chain_server().await;
    let none = FetchConfig {
        max_redirects: 0,
        ..loopback()
    };
    assert!(
        get(&none, &format!("{}/chain/0", server.uri()))
            .await
            .is_ok()
    );
    assert_eq!(
        kind(get(&none, &format!("{}/chain/1", server.uri())).await),
        "too_many_redirects"
    );
}

#[tokio::test]
async fn redirect_loop_fails_as_too_many() {
    let server = MockServer::start().await;
    redirect(&server, "/a", 302, "/b").await;
    redirect(&server, "/b", 301, "/a").await;
    redirect(&server, "/self", 307, "/self").await;
    for start in ["/a", "/self"] {
        let url = format!("{}{start}", server.uri());
        assert_eq!(kind(get(&loopback(), &url).await), "too_many_redirects");
    }
}

#[tokio::test]
async fn redirect_to_a_pinned_name_is_followed() {
    let server = MockServer::start().await;
    redirect(&server, "/hop", 302, "/page").await;
    text_page(&server, "/page", "page").await;
    let page = get(&pinned(), &pinned_url(&server, "/hop"))
        .await
        .expect("the pinned fixture is reachable under the default policy");
    assert_eq!(page.text, "page");
    assert_eq!(page.url, pinned_url(&server, "/page"));
}

#[tokio::test]
async fn redirect_to_a_refused_address_is_blocked_before_connecting() {
    let probe = MockServer::start().await;
    let port = probe.address().port();
    for location in [
        format!("http://0x7f000001:{port}/secret"),
        format!("http://2130706433:{port}/secret"),
        format!("http://127.0.0.1:{port}/secret"),
        format!("http://[::ffff:127.0.0.1]:{port}/secret"),
        format!("http://[::1]:{port}/secret"),
        "http://0x7f000001/".to_string(),
        "http://[::ffff:127.0.0.1]/".to_string(),
        "http://169.254.169.254/latest/meta-data".to_string(),
        "http://[fd00:ec2::254]/latest/meta-data".to_string(),
        "http://0.0.0.0/".to_string(),
    ] {
        let server = redirect_to(&location).await;
        let started = Instant::now();
        let error = get(&pinned(), &pinned_url(&server, "/hop"))
            .await
            .expect_err(&location);
        assert_eq!(error.kind(), "blocked_address", "{location}: {error}");
        assert!(started.elapsed() < Duration::from_secs(2), "{location}");
        server.verify().await;
    }
    assert_never_asked(&probe).await;
}

#[tokio::test]
async fn redirect_to_a_name_resolving_to_a_refused_address_is_blocked() {
    let server = MockServer::start().await;
    let port = server.address().port();
    redirect(
        &server,
        "/hop",
        302,
        format!("http://localhost:{port}/secret"),
    )
    .await;
    Mock::given(path("/secret"))
        .respond_with(ResponseTemplate::new(200).set_body_raw("secret", "text/plain"))
        .expect(0)
        .mount(&server)
        .await;
    let error = get(&pinned(), &pinned_url(&server, "/hop"))
        .await
        .expect_err("localhost resolves to loopback");
    assert_eq!(error.kind(), "blocked_address");
    assert!(error.to_string().contains("localhost"), "{error}");
}

#[tokio::test]
async fn redirect_to_another_scheme_is_unsupported() {
    for location in ["file:///etc/passwd", "ftp://fixture.test/x", "gopher://x/"] {
        let server = redirect_to(location).await;
        let error = get(&pinned(), &pinned_url(&server, "/hop"))
            .await
            .expect_err(location);
        assert_eq!(error.kind(), "unsupported_scheme", "{location}: {error}");
    }
}

#[tokio::test]
async fn redirect_with_credentials_is_invalid_and_does_not_echo_them() {
    let probe = MockServer::start().await;
    let location = format!(
        "http://admin:s3cr3t@{PINNED_HOST}:{}/secret",
        probe.address().port()
    );
    let server = redirect_to(&location).await;
    let error = get(&pinned(), &pinned_url(&server, "/hop"))
        .await
        .expect_err("credentials");
    assert_eq!(error.kind(), "invalid_url");
    assert!(!error.to_string().contains("s3cr3t"), "{error}");
    assert!(!format!("{error:?}").contains("s3cr3t"), "{error:?}");
    assert_never_asked(&probe).await;
}

// --- address policy on the first URL -------------------------------------

#[tokio::test]
async fn refused_literal_hosts_are_blocked_before_connecting() {
    let probe = MockServer::start().await;
    let port = probe.address().port();
    let config = FetchConfig {
        timeout: Duration::from_secs(5),
        ..FetchConfig::default()
    };
    for url in [
        format!("http://127.0.0.1:{port}/"),
        format!("http://2130706433:{port}/"),
        format!("http://0x7f000001:{port}/"),
        format!("http://0177.0.0.1:{port}/"),
        format!("http://127.1:{port}/"),
        format!("http://[::1]:{port}/"),
        format!("http://[::ffff:127.0.0.1]:{port}/"),
        "http://169.254.169.254/latest/meta-data".to_string(),
        "http://10.0.0.1/".to_string(),
        "http://100.64.0.1/".to_string(),
        "http://192.0.2.1/".to_string(),
        "http://[fe80::1]/".to_string(),
        "http://[64:ff9b::7f00:1]/".to_string(),
        "http://[2002:7f00:1::]/".to_string(),
    ] {
        let started = Instant::now();
        let error = get(&config, &url).await.expect_err(&url);
        assert_eq!(error.kind(), "blocked_address", "{url}: {error}");
        assert!(started.elapsed() < Duration::from_millis(500), "{url}");
    }
    assert_never_asked(&probe).await;
}

#[tokio::test]
async fn allow_private_never_allows_unspecified_or_multicast() {
    for url in [
        "http://0.0.0.0/",
        "http://[::]/",
        "http://224.0.0.1/",
        "http://[ff02::1]/",
    ] {
        assert_eq!(
            kind(get(&loopback(), url).await),
            "blocked_address",
            "{url}"
        );
    }
}

#[tokio::test]
async fn names_are_checked_on_their_resolved_addresses() {
    let server = serve(200, "text/plain", "local").await;
    let url = format!("http://localhost:{}/", server.address().port());
    let error = get(&FetchConfig::default(), &url)
        .await
        .expect_err("localhost is loopback");
    assert_eq!(error.kind(), "blocked_address");
    assert_eq!(get(&loopback(), &url).await.expect("allowed").text, "local");
}

#[tokio::test]
async fn pinned_name_reaches_the_fixture_under_the_default_policy() {
    let server = serve(200, "text/plain", "pinned").await;
    let page = get(&pinned(), &pinned_url(&server, "/"))
        .await
        .expect("pinned");
    assert_eq!(page.text, "pinned");
}

#[tokio::test]
async fn credentials_are_refused_and_never_echoed() {
    let server = serve(200, "text/plain", "x").await;
    let port = server.address().port();
    for url in [
        format!("http://user:s3cr3t@127.0.0.1:{port}/"),
        format!("http://s3cr3t@127.0.0.1:{port}/"),
        format!("http://:s3cr3t@127.0.0.1:{port}/"),
    ] {
        let error = get(&loopback(), &url).await.expect_err("credentials");
        assert_eq!(error.kind(), "invalid_url");
        assert!(!error.to_string().contains("s3cr3t"), "{error}");
        assert!(!fetch::redact(&url).contains("s3cr3t"));
    }
    assert!(
        server
            .received_requests()
            .await
            .unwrap_or_default()
            .is_empty()
    );
}

#[tokio::test]
async fn only_http_and_https_are_fetched() {
    for url in [
        "ftp://example.com/file",
        "file:///etc/passwd",
        "gopher://x/",
    ] {
        assert_eq!(
            kind(get(&loopback(), url).await),
            "unsupported_scheme",
            "{url}"
        );
    }
    for url in [
        "not a url",
        "http://",
        "//example.com/",
        "http://exa mple.com/",
    ] {
        assert_eq!(kind(get(&loopback(), url).await), "invalid_url", "{url}");
    }
}

// --- charsets ------------------------------------------------------------

async fn decoded(mime: &str, body: &[u8]) -> Result<String, WebError> {
    let server = serve(200, mime, body.to_vec()).await;
    get(&loopback(), &server.uri()).await.map(|page| page.text)
}

#[tokio::test]
async fn charset_from_the_header_is_used() {
    let cases: &[(&str, &[u8], &str)] = &[
        ("text/plain; charset=iso-8859-1", b"caf\xe9", "café"),
        ("text/plain; charset=windows-1252", b"\x80 5", "€ 5"),
        ("text/html; charset=Shift_JIS", b"\x93\xfa\x96\x7b", "日本"),
        ("text/plain; charset=\"koi8-r\"", b"\xf0\xd2\xc9", "При"),
        ("text/plain; charset=utf-16", b"\xff\xfeh\x00i\x00", "hi"),
        ("text/plain; charset=utf-16le", b"h\x00i\x00", "hi"),
        (
            "application/json; charset=utf-8",
            b"{\"a\":\"\xc3\xa9\"}",
            "{\"a\":\"é\"}",
        ),
    ];
    for (mime, body, text) in cases {
        assert_eq!(decoded(mime, body).await.as_deref(), Ok(*text), "{mime}");
    }
}

#[tokio::test]
async fn byte_order_mark_wins_over_the_header() {
    assert_eq!(
        decoded("text/plain; charset=utf-16", b"\xfe\xff\x00h\x00i")
            .await
            .as_deref(),
        Ok("hi")
    );
    assert_eq!(
        decoded("text/plain; charset=iso-8859-1", b"\xef\xbb\xbfcaf\xc3\xa9")
            .await
            .as_deref(),
        Ok("café")
    );
    assert_eq!(
        decoded("text/plain", b"\xff\xfeh\x00i\x00")
            .await
            .as_deref(),
        Ok("hi")
    );
}

#[tokio::test]
async fn charset_from_an_html_meta_is_used() {
    let meta = b"<html><head><meta charset=\"windows-1251\"></head><body>\xcf\xf0\xe8</body>";
    assert_eq!(
        decoded("text/html", meta).await.expect("decoded"),
        "<html><head><meta charset=\"windows-1251\"></head><body>При</body>"
    );
    let pragma =
        b"<meta http-equiv=\"Content-Type\" content=\"text/html; charset=iso-8859-1\">caf\xe9";
    assert!(
        decoded("text/html", pragma)
            .await
            .expect("decoded")
            .ends_with("café")
    );
    // The header wins over the meta; plain text has no meta.
    assert!(
        decoded("text/html; charset=utf-8", meta)
            .await
            .expect("decoded")
            .ends_with("<body>\u{fffd}\u{fffd}\u{fffd}</body>")
    );
    assert!(
        decoded("text/plain", meta)
            .await
            .expect("decoded")
            .contains("\u{fffd}")
    );
}

#[tokio::test]
async fn utf8_is_the_default_and_malformed_bytes_become_replacement_characters() {
    assert_eq!(
        decoded("text/plain", b"ok \xff\xfe\xfd end \xe2\x82")
            .await
            .as_deref(),
        Ok("ok \u{fffd}\u{fffd}\u{fffd} end \u{fffd}")
    );
    assert_eq!(
        decoded("text/html", "日本".as_bytes()).await.as_deref(),
        Ok("日本")
    );
}

#[tokio::test]
async fn unknown_charset_label_fails_to_decode() {
    let error = decoded("text/plain; charset=no-such-charset", b"x")
        .await
        .expect_err("unknown label");
    assert_eq!(error.kind(), "decode");
    // In a meta, as in browsers, an unknown label is ignored.
    assert_eq!(
        decoded("text/html", b"<meta charset=bogus>\xc3\xa9")
            .await
            .as_deref(),
        Ok("<meta charset=bogus>é")
    );
}

// --- content encoding ----------------------------------------------------

fn gzip(data: &[u8]) -> Vec<u8> {
    let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    encoder.write_all(data).expect("writing to a Vec");
    encoder.finish().expect("writing to a Vec")
}

fn zlib(data: &[u8]) -> Vec<u8> {
    let mut encoder = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::default());
    encoder.write_all(data).expect("writing to a Vec");
    encoder.finish().expect("writing to a Vec")
}

fn brotli(data: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    {
        let mut encoder = brotli::CompressorWriter::new(&mut out, 4096, 5, 22);
        encoder.write_all(data).expect("writing to a Vec");
    }
    out
}

async fn encoded(encoding: &str, body: Vec<u8>) -> MockServer {
    let server = MockServer::start().await;
    Mock::given(method("GET"))
        .respond_with(
            ResponseTemplate::new(200)
                .insert_header("Content-Encoding", encoding)
                .set_body_raw(body, "text/plain; charset=utf-8"),
        )
        .mount(&server)
        .await;
    server
}

#[tokio::test]
async fn gzip_deflate_and_brotli_bodies_are_decoded() {
    let text = "compressed café ".repeat(100);
    for (encoding, body) in [
        ("gzip", gzip(text.as_bytes())),
        ("deflate", zlib(text.as_bytes())),
        ("br", brotli(text.as_bytes())),
        ("identity", text.as_bytes().to_vec()),
    ] {
        let server = encoded(encoding, body).await;
        let page = get(&loopback(), &server.uri()).await.expect(encoding);
        assert_eq!(page.text, text, "{encoding}");
    }
}

#[tokio::test]
async fn decoded_size_is_what_the_cap_counts() {
    // 1 KiB on the wire, over the cap once decoded.
    let server = encoded("gzip", gzip(&vec![b'a'; CAP + 1])).await;
    assert_eq!(
        kind(get(&loopback(), &server.uri()).await),
        "body_too_large"
    );
    let server = encoded("gzip", gzip(&vec![b'a'; CAP])).await;
    assert_eq!(
        get(&loopback(), &server.uri())
            .await
            .expect("at cap")
            .text
            .len(),
        CAP
    );
}

#[tokio::test]
async fn gzip_bomb_fails_body_too_large() {
    let bomb = gzip(&vec![0u8; 50 * 1024 * 1024]);
    assert!(bomb.len() < 1024 * 1024);
    let server = encoded("gzip", bomb).await;
    let started = Instant::now();
    assert_eq!(
        kind(get(&loopback(), &server.uri()).await),
        "body_too_large"
    );
    assert!(started.elapsed() < Duration::from_secs(3));
}

#[tokio::test]
async fn unknown_or_corrupt_content_encoding_fails_to_decode() {
    let server = encoded("compress", b"\x1f\x9d\x90abc".to_vec()).await;
    assert_eq!(kind(get(&loopback(), &server.uri()).await), "decode");
    let server = encoded("gzip", b"this is not gzip at all".to_vec()).await;
    assert_eq!(kind(get(&loopback(), &server.uri()).await), "decode");
}
