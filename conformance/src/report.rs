//! The result of a run as data ([`RunReport`], serializable for machine
//! reports) and its rendering for people.
//!
//! The text ends with the plain `N passed, N failed` line that CI reads.
//! [`write_json`] and [`write_junit`] write the same report for machines.

use std::io::{self, Write};

use serde::Serialize;
use serde_json::Value;

use crate::outcome::{Answer, Verdict};
use crate::protocol::{CaseOutcome, ImplementationInfo};
use crate::vectors::{Alternative, Case, Expectation};

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
    /// Cases of an `--xfail` list that failed, as expected.
    pub expected_failures: usize,
}

impl Tally {
    fn count<'a>(cases: impl IntoIterator<Item = &'a CaseReport>) -> Tally {
        let mut tally = Tally::default();
        for case in cases {
            match case.verdict {
                Verdict::Passed => tally.passed += 1,
                Verdict::Failed { .. } | Verdict::Errored { .. } => tally.failed += 1,
                Verdict::Skipped { .. } => tally.skipped += 1,
                Verdict::ExpectedFailure { .. } => tally.expected_failures += 1,
            }
        }
        tally
    }

    /// `N passed, N failed`, with `, N skipped` and `, N expected
    /// failures` only when some were.
    pub fn closing_line(&self) -> String {
        let mut line = format!("{} passed, {} failed", self.passed, self.failed);
        if self.skipped > 0 {
            line.push_str(&format!(", {} skipped", self.skipped));
        }
        if self.expected_failures > 0 {
            line.push_str(&format!(", {} expected failures", self.expected_failures));
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
        let expected = match tally.expected_failures {
            0 => String::new(),
            n => format!(", {n} expected failures"),
        };
        writeln!(
            out,
            "suite {} {}: {} passed, {} failed, {} skipped{expected}  [{}]",
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
        Verdict::ExpectedFailure { reason } => ("XFAIL", reason.as_str()),
        Verdict::Passed => ("PASS", ""),
    };
    writeln!(out, "{status} {}: {}", case.id, case.description)?;
    if !case.flags.is_empty() {
        writeln!(out, "  flags:    {}", case.flags.join(", "))?;
    }
    writeln!(out, "  reason:   {reason}")?;
    writeln!(out, "  op:       {}", case.op)?;
    writeln!(out, "  input:    {}", case.input)?;
    write_expected_and_got(case, out)
}

/// The `expected:` and `got:` lines of a case.
fn write_expected_and_got(case: &CaseReport, out: &mut dyn Write) -> io::Result<()> {
    match &case.expectation {
        Expectation::Valid { expected } => writeln!(out, "  expected: {expected}")?,
        Expectation::Invalid { expected_error } => {
            writeln!(out, "  expected: error of kind {:?}", expected_error.kind)?;
        }
        Expectation::Acceptable { acceptable } => {
            writeln!(out, "  expected: one of")?;
            for alternative in acceptable {
                match alternative {
                    Alternative::Expected(output) => writeln!(out, "            {output}")?,
                    Alternative::ExpectedError(error) => {
                        writeln!(out, "            error of kind {:?}", error.kind)?;
                    }
                }
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
        Answer::NotSent { reason } => writeln!(out, "  got:      not sent: {reason}"),
    }
}

/// The `format` tag of the JSON report file; `agentfence matrix` reads
/// only reports that carry it.
pub const JSON_REPORT_FORMAT: &str = "agentfence-run-report/1";

/// The JSON report file: a format tag, the run's counts and the whole
/// [`RunReport`] (implementation, then per file its suite, version, source
/// and cases with expectation, answer and verdict).
#[derive(Serialize)]
struct JsonReport<'a> {
    format: &'static str,
    tally: Tally,
    #[serde(flatten)]
    run: &'a RunReport,
}

/// Writes the report as one pretty-printed JSON object.
pub fn write_json(report: &RunReport, out: &mut dyn Write) -> io::Result<()> {
    let json = JsonReport {
        format: JSON_REPORT_FORMAT,
        tally: report.tally(),
        run: report,
    };
    serde_json::to_writer_pretty(&mut *out, &json)?;
    writeln!(out)
}

/// Writes the report as JUnit XML: one `<testsuite>` per vector file, one
/// `<testcase>` per case. A failed case has a `<failure>` (an errored one an
/// `<error>`) whose message is the reason and whose text is the expected
/// and got lines; skipped cases and expected failures are `<skipped>`, the
/// latter with a message starting `expected failure:`.
pub fn write_junit(report: &RunReport, out: &mut dyn Write) -> io::Result<()> {
    let info = &report.implementation;
    writeln!(out, r#"<?xml version="1.0" encoding="UTF-8"?>"#)?;
    writeln!(
        out,
        r#"<testsuites name="{}" {}>"#,
        xml_escape(&format!(
            "agentfence run: {} {} ({})",
            info.name, info.version, info.language
        )),
        JunitCounts::of(report.files.iter().flat_map(|file| &file.cases)).attributes(),
    )?;
    for file in &report.files {
        writeln!(
            out,
            r#"  <testsuite name="{}" {}>"#,
            xml_escape(&format!(
                "{} {} [{}]",
                file.suite, file.version, file.source
            )),
            JunitCounts::of(&file.cases).attributes(),
        )?;
        for case in &file.cases {
            let open = format!(
                r#"    <testcase name="{}" classname="{}""#,
                xml_escape(&case.id),
                xml_escape(&format!("{}.{}", file.suite, case.op)),
            );
            let detail = || -> io::Result<String> {
                let mut text = Vec::new();
                write_expected_and_got(case, &mut text)?;
                Ok(String::from_utf8_lossy(&text).into_owned())
            };
            match &case.verdict {
                Verdict::Passed => writeln!(out, "{open}/>")?,
                Verdict::Failed { reason } | Verdict::Errored { reason } => {
                    let element = if matches!(case.verdict, Verdict::Failed { .. }) {
                        "failure"
                    } else {
                        "error"
                    };
                    writeln!(out, "{open}>")?;
                    writeln!(
                        out,
                        r#"      <{element} message="{}">{}</{element}>"#,
                        xml_escape(reason),
                        xml_escape(&detail()?)
                    )?;
                    writeln!(out, "    </testcase>")?;
                }
                Verdict::Skipped { reason } => {
                    writeln!(out, "{open}>")?;
                    writeln!(out, r#"      <skipped message="{}"/>"#, xml_escape(reason))?;
                    writeln!(out, "    </testcase>")?;
                }
                Verdict::ExpectedFailure { reason } => {
                    writeln!(out, "{open}>")?;
                    writeln!(
                        out,
                        r#"      <skipped message="{}">{}</skipped>"#,
                        xml_escape(&format!("expected failure: {reason}")),
                        xml_escape(&detail()?)
                    )?;
                    writeln!(out, "    </testcase>")?;
                }
            }
        }
        writeln!(out, "  </testsuite>")?;
    }
    writeln!(out, "</testsuites>")
}

/// What a `<testsuites>` or `<testsuite>` element counts. JUnit keeps
/// failures and errors apart, which [`Tally`] does not, and has no expected
/// failure: those are written as skipped.
struct JunitCounts {
    tests: usize,
    failures: usize,
    errors: usize,
    skipped: usize,
}

impl JunitCounts {
    fn of<'a>(cases: impl IntoIterator<Item = &'a CaseReport>) -> JunitCounts {
        let mut counts = JunitCounts {
            tests: 0,
            failures: 0,
            errors: 0,
            skipped: 0,
        };
        for case in cases {
            counts.tests += 1;
            match case.verdict {
                Verdict::Passed => {}
                Verdict::Failed { .. } => counts.failures += 1,
                Verdict::Errored { .. } => counts.errors += 1,
                Verdict::Skipped { .. } | Verdict::ExpectedFailure { .. } => counts.skipped += 1,
            }
        }
        counts
    }

    fn attributes(&self) -> String {
        format!(
            r#"tests="{}" failures="{}" errors="{}" skipped="{}""#,
            self.tests, self.failures, self.errors, self.skipped
        )
    }
}

/// Escapes text for an XML 1.0 attribute value or element content. Markup
/// characters become entities, tab / newline / carriage return become
/// character references (so attribute values keep them), and characters
/// XML 1.0 forbids (other C0 controls, U+FFFE, U+FFFF) become `\u{..}`
/// text, since not even a character reference may name them.
pub fn xml_escape(text: &str) -> String {
    let mut escaped = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => escaped.push_str("&amp;"),
            '<' => escaped.push_str("&lt;"),
            '>' => escaped.push_str("&gt;"),
            '"' => escaped.push_str("&quot;"),
            '\'' => escaped.push_str("&apos;"),
            '\t' => escaped.push_str("&#9;"),
            '\n' => escaped.push_str("&#10;"),
            '\r' => escaped.push_str("&#13;"),
            '\u{0}'..='\u{1f}' | '\u{fffe}' | '\u{ffff}' => {
                escaped.push_str(&format!("\\u{{{:x}}}", u32::from(c)));
            }
            c => escaped.push(c),
        }
    }
    escaped
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
        let expecting = report(vec![
            Verdict::Passed,
            Verdict::Skipped { reason: "r".into() },
            Verdict::ExpectedFailure { reason: "r".into() },
        ]);
        let shown = text(&expecting, 10);
        assert!(
            shown.ends_with("\n1 passed, 0 failed, 1 skipped, 1 expected failures\n"),
            "{shown}"
        );
        assert!(
            !shown.contains("XFAIL"),
            "expected failures are not listed: {shown}"
        );
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

        // A case never sent records no reply, only why it was not sent.
        let mut run = run;
        run.files[0].cases[0].answer = Answer::NotSent {
            reason: "listed in skip.txt:1".into(),
        };
        let value = serde_json::to_value(&run).expect("a report serializes");
        assert_eq!(
            value["files"][0]["cases"][0]["answer"],
            json!({"not_sent": {"reason": "listed in skip.txt:1"}})
        );
    }

    #[test]
    fn acceptable_case_lists_every_answer_it_allows() {
        let mut run = report(vec![Verdict::Failed {
            reason: "none".into(),
        }]);
        run.files[0].cases[0].expectation = Expectation::Acceptable {
            acceptable: vec![
                Alternative::Expected(json!({"kind": "other", "template": null})),
                Alternative::ExpectedError(crate::vectors::ExpectedError {
                    kind: "timeout".into(),
                }),
            ],
        };
        let shown = text(&run, 10);
        assert!(
            shown.contains(
                "  expected: one of\n            {\"kind\":\"other\",\"template\":null}\n            error of kind \"timeout\"\n  got:      skipped: r\n"
            ),
            "{shown}"
        );
        let value = serde_json::to_value(&run).expect("a report serializes");
        let case = &value["files"][0]["cases"][0];
        assert_eq!(case["result"], "acceptable");
        assert_eq!(
            case["acceptable"],
            json!([{"expected": {"kind": "other", "template": null}}, {"expected_error": {"kind": "timeout"}}])
        );
    }

    #[test]
    fn xml_escape_handles_markup_and_forbidden_characters() {
        assert_eq!(
            xml_escape("a<b>&\"c'\n\u{0}\u{1b}\u{fffe}é"),
            "a&lt;b&gt;&amp;&quot;c&apos;&#10;\\u{0}\\u{1b}\\u{fffe}é"
        );
    }

    #[test]
    fn junit_lists_each_verdict() {
        let run = report(vec![
            Verdict::Passed,
            Verdict::Failed {
                reason: "<differs> & \"why\"".into(),
            },
            Verdict::Errored {
                reason: "crash".into(),
            },
            Verdict::Skipped { reason: "r".into() },
            Verdict::ExpectedFailure { reason: "x".into() },
        ]);
        let mut out = Vec::new();
        write_junit(&run, &mut out).expect("writing to a Vec cannot fail");
        let xml = String::from_utf8(out).expect("UTF-8");
        assert!(
            xml.contains(r#"tests="5" failures="1" errors="1" skipped="2""#),
            "{xml}"
        );
        assert!(
            xml.contains(r#"<failure message="&lt;differs&gt; &amp; &quot;why&quot;">"#),
            "{xml}"
        );
        assert!(xml.contains(r#"<error message="crash">"#), "{xml}");
        assert!(
            xml.contains(r#"<skipped message="expected failure: x">"#),
            "{xml}"
        );
        assert!(xml.trim_end().ends_with("</testsuites>"), "{xml}");
    }
}
