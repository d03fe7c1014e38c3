//! The progress line of `agentfence run` is for terminals only: a run that
//! takes well over a second, with stderr a pipe (as in CI logs and here),
//! writes nothing to stderr and nothing but the report to stdout.
#![cfg(unix)]

use std::time::{Duration, Instant};

mod common;
use common::{agentfence, shell_quote, text};

/// A slow port in `sh`: lists only `template`, waits a quarter of a second
/// before each answer, and answers kind `other` with no template.
const SLOW_PORT: &str = r#"
while IFS= read -r line; do
  case "$line" in
    *'"type":"hello"'*)
      printf '%s\n' '{"type":"hello","protocol":1,"implementation":{"name":"slow","language":"sh","version":"0"},"operations":["template"]}' ;;
    *'"type":"case"'*)
      sleep 0.25
      id=$(printf '%s\n' "$line" | sed 's/.*"type":"case","id":"\([^"]*\)".*/\1/')
      printf '{"type":"result","id":"%s","output":{"kind":"other","template":null}}\n' "$id" ;;
    *'"type":"bye"'*) exit 0 ;;
  esac
done
"#;

#[test]
fn a_slow_run_without_a_terminal_draws_no_progress() {
    let dir = tempfile::tempdir().expect("a temp dir");
    let script = dir.path().join("slow.sh");
    std::fs::write(&script, SLOW_PORT).expect("the port is written");
    let port = format!("sh {}", shell_quote(&script.to_string_lossy()));
    let started = Instant::now();
    let output = agentfence(&["run", "--port", &port, "--id", "template-000*"]);
    let took = started.elapsed();
    assert!(
        took > Duration::from_millis(1500),
        "the run must outlast the progress line's delay to test anything: {took:?}"
    );
    let stdout = text(&output.stdout);
    assert!(output.status.code().is_some(), "{stdout}");
    assert!(
        output.stderr.is_empty(),
        "stderr is not a terminal, yet: {:?}",
        text(&output.stderr)
    );
    assert!(
        stdout.starts_with("implementation: slow 0 (sh)\n"),
        "{stdout:?}"
    );
    assert!(
        !stdout.contains('\r') && !stdout.contains('\u{1b}'),
        "{stdout:?}"
    );
}
