//! `agentfence matrix` end to end: two small run reports, one of the
//! reference and one of a deliberately wrong stub port, set side by side as
//! Markdown and HTML.
#![cfg(unix)]

use std::path::Path;

use serde_json::Value;

mod common;
use common::{agentfence, shell_quote, text};

/// The cases both runs take: few, of one suite, some of which expect what
/// the stub answers.
const IDS: [&str; 4] = ["--id", "template-000*", "--id", "template-018?"];

/// A port in `sh` that lists only `template` and answers every case with
/// kind `other` and no template: right for a few cases, wrong for most. Its
/// name holds markup, which both outputs must escape.
const STUB_PORT: &str = r#"
while IFS= read -r line; do
  case "$line" in
    *'"type":"hello"'*)
      printf '%s\n' '{"type":"hello","protocol":1,"implementation":{"name":"stub <b>port</b> & co","language":"sh","version":"0.0.1"},"operations":["template"]}' ;;
    *'"type":"case"'*)
      id=$(printf '%s\n' "$line" | sed 's/.*"type":"case","id":"\([^"]*\)".*/\1/')
      printf '{"type":"result","id":"%s","output":{"kind":"other","template":null}}\n' "$id" ;;
    *'"type":"bye"'*) exit 0 ;;
  esac
done
"#;

fn read_json(path: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(path).expect("the report is written"))
        .expect("the report is JSON")
}

/// The ids and descriptions of the cases `report` failed.
fn failures(report: &Value) -> Vec<(String, String)> {
    report["files"]
        .as_array()
        .expect("files")
        .iter()
        .flat_map(|file| file["cases"].as_array().expect("cases"))
        .filter(|case| case["verdict"]["status"] == "failed")
        .map(|case| {
            (
                case["id"].as_str().expect("an id").to_owned(),
                case["description"]
                    .as_str()
                    .expect("a description")
                    .to_owned(),
            )
        })
        .collect()
}

fn count(haystack: &str, needle: &str) -> usize {
    haystack.matches(needle).count()
}

/// Runs the reference and the stub over [`IDS`] with `--report`, returns
/// the two report paths.
fn two_reports(dir: &Path) -> (std::path::PathBuf, std::path::PathBuf) {
    let reference = dir.join("reference.json");
    let mut args = vec!["run", "--suite", "template"];
    args.extend(IDS);
    let path = reference.to_string_lossy();
    args.extend(["--report", &path]);
    let output = agentfence(&args);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stdout));

    let script = dir.join("stub.sh");
    std::fs::write(&script, STUB_PORT).expect("the stub is written");
    let stub = dir.join("stub.json");
    let port = format!("sh {}", shell_quote(&script.to_string_lossy()));
    let mut args = vec!["run", "--port", &port];
    args.extend(IDS);
    let path = stub.to_string_lossy();
    args.extend(["--report", &path]);
    let output = agentfence(&args);
    assert_eq!(
        output.status.code(),
        Some(1),
        "the stub fails some cases: {}{}",
        text(&output.stdout),
        text(&output.stderr)
    );
    (reference, stub)
}

