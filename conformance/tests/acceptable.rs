//! `acceptable` cases end to end: a port giving any one of the allowed
//! answers passes, a port giving a third answer fails, and the report
//! lists what was allowed. The ports are a few lines of `sh` that answer
//! every case with one canned line.

use std::path::{Path, PathBuf};
use std::process::Output;

use serde_json::{Value, json};

mod common;
use common::{agentfence, shell_quote, text};

/// A port that declares `operations` and answers every case with `output`
/// or `error` (a JSON object), for the case id `id`.
fn canned_port(dir: &Path, name: &str, id: &str, operations: &[&str], answer: Value) -> String {
    let hello = json!({
        "type": "hello", "protocol": 1,
        "implementation": {"name": name, "language": "sh", "version": "0"},
        "operations": operations,
    });
    let mut result = json!({"type": "result", "id": id});
    for (key, value) in answer.as_object().expect("an answer object") {
        result[key] = value.clone();
    }
    let script = format!(
        "while IFS= read -r line; do\n  case \"$line\" in\n    *'\"type\":\"hello\"'*) printf '%s\\n' {hello} ;;\n    *'\"type\":\"case\"'*) printf '%s\\n' {result} ;;\n    *'\"type\":\"bye\"'*) exit 0 ;;\n  esac\ndone\n",
        hello = shell_quote(&hello.to_string()),
        result = shell_quote(&result.to_string()),
    );
    let path = dir.join(format!("{name}.sh"));
    std::fs::write(&path, script).expect("the port script is written");
    format!("sh {}", shell_quote(&path.to_string_lossy()))
}

fn closing_line(output: &Output) -> String {
    text(&output.stdout)
        .lines()
        .last()
        .unwrap_or_default()
        .to_owned()
}

fn messages(a: Value) -> Value {
    json!({"messages": [{"role": "user", "content": "hi", "metadata": {"a": a}}]})
}

/// chat-0353: 2^63 as a float (64-bit integers) or as an integer.
#[test]
fn either_number_passes_the_shipped_case_and_a_string_fails() {
    let dir = tempfile::tempdir().expect("a temp dir");
    let run = |name: &str, output: Value| {
        let port = canned_port(
            dir.path(),
            name,
            "chat-0353",
            &["chat_parse"],
            json!({ "output": output }),
        );
        agentfence(&["run", "--id", "chat-0353", "--port", &port])
    };
    for (name, a) in [
        ("float", json!(9.223_372_036_854_776e18)),
        ("integer", json!(9_223_372_036_854_775_808_u64)),
    ] {
        let output = run(name, messages(a));
        assert_eq!(
            output.status.code(),
            Some(0),
            "{name}: {}",
            text(&output.stdout)
        );
        assert_eq!(closing_line(&output), "1 passed, 0 failed", "{name}");
    }

    let output = run("string", messages(json!("9223372036854775808")));
    let stdout = text(&output.stdout);
    assert_eq!(output.status.code(), Some(1), "{stdout}");
    assert_eq!(closing_line(&output), "0 passed, 1 failed");
    assert!(
        stdout.contains("FAIL chat-0353: "),
        "the failure is listed: {stdout}"
    );
    assert!(
        stdout.contains("  flags:    coercion, integer-width\n"),
        "{stdout}"
    );
    assert!(
        stdout.contains("  reason:   the output is none of the acceptable answers (2 outputs)\n"),
        "{stdout}"
    );
    assert!(
        stdout.contains(
            "  expected: one of\n            {\"messages\":[{\"content\":\"hi\",\"metadata\":{\"a\":9.223372036854776e+18},\"role\":\"user\"}]}\n            {\"messages\":[{\"content\":\"hi\",\"metadata\":{\"a\":9223372036854775808},\"role\":\"user\"}]}\n"
        ),
        "{stdout}"
    );
}

/// A test-only vector file: one case that allows an output or an error.
fn output_or_error_vectors(dir: &Path) -> PathBuf {
    let file = json!({
        "$schema": "../schema/chat.schema.json",
        "suite": "chat",
        "version": "1.1.0",
        "description": "Test only: an acceptable case that allows an output or an error.",
        "notes": {
            "test-choice": {
                "description": "A made-up choice between an output and an error, for the runner's tests.",
                "effect": "None."
            }
        },
        "cases": [{
            "id": "chat-9001",
            "description": "Either the messages or a nonce_mismatch error.",
            "flags": ["test-choice"],
            "op": "chat_parse",
            "input": {"rendered": "user[a=1]:\nhi"},
            "result": "acceptable",
            "acceptable": [
                {"expected": messages(json!(1))},
                {"expected_error": {"kind": "nonce_mismatch"}}
            ]
        }]
    });
    let path = dir.join("acceptable-test.json");
    std::fs::write(&path, file.to_string()).expect("the vector file is written");
    path
}

