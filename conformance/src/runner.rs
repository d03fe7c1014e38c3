//! Runs vector cases against an implementation and collects a report.
//!
//! The runner knows nothing of any one suite or of how an implementation is
//! reached: suites come through [`crate::suites::Suite`], implementations
//! through [`Implementation`] (in-process reference, or a port process).
//! Filtering and post-processing (skip and expected-failure lists, id
//! globs) belong in [`Selection`] and on the returned [`RunReport`].

use std::borrow::Cow;

use crate::case_list::{CaseList, glob_matches};
use crate::outcome::{Answer, Verdict, judge};
use crate::protocol::ImplementationInfo;
use crate::report::{CaseReport, FileReport, RunReport};
use crate::suites::{Suite, SuiteRegistry};
use crate::vectors::{Case, Expectation, VectorFile, VectorSet};

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

    /// Faults of cases already answered that came to light later: a port's
    /// second reply line for a case shows only once the next case is sent
    /// or the port ends. The runner makes each such case an error. Asked
    /// after every case and after [`Implementation::finish`].
    fn late_faults(&mut self) -> Vec<LateFault> {
        Vec::new()
    }

    /// Called once after the last case.
    fn finish(&mut self) {}
}

/// A fault of a case found after its answer was judged.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LateFault {
    pub id: String,
    pub reason: String,
}

/// Which cases a run covers, and which of them are skipped or expected to
/// fail.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Selection {
    /// Only files of this suite.
    pub suite: Option<String>,
    /// Only cases whose id matches one of these globs (all when empty).
    pub ids: Vec<String>,
    /// Cases reported as skipped without being sent.
    pub skip: Vec<CaseList>,
    /// Cases that are run and must fail: a failure counts as an expected
    /// failure, a pass as a failure.
    pub xfail: Vec<CaseList>,
    /// Cases carrying one of these flags are reported as skipped without
    /// being sent (`--skip-flag`): a port that cannot take the input the
    /// flag names (a nonce from outside, for `invalid-nonce`).
    pub skip_flags: Vec<String>,
    /// The policy flags the implementation follows (`--follow-flag`): an
    /// acceptable answer that lists policy flags passes only a run that
    /// follows each of them; one that lists none passes every run.
    pub follow_flags: Vec<String>,
}

impl Selection {
    pub fn includes_file(&self, file: &VectorFile) -> bool {
        self.suite.as_ref().is_none_or(|suite| *suite == file.suite)
    }

    pub fn includes_case(&self, _file: &VectorFile, case: &Case) -> bool {
        self.ids.is_empty() || self.ids.iter().any(|glob| glob_matches(glob, &case.id))
    }

    /// Why `case` is skipped by a skip list (the first matching line).
    fn skip_reason(&self, case: &Case) -> Option<String> {
        self.skip.iter().find_map(|list| {
            list.matching(&case.id)
                .map(|entry| format!("listed in {}", list.locate(entry)))
        })
    }

    /// Why `case` is skipped by `--skip-flag` (the first of its flags
    /// that is skipped).
    fn skip_flag_reason(&self, case: &Case) -> Option<String> {
        case.flags
            .iter()
            .find(|flag| self.skip_flags.contains(flag))
            .map(|flag| format!("the case carries flag {flag:?}, skipped by --skip-flag"))
    }

    /// The verdict of an answer, given the policies the run follows: an
    /// answer `judge` passed, but that only acceptable answers needing a
    /// policy the run does not follow match, fails, naming the policy.
    fn apply_policies(
        &self,
        suite: &dyn Suite,
        file: &VectorFile,
        case: &Case,
        answer: &Answer,
        verdict: Verdict,
    ) -> Verdict {
        let Expectation::Acceptable { acceptable } = &case.expectation else {
            return verdict;
        };
        if verdict != Verdict::Passed || !file.answer_flags.contains_key(&case.id) {
            return verdict;
        }
        let mut unfollowed: Option<Vec<&str>> = None;
        for (index, alternative) in acceptable.iter().enumerate() {
            let alone = Case {
                expectation: Expectation::Acceptable {
                    acceptable: vec![alternative.clone()],
                },
                ..case.clone()
            };
            if judge(suite, &alone, answer) != Verdict::Passed {
                continue;
            }
            let missing: Vec<&str> = file
                .answer_flags(case, index)
                .iter()
                .filter(|flag| !self.follow_flags.contains(flag))
                .map(String::as_str)
                .collect();
            if missing.is_empty() {
                return Verdict::Passed;
            }
            unfollowed.get_or_insert(missing);
        }
        let Some(missing) = unfollowed else {
            return verdict;
        };
        let policies: Vec<String> = missing
            .iter()
            .map(|flag| match file.policies.get(*flag) {
                Some(policy) => format!("{flag}: {policy}"),
                None => (*flag).to_owned(),
            })
            .collect();
        let options: Vec<String> = missing
            .iter()
            .map(|flag| format!("--follow-flag {flag}"))
            .collect();
        Verdict::Failed {
            reason: format!(
                "the answer is acceptable only under policy flag(s) the run does not follow ({}); \
                 the suite's own choice is the first acceptable answer, and a port that follows \
                 the policy says so with {}",
                policies.join("; "),
                options.join(" ")
            ),
        }
    }

