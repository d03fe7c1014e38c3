//! The messages of port protocol v1 (see `PROTOCOL.md`), shared by both
//! ends: the runner's side in `port_process` and the reference port in
//! `port_server`.
//!
//! Requests are plain serde types. Replies are parsed by hand from a JSON
//! value so that every way a port can get them wrong (two outcomes at once,
//! a missing id, a wrong type) is rejected with a reason that names it,
//! instead of whatever a derived deserializer happens to accept.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use thiserror::Error;

/// The protocol version this crate speaks; a port must answer hello with it.
pub const PROTOCOL_VERSION: u64 = 1;

/// Who answered: the `implementation` object of a port's hello.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ImplementationInfo {
    pub name: String,
    pub language: String,
    pub version: String,
}

impl ImplementationInfo {
    /// The key a vector's `upstream` entry records this implementation's
    /// answers under: `name@version` for a Rust crate, `name-language@version`
    /// for any other language, so that two runtimes published under one
    /// name (prompty's crate and its Python package) keep apart, as
    /// `conformance/tools/record_upstream.py` writes them.
    pub fn upstream_key(&self) -> String {
        if self.language == "rust" {
            format!("{}@{}", self.name, self.version)
        } else {
            format!("{}-{}@{}", self.name, self.language, self.version)
        }
    }
}

/// A line the runner writes to a port.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Request {
    Hello {
        protocol: u64,
    },
    /// Configures the cases that follow; it has no answer.
    Suite {
        suite: String,
        version: String,
        config: Value,
    },
    Case {
        id: String,
        op: String,
        input: Value,
    },
    Bye,
}

impl Request {
    /// The request as one line of JSON, without the newline.
    pub fn to_line(&self) -> String {
        // A `Request` holds only strings, integers and `Value`s, whose
        // serialization cannot fail.
        serde_json::to_string(self).expect("a Request always serializes")
    }
}

/// The port's answer to hello.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HelloReply {
    pub protocol: u64,
    pub implementation: ImplementationInfo,
    pub operations: Vec<String>,
}

impl HelloReply {
    pub fn to_line(&self) -> String {
        #[derive(Serialize)]
        struct Line<'a> {
            r#type: &'static str,
            protocol: u64,
            implementation: &'a ImplementationInfo,
            operations: &'a [String],
        }
        let line = Line {
            r#type: "hello",
            protocol: self.protocol,
            implementation: &self.implementation,
            operations: &self.operations,
        };
        // Strings and an integer only: serialization cannot fail.
        serde_json::to_string(&line).expect("a hello reply always serializes")
    }
}

/// One of the three outcomes a port can report for a case.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CaseOutcome {
    Output(Value),
    Error(ReportedError),
    Skipped(SkipReason),
}

/// An error an implementation reports for a case; only `kind` is compared
/// with the vectors, `message` is for people.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReportedError {
    pub kind: String,
    #[serde(default)]
    pub message: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SkipReason {
    pub reason: String,
}

/// The port's answer to a case.
#[derive(Debug, Clone, PartialEq)]
pub struct CaseResult {
    pub id: String,
    pub outcome: CaseOutcome,
}

impl CaseResult {
    pub fn to_line(&self) -> String {
        #[derive(Serialize)]
        struct Line<'a> {
            r#type: &'static str,
            id: &'a str,
            #[serde(flatten)]
            outcome: &'a CaseOutcome,
        }
        let line = Line {
            r#type: "result",
            id: &self.id,
            outcome: &self.outcome,
        };
        // Strings and `Value`s only: serialization cannot fail.
        serde_json::to_string(&line).expect("a case result always serializes")
    }
}

/// Why a line from a port is not the reply the protocol asks for.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ReplyError {
    #[error("the line is not UTF-8")]
    NotUtf8,
    #[error("the line is not JSON ({0})")]
    NotJson(String),
    #[error("the line is not a JSON object")]
    NotAnObject,
    #[error("expected a message of type {expected:?}, got {got}")]
    WrongType { expected: &'static str, got: String },
    #[error("field {field:?} is missing or not {expected}")]
    BadField {
        field: &'static str,
        expected: &'static str,
    },
    #[error(
        "the result holds {0} of \"output\", \"error\" and \"skipped\"; it must hold exactly one"
    )]
    OutcomeCount(usize),
}

