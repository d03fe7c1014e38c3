//! How the envelope's work grows with the body: wraps bodies of 1 MB and
//! 8 MB of each shape (ASCII prose, HTML, Japanese and Chinese text, the
//! adversarial shapes that make the escape look around: confusables of `<`
//! each followed by a long run of invisible characters, and runs of
//! openers) and prints MB/s, so a shape whose time grows faster than its
//! size shows as a falling rate.
//!
//!     cargo run --release -p agentfence --example envelope_speed

use std::time::Instant;

use agentfence::web::envelope::envelope;

fn body(unit: &str, bytes: usize) -> String {
    unit.repeat(bytes / unit.len() + 1)
}

fn main() {
    let zwsp_run = "\u{200B}".repeat(4096);
    let shapes: [(&str, String); 7] = [
        (
            "ascii prose",
            "The quick brown fox jumps over the lazy dog. ".into(),
        ),
        ("html", "<p>a &amp; b <b>c</b> &lt;d&gt;</p>\n".into()),
        ("japanese", "よく行くところです。".into()),
        ("chinese", "《红楼梦》是一部小说。".into()),
        ("opener + 4096 invisible", format!("\u{304F}{zwsp_run}x")),
        (
            "opener + 4096 invisible + /",
            format!("\u{2039}{zwsp_run}/"),
        ),
        ("openers only", "\u{304F}\u{3008}\u{2039}".into()),
    ];
    for (name, unit) in shapes {
        let mut rates = Vec::new();
        for megabytes in [1, 8] {
            let text = body(&unit, megabytes << 20);
            let start = Instant::now();
            let out = envelope("https://x.test/", "2026-11-29T00:00:00Z", &[], &text);
            let seconds = start.elapsed().as_secs_f64();
            std::hint::black_box(out);
            rates.push(format!(
                "{megabytes} MB: {:.0} MB/s",
                text.len() as f64 / seconds / 1e6
            ));
        }
        println!("{name:<28} {}", rates.join(", "));
    }
}
