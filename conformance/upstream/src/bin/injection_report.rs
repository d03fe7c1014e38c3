//! How many labelled injection attacks each strip layer catches, and how
//! much benign text it flags: agentfence's `web::strip` beside
//! agentsec-core 0.5.0's regex layer, as Markdown tables.
//!
//! `injection-report [--misses] [FILE.jsonl ...]`
//!
//! Each line of a file is one row `{"id", "label": "attack"|"benign",
//! "category", "text", "note"}`; blank lines are skipped. Without files it
//! reads `corpus/injection/tuning.jsonl` and `corpus/injection/held_out.jsonl`
//! of this repository. A detector flags a row when its strip reports at
//! least one removed pattern. `--misses` also lists, per detector, the ids
//! of the attacks it missed and of the benign rows it flagged.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use serde_json::Value;

/// A strip layer, reduced to "did it remove anything".
struct Detector {
    name: &'static str,
    flags: fn(&str) -> bool,
}

const DETECTORS: [Detector; 2] = [
    Detector {
        name: "agentfence strip",
        flags: |text| !agentfence::web::strip(text).removed_patterns.is_empty(),
    },
    Detector {
        name: "agentsec-core 0.5.0 regex layer",
        flags: |text| {
            !agentsec_core::web::sanitize::regex_layer::strip(text)
                .1
                .is_empty()
        },
    },
];

/// One labelled row and what each detector made of it.
struct Row {
    id: String,
    attack: bool,
    category: String,
    flagged: [bool; DETECTORS.len()],
}

fn read_rows(path: &Path) -> Result<Vec<Row>, String> {
    let text =
        std::fs::read_to_string(path).map_err(|error| format!("{}: {error}", path.display()))?;
    let mut rows = Vec::new();
    for (index, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let at = format!("{}:{}", path.display(), index + 1);
        let value: Value = serde_json::from_str(line).map_err(|error| format!("{at}: {error}"))?;
        let field = |name: &str| {
            value[name]
                .as_str()
                .ok_or_else(|| format!("{at}: \"{name}\" is missing or not a string"))
        };
        let attack = match field("label")? {
            "attack" => true,
            "benign" => false,
            other => {
                return Err(format!(
                    "{at}: label {other:?} is neither attack nor benign"
                ));
            }
        };
        let text = field("text")?;
        rows.push(Row {
            id: field("id")?.to_owned(),
            attack,
            category: field("category")?.to_owned(),
            flagged: DETECTORS.each_ref().map(|detector| (detector.flags)(text)),
        });
    }
    Ok(rows)
}

/// `part/whole` and the percentage, or a dash for an empty whole.
fn ratio(part: usize, whole: usize) -> (String, String) {
    let percent = if whole == 0 {
        "–".to_owned()
    } else {
        format!("{:.1}%", 100.0 * part as f64 / whole as f64)
    };
    (format!("{part}/{whole}"), percent)
}

/// How many of `rows` there are and how many each detector flagged.
fn counts<'a>(rows: impl Iterator<Item = &'a Row>) -> (usize, [usize; DETECTORS.len()]) {
    let mut total = 0;
    let mut flagged = [0; DETECTORS.len()];
    for row in rows {
        total += 1;
        for (count, hit) in flagged.iter_mut().zip(row.flagged) {
            *count += usize::from(hit);
        }
    }
    (total, flagged)
}

/// Rows per category among the attacks (`attack`) or the benign rows.
fn by_category(rows: &[&Row], attack: bool) -> BTreeMap<String, Vec<usize>> {
    let mut map: BTreeMap<String, Vec<usize>> = BTreeMap::new();
    for (index, row) in rows.iter().enumerate() {
        if row.attack == attack {
            map.entry(row.category.clone()).or_default().push(index);
        }
    }
    map
}

