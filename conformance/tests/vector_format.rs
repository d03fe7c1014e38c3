//! The canonical form of vector files: every committed file is in it, the
//! Rust writer (`agentfence vectors fmt`) and the Python one
//! (`tools/record_upstream.py`'s `canonical()`) agree byte for byte, and
//! `agentfence vectors fmt` / `check` behave as documented. Without
//! `python3` the writers' comparison ends as ignored with the reason
//! printed beside it, instead of passing.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use agentfence_conformance::canonical::{canonical, first_difference};
use libtest_mimic::{Arguments, Completion, Trial};
use serde_json::{Map, Value, json};

mod common;
use common::{BIN, text};

fn conformance_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Every `*.json` file under `conformance/vectors/`, in name order.
fn committed_vector_files() -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(conformance_dir().join("vectors"))
        .expect("conformance/vectors exists")
        .map(|entry| entry.expect("a readable directory entry").path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "json"))
        .collect();
    files.sort();
    assert!(!files.is_empty());
    files
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path)
        .unwrap_or_else(|error| panic!("cannot read {}: {error}", path.display()))
}

fn every_committed_vector_file_is_canonical() {
    for path in committed_vector_files() {
        let text = read(&path);
        let formatted =
            canonical(&text).unwrap_or_else(|error| panic!("{}: {error}", path.display()));
        if let Some(difference) = first_difference(&text, &formatted) {
            panic!(
                "{} is not in canonical form; run `agentfence vectors fmt` on it. {difference}",
                path.display()
            );
        }
    }
}

/// A small deterministic generator (xorshift), so a failure reproduces.
struct Random(u64);

impl Random {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, bound: u64) -> u64 {
        self.next() % bound
    }

    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len() as u64) as usize]
    }

    /// A string mixing every class of character the canonical form treats
    /// differently.
    fn string(&mut self) -> String {
        const RANGES: &[(u32, u32)] = &[
            (0x00, 0x1f),
            (0x20, 0x7e),
            (0x7f, 0xa0),
            (0xa1, 0x2ff),
            (0x200b, 0x200f),
            (0x2010, 0x203a),
            (0x2028, 0x2029),
            (0x300c, 0x300f),
            (0x3040, 0x30ff),
            (0x4e00, 0x9fff),
            (0xfeff, 0xfeff),
            (0xff01, 0xff5e),
            (0x1f600, 0x1f64f),
            (0xe0020, 0xe007f),
        ];
        let length = self.below(12);
        (0..length)
            .map(|_| {
                let (low, high) = *self.pick(RANGES);
                let code = low + self.below(u64::from(high - low + 1)) as u32;
                char::from_u32(code).expect("the ranges hold no surrogate")
            })
            .collect()
    }

    /// A JSON number literal: integers of any size, and doubles written in
    /// every way a file may spell them.
    fn number(&mut self) -> String {
        match self.below(7) {
            0 => format!("{}", self.next() as i64 >> self.below(64)),
            // Eighths of large integers: ties between two shortest spellings.
            6 => format!("{:?}", (self.next() >> 11) as f64 / 8.0),
            1 => format!("{}{}", self.next(), self.next()),
            2 => {
                let value = loop {
                    let value = f64::from_bits(self.next());
                    if value.is_finite() {
                        break value;
                    }
                };
                format!("{value:e}")
            }
            3 => format!(
                "{}.{}",
                self.below(100_000) as i64 - 50_000,
                self.below(1000)
            ),
            4 => format!("{}e{}", self.below(1000), self.below(40) as i64 - 20),
            _ => self
                .pick(&[
                    "-0", "0", "-0.0", "2.0", "1E2", "1e16", "1e15", "0.0001", "1e-5",
                ])
                .to_string(),
        }
    }

    /// A random JSON text, nested up to `depth` more levels.
    fn value(&mut self, depth: u32) -> String {
        let kind = if depth == 0 {
            self.below(4)
        } else {
            self.below(6)
        };
        match kind {
            0 => self.pick(&["true", "false", "null"]).to_string(),
            1 => self.number(),
            2 | 3 => Value::String(self.string()).to_string(),
            4 => {
                let items: Vec<String> =
                    (0..self.below(4)).map(|_| self.value(depth - 1)).collect();
                format!("[{}]", items.join(","))
            }
            _ => {
                let mut keys = Map::new();
                let entries: Vec<String> = (0..self.below(4))
                    .map(|index| {
                        let key = format!("{}{index}", self.string());
                        keys.insert(key.clone(), Value::Null);
                        format!("{}: {}", Value::String(key), self.value(depth - 1))
                    })
                    .collect();
                format!("{{{}}}", entries.join(", "))
            }
        }
    }
}

