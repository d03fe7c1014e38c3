//! `agentfence port`: the embedded reference speaking protocol v1 on
//! stdin/stdout, so the runner (or anyone writing a port) can compare
//! against it exactly as against any other port.
//!
//! Every request line gets either one reply or a diagnostic on stderr; no
//! input makes it exit except `bye` or the end of stdin.

use std::io::{self, BufRead, Write};

use serde_json::Value;

use crate::outcome::Answer;
use crate::protocol::{
    CaseOutcome, CaseResult, HelloReply, PROTOCOL_VERSION, ReportedError, Request,
};
use crate::reference::{call_reference, reference_info};
use crate::suites::{ReferenceSuite, SuiteRegistry};

/// Error kinds the reference port answers for requests it cannot run; a
/// suite's own errors come with the suite's kinds.
pub mod error_kind {
    /// The case is malformed (missing fields, unknown operation, no suite
    /// message before it).
    pub const BAD_REQUEST: &str = "bad_request";
    /// The suite message before the case was rejected.
    pub const BAD_CONFIG: &str = "bad_config";
    /// The reference panicked.
    pub const INTERNAL: &str = "internal";
}

/// What to do with one request line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PortResponse {
    /// Write this line to stdout.
    Reply(String),
    /// Write this to stderr; nothing goes to stdout.
    Diagnostic(String),
    /// Nothing to say (a suite message, a blank line).
    Silent,
    /// The runner said bye.
    Bye,
}

struct ActiveSuite {
    name: String,
    reference: Result<Box<dyn ReferenceSuite>, String>,
}

/// The reference port's state between lines: the suite configured last.
pub struct PortServer<'r> {
    registry: &'r SuiteRegistry,
    active: Option<ActiveSuite>,
}

impl<'r> PortServer<'r> {
    pub fn new(registry: &'r SuiteRegistry) -> Self {
        PortServer {
            registry,
            active: None,
        }
    }

    pub fn hello(&self) -> HelloReply {
        HelloReply {
            protocol: PROTOCOL_VERSION,
            implementation: reference_info(),
            operations: self
                .registry
                .operations()
                .into_iter()
                .map(str::to_owned)
                .collect(),
        }
    }

    /// Answers one request line (without its newline).
    pub fn respond(&mut self, line: &[u8]) -> PortResponse {
        if line.iter().all(u8::is_ascii_whitespace) {
            return PortResponse::Silent;
        }
        let Ok(text) = std::str::from_utf8(line) else {
            return PortResponse::Diagnostic("the request is not UTF-8; ignored".into());
        };
        let value: Value = match serde_json::from_str(text) {
            Ok(value) => value,
            Err(error) => {
                return PortResponse::Diagnostic(format!(
                    "the request is not JSON ({error}); ignored"
                ));
            }
        };
        let kind = value.get("type").and_then(Value::as_str).unwrap_or("");
        match kind {
            "hello" => PortResponse::Reply(self.hello().to_line()),
            "bye" => PortResponse::Bye,
            "suite" => self.configure(value),
            "case" => self.answer_case(value),
            // Later protocol minor versions may add messages; a port that
            // does not know one leaves it unanswered.
            other => PortResponse::Diagnostic(format!("ignoring a message of type {other:?}")),
        }
    }

    fn configure(&mut self, value: Value) -> PortResponse {
        let (suite, config) = match serde_json::from_value(value) {
            Ok(Request::Suite { suite, config, .. }) => (suite, config),
            Ok(_) => return PortResponse::Diagnostic("a suite message that is not one".into()),
            Err(error) => {
                self.active = None;
                return PortResponse::Diagnostic(format!(
                    "malformed suite message ({error}); cases fail until the next one"
                ));
            }
        };
        let reference = match self.registry.find(&suite) {
            Some(known) => known.reference(&config).map_err(|error| error.to_string()),
            None => Err(format!("the reference has no suite {suite:?}")),
        };
        let response = match &reference {
            Ok(_) => PortResponse::Silent,
            Err(reason) => PortResponse::Diagnostic(format!(
                "suite {suite:?} rejected ({reason}); its cases will fail"
            )),
        };
        self.active = Some(ActiveSuite {
            name: suite,
            reference,
        });
        response
    }

    fn answer_case(&mut self, value: Value) -> PortResponse {
        let Some(id) = value.get("id").and_then(Value::as_str).map(str::to_owned) else {
            return PortResponse::Diagnostic("a case without a string id; ignored".into());
        };
        let error = |kind: &str, message: String| {
            PortResponse::Reply(
                CaseResult {
                    id: id.clone(),
                    outcome: CaseOutcome::Error(ReportedError {
                        kind: kind.into(),
                        message,
                    }),
                }
                .to_line(),
            )
        };
        let (op, input) = match serde_json::from_value(value.clone()) {
            Ok(Request::Case { op, input, .. }) => (op, input),
            Ok(_) | Err(_) => {
                return error(
                    error_kind::BAD_REQUEST,
                    "a case needs string fields id and op and a field input".into(),
                );
            }
        };
        let Some(suite) = self.registry.for_operation(&op) else {
            return error(
                error_kind::BAD_REQUEST,
                format!("no suite has operation {op:?}"),
            );
        };
        let active = match &self.active {
            Some(active) if active.name == suite.name() => active,
            _ => {
                return error(
                    error_kind::BAD_REQUEST,
                    format!(
                        "operation {op:?} needs a suite message for suite {:?} first",
                        suite.name()
                    ),
                );
            }
        };
        let reference = match &active.reference {
            Ok(reference) => reference,
            Err(reason) => return error(error_kind::BAD_CONFIG, reason.clone()),
        };
        let outcome = match call_reference(&**reference, &op, &input) {
            Answer::Replied(outcome) => outcome,
            Answer::Broken { reason } | Answer::NotSent { reason } => {
                return error(error_kind::INTERNAL, reason);
            }
        };
        PortResponse::Reply(CaseResult { id, outcome }.to_line())
    }
}

