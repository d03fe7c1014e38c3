//! The `agentfence` binary end to end: `run` against the reference port as
//! a subprocess, `run` on broken vectors, `port` on malformed requests, and
//! `template` on single messages and JSON lines.

use std::io::Write;
use std::path::Path;
use std::process::{Command, Output, Stdio};

use agentfence_conformance::loader;
use agentfence_conformance::suites::SuiteRegistry;
use serde_json::{Value, json};

mod common;
use common::{BIN, agentfence, shell_quote, text, wrong_vector};

fn agentfence_with_stdin(args: &[&str], stdin: &[u8]) -> Output {
    let mut child = Command::new(BIN)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the agentfence binary starts");
    child
        .stdin
        .take()
        .expect("stdin is piped")
        .write_all(stdin)
        .expect("agentfence reads its stdin");
    child.wait_with_output().expect("agentfence exits")
}

fn embedded_case_count() -> usize {
    loader::embedded(&SuiteRegistry::standard())
        .expect("the embedded vectors load")
        .cases()
        .count()
}

#[test]
fn whole_suite_passes_through_the_reference_port() {
    let port = format!("{} port", shell_quote(BIN));
    // A loaded test machine can take seconds per fetch case; the timeout is
    // for hung ports, not slow ones.
    let output = agentfence(&["run", "--port", &port, "--timeout", "60"]);
    let stdout = text(&output.stdout);
    assert_eq!(
        output.status.code(),
        Some(0),
        "{stdout}\n{}",
        text(&output.stderr)
    );
    let closing = stdout.lines().last().unwrap_or_default();
    assert_eq!(
        closing,
        format!("{} passed, 0 failed", embedded_case_count())
    );
}

#[test]
fn whole_suite_passes_in_process() {
    let output = agentfence(&["run"]);
    let stdout = text(&output.stdout);
    assert_eq!(output.status.code(), Some(0), "{stdout}");
    assert!(stdout.contains("suite template "), "{stdout}");
    assert_eq!(
        stdout.lines().last().unwrap_or_default(),
        format!("{} passed, 0 failed", embedded_case_count())
    );
}

#[test]
fn wrong_vector_fails_the_run() {
    let dir = tempfile::tempdir().expect("a temp dir");
    let path = dir.path().join("wrong.json");
    std::fs::write(&path, wrong_vector("this is wrong").to_string())
        .expect("the temp file is written");
    let output = agentfence(&["run", "--vectors", &path.to_string_lossy()]);
    let stdout = text(&output.stdout);
    assert_eq!(output.status.code(), Some(1), "{stdout}");
    assert!(stdout.contains("FAIL template-9999"), "{stdout}");
    assert!(
        stdout.contains("expected: {\"kind\":\"timeout\""),
        "{stdout}"
    );
    assert!(stdout.contains("got:      {\"kind\":"), "{stdout}");
    let closing = stdout.lines().last().unwrap_or_default();
    assert!(closing.ends_with(" passed, 1 failed"), "{closing:?}");
}

#[test]
fn malformed_vector_is_a_load_error_naming_file_and_case() {
    let dir = tempfile::tempdir().expect("a temp dir");
    let path = dir.path().join("malformed.json");
    let mut vector = wrong_vector("this is wrong");
    vector["cases"][0]
        .as_object_mut()
        .expect("the case is an object")
        .remove("expected");
    std::fs::write(&path, vector.to_string()).expect("the temp file is written");
    let output = agentfence(&["run", "--vectors", &path.to_string_lossy()]);
    let stderr = text(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("malformed.json"), "{stderr}");
    assert!(stderr.contains("template-9999"), "{stderr}");
    assert!(stderr.contains("\"expected\" is missing"), "{stderr}");
}

#[test]
fn reused_id_is_a_lint_error() {
    let dir = tempfile::tempdir().expect("a temp dir");
    let path = dir.path().join("reused.json");
    let shipped = loader::embedded(&SuiteRegistry::standard())
        .expect("the embedded vectors load")
        .cases()
        .next()
        .map(|(_, case)| case.id.clone())
        .expect("at least one shipped case");
    let mut vector = wrong_vector("this is wrong");
    vector["cases"][0]["id"] = json!(shipped);
    std::fs::write(&path, vector.to_string()).expect("the temp file is written");
    let output = agentfence(&["run", "--vectors", &path.to_string_lossy()]);
    let stderr = text(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains(&format!("case {shipped}: id already used")),
        "{stderr}"
    );
}

