//! Detection quality of the strip layer on the project's labelled
//! injection corpus (`corpus/injection/`): recall on attacks and the
//! false-positive rate on hard negatives, for the tuning rows and for the
//! held-out rows the rules were never tuned on. A row counts as flagged
//! when strip removes anything from it.
//!
//! `AGENTFENCE_CORPUS_MISSES=1` prints the missed attacks and flagged
//! benign rows of the tuning file (never the held-out one's texts).

use std::path::Path;

use agentfence::web::strip::strip;
use serde::Deserialize;

#[derive(Deserialize)]
struct Row {
    id: String,
    label: String,
    category: String,
    text: String,
}

struct Score {
    attacks: usize,
    caught: usize,
    benign: usize,
    flagged: usize,
}

impl Score {
    fn recall(&self) -> f64 {
        self.caught as f64 / self.attacks as f64
    }
    fn false_positive_rate(&self) -> f64 {
        self.flagged as f64 / self.benign as f64
    }
}

fn score(file: &str, show: bool) -> Score {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../corpus/injection")
        .join(file);
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|error| panic!("{} unreadable: {error}", path.display()));
    let mut score = Score {
        attacks: 0,
        caught: 0,
        benign: 0,
        flagged: 0,
    };
    for (number, line) in text.lines().enumerate() {
        let row: Row = serde_json::from_str(line)
            .unwrap_or_else(|error| panic!("{file}:{}: {error}", number + 1));
        let out = strip(&row.text);
        let hit = !out.removed_patterns.is_empty();
        match row.label.as_str() {
            "attack" => {
                score.attacks += 1;
                score.caught += usize::from(hit);
                if show && !hit {
                    println!("MISS {} [{}] {:?}", row.id, row.category, row.text);
                }
            }
            "benign" => {
                score.benign += 1;
                score.flagged += usize::from(hit);
                if show && hit {
                    println!(
                        "FP {} [{}] {:?} -> {:?}",
                        row.id, row.category, out.removed_patterns, out.text
                    );
                }
            }
            other => panic!("{file}:{}: unknown label {other:?}", number + 1),
        }
    }
    println!(
        "{file}: recall {}/{} = {:.1}%, false positives {}/{} = {:.1}%",
        score.caught,
        score.attacks,
        100.0 * score.recall(),
        score.flagged,
        score.benign,
        100.0 * score.false_positive_rate()
    );
    score
}

#[test]
fn tuning_rows_meet_the_targets() {
    let show = std::env::var_os("AGENTFENCE_CORPUS_MISSES").is_some();
    let score = score("tuning.jsonl", show);
    assert!(score.attacks >= 100 && score.benign >= 100);
    assert!(score.recall() >= 0.80, "recall {:.3}", score.recall());
    assert!(
        score.false_positive_rate() <= 0.02,
        "false-positive rate {:.3}",
        score.false_positive_rate()
    );
}

/// The held-out rows measure what the rules do on text they were not
/// tuned on; no text of theirs is ever printed.
#[test]
fn held_out_rows_meet_the_targets() {
    let show = std::env::var_os("AGENTFENCE_CORPUS_MISSES_HELD_OUT").is_some();
    let score = score("held_out.jsonl", show);
    assert!(score.attacks >= 80 && score.benign >= 80);
    assert!(score.recall() >= 0.80, "recall {:.3}", score.recall());
    assert!(
        score.false_positive_rate() <= 0.02,
        "false-positive rate {:.3}",
        score.false_positive_rate()
    );
}
