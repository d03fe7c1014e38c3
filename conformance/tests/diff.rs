//! `agentfence diff` end to end, through the built binary: the reference's
//! own port agrees with the reference on generated cases of every suite; a
//! port with one rule broken (tests/data/digits_port.py: a number of the
//! message leaks into the template) is found, and its case minimised to a
//! short message; a seed always gives the same report; and a fault a
//! vector records for the port is known by rule (exit 0) while a second,
//! unrecorded one is not (exit 1), nor the first under
//! `--known-by-input-only`.
//!
//! The broken port is a Python script; without `python3` those trials end
//! as ignored with the reason beside them.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use libtest_mimic::{Arguments, Completion, Failed, Trial};
use serde_json::Value;

mod common;
use common::{BIN, shell_quote, text};

/// Cases per suite the reference's own port must agree on: 10,000 as the
/// issue asks in a release build (`cargo test --release`); 3,000 in a debug
/// build, where 10,000 per suite took 82 s of wall time for the three
/// trials in parallel on the shared 2-core machine (template 20 s, chat
/// 26 s, web 30 s each alone), too long for every `cargo test`.
const AGREEING_CASES: u64 = if cfg!(debug_assertions) {
    3_000
} else {
    10_000
};

fn diff(args: &[&str]) -> Output {
    Command::new(BIN)
        .arg("diff")
        .args(args)
        .current_dir(std::env::temp_dir())
        .stdin(Stdio::null())
        .output()
        .expect("the agentfence binary runs")
}

fn reference_port() -> String {
    format!("{} port", shell_quote(BIN))
}

fn digits_port() -> String {
    digits_port_with("")
}

/// The digits port with `flags` (`--also-email-kind`) before the
/// reference's command.
fn digits_port_with(flags: &str) -> String {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/digits_port.py");
    format!(
        "python3 {} {flags} {} port",
        shell_quote(&script.to_string_lossy()),
        shell_quote(BIN)
    )
}

fn python_missing() -> Option<String> {
    match Command::new("python3")
        .args([
            "-c",
            "import sys; sys.exit(0 if sys.version_info >= (3, 9) else 3)",
        ])
        .stdin(Stdio::null())
        .output()
    {
        Err(error) => Some(format!("python3 does not start ({error})")),
        Ok(output) if !output.status.success() => Some("python3 3.9 or later is missing".into()),
        Ok(_) => None,
    }
}

