//! How fast a fuzz harness runs without libFuzzer and its instrumentation:
//! replays every file of the given folders through the harness of
//! `agentfence::fuzzing` five times and prints inputs per second. Compared
//! with a fuzz run's exec/s, it shows what the instrumentation costs
//! (fuzz/README.md, "Speed of the template and chat targets").
//!
//!     cargo run --release -p agentfence --example harness_speed -- \
//!         template fuzz/corpus/template corpus/template

use std::process::ExitCode;
use std::time::Instant;

const ROUNDS: usize = 5;

fn main() -> ExitCode {
    let mut args = std::env::args().skip(1);
    let Some(target) = args.next() else {
        eprintln!("usage: harness_speed <target> <corpus folder>...");
        return ExitCode::from(2);
    };
    let Some(harness) = agentfence::fuzzing::harness(&target) else {
        eprintln!("no harness named {target:?}");
        return ExitCode::from(2);
    };
    let mut inputs = Vec::new();
    for folder in args {
        let entries = match std::fs::read_dir(&folder) {
            Ok(entries) => entries,
            Err(error) => {
                eprintln!("cannot read {folder}: {error}");
                return ExitCode::FAILURE;
            }
        };
        for entry in entries.flatten() {
            match std::fs::read(entry.path()) {
                Ok(bytes) => inputs.push(bytes),
                Err(error) => eprintln!("skipped {}: {error}", entry.path().display()),
            }
        }
    }
    if inputs.is_empty() {
        eprintln!("no input files");
        return ExitCode::FAILURE;
    }
    // One round first, so that statics (regexes, tables) are built before
    // the clock starts.
    inputs.iter().for_each(|input| harness(input));
    let start = Instant::now();
    for _ in 0..ROUNDS {
        inputs.iter().for_each(|input| harness(input));
    }
    let runs = (ROUNDS * inputs.len()) as f64;
    let mean_len = inputs.iter().map(Vec::len).sum::<usize>() as f64 / inputs.len() as f64;
    println!(
        "{target}: {} inputs, mean length {mean_len:.0} bytes, {:.0} inputs/s",
        inputs.len(),
        runs / start.elapsed().as_secs_f64()
    );
    ExitCode::SUCCESS
}
