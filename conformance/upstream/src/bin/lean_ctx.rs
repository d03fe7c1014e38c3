//! lean-ctx 3.12.0's failure templates as a port of protocol v1.

use agentfence_upstream::{Answer, Implementation, bad_request, serve};
use lean_ctx::core::failure_template::message_template;
use lean_ctx::core::telemetry_failure::classify;
use serde_json::json;

fn main() -> std::io::Result<()> {
    let implementation = Implementation {
        name: "lean-ctx",
        version: "3.12.0",
        operations: &["template"],
    };
    serve(&implementation, |_, input| {
        match input["message"].as_str() {
            Some(message) => Answer::Output(json!({
                "kind": classify(message).as_str(),
                "template": message_template(message),
            })),
            None => bad_request("message"),
        }
    })
}