/// Documents shaped like vector files, so the depth rules are exercised at
/// every level, with random values everywhere.
fn generated_documents() -> Vec<String> {
    let mut random = Random(0x9e37_79b9_7f4a_7c15);
    let mut documents = Vec::new();
    for _ in 0..300 {
        let case = format!(
            r#"{{"id": "x", "input": {}, "expected": {}, "flags": [], "odd": {}}}"#,
            random.value(3),
            random.value(3),
            random.value(2)
        );
        documents.push(format!(
            r#"{{"suite": {}, "notes": {{"a": {{"description": {}, "effect": "e"}}}}, "cases": [{case}, {}], "deep": {}}}"#,
            Value::String(random.string()),
            Value::String(random.string()),
            random.value(4),
            random.value(5)
        ));
    }
    documents.push("[]".into());
    documents.push(r#""only a string \ud83d\ude00 \u2028""#.into());
    documents.push(json!({"a": [[[[1.5]]]], "b": {"c": {"d": {}}}}).to_string());
    documents
}

fn python3() -> Option<&'static str> {
    Command::new("python3")
        .arg("--version")
        .output()
        .ok()
        .filter(|output| output.status.success())
        .map(|_| "python3")
}

/// `canonical()` of `tools/record_upstream.py` on each file, as Python
/// writes it.
fn python_canonical(python: &str, files: &[PathBuf]) -> Vec<String> {
    let script = r#"
import json, sys
sys.path.insert(0, sys.argv[1])
from record_upstream import canonical
for path in sys.argv[2:]:
    with open(path, encoding="utf-8") as handle:
        document = json.load(handle)
    print(json.dumps(canonical(document)))
"#;
    let output = Command::new(python)
        .arg("-c")
        .arg(script)
        .arg(conformance_dir().join("tools"))
        .args(files)
        .output()
        .expect("python3 runs");
    assert!(output.status.success(), "{}", text(&output.stderr));
    text(&output.stdout)
        .lines()
        .map(|line| serde_json::from_str(line).expect("Python printed a JSON string"))
        .collect()
}

fn rust_and_python_writers_agree() -> Completion {
    let Some(python) = python3() else {
        return Completion::ignored_with(
            "skipped: python3 is not installed; the Rust writer is checked against the committed \
             files only",
        );
    };
    let dir = tempfile::tempdir().expect("a temp dir");
    let mut files = committed_vector_files();
    for (index, document) in generated_documents().iter().enumerate() {
        let path = dir.path().join(format!("generated-{index:03}.json"));
        std::fs::write(&path, document).expect("the temp file is written");
        files.push(path);
    }
    let from_python = python_canonical(python, &files);
    assert_eq!(from_python.len(), files.len());
    for (path, expected) in files.iter().zip(&from_python) {
        let input = read(path);
        let ours = canonical(&input).unwrap_or_else(|error| panic!("{}: {error}", path.display()));
        if let Some(difference) = first_difference(&ours, expected) {
            panic!(
                "the writers disagree on {} (input {input}); Rust is `the file`, Python `the canonical form`: {difference}",
                path.display()
            );
        }
    }
    Completion::Completed
}

fn agentfence_in(dir: &Path, args: &[&str]) -> Output {
    Command::new(BIN)
        .args(args)
        .current_dir(dir)
        .output()
        .expect("the agentfence binary runs")
}

