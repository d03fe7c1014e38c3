//! The JSON Schemas of protocol v1 (`conformance/schema/protocol/`) hold
//! for what is really on the wire: every line the runner writes in a whole
//! run and every line the reference port (`agentfence port`) answers, as
//! recorded between them; the reference port's error replies; and the
//! example session of `PROTOCOL.md`. Hand-written broken messages must be
//! rejected, and where the schema rejects a reply the runner refuses it too.

use std::collections::BTreeSet;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use agentfence_conformance::loader;
use agentfence_conformance::protocol::{PROTOCOL_VERSION, parse_case_result, parse_hello_reply};
use agentfence_conformance::suites::SuiteRegistry;
use jsonschema::Validator;
use serde_json::{Value, json};

mod common;
use common::{BIN, shell_quote, text};

fn protocol_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("schema/protocol")
}

/// One message schema: its file name, the JSON and its validator.
struct Schema {
    name: &'static str,
    json: Value,
    validator: Validator,
}

impl Schema {
    fn load(name: &'static str) -> Schema {
        let path = protocol_dir().join(name);
        let text = std::fs::read_to_string(&path)
            .unwrap_or_else(|error| panic!("cannot read {}: {error}", path.display()));
        let json: Value = serde_json::from_str(&text).expect("a schema is JSON");
        let validator = jsonschema::validator_for(&json)
            .unwrap_or_else(|error| panic!("cannot compile {name}: {error}"));
        Schema {
            name,
            json,
            validator,
        }
    }

    fn errors(&self, message: &Value) -> Vec<String> {
        self.validator
            .iter_errors(message)
            .map(|error| format!("at {}: {error}", error.instance_path()))
            .collect()
    }

    /// Asserts that `message` is valid and declares no key the schema does
    /// not list, so the schema documents every field really sent.
    fn assert_holds(&self, message: &Value, context: &str) {
        let errors = self.errors(message);
        assert!(
            errors.is_empty(),
            "{context}: {message} breaks {}:\n  {}",
            self.name,
            errors.join("\n  ")
        );
        let mut undeclared = Vec::new();
        undeclared_keys(&self.json, message, "", &mut undeclared);
        assert!(
            undeclared.is_empty(),
            "{context}: {message} has keys {} does not list: {undeclared:?}",
            self.name
        );
    }
}

/// Keys of `instance` that a schema with `properties` does not name.
fn undeclared_keys(schema: &Value, instance: &Value, path: &str, found: &mut Vec<String>) {
    let (Some(properties), Some(object)) = (
        schema.get("properties").and_then(Value::as_object),
        instance.as_object(),
    ) else {
        return;
    };
    for (key, value) in object {
        match properties.get(key) {
            Some(inner) => undeclared_keys(inner, value, &format!("{path}/{key}"), found),
            None => found.push(format!("{path}/{key}")),
        }
    }
}

struct Schemas {
    hello_request: Schema,
    hello_reply: Schema,
    suite: Schema,
    case: Schema,
    result: Schema,
    bye: Schema,
}

impl Schemas {
    fn load() -> Schemas {
        Schemas {
            hello_request: Schema::load("hello-request.schema.json"),
            hello_reply: Schema::load("hello-reply.schema.json"),
            suite: Schema::load("suite.schema.json"),
            case: Schema::load("case.schema.json"),
            result: Schema::load("result.schema.json"),
            bye: Schema::load("bye.schema.json"),
        }
    }

    /// The schema of a runner → port message, by its type.
    fn request(&self, message: &Value) -> &Schema {
        match message["type"].as_str() {
            Some("hello") => &self.hello_request,
            Some("suite") => &self.suite,
            Some("case") => &self.case,
            Some("bye") => &self.bye,
            _ => panic!("a request of no known type: {message}"),
        }
    }
}

/// The lines of a JSON-lines file: each a JSON object, each ended by `\n`.
fn json_lines(path: &Path) -> Vec<Value> {
    let text = std::fs::read_to_string(path)
        .unwrap_or_else(|error| panic!("cannot read {}: {error}", path.display()));
    assert!(
        text.ends_with('\n'),
        "{} does not end a line",
        path.display()
    );
    text.lines()
        .map(|line| {
            let value: Value = serde_json::from_str(line)
                .unwrap_or_else(|error| panic!("not JSON ({error}): {line}"));
            assert!(value.is_object(), "not an object: {line}");
            value
        })
        .collect()
}

fn embedded_cases() -> (usize, usize) {
    let vectors = loader::embedded(&SuiteRegistry::standard()).expect("the vectors load");
    (vectors.files.len(), vectors.cases().count())
}

