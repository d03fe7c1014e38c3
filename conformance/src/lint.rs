//! Rules a set of vector files must keep beyond what the JSON Schema can
//! say: ids unique across files and not retired (`vectors/retired-ids.txt`),
//! flags defined in the file's notes, `acceptable` cases with two answers
//! or more and a flag saying why, upstream answers consistent with the
//! `upstream-divergence` flag, and each suite's own checks of a case
//! ([`Suite::check_case`]: a web fetch case's fixture, and that nothing it
//! fetches leaves loopback).
//!
//! The runner refuses a set that breaks them, and `cargo test` checks the
//! shipped vectors with the same code.

use std::collections::BTreeMap;
use std::fmt;

use serde_json::Value;

use crate::suites::{Suite, SuiteRegistry};
use crate::vectors::{
    Alternative, Case, Expectation, RETIRED_IDS_FILE, RetiredId, VectorFile, retired_ids,
};

/// The flag every case whose expected answer differs from an upstream's
/// carries.
pub const UPSTREAM_DIVERGENCE: &str = "upstream-divergence";

/// One broken rule.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LintProblem {
    pub file: String,
    pub case: Option<String>,
    pub message: String,
}

impl fmt::Display for LintProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.case {
            Some(id) => write!(f, "{}: case {id}: {}", self.file, self.message),
            None => write!(f, "{}: {}", self.file, self.message),
        }
    }
}

/// Every broken rule in `files`, in file and case order, with the
/// embedded list of retired ids.
pub fn lint(files: &[VectorFile], registry: &SuiteRegistry) -> Vec<LintProblem> {
    match retired_ids() {
        Ok(retired) => lint_with_retired(files, registry, &retired),
        Err(message) => vec![LintProblem {
            file: format!("embedded vectors/{RETIRED_IDS_FILE}"),
            case: None,
            message,
        }],
    }
}

/// Every broken rule in `files`, given the ids that must not be used.
pub fn lint_with_retired(
    files: &[VectorFile],
    registry: &SuiteRegistry,
    retired: &[RetiredId],
) -> Vec<LintProblem> {
    let mut problems = Vec::new();
    let mut first_seen: BTreeMap<&str, String> = BTreeMap::new();
    for file in files {
        let file_name = file.source.to_string();
        let mut report = |case: Option<&Case>, message: String| {
            problems.push(LintProblem {
                file: file_name.clone(),
                case: case.map(|case| case.id.clone()),
                message,
            });
        };
        for flag in file.notes.keys() {
            if !is_kebab_case(flag) {
                report(None, format!("note {flag:?} is not a kebab-case flag name"));
            }
        }
        let suite = registry.find(&file.suite);
        for case in &file.cases {
            if !has_id_shape(&case.id, &file.suite) {
                report(
                    Some(case),
                    format!("id is not {}-NNNN (four digits)", file.suite),
                );
            }
            if let Some(retired) = retired.iter().find(|retired| retired.id == case.id) {
                report(
                    Some(case),
                    format!(
                        "id is retired ({RETIRED_IDS_FILE} line {}: {}); ids are never reused",
                        retired.line, retired.reason
                    ),
                );
            }
            match first_seen.get(case.id.as_str()) {
                Some(earlier) => report(
                    Some(case),
                    format!("id already used in {earlier}; ids are never reused"),
                ),
                None => {
                    first_seen.insert(&case.id, file_name.clone());
                }
            }
            if case.description.trim().is_empty() {
                report(Some(case), "description is empty".into());
            }
            for flag in &case.flags {
                if !file.notes.contains_key(flag) {
                    report(
                        Some(case),
                        format!("flag {flag:?} is not defined in the file's notes"),
                    );
                }
            }
            if let Expectation::Acceptable { acceptable } = &case.expectation {
                check_acceptable(case, acceptable, &mut report);
            }
            check_policies(file, case, &mut report);
            for key in case.upstream.keys() {
                if !is_upstream_key(key) {
                    report(
                        Some(case),
                        format!("upstream key {key:?} is not name@version"),
                    );
                }
            }
            if let Some(suite) = suite {
                check_divergence(suite, file, case, &mut report);
                if let Err(message) = suite.check_case(case) {
                    report(Some(case), message);
                }
            }
        }
    }
    problems
}