fn check_names_the_first_difference_and_fmt_fixes_it() {
    let dir = tempfile::tempdir().expect("a temp dir");
    let good = dir.path().join("good.json");
    let bad = dir.path().join("bad.json");
    let document = json!({
        "suite": "template",
        "cases": [{"id": "template-0001", "input": {"message": "a\u{200b}b"}, "expected": 1.0}]
    });
    let formatted = canonical(&document.to_string()).expect("JSON");
    std::fs::write(&good, &formatted).expect("written");
    // The same document, compact: differs on line 1 column 2.
    std::fs::write(&bad, document.to_string()).expect("written");

    let check = agentfence_in(dir.path(), &["vectors", "check", "good.json", "bad.json"]);
    let stdout = text(&check.stdout);
    assert_eq!(check.status.code(), Some(1), "{stdout}");
    assert!(
        stdout.contains("bad.json:1:2: not in canonical form"),
        "{stdout}"
    );
    assert!(!stdout.contains("good.json:"), "{stdout}");
    assert!(
        stdout.ends_with("2 files, 1 not in canonical form\n"),
        "{stdout}"
    );

    let fmt = agentfence_in(dir.path(), &["vectors", "fmt", "."]);
    let stdout = text(&fmt.stdout);
    assert_eq!(fmt.status.code(), Some(0), "{stdout}");
    assert!(stdout.contains("formatted ./bad.json"), "{stdout}");
    assert!(stdout.ends_with("2 files, 1 reformatted\n"), "{stdout}");
    assert_eq!(read(&bad), formatted);
    assert!(
        formatted.contains(r#""a\u200bb""#),
        "the joiner is escaped: {formatted}"
    );

    let again = agentfence_in(dir.path(), &["vectors", "check", "."]);
    assert_eq!(again.status.code(), Some(0), "{}", text(&again.stdout));
}

fn unparsable_or_missing_files_exit_2() {
    let dir = tempfile::tempdir().expect("a temp dir");
    std::fs::write(dir.path().join("broken.json"), "{\n  \"a\": 1,\n}\n").expect("written");
    let output = agentfence_in(dir.path(), &["vectors", "check", "broken.json"]);
    assert_eq!(output.status.code(), Some(2));
    let stderr = text(&output.stderr);
    assert!(stderr.contains("broken.json:3:1:"), "{stderr}");
    let fmt = agentfence_in(dir.path(), &["vectors", "fmt", "broken.json"]);
    assert_eq!(fmt.status.code(), Some(2));
    assert_eq!(
        read(&dir.path().join("broken.json")),
        "{\n  \"a\": 1,\n}\n",
        "an unparsable file is left alone"
    );
    let missing = agentfence_in(dir.path(), &["vectors", "check", "none.json"]);
    assert_eq!(missing.status.code(), Some(2));
    let nowhere = agentfence_in(dir.path(), &["vectors", "check"]);
    assert_eq!(nowhere.status.code(), Some(2));
    assert!(text(&nowhere.stderr).contains("conformance/vectors"));
}

fn check_without_paths_takes_the_vectors_directory() {
    let output = agentfence_in(&conformance_dir(), &["vectors", "check"]);
    let stdout = text(&output.stdout);
    assert_eq!(output.status.code(), Some(0), "{stdout}");
    assert!(
        stdout.ends_with(&format!(
            "{} files, 0 not in canonical form\n",
            committed_vector_files().len()
        )),
        "{stdout}"
    );
}

fn main() {
    let arguments = Arguments::from_args();
    let test = |name: &'static str, body: fn()| {
        Trial::test(name, move || {
            body();
            Ok(())
        })
    };
    let trials = vec![
        test(
            "every_committed_vector_file_is_canonical",
            every_committed_vector_file_is_canonical,
        ),
        Trial::ignorable_test("rust_and_python_writers_agree", || {
            Ok(rust_and_python_writers_agree())
        }),
        test(
            "check_names_the_first_difference_and_fmt_fixes_it",
            check_names_the_first_difference_and_fmt_fixes_it,
        ),
        test(
            "unparsable_or_missing_files_exit_2",
            unparsable_or_missing_files_exit_2,
        ),
        test(
            "check_without_paths_takes_the_vectors_directory",
            check_without_paths_takes_the_vectors_directory,
        ),
    ];
    libtest_mimic::run(&arguments, trials).exit();
}
