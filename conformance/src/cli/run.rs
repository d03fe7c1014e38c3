//! `agentfence run`: load, lint, select, run, report.

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::Path;
use std::process::ExitCode;

use super::progress::{Observed, Progress};
use super::{EXIT_FAILURE, EXIT_USAGE, RunArgs};
use crate::case_list::CaseList;
use crate::lint::lint;
use crate::loader;
use crate::port_process::PortProcess;
use crate::reference::ReferenceImplementation;
use crate::report::{RunReport, write_json, write_junit, write_text};
use crate::runner::{Implementation, Selection, run};
use crate::suites::SuiteRegistry;
use crate::vectors::VectorSet;

/// Failing cases shown in full; the rest are only counted.
const MAX_LISTED_FAILURES: usize = 10;

pub fn run_command(args: &RunArgs, registry: &SuiteRegistry) -> ExitCode {
    let vectors = match load(args, registry) {
        Ok(vectors) => vectors,
        Err(message) => {
            eprintln!("agentfence run: {message}");
            return ExitCode::from(EXIT_USAGE);
        }
    };
    let selection = match select(args, &vectors) {
        Ok(selection) => selection,
        Err(message) => {
            eprintln!("agentfence run: {message}");
            return ExitCode::from(EXIT_USAGE);
        }
    };
    if !vectors
        .files
        .iter()
        .any(|file| selection.includes_file(file))
    {
        let loaded: Vec<&str> = vectors
            .files
            .iter()
            .map(|file| file.suite.as_str())
            .collect();
        eprintln!(
            "agentfence run: no vector file of suite {:?}; loaded suites: {}",
            args.suite.as_deref().unwrap_or(""),
            loaded.join(", ")
        );
        return ExitCode::from(EXIT_USAGE);
    }

    // The selected cases, in the order the runner takes them.
    let selected: Vec<&str> = vectors
        .cases()
        .filter(|(file, case)| selection.includes_file(file) && selection.includes_case(file, case))
        .map(|(_, case)| case.id.as_str())
        .collect();
    if selected.is_empty() {
        eprintln!("agentfence run: --suite and --id together select no case");
        return ExitCode::from(EXIT_USAGE);
    }

    let mut port;
    let mut reference;
    let implementation: &mut dyn Implementation = match &args.port {
        Some(command) => match PortProcess::start(command, args.timeout) {
            Ok(started) => {
                port = started;
                &mut port
            }
            Err(error) => {
                eprintln!("agentfence run: {error}");
                return ExitCode::from(EXIT_USAGE);
            }
        },
        None => {
            reference = ReferenceImplementation::new(registry);
            &mut reference
        }
    };
    // A progress line on stderr if it is a terminal, erased before the report.
    let mut observed = Observed::new(implementation, Progress::stderr(), selected);
    let report = run(&vectors, registry, &mut observed, &selection);
    observed.clear();

    let mut stdout = std::io::stdout().lock();
    if let Err(error) = write_text(&report, &mut stdout, MAX_LISTED_FAILURES) {
        eprintln!("agentfence run: cannot write the report: {error}");
        return ExitCode::from(EXIT_FAILURE);
    }
    type Writer = fn(&RunReport, &mut dyn Write) -> std::io::Result<()>;
    let machine_reports: [(&Option<std::path::PathBuf>, Writer); 2] =
        [(&args.report, write_json), (&args.junit, write_junit)];
    for (path, writer) in machine_reports {
        if let Some(path) = path
            && let Err(error) = write_file(path, &report, writer)
        {
            eprintln!("agentfence run: cannot write {}: {error}", path.display());
            return ExitCode::from(EXIT_USAGE);
        }
    }
    if report.tally().failed > 0 {
        ExitCode::from(EXIT_FAILURE)
    } else {
        ExitCode::SUCCESS
    }
}

/// The selection of `--suite`, `--id`, `--skip`, `--xfail`, `--skip-flag`
/// and `--follow-flag`; a list line or an `--id` glob that matches no loaded
/// case, or a flag the loaded files do not define, is an error.
fn select(args: &RunArgs, vectors: &VectorSet) -> Result<Selection, String> {
    let read = |paths: &[std::path::PathBuf]| -> Result<Vec<CaseList>, String> {
        paths.iter().map(|path| CaseList::read(path)).collect()
    };
    let selection = Selection {
        suite: args.suite.clone(),
        ids: args.ids.clone(),
        skip: read(&args.skip)?,
        xfail: read(&args.xfail)?,
        skip_flags: args.skip_flags.clone(),
        follow_flags: args.follow_flags.clone(),
    };
    let stale = selection.stale(vectors);
    if stale.is_empty() {
        Ok(selection)
    } else {
        Err(stale.join("\n"))
    }
}

fn write_file(
    path: &Path,
    report: &RunReport,
    writer: fn(&RunReport, &mut dyn Write) -> std::io::Result<()>,
) -> std::io::Result<()> {
    let mut out = BufWriter::new(File::create(path)?);
    writer(report, &mut out)?;
    out.flush()
}

/// The embedded vectors plus `--vectors`, checked by the lint rules.
fn load(args: &RunArgs, registry: &SuiteRegistry) -> Result<VectorSet, String> {
    load_vectors(&args.vectors, registry)
}

/// The embedded vectors plus the files or directories `paths`, checked by
/// the lint rules.
pub(super) fn load_vectors(
    paths: &[std::path::PathBuf],
    registry: &SuiteRegistry,
) -> Result<VectorSet, String> {
    let mut vectors = loader::embedded(registry).map_err(|error| error.to_string())?;
    for path in paths {
        loader::add_path(&mut vectors, path, registry).map_err(|error| error.to_string())?;
    }
    let problems = lint(&vectors.files, registry);
    if problems.is_empty() {
        Ok(vectors)
    } else {
        let listed: Vec<String> = problems.iter().map(ToString::to_string).collect();
        Err(format!(
            "the vectors break {} rule(s):\n  {}",
            problems.len(),
            listed.join("\n  ")
        ))
    }
}