fn read_json(path: &Path) -> Value {
    let text = std::fs::read_to_string(path)
        .unwrap_or_else(|error| panic!("cannot read {}: {error}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|error| panic!("{}: {error}", path.display()))
}

fn explain(output: &Output) -> String {
    format!(
        "exit {:?}\nstdout:\n{}\nstderr:\n{}",
        output.status.code(),
        text(&output.stdout),
        text(&output.stderr)
    )
}

fn reference_port_agrees_on(suite: &str) -> Result<(), Failed> {
    let dir = tempfile::tempdir()?;
    let report_path = dir.path().join("report.json");
    let cases = AGREEING_CASES.to_string();
    let output = diff(&[
        "--port",
        &reference_port(),
        "--suite",
        suite,
        "--cases",
        &cases,
        "--report",
        &report_path.to_string_lossy(),
    ]);
    if output.status.code() != Some(0) {
        return Err(explain(&output).into());
    }
    let report = read_json(&report_path);
    let sent: u64 = report["sent"]
        .as_object()
        .map(|sent| sent.values().filter_map(Value::as_u64).sum())
        .unwrap_or_default();
    if sent != AGREEING_CASES {
        return Err(format!("sent {sent} cases, not {AGREEING_CASES}: {report}").into());
    }
    if report["groups"] != Value::Array(Vec::new())
        || report["reference_faults"] != Value::Array(Vec::new())
    {
        return Err(format!("disagreements: {report}").into());
    }
    Ok(())
}

/// The ids `TODO-template-N` of a written vector file replaced by free
/// ones and the descriptions filled in, as an author would.
fn filled_in(vectors: &Path, into: &Path) {
    let mut file = read_json(vectors);
    let cases = file["cases"].as_array_mut().expect("a cases array");
    assert!(!cases.is_empty(), "the file holds the minimised cases");
    for (index, case) in cases.iter_mut().enumerate() {
        assert_eq!(case["id"], format!("TODO-template-{}", index + 1));
        assert_eq!(case["description"], "TODO: describe");
        case["id"] = Value::String(format!("template-{}", 9901 + index));
        case["description"] = Value::String("a number leaks".into());
    }
    std::fs::write(into, file.to_string()).expect("the filled-in file is written");
}

fn run_vectors(port: Option<&str>, vectors: &Path) -> Output {
    let mut command = Command::new(BIN);
    command.args([
        "run",
        "--vectors",
        &vectors.to_string_lossy(),
        "--id",
        "template-99*",
    ]);
    if let Some(port) = port {
        command.args(["--port", port]);
    }
    command
        .current_dir(std::env::temp_dir())
        .output()
        .expect("the agentfence binary runs")
}

fn a_leaking_port_is_found_and_minimised() -> Result<(), Failed> {
    let dir = tempfile::tempdir()?;
    let (report_path, vectors) = (
        dir.path().join("report.json"),
        dir.path().join("found.json"),
    );
    let output = diff(&[
        "--port",
        &digits_port(),
        "--suite",
        "template",
        "--cases",
        "2000",
        "--report",
        &report_path.to_string_lossy(),
        "--out",
        &vectors.to_string_lossy(),
    ]);
    if output.status.code() != Some(1) {
        return Err(format!("expected exit 1 (a disagreement)\n{}", explain(&output)).into());
    }
    let report = read_json(&report_path);
    let groups = report["groups"].as_array().cloned().unwrap_or_default();
    let fields: Vec<&str> = groups.iter().filter_map(|g| g["field"].as_str()).collect();
    if fields != ["output.template"] {
        return Err(format!("one group, on the template, was expected: {fields:?}").into());
    }
    for example in groups[0]["examples"].as_array().into_iter().flatten() {
        let message = example["input"]["message"].as_str().unwrap_or_default();
        let expected = example["expected"]["template"].as_str().unwrap_or_default();
        let leaked = example["answer"]["replied"]["output"]["template"]
            .as_str()
            .unwrap_or_default();
        if message.chars().count() > 40 || !message.chars().any(|c| c.is_ascii_digit()) {
            return Err(format!("not a short message with a number: {message:?}").into());
        }
        if !expected.contains('‹') || !leaked.chars().any(|c| c.is_ascii_digit()) {
            return Err(format!("{message:?}: expected {expected:?}, port {leaked:?}").into());
        }
    }
    // The vector file is canonical, and once its ids and descriptions are
    // filled in, the runner takes it: the reference passes it and the
    // broken port fails it.
    let check = Command::new(BIN)
        .args(["vectors", "check", &vectors.to_string_lossy()])
        .output()?;
    if !check.status.success() {
        return Err(format!("not canonical:\n{}", explain(&check)).into());
    }
    let filled = dir.path().join("filled.json");
    filled_in(&vectors, &filled);
    let by_reference = run_vectors(None, &filled);
    if by_reference.status.code() != Some(0) {
        return Err(format!(
            "the reference fails the found vectors:\n{}",
            explain(&by_reference)
        )
        .into());
    }
    let by_port = run_vectors(Some(&digits_port()), &filled);
    if by_port.status.code() != Some(1) {
        return Err(format!(
            "the broken port passes the found vectors:\n{}",
            explain(&by_port)
        )
        .into());
    }
    Ok(())
}

/// stdout and the vector file of a diff of the broken port under `seed`.
fn seeded_run(seed: &str, dir: &Path) -> (String, String) {
    let vectors: PathBuf = dir.join(format!("seed-{seed}.json"));
    let output = diff(&[
        "--port",
        &digits_port(),
        "--suite",
        "template",
        "--cases",
        "600",
        "--seed",
        seed,
        "--out",
        &vectors.to_string_lossy(),
    ]);
    assert_eq!(output.status.code(), Some(1), "{}", explain(&output));
    let file = std::fs::read_to_string(&vectors).expect("the vector file is written");
    (text(&output.stdout), file)
}

fn the_same_seed_gives_the_same_report() -> Result<(), Failed> {
    let dir = tempfile::tempdir()?;
    let first = seeded_run("7", dir.path());
    let again = seeded_run("7", dir.path());
    if first != again {
        return Err(format!("seed 7 twice:\n{}\n---\n{}", first.0, again.0).into());
    }
    let other = seeded_run("8", dir.path());
    if other.0 == first.0 {
        return Err("seeds 7 and 8 printed the same report: the seed is not used".into());
    }
    Ok(())
}

fn usage_and_port_errors_exit_2() -> Result<(), Failed> {
    let port = reference_port();
    let cases: &[(&[&str], &str)] = &[
        (
            &["--port", &port, "--out", "x.json"],
            "--out writes one vector file",
        ),
        (&["--port", &port, "--suite", "nope"], "no suite \"nope\""),
        (&["--port", &port, "--op", "fetch"], "operation \"fetch\""),
        (&["--port", "exit 3"], "exited before answering hello"),
    ];
    for (args, named) in cases {
        let output = diff(args);
        let stderr = text(&output.stderr);
        if output.status.code() != Some(2) || !stderr.contains(named) {
            return Err(format!(
                "{args:?}: expected exit 2 naming {named:?}\n{}",
                explain(&output)
            )
            .into());
        }
    }
    Ok(())
}

/// The digits port's fault recorded as vectors, as an author would record
/// an upstream's answers: the vectors a diff under seed 1 writes, ids and
/// descriptions filled in, in `dir/recorded.json` (a name no embedded file
/// has, so it adds to them). Returns the path and the ids.
fn recorded_fault(dir: &Path) -> Result<(PathBuf, Vec<String>), Failed> {
    let found = dir.join("found.json");
    let output = diff(&[
        "--port",
        &digits_port(),
        "--suite",
        "template",
        "--cases",
        "600",
        "--out",
        &found.to_string_lossy(),
    ]);
    if output.status.code() != Some(1) {
        return Err(format!("recording the fault: expected exit 1\n{}", explain(&output)).into());
    }
    let recorded = dir.join("recorded.json");
    filled_in(&found, &recorded);
    let ids = read_json(&recorded)["cases"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|case| case["id"].as_str().map(str::to_owned))
        .collect();
    Ok((recorded, ids))
}

/// A diff of `port` under seed 2 (other inputs than the recording's) with
/// the recorded vectors and `more` arguments: its output and JSON report.
fn diff_with_recorded(port: &str, recorded: &Path, more: &[&str]) -> (Output, Value) {
    let dir = recorded.parent().expect("the file is in a directory");
    let report_path = dir.join("report.json");
    let _ = std::fs::remove_file(&report_path);
    let mut args = vec![
        "--port", port, "--suite", "template", "--cases", "1000", "--seed", "2",
    ];
    let (recorded, report_arg) = (
        recorded.to_string_lossy().into_owned(),
        report_path.to_string_lossy().into_owned(),
    );
    args.extend(["--vectors", &recorded, "--report", &report_arg]);
    args.extend(more);
    let output = diff(&args);
    let report = read_json(&report_path);
    (output, report)
}

/// The report's group on `field`.
fn group_on<'a>(report: &'a Value, field: &str) -> Option<&'a Value> {
    report["groups"]
        .as_array()?
        .iter()
        .find(|group| group["field"] == field)
}

