//! The JavaScript port (`conformance/ports/js/`) against every vector,
//! through the built `agentfence` binary, when `node` (Node.js 20 or later)
//! is on PATH. Without it every trial is reported as ignored, with the
//! reason on stderr, so a run without Node.js says what it did not check.
//!
//! The port announces the operations of the modules that load, so an
//! operation whose module is missing is skipped by the runner; a module
//! file that is present must load, or its operations would be skipped
//! silently and this test would prove nothing about them.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use libtest_mimic::{Arguments, Failed, Trial};
use serde_json::Value;

mod common;
use common::{agentfence, shell_quote, text};

/// A module of the port, the operations it must announce, and the vector
/// files whose every case it must then pass.
type Module = (
    &'static str,
    &'static [&'static str],
    &'static [&'static str],
);

const MODULES: [Module; 3] = [
    (
        "chat.js",
        &["chat_parse", "chat_pre_render", "chat_flow"],
        &["vectors/chat.json"],
    ),
    ("envelope.js", &["envelope"], &["vectors/envelope.json"]),
    ("template.js", &["template"], &["vectors/template.json"]),
];

fn port_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("ports/js")
}

fn script() -> PathBuf {
    port_dir().join("agentfence_port.js")
}

/// Why the port cannot run here, or `None` when `node` 20 or later starts.
fn node_missing() -> Option<String> {
    let probe = Command::new("node")
        .args([
            "-e",
            "process.exit(Number(process.versions.node.split('.')[0]) >= 20 ? 0 : 3)",
        ])
        .stdin(Stdio::null())
        .output();
    match probe {
        Err(error) => Some(format!("node does not start ({error})")),
        Ok(output) if output.status.code() == Some(3) => {
            Some("node is older than Node.js 20".to_string())
        }
        Ok(output) if !output.status.success() => {
            Some(format!("node fails: {}", text(&output.stderr).trim()))
        }
        Ok(_) => None,
    }
}

/// The modules whose file is present in the port's folder.
fn present_modules() -> Vec<Module> {
    MODULES
        .into_iter()
        .filter(|(module, _, _)| port_dir().join(module).exists())
        .collect()
}

/// The hello reply's `operations`.
fn announced_operations() -> Result<Vec<String>, Failed> {
    let mut child = Command::new("node")
        .arg(script())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|error| format!("node does not start the port: {error}"))?;
    child
        .stdin
        .take()
        .ok_or("stdin is not piped")?
        .write_all(b"{\"type\":\"hello\",\"protocol\":1}\n{\"type\":\"bye\"}\n")
        .map_err(|error| format!("the port does not read its stdin: {error}"))?;
    let output = child
        .wait_with_output()
        .map_err(|error| format!("the port does not exit: {error}"))?;
    let stdout = text(&output.stdout);
    let hello: Value =
        serde_json::from_str(stdout.lines().next().unwrap_or_default()).map_err(|error| {
            format!(
                "{error}: hello reply {stdout:?}\nstderr: {}",
                text(&output.stderr)
            )
        })?;
    if hello["type"] != "hello" || hello["protocol"] != 1 {
        return Err(format!("not a protocol 1 hello: {hello}").into());
    }
    if hello["implementation"]["name"] != "agentfence-js" {
        return Err(format!("another implementation answered: {hello}").into());
    }
    Ok(hello["operations"]
        .as_array()
        .ok_or_else(|| format!("no operations list: {hello}"))?
        .iter()
        .filter_map(|op| op.as_str().map(str::to_string))
        .collect())
}

fn every_present_module_announces_its_operations() -> Result<(), Failed> {
    let modules = present_modules();
    if !modules.iter().any(|(module, _, _)| *module == "chat.js")
        || !modules
            .iter()
            .any(|(module, _, _)| *module == "envelope.js")
    {
        return Err("the chat and envelope modules are part of the port and are missing".into());
    }
    let operations = announced_operations()?;
    for (module, ops, _) in modules {
        for op in ops {
            if !operations.iter().any(|announced| announced == op) {
                return Err(format!(
                    "{module} is present but the port does not announce {op} (announced: \
                     {operations:?}); run the port by hand to see why it did not load"
                )
                .into());
            }
        }
    }
    Ok(())
}

