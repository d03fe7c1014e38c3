//! `agentfence run`: load, lint, run, report.

use std::process::ExitCode;

use super::{EXIT_FAILURE, EXIT_USAGE, RunArgs};
use crate::lint::lint;
use crate::port_process::PortProcess;
use crate::reference::ReferenceImplementation;
use crate::report::write_text;
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
    let selection = Selection {
        suite: args.suite.clone(),
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
    let report = run(&vectors, registry, implementation, &selection);

    let mut stdout = std::io::stdout().lock();
    if let Err(error) = write_text(&report, &mut stdout, MAX_LISTED_FAILURES) {
        eprintln!("agentfence run: cannot write the report: {error}");
        return ExitCode::from(EXIT_FAILURE);
    }
    if report.tally().failed > 0 {
        ExitCode::from(EXIT_FAILURE)
    } else {
        ExitCode::SUCCESS
    }
}

/// The embedded vectors plus `--vectors`, checked by the lint rules.
fn load(args: &RunArgs, registry: &SuiteRegistry) -> Result<VectorSet, String> {
    let mut vectors = VectorSet::embedded(registry).map_err(|error| error.to_string())?;
    for path in &args.vectors {
        vectors
            .add_path(path, registry)
            .map_err(|error| error.to_string())?;
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