/// The flags an acceptable answer needs are policy flags (a note with a
/// `policy`) that the case carries; the first answer, the suite's own
/// choice, needs none; and a policy flag on a case is needed by one of its
/// answers at least, since it decides nothing otherwise.
fn check_policies(file: &VectorFile, case: &Case, report: &mut impl FnMut(Option<&Case>, String)) {
    let answers = match &case.expectation {
        Expectation::Acceptable { acceptable } => acceptable.len(),
        _ => 0,
    };
    let needed: Vec<&String> = (0..answers)
        .flat_map(|index| file.answer_flags(case, index))
        .collect();
    if !file.answer_flags(case, 0).is_empty() {
        report(
            Some(case),
            "the first acceptable answer, the suite's own choice, may need no flag".into(),
        );
    }
    for index in 0..answers {
        for flag in file.answer_flags(case, index) {
            if !file.policies.contains_key(flag) {
                report(
                    Some(case),
                    format!(
                        "acceptable answer {} needs flag {flag:?}, which names no policy (its note has no \"policy\")",
                        index + 1
                    ),
                );
            }
            if !case.has_flag(flag) {
                report(
                    Some(case),
                    format!(
                        "acceptable answer {} needs flag {flag:?}, which the case does not carry",
                        index + 1
                    ),
                );
            }
        }
    }
    for flag in case
        .flags
        .iter()
        .filter(|flag| file.policies.contains_key(*flag))
    {
        if !needed.contains(&flag) {
            report(
                Some(case),
                format!(
                    "flag {flag:?} names a policy, but no acceptable answer of the case needs it"
                ),
            );
        }
    }
}

/// An `acceptable` case allows at least two different answers and carries
/// a flag (besides `upstream-divergence`) whose note says why more than one
/// is right; that the flag is defined is checked with every other flag.
fn check_acceptable(
    case: &Case,
    acceptable: &[Alternative],
    report: &mut impl FnMut(Option<&Case>, String),
) {
    if !case.flags.iter().any(|flag| flag != UPSTREAM_DIVERGENCE) {
        report(
            Some(case),
            "result is \"acceptable\" but no flag says why".into(),
        );
    }
    if acceptable.len() < 2 {
        report(
            Some(case),
            format!(
                "result is \"acceptable\" but it lists {} answer; list at least two, or make the case valid or invalid",
                acceptable.len()
            ),
        );
    }
    for (index, alternative) in acceptable.iter().enumerate() {
        if acceptable[..index].contains(alternative) {
            report(
                Some(case),
                format!("acceptable answer {} repeats an earlier one", index + 1),
            );
        }
    }
}

/// `upstream-divergence` is on a case exactly when some upstream answers
/// something the case does not accept of a port that follows no policy
/// flag: an answer only a policy allows is still recorded, since the suite
/// chose otherwise.
fn check_divergence(
    suite: &dyn Suite,
    file: &VectorFile,
    case: &Case,
    report: &mut impl FnMut(Option<&Case>, String),
) {
    let diverging: Vec<&str> = case
        .upstream
        .iter()
        .filter(|(_, answer)| !accepts(suite, file, case, answer))
        .map(|(key, _)| key.as_str())
        .collect();
    let flagged = case.has_flag(UPSTREAM_DIVERGENCE);
    if flagged && diverging.is_empty() {
        report(
            Some(case),
            if case.upstream.is_empty() {
                format!("flagged {UPSTREAM_DIVERGENCE} but has no \"upstream\" answer")
            } else {
                format!("flagged {UPSTREAM_DIVERGENCE} but every \"upstream\" answer is accepted")
            },
        );
    }
    if !flagged && !diverging.is_empty() {
        report(
            Some(case),
            format!(
                "the answer of {} differs from the expected one but the case is not flagged {UPSTREAM_DIVERGENCE}",
                diverging.join(", ")
            ),
        );
    }
}

