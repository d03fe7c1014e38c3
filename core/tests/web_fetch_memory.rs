//! Peak memory of a fetch refused for its size. Alone in its binary, so
//! the process's peak resident set is this test's.
//!
//! Upstream read the whole body before checking the cap: a 500 MiB
//! chunked body peaked at 534 MB
//! (docs/upstream-faults.md#agentsec-cap-after-buffering). Here the cap
//! holds while streaming, so the peak stays near the cap.
//!
//! How the peak is measured: getrusage's `ru_maxrss` is the obvious
//! figure, but on Linux it keeps the peak of the process image *before*
//! exec, and a test binary is forked from cargo, whose peak (about 90 MiB
//! here) hides anything smaller. So on Linux the test resets the kernel's
//! high-water mark (`/proc/self/clear_refs`, value 5) just before the
//! fetch and reads `VmHWM` after it; `ru_maxrss` is printed beside it and
//! used only where `/proc` is missing.

mod common_web;

use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Duration;

use agentfence::web::DEFAULT_MAX_BODY_BYTES;
use agentfence::web::fetch;
use common_web::{RawServer, StreamReport, loopback, stream_chunked};

const MIB: u64 = 1024 * 1024;

/// getrusage's peak resident set of this process, in bytes.
fn ru_maxrss() -> u64 {
    let mut usage = std::mem::MaybeUninit::<libc::rusage>::zeroed();
    // SAFETY: getrusage only writes the struct it is given.
    let status = unsafe { libc::getrusage(libc::RUSAGE_SELF, usage.as_mut_ptr()) };
    assert_eq!(status, 0, "getrusage failed");
    // SAFETY: getrusage succeeded, so it filled the struct.
    let usage = unsafe { usage.assume_init() };
    let peak = u64::try_from(usage.ru_maxrss).expect("a peak is not negative");
    // Linux reports KiB, macOS bytes.
    if cfg!(target_os = "macos") {
        peak
    } else {
        peak * 1024
    }
}

/// A `Vm…: <n> kB` line of /proc/self/status, in bytes.
fn proc_status(field: &str) -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|line| line.starts_with(field))?;
    let kib: u64 = line[field.len()..]
        .trim_start_matches(':')
        .trim()
        .trim_end_matches("kB")
        .trim()
        .parse()
        .ok()?;
    Some(kib * 1024)
}

/// Resets the high-water mark to the current resident set; false where
/// the kernel does not offer it.
fn reset_peak() -> bool {
    std::fs::write("/proc/self/clear_refs", "5").is_ok() && proc_status("VmHWM").is_some()
}

fn mib(bytes: u64) -> f64 {
    bytes as f64 / MIB as f64
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn five_hundred_mib_chunked_body_is_refused_within_the_cap() {
    let total = 500 * MIB;
    let report = Arc::new(StreamReport::default());
    let shared = Arc::clone(&report);
    let big = RawServer::start(move |socket| {
        stream_chunked(socket, "text/plain", total, b'x', Arc::clone(&shared))
    })
    .await;
    let small = RawServer::start(|socket| {
        stream_chunked(
            socket,
            "text/plain",
            64 * 1024,
            b'x',
            Arc::new(StreamReport::default()),
        )
    })
    .await;
    let config = fetch::FetchConfig {
        timeout: Duration::from_secs(60),
        ..loopback()
    };

    // One small fetch first, so the client's one-time setup (TLS roots,
    // runtime buffers) is in the baseline and not in the delta.
    fetch::get(&config, &small.url("/"))
        .await
        .expect("the warm-up fetch succeeds");

    let from_proc = reset_peak();
    let baseline = if from_proc {
        proc_status("VmRSS").expect("VmRSS is there when VmHWM is")
    } else {
        ru_maxrss()
    };

    let error = fetch::get(&config, &big.url("/"))
        .await
        .expect_err("500 MiB is over the cap");

    let peak = if from_proc {
        proc_status("VmHWM").expect("VmHWM was there before the fetch")
    } else {
        ru_maxrss()
    };
    assert_eq!(error.kind(), "body_too_large");

    tokio::time::timeout(Duration::from_secs(10), report.done.notified())
        .await
        .expect("the fixture stops once the client is gone");
    let sent = report.sent.load(Ordering::Relaxed);
    assert!(report.client_left.load(Ordering::Relaxed));

    let delta = peak.saturating_sub(baseline);
    println!(
        "peak RSS {:.1} MiB, baseline {:.1} MiB, delta {:.1} MiB (cap {:.1} MiB; {}); \
         getrusage ru_maxrss {:.1} MiB; the fixture sent {:.1} MiB of {} MiB before the client left",
        mib(peak),
        mib(baseline),
        mib(delta),
        mib(DEFAULT_MAX_BODY_BYTES as u64),
        if from_proc {
            "VmHWM, reset before the fetch"
        } else {
            "ru_maxrss"
        },
        mib(ru_maxrss()),
        mib(sent),
        total / MIB,
    );
    assert!(
        delta < DEFAULT_MAX_BODY_BYTES as u64 + 8 * MIB,
        "peak RSS grew by {delta} bytes"
    );
    assert!(sent < total / 10, "the fixture sent {sent} bytes");
}
