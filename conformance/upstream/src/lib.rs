//! Adapters that make the upstream crates speak the agentfence port
//! protocol v1 (`conformance/PROTOCOL.md`), so the conformance suites
//! measure them exactly as they measure any other port. Each adapter is a
//! binary behind a feature of its name; this library is the protocol loop
//! they share.

use std::io::{BufRead, Write};

use serde_json::{Value, json};

/// What an adapter answers for one case.
pub enum Answer {
    Output(Value),
    Error { kind: String, message: String },
    Skipped(String),
}

/// Who is answering, for the handshake.
pub struct Implementation {
    pub name: &'static str,
    pub version: &'static str,
    pub operations: &'static [&'static str],
}

/// Serves protocol v1 on stdin/stdout until `bye` or end of input. Cases of
/// operations not in `implementation.operations` are skipped; a request
/// line that is not JSON is reported on stderr and answered with nothing.
pub fn serve(
    implementation: &Implementation,
    mut answer: impl FnMut(&str, &Value) -> Answer,
) -> std::io::Result<()> {
    let stdin = std::io::stdin();
    let mut stdout = std::io::stdout().lock();
    for line in stdin.lock().lines() {
        let request: Value = match serde_json::from_str(&line?) {
            Ok(value) => value,
            Err(error) => {
                eprintln!("{}: malformed request line: {error}", implementation.name);
                continue;
            }
        };
        let reply = match request["type"].as_str() {
            Some("bye") => break,
            Some("hello") => json!({
                "type": "hello",
                "protocol": 1,
                "implementation": {
                    "name": implementation.name,
                    "language": "rust",
                    "version": implementation.version,
                },
                "operations": implementation.operations,
            }),
            Some("case") => {
                let id = request["id"].clone();
                let op = request["op"].as_str().unwrap_or_default();
                let answer = if implementation.operations.contains(&op) {
                    answer(op, &request["input"])
                } else {
                    Answer::Skipped(format!("{} does not implement {op}", implementation.name))
                };
                match answer {
                    Answer::Output(output) => json!({"type": "result", "id": id, "output": output}),
                    Answer::Error { kind, message } => json!({"type": "result", "id": id,
                        "error": {"kind": kind, "message": message}}),
                    Answer::Skipped(reason) => json!({"type": "result", "id": id,
                        "skipped": {"reason": reason}}),
                }
            }
            _ => continue,
        };
        writeln!(stdout, "{reply}")?;
        stdout.flush()?;
    }
    Ok(())
}

/// The error answer for a case whose input lacks a field.
pub fn bad_request(field: &str) -> Answer {
    Answer::Error {
        kind: "bad_request".into(),
        message: format!("input.{field} is missing or of the wrong type"),
    }
}