    fn is_expected_to_fail(&self, case: &Case) -> bool {
        self.xfail
            .iter()
            .any(|list| list.matching(&case.id).is_some())
    }

    /// Lines of the skip and xfail lists, and `--id` globs, that match no
    /// case of `vectors` (all loaded files, whatever the suite filter).
    pub fn stale(&self, vectors: &VectorSet) -> Vec<String> {
        let ids: Vec<&str> = vectors.cases().map(|(_, case)| case.id.as_str()).collect();
        let mut problems: Vec<String> = self
            .skip
            .iter()
            .chain(&self.xfail)
            .flat_map(|list| list.stale(ids.iter().copied()))
            .map(|stale| stale.to_string())
            .collect();
        let flags: Vec<&str> = vectors
            .files
            .iter()
            .flat_map(|file| file.notes.keys())
            .map(String::as_str)
            .collect();
        for flag in &self.skip_flags {
            if !flags.contains(&flag.as_str()) {
                problems.push(format!(
                    "--skip-flag {flag:?} is no flag of the loaded vector files"
                ));
            }
        }
        for flag in &self.follow_flags {
            if !vectors
                .files
                .iter()
                .any(|file| file.policies.contains_key(flag))
            {
                problems.push(format!(
                    "--follow-flag {flag:?} is no policy flag of the loaded vector files \
                     (a policy flag's note has a \"policy\")"
                ));
            }
        }
        problems.extend(
            self.ids
                .iter()
                .filter(|glob| !ids.iter().any(|id| glob_matches(glob, id)))
                .map(|glob| format!("--id {glob:?} matches no case")),
        );
        problems
    }
}

/// Applies an expected-failure list entry to a verdict: a failure becomes
/// expected, a pass becomes a failure, a skip stays a skip.
fn expect_failure(verdict: Verdict) -> Verdict {
    match verdict {
        Verdict::Passed => Verdict::Failed {
            reason: "expected to fail but passed: remove it from the xfail list".into(),
        },
        Verdict::Failed { reason } | Verdict::Errored { reason } => {
            Verdict::ExpectedFailure { reason }
        }
        other => other,
    }
}