#[test]
fn a_whole_run_keeps_the_schemas_both_ways() {
    let schemas = Schemas::load();
    let dir = tempfile::tempdir().expect("a temp dir");
    let requests = dir.path().join("requests.jsonl");
    let replies = dir.path().join("replies.jsonl");
    // The reference port between two tees: what it reads and what it
    // writes, byte for byte.
    let port = format!(
        "tee {} | {} port | tee {}",
        shell_quote(&requests.to_string_lossy()),
        shell_quote(BIN),
        shell_quote(&replies.to_string_lossy())
    );
    let output = Command::new(BIN)
        .args(["run", "--port", &port, "--timeout", "60"])
        .current_dir(dir.path())
        .output()
        .expect("agentfence runs");
    let stdout = text(&output.stdout);
    assert_eq!(output.status.code(), Some(0), "{stdout}");

    let (files, cases) = embedded_cases();
    let requests = json_lines(&requests);
    let mut types = Vec::new();
    for (index, request) in requests.iter().enumerate() {
        schemas
            .request(request)
            .assert_holds(request, &format!("request line {}", index + 1));
        types.push(request["type"].as_str().unwrap_or_default().to_owned());
    }
    let count = |kind: &str| types.iter().filter(|t| *t == kind).count();
    assert_eq!(types.first().map(String::as_str), Some("hello"));
    assert_eq!(types.last().map(String::as_str), Some("bye"));
    assert_eq!(
        (count("hello"), count("suite"), count("case"), count("bye")),
        (1, files, cases, 1),
        "one session without a restart"
    );

    let replies = json_lines(&replies);
    schemas
        .hello_reply
        .assert_holds(&replies[0], "reply line 1");
    let case_ids: Vec<&Value> = requests
        .iter()
        .filter(|request| request["type"] == "case")
        .map(|request| &request["id"])
        .collect();
    assert_eq!(replies.len(), cases + 1);
    let mut outcomes = BTreeSet::new();
    for (index, (reply, id)) in replies[1..].iter().zip(&case_ids).enumerate() {
        schemas
            .result
            .assert_holds(reply, &format!("reply line {}", index + 2));
        assert_eq!(&reply["id"], *id, "replies come in the order of the cases");
        for outcome in ["output", "error", "skipped"] {
            if reply.get(outcome).is_some() {
                outcomes.insert(outcome);
            }
        }
    }
    assert_eq!(
        outcomes,
        BTreeSet::from(["error", "output"]),
        "the run saw outputs and errors"
    );
}

/// Sends `lines` to `agentfence port` and returns what it answers.
fn reference_port(lines: &[Value]) -> Vec<Value> {
    let mut child = Command::new(BIN)
        .arg("port")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("agentfence port starts");
    let mut stdin = child.stdin.take().expect("piped");
    for line in lines {
        writeln!(stdin, "{line}").expect("the port reads");
    }
    drop(stdin);
    let output = child.wait_with_output().expect("the port exits");
    text(&output.stdout)
        .lines()
        .map(|line| serde_json::from_str(line).expect("the port answers JSON"))
        .collect()
}

#[test]
fn reference_port_error_replies_keep_the_result_schema() {
    let schemas = Schemas::load();
    let case = |id: &str, op: &str, input: Value| json!({"type": "case", "id": id, "op": op, "input": input});
    let replies = reference_port(&[
        json!({"type": "hello", "protocol": 1}),
        case("template-0001", "template", json!({"message": "x"})),
        json!({"type": "suite", "suite": "template", "version": "1.0.0", "config": {}}),
        case("template-0002", "template", json!({"message": "x"})),
        json!({"type": "suite", "suite": "chat", "version": "1.1.0", "config": {}}),
        case("chat-0001", "no_such_op", json!({})),
        case("chat-0002", "chat_parse", json!({"rendered": 5})),
        case(
            "chat-0003",
            "chat_parse",
            json!({"rendered": "user:\nhi", "context": {"nonce": "n", "markers": 1}}),
        ),
        case("chat-0004", "chat_parse", json!({"rendered": "user:\nhi"})),
        json!({"type": "mystery"}),
        json!({"type": "bye"}),
    ]);
    schemas.hello_reply.assert_holds(&replies[0], "hello");
    let kinds: Vec<&str> = replies[1..]
        .iter()
        .map(|reply| {
            schemas.result.assert_holds(reply, "reference reply");
            reply["error"]["kind"].as_str().unwrap_or("(output)")
        })
        .collect();
    assert_eq!(
        kinds,
        [
            "bad_request",
            "bad_config",
            "bad_request",
            "bad_request",
            "nonce_mismatch",
            "(output)"
        ]
    );
}

