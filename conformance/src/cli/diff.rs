//! `agentfence diff`: generated cases against a port, each disagreement
//! with the reference minimised and printed as a ready vector.
//!
//! Exit status: 0 nothing disagrees (or every disagreement is one a vector
//! or `--known` records, by input or by rule), 1 something unknown does, 2
//! a usage error or a port that cannot be started.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use clap::Args;

use super::progress::{Position, Progress};
use super::{EXIT_FAILURE, EXIT_USAGE, parse_timeout};
use crate::differ::{
    self, DiffError, DiffOptions, DiffReport, Differ, Group, KnownCases, MINIMISE_STEPS,
};
use crate::outcome::Answer;
use crate::port_process::PortProcess;
use crate::runner::Implementation;
use crate::suites::SuiteRegistry;

/// Cases drawn when neither `--cases` nor `--time` is given.
pub const DEFAULT_CASES: u64 = 10_000;

#[derive(Debug, Args)]
pub struct DiffArgs {
    /// The port to test (run through `sh -c`).
    #[arg(long, value_name = "CMD")]
    pub port: String,
    /// Only cases of this suite: template, chat or web (strip and envelope;
    /// fetch cases need fixtures and are not drawn).
    #[arg(long, value_name = "NAME")]
    pub suite: Option<String>,
    /// Only cases of this operation.
    #[arg(long, value_name = "OP")]
    pub op: Option<String>,
    /// Draw this many cases (10000 without --cases and --time), spread
    /// round-robin over the operations the port lists.
    #[arg(long, value_name = "N")]
    pub cases: Option<u64>,
    /// The seed: the same seed draws the same cases.
    #[arg(long, value_name = "S", default_value = "1")]
    pub seed: u64,
    /// Stop drawing after SECS seconds (with --cases: whichever comes
    /// first). Minimising what was found comes after.
    #[arg(long, value_name = "SECS", value_parser = parse_timeout)]
    pub time: Option<Duration>,
    /// Write the minimised disagreements as a vector file to FILE (needs a
    /// single suite: --suite or --op).
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// Also write the report as JSON to FILE: what was sent, each group
    /// with its count and minimised examples (drawn and minimised input,
    /// expectation, the port's answer).
    #[arg(long, value_name = "FILE")]
    pub report: Option<PathBuf>,
    /// A disagreement whose minimised input this file holds is reported as
    /// known by input, by vector id: a JSON run report (`run --report`; its failing cases) or
    /// a case list as --xfail takes (ids of shipped vectors). Repeatable.
    #[arg(long, value_name = "FILE")]
    pub known: Vec<PathBuf>,
    /// Count a disagreement as known only when its minimised input is a
    /// vector's (or one --known lists), not when a vector merely records
    /// the same kind of divergence (operation, first differing field,
    /// outcome shapes) for the port: every class is reported again.
    #[arg(long)]
    pub known_by_input_only: bool,
    /// More vector files, as `run --vectors` takes them (a file or a
    /// directory; a file named like an embedded one replaces it): their
    /// inputs and their recorded `upstream` answers count as the shipped
    /// ones do. Repeatable.
    #[arg(long = "vectors", value_name = "PATH")]
    pub vectors: Vec<PathBuf>,
    /// Seconds the port may take to answer one case.
    #[arg(long, value_name = "SECS", default_value = "5", value_parser = parse_timeout)]
    pub timeout: Duration,
    /// Round trips minimising one disagreement may take.
    #[arg(long, value_name = "N", default_value_t = MINIMISE_STEPS)]
    pub minimise_steps: usize,
}

pub fn diff_command(args: &DiffArgs, registry: &SuiteRegistry) -> ExitCode {
    match diff(args, registry) {
        Ok(code) => code,
        Err(DiffError::Usage(message) | DiffError::Setup(message)) => {
            eprintln!("agentfence diff: {message}");
            ExitCode::from(EXIT_USAGE)
        }
    }
}