#[test]
fn matrix_of_the_reference_and_a_wrong_port() {
    let dir = tempfile::tempdir().expect("a temp dir");
    let (reference, stub) = two_reports(dir.path());
    let stub_report = read_json(&stub);
    let tally = &stub_report["tally"];
    let (passed, failed) = (
        tally["passed"].as_u64().expect("passed"),
        tally["failed"].as_u64().expect("failed"),
    );
    assert!(passed > 0 && failed > 0, "{tally}");
    let wrong = failures(&stub_report);
    assert_eq!(wrong.len() as u64, failed);
    let cases = passed + failed;
    let version = stub_report["files"][0]["version"]
        .as_str()
        .expect("the suite version");
    let column = format!("template {version}");

    let markdown = dir.path().join("matrix.md");
    let html = dir.path().join("matrix.html");
    let output = agentfence(&[
        "matrix",
        &reference.to_string_lossy(),
        &stub.to_string_lossy(),
        "--markdown",
        &markdown.to_string_lossy(),
        "--html",
        &html.to_string_lossy(),
    ]);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    assert!(output.stdout.is_empty(), "{}", text(&output.stdout));

    // Markdown: the matrix table, then one section per implementation.
    let markdown = std::fs::read_to_string(&markdown).expect("the Markdown is written");
    let lines: Vec<&str> = markdown.lines().collect();
    let header = lines
        .iter()
        .position(|line| line.starts_with("| implementation |"))
        .expect("a matrix table");
    assert_eq!(
        lines[header],
        format!("| implementation | {column} | all files |"),
        "{markdown}"
    );
    assert_eq!(
        lines[header + 2],
        format!(
            "| agentfence {} (rust) | {cases} passed, 0 failed | {cases} passed, 0 failed |",
            env!("CARGO_PKG_VERSION")
        ),
        "{markdown}"
    );
    let stub_row = format!(
        "| stub &lt;b&gt;port&lt;/b&gt; &amp; co 0.0.1 (sh) | {passed} passed, {failed} failed | "
    );
    assert!(lines[header + 3].starts_with(&stub_row), "{markdown}");
    assert!(markdown.contains("\nNo case failed"), "{markdown}");
    assert!(
        markdown.contains("## stub &lt;b&gt;port&lt;/b&gt; &amp; co 0.0.1 (sh)"),
        "{markdown}"
    );
    assert!(
        markdown.contains(&format!("\n{failed} cases failed ({passed} passed, ")),
        "{markdown}"
    );
    for (id, _) in &wrong {
        let row = lines
            .iter()
            .find(|line| line.starts_with(&format!("| {id} | {column} | failed")))
            .unwrap_or_else(|| panic!("no row for {id}: {markdown}"));
        assert_eq!(count(row, " | "), 4, "{row}");
    }
    assert!(!markdown.contains("<b>"), "markup is escaped: {markdown}");

    // HTML: one table per section, every failing id with its description,
    // the name escaped, nothing to run or fetch.
    let html = std::fs::read_to_string(&html).expect("the HTML is written");
    assert!(html.starts_with("<!DOCTYPE html>"), "{html}");
    assert!(html.trim_end().ends_with("</html>"), "{html}");
    assert_eq!(
        count(&html, "<section"),
        3,
        "the matrix and two implementations"
    );
    assert_eq!(count(&html, "</section>"), 3);
    assert_eq!(
        count(&html, "<table"),
        2,
        "one table in the matrix section and one in the stub's (the reference lists none)"
    );
    assert_eq!(count(&html, "</table>"), 2);
    for section in html.split("<section").skip(1) {
        assert!(count(section, "<table") <= 1, "{section}");
    }
    assert_eq!(count(&html, "<tr"), count(&html, "</tr>"));
    assert_eq!(count(&html, "<td"), count(&html, "</td>"));
    assert!(html.contains("<style>"), "inline CSS");
    for external in [
        "<script", "<link", "src=", "url(", "@import", "http://", "https://",
    ] {
        assert!(!html.contains(external), "{external} in {html}");
    }
    assert!(
        html.contains("stub &lt;b&gt;port&lt;/b&gt; &amp; co 0.0.1 (sh)"),
        "{html}"
    );
    assert!(!html.contains("<b>"), "{html}");
    assert!(
        html.contains(&format!(
            "<span class=\"count\">{passed}/{cases}</span> passed"
        )),
        "{html}"
    );
    for (id, description) in &wrong {
        let escaped = description
            .replace('&', "&amp;")
            .replace('<', "&lt;")
            .replace('>', "&gt;")
            .replace('"', "&quot;")
            .replace('\'', "&apos;");
        assert!(
            html.contains(&format!("<td class=\"id\">{id}</td>")),
            "{id} is listed: {html}"
        );
        assert!(html.contains(&escaped), "{id}'s description: {html}");
    }
}

#[test]
fn matrix_without_outputs_prints_markdown_and_refuses_other_json() {
    let dir = tempfile::tempdir().expect("a temp dir");
    let (reference, _) = two_reports(dir.path());
    let output = agentfence(&["matrix", &reference.to_string_lossy()]);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    let stdout = text(&output.stdout);
    assert!(stdout.starts_with("# Conformance matrix\n"), "{stdout}");
    assert!(stdout.contains("| implementation | template "), "{stdout}");

    let other = dir.path().join("other.json");
    std::fs::write(&other, r#"{"tally": {}}"#).expect("written");
    let output = agentfence(&[
        "matrix",
        &reference.to_string_lossy(),
        &other.to_string_lossy(),
    ]);
    let stderr = text(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("other.json") && stderr.contains("agentfence run --report"),
        "{stderr}"
    );
    assert!(output.stdout.is_empty());

    let output = agentfence(&["matrix"]);
    assert_eq!(output.status.code(), Some(2), "a report is required");
}
