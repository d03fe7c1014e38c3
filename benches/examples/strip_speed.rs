//! How fast `strip` runs on the bench's synthetic 2 MiB page and on a spread
//! of the Rust toolchain's HTML docs, each stripped `ROUNDS` times (an
//! argument), printing MB/s: for profiling under `valgrind` or `perf`
//! (one round gives instructions per byte).
//!
//!     cargo run --release -p agentfence-benches --example strip_speed -- synthetic 5
//!     cargo run --release -p agentfence-benches --example strip_speed -- docs 1
//!     cargo run --release -p agentfence-benches --example strip_speed -- corpus/strip 100
//!
//! A folder for its first argument strips each file in it, as the fuzz
//! target `strip` reads one (lossy UTF-8): short texts, where what a strip
//! costs before it reads a byte is most of the cost.

use std::time::Instant;

use agentfence_benches::web_inputs::{doc_pages, page};

fn main() {
    let mut args = std::env::args().skip(1);
    let what = args.next().unwrap_or_else(|| "synthetic".into());
    let rounds: usize = args.next().and_then(|n| n.parse().ok()).unwrap_or(5);
    let pages: Vec<String> = match what.as_str() {
        "docs" | "vec" => match doc_pages() {
            Ok((_, vec_page)) if what == "vec" => vec![vec_page],
            Ok((spread, _)) => spread,
            Err(why) => {
                eprintln!("no Rust HTML docs: {why}");
                return;
            }
        },
        "10mb" => vec![page(10 << 20)],
        folder if std::path::Path::new(folder).is_dir() => {
            match files_in(std::path::Path::new(folder)) {
                Ok(files) => files,
                Err(why) => {
                    eprintln!("{folder}: {why}");
                    return;
                }
            }
        }
        _ => vec![page(2 << 20)],
    };
    let bytes: usize = pages.iter().map(String::len).sum();
    // Builds the rules before the clock starts.
    let start = Instant::now();
    std::hint::black_box(agentfence::web::strip("warm up"));
    println!(
        "rules built in {:.1} ms",
        start.elapsed().as_secs_f64() * 1e3
    );
    let start = Instant::now();
    for _ in 0..rounds {
        for page in &pages {
            std::hint::black_box(agentfence::web::strip(std::hint::black_box(page)));
        }
    }
    let seconds = start.elapsed().as_secs_f64();
    println!(
        "{what}: {} pages, {bytes} bytes, {rounds} rounds: {:.1} ms a round, {:.1} MB/s",
        pages.len(),
        seconds / rounds as f64 * 1e3,
        (bytes * rounds) as f64 / seconds / 1e6
    );
}

/// Each file of `folder`, read as lossy UTF-8, in name order.
fn files_in(folder: &std::path::Path) -> std::io::Result<Vec<String>> {
    let mut paths: Vec<_> = std::fs::read_dir(folder)?
        .map(|entry| entry.map(|entry| entry.path()))
        .collect::<Result<_, _>>()?;
    paths.sort();
    paths
        .iter()
        .filter(|path| path.is_file())
        .map(|path| std::fs::read(path).map(|bytes| String::from_utf8_lossy(&bytes).into_owned()))
        .collect()
}