fn diff(args: &DiffArgs, registry: &SuiteRegistry) -> Result<ExitCode, DiffError> {
    let options = DiffOptions {
        suites: args.suite.iter().cloned().collect(),
        op: args.op.clone(),
        cases: match (args.cases, args.time) {
            (None, None) => Some(DEFAULT_CASES),
            (cases, _) => cases,
        },
        seed: args.seed,
        time: args.time,
        minimise_steps: args.minimise_steps,
    };
    let selected = differ::selected_operations(&options)?;
    if args.out.is_some() && selected.iter().any(|(suite, _)| *suite != selected[0].0) {
        return Err(DiffError::Usage(
            "--out writes one vector file, of one suite: give --suite or --op".into(),
        ));
    }
    let vectors = if args.vectors.is_empty() {
        differ::shipped_vectors(registry)?
    } else {
        super::run::load_vectors(&args.vectors, registry).map_err(DiffError::Usage)?
    };
    let mut known = KnownCases::default();
    for path in &args.known {
        let read = KnownCases::read(path, &vectors).map_err(DiffError::Usage)?;
        known.extend(read);
    }
    let mut port = PortProcess::start(&args.port, args.timeout)
        .map_err(|error| DiffError::Setup(error.to_string()))?;
    let mut differ = Differ::new(registry, &vectors, known, &port.info())?;
    if args.known_by_input_only {
        differ = differ.known_by_input_only();
    }

    let mut progress = Progress::stderr();
    let label = format!("seed {}", options.seed);
    let started = Instant::now();
    let mut show = |done: u64, elapsed: Duration| {
        let total = match (options.cases, options.time) {
            (Some(cases), _) => cases,
            // Only a time: the count the rate so far reaches by then.
            (None, Some(time)) => {
                let rate = done as f64 / elapsed.as_secs_f64().max(1e-3);
                (rate * time.as_secs_f64()) as u64
            }
            (None, None) => done,
        };
        progress.show_at(
            Instant::now(),
            &Position {
                done: usize::try_from(done).unwrap_or(usize::MAX),
                total: usize::try_from(total.max(done)).unwrap_or(usize::MAX),
                file: &label,
                case: "",
            },
        );
    };
    let report = differ.run(&mut port, &options, &mut show)?;
    progress.clear();
    let elapsed = started.elapsed();

    print!("{}", render(&report));
    eprintln!(
        "agentfence diff: {} cases in {:.1} s ({:.0} cases/s, minimising included)",
        report.total_sent(),
        elapsed.as_secs_f64(),
        report.total_sent() as f64 / elapsed.as_secs_f64().max(1e-9)
    );
    if let Some(path) = &args.report {
        let json = serde_json::to_string_pretty(&report)
            .map_err(|error| DiffError::Setup(format!("cannot serialize the report: {error}")))?;
        std::fs::write(path, json + "\n").map_err(|error| {
            DiffError::Usage(format!("cannot write {}: {error}", path.display()))
        })?;
    }
    if let Some(path) = &args.out {
        let suite = selected[0].0;
        match differ.vector_file(&report, suite) {
            Some(text) => std::fs::write(path, text).map_err(|error| {
                DiffError::Usage(format!("cannot write {}: {error}", path.display()))
            })?,
            None => eprintln!(
                "agentfence diff: no new disagreement, so {} is not written",
                path.display()
            ),
        }
    }
    Ok(if report.has_unknown() {
        ExitCode::from(EXIT_FAILURE)
    } else {
        ExitCode::SUCCESS
    })
}

