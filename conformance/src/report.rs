//! The result of a run as data ([`RunReport`], serializable for machine
//! reports) and its rendering for people.
//!
//! The text ends with the plain `N passed, N failed` line that CI reads.

use std::io::{self, Write};

use serde::Serialize;
use serde_json::Value;

use crate::outcome::{Answer, Verdict};
use crate::protocol::{CaseOutcome, ImplementationInfo};
use crate::vectors::{Case, Expectation};

/// Everything a run found.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RunReport {
    pub implementation: ImplementationInfo,
    pub files: Vec<FileReport>,
}

/// The cases of one vector file.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FileReport {
    pub suite: String,
    pub version: String,
    pub source: String,
    pub cases: Vec<CaseReport>,
}

/// One case: the vector, the answer and the verdict.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CaseReport {
    pub id: String,
    pub description: String,
    pub flags: Vec<String>,
    pub op: String,
    pub input: Value,
    #[serde(flatten)]
    pub expectation: Expectation,
    pub answer: Answer,
    pub verdict: Verdict,
}

impl CaseReport {
    pub fn new(case: &Case, answer: Answer, verdict: Verdict) -> CaseReport {
        CaseReport {
            id: case.id.clone(),
            description: case.description.clone(),
            flags: case.flags.clone(),
            op: case.op.clone(),
            input: case.input.clone(),
            expectation: case.expectation.clone(),
            answer,
            verdict,
        }
    }
}

/// Counts of a run or a file; errored cases count as failed.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct Tally {
    pub passed: usize,
    pub failed: usize,
    pub skipped: usize,
}

impl Tally {
    fn count<'a>(cases: impl IntoIterator<Item = &'a CaseReport>) -> Tally {
        let mut tally = Tally::default();
        for case in cases {
            match case.verdict {
                Verdict::Passed => tally.passed += 1,
                Verdict::Failed { .. } | Verdict::Errored { .. } => tally.failed += 1,
                Verdict::Skipped { .. } => tally.skipped += 1,
            }
        }
        tally
    }

    /// `N passed, N failed`, with `, N skipped` only when some were.
    pub fn closing_line(&self) -> String {
        let mut line = format!("{} passed, {} failed", self.passed, self.failed);
        if self.skipped > 0 {
            line.push_str(&format!(", {} skipped", self.skipped));
        }
        line
    }
}

impl FileReport {
    pub fn tally(&self) -> Tally {
        Tally::count(&self.cases)
    }
}

impl RunReport {
    pub fn tally(&self) -> Tally {
        Tally::count(self.files.iter().flat_map(|file| &file.cases))
    }

    /// Failed and errored cases, in run order.
    pub fn failures(&self) -> impl Iterator<Item = &CaseReport> {
        self.files
            .iter()
            .flat_map(|file| &file.cases)
            .filter(|case| case.verdict.is_failure())
    }

    pub fn case(&self, id: &str) -> Option<&CaseReport> {
        self.files
            .iter()
            .flat_map(|file| &file.cases)
            .find(|case| case.id == id)
    }
}

/// Writes the report for a person: the implementation, one summary line per
/// vector file, the first `max_failures` failing cases in full, and the
/// closing line.
pub fn write_text(report: &RunReport, out: &mut dyn Write, max_failures: usize) -> io::Result<()> {
    let info = &report.implementation;
    writeln!(
        out,
        "implementation: {} {} ({})",
        info.name, info.version, info.language
    )?;
    for file in &report.files {
        let tally = file.tally();
        writeln!(
            out,
            "suite {} {}: {} passed, {} failed, {} skipped  [{}]",
            file.suite, file.version, tally.passed, tally.failed, tally.skipped, file.source
        )?;
    }
    let failures: Vec<&CaseReport> = report.failures().collect();
    for case in failures.iter().take(max_failures) {
        writeln!(out)?;
        write_case(case, out)?;
    }
    if failures.len() > max_failures {
        writeln!(out)?;
        writeln!(
            out,
            "... and {} more failing cases",
            failures.len() - max_failures
        )?;
    }
    writeln!(out)?;
    writeln!(out, "{}", report.tally().closing_line())
}

