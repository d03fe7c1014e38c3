//! Runs vector cases against an implementation and collects a report.
//!
//! The runner knows nothing of any one suite or of how an implementation is
//! reached: suites come through [`crate::suites::Suite`], implementations
//! through [`Implementation`] (in-process reference, or a port process).
//! Filtering and post-processing (skip and expected-failure lists, id
//! globs) belong in [`Selection`] and on the returned [`RunReport`].

use crate::outcome::{Answer, Verdict, judge};
use crate::protocol::{CaseOutcome, ImplementationInfo, SkipReason};
use crate::report::{CaseReport, FileReport, RunReport};
use crate::suites::SuiteRegistry;
use crate::vectors::{Case, VectorFile, VectorSet};

/// Something that answers cases: the embedded reference or a port.
pub trait Implementation {
    fn info(&self) -> ImplementationInfo;

    /// Whether the implementation handles `op`; other cases are skipped
    /// without being sent.
    fn supports(&self, op: &str) -> bool;

    /// Called before the cases of each vector file with its config. An
    /// error fails every case of the file with that reason.
    fn begin_file(&mut self, file: &VectorFile) -> Result<(), String>;

    fn run_case(&mut self, file: &VectorFile, case: &Case) -> Answer;

    /// Called once after the last case.
    fn finish(&mut self) {}
}

/// Which cases a run covers.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Selection {
    /// Only files of this suite.
    pub suite: Option<String>,
}

impl Selection {
    pub fn includes_file(&self, file: &VectorFile) -> bool {
        self.suite.as_ref().is_none_or(|suite| *suite == file.suite)
    }

    pub fn includes_case(&self, _file: &VectorFile, _case: &Case) -> bool {
        true
    }
}

/// Runs every selected case, in file order, and judges each answer.
pub fn run(
    vectors: &VectorSet,
    registry: &SuiteRegistry,
    implementation: &mut dyn Implementation,
    selection: &Selection,
) -> RunReport {
    let mut files = Vec::new();
    for file in vectors
        .files
        .iter()
        .filter(|file| selection.includes_file(file))
    {
        let cases: Vec<&Case> = file
            .cases
            .iter()
            .filter(|case| selection.includes_case(file, case))
            .collect();
        let setup = match registry.find(&file.suite) {
            Some(suite) => implementation.begin_file(file).map(|()| suite),
            None => Err(format!("the runner has no suite {:?}", file.suite)),
        };
        let reports = cases
            .into_iter()
            .map(|case| {
                let (answer, verdict) = match &setup {
                    Err(reason) => {
                        let answer = Answer::Broken {
                            reason: reason.clone(),
                        };
                        let verdict = Verdict::Errored {
                            reason: reason.clone(),
                        };
                        (answer, verdict)
                    }
                    Ok(_) if !implementation.supports(&case.op) => {
                        let reason =
                            format!("the implementation does not list operation {:?}", case.op);
                        let answer = Answer::Replied(CaseOutcome::Skipped(SkipReason {
                            reason: reason.clone(),
                        }));
                        (answer, Verdict::Skipped { reason })
                    }
                    Ok(suite) => {
                        let answer = implementation.run_case(file, case);
                        let verdict = judge(*suite, case, &answer);
                        (answer, verdict)
                    }
                };
                CaseReport::new(case, answer, verdict)
            })
            .collect();
        files.push(FileReport {
            suite: file.suite.clone(),
            version: file.version.clone(),
            source: file.source.to_string(),
            cases: reports,
        });
    }
    implementation.finish();
    RunReport {
        implementation: implementation.info(),
        files,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::vectors::{Expectation, VectorSource};
    use serde_json::{Value, json};

    /// Answers every case with `output`, or refuses the file.
    struct Stub {
        operations: Vec<&'static str>,
        refuse_file: bool,
        output: Value,
        finished: bool,
    }

    impl Implementation for Stub {
        fn info(&self) -> ImplementationInfo {
            ImplementationInfo {
                name: "stub".into(),
                language: "rust".into(),
                version: "0".into(),
            }
        }
        fn supports(&self, op: &str) -> bool {
            self.operations.contains(&op)
        }
        fn begin_file(&mut self, _file: &VectorFile) -> Result<(), String> {
            if self.refuse_file {
                Err("config refused".into())
            } else {
                Ok(())
            }
        }
        fn run_case(&mut self, _file: &VectorFile, _case: &Case) -> Answer {
            Answer::Replied(CaseOutcome::Output(self.output.clone()))
        }
        fn finish(&mut self) {
            self.finished = true;
        }
    }

    fn stub() -> Stub {
        Stub {
            operations: vec!["template"],
            refuse_file: false,
            output: json!({"kind": "other", "template": null}),
            finished: false,
        }
    }

    fn vectors() -> VectorSet {
        let case = |id: &str, expected: Value| Case {
            id: id.into(),
            description: "d".into(),
            flags: vec![],
            op: "template".into(),
            input: json!({"message": ""}),
            expectation: Expectation::Valid { expected },
            upstream: Default::default(),
        };
        VectorSet {
            files: vec![VectorFile {
                source: VectorSource::File("a.json".into()),
                schema: None,
                suite: "template".into(),
                version: "1.0.0".into(),
                description: "d".into(),
                notes: Default::default(),
                header: Default::default(),
                config: Value::Null,
                cases: vec![
                    case("template-0001", json!({"kind": "other", "template": null})),
                    case(
                        "template-0002",
                        json!({"kind": "timeout", "template": null}),
                    ),
                ],
            }],
        }
    }

    #[test]
    fn answers_are_judged_and_finish_is_called() {
        let mut implementation = stub();
        let report = run(
            &vectors(),
            &SuiteRegistry::standard(),
            &mut implementation,
            &Selection::default(),
        );
        assert!(implementation.finished);
        let tally = report.tally();
        assert_eq!((tally.passed, tally.failed, tally.skipped), (1, 1, 0));
        assert_eq!(report.implementation.name, "stub");
    }

    #[test]
    fn unlisted_operation_is_skipped() {
        let mut implementation = stub();
        implementation.operations.clear();
        let report = run(
            &vectors(),
            &SuiteRegistry::standard(),
            &mut implementation,
            &Selection::default(),
        );
        assert_eq!(report.tally().skipped, 2);
    }

    #[test]
    fn refused_file_fails_each_of_its_cases() {
        let mut implementation = stub();
        implementation.refuse_file = true;
        let report = run(
            &vectors(),
            &SuiteRegistry::standard(),
            &mut implementation,
            &Selection::default(),
        );
        assert_eq!(report.tally().failed, 2);
        assert_eq!(
            report.case("template-0001").map(|case| &case.verdict),
            Some(&Verdict::Errored {
                reason: "config refused".into()
            })
        );
    }

    #[test]
    fn suite_selection_leaves_out_other_files() {
        let selection = Selection {
            suite: Some("chat".into()),
        };
        let report = run(
            &vectors(),
            &SuiteRegistry::standard(),
            &mut stub(),
            &selection,
        );
        assert!(report.files.is_empty());
    }
}
