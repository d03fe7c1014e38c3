//! lean-ctx 3.12.0's failure templates as a port of protocol v1.
//!
//! Only the `template` operation is answered; every other operation is
//! skipped, as the protocol asks of an implementation that lacks it.

use std::io::{BufRead, Write};

use lean_ctx::core::failure_template::message_template;
use lean_ctx::core::telemetry_failure::classify;
use serde_json::{Value, json};

fn answer(request: &Value) -> Option<Value> {
    match request["type"].as_str()? {
        "hello" => Some(json!({
            "type": "hello",
            "protocol": 1,
            "implementation": {"name": "lean-ctx", "language": "rust", "version": "3.12.0"},
            "operations": ["template"],
        })),
        "case" => {
            let id = request["id"].clone();
            if request["op"] != "template" {
                return Some(json!({"type": "result", "id": id,
                    "skipped": {"reason": "lean-ctx has only failure templates"}}));
            }
            let Some(message) = request["input"]["message"].as_str() else {
                return Some(json!({"type": "result", "id": id,
                    "error": {"kind": "bad_request", "message": "input.message is not a string"}}));
            };
            Some(json!({"type": "result", "id": id, "output": {
                "kind": classify(message).as_str(),
                "template": message_template(message),
            }}))
        }
        _ => None,
    }
}

fn main() -> std::io::Result<()> {
    let stdin = std::io::stdin();
    let mut stdout = std::io::stdout().lock();
    for line in stdin.lock().lines() {
        let request: Value = match serde_json::from_str(&line?) {
            Ok(value) => value,
            Err(error) => {
                eprintln!("upstream-lean-ctx: malformed request line: {error}");
                continue;
            }
        };
        if request["type"] == "bye" {
            break;
        }
        if let Some(reply) = answer(&request) {
            writeln!(stdout, "{reply}")?;
            stdout.flush()?;
        }
    }
    Ok(())
}