#[test]
fn protocol_md_example_session_keeps_the_schemas() {
    let schemas = Schemas::load();
    let protocol =
        std::fs::read_to_string(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("PROTOCOL.md"))
            .expect("PROTOCOL.md exists");
    let mut seen = (0, 0);
    for line in protocol.lines() {
        if let Some(request) = line.strip_prefix("> {") {
            let message: Value = serde_json::from_str(&format!("{{{request}"))
                .unwrap_or_else(|error| panic!("PROTOCOL.md: {error}: {line}"));
            schemas
                .request(&message)
                .assert_holds(&message, "PROTOCOL.md");
            seen.0 += 1;
        } else if let Some(reply) = line.strip_prefix("< {") {
            let message: Value = serde_json::from_str(&format!("{{{reply}"))
                .unwrap_or_else(|error| panic!("PROTOCOL.md: {error}: {line}"));
            let schema = if message["type"] == "hello" {
                &schemas.hello_reply
            } else {
                &schemas.result
            };
            schema.assert_holds(&message, "PROTOCOL.md");
            seen.1 += 1;
        }
    }
    assert!(
        seen.0 > 5 && seen.1 > 3,
        "the example session was found: {seen:?}"
    );
}

#[test]
fn well_formed_messages_are_accepted() {
    let schemas = Schemas::load();
    let accepted = [
        (
            &schemas.hello_request,
            json!({"type": "hello", "protocol": 1, "later": "ignored"}),
        ),
        (
            &schemas.suite,
            json!({"type": "suite", "suite": "template", "version": "1.0.0", "config": {"vocabulary": ["can't", "file", "found"]}}),
        ),
        (
            &schemas.suite,
            json!({"type": "suite", "suite": "web", "version": "1.0.0", "config": {}}),
        ),
        (
            &schemas.case,
            json!({"type": "case", "id": "web-1001", "op": "strip", "input": {"text": "x"}}),
        ),
        (&schemas.bye, json!({"type": "bye"})),
        (
            &schemas.hello_reply,
            json!({"type": "hello", "protocol": 1, "implementation": {"name": "n", "language": "l", "version": "v", "url": "extra"}, "operations": []}),
        ),
        (
            &schemas.result,
            json!({"type": "result", "id": "chat-0001", "skipped": {"reason": "not yet"}}),
        ),
        (
            &schemas.result,
            json!({"type": "result", "id": "chat-0001", "error": {"kind": "nonce_mismatch"}}),
        ),
        (
            &schemas.result,
            json!({"type": "result", "id": "chat-0001", "output": {}, "took_ms": 3}),
        ),
    ];
    for (schema, message) in accepted {
        let errors = schema.errors(&message);
        assert!(
            errors.is_empty(),
            "{} rejects {message}: {errors:?}",
            schema.name
        );
    }
    for reply in [
        json!({"type": "result", "id": "chat-0001", "skipped": {"reason": "not yet"}}),
        json!({"type": "result", "id": "chat-0001", "error": {"kind": "nonce_mismatch"}}),
    ] {
        assert!(
            parse_case_result(reply.to_string().as_bytes()).is_ok(),
            "{reply}"
        );
    }
}

/// Whether the runner refuses a hello reply: it cannot read it, or it
/// names another protocol version.
fn runner_refuses_hello(message: &Value) -> bool {
    parse_hello_reply(message.to_string().as_bytes())
        .map_or(true, |hello| hello.protocol != PROTOCOL_VERSION)
}

fn runner_refuses_result(message: &Value) -> bool {
    parse_case_result(message.to_string().as_bytes()).is_err()
}