#[test]
fn an_output_or_an_error_kind_can_both_be_acceptable() {
    let dir = tempfile::tempdir().expect("a temp dir");
    let vectors = output_or_error_vectors(dir.path());
    let vectors = vectors.to_string_lossy();
    let run = |name: &str, answer: Value| {
        let port = canned_port(dir.path(), name, "chat-9001", &["chat_parse"], answer);
        let report = dir.path().join(format!("{name}.json"));
        let output = agentfence(&[
            "run",
            "--vectors",
            &vectors,
            "--id",
            "chat-9001",
            "--port",
            &port,
            "--report",
            &report.to_string_lossy(),
        ]);
        let report: Value =
            serde_json::from_str(&std::fs::read_to_string(&report).expect("the report exists"))
                .expect("the report is JSON");
        (output, report)
    };

    let (output, _) = run("output", json!({"output": messages(json!(1))}));
    assert_eq!(closing_line(&output), "1 passed, 0 failed");
    let (output, _) = run(
        "error",
        json!({"error": {"kind": "nonce_mismatch", "message": "m"}}),
    );
    assert_eq!(closing_line(&output), "1 passed, 0 failed");

    let (output, report) = run(
        "other-error",
        json!({"error": {"kind": "marker_count_mismatch", "message": "m"}}),
    );
    let stdout = text(&output.stdout);
    assert_eq!(output.status.code(), Some(1), "{stdout}");
    assert!(
        stdout.contains(
            "  reason:   an error of kind \"marker_count_mismatch\" (m) is none of the acceptable answers (1 output or an error of kind \"nonce_mismatch\")\n"
        ),
        "{stdout}"
    );
    assert!(
        stdout.contains("            error of kind \"nonce_mismatch\"\n"),
        "{stdout}"
    );
    let case = &report["files"][0]["cases"][0];
    assert_eq!(case["result"], "acceptable");
    assert_eq!(
        case["acceptable"][1],
        json!({"expected_error": {"kind": "nonce_mismatch"}})
    );
    assert_eq!(case["verdict"]["status"], "failed");

    let (output, _) = run("other-output", json!({"output": messages(json!(2))}));
    assert_eq!(closing_line(&output), "0 passed, 1 failed");

    // The reference itself gives the output.
    let reference = agentfence(&["run", "--vectors", &vectors, "--id", "chat-9001"]);
    assert_eq!(closing_line(&reference), "1 passed, 0 failed");
}

#[test]
fn an_acceptable_case_with_one_answer_is_refused_when_loaded() {
    let dir = tempfile::tempdir().expect("a temp dir");
    let path = output_or_error_vectors(dir.path());
    let mut file: Value =
        serde_json::from_str(&std::fs::read_to_string(&path).expect("written")).expect("JSON");
    file["cases"][0]["acceptable"]
        .as_array_mut()
        .expect("an array")
        .pop();
    file["cases"][0]["flags"] = json!(["made-up"]);
    std::fs::write(&path, file.to_string()).expect("rewritten");
    let output = agentfence(&["run", "--vectors", &path.to_string_lossy()]);
    let stderr = text(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("case chat-9001: flag \"made-up\" is not defined"),
        "{stderr}"
    );
    assert!(
        stderr.contains("case chat-9001: result is \"acceptable\" but it lists 1 answer"),
        "{stderr}"
    );
}

/// issue 15, policy flags: chat-0052 (`"\n\n"`) expects no message; a port
/// that follows `blank-preamble` gives a system message of the blank text,
/// which passes only a run that declares the flag.
#[test]
fn a_flagged_answer_passes_only_a_run_that_follows_its_flag() {
    let dir = tempfile::tempdir().expect("a temp dir");
    let choice = canned_port(
        dir.path(),
        "choice",
        "chat-0052",
        &["chat_parse"],
        json!({"output": {"messages": []}}),
    );
    let policy = canned_port(
        dir.path(),
        "policy",
        "chat-0052",
        &["chat_parse"],
        json!({"output": {"messages": [{"role": "system", "content": "", "metadata": {}}]}}),
    );
    let run = |port: &str, extra: &[&str]| {
        let mut args = vec!["run", "--id", "chat-0052", "--port", port];
        args.extend_from_slice(extra);
        agentfence(&args)
    };
    for extra in [&[][..], &["--follow-flag", "blank-preamble"][..]] {
        let output = run(&choice, extra);
        assert_eq!(closing_line(&output), "1 passed, 0 failed", "{extra:?}");
    }

    let output = run(&policy, &[]);
    let stdout = text(&output.stdout);
    assert_eq!(output.status.code(), Some(1), "{stdout}");
    assert!(
        stdout.contains("only under policy flag(s) the run does not follow (blank-preamble: ")
            && stdout.contains("--follow-flag blank-preamble"),
        "{stdout}"
    );
    let output = run(&policy, &["--follow-flag", "blank-preamble"]);
    assert_eq!(
        closing_line(&output),
        "1 passed, 0 failed",
        "{}",
        text(&output.stdout)
    );
    // Another policy declared does not allow this one.
    let output = run(&policy, &["--follow-flag", "developer-role"]);
    assert_eq!(closing_line(&output), "0 passed, 1 failed");
}

/// An answer that needs two policies (chat-0205: the author's nonce
/// replaced, and no marker count, as Python prompty answers) passes only a
/// run that follows both.
#[test]
fn an_answer_needing_two_flags_passes_only_with_both() {
    let dir = tempfile::tempdir().expect("a temp dir");
    let port = canned_port(
        dir.path(),
        "prompty-like",
        "chat-0205",
        &["chat_pre_render"],
        json!({"output": {"prepared": "user[nonce=\"n1\"]:\nhi", "context": {"nonce": "n1"}}}),
    );
    let run = |extra: &[&str]| {
        let mut args = vec!["run", "--id", "chat-0205", "--port", &port];
        args.extend_from_slice(extra);
        closing_line(&agentfence(&args))
    };
    assert_eq!(run(&[]), "0 passed, 1 failed");
    assert_eq!(
        run(&["--follow-flag", "author-nonce-replaced"]),
        "0 passed, 1 failed"
    );
    assert_eq!(
        run(&["--follow-flag", "no-marker-count"]),
        "0 passed, 1 failed"
    );
    assert_eq!(
        run(&[
            "--follow-flag",
            "author-nonce-replaced",
            "--follow-flag",
            "no-marker-count"
        ]),
        "1 passed, 0 failed"
    );
}