fn a_recorded_fault_is_known_by_rule() -> Result<(), Failed> {
    let dir = tempfile::tempdir()?;
    let (recorded, ids) = recorded_fault(dir.path())?;
    let out = dir.path().join("new.json");
    let (output, report) = diff_with_recorded(
        &digits_port(),
        &recorded,
        &["--out", &out.to_string_lossy()],
    );
    if output.status.code() != Some(0) {
        return Err(format!("expected exit 0 (known by rule)\n{}", explain(&output)).into());
    }
    let groups = report["groups"].as_array().cloned().unwrap_or_default();
    let group = match groups.as_slice() {
        [group] if group["field"] == "output.template" => group,
        _ => return Err(format!("one group, on the template, was expected: {report}").into()),
    };
    let rule: Vec<&str> = group["rule"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .collect();
    if rule.is_empty() || rule.iter().any(|id| !ids.iter().any(|known| known == id)) {
        return Err(format!("the rule names {rule:?}, the recorded vectors are {ids:?}").into());
    }
    let count = group["count"].as_u64().unwrap_or_default();
    let by_rule = group["known_by_rule"].as_u64().unwrap_or_default();
    let by_input = group["known_by_input"].as_u64().unwrap_or_default();
    if by_rule == 0 || group["unknown"] != 0 || by_rule + by_input != count {
        return Err(format!("not all known, some by rule: {group}").into());
    }
    let stdout = text(&output.stdout);
    if !stdout.contains(&format!("rule: {}", rule[0])) || !stdout.contains(" 0 unknown") {
        return Err(format!("the summary does not name the rule:\n{stdout}").into());
    }
    if out.exists() {
        return Err("--out was written though nothing new disagrees".into());
    }
    Ok(())
}

fn a_second_unrecorded_fault_is_unknown() -> Result<(), Failed> {
    let dir = tempfile::tempdir()?;
    let (recorded, _) = recorded_fault(dir.path())?;
    let (output, report) =
        diff_with_recorded(&digits_port_with("--also-email-kind"), &recorded, &[]);
    if output.status.code() != Some(1) {
        return Err(format!("expected exit 1 (an unknown fault)\n{}", explain(&output)).into());
    }
    let (Some(leak), Some(kind)) = (
        group_on(&report, "output.template"),
        group_on(&report, "output.kind"),
    ) else {
        return Err(format!("groups on the template and the kind were expected: {report}").into());
    };
    if leak["unknown"] != 0 || leak["rule"].as_array().is_none_or(Vec::is_empty) {
        return Err(format!("the recorded fault is not known by rule: {leak}").into());
    }
    if kind["unknown"].as_u64().unwrap_or_default() == 0 || kind["rule"] != Value::Array(vec![]) {
        return Err(format!("the second fault is not unknown: {kind}").into());
    }
    Ok(())
}

fn known_by_input_only_reports_a_recorded_kind_as_unknown() -> Result<(), Failed> {
    let dir = tempfile::tempdir()?;
    let (recorded, _) = recorded_fault(dir.path())?;
    let (output, report) =
        diff_with_recorded(&digits_port(), &recorded, &["--known-by-input-only"]);
    if output.status.code() != Some(1) {
        return Err(format!("expected exit 1 (strict)\n{}", explain(&output)).into());
    }
    let Some(leak) = group_on(&report, "output.template") else {
        return Err(format!("a group on the template was expected: {report}").into());
    };
    if leak["known_by_rule"] != 0
        || leak["rule"] != Value::Array(vec![])
        || leak["unknown"].as_u64().unwrap_or_default() == 0
    {
        return Err(format!("strict, yet known by rule: {leak}").into());
    }
    Ok(())
}

/// A trial's body, as libtest-mimic runs it.
type TrialBody = fn() -> Result<(), Failed>;

fn main() {
    let arguments = Arguments::from_args();
    let mut trials: Vec<Trial> = ["template", "chat", "web"]
        .into_iter()
        .map(|suite| {
            Trial::test(
                format!("reference_port_agrees_with_the_reference_on_{suite}_cases"),
                move || reference_port_agrees_on(suite),
            )
        })
        .collect();
    trials.push(Trial::test(
        "usage_and_port_errors_exit_2",
        usage_and_port_errors_exit_2,
    ));
    let with_python: [(&str, TrialBody); 5] = [
        (
            "a_port_leaking_numbers_is_found_in_2000_cases_minimised_to_40_chars_or_fewer",
            a_leaking_port_is_found_and_minimised,
        ),
        (
            "the_same_seed_gives_the_same_report",
            the_same_seed_gives_the_same_report,
        ),
        (
            "a_fault_a_vector_records_for_the_port_is_known_by_rule_and_exits_0",
            a_recorded_fault_is_known_by_rule,
        ),
        (
            "a_second_unrecorded_fault_is_unknown_and_exits_1",
            a_second_unrecorded_fault_is_unknown,
        ),
        (
            "known_by_input_only_reports_a_recorded_kind_as_unknown",
            known_by_input_only_reports_a_recorded_kind_as_unknown,
        ),
    ];
    for (name, trial) in with_python {
        trials.push(Trial::ignorable_test(name, move || {
            if let Some(reason) = python_missing() {
                return Ok(Completion::ignored_with(format!(
                    "skipped: {reason}; the broken port is a Python script"
                )));
            }
            trial().map(|()| Completion::Completed)
        }));
    }
    libtest_mimic::run(&arguments, trials).exit();
}