#[test]
fn usage_errors_exit_2() {
    for args in [
        &["run", "--suite", "no-such-suite"][..],
        &["run", "--vectors", "/no/such/vectors.json"],
        &["run", "--timeout", "0"],
        &["run", "--port", "exit 0"],
        &["template"],
        &["frobnicate"],
    ] {
        let output = agentfence(args);
        assert_eq!(
            output.status.code(),
            Some(2),
            "agentfence {args:?}: {}",
            text(&output.stderr)
        );
    }
}

#[test]
fn port_survives_malformed_requests() {
    let session = b"not json\n\xff\xfe\n{\"type\":\"case\"}\n{\"type\":\"case\",\"id\":\"x\"}\n{\"type\":\"hello\",\"protocol\":1}\n{\"type\":\"bye\"}\n";
    let output = agentfence_with_stdin(&["port"], session);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    let replies: Vec<Value> = text(&output.stdout)
        .lines()
        .map(|line| serde_json::from_str(line).expect("the port writes only JSON lines"))
        .collect();
    assert_eq!(replies.len(), 2, "{replies:?}");
    assert_eq!(replies[0]["id"], "x");
    assert_eq!(replies[0]["error"]["kind"], "bad_request");
    assert_eq!(replies[1]["type"], "hello");
    let stderr = text(&output.stderr);
    for line in 1..=3 {
        assert!(
            stderr.contains(&format!("request line {line}:")),
            "{stderr}"
        );
    }
}

#[test]
fn template_prints_one_json_line() {
    let output = agentfence(&["template", "cannot open /home/anna/notes.txt"]);
    assert_eq!(output.status.code(), Some(0));
    let stdout = text(&output.stdout);
    assert_eq!(stdout.lines().count(), 1, "{stdout}");
    let report: Value = serde_json::from_str(&stdout).expect("one JSON object");
    let kind = report["kind"].as_str().expect("kind is a string");
    assert!(
        agentfence::template::FailureKind::from_name(kind).is_some(),
        "{report}"
    );
    assert!(!stdout.contains("anna"), "{stdout}");
}

#[test]
fn template_jsonl_answers_every_line_and_names_bad_ones() {
    let input = b"\"file not found\"\n\"permission denied\"\n\"bad \xff utf8\"\n{not json\n\"cannot open file\"\n";
    let output = agentfence_with_stdin(&["template", "--jsonl"], input);
    assert_eq!(output.status.code(), Some(1));
    let lines: Vec<Value> = text(&output.stdout)
        .lines()
        .map(|line| serde_json::from_str(line).expect("every output line is JSON"))
        .collect();
    assert_eq!(lines.len(), 5, "{lines:?}");
    for good in [0, 1, 4] {
        assert!(
            lines[good]["kind"].is_string(),
            "line {}: {}",
            good + 1,
            lines[good]
        );
        assert!(lines[good].get("template").is_some(), "{}", lines[good]);
    }
    assert_eq!(lines[2]["error"]["kind"], "invalid_utf8");
    assert_eq!(lines[2]["error"]["line"], 3);
    assert_eq!(lines[3]["error"]["kind"], "invalid_json");
    assert_eq!(lines[3]["error"]["line"], 4);
    let stderr = text(&output.stderr);
    assert!(stderr.contains("line 3:"), "{stderr}");
    assert!(stderr.contains("line 4:"), "{stderr}");
}

#[test]
fn vectors_directory_replaces_embedded_files_of_the_same_name() {
    let dir = tempfile::tempdir().expect("a temp dir");
    // A template.json on disk stands in for the embedded one entirely; the
    // other suites' files are left out so the tally is the template one's.
    std::fs::write(
        dir.path().join("template.json"),
        wrong_vector("this is wrong").to_string(),
    )
    .expect("the temp file is written");
    let output = agentfence(&[
        "run",
        "--suite",
        "template",
        "--vectors",
        &dir.path().to_string_lossy(),
    ]);
    let stdout = text(&output.stdout);
    assert_eq!(output.status.code(), Some(1), "{stdout}");
    assert_eq!(
        stdout.lines().last(),
        Some("0 passed, 1 failed"),
        "{stdout}"
    );
    assert!(
        stdout.contains(
            &Path::new(&dir.path().join("template.json"))
                .display()
                .to_string()
        ),
        "{stdout}"
    );
}
