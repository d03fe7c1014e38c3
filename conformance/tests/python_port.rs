//! The Python port (`conformance/ports/python/`) against every vector,
//! through the built `agentfence` binary. Without `python3` (3.9 or later)
//! the trial ends as ignored with the reason printed beside it, so a
//! machine without Python shows the skip instead of a pass.
//!
//! The port announces the operations of the modules that import, so an
//! operation whose module is missing is skipped by the runner; a module
//! file that is present must import, or its operations would be skipped
//! silently and this test would prove nothing about them.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use libtest_mimic::{Arguments, Completion, Trial};
use serde_json::Value;

mod common;
use common::{agentfence, shell_quote, text};

fn port_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("ports/python")
}

/// Why the test cannot run here, or `None` when `python3` (3.9 or later)
/// is available.
fn python_missing() -> Option<String> {
    let probe = Command::new("python3")
        .args([
            "-c",
            "import sys; sys.exit(0 if sys.version_info >= (3, 9) else 3)",
        ])
        .stdin(Stdio::null())
        .output();
    match probe {
        Err(error) => Some(format!("python3 does not start ({error})")),
        Ok(output) if output.status.code() == Some(3) => {
            Some("python3 is older than 3.9".to_string())
        }
        Ok(output) if !output.status.success() => {
            Some(format!("python3 fails: {}", text(&output.stderr).trim()))
        }
        Ok(_) => None,
    }
}

/// The operations the port's hello announces.
fn announced_operations(script: &Path) -> Vec<String> {
    let mut child = Command::new("python3")
        .arg(script)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("python3 starts the port");
    child
        .stdin
        .take()
        .expect("stdin is piped")
        .write_all(b"{\"type\":\"hello\",\"protocol\":1}\n{\"type\":\"bye\"}\n")
        .expect("the port reads its stdin");
    let output = child.wait_with_output().expect("the port exits");
    let stdout = text(&output.stdout);
    let hello: Value = serde_json::from_str(stdout.lines().next().unwrap_or_default())
        .unwrap_or_else(|error| {
            panic!(
                "{error}: hello reply {stdout:?}\nstderr: {}",
                text(&output.stderr)
            )
        });
    assert_eq!(hello["type"], "hello", "{hello}");
    assert_eq!(hello["protocol"], 1, "{hello}");
    assert_eq!(
        hello["implementation"]["name"], "agentfence-python",
        "{hello}"
    );
    hello["operations"]
        .as_array()
        .unwrap_or_else(|| panic!("no operations list: {hello}"))
        .iter()
        .map(|op| op.as_str().expect("an operation is a string").to_string())
        .collect()
}

fn main() {
    let arguments = Arguments::from_args();
    let trials = vec![
        Trial::ignorable_test("python_port_passes_every_vector", || {
            if let Some(reason) = python_missing() {
                return Ok(Completion::ignored_with(format!(
                    "skipped: {reason}; the Python port is not run"
                )));
            }
            python_port_passes_every_vector();
            Ok(Completion::Completed)
        }),
        Trial::test("python_rule_table_is_the_references", || {
            python_rule_table_is_the_references();
            Ok(())
        }),
        Trial::test("python_lookalikes_are_the_references", || {
            python_lookalikes_are_the_references();
            Ok(())
        }),
        Trial::test("python_envelope_readings_are_the_references", || {
            python_envelope_readings_are_the_references();
            Ok(())
        }),
    ];
    libtest_mimic::run(&arguments, trials).exit();
}

fn python_port_passes_every_vector() {
    let dir = port_dir();
    let script = dir.join("agentfence_port.py");

    // Each module file present must load and announce its operations
    // (fetch is optional in web_port).
    let operations = announced_operations(&script);
    for (module, ops) in [
        ("template_port.py", &["template"][..]),
        (
            "chat_port.py",
            &["chat_parse", "chat_pre_render", "chat_flow"][..],
        ),
        ("web_port.py", &["strip", "envelope"][..]),
    ] {
        if !dir.join(module).exists() {
            assert_ne!(module, "template_port.py", "the template module is missing");
            println!("{module} is not there yet: its operations are skipped");
            continue;
        }
        for op in ops {
            assert!(
                operations.iter().any(|announced| announced == op),
                "{module} is present but the port does not announce {op} \
                 (announced: {operations:?}); run the port by hand to see why it did not load"
            );
        }
    }

    let port = format!("python3 {}", shell_quote(&script.to_string_lossy()));
    // A loaded test machine can take seconds per case; the timeout is for
    // hung ports, not slow ones.
    let output = agentfence(&["run", "--port", &port, "--timeout", "60"]);
    let stdout = text(&output.stdout);
    assert_eq!(
        output.status.code(),
        Some(0),
        "the Python port failed vectors:\n{stdout}\nstderr: {}",
        text(&output.stderr)
    );
    let total = stdout.lines().last().unwrap_or_default();
    assert!(
        total.contains(" passed, 0 failed"),
        "unexpected closing line {total:?}:\n{stdout}"
    );
    assert!(
        stdout.contains("suite template ") && !total.starts_with("0 passed"),
        "no vector ran:\n{stdout}"
    );
    println!("{stdout}");
}

/// `file` in the port's folder holds `current`, what `command` prints.
fn port_copy_is_current(file: &str, current: serde_json::Value, command: &str) {
    let path = port_dir().join(file);
    let committed: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(&path)
            .unwrap_or_else(|error| panic!("{} unreadable: {error}", path.display())),
    )
    .unwrap_or_else(|error| panic!("{} is not JSON: {error}", path.display()));
    assert!(
        committed == current,
        "{} is stale: regenerate it with `agentfence {command} > {}`",
        path.display(),
        path.display()
    );
}

/// The port's copy of the strip rule table is the reference's: a rule
/// changed in Rust must be exported again for the port, or its strip answers
/// drift from the vectors the next time they are regenerated.
fn python_rule_table_is_the_references() {
    let current = serde_json::to_value(agentfence::web::strip::rules::table())
        .expect("the rule table serializes: it holds strings and options only");
    port_copy_is_current("strip_rules.json", current, "web rules");
}

/// The port's copy of the strip view's look-alikes is the reference's: a
/// change of Unicode's confusables data or of decancer (a crate update)
/// must be exported again, or the port reads other letters.
fn python_lookalikes_are_the_references() {
    let current: serde_json::Map<String, serde_json::Value> =
        agentfence::web::strip::lookalike_table()
            .into_iter()
            .map(|(c, reading)| (c.to_string(), serde_json::Value::String(reading)))
            .collect();
    port_copy_is_current("strip_lookalikes.json", current.into(), "web lookalikes");
}

/// The port's copy of the envelope's character classes is the reference's:
/// a change of Unicode data (a crate update) must be exported again, or the
/// port's body escape drifts from the reference's.
fn python_envelope_readings_are_the_references() {
    let current = serde_json::to_value(agentfence::web::envelope::reading_table())
        .expect("the table serializes: it holds a string and number pairs");
    port_copy_is_current("envelope_readings.json", current, "web readings");
}
