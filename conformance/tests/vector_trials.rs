//! One named test per vector, run against the embedded reference in
//! process, so `cargo test` names the exact case that broke and
//! `cargo test --test vector_trials -- template-0042` reruns just it.

use std::sync::Arc;

use agentfence_conformance::loader;
use agentfence_conformance::outcome::{Verdict, judge};
use agentfence_conformance::reference::call_reference;
use agentfence_conformance::report::CaseReport;
use agentfence_conformance::suites::{ReferenceSuite, SuiteRegistry};
use libtest_mimic::{Arguments, Failed, Trial};

/// Trial names carry this much of the description: enough to recognise a
/// case in a list, short enough to keep one line per trial.
const NAME_DESCRIPTION_CHARS: usize = 60;

fn trial_name(id: &str, description: &str) -> String {
    let mut short: String = description.chars().take(NAME_DESCRIPTION_CHARS).collect();
    if description.chars().count() > NAME_DESCRIPTION_CHARS {
        short.push('…');
    }
    format!("{id} {short}")
}

fn main() {
    let arguments = Arguments::from_args();
    let registry = Arc::new(SuiteRegistry::standard());
    let vectors = match loader::embedded(&registry) {
        Ok(vectors) => vectors,
        Err(error) => {
            eprintln!("cannot load the embedded vectors: {error}");
            std::process::exit(101);
        }
    };

    let mut trials = Vec::new();
    for file in vectors.files {
        let reference: Result<Arc<dyn ReferenceSuite>, String> = registry
            .find(&file.suite)
            .ok_or_else(|| format!("no suite {:?}", file.suite))
            .and_then(|suite| suite.reference(&file.config).map_err(|e| e.to_string()))
            .map(Arc::from);
        for case in file.cases {
            let name = trial_name(&case.id, &case.description);
            let registry = Arc::clone(&registry);
            let reference = reference.clone();
            let suite_name = file.suite.clone();
            trials.push(Trial::test(name, move || {
                let reference = reference.map_err(Failed::from)?;
                let suite = registry
                    .find(&suite_name)
                    .ok_or_else(|| Failed::from(format!("no suite {suite_name:?}")))?;
                // A fetch case's fixture is served while the case runs.
                let prepared = suite
                    .prepare(&case)
                    .map_err(|reason| Failed::from(format!("cannot prepare the case: {reason}")))?;
                let case = prepared.case();
                let answer = call_reference(&*reference, &case.op, &case.input);
                let verdict = judge(suite, case, &answer);
                match verdict {
                    Verdict::Passed => Ok(()),
                    Verdict::Skipped { reason } => {
                        Err(format!("the reference skipped the case: {reason}").into())
                    }
                    Verdict::Failed { .. }
                    | Verdict::Errored { .. }
                    | Verdict::ExpectedFailure { .. } => {
                        let report = CaseReport::new(case, answer, verdict);
                        let mut text = Vec::new();
                        agentfence_conformance::report::write_case(&report, &mut text)
                            .map_err(|error| Failed::from(error.to_string()))?;
                        Err(String::from_utf8_lossy(&text).into_owned().into())
                    }
                }
            }));
        }
    }
    libtest_mimic::run(&arguments, trials).exit();
}
