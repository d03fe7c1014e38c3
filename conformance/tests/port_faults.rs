//! The runner survives a misbehaving port: a crash, a hang, an answer for
//! the wrong id or a garbage line each fail that one case, with the reason,
//! and the runner starts the port again for the next case; a second reply
//! line fails the case it answers; a port that never answers is given up
//! after a few timeouts.
//!
//! The misbehaving port is this test binary itself: started with
//! `AGENTFENCE_FAKE_PORT=1` it serves the reference through the library's
//! port server, except for the case ids named in its environment. That is
//! why this file has its own `main` (harness = false): libtest would print
//! to stdout, which is the protocol channel.

use std::collections::BTreeMap;
use std::io::{BufRead, Write};
use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

use agentfence_conformance::loader;
use agentfence_conformance::outcome::{Answer, Verdict};
use agentfence_conformance::port_process::{
    MAX_CONSECUTIVE_TIMEOUTS, MAX_FAILED_STARTS, PortProcess,
};
use agentfence_conformance::port_server::{PortResponse, PortServer};
use agentfence_conformance::reference::ReferenceImplementation;
use agentfence_conformance::report::RunReport;
use agentfence_conformance::runner::{Selection, run};
use agentfence_conformance::suites::SuiteRegistry;
use agentfence_conformance::vectors::VectorSet;

mod common;
use common::shell_quote;
use libtest_mimic::{Arguments, Failed, Trial};
use serde_json::Value;

const FAKE_PORT: &str = "AGENTFENCE_FAKE_PORT";
/// Case ids (comma-separated) on which the fake port misbehaves.
const CRASH_ON: &str = "AGENTFENCE_FAKE_PORT_CRASH_ON";
const HANG_ON: &str = "AGENTFENCE_FAKE_PORT_HANG_ON";
const WRONG_ID_ON: &str = "AGENTFENCE_FAKE_PORT_WRONG_ID_ON";
const GARBAGE_ON: &str = "AGENTFENCE_FAKE_PORT_GARBAGE_ON";
/// Case ids on which the fake port writes its reply twice.
const TWICE_ON: &str = "AGENTFENCE_FAKE_PORT_TWICE_ON";
/// Set: the fake port answers hello and nothing after it, never exiting
/// until its input ends.
const SILENT: &str = "AGENTFENCE_FAKE_PORT_SILENT";
/// A file the fake port appends a line to on every hello.
const HELLO_LOG: &str = "AGENTFENCE_FAKE_PORT_HELLO_LOG";

/// Short, so a hang costs two seconds, yet far above what an answer takes
/// even on a loaded CI machine.
const CASE_TIMEOUT: Duration = Duration::from_secs(2);

/// One check of the runner against the fake port.
type PortTest = fn() -> Result<(), Failed>;

fn main() {
    if std::env::var_os(FAKE_PORT).is_some() {
        fake_port();
        return;
    }
    let arguments = Arguments::from_args();
    let tests: [(&str, PortTest); 5] = [
        (
            "port_that_never_answers_is_given_up_after_a_few_timeouts",
            port_that_never_answers_is_given_up_after_a_few_timeouts,
        ),
        (
            "second_reply_line_is_an_error_of_the_case_it_answers",
            second_reply_line_is_an_error_of_the_case_it_answers,
        ),
        (
            "each_fault_fails_only_its_case_and_restarts_the_port",
            each_fault_fails_only_its_case_and_restarts_the_port,
        ),
        (
            "port_that_cannot_restart_is_given_up",
            port_that_cannot_restart_is_given_up,
        ),
        (
            "cli_run_against_a_crashing_port_exits_1",
            cli_run_against_a_crashing_port_exits_1,
        ),
    ];
    let trials = tests
        .into_iter()
        .map(|(name, test)| Trial::test(name, test))
        .collect();
    libtest_mimic::run(&arguments, trials).exit();
}

fn ids_from_env(name: &str) -> Vec<String> {
    std::env::var(name)
        .unwrap_or_default()
        .split(',')
        .filter(|id| !id.is_empty())
        .map(str::to_owned)
        .collect()
}

