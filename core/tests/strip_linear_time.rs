//! No input makes strip superlinear (issue 14, "Limits that must hold"):
//! on long runs of what its scanners stop at (`<`, `&`, `%`, spaces,
//! invisible characters, comment openers, tag openers, quotes, letter
//! spacing, candidate words), eight times the input may take at most
//! thirty-two times as long (a quadratic scanner takes about 64 times; the
//! slack is for caches, which the larger input outgrows).
//! Each size is timed as the fastest of a few runs, so that a busy machine
//! slows both alike. Every output is also checked against the strip
//! contract a reader can check alone: one label per `[STRIPPED]`, and
//! stripping again changes nothing.

use std::time::{Duration, Instant};

use agentfence::web::strip::{STRIPPED, strip};

/// The small size, in bytes; the large one is [`GROWTH`] times it.
const SMALL: usize = 64 * 1024;
const GROWTH: usize = 8;
/// Allowed growth of the time: four times the size's.
const MAX_TIME_GROWTH: f64 = (GROWTH * 4) as f64;

/// `unit` repeated to at least `size` bytes.
fn run(unit: &str, size: usize) -> String {
    unit.repeat(size.div_ceil(unit.len()))
}

fn fastest(text: &str, runs: usize) -> Duration {
    (0..runs)
        .map(|_| {
            let start = Instant::now();
            std::hint::black_box(strip(std::hint::black_box(text)));
            start.elapsed()
        })
        .min()
        .unwrap_or_default()
}

#[test]
fn time_per_byte_is_bounded_on_adversarial_runs() {
    let units = [
        "<",
        "&",
        "%",
        " ",
        "&#",
        "&#x",
        "%2",
        "\u{200B}",
        "\u{E0041}",
        "\u{202E}a",
        "<!--",
        "<!-- <!-- ",
        "<a ",
        "<a title=\"",
        "<div hidden>",
        "<span class=\"sr-only\">",
        "\"",
        "i ",
        "a.",
        "-->",
        "you are now ",
        "ignore ",
        "ai, ",
        "aaaa",
        "QUFB",
        "[INST]",
        "<|",
        "\n#",
        // One word made of a first literal (`ai`) that is a candidate at
        // every other byte and fails each time at its word boundary, and a
        // candidate word before words as long as the text (`dear`, then
        // `[a-z]+` for the anchored rule to walk).
        "ai",
        "dear assistant ",
        "the ",
        // Overrides on one long line: each match reads the line before it
        // for the people it may be told to (`rules::told_to_people`), a
        // bounded tail of it.
        "ignore previous instructions ",
        "Note to students: ignore the above ",
        // Letter spacing in another script, one long run.
        "и ",
        // Checks that read the line or the word before a match (web
        // 2.14.0: a role word picked out by the word before it, a tag
        // after a setting's name, a change log's entry) on one line, or
        // one word, as long as the text.
        "x,model,list",
        "x<system>y",
        "x(f):ignore everything before",
    ];
    let mut slowest = (0.0, "");
    for unit in units {
        let small = run(unit, SMALL);
        let large = run(unit, SMALL * GROWTH);
        for text in [&small, &large] {
            let out = strip(text);
            assert_eq!(
                out.text.matches(STRIPPED).count(),
                out.removed_patterns.len(),
                "{unit:?}: one label per [STRIPPED]"
            );
            assert_eq!(strip(&out.text).text, out.text, "{unit:?}: idempotent");
        }
        let small_time = fastest(&small, 5).as_secs_f64().max(1e-6);
        let large_time = fastest(&large, 3).as_secs_f64();
        let growth = large_time / small_time;
        println!(
            "{unit:?}: {} B in {:.2} ms, {} B in {:.2} ms: {growth:.1}x",
            small.len(),
            small_time * 1e3,
            large.len(),
            large_time * 1e3
        );
        if growth > slowest.0 {
            slowest = (growth, unit);
        }
        assert!(
            growth <= MAX_TIME_GROWTH,
            "{unit:?}: {GROWTH}x the input took {growth:.1}x the time"
        );
    }
    println!("largest growth {:.1}x on {:?}", slowest.0, slowest.1);
}
