//! prompty 2.1.0's chat parser as a port of protocol v1.
//!
//! - `chat_parse` without a context calls `parse_chat` (non-strict); with
//!   one it calls `PromptyChatParser::parse` with the context's nonce, as a
//!   caller of the parser does directly. prompty has no marker count, so
//!   `context.markers` is not used.
//! - `chat_pre_render` calls `PromptyChatParser::pre_render`, which draws
//!   its own nonce; the adapter writes the case's nonce in its place, so the
//!   output can be compared.
//! - `chat_flow` is pre-render (nonce replaced as above), `{{name}}`
//!   substitution with the values (the reference's renderer), then the strict parse: the flow as it
//!   would run if prompty's pipeline validated (in 2.1.0 it never does,
//!   which makes every forged marker pass there).

use std::collections::BTreeMap;

use agentfence_upstream::{Answer, Implementation, bad_request, serve};
use prompty::Agent;
use prompty::interfaces::Parser;
use prompty::parsers::{PromptyChatParser, parse_chat};
use serde_json::{Value, json};

fn messages(messages: &[prompty::Message]) -> Value {
    let list: Vec<Value> = messages
        .iter()
        .map(|message| {
            let metadata = match &message.metadata {
                Value::Object(map) => Value::Object(map.clone()),
                _ => json!({}),
            };
            json!({
                "role": message.role.to_string(),
                "content": message.text_content(),
                "metadata": metadata,
            })
        })
        .collect();
    json!({ "messages": list })
}

fn strict_parse(rendered: &str, nonce: &str) -> Answer {
    let context = json!({ "nonce": nonce });
    let parsed = futures::executor::block_on(PromptyChatParser.parse(
        &Agent::default(),
        rendered,
        Some(&context),
    ));
    match parsed {
        Ok(list) => Answer::Output(messages(&list)),
        Err(error) => {
            let message = error.to_string();
            let kind = if message.contains("Nonce mismatch") {
                "nonce_mismatch"
            } else {
                "other"
            };
            Answer::Error {
                kind: kind.into(),
                message,
            }
        }
    }
}

/// prompty's pre-render with `nonce` written where its own nonce went.
fn pre_render(template: &str, nonce: &str) -> Option<String> {
    let (prepared, context) = PromptyChatParser.pre_render(template)?;
    let drawn = context["nonce"].as_str()?;
    Some(prepared.replace(drawn, nonce))
}

fn main() -> std::io::Result<()> {
    let implementation = Implementation {
        name: "prompty",
        version: "2.1.0",
        operations: &["chat_parse", "chat_pre_render", "chat_flow"],
    };
    serve(&implementation, |op, input| match op {
        "chat_parse" => {
            let Some(rendered) = input["rendered"].as_str() else {
                return bad_request("rendered");
            };
            match input["context"]["nonce"].as_str() {
                Some(nonce) => strict_parse(rendered, nonce),
                None => Answer::Output(messages(&parse_chat(rendered))),
            }
        }
        "chat_pre_render" => {
            let (Some(template), Some(nonce)) =
                (input["template"].as_str(), input["nonce"].as_str())
            else {
                return bad_request("template or input.nonce");
            };
            match pre_render(template, nonce) {
                Some(prepared) => Answer::Output(json!({
                    "prepared": prepared,
                    "context": {"nonce": nonce},
                })),
                None => Answer::Skipped("pre_render returned nothing".into()),
            }
        }
        _ => {
            let (Some(template), Some(nonce)) =
                (input["template"].as_str(), input["nonce"].as_str())
            else {
                return bad_request("template or input.nonce");
            };
            let values: BTreeMap<String, String> = input["values"]
                .as_object()
                .map(|map| {
                    map.iter()
                        .filter_map(|(k, v)| Some((k.clone(), v.as_str()?.to_string())))
                        .collect()
                })
                .unwrap_or_default();
            let Some(prepared) = pre_render(template, nonce) else {
                return Answer::Skipped("pre_render returned nothing".into());
            };
            // The reference's own renderer: the flow differs from the
            // reference's only in prompty's pre-render and parse.
            match agentfence::chat::render(&prepared, &values) {
                Ok(rendered) => strict_parse(&rendered, nonce),
                Err(error) => Answer::Error {
                    kind: error.kind().into(),
                    message: error.to_string(),
                },
            }
        }
    })
}
