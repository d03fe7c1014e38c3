//! `agentfence template`: the reference's failure report for one message,
//! or for a stream of JSON-string lines.
//!
//! In `--jsonl` mode a bad line (not UTF-8, not JSON, not a string) is
//! answered in place with an error object, so output line N always belongs
//! to input line N, and the run goes on.

use std::io::{self, BufRead, Write};
use std::process::ExitCode;

use serde_json::{Value, json};

use super::{EXIT_FAILURE, TemplateArgs, json_type};
use agentfence::template::Scrubber;

/// Why an input line got no template.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BadLineKind {
    InvalidUtf8,
    InvalidJson,
    NotAString,
}

impl BadLineKind {
    pub fn as_str(self) -> &'static str {
        match self {
            BadLineKind::InvalidUtf8 => "invalid_utf8",
            BadLineKind::InvalidJson => "invalid_json",
            BadLineKind::NotAString => "not_a_string",
        }
    }
}

/// Counts of a `--jsonl` run.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct JsonlSummary {
    pub lines: usize,
    pub bad_lines: usize,
}

pub fn template_command(args: &TemplateArgs) -> ExitCode {
    let scrubber = Scrubber::new();
    if args.jsonl {
        let stdin = io::stdin().lock();
        let stdout = io::stdout().lock();
        return match template_lines(&scrubber, stdin, stdout, io::stderr()) {
            Ok(summary) if summary.bad_lines == 0 => ExitCode::SUCCESS,
            Ok(_) => ExitCode::from(EXIT_FAILURE),
            Err(error) => {
                eprintln!("agentfence template: {error}");
                ExitCode::from(EXIT_FAILURE)
            }
        };
    }
    // clap's argument group guarantees a message when --jsonl is absent.
    let message = args.message.as_deref().unwrap_or_default();
    println!("{}", report_json(&scrubber, message));
    ExitCode::SUCCESS
}

fn report_json(scrubber: &Scrubber, message: &str) -> Value {
    let report = scrubber.report(message);
    json!({ "kind": report.kind.as_str(), "template": report.template })
}

/// Reads `input` as lines of bytes split on `\n`, each a JSON string, and
/// writes one JSON object per line. A bad line is reported on `output` and
/// on `diagnostics` with its 1-based number; I/O errors stop the run.
pub fn template_lines(
    scrubber: &Scrubber,
    mut input: impl BufRead,
    mut output: impl Write,
    mut diagnostics: impl Write,
) -> io::Result<JsonlSummary> {
    let mut summary = JsonlSummary::default();
    let mut line = Vec::new();
    loop {
        line.clear();
        if input.read_until(b'\n', &mut line)? == 0 {
            break;
        }
        if line.last() == Some(&b'\n') {
            line.pop();
        }
        summary.lines += 1;
        let number = summary.lines;
        let reply = match parse_line(&line) {
            Ok(message) => report_json(scrubber, &message),
            Err((kind, message)) => {
                summary.bad_lines += 1;
                writeln!(diagnostics, "agentfence template: line {number}: {message}")?;
                json!({"error": {"kind": kind.as_str(), "line": number, "message": message}})
            }
        };
        writeln!(output, "{reply}")?;
    }
    output.flush()?;
    Ok(summary)
}

pub(super) fn parse_line(line: &[u8]) -> Result<String, (BadLineKind, String)> {
    let text = std::str::from_utf8(line).map_err(|error| {
        (
            BadLineKind::InvalidUtf8,
            format!("not UTF-8 (invalid byte at offset {})", error.valid_up_to()),
        )
    })?;
    match serde_json::from_str::<Value>(text) {
        Ok(Value::String(message)) => Ok(message),
        Ok(other) => Err((
            BadLineKind::NotAString,
            format!("a JSON {} where a string was expected", json_type(&other)),
        )),
        Err(error) => Err((BadLineKind::InvalidJson, format!("not JSON: {error}"))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(input: &[u8]) -> (JsonlSummary, Vec<Value>, String) {
        let mut output = Vec::new();
        let mut diagnostics = Vec::new();
        let summary = template_lines(&Scrubber::new(), input, &mut output, &mut diagnostics)
            .expect("in-memory I/O");
        let lines = String::from_utf8(output)
            .expect("the output is UTF-8")
            .lines()
            .map(|line| serde_json::from_str(line).expect("every output line is JSON"))
            .collect();
        let diagnostics = String::from_utf8(diagnostics).expect("diagnostics are UTF-8");
        (summary, lines, diagnostics)
    }

    #[test]
    fn each_bad_kind_is_named_with_its_line() {
        let (summary, lines, diagnostics) = run(b"\"ok\"\n\xff\n[1]\n{\n\"fine\"\n");
        assert_eq!(
            summary,
            JsonlSummary {
                lines: 5,
                bad_lines: 3
            }
        );
        assert_eq!(lines.len(), 5);
        assert_eq!(lines[1]["error"]["kind"], "invalid_utf8");
        assert_eq!(lines[1]["error"]["line"], 2);
        assert_eq!(lines[2]["error"]["kind"], "not_a_string");
        assert_eq!(lines[3]["error"]["kind"], "invalid_json");
        assert!(lines[4]["kind"].is_string(), "{:?}", lines[4]);
        for number in [2, 3, 4] {
            assert!(
                diagnostics.contains(&format!("line {number}:")),
                "{diagnostics}"
            );
        }
    }

    #[test]
    fn last_line_without_newline_is_read() {
        let (summary, lines, _) = run(b"\"a\"\n\"b\"");
        assert_eq!(summary.lines, 2);
        assert_eq!(lines.len(), 2);
    }

    #[test]
    fn crlf_line_is_still_json() {
        let (summary, _, _) = run(b"\"a\"\r\n");
        assert_eq!(summary.bad_lines, 0);
    }
}