/// Makes each late fault's case an error (or, on an `--xfail` list, an
/// expected failure): its answer stands as recorded, but it does not pass.
fn apply_late_faults(
    faults: Vec<LateFault>,
    files: &mut [FileReport],
    current: &mut [CaseReport],
    selection: &Selection,
) {
    for fault in faults {
        let report = current
            .iter_mut()
            .rev()
            .chain(
                files
                    .iter_mut()
                    .rev()
                    .flat_map(|file| file.cases.iter_mut().rev()),
            )
            .find(|report| report.id == fault.id);
        if let Some(report) = report {
            let verdict = Verdict::Errored {
                reason: fault.reason,
            };
            report.verdict = if selection
                .xfail
                .iter()
                .any(|list| list.matching(&report.id).is_some())
            {
                expect_failure(verdict)
            } else {
                verdict
            };
        }
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
        if cases.is_empty() && !file.cases.is_empty() {
            // Every case left out by `--id`: the file is not part of the run.
            continue;
        }
        let setup = match registry.find(&file.suite) {
            Some(suite) => implementation.begin_file(file).map(|()| suite),
            None => Err(format!("the runner has no suite {:?}", file.suite)),
        };
        let mut reports = Vec::with_capacity(cases.len());
        for case in cases {
            if let Some(reason) = selection
                .skip_reason(case)
                .or_else(|| selection.skip_flag_reason(case))
            {
                let answer = Answer::NotSent {
                    reason: reason.clone(),
                };
                reports.push(CaseReport::new(case, answer, Verdict::Skipped { reason }));
                continue;
            }
            // The case as sent and judged: a prepared one points at its
            // fixture, and is reported as such.
            let (sent, answer, verdict) = match &setup {
                Err(reason) => {
                    let answer = Answer::NotSent {
                        reason: reason.clone(),
                    };
                    let verdict = Verdict::Errored {
                        reason: reason.clone(),
                    };
                    (Cow::Borrowed(case), answer, verdict)
                }
                Ok(_) if !implementation.supports(&case.op) => {
                    let reason =
                        format!("the implementation does not list operation {:?}", case.op);
                    let answer = Answer::NotSent {
                        reason: reason.clone(),
                    };
                    (Cow::Borrowed(case), answer, Verdict::Skipped { reason })
                }
                Ok(suite) => match suite.prepare(case) {
                    Ok(prepared) => {
                        let answer = implementation.run_case(file, prepared.case());
                        let verdict = judge(*suite, prepared.case(), &answer);
                        let verdict = selection.apply_policies(
                            *suite,
                            file,
                            prepared.case(),
                            &answer,
                            verdict,
                        );
                        // Ends the fixture, now that the answer is in.
                        (prepared.into_case(), answer, verdict)
                    }
                    Err(reason) => {
                        let reason = format!("cannot prepare the case: {reason}");
                        let answer = Answer::NotSent {
                            reason: reason.clone(),
                        };
                        (Cow::Borrowed(case), answer, Verdict::Errored { reason })
                    }
                },
            };
            let verdict = if selection.is_expected_to_fail(case) {
                expect_failure(verdict)
            } else {
                verdict
            };
            reports.push(CaseReport::new(&sent, answer, verdict));
            let late = implementation.late_faults();
            apply_late_faults(late, &mut files, &mut reports, selection);
        }
        files.push(FileReport {
            suite: file.suite.clone(),
            version: file.version.clone(),
            source: file.source.to_string(),
            cases: reports,
        });
    }
    implementation.finish();
    let late = implementation.late_faults();
    apply_late_faults(late, &mut files, &mut Vec::new(), selection);
    RunReport {
        implementation: implementation.info(),
        files,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::CaseOutcome;
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
            fixture: None,
        };
        VectorSet {
            files: vec![VectorFile {
                source: VectorSource::File("a.json".into()),
                schema: None,
                suite: "template".into(),
                version: "1.0.0".into(),
                description: "d".into(),
                notes: Default::default(),
                policies: Default::default(),
                answer_flags: Default::default(),
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
            ..Selection::default()
        };
        let report = run_stub(&selection);
        assert!(report.files.is_empty());
    }

    /// The test vectors run against a fresh stub under `selection`.
    fn run_stub(selection: &Selection) -> RunReport {
        run(
            &vectors(),
            &SuiteRegistry::standard(),
            &mut stub(),
            selection,
        )
    }

    fn list(text: &str) -> CaseList {
        CaseList::parse("list.txt", text)
    }

    #[test]
    fn skip_list_skips_without_sending() {
        let selection = Selection {
            skip: vec![list("template-0002\n")],
            ..Selection::default()
        };
        let report = run_stub(&selection);
        let tally = report.tally();
        assert_eq!((tally.passed, tally.failed, tally.skipped), (1, 0, 1));
        assert_eq!(
            report.case("template-0002").map(|case| &case.verdict),
            Some(&Verdict::Skipped {
                reason: "listed in list.txt:1".into()
            })
        );
    }

    #[test]
    fn xfail_turns_failures_into_expected_and_passes_into_failures() {
        let selection = Selection {
            xfail: vec![list("template-000*\n")],
            ..Selection::default()
        };
        let report = run_stub(&selection);
        let tally = report.tally();
        assert_eq!(
            (tally.passed, tally.failed, tally.expected_failures),
            (0, 1, 1)
        );
        assert_eq!(
            report.case("template-0001").map(|case| &case.verdict),
            Some(&Verdict::Failed {
                reason: "expected to fail but passed: remove it from the xfail list".into()
            })
        );
    }

    #[test]
    fn id_globs_select_cases_and_stale_entries_are_found() {
        let selection = Selection {
            ids: vec!["*-0002".into()],
            skip: vec![list("template-0001\nnothing-*\n")],
            ..Selection::default()
        };
        let report = run_stub(&selection);
        assert_eq!(report.files[0].cases.len(), 1);
        assert_eq!(report.files[0].cases[0].id, "template-0002");
        assert_eq!(
            selection.stale(&vectors()),
            vec!["list.txt:2: \"nothing-*\" matches no case; remove the line".to_string()]
        );
    }

    /// Answers every case with its own input, so a test sees what was sent.
    struct Echo;

    impl Implementation for Echo {
        fn info(&self) -> ImplementationInfo {
            ImplementationInfo {
                name: "echo".into(),
                language: "rust".into(),
                version: "0".into(),
            }
        }
        fn supports(&self, _op: &str) -> bool {
            true
        }
        fn begin_file(&mut self, _file: &VectorFile) -> Result<(), String> {
            Ok(())
        }
        fn run_case(&mut self, _file: &VectorFile, case: &Case) -> Answer {
            Answer::Replied(CaseOutcome::Output(case.input.clone()))
        }
    }

    fn fetch_file(input: Value, fixture: Value, expected: Value) -> VectorSet {
        VectorSet {
            files: vec![VectorFile {
                source: VectorSource::File("fetch.json".into()),
                schema: None,
                suite: "web".into(),
                version: "1.0.0".into(),
                description: "d".into(),
                notes: Default::default(),
                policies: Default::default(),
                answer_flags: Default::default(),
                header: Default::default(),
                config: json!({}),
                cases: vec![Case {
                    id: "web-3999".into(),
                    description: "d".into(),
                    flags: vec![],
                    op: "fetch".into(),
                    input,
                    expectation: Expectation::Valid { expected },
                    upstream: Default::default(),
                    fixture: Some(fixture),
                }],
            }],
        }
    }

    #[test]
    fn prepared_case_is_sent_judged_and_reported() {
        let input = json!({"url": "{base}/x", "allow_private": true, "timeout_ms": 1000,
                           "at": "2026-11-29T10:00:00Z", "id": "i"});
        // Echo answers with the input it got, so the expected output is the
        // input as written: it passes only if both had {base} replaced alike.
        let vectors = fetch_file(input.clone(), json!({"routes": [{"path": "/x"}]}), input);
        let report = run(
            &vectors,
            &SuiteRegistry::standard(),
            &mut Echo,
            &Selection::default(),
        );
        let case = &report.files[0].cases[0];
        assert_eq!(case.verdict, Verdict::Passed, "{case:?}");
        let url = case.input["url"].as_str().expect("a string url");
        assert!(
            url.starts_with("http://127.0.0.1:") && url.ends_with("/x"),
            "{url}"
        );
    }

    #[test]
    fn case_that_cannot_be_prepared_errors_without_being_sent() {
        let vectors = fetch_file(
            json!({"url": "http://example.com/", "allow_private": false, "timeout_ms": 1000,
                   "at": "2026-11-29T10:00:00Z", "id": "i"}),
            json!({"routes": [{"path": "/"}]}),
            json!({}),
        );
        let report = run(
            &vectors,
            &SuiteRegistry::standard(),
            &mut Echo,
            &Selection::default(),
        );
        let case = &report.files[0].cases[0];
        assert!(
            matches!(&case.verdict, Verdict::Errored { reason } if reason.starts_with("cannot prepare the case") && reason.contains("example.com")),
            "{case:?}"
        );
        assert!(matches!(case.answer, Answer::NotSent { .. }), "{case:?}");
    }

    /// Answers every case, then reports a late fault on the first one.
    struct LateDuplicate {
        answered: Vec<String>,
        reported: bool,
    }

    impl Implementation for LateDuplicate {
        fn info(&self) -> ImplementationInfo {
            ImplementationInfo {
                name: "late".into(),
                language: "rust".into(),
                version: "0".into(),
            }
        }
        fn supports(&self, _op: &str) -> bool {
            true
        }
        fn begin_file(&mut self, _file: &VectorFile) -> Result<(), String> {
            Ok(())
        }
        fn run_case(&mut self, _file: &VectorFile, case: &Case) -> Answer {
            self.answered.push(case.id.clone());
            Answer::Replied(CaseOutcome::Output(json!({"ok": true})))
        }
        fn late_faults(&mut self) -> Vec<LateFault> {
            match self.answered.first() {
                Some(first) if self.answered.len() == 2 && !self.reported => {
                    self.reported = true;
                    vec![LateFault {
                        id: first.clone(),
                        reason: "a second reply line".into(),
                    }]
                }
                _ => Vec::new(),
            }
        }
    }

    #[test]
    fn late_fault_makes_an_answered_case_an_error() {
        let mut vectors = vectors();
        let first = vectors.files[0].cases[0].clone();
        let mut second = first.clone();
        second.id = "template-0002".into();
        vectors.files[0].cases = vec![first.clone(), second];
        let mut implementation = LateDuplicate {
            answered: Vec::new(),
            reported: false,
        };
        let report = run(
            &vectors,
            &SuiteRegistry::standard(),
            &mut implementation,
            &Selection::default(),
        );
        assert_eq!(
            report.case(&first.id).map(|case| &case.verdict),
            Some(&Verdict::Errored {
                reason: "a second reply line".into()
            })
        );
    }
}