#[test]
fn broken_messages_are_rejected() {
    let schemas = Schemas::load();
    let requests = [
        (
            &schemas.hello_request,
            json!({"type": "hello", "protocol": 2}),
            "another version",
        ),
        (
            &schemas.hello_request,
            json!({"type": "hello", "protocol": "1"}),
            "a version as a string",
        ),
        (
            &schemas.hello_request,
            json!({"type": "hello"}),
            "no version",
        ),
        (
            &schemas.hello_request,
            json!({"type": "Hello", "protocol": 1}),
            "a type in another case",
        ),
        (
            &schemas.suite,
            json!({"type": "suite", "suite": "chat", "version": "1.1.0"}),
            "no config",
        ),
        (
            &schemas.suite,
            json!({"type": "suite", "suite": "chat", "version": "1.1.0", "config": []}),
            "a config that is no object",
        ),
        (
            &schemas.suite,
            json!({"type": "suite", "suite": "chat", "version": "1.1", "config": {}}),
            "a version of two parts",
        ),
        (
            &schemas.suite,
            json!({"type": "suite", "suite": "template", "version": "1.0.0", "config": {}}),
            "a template suite without vocabulary",
        ),
        (
            &schemas.suite,
            json!({"type": "suite", "suite": "template", "version": "1.0.0", "config": {"vocabulary": ["FILE"]}}),
            "a vocabulary word in capitals (a name line is one capital then lowercase)",
        ),
        (
            &schemas.case,
            json!({"type": "case", "op": "strip", "input": {}}),
            "no id",
        ),
        (
            &schemas.case,
            json!({"type": "case", "id": 5, "op": "strip", "input": {}}),
            "a numeric id",
        ),
        (
            &schemas.case,
            json!({"type": "case", "id": "web-1", "op": "strip", "input": {}}),
            "an id without four digits",
        ),
        (
            &schemas.case,
            json!({"type": "case", "id": "web-1001", "input": {}}),
            "no op",
        ),
        (
            &schemas.case,
            json!({"type": "case", "id": "web-1001", "op": "strip", "input": "text"}),
            "an input that is no object",
        ),
        (&schemas.bye, json!({"type": "goodbye"}), "another type"),
    ];
    for (schema, message, what) in requests {
        assert!(
            !schema.errors(&message).is_empty(),
            "{} accepts {what}: {message}",
            schema.name
        );
    }

    let implementation = json!({"name": "n", "language": "l", "version": "v"});
    let hello = |change: fn(&mut Value)| {
        let mut message = json!({"type": "hello", "protocol": 1, "implementation": implementation, "operations": ["strip"]});
        change(&mut message);
        message
    };
    let hello_replies = [
        (hello(|m| m["protocol"] = json!(2)), "another version"),
        (hello(|m| m["type"] = json!("result")), "another type"),
        (
            hello(|m| {
                m.as_object_mut().map(|o| o.remove("implementation"));
            }),
            "no implementation",
        ),
        (
            hello(|m| m["implementation"]["version"] = json!(1)),
            "a numeric implementation version",
        ),
        (
            hello(|m| {
                m["implementation"]
                    .as_object_mut()
                    .map(|o| o.remove("language"));
            }),
            "no language",
        ),
        (
            hello(|m| m["operations"] = json!("strip")),
            "operations that are no array",
        ),
        (
            hello(|m| m["operations"] = json!([1])),
            "a numeric operation",
        ),
    ];
    for (message, what) in hello_replies {
        assert!(
            !schemas.hello_reply.errors(&message).is_empty(),
            "the hello reply schema accepts {what}: {message}"
        );
        assert!(
            runner_refuses_hello(&message),
            "the runner accepts {what}: {message}"
        );
    }

    let results = [
        (
            json!({"type": "result", "id": "a", "output": {}, "error": {"kind": "x"}}),
            "two outcomes",
            true,
        ),
        (json!({"type": "result", "id": "a"}), "no outcome", true),
        (json!({"type": "result", "output": {}}), "no id", true),
        (
            json!({"type": "result", "id": 1, "output": {}}),
            "a numeric id",
            true,
        ),
        (
            json!({"type": "hello", "id": "a", "output": {}}),
            "another type",
            true,
        ),
        (
            json!({"type": "result", "id": "a", "error": {"message": "m"}}),
            "an error without kind",
            true,
        ),
        (
            json!({"type": "result", "id": "a", "error": {"kind": 3}}),
            "a numeric kind",
            true,
        ),
        (
            json!({"type": "result", "id": "a", "error": {"kind": "x", "message": 3}}),
            "a numeric message",
            true,
        ),
        (
            json!({"type": "result", "id": "a", "skipped": {}}),
            "a skip without reason",
            true,
        ),
        (
            json!({"type": "result", "id": "a", "skipped": "later"}),
            "a skip that is no object",
            true,
        ),
        // Read by the runner, and failed when judged: no vector expects
        // either.
        (
            json!({"type": "result", "id": "a", "output": "text"}),
            "an output that is no object",
            false,
        ),
        (
            json!({"type": "result", "id": "a", "error": {"kind": "Nonce Mismatch"}}),
            "a kind that is not snake_case",
            false,
        ),
    ];
    for (message, what, refused) in results {
        assert!(
            !schemas.result.errors(&message).is_empty(),
            "the result schema accepts {what}: {message}"
        );
        assert_eq!(
            runner_refuses_result(&message),
            refused,
            "the runner's reading of {what}: {message}"
        );
    }
}