fn fake_port() {
    let crash_on = ids_from_env(CRASH_ON);
    let hang_on = ids_from_env(HANG_ON);
    let wrong_id_on = ids_from_env(WRONG_ID_ON);
    let garbage_on = ids_from_env(GARBAGE_ON);
    let twice_on = ids_from_env(TWICE_ON);
    let silent = std::env::var_os(SILENT).is_some();
    let hello_log = std::env::var_os(HELLO_LOG);

    let registry = SuiteRegistry::standard();
    let mut server = PortServer::new(&registry);
    let stdin = std::io::stdin().lock();
    let mut stdout = std::io::stdout().lock();
    for line in stdin.split(b'\n') {
        let Ok(line) = line else { return };
        let request: Value = serde_json::from_slice(&line).unwrap_or(Value::Null);
        let id = request["id"].as_str().unwrap_or_default().to_owned();
        if request["type"] == "hello"
            && let Some(path) = &hello_log
            && let Ok(mut log) = std::fs::OpenOptions::new()
                .append(true)
                .create(true)
                .open(path)
        {
            let _ = writeln!(log, "hello");
        }
        let reply = if silent && request["type"] == "case" {
            continue;
        } else if crash_on.contains(&id) {
            std::process::exit(3);
        } else if hang_on.contains(&id) {
            std::thread::sleep(Duration::from_secs(120));
            return;
        } else if garbage_on.contains(&id) {
            "this is not a protocol line".to_owned()
        } else {
            match server.respond(&line) {
                PortResponse::Reply(reply) if wrong_id_on.contains(&id) => {
                    reply.replace(&format!("\"{id}\""), "\"not-the-case-id\"")
                }
                PortResponse::Reply(reply) if twice_on.contains(&id) => format!("{reply}\n{reply}"),
                PortResponse::Reply(reply) => reply,
                PortResponse::Diagnostic(message) => {
                    eprintln!("fake port: {message}");
                    continue;
                }
                PortResponse::Silent => continue,
                PortResponse::Bye => return,
            }
        };
        if writeln!(stdout, "{reply}")
            .and_then(|()| stdout.flush())
            .is_err()
        {
            return;
        }
    }
}

/// A command line that starts this binary as the fake port.
fn fake_port_command(faults: &[(&str, &str)]) -> String {
    let exe = std::env::current_exe().expect("the test binary knows its path");
    let mut command = format!("{FAKE_PORT}=1");
    for (variable, value) in faults {
        command.push_str(&format!(" {variable}={}", shell_quote(value)));
    }
    command.push(' ');
    command.push_str(&shell_quote(&exe.to_string_lossy()));
    command
}

fn template_vectors(registry: &SuiteRegistry) -> Result<VectorSet, Failed> {
    let mut vectors = loader::embedded(registry).map_err(|error| error.to_string())?;
    vectors.files.retain(|file| file.suite == "template");
    Ok(vectors)
}

fn verdicts(report: &RunReport) -> BTreeMap<String, Verdict> {
    report
        .files
        .iter()
        .flat_map(|file| &file.cases)
        .map(|case| (case.id.clone(), case.verdict.clone()))
        .collect()
}

fn expect_errored(
    verdicts: &BTreeMap<String, Verdict>,
    id: &str,
    reason_part: &str,
) -> Result<(), Failed> {
    match verdicts.get(id) {
        Some(Verdict::Errored { reason }) if reason.contains(reason_part) => Ok(()),
        other => {
            Err(format!("{id}: expected an error mentioning {reason_part:?}, got {other:?}").into())
        }
    }
}

