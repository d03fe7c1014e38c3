//! Ours and lean-ctx 3.12.0's `message_template` timed in turn, round
//! after round, over the harvested tool errors: each pair of rounds sees
//! the machine in the same state, so the ratio of the pair holds when a
//! shared machine's speed drifts between criterion's measurement windows
//! (by up to ±40% here). Prints each side's median time per message and
//! the median, lowest and highest ratio of the pairs.
//!
//!     cargo run --release -p agentfence-benches --features upstream-lean-ctx \
//!         --example template_race -- [PAIRS]

use std::process::ExitCode;

#[cfg(feature = "upstream-lean-ctx")]
fn main() -> ExitCode {
    use std::time::Instant;

    use agentfence::template::Scrubber;
    use agentfence_benches::template_inputs::harvested_messages;
    use lean_ctx::core::failure_template::message_template;

    let pairs = match std::env::args().nth(1).map(|pairs| pairs.parse::<usize>()) {
        None => 41,
        Some(Ok(pairs)) if pairs > 0 => pairs,
        Some(_) => {
            eprintln!("PAIRS is a whole number above 0");
            return ExitCode::from(2);
        }
    };
    let messages = harvested_messages();
    let scrubber = Scrubber::new();
    let ours = || {
        let start = Instant::now();
        for message in &messages {
            std::hint::black_box(scrubber.template(std::hint::black_box(message)));
        }
        start.elapsed().as_secs_f64()
    };
    let theirs = || {
        let start = Instant::now();
        for message in &messages {
            std::hint::black_box(message_template(std::hint::black_box(message)));
        }
        start.elapsed().as_secs_f64()
    };
    // Warm-up: tables built on first use, caches, the branch predictor.
    for _ in 0..3 {
        ours();
        theirs();
    }
    let rounds: Vec<(f64, f64)> = (0..pairs)
        .map(|pair| {
            // Alternate who goes first, so neither always runs second.
            if pair % 2 == 0 {
                let a = ours();
                (a, theirs())
            } else {
                let b = theirs();
                (ours(), b)
            }
        })
        .collect();
    let median = |values: &mut Vec<f64>| {
        values.sort_by(f64::total_cmp);
        values[values.len() / 2]
    };
    let per_message = 1e6 / messages.len() as f64;
    let mut ours_times: Vec<f64> = rounds.iter().map(|(a, _)| *a).collect();
    let mut theirs_times: Vec<f64> = rounds.iter().map(|(_, b)| *b).collect();
    let mut ratios: Vec<f64> = rounds.iter().map(|(a, b)| b / a).collect();
    println!(
        "{} messages, {pairs} pairs of rounds: agentfence {:.3} µs/message, lean-ctx 3.12.0 {:.3} µs/message (medians)",
        messages.len(),
        median(&mut ours_times) * per_message,
        median(&mut theirs_times) * per_message,
    );
    let ratio = median(&mut ratios);
    println!(
        "lean-ctx / agentfence, pair by pair: median {ratio:.2}×, lowest {:.2}×, highest {:.2}×",
        ratios[0],
        ratios[ratios.len() - 1]
    );
    ExitCode::SUCCESS
}

#[cfg(not(feature = "upstream-lean-ctx"))]
fn main() -> ExitCode {
    println!("skipped: build with --features upstream-lean-ctx to race lean-ctx 3.12.0");
    ExitCode::SUCCESS
}
