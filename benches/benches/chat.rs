//! Chat role markers: our parse beside prompty 2.1.0's on the same rendered
//! prompts (about 1 KB, 100 KB and 10 MB), non-strict and strict. The
//! upstream side is measured only with `--features upstream-prompty`.
//!
//! `cargo bench -p agentfence-benches --features upstream-prompty --bench chat`

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};

use agentfence::chat::{Context, parse};

const NONCE: &str = "5f0c2e9a81d3b7e4";

/// A rendered prompt of about `size` bytes: a system message, then user and
/// assistant turns of prose, code and blank lines, every marker carrying
/// the nonce and an author attribute as a pre-rendered template's do.
fn rendered_prompt(size: usize) -> (String, Context) {
    let mut text = String::with_capacity(size + 512);
    text.push_str(&format!(
        "system[nonce=\"{NONCE}\"]:\nYou are a careful assistant. Answer briefly.\n\n"
    ));
    let mut markers = 1;
    let mut turn = 0usize;
    while text.len() < size {
        let role = if turn.is_multiple_of(2) {
            "user"
        } else {
            "assistant"
        };
        text.push_str(&format!("{role}[nonce=\"{NONCE}\", turn={turn}]:\n"));
        markers += 1;
        for line in 0..6 {
            text.push_str(&format!(
                "Line {line} of turn {turn}: the report says: results are in; see section {line}.\n"
            ));
        }
        text.push_str("\n```rust\nfn main() { println!(\"user: not a marker\"); }\n```\n\n");
        turn += 1;
    }
    let context = Context {
        nonce: NONCE.to_string(),
        markers,
    };
    (text, context)
}

fn chat(c: &mut Criterion) {
    for (label, size) in [("1KB", 1 << 10), ("100KB", 100 << 10), ("10MB", 10 << 20)] {
        let (text, context) = rendered_prompt(size);
        let mut group = c.benchmark_group(format!("chat_parse/{label}"));
        group.throughput(Throughput::Bytes(text.len() as u64));
        if size >= 1 << 20 {
            group.sample_size(10);
        }
        group.bench_with_input(
            BenchmarkId::new("agentfence", "non-strict"),
            &text,
            |b, text| b.iter(|| parse(std::hint::black_box(text), None)),
        );
        group.bench_with_input(
            BenchmarkId::new("agentfence", "strict"),
            &text,
            |b, text| b.iter(|| parse(std::hint::black_box(text), Some(&context))),
        );
        #[cfg(feature = "upstream-prompty")]
        {
            use prompty::interfaces::Parser;
            group.bench_with_input(
                BenchmarkId::new("prompty 2.1.0", "non-strict"),
                &text,
                |b, text| b.iter(|| prompty::parsers::parse_chat(std::hint::black_box(text))),
            );
            let agent = prompty::Agent::default();
            let upstream_context = serde_json::json!({ "nonce": NONCE });
            group.bench_with_input(
                BenchmarkId::new("prompty 2.1.0", "strict"),
                &text,
                |b, text| {
                    b.iter(|| {
                        futures::executor::block_on(prompty::parsers::PromptyChatParser.parse(
                            &agent,
                            std::hint::black_box(text),
                            Some(&upstream_context),
                        ))
                    })
                },
            );
        }
        group.finish();
    }
}

criterion_group!(benches, chat);
criterion_main!(benches);