/// Writes one case in full: verdict, reason, input, expected and got.
pub fn write_case(case: &CaseReport, out: &mut dyn Write) -> io::Result<()> {
    let (status, reason) = match &case.verdict {
        Verdict::Errored { reason } => ("ERROR", reason.as_str()),
        Verdict::Failed { reason } => ("FAIL", reason.as_str()),
        Verdict::Skipped { reason } => ("SKIP", reason.as_str()),
        Verdict::Passed => ("PASS", ""),
    };
    writeln!(out, "{status} {}: {}", case.id, case.description)?;
    if !case.flags.is_empty() {
        writeln!(out, "  flags:    {}", case.flags.join(", "))?;
    }
    writeln!(out, "  reason:   {reason}")?;
    writeln!(out, "  op:       {}", case.op)?;
    writeln!(out, "  input:    {}", case.input)?;
    match &case.expectation {
        Expectation::Valid { expected } => writeln!(out, "  expected: {expected}")?,
        Expectation::Invalid { expected_error } => {
            writeln!(out, "  expected: error of kind {:?}", expected_error.kind)?;
        }
        Expectation::Acceptable { acceptable } => {
            writeln!(out, "  expected: one of")?;
            for output in acceptable {
                writeln!(out, "            {output}")?;
            }
        }
    }
    match &case.answer {
        Answer::Replied(CaseOutcome::Output(output)) => writeln!(out, "  got:      {output}"),
        Answer::Replied(CaseOutcome::Error(error)) => writeln!(
            out,
            "  got:      error of kind {:?}: {}",
            error.kind, error.message
        ),
        Answer::Replied(CaseOutcome::Skipped(skip)) => {
            writeln!(out, "  got:      skipped: {}", skip.reason)
        }
        Answer::Broken { reason } => writeln!(out, "  got:      no answer: {reason}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::SkipReason;
    use serde_json::json;

    fn case_report(id: &str, verdict: Verdict) -> CaseReport {
        CaseReport {
            id: id.into(),
            description: format!("case {id}"),
            flags: vec![],
            op: "template".into(),
            input: json!({"message": "m"}),
            expectation: Expectation::Valid {
                expected: json!({"kind": "other", "template": null}),
            },
            answer: Answer::Replied(CaseOutcome::Skipped(SkipReason { reason: "r".into() })),
            verdict,
        }
    }

    fn report(verdicts: Vec<Verdict>) -> RunReport {
        RunReport {
            implementation: ImplementationInfo {
                name: "n".into(),
                language: "l".into(),
                version: "v".into(),
            },
            files: vec![FileReport {
                suite: "template".into(),
                version: "1.0.0".into(),
                source: "embedded vectors/template.json".into(),
                cases: verdicts
                    .into_iter()
                    .enumerate()
                    .map(|(index, verdict)| case_report(&format!("template-{index:04}"), verdict))
                    .collect(),
            }],
        }
    }

    fn text(report: &RunReport, max_failures: usize) -> String {
        let mut out = Vec::new();
        write_text(report, &mut out, max_failures).expect("writing to a Vec cannot fail");
        String::from_utf8(out).expect("the report is UTF-8")
    }

    #[test]
    fn closing_line_mentions_skipped_only_when_some_were() {
        let passing = report(vec![Verdict::Passed, Verdict::Passed]);
        assert!(text(&passing, 10).ends_with("\n2 passed, 0 failed\n"));
        let skipping = report(vec![
            Verdict::Passed,
            Verdict::Skipped { reason: "r".into() },
        ]);
        assert!(text(&skipping, 10).ends_with("\n1 passed, 0 failed, 1 skipped\n"));
    }

    #[test]
    fn errored_cases_count_as_failed_and_are_listed() {
        let run = report(vec![
            Verdict::Passed,
            Verdict::Errored {
                reason: "port crashed".into(),
            },
            Verdict::Failed {
                reason: "differs".into(),
            },
        ]);
        let shown = text(&run, 10);
        assert!(
            shown.contains("ERROR template-0001: case template-0001"),
            "{shown}"
        );
        assert!(shown.contains("reason:   port crashed"), "{shown}");
        assert!(shown.contains("FAIL template-0002"), "{shown}");
        assert!(
            shown.contains("expected: {\"kind\":\"other\",\"template\":null}"),
            "{shown}"
        );
        assert!(shown.ends_with("\n1 passed, 2 failed\n"), "{shown}");
    }

    #[test]
    fn failures_beyond_the_limit_are_counted_not_shown() {
        let run = report(vec![
            Verdict::Failed { reason: "a".into() },
            Verdict::Failed { reason: "b".into() },
            Verdict::Failed { reason: "c".into() },
        ]);
        let shown = text(&run, 1);
        assert!(shown.contains("FAIL template-0000"), "{shown}");
        assert!(!shown.contains("FAIL template-0001"), "{shown}");
        assert!(shown.contains("... and 2 more failing cases"), "{shown}");
    }

    #[test]
    fn report_serializes_for_machines() {
        let run = report(vec![Verdict::Failed {
            reason: "differs".into(),
        }]);
        let value = serde_json::to_value(&run).expect("a report serializes");
        let case = &value["files"][0]["cases"][0];
        assert_eq!(case["id"], "template-0000");
        assert_eq!(case["result"], "valid");
        assert_eq!(case["verdict"]["status"], "failed");
        assert_eq!(case["answer"]["replied"]["skipped"]["reason"], "r");
    }
}