/// Serves requests from `input` until bye or end of input. Lines are read
/// as bytes so that a line that is not UTF-8 is reported, not fatal.
pub fn serve(
    registry: &SuiteRegistry,
    mut input: impl BufRead,
    mut output: impl Write,
    mut diagnostics: impl Write,
) -> io::Result<()> {
    let mut server = PortServer::new(registry);
    let mut line = Vec::new();
    for number in 1.. {
        line.clear();
        if input.read_until(b'\n', &mut line)? == 0 {
            return Ok(());
        }
        if line.last() == Some(&b'\n') {
            line.pop();
        }
        match server.respond(&line) {
            PortResponse::Reply(reply) => {
                writeln!(output, "{reply}")?;
                output.flush()?;
            }
            PortResponse::Diagnostic(message) => {
                // A closed stderr must not stop the answers on stdout.
                let _ = writeln!(
                    diagnostics,
                    "agentfence port: request line {number}: {message}"
                );
            }
            PortResponse::Silent => {}
            PortResponse::Bye => return Ok(()),
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::parse_case_result;
    use serde_json::json;

    fn reply(server: &mut PortServer<'_>, request: Value) -> PortResponse {
        server.respond(request.to_string().as_bytes())
    }

    fn result_of(response: PortResponse) -> CaseResult {
        match response {
            PortResponse::Reply(line) => {
                parse_case_result(line.as_bytes()).expect("the port writes valid results")
            }
            other => panic!("expected a reply, got {other:?}"),
        }
    }

    fn configure(server: &mut PortServer<'_>, words: &[&str]) -> PortResponse {
        reply(
            server,
            json!({"type": "suite", "suite": "template", "version": "1.0.0",
                   "config": {"vocabulary": words}}),
        )
    }

    fn case(id: &str, message: &str) -> Value {
        json!({"type": "case", "id": id, "op": "template", "input": {"message": message}})
    }

    #[test]
    fn hello_lists_every_operation() {
        let registry = SuiteRegistry::standard();
        let mut server = PortServer::new(&registry);
        let PortResponse::Reply(line) = reply(&mut server, json!({"type": "hello", "protocol": 1}))
        else {
            panic!("hello must be answered");
        };
        let hello = crate::protocol::parse_hello_reply(line.as_bytes()).expect("valid hello");
        assert_eq!(hello.protocol, 1);
        assert_eq!(hello.operations, registry.operations());
    }

    #[test]
    fn case_before_suite_is_a_bad_request() {
        let registry = SuiteRegistry::standard();
        let mut server = PortServer::new(&registry);
        let result = result_of(reply(&mut server, case("template-0001", "x")));
        assert_eq!(result.id, "template-0001");
        assert!(
            matches!(&result.outcome, CaseOutcome::Error(error) if error.kind == "bad_request"),
            "{result:?}"
        );
    }

    #[test]
    fn rejected_config_fails_cases_with_bad_config() {
        let registry = SuiteRegistry::standard();
        let mut server = PortServer::new(&registry);
        assert!(matches!(
            configure(&mut server, &["zebra", "apple"]),
            PortResponse::Diagnostic(_)
        ));
        let result = result_of(reply(&mut server, case("template-0002", "x")));
        assert!(
            matches!(&result.outcome, CaseOutcome::Error(error) if error.kind == "bad_config"),
            "{result:?}"
        );
    }

    #[test]
    fn configured_case_gets_an_output() {
        let registry = SuiteRegistry::standard();
        let mut server = PortServer::new(&registry);
        assert_eq!(
            configure(&mut server, &["file", "open"]),
            PortResponse::Silent
        );
        let result = result_of(reply(&mut server, case("template-0003", "open file")));
        assert!(
            matches!(result.outcome, CaseOutcome::Output(_)),
            "{result:?}"
        );
    }

    #[test]
    fn malformed_lines_are_diagnosed_not_fatal() {
        let registry = SuiteRegistry::standard();
        let mut server = PortServer::new(&registry);
        assert!(matches!(
            server.respond(b"\xff\xfe"),
            PortResponse::Diagnostic(_)
        ));
        assert!(matches!(
            server.respond(b"{oops"),
            PortResponse::Diagnostic(_)
        ));
        assert!(matches!(
            server.respond(br#"{"type":"case"}"#),
            PortResponse::Diagnostic(_)
        ));
        let result = result_of(server.respond(br#"{"type":"case","id":"template-0004"}"#));
        assert!(
            matches!(result.outcome, CaseOutcome::Error(_)),
            "{result:?}"
        );
    }

    #[test]
    fn serve_answers_until_bye() {
        let registry = SuiteRegistry::standard();
        let input = b"{\"type\":\"hello\",\"protocol\":1}\nnot json\n{\"type\":\"bye\"}\n{\"type\":\"hello\",\"protocol\":1}\n";
        let mut output = Vec::new();
        let mut diagnostics = Vec::new();
        serve(&registry, &input[..], &mut output, &mut diagnostics).expect("in-memory I/O");
        let output = String::from_utf8(output).expect("UTF-8 replies");
        assert_eq!(output.lines().count(), 1, "{output}");
        let diagnostics = String::from_utf8(diagnostics).expect("UTF-8 diagnostics");
        assert!(diagnostics.contains("request line 2"), "{diagnostics}");
    }
}
