//! Helpers the CLI test binaries share: running the `agentfence` binary and
//! the deliberately wrong vector file several tests feed it.
//!
//! Each test binary compiles this module and uses a part of it, so the
//! parts another binary uses would count as dead code here.
#![allow(dead_code)]

use std::process::{Command, Output};

use serde_json::{Value, json};

pub const BIN: &str = env!("CARGO_BIN_EXE_agentfence");

/// Runs `agentfence` outside the crate directory, so that the vectors must
/// come from the binary.
pub fn agentfence(args: &[&str]) -> Output {
    Command::new(BIN)
        .args(args)
        .current_dir(std::env::temp_dir())
        .output()
        .expect("the agentfence binary runs")
}

pub fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// `text` quoted for `sh -c`.
pub fn shell_quote(text: &str) -> String {
    format!("'{}'", text.replace('\'', r"'\''"))
}

/// A template vector file with one case whose expected template (`expected`)
/// no message yields, so the reference fails it.
pub fn wrong_vector(expected: &str) -> Value {
    json!({
        "$schema": "../schema/template.schema.json",
        "suite": "template",
        "version": "1.0.0",
        "description": "A deliberately wrong vector.",
        "vocabulary": "vocabulary/template-v1.txt",
        "notes": {},
        "cases": [{
            // Far above any real id, so it cannot collide with the shipped ones.
            "id": "template-9999",
            "description": "expects a template no message yields",
            "flags": [],
            "op": "template",
            "input": {"message": "file not found"},
            "result": "valid",
            "expected": {"kind": "timeout", "template": expected}
        }]
    })
}