/// The report as text: what was sent, the groups with their counts, each
/// minimised example as a ready vector case, and a closing count line.
/// Nothing in it depends on the clock, so a seed always prints the same.
pub fn render(report: &DiffReport) -> String {
    let mut out = String::new();
    let implementation = &report.implementation;
    out.push_str(&format!(
        "agentfence diff: {} {} ({}), seed {}\n",
        implementation.name, implementation.version, implementation.language, report.seed
    ));
    let sent: Vec<String> = report
        .sent
        .iter()
        .map(|(op, count)| format!("{op} {count}"))
        .collect();
    out.push_str(&format!(
        "sent {} cases: {}\n",
        report.total_sent(),
        if sent.is_empty() {
            "none".to_owned()
        } else {
            sent.join(", ")
        }
    ));
    if !report.not_listed.is_empty() {
        out.push_str(&format!(
            "not sent (the port does not list them): {}\n",
            report.not_listed.join(", ")
        ));
    }
    if report.skipped_by_port > 0 {
        out.push_str(&format!(
            "skipped by the port: {} cases\n",
            report.skipped_by_port
        ));
    }
    if let Some(reason) = &report.given_up {
        out.push_str(&format!("stopped early: {reason}\n"));
    }
    for fault in &report.reference_faults {
        out.push_str(&format!(
            "the reference failed on case {} ({}): {}\n  input: {}\n",
            fault.index, fault.op, fault.reason, fault.input
        ));
    }
    if !report.groups.is_empty() {
        out.push_str("\ndisagreements by first differing field and outcome shapes:\n");
        out.push_str(&format!(
            "  {:>7} {:>8} {:>8} {:>8}  group\n",
            "count", "by input", "by rule", "unknown"
        ));
        for group in &report.groups {
            out.push_str(&format!(
                "  {:>7} {:>8} {:>8} {:>8}  {}{}\n",
                group.count,
                group.known_by_input,
                group.known_by_rule,
                group.unknown,
                group_name(group),
                if group.rule.is_empty() {
                    String::new()
                } else {
                    format!("; rule: {}", rule_ids(&group.rule))
                }
            ));
        }
    }
    let port_key = implementation.upstream_key();
    let mut number = 0;
    for group in &report.groups {
        out.push_str(&format!(
            "\n== {}: {} disagreement(s), {} example(s)\n",
            group_name(group),
            group.count,
            group.examples.len()
        ));
        if !group.rule.is_empty() {
            out.push_str(&format!(
                "# known by rule: {} record(s) this kind for {port_key}\n",
                rule_ids(&group.rule)
            ));
        }
        for example in &group.examples {
            out.push_str(&format!(
                "# case {} of seed {}: drawn {} chars, minimised to {} in {} tries\n",
                example.index,
                report.seed,
                text_length(&example.drawn),
                text_length(&example.input),
                example.minimise_tries
            ));
            out.push_str(&format!("# the port: {}\n", example.reason));
            if let Answer::Broken { reason } | Answer::NotSent { reason } = &example.answer {
                out.push_str(&format!("# no usable answer: {reason}\n"));
            }
            match &example.known_by_input {
                Some(id) => out.push_str(&format!("# known by input: vector {id} records it\n")),
                None if !group.rule.is_empty() => {
                    out.push_str(&format!("# known by rule; input: {}\n", example.input));
                }
                None => {
                    number += 1;
                    let case = differ::vector_case(example, number, &port_key);
                    out.push_str(&differ::canonical_case(&case));
                }
            }
        }
    }
    let sum = |count: fn(&Group) -> u64| report.groups.iter().map(count).sum::<u64>();
    out.push_str(&format!(
        "\n{} disagreement(s) in {} group(s), {} cases: {} known by input, {} known by rule, {} unknown\n",
        report.disagreements(),
        report.groups.len(),
        report.total_sent(),
        sum(|group| group.known_by_input),
        sum(|group| group.known_by_rule),
        sum(|group| group.unknown),
    ));
    out
}

/// A group as the summary names it: `chat_parse outcome (reference
/// output, port error nonce_mismatch)`.
fn group_name(group: &Group) -> String {
    format!(
        "{} {} (reference {}, port {})",
        group.kind.op, group.kind.field, group.kind.reference, group.kind.port
    )
}

/// The first few ids of a rule and how many there are.
fn rule_ids(ids: &[String]) -> String {
    const SHOWN: usize = 3;
    let first = ids[..ids.len().min(SHOWN)].join(", ");
    if ids.len() > SHOWN {
        format!(
            "{first} and {} more ({} vectors)",
            ids.len() - SHOWN,
            ids.len()
        )
    } else {
        first
    }
}

/// The characters of every string in an input, added up.
fn text_length(value: &serde_json::Value) -> usize {
    use serde_json::Value;
    match value {
        Value::String(text) => text.chars().count(),
        Value::Array(items) => items.iter().map(text_length).sum(),
        Value::Object(object) => object.values().map(text_length).sum(),
        _ => 0,
    }
}