fn parse_object(line: &[u8]) -> Result<Map<String, Value>, ReplyError> {
    let text = std::str::from_utf8(line).map_err(|_| ReplyError::NotUtf8)?;
    match serde_json::from_str(text) {
        Ok(Value::Object(object)) => Ok(object),
        Ok(_) => Err(ReplyError::NotAnObject),
        Err(error) => Err(ReplyError::NotJson(error.to_string())),
    }
}

fn expect_type(object: &Map<String, Value>, expected: &'static str) -> Result<(), ReplyError> {
    match object.get("type") {
        Some(Value::String(kind)) if kind == expected => Ok(()),
        Some(other) => Err(ReplyError::WrongType {
            expected,
            got: other.to_string(),
        }),
        None => Err(ReplyError::WrongType {
            expected,
            got: "no \"type\"".into(),
        }),
    }
}

fn string_field<'a>(
    object: &'a Map<String, Value>,
    field: &'static str,
) -> Result<&'a str, ReplyError> {
    object
        .get(field)
        .and_then(Value::as_str)
        .ok_or(ReplyError::BadField {
            field,
            expected: "a string",
        })
}

/// Reads a port's hello reply.
pub fn parse_hello_reply(line: &[u8]) -> Result<HelloReply, ReplyError> {
    let object = parse_object(line)?;
    expect_type(&object, "hello")?;
    let protocol = object
        .get("protocol")
        .and_then(Value::as_u64)
        .ok_or(ReplyError::BadField {
            field: "protocol",
            expected: "an unsigned integer",
        })?;
    let implementation = object
        .get("implementation")
        .and_then(|value| serde_json::from_value(value.clone()).ok())
        .ok_or(ReplyError::BadField {
            field: "implementation",
            expected: "an object of strings name, language and version",
        })?;
    let operations = object
        .get("operations")
        .and_then(Value::as_array)
        .and_then(|items| {
            items
                .iter()
                .map(|item| item.as_str().map(str::to_owned))
                .collect::<Option<Vec<_>>>()
        })
        .ok_or(ReplyError::BadField {
            field: "operations",
            expected: "an array of strings",
        })?;
    Ok(HelloReply {
        protocol,
        implementation,
        operations,
    })
}

