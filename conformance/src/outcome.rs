//! What an implementation answered for a case, and the verdict of that
//! answer against the vector.
//!
//! Kept apart from the runner so that the in-process trials of `cargo test`
//! and the reports judge exactly as `agentfence run` does.

use serde::Serialize;
use serde_json::Value;

use crate::protocol::CaseOutcome;
use crate::suites::Suite;
use crate::vectors::{Alternative, Case, Expectation};

/// An implementation's answer to one case.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Answer {
    /// One of the protocol's three outcomes.
    Replied(CaseOutcome),
    /// No usable answer: the port crashed, hung, answered garbage or
    /// another case's id, or the reference panicked.
    Broken { reason: String },
    /// The case was never sent, so there is no answer: it was skipped (a
    /// `--skip` list, an operation the implementation does not list), or the
    /// implementation could not be readied for it (a port that was given
    /// up on, a fixture that could not be served). The verdict says which.
    /// An implementation returns it from `run_case` only when it could not
    /// send the case, which is judged an error.
    NotSent { reason: String },
}

/// How a case went.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "status", rename_all = "snake_case")]
pub enum Verdict {
    Passed,
    /// A well-formed answer that the vector does not accept.
    Failed {
        reason: String,
    },
    /// No usable answer; counts as a failure.
    Errored {
        reason: String,
    },
    Skipped {
        reason: String,
    },
    /// Failed or errored as its `--xfail` list said it would; not a
    /// failure of the run. The reason is the failure's own.
    ExpectedFailure {
        reason: String,
    },
}

impl Verdict {
    /// Failed or errored: what makes a run fail.
    pub fn is_failure(&self) -> bool {
        matches!(self, Verdict::Failed { .. } | Verdict::Errored { .. })
    }
}

/// Judges `answer` against `case`.
pub fn judge(suite: &dyn Suite, case: &Case, answer: &Answer) -> Verdict {
    let outcome = match answer {
        Answer::Broken { reason } => {
            return Verdict::Errored {
                reason: reason.clone(),
            };
        }
        Answer::NotSent { reason } => {
            return Verdict::Errored {
                reason: reason.clone(),
            };
        }
        Answer::Replied(outcome) => outcome,
    };
    let output_matches =
        |expected: &Value, got: &Value| suite.output_matches(&case.op, expected, got);
    match (outcome, &case.expectation) {
        (CaseOutcome::Skipped(skip), _) => Verdict::Skipped {
            reason: skip.reason.clone(),
        },
        // Every operation's output is a JSON object: anything else is named
        // as such rather than compared.
        (CaseOutcome::Output(got), _) if !got.is_object() => Verdict::Failed {
            reason: format!("the output is {}, not a JSON object", json_kind(got)),
        },
        (CaseOutcome::Output(got), Expectation::Valid { expected }) => {
            if output_matches(expected, got) {
                Verdict::Passed
            } else {
                Verdict::Failed {
                    reason: "the output differs from the expected one".into(),
                }
            }
        }
        (CaseOutcome::Output(got), Expectation::Acceptable { acceptable }) => {
            if acceptable.iter().any(|alternative| match alternative {
                Alternative::Expected(expected) => output_matches(expected, got),
                Alternative::ExpectedError(_) => false,
            }) {
                Verdict::Passed
            } else {
                Verdict::Failed {
                    reason: format!(
                        "the output is none of the acceptable answers ({})",
                        describe_alternatives(acceptable)
                    ),
                }
            }
        }
        (CaseOutcome::Error(error), Expectation::Acceptable { acceptable }) => {
            if acceptable.iter().any(|alternative| match alternative {
                Alternative::ExpectedError(expected) => expected.kind == error.kind,
                Alternative::Expected(_) => false,
            }) {
                Verdict::Passed
            } else {
                Verdict::Failed {
                    reason: format!(
                        "an error of kind {:?} ({}) is none of the acceptable answers ({})",
                        error.kind,
                        error.message,
                        describe_alternatives(acceptable)
                    ),
                }
            }
        }
        (CaseOutcome::Output(_), Expectation::Invalid { expected_error }) => Verdict::Failed {
            reason: format!(
                "an output where an error of kind {:?} was expected",
                expected_error.kind
            ),
        },
        (CaseOutcome::Error(error), Expectation::Invalid { expected_error }) => {
            if error.kind == expected_error.kind {
                Verdict::Passed
            } else {
                Verdict::Failed {
                    reason: format!(
                        "an error of kind {:?} where kind {:?} was expected",
                        error.kind, expected_error.kind
                    ),
                }
            }
        }
        (CaseOutcome::Error(error), Expectation::Valid { .. }) => Verdict::Failed {
            reason: format!(
                "an error of kind {:?} ({}) where an output was expected",
                error.kind, error.message
            ),
        },
    }
}