fn each_fault_fails_only_its_case_and_restarts_the_port() -> Result<(), Failed> {
    let registry = SuiteRegistry::standard();
    let vectors = template_vectors(&registry)?;
    let ids: Vec<String> = vectors.cases().map(|(_, case)| case.id.clone()).collect();
    if ids.len() < 5 {
        return Err(format!(
            "need five template cases to place four faults, have {}",
            ids.len()
        )
        .into());
    }
    let log_dir = tempfile::tempdir().map_err(|error| error.to_string())?;
    let log = log_dir.path().join("hellos");
    let command = fake_port_command(&[
        (CRASH_ON, &ids[0]),
        (HANG_ON, &ids[1]),
        (WRONG_ID_ON, &ids[2]),
        (GARBAGE_ON, &ids[3]),
        (HELLO_LOG, &log.to_string_lossy()),
    ]);

    let mut port = PortProcess::start(&command, CASE_TIMEOUT).map_err(|error| error.to_string())?;
    let report = run(&vectors, &registry, &mut port, &Selection::default());
    let restarts = port.restarts();
    drop(port);
    let got = verdicts(&report);

    expect_errored(&got, &ids[0], "exited")?;
    expect_errored(&got, &ids[1], "no answer within")?;
    expect_errored(&got, &ids[2], "instead of")?;
    expect_errored(&got, &ids[3], "garbage")?;

    // Every other case is judged as the in-process reference's answer is.
    let mut reference = ReferenceImplementation::new(&registry);
    let baseline = verdicts(&run(
        &vectors,
        &registry,
        &mut reference,
        &Selection::default(),
    ));
    for id in &ids[4..] {
        if got.get(id) != baseline.get(id) {
            return Err(format!(
                "{id} after the faults: port {:?}, reference {:?}",
                got.get(id),
                baseline.get(id)
            )
            .into());
        }
    }

    if restarts != 4 {
        return Err(format!("expected 4 restarts, one per fault, got {restarts}").into());
    }
    let hellos = std::fs::read_to_string(&log).map_err(|error| error.to_string())?;
    if hellos.lines().count() != 5 {
        return Err(format!("expected 5 hellos (start + 4 restarts), got {hellos:?}").into());
    }
    Ok(())
}

fn port_that_cannot_restart_is_given_up() -> Result<(), Failed> {
    let registry = SuiteRegistry::standard();
    let vectors = template_vectors(&registry)?;
    let ids: Vec<String> = vectors.cases().map(|(_, case)| case.id.clone()).collect();
    if ids.len() < 2 {
        return Err("need two template cases".into());
    }
    let flag_dir = tempfile::tempdir().map_err(|error| error.to_string())?;
    let started = flag_dir.path().join("started");
    // The first start works; every later one exits before hello.
    let command = format!(
        "if [ -e {flag} ]; then exit 7; fi; : > {flag}; {port}",
        flag = shell_quote(&started.to_string_lossy()),
        port = fake_port_command(&[(CRASH_ON, &ids[0])]),
    );
    let mut port = PortProcess::start(&command, CASE_TIMEOUT).map_err(|error| error.to_string())?;
    let report = run(&vectors, &registry, &mut port, &Selection::default());
    let got = verdicts(&report);

    expect_errored(&got, &ids[0], "exited")?;
    expect_errored(&got, &ids[1], "cannot restart the port")?;
    if let Some(id) = ids.get(MAX_FAILED_STARTS as usize + 1) {
        expect_errored(&got, id, "given up")?;
    }
    if report.tally().failed != ids.len() {
        return Err(format!("every case should fail, tally {:?}", report.tally()).into());
    }
    Ok(())
}