/// Whether `answer`, what an upstream answered, passes the case. An upstream
/// that refused the input is recorded as `{"error": {"kind": K, ...}}`
/// (without `kind` where none of ours fits), which passes an error of kind
/// `K`, as `tools/record_upstream.py` judges it. Only answers that need no
/// policy flag count.
fn accepts(suite: &dyn Suite, file: &VectorFile, case: &Case, answer: &Value) -> bool {
    let error_kind = answer
        .get("error")
        .filter(|_| answer.as_object().is_some_and(|object| object.len() == 1))
        .and_then(|error| error.get("kind"))
        .and_then(Value::as_str);
    match &case.expectation {
        Expectation::Valid { expected } => suite.output_matches(&case.op, expected, answer),
        Expectation::Invalid { expected_error } => error_kind == Some(&expected_error.kind),
        Expectation::Acceptable { acceptable } => {
            let allowed = acceptable
                .iter()
                .enumerate()
                .filter(|(index, _)| file.answer_flags(case, *index).is_empty())
                .map(|(_, alternative)| alternative);
            allowed.into_iter().any(|alternative| match alternative {
                Alternative::Expected(expected) => suite.output_matches(&case.op, expected, answer),
                Alternative::ExpectedError(expected) => error_kind == Some(&expected.kind),
            })
        }
    }
}

fn is_kebab_case(name: &str) -> bool {
    !name.is_empty()
        && name.split('-').all(|part| {
            !part.is_empty()
                && part
                    .bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
        })
}

fn has_id_shape(id: &str, suite: &str) -> bool {
    id.strip_prefix(suite)
        .and_then(|rest| rest.strip_prefix('-'))
        .is_some_and(|digits| digits.len() == 4 && digits.bytes().all(|b| b.is_ascii_digit()))
}

