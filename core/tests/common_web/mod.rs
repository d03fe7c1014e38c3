//! Loopback fixtures for the fetch tests: what wiremock cannot serve (a
//! body that trickles, a huge chunked body, a lying `Content-Length`,
//! headers followed by silence), written straight to a TCP socket.
//!
//! Every fixture listens on 127.0.0.1 only; nothing here ever connects
//! anywhere.

#![allow(dead_code)] // each test binary uses a different part

use std::future::Future;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Duration;

use agentfence::web::AddressPolicy;
use agentfence::web::fetch::{FetchConfig, PinnedHost};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::task::JoinHandle;

/// The name [`pinned`] maps to loopback.
pub const PINNED_HOST: &str = "fixture.test";

/// Loopback fixtures under a policy that allows loopback.
pub fn loopback() -> FetchConfig {
    FetchConfig {
        timeout: Duration::from_secs(5),
        policy: AddressPolicy::allowing_private(),
        ..FetchConfig::default()
    }
}

/// The default policy, with [`PINNED_HOST`] pinned to 127.0.0.1: the
/// fixture is reachable by that name only, so every other way to
/// loopback (literal, `localhost`, redirect) must be refused.
pub fn pinned() -> FetchConfig {
    FetchConfig {
        timeout: Duration::from_secs(5),
        pinned_hosts: vec![PinnedHost::new(
            PINNED_HOST,
            IpAddr::V4(Ipv4Addr::LOCALHOST),
        )],
        ..FetchConfig::default()
    }
}

/// A raw HTTP/1.1 server: reads each request's head, then hands the
/// socket to `answer`. Stops when dropped.
pub struct RawServer {
    pub addr: SocketAddr,
    task: JoinHandle<()>,
}

impl RawServer {
    pub async fn start<F, Fut>(answer: F) -> RawServer
    where
        F: Fn(TcpStream) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = ()> + Send + 'static,
    {
        let listener = TcpListener::bind((Ipv4Addr::LOCALHOST, 0))
            .await
            .expect("bind a loopback port");
        let addr = listener
            .local_addr()
            .expect("a bound listener has an address");
        let answer = Arc::new(answer);
        let task = tokio::spawn(async move {
            while let Ok((mut socket, _)) = listener.accept().await {
                let answer = Arc::clone(&answer);
                tokio::spawn(async move {
                    if read_request_head(&mut socket).await {
                        answer(socket).await;
                    }
                });
            }
        });
        RawServer { addr, task }
    }

    pub fn url(&self, path: &str) -> String {
        format!("http://{}{path}", self.addr)
    }
}

impl Drop for RawServer {
    fn drop(&mut self) {
        self.task.abort();
    }
}

/// Reads up to the blank line that ends a request head.
async fn read_request_head(socket: &mut TcpStream) -> bool {
    let mut head = Vec::new();
    let mut buffer = [0u8; 1024];
    while !head.windows(4).any(|w| w == b"\r\n\r\n") {
        match socket.read(&mut buffer).await {
            Ok(0) | Err(_) => return false,
            Ok(n) => head.extend_from_slice(&buffer[..n]),
        }
        if head.len() > 64 * 1024 {
            return false;
        }
    }
    true
}

/// Writes a response head; `headers` are full lines without CRLF.
pub async fn write_head(socket: &mut TcpStream, status: &str, headers: &[&str]) -> bool {
    let mut head = format!("HTTP/1.1 {status}\r\n");
    for line in headers {
        head.push_str(line);
        head.push_str("\r\n");
    }
    head.push_str("\r\n");
    socket.write_all(head.as_bytes()).await.is_ok()
}

/// Waits far longer than any test's timeout, keeping the socket open.
pub async fn hang(socket: TcpStream) {
    tokio::time::sleep(Duration::from_secs(60)).await;
    drop(socket);
}

/// What a streaming fixture saw: bytes written, and whether the client
/// went away before the end.
#[derive(Default)]
pub struct StreamReport {
    pub sent: AtomicU64,
    pub client_left: AtomicBool,
    pub done: tokio::sync::Notify,
}

/// Streams `total` bytes of `fill` as a chunked body from one reused
/// 64 KiB buffer (the fixture allocates no more, whatever `total`), and
/// stops at the first failed write: the client has gone.
pub async fn stream_chunked(
    mut socket: TcpStream,
    content_type: &str,
    total: u64,
    fill: u8,
    report: Arc<StreamReport>,
) {
    let content_type = format!("Content-Type: {content_type}");
    if write_head(
        &mut socket,
        "200 OK",
        &[&content_type, "Transfer-Encoding: chunked"],
    )
    .await
    {
        let chunk = vec![fill; 64 * 1024];
        let mut framed = format!("{:x}\r\n", chunk.len()).into_bytes();
        framed.extend_from_slice(&chunk);
        framed.extend_from_slice(b"\r\n");
        let mut left = total;
        let mut ok = true;
        while left > 0 && ok {
            let n = left.min(chunk.len() as u64);
            ok = if n == chunk.len() as u64 {
                socket.write_all(&framed).await.is_ok()
            } else {
                let mut last = format!("{n:x}\r\n").into_bytes();
                last.extend(std::iter::repeat_n(fill, n as usize));
                last.extend_from_slice(b"\r\n");
                socket.write_all(&last).await.is_ok()
            };
            if ok {
                left -= n;
                report.sent.fetch_add(n, Ordering::Relaxed);
            }
        }
        if ok {
            ok = socket.write_all(b"0\r\n\r\n").await.is_ok();
        }
        report.client_left.store(!ok, Ordering::Relaxed);
    }
    report.done.notify_one();
}
