//! Failure templates: ours beside lean-ctx 3.12.0's `message_template` on
//! the same realistic messages (the real tool errors harvested in
//! `core/tests/data/real_errors/`). The upstream side is measured only with
//! `--features upstream`, which builds lean-ctx (slow).
//!
//! `cargo bench -p agentfence-benches --features upstream-lean-ctx --bench template`

use criterion::{Criterion, Throughput, criterion_group, criterion_main};

use agentfence::template::Scrubber;
use agentfence_benches::template_inputs::harvested_messages;

fn template(c: &mut Criterion) {
    let messages = harvested_messages();
    let mut group = c.benchmark_group("message_template");
    // One element is one message: the reported time per iteration divided
    // by the element count is the time per message.
    group.throughput(Throughput::Elements(messages.len() as u64));
    let scrubber = Scrubber::new();
    group.bench_function("agentfence", |b| {
        b.iter(|| {
            for message in &messages {
                std::hint::black_box(scrubber.template(std::hint::black_box(message)));
            }
        })
    });
    #[cfg(feature = "upstream-lean-ctx")]
    group.bench_function("lean-ctx 3.12.0", |b| {
        b.iter(|| {
            for message in &messages {
                std::hint::black_box(lean_ctx::core::failure_template::message_template(
                    std::hint::black_box(message),
                ));
            }
        })
    });
    group.finish();
}

criterion_group!(benches, template);
criterion_main!(benches);