/// `P passed, F failed, S skipped` of the summary line of `file`.
fn tally_of(stdout: &str, file: &str) -> Option<(u64, u64, u64)> {
    let line = stdout
        .lines()
        .find(|line| line.starts_with("suite ") && line.contains(&format!("[embedded {file}]")))?;
    let counts = line.split(": ").nth(1)?;
    let mut numbers = counts
        .split(", ")
        .map(|part| part.split(' ').next().and_then(|n| n.parse::<u64>().ok()));
    Some((numbers.next()??, numbers.next()??, numbers.next()??))
}

fn js_port_passes_every_vector_of_its_modules() -> Result<(), Failed> {
    let port = format!("node {}", shell_quote(&script().to_string_lossy()));
    // A loaded test machine can take seconds per case; the timeout is for
    // hung ports, not slow ones.
    // Cases of a new suite version the port does not follow yet must fail
    // (not-yet-followed.txt lists them, today none); every other case must
    // pass.
    let behind = port_dir().join("not-yet-followed.txt");
    let behind = behind.to_string_lossy();
    let output = agentfence(&[
        "run",
        "--port",
        &port,
        "--timeout",
        "60",
        "--xfail",
        &behind,
    ]);
    let stdout = text(&output.stdout);
    if output.status.code() != Some(0) {
        return Err(format!(
            "the JavaScript port failed vectors:\n{stdout}\nstderr: {}",
            text(&output.stderr)
        )
        .into());
    }
    for (module, _, files) in present_modules() {
        for file in files {
            match tally_of(&stdout, file) {
                Some((passed, 0, 0)) if passed > 0 => {}
                tally => {
                    return Err(format!(
                        "{module}: {file} did not pass whole (passed, failed, skipped: \
                         {tally:?}):\n{stdout}"
                    )
                    .into());
                }
            }
        }
    }
    println!("{stdout}");
    Ok(())
}

/// The port computes the chat reader set's two TR39 folds itself, from
/// Unicode's confusables.txt and case folding (`skeleton.js`); they must
/// agree with the reference's (`ports/python/unicode_data.json`, from the
/// unicode-security and icu crates) on every code point Node's Unicode
/// assigns, where either reads as ASCII text or nothing. Two readers of
/// the same data written apart: a fault in either shows here.
fn js_tr39_folds_agree_with_the_references() -> Result<(), Failed> {
    let output = Command::new("node")
        .arg(port_dir().join("skeleton.js"))
        .output()
        .map_err(|error| format!("node skeleton.js did not start: {error}"))?;
    let stdout = text(&output.stdout);
    if !output.status.success() || !stdout.contains(" 0 assigned in Node's Unicode") {
        return Err(format!(
            "the JavaScript port's TR39 folds differ from the reference's:\n{stdout}\nstderr: {}",
            text(&output.stderr)
        )
        .into());
    }
    println!("{stdout}");
    Ok(())
}

fn main() {
    let arguments = Arguments::from_args();
    let missing = node_missing();
    if let Some(reason) = &missing {
        eprintln!("js_port: ignored: {reason}; the JavaScript port is not run");
    }
    let trial = |name: &str, test: fn() -> Result<(), Failed>| {
        let reason = missing.clone();
        Trial::test(name, move || match reason {
            // Only reached with --ignored: say why instead of passing.
            Some(reason) => Err(format!("cannot run: {reason}").into()),
            None => test(),
        })
        .with_ignored_flag(missing.is_some())
    };
    let trials = vec![
        trial(
            "every_present_module_announces_its_operations",
            every_present_module_announces_its_operations,
        ),
        trial(
            "js_port_passes_every_vector_of_its_modules",
            js_port_passes_every_vector_of_its_modules,
        ),
        trial(
            "js_tr39_folds_agree_with_the_references",
            js_tr39_folds_agree_with_the_references,
        ),
    ];
    libtest_mimic::run(&arguments, trials).exit();
}