/// What kind of JSON value `value` is, with an article.
fn json_kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// What an `acceptable` case allows, in a few words: `2 outputs or an
/// error of kind "timeout"`.
pub fn describe_alternatives(acceptable: &[Alternative]) -> String {
    let outputs = acceptable
        .iter()
        .filter(|alternative| matches!(alternative, Alternative::Expected(_)))
        .count();
    let kinds: Vec<String> = acceptable
        .iter()
        .filter_map(|alternative| match alternative {
            Alternative::ExpectedError(error) => Some(format!("{:?}", error.kind)),
            Alternative::Expected(_) => None,
        })
        .collect();
    let mut parts = Vec::new();
    match outputs {
        0 => {}
        1 => parts.push("1 output".to_owned()),
        n => parts.push(format!("{n} outputs")),
    }
    match kinds.len() {
        0 => {}
        _ => parts.push(format!("an error of kind {}", kinds.join(" or "))),
    }
    parts.join(" or ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::{ReportedError, SkipReason};
    use crate::suites::template::TemplateSuite;
    use crate::vectors::ExpectedError;
    use serde_json::json;

    fn case(expectation: Expectation) -> Case {
        Case {
            id: "template-0001".into(),
            description: "d".into(),
            flags: vec![],
            op: "template".into(),
            input: json!({}),
            expectation,
            upstream: Default::default(),
            fixture: None,
        }
    }

    fn output(value: Value) -> Answer {
        Answer::Replied(CaseOutcome::Output(value))
    }

    fn error(kind: &str) -> Answer {
        Answer::Replied(CaseOutcome::Error(ReportedError {
            kind: kind.into(),
            message: "m".into(),
        }))
    }

    #[test]
    fn valid_case_compares_the_output() {
        let valid = case(Expectation::Valid {
            expected: json!({"a": 1}),
        });
        assert_eq!(
            judge(&TemplateSuite, &valid, &output(json!({"a": 1}))),
            Verdict::Passed
        );
        assert!(judge(&TemplateSuite, &valid, &output(json!({"a": 2}))).is_failure());
        assert!(judge(&TemplateSuite, &valid, &error("x")).is_failure());
    }

    #[test]
    fn invalid_case_compares_only_the_kind() {
        let invalid = case(Expectation::Invalid {
            expected_error: ExpectedError { kind: "bad".into() },
        });
        assert_eq!(
            judge(&TemplateSuite, &invalid, &error("bad")),
            Verdict::Passed
        );
        assert!(judge(&TemplateSuite, &invalid, &error("other")).is_failure());
        assert!(judge(&TemplateSuite, &invalid, &output(json!({}))).is_failure());
    }

    #[test]
    fn acceptable_case_takes_any_listed_answer() {
        let acceptable = case(Expectation::Acceptable {
            acceptable: vec![
                Alternative::Expected(json!({"n": 1})),
                Alternative::Expected(json!({"n": 2})),
                Alternative::ExpectedError(ExpectedError {
                    kind: "timeout".into(),
                }),
            ],
        });
        for passing in [
            output(json!({"n": 1})),
            output(json!({"n": 2})),
            error("timeout"),
        ] {
            assert_eq!(
                judge(&TemplateSuite, &acceptable, &passing),
                Verdict::Passed,
                "{passing:?}"
            );
        }
        let third = judge(&TemplateSuite, &acceptable, &output(json!({"n": 3})));
        assert_eq!(
            third,
            Verdict::Failed {
                reason: "the output is none of the acceptable answers \
                         (2 outputs or an error of kind \"timeout\")"
                    .into()
            }
        );
        let other_kind = judge(&TemplateSuite, &acceptable, &error("bad_request"));
        assert!(other_kind.is_failure(), "{other_kind:?}");
    }

    #[test]
    fn acceptable_outputs_only_refuse_every_error() {
        let acceptable = case(Expectation::Acceptable {
            acceptable: vec![
                Alternative::Expected(json!({"n": 1})),
                Alternative::Expected(json!({"n": 2})),
            ],
        });
        let verdict = judge(&TemplateSuite, &acceptable, &error("timeout"));
        assert!(
            matches!(&verdict, Verdict::Failed { reason } if reason.contains("2 outputs")),
            "{verdict:?}"
        );
    }

    #[test]
    fn broken_answer_is_an_error_and_skip_is_not_a_failure() {
        let valid = case(Expectation::Valid {
            expected: json!({"n": 1}),
        });
        let broken = Answer::Broken {
            reason: "port crashed".into(),
        };
        assert_eq!(
            judge(&TemplateSuite, &valid, &broken),
            Verdict::Errored {
                reason: "port crashed".into()
            }
        );
        let skipped = Answer::Replied(CaseOutcome::Skipped(SkipReason {
            reason: "no".into(),
        }));
        let verdict = judge(&TemplateSuite, &valid, &skipped);
        assert!(matches!(verdict, Verdict::Skipped { .. }) && !verdict.is_failure());
        let not_sent = Answer::NotSent {
            reason: "given up".into(),
        };
        assert_eq!(
            judge(&TemplateSuite, &valid, &not_sent),
            Verdict::Errored {
                reason: "given up".into()
            }
        );
    }

    #[test]
    fn output_that_is_not_an_object_is_named() {
        // A port that answers a string where the operation's output object
        // belongs is told so, not that the output differs.
        let valid = case(Expectation::Valid {
            expected: json!({"text": "x"}),
        });
        for (got, kind) in [
            (json!("x"), "a string"),
            (json!(["x"]), "an array"),
            (json!(null), "null"),
            (json!(1), "a number"),
        ] {
            assert_eq!(
                judge(&TemplateSuite, &valid, &output(got)),
                Verdict::Failed {
                    reason: format!("the output is {kind}, not a JSON object")
                }
            );
        }
    }
}