fn port_that_never_answers_is_given_up_after_a_few_timeouts() -> Result<(), Failed> {
    let registry = SuiteRegistry::standard();
    let mut vectors = loader::embedded(&registry).map_err(|error| error.to_string())?;
    vectors.files.retain(|file| file.suite == "chat");
    let ids: Vec<String> = vectors.cases().map(|(_, case)| case.id.clone()).collect();
    let limit = MAX_CONSECUTIVE_TIMEOUTS as usize;
    if ids.len() <= limit {
        return Err(format!("need more than {limit} chat cases, have {}", ids.len()).into());
    }
    // The default timeout: the point is that a run against a port that
    // never answers costs a few timeouts, not one per case (the chat suite
    // at 5 s a case would take half an hour).
    let timeout = Duration::from_secs(5);
    let started = Instant::now();
    let mut port = PortProcess::start(&fake_port_command(&[(SILENT, "1")]), timeout)
        .map_err(|error| error.to_string())?;
    let report = run(&vectors, &registry, &mut port, &Selection::default());
    drop(port);
    let took = started.elapsed();
    if took > Duration::from_secs(60) {
        return Err(format!("the run took {took:?}, over a minute").into());
    }
    let got = verdicts(&report);
    for id in &ids[..limit] {
        expect_errored(&got, id, "no answer within")?;
    }
    expect_errored(&got, &ids[limit - 1], "given up")?;
    for (_, case) in report
        .files
        .iter()
        .flat_map(|file| &file.cases)
        .enumerate()
        .skip(limit)
    {
        let Answer::NotSent { reason } = &case.answer else {
            return Err(format!(
                "{}: sent after the port was given up: {:?}",
                case.id, case.answer
            )
            .into());
        };
        if !reason.contains("given up") || !reason.contains(&ids[0]) {
            return Err(format!("{}: the reason does not say why: {reason:?}", case.id).into());
        }
        expect_errored(&got, &case.id, "given up")?;
    }
    if report.tally().failed != ids.len() {
        return Err(format!("every case should fail, tally {:?}", report.tally()).into());
    }
    Ok(())
}

fn second_reply_line_is_an_error_of_the_case_it_answers() -> Result<(), Failed> {
    let registry = SuiteRegistry::standard();
    let vectors = template_vectors(&registry)?;
    let ids: Vec<String> = vectors.cases().map(|(_, case)| case.id.clone()).collect();
    let (Some(first), Some(last)) = (ids.first(), ids.last()) else {
        return Err("no template case".into());
    };
    if ids.len() < 3 {
        return Err("need three template cases".into());
    }
    // Twice on the first case (found when the next is sent or read) and
    // on the last (found when the port ends).
    let twice = format!("{first},{last}");
    let mut port = PortProcess::start(&fake_port_command(&[(TWICE_ON, &twice)]), CASE_TIMEOUT)
        .map_err(|error| error.to_string())?;
    let report = run(&vectors, &registry, &mut port, &Selection::default());
    let restarts = port.restarts();
    drop(port);
    let got = verdicts(&report);
    expect_errored(&got, first, "twice")?;
    expect_errored(&got, last, "twice")?;
    let mut reference = ReferenceImplementation::new(&registry);
    let baseline = verdicts(&run(
        &vectors,
        &registry,
        &mut reference,
        &Selection::default(),
    ));
    for id in &ids[1..ids.len() - 1] {
        if got.get(id) != baseline.get(id) {
            return Err(format!(
                "{id} is not judged as the reference's answer: port {:?}, reference {:?}",
                got.get(id),
                baseline.get(id)
            )
            .into());
        }
    }
    if restarts != 0 {
        return Err(format!("a second line needs no restart, got {restarts}").into());
    }
    Ok(())
}

fn cli_run_against_a_crashing_port_exits_1() -> Result<(), Failed> {
    let registry = SuiteRegistry::standard();
    let vectors = template_vectors(&registry)?;
    let first = vectors
        .cases()
        .next()
        .map(|(_, case)| case.id.clone())
        .ok_or("no template case")?;
    let output = Command::new(env!("CARGO_BIN_EXE_agentfence"))
        .args(["run", "--suite", "template", "--timeout", "2", "--port"])
        .arg(fake_port_command(&[(CRASH_ON, &first)]))
        .current_dir(Path::new("/"))
        .output()
        .map_err(|error| error.to_string())?;
    let stdout = String::from_utf8_lossy(&output.stdout);
    if output.status.code() != Some(1) {
        return Err(format!("exit status {:?}, output:\n{stdout}", output.status).into());
    }
    if !stdout.contains(&format!("ERROR {first}")) || !stdout.contains("exited") {
        return Err(format!("the crash is not reported:\n{stdout}").into());
    }
    let closing = stdout.lines().last().unwrap_or_default();
    let failed = closing
        .split(", ")
        .nth(1)
        .and_then(|part| part.strip_suffix(" failed"))
        .and_then(|count| count.parse::<usize>().ok());
    if failed.is_none_or(|count| count < 1) {
        return Err(format!("closing line {closing:?} does not count the failure").into());
    }
    Ok(())
}