fn category_table(rows: &[&Row], attack: bool) {
    let categories = by_category(rows, attack);
    if categories.is_empty() {
        return;
    }
    let what = if attack {
        "Recall per attack category (attacks flagged)"
    } else {
        "False positives per benign category (benign rows flagged)"
    };
    println!("{what}:\n");
    let names: Vec<&str> = DETECTORS.iter().map(|detector| detector.name).collect();
    println!("| category | rows | {} |", names.join(" | "));
    println!("| --- | ---: |{}", " ---: |".repeat(DETECTORS.len()));
    for (category, indices) in &categories {
        let (total, flagged) = counts(indices.iter().map(|&index| rows[index]));
        let cells: Vec<String> = flagged
            .iter()
            .map(|&hits| {
                let (fraction, percent) = ratio(hits, total);
                format!("{fraction} ({percent})")
            })
            .collect();
        println!("| {category} | {total} | {} |", cells.join(" | "));
    }
    println!();
}

fn report(title: &str, rows: &[&Row], misses: bool) {
    let (attacks, attacks_flagged) = counts(rows.iter().copied().filter(|row| row.attack));
    let (benign, benign_flagged) = counts(rows.iter().copied().filter(|row| !row.attack));
    println!("## {title}\n");
    println!(
        "Rows: {} ({attacks} attack, {benign} benign).\n",
        rows.len()
    );
    println!(
        "| detector | attacks flagged | recall | benign flagged | false-positive rate |\n\
         | --- | ---: | ---: | ---: | ---: |"
    );
    for (index, detector) in DETECTORS.iter().enumerate() {
        let (caught, recall) = ratio(attacks_flagged[index], attacks);
        let (false_alarms, rate) = ratio(benign_flagged[index], benign);
        println!(
            "| {} | {caught} | {recall} | {false_alarms} | {rate} |",
            detector.name
        );
    }
    println!();
    category_table(rows, true);
    category_table(rows, false);
    if misses {
        for (index, detector) in DETECTORS.iter().enumerate() {
            let ids = |attack: bool, flagged: bool| {
                let ids: Vec<&str> = rows
                    .iter()
                    .filter(|row| row.attack == attack && row.flagged[index] == flagged)
                    .map(|row| row.id.as_str())
                    .collect();
                if ids.is_empty() {
                    "none".to_owned()
                } else {
                    ids.join(", ")
                }
            };
            println!("{}:\n", detector.name);
            println!("- missed attacks: {}", ids(true, false));
            println!("- flagged benign: {}\n", ids(false, true));
        }
    }
}

fn main() -> ExitCode {
    let mut misses = false;
    let mut files: Vec<(String, PathBuf)> = Vec::new();
    for argument in std::env::args().skip(1) {
        match argument.as_str() {
            "--misses" => misses = true,
            "-h" | "--help" => {
                println!("usage: injection-report [--misses] [FILE.jsonl ...]");
                return ExitCode::SUCCESS;
            }
            flag if flag.starts_with("--") => {
                eprintln!("injection-report: unknown option {flag}");
                return ExitCode::from(2);
            }
            path => files.push((path.to_owned(), PathBuf::from(path))),
        }
    }
    if files.is_empty() {
        let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
        let root = manifest.parent().and_then(Path::parent).unwrap_or(manifest);
        for name in ["tuning.jsonl", "held_out.jsonl"] {
            let relative = format!("corpus/injection/{name}");
            files.push((relative.clone(), root.join(&relative)));
        }
    }
    let mut all = Vec::new();
    for (name, path) in &files {
        match read_rows(path) {
            Ok(rows) => all.push((name, rows)),
            Err(error) => {
                eprintln!("injection-report: {error}");
                return ExitCode::FAILURE;
            }
        }
    }
    println!("# Injection corpus: strip layers compared\n");
    println!(
        "A row is flagged when the detector's strip removes at least one pattern. \
         Recall is over the attack rows, the false-positive rate over the benign rows.\n"
    );
    for (name, rows) in &all {
        let rows: Vec<&Row> = rows.iter().collect();
        report(name, &rows, misses);
    }
    if all.len() > 1 {
        let rows: Vec<&Row> = all.iter().flat_map(|(_, rows)| rows).collect();
        report("total", &rows, misses);
    }
    ExitCode::SUCCESS
}
