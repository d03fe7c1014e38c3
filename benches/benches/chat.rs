//! Chat role markers: our parse beside prompty 2.1.0's on the same rendered
//! prompts, non-strict and strict: a synthetic prompt of prose, code and
//! blank lines (about 1 KB, 100 KB and 10 MB), and real prose, this
//! repository's Markdown files as turns (`prose-`, about 100 KB and 10 MB).
//! The upstream side is measured only with `--features upstream-prompty`.
//!
//! `cargo bench -p agentfence-benches --features upstream-prompty --bench chat`

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};

use agentfence::chat::parse;
use agentfence_benches::chat_inputs::{prose_prompt, rendered_prompt};

fn chat(c: &mut Criterion) {
    let inputs = [("1KB", 1 << 10), ("100KB", 100 << 10), ("10MB", 10 << 20)]
        .into_iter()
        .map(|(label, size)| (label.to_string(), rendered_prompt(size), size))
        .chain(
            [("prose-100KB", 100 << 10), ("prose-10MB", 10 << 20)]
                .into_iter()
                .map(|(label, size)| (label.to_string(), prose_prompt(size), size)),
        );
    for (label, (text, context), size) in inputs {
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
            let upstream_context =
                serde_json::json!({ "nonce": agentfence_benches::chat_inputs::NONCE });
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