/// Reads a port's result line. The id is returned as sent; checking it
/// against the case is the caller's business.
pub fn parse_case_result(line: &[u8]) -> Result<CaseResult, ReplyError> {
    let object = parse_object(line)?;
    expect_type(&object, "result")?;
    let id = string_field(&object, "id")?.to_owned();
    let present: Vec<&str> = ["output", "error", "skipped"]
        .into_iter()
        .filter(|key| object.contains_key(*key))
        .collect();
    let outcome = match present.as_slice() {
        ["output"] => CaseOutcome::Output(object["output"].clone()),
        ["error"] => CaseOutcome::Error(serde_json::from_value(object["error"].clone()).map_err(
            |_| ReplyError::BadField {
                field: "error",
                expected: "an object with a string \"kind\" (and an optional string \"message\")",
            },
        )?),
        ["skipped"] => {
            CaseOutcome::Skipped(serde_json::from_value(object["skipped"].clone()).map_err(
                |_| ReplyError::BadField {
                    field: "skipped",
                    expected: "an object with a string \"reason\"",
                },
            )?)
        }
        other => return Err(ReplyError::OutcomeCount(other.len())),
    };
    Ok(CaseResult { id, outcome })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn upstream_keys_keep_a_crate_and_a_package_of_one_name_apart() {
        // The keys the vectors hold for prompty's crate and its Python
        // package; the diff once looked the package up under the crate's.
        let key = |language: &str| {
            ImplementationInfo {
                name: "prompty".into(),
                language: language.into(),
                version: "2.1.0".into(),
            }
            .upstream_key()
        };
        assert_eq!(key("rust"), "prompty@2.1.0");
        assert_eq!(key("python"), "prompty-python@2.1.0");
    }

    #[test]
    fn requests_have_the_documented_shape() {
        assert_eq!(
            Request::Hello { protocol: 1 }.to_line(),
            r#"{"type":"hello","protocol":1}"#
        );
        assert_eq!(Request::Bye.to_line(), r#"{"type":"bye"}"#);
        let case = Request::Case {
            id: "template-0001".into(),
            op: "template".into(),
            input: json!({"message": "x"}),
        };
        assert_eq!(
            case.to_line(),
            r#"{"type":"case","id":"template-0001","op":"template","input":{"message":"x"}}"#
        );
    }

    #[test]
    fn result_round_trips_through_its_line() {
        let result = CaseResult {
            id: "template-0002".into(),
            outcome: CaseOutcome::Error(ReportedError {
                kind: "bad_request".into(),
                message: "no message".into(),
            }),
        };
        assert_eq!(
            parse_case_result(result.to_line().as_bytes()),
            Ok(result.clone())
        );
    }

    #[test]
    fn replies_start_with_their_type() {
        let result = CaseResult {
            id: "template-0003".into(),
            outcome: CaseOutcome::Skipped(SkipReason { reason: "r".into() }),
        };
        assert_eq!(
            result.to_line(),
            r#"{"type":"result","id":"template-0003","skipped":{"reason":"r"}}"#
        );
        let hello = HelloReply {
            protocol: 1,
            implementation: ImplementationInfo {
                name: "n".into(),
                language: "l".into(),
                version: "v".into(),
            },
            operations: vec!["template".into()],
        };
        assert_eq!(
            hello.to_line(),
            r#"{"type":"hello","protocol":1,"implementation":{"name":"n","language":"l","version":"v"},"operations":["template"]}"#
        );
    }

    #[test]
    fn result_with_two_outcomes_is_rejected() {
        let line = br#"{"type":"result","id":"a","output":{},"skipped":{"reason":"x"}}"#;
        assert_eq!(parse_case_result(line), Err(ReplyError::OutcomeCount(2)));
    }

    #[test]
    fn result_without_id_is_rejected() {
        let line = br#"{"type":"result","output":{}}"#;
        assert!(matches!(
            parse_case_result(line),
            Err(ReplyError::BadField { field: "id", .. })
        ));
    }

    #[test]
    fn hello_reply_needs_string_operations() {
        let line = br#"{"type":"hello","protocol":1,"implementation":{"name":"n","language":"l","version":"v"},"operations":[1]}"#;
        assert!(matches!(
            parse_hello_reply(line),
            Err(ReplyError::BadField {
                field: "operations",
                ..
            })
        ));
    }

    #[test]
    fn a_reply_float_is_read_to_the_double_it_writes() {
        // Without serde_json's `float_roundtrip` the parse is off by an ulp
        // for some values, so a port writing the reference's own
        // 7e-23 read back as 7.000000000000001e-23 and disagreed
        // (found by `agentfence diff` against `agentfence port`).
        let line = br#"{"type":"result","id":"a","output":{"x":7e-23,"y":8e-54}}"#;
        let result = parse_case_result(line).expect("a valid result");
        assert_eq!(
            result.outcome,
            CaseOutcome::Output(json!({"x": 7e-23, "y": 8e-54}))
        );
        let CaseOutcome::Output(output) = result.outcome else {
            unreachable!("checked above")
        };
        assert_eq!(output["x"].as_f64(), Some(7e-23));
    }

    #[test]
    fn garbage_is_named_as_such() {
        assert_eq!(parse_case_result(b"\xff"), Err(ReplyError::NotUtf8));
        assert!(matches!(
            parse_case_result(b"ok"),
            Err(ReplyError::NotJson(_))
        ));
        assert_eq!(parse_case_result(b"[]"), Err(ReplyError::NotAnObject));
    }
}