fn is_upstream_key(key: &str) -> bool {
    key.split_once('@').is_some_and(|(name, version)| {
        !name.is_empty() && !version.is_empty() && !version.contains('@')
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::vectors::{ExpectedError, Note, VectorSource};
    use serde_json::json;

    fn case(id: &str, flags: &[&str], upstream: &[(&str, Value)]) -> Case {
        Case {
            id: id.into(),
            description: "d".into(),
            flags: flags.iter().map(|flag| flag.to_string()).collect(),
            op: "template".into(),
            input: json!({"message": "m"}),
            expectation: Expectation::Valid {
                expected: json!({"kind": "other", "template": null}),
            },
            upstream: upstream
                .iter()
                .map(|(key, value)| (key.to_string(), value.clone()))
                .collect(),
            fixture: None,
        }
    }

    fn file(name: &str, cases: Vec<Case>) -> VectorFile {
        VectorFile {
            source: VectorSource::File(name.into()),
            schema: None,
            suite: "template".into(),
            version: "1.0.0".into(),
            description: "d".into(),
            notes: BTreeMap::from([(
                UPSTREAM_DIVERGENCE.to_owned(),
                Note {
                    description: "d".into(),
                    effect: "e".into(),
                },
            )]),
            policies: Default::default(),
            answer_flags: Default::default(),
            header: Default::default(),
            config: Value::Null,
            cases,
        }
    }

    fn messages(files: &[VectorFile]) -> Vec<String> {
        lint(files, &SuiteRegistry::standard())
            .iter()
            .map(ToString::to_string)
            .collect()
    }

    #[test]
    fn consistent_files_pass() {
        let diverging = json!({"kind": "other", "template": "leak"});
        let files = [file(
            "a.json",
            vec![
                case("template-0001", &[], &[]),
                case(
                    "template-0002",
                    &[UPSTREAM_DIVERGENCE],
                    &[("lean-ctx@3.12.0", diverging)],
                ),
            ],
        )];
        assert_eq!(messages(&files), Vec::<String>::new());
    }

    #[test]
    fn id_reused_across_files_is_reported() {
        let files = [
            file("a.json", vec![case("template-0001", &[], &[])]),
            file("b.json", vec![case("template-0001", &[], &[])]),
        ];
        let found = messages(&files);
        assert_eq!(found.len(), 1, "{found:?}");
        assert!(
            found[0].starts_with("b.json: case template-0001"),
            "{found:?}"
        );
        assert!(found[0].contains("a.json"), "{found:?}");
    }

    #[test]
    fn retired_id_is_reported() {
        let files = [file("a.json", vec![case("template-0001", &[], &[])])];
        let retired = [RetiredId {
            id: "template-0001".into(),
            line: 7,
            reason: "said nothing".into(),
        }];
        let found: Vec<String> = lint_with_retired(&files, &SuiteRegistry::standard(), &retired)
            .iter()
            .map(ToString::to_string)
            .collect();
        assert_eq!(
            found,
            vec![
                "a.json: case template-0001: id is retired (retired-ids.txt line 7: said nothing); ids are never reused"
            ]
        );
    }

    #[test]
    fn undefined_flag_is_reported() {
        let files = [file(
            "a.json",
            vec![case("template-0001", &["made-up"], &[])],
        )];
        assert!(messages(&files)[0].contains("\"made-up\" is not defined"));
    }

    #[test]
    fn divergence_flag_without_upstream_is_reported() {
        let files = [file(
            "a.json",
            vec![case("template-0001", &[UPSTREAM_DIVERGENCE], &[])],
        )];
        assert!(messages(&files)[0].contains("no \"upstream\" answer"));
    }

    #[test]
    fn divergence_flag_with_agreeing_upstream_is_reported() {
        let same = json!({"kind": "other", "template": null});
        let files = [file(
            "a.json",
            vec![case(
                "template-0001",
                &[UPSTREAM_DIVERGENCE],
                &[("lean-ctx@3.12.0", same)],
            )],
        )];
        assert!(messages(&files)[0].contains("every \"upstream\" answer is accepted"));
    }

    #[test]
    fn unflagged_divergence_is_reported() {
        let other = json!({"kind": "not_found", "template": null});
        let files = [file(
            "a.json",
            vec![case("template-0001", &[], &[("lean-ctx@3.12.0", other)])],
        )];
        assert!(messages(&files)[0].contains("not flagged upstream-divergence"));
    }

    #[test]
    fn bad_id_and_upstream_key_are_reported() {
        let other = json!({"kind": "not_found", "template": null});
        let files = [file(
            "a.json",
            vec![case(
                "template-1",
                &[UPSTREAM_DIVERGENCE],
                &[("lean-ctx", other)],
            )],
        )];
        let found = messages(&files);
        assert!(
            found.iter().any(|m| m.contains("not template-NNNN")),
            "{found:?}"
        );
        assert!(
            found.iter().any(|m| m.contains("not name@version")),
            "{found:?}"
        );
    }

    fn acceptable_case(flags: &[&str], alternatives: Vec<Alternative>) -> Case {
        let mut acceptable = case("template-0001", flags, &[]);
        acceptable.expectation = Expectation::Acceptable {
            acceptable: alternatives,
        };
        acceptable
    }

    fn two_answers() -> Vec<Alternative> {
        vec![
            Alternative::Expected(json!({"kind": "other", "template": null})),
            Alternative::ExpectedError(ExpectedError {
                kind: "timeout".into(),
            }),
        ]
    }

    fn file_with_choice(cases: Vec<Case>) -> VectorFile {
        let mut file = file("a.json", cases);
        file.notes.insert(
            "choice".into(),
            Note {
                description: "d".into(),
                effect: "e".into(),
            },
        );
        file
    }

    #[test]
    fn acceptable_with_two_answers_and_a_flag_passes() {
        let files = [file_with_choice(vec![acceptable_case(
            &["choice"],
            two_answers(),
        )])];
        assert_eq!(messages(&files), Vec::<String>::new());
    }

    #[test]
    fn acceptable_without_flag_is_reported() {
        for flags in [&[][..], &[UPSTREAM_DIVERGENCE][..]] {
            let files = [file_with_choice(vec![acceptable_case(
                flags,
                two_answers(),
            )])];
            let found = messages(&files);
            assert!(
                found.iter().any(|m| m.contains("no flag says why")),
                "{found:?}"
            );
        }
    }

    #[test]
    fn acceptable_with_undefined_flag_is_reported() {
        let files = [file_with_choice(vec![acceptable_case(
            &["whim"],
            two_answers(),
        )])];
        assert!(messages(&files)[0].contains("\"whim\" is not defined"));
    }

    #[test]
    fn acceptable_with_one_or_repeated_answers_is_reported() {
        let mut one = two_answers();
        one.pop();
        let files = [file_with_choice(vec![acceptable_case(&["choice"], one)])];
        assert!(messages(&files)[0].contains("lists 1 answer"));

        let mut repeated = two_answers();
        repeated.push(repeated[0].clone());
        let files = [file_with_choice(vec![acceptable_case(
            &["choice"],
            repeated,
        )])];
        assert_eq!(
            messages(&files),
            vec!["a.json: case template-0001: acceptable answer 3 repeats an earlier one"]
        );
    }

    #[test]
    fn upstream_answers_are_judged_against_every_alternative() {
        let agreeing_error = json!({"error": {"kind": "timeout", "message": "m"}});
        let mut agreeing = acceptable_case(&["choice"], two_answers());
        agreeing.upstream = BTreeMap::from([("x@1".to_owned(), agreeing_error)]);
        let files = [file_with_choice(vec![agreeing])];
        assert_eq!(messages(&files), Vec::<String>::new());

        let mut diverging = acceptable_case(&["choice"], two_answers());
        diverging.upstream = BTreeMap::from([(
            "x@1".to_owned(),
            json!({"kind": "not_found", "template": null}),
        )]);
        let files = [file_with_choice(vec![diverging])];
        assert!(messages(&files)[0].contains("not flagged upstream-divergence"));
    }

    /// A file with the policy flag `policy` (a note with a policy) beside
    /// `choice`, and `answer_flags` for case template-0001.
    fn file_with_policy(cases: Vec<Case>, answer_flags: Vec<Vec<&str>>) -> VectorFile {
        let mut file = file_with_choice(cases);
        file.notes.insert(
            "policy".into(),
            Note {
                description: "d".into(),
                effect: "e".into(),
            },
        );
        file.policies.insert("policy".into(), "p".into());
        file.answer_flags.insert(
            "template-0001".into(),
            answer_flags
                .into_iter()
                .map(|flags| flags.into_iter().map(str::to_owned).collect())
                .collect(),
        );
        file
    }

    #[test]
    fn policy_flags_on_answers_are_checked() {
        let good = file_with_policy(
            vec![acceptable_case(&["policy"], two_answers())],
            vec![vec![], vec!["policy"]],
        );
        assert_eq!(messages(&[good]), Vec::<String>::new());

        let first = file_with_policy(
            vec![acceptable_case(&["policy"], two_answers())],
            vec![vec!["policy"], vec![]],
        );
        assert!(messages(&[first])[0].contains("the first acceptable answer"));

        let not_a_policy = file_with_policy(
            vec![acceptable_case(&["choice"], two_answers())],
            vec![vec![], vec!["choice"]],
        );
        assert!(messages(&[not_a_policy])[0].contains("names no policy"));

        let not_carried = file_with_policy(
            vec![acceptable_case(&["choice"], two_answers())],
            vec![vec![], vec!["policy"]],
        );
        assert!(messages(&[not_carried])[0].contains("which the case does not carry"));

        let unused = file_with_policy(
            vec![acceptable_case(&["policy"], two_answers())],
            vec![vec![], vec![]],
        );
        assert!(messages(&[unused])[0].contains("no acceptable answer of the case needs it"));
    }

    /// An upstream that gives the answer only a policy allows still
    /// diverges: the suite chose otherwise, and the answer stays recorded.
    #[test]
    fn an_upstream_answer_only_a_policy_allows_is_a_divergence() {
        let mut flagged = acceptable_case(&["policy"], two_answers());
        flagged.upstream =
            BTreeMap::from([("x@1".to_owned(), json!({"error": {"kind": "timeout"}}))]);
        let files = [file_with_policy(
            vec![flagged],
            vec![vec![], vec!["policy"]],
        )];
        assert!(messages(&files)[0].contains("not flagged upstream-divergence"));
    }

    #[test]
    fn upstream_error_of_the_expected_kind_agrees_with_an_invalid_case() {
        let mut invalid = case("template-0001", &[], &[]);
        invalid.expectation = Expectation::Invalid {
            expected_error: ExpectedError {
                kind: "timeout".into(),
            },
        };
        invalid.upstream =
            BTreeMap::from([("x@1".to_owned(), json!({"error": {"kind": "timeout"}}))]);
        assert_eq!(
            messages(&[file("a.json", vec![invalid.clone()])]),
            Vec::<String>::new()
        );
        invalid.upstream =
            BTreeMap::from([("x@1".to_owned(), json!({"error": {"message": "refused"}}))]);
        assert!(messages(&[file("a.json", vec![invalid])])[0].contains("not flagged"));
    }

    #[test]
    fn suite_checks_of_a_case_are_reported() {
        let mut with_fixture = case("template-0001", &[], &[]);
        with_fixture.fixture = Some(json!({"routes": [{"path": "/"}]}));
        let files = [file("a.json", vec![with_fixture])];
        let found = messages(&files);
        assert_eq!(found.len(), 1, "{found:?}");
        assert!(found[0].contains("serves no fixture"), "{found:?}");
    }
}
