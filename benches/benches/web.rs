//! Web sanitize: our strip beside agentsec-core 0.5.0's regex layer on the
//! same HTML pages (about 1 KB, 100 KB and 2 MiB, the upstream body cap):
//! ordinary prose with a few planted injection phrases. The upstream side
//! is measured only with `--features upstream-agentsec`.
//!
//! Beside them, real pages: the HTML documentation of the Rust toolchain
//! that runs the bench (`$(rustc --print sysroot)/share/doc/rust/html`),
//! read at bench time: a spread of 300 pages (every n-th in path order)
//! stripped one after another, and `std/vec/struct.Vec.html` (about 1 MB).
//! Without those docs (`rustup component add rust-docs`) the real-page
//! group says so and is skipped.
//!
//! `cargo bench -p agentfence-benches --features upstream-agentsec --bench web`

use agentfence_benches::web_inputs::{doc_pages, page};
use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};

fn strip(c: &mut Criterion) {
    let mut group = c.benchmark_group("strip");
    for (label, size) in [("1KB", 1 << 10), ("100KB", 100 << 10), ("2MiB", 2 << 20)] {
        let text = page(size);
        group.throughput(Throughput::Bytes(text.len() as u64));
        group.sample_size(if size >= 1 << 20 { 10 } else { 100 });
        group.bench_with_input(BenchmarkId::new("agentfence", label), &text, |b, text| {
            b.iter(|| agentfence::web::strip(std::hint::black_box(text)))
        });
        #[cfg(feature = "upstream-agentsec")]
        group.bench_with_input(
            BenchmarkId::new("agentsec-core 0.5.0", label),
            &text,
            |b, text| {
                b.iter(|| {
                    agentsec_core::web::sanitize::regex_layer::strip(std::hint::black_box(text))
                })
            },
        );
    }
    group.finish();
}

fn real_pages(c: &mut Criterion) {
    let (spread, vec_page) = match doc_pages() {
        Ok(pages) => pages,
        Err(why) => {
            eprintln!("strip_real_pages SKIPPED: no Rust HTML docs ({why})");
            return;
        }
    };
    let mut group = c.benchmark_group("strip_real_pages");
    group.sample_size(10);
    let total: usize = spread.iter().map(String::len).sum();
    let inputs: [(String, Vec<String>, usize); 2] = [
        (format!("{} doc pages", spread.len()), spread, total),
        (
            "std Vec page".into(),
            vec![vec_page.clone()],
            vec_page.len(),
        ),
    ];
    for (label, pages, bytes) in &inputs {
        group.throughput(Throughput::Bytes(*bytes as u64));
        group.bench_with_input(BenchmarkId::new("agentfence", label), pages, |b, pages| {
            b.iter(|| {
                for page in pages {
                    std::hint::black_box(agentfence::web::strip(std::hint::black_box(page)));
                }
            })
        });
        #[cfg(feature = "upstream-agentsec")]
        group.bench_with_input(
            BenchmarkId::new("agentsec-core 0.5.0", label),
            pages,
            |b, pages| {
                b.iter(|| {
                    for page in pages {
                        std::hint::black_box(agentsec_core::web::sanitize::regex_layer::strip(
                            std::hint::black_box(page),
                        ));
                    }
                })
            },
        );
    }
    group.finish();
}

criterion_group!(benches, strip, real_pages);
criterion_main!(benches);
