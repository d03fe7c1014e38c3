//! `agentfence run --skip / --xfail / --id / --report / --junit` end to end,
//! against the embedded reference.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Output;

use agentfence_conformance::case_list::glob_matches;
use agentfence_conformance::loader;
use agentfence_conformance::suites::SuiteRegistry;
use serde_json::{Value, json};

mod common;
use common::{agentfence, text};

fn closing_line(output: &Output) -> String {
    text(&output.stdout)
        .lines()
        .last()
        .unwrap_or_default()
        .to_string()
}

/// Embedded case ids matching `glob`.
fn embedded_ids(glob: &str) -> Vec<String> {
    loader::embedded(&SuiteRegistry::standard())
        .expect("the embedded vectors load")
        .cases()
        .map(|(_, case)| case.id.clone())
        .filter(|id| glob_matches(glob, id))
        .collect()
}

fn write(dir: &Path, name: &str, contents: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, contents).expect("the temp file is written");
    path
}

fn arg(path: &Path) -> String {
    path.to_string_lossy().into_owned()
}

/// A vector file with one case the reference fails; its expected template
/// holds XML markup so that the JUnit file must escape it.
fn wrong_vector(dir: &Path) -> PathBuf {
    let vector = common::wrong_vector("<wrong> & \"quoted\" ]]> \u{1}");
    write(dir, "wrong.json", &vector.to_string())
}

#[test]
fn skip_list_skips_listed_cases() {
    let dir = tempfile::tempdir().expect("a temp dir");
    let skip = write(
        dir.path(),
        "skip.txt",
        "# not ready yet\n\ntemplate-00*   # the first hundred\ntemplate-0123\n",
    );
    let output = agentfence(&["run", "--suite", "template", "--skip", &arg(&skip)]);
    let stdout = text(&output.stdout);
    assert_eq!(output.status.code(), Some(0), "{stdout}");
    let skipped = embedded_ids("template-00*").len() + 1;
    let total = embedded_ids("template-*").len();
    assert!(skipped > 1);
    assert_eq!(
        closing_line(&output),
        format!("{} passed, 0 failed, {skipped} skipped", total - skipped)
    );
}

#[test]
fn stale_skip_line_is_an_error_naming_file_and_line() {
    let dir = tempfile::tempdir().expect("a temp dir");
    let skip = write(
        dir.path(),
        "skip.txt",
        "template-0001\n# fixed long ago\ntemplate-7777\n",
    );
    let output = agentfence(&["run", "--skip", &arg(&skip)]);
    let stderr = text(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains(&format!(
            "{}:3: \"template-7777\" matches no case",
            skip.display()
        )),
        "{stderr}"
    );
    assert!(output.stdout.is_empty(), "nothing runs");
}

#[test]
fn xfail_that_passes_fails_the_run() {
    let dir = tempfile::tempdir().expect("a temp dir");
    let xfail = write(dir.path(), "xfail.txt", "template-0001\n");
    let output = agentfence(&["run", "--suite", "template", "--xfail", &arg(&xfail)]);
    let stdout = text(&output.stdout);
    assert_eq!(output.status.code(), Some(1), "{stdout}");
    assert!(stdout.contains("FAIL template-0001"), "{stdout}");
    assert!(
        stdout.contains("reason:   expected to fail but passed: remove it from the xfail list"),
        "{stdout}"
    );
    let total = embedded_ids("template-*").len();
    assert_eq!(
        closing_line(&output),
        format!("{} passed, 1 failed", total - 1)
    );
}

#[test]
fn xfail_that_fails_does_not_fail_the_run() {
    let dir = tempfile::tempdir().expect("a temp dir");
    let vectors = wrong_vector(dir.path());
    let xfail = write(dir.path(), "xfail.txt", "template-9999  # known wrong\n");
    let output = agentfence(&["run", "--vectors", &arg(&vectors), "--xfail", &arg(&xfail)]);
    let stdout = text(&output.stdout);
    assert_eq!(output.status.code(), Some(0), "{stdout}");
    assert!(!stdout.contains("FAIL"), "{stdout}");
    let total = embedded_ids("*").len();
    assert_eq!(
        closing_line(&output),
        format!("{total} passed, 0 failed, 1 expected failures")
    );
}

#[test]
fn id_globs_select_cases() {
    let output = agentfence(&["run", "--id", "template-000?", "--id", "chat-00*"]);
    let stdout = text(&output.stdout);
    assert_eq!(output.status.code(), Some(0), "{stdout}");
    let selected = embedded_ids("template-000?").len() + embedded_ids("chat-00*").len();
    assert!(selected > 0);
    assert_eq!(
        closing_line(&output),
        format!("{selected} passed, 0 failed")
    );

    let none = agentfence(&["run", "--id", "nothing-*"]);
    assert_eq!(none.status.code(), Some(2));
    assert!(
        text(&none.stderr).contains("--id \"nothing-*\" matches no case"),
        "{}",
        text(&none.stderr)
    );
}

#[test]
fn json_report_holds_the_failing_case() {
    let dir = tempfile::tempdir().expect("a temp dir");
    let vectors = wrong_vector(dir.path());
    let report = dir.path().join("report.json");
    let output = agentfence(&[
        "run",
        "--vectors",
        &arg(&vectors),
        "--id",
        "template-99*",
        "--report",
        &arg(&report),
    ]);
    assert_eq!(output.status.code(), Some(1), "{}", text(&output.stdout));
    let json: Value = serde_json::from_str(
        &std::fs::read_to_string(&report).expect("the report file is written"),
    )
    .expect("the report is JSON");
    assert_eq!(json["format"], "agentfence-run-report/1");
    assert_eq!(
        json["tally"],
        json!({"passed": 0, "failed": 1, "skipped": 0, "expected_failures": 0})
    );
    assert_eq!(json["implementation"]["name"], "agentfence");
    assert_eq!(json["implementation"]["language"], "rust");
    let file = &json["files"][0];
    assert_eq!(file["suite"], "template");
    assert_eq!(file["version"], "1.0.0");
    let case = &file["cases"][0];
    assert_eq!(case["id"], "template-9999");
    assert_eq!(case["verdict"]["status"], "failed");
    assert_eq!(
        case["verdict"]["reason"],
        "the output differs from the expected one"
    );
    assert_eq!(case["expected"]["kind"], "timeout");
    assert_eq!(case["answer"]["replied"]["output"]["kind"], "not_found");
}

#[test]
fn junit_report_is_well_formed_and_counts_match() {
    let dir = tempfile::tempdir().expect("a temp dir");
    let vectors = wrong_vector(dir.path());
    let skip = write(dir.path(), "skip.txt", "chat-00*\n");
    let xfail = write(dir.path(), "xfail.txt", "template-0002\ntemplate-9999\n");
    let junit = dir.path().join("junit.xml");
    let report = dir.path().join("report.json");
    let output = agentfence(&[
        "run",
        "--vectors",
        &arg(&vectors),
        "--skip",
        &arg(&skip),
        "--xfail",
        &arg(&xfail),
        "--junit",
        &arg(&junit),
        "--report",
        &arg(&report),
    ]);
    assert_eq!(output.status.code(), Some(1), "{}", text(&output.stdout));
    let xml = std::fs::read_to_string(&junit).expect("the JUnit file is written");
    let root = xml::parse(&xml).unwrap_or_else(|error| panic!("{error}\n{xml}"));
    let json: Value = serde_json::from_str(&std::fs::read_to_string(&report).expect("report"))
        .expect("the report is JSON");
    let tally = &json["tally"];
    let number = |value: &Value| value.as_u64().expect("a count") as usize;

    assert_eq!(root.name, "testsuites");
    let suites: Vec<&xml::Element> = root.children("testsuite").collect();
    assert_eq!(suites.len(), json["files"].as_array().expect("files").len());
    let cases: Vec<&xml::Element> = suites.iter().flat_map(|s| s.children("testcase")).collect();
    let with = |child: &str| {
        cases
            .iter()
            .filter(|c| c.children(child).count() > 0)
            .count()
    };
    let total = number(&tally["passed"])
        + number(&tally["failed"])
        + number(&tally["skipped"])
        + number(&tally["expected_failures"]);
    assert_eq!(cases.len(), total);
    assert_eq!(with("failure") + with("error"), number(&tally["failed"]));
    assert_eq!(
        with("skipped"),
        number(&tally["skipped"]) + number(&tally["expected_failures"])
    );
    assert_eq!(number(&tally["failed"]), 1);
    assert_eq!(number(&tally["expected_failures"]), 1);
    assert!(number(&tally["skipped"]) > 0);
    assert_eq!(root.attrs["tests"], total.to_string());
    assert_eq!(root.attrs["failures"], "1");
    for suite in &suites {
        assert_eq!(
            suite.attrs["tests"],
            suite.children("testcase").count().to_string()
        );
    }

    // template-0002 passes, so its xfail entry turns it into the failure.
    let failing = cases
        .iter()
        .find(|case| case.attrs["name"] == "template-0002")
        .expect("template-0002 is listed");
    let failure = failing.children("failure").next().expect("a <failure>");
    assert_eq!(
        failure.attrs["message"],
        "expected to fail but passed: remove it from the xfail list"
    );
    // The wrong vector fails as its xfail entry says: skipped, with the
    // failure's reason and its expected/got.
    let wrong = cases
        .iter()
        .find(|case| case.attrs["name"] == "template-9999")
        .expect("template-9999 is listed");
    let skipped = wrong.children("skipped").next().expect("a <skipped>");
    assert_eq!(
        skipped.attrs["message"],
        "expected failure: the output differs from the expected one"
    );
    assert!(skipped.text.contains("expected: "), "{}", skipped.text);
}

#[test]
fn junit_failure_carries_expected_and_got_escaped() {
    let dir = tempfile::tempdir().expect("a temp dir");
    let vectors = wrong_vector(dir.path());
    let junit = dir.path().join("junit.xml");
    let output = agentfence(&[
        "run",
        "--vectors",
        &arg(&vectors),
        "--id",
        "template-9999",
        "--junit",
        &arg(&junit),
    ]);
    assert_eq!(output.status.code(), Some(1), "{}", text(&output.stdout));
    let xml = std::fs::read_to_string(&junit).expect("the JUnit file is written");
    let root = xml::parse(&xml).unwrap_or_else(|error| panic!("{error}\n{xml}"));
    let case = root
        .children("testsuite")
        .flat_map(|suite| suite.children("testcase"))
        .next()
        .expect("one testcase");
    assert_eq!(case.attrs["name"], "template-9999");
    let failure = case.children("failure").next().expect("a <failure>");
    assert_eq!(
        failure.attrs["message"],
        "the output differs from the expected one"
    );
    assert!(
        failure.text.contains(
            r#"expected: {"kind":"timeout","template":"<wrong> & \"quoted\" ]]> \u0001"}"#
        ),
        "{}",
        failure.text
    );
    assert!(
        failure.text.contains(r#"got:      {"kind":"not_found""#),
        "{}",
        failure.text
    );
}

/// A small, strict reader for the XML subset the JUnit writer uses:
/// declaration, elements, attributes in double quotes, text, the five
/// predefined entities and numeric character references. It rejects what
/// XML 1.0 rejects in that subset: unbalanced or mismatched tags, a raw `<`
/// or `&` in text or attribute values, unknown entities, characters XML
/// forbids, duplicate attributes, content after the root.
mod xml {
    use super::BTreeMap;

    #[derive(Debug)]
    pub struct Element {
        pub name: String,
        pub attrs: BTreeMap<String, String>,
        pub elements: Vec<Element>,
        pub text: String,
    }

    impl Element {
        pub fn children<'a>(&'a self, name: &'a str) -> impl Iterator<Item = &'a Element> {
            self.elements.iter().filter(move |e| e.name == name)
        }
    }

    struct Reader<'a> {
        rest: &'a str,
    }

    pub fn parse(text: &str) -> Result<Element, String> {
        if let Some(c) = text.chars().find(|&c| !allowed(c)) {
            return Err(format!("character {c:?} is not allowed in XML 1.0"));
        }
        let mut reader = Reader { rest: text };
        if reader.rest.starts_with("<?xml") {
            let end = reader.rest.find("?>").ok_or("unterminated declaration")?;
            reader.rest = &reader.rest[end + 2..];
        }
        reader.skip_space();
        let root = reader.element()?;
        reader.skip_space();
        if reader.rest.is_empty() {
            Ok(root)
        } else {
            Err(format!("content after the root: {:?}", reader.rest))
        }
    }

    fn allowed(c: char) -> bool {
        matches!(c, '\t' | '\n' | '\r' | '\u{20}'..='\u{d7ff}' | '\u{e000}'..='\u{fffd}')
            || c >= '\u{10000}'
    }

    fn name_char(c: char) -> bool {
        c.is_alphanumeric() || matches!(c, '_' | '-' | '.' | ':')
    }

    fn unescape(raw: &str) -> Result<String, String> {
        let mut out = String::new();
        let mut rest = raw;
        while let Some(at) = rest.find(['&', '<']) {
            out.push_str(&rest[..at]);
            if rest[at..].starts_with('<') {
                return Err(format!("raw '<' in {raw:?}"));
            }
            let end = rest[at..]
                .find(';')
                .ok_or_else(|| format!("unterminated reference in {raw:?}"))?;
            let entity = &rest[at + 1..at + end];
            let c = match entity {
                "amp" => '&',
                "lt" => '<',
                "gt" => '>',
                "quot" => '"',
                "apos" => '\'',
                _ => {
                    let code = if let Some(hex) = entity.strip_prefix("#x") {
                        u32::from_str_radix(hex, 16).ok()
                    } else if let Some(decimal) = entity.strip_prefix('#') {
                        decimal.parse().ok()
                    } else {
                        None
                    };
                    code.and_then(char::from_u32)
                        .filter(|&c| allowed(c))
                        .ok_or_else(|| format!("bad reference &{entity}; in {raw:?}"))?
                }
            };
            out.push(c);
            rest = &rest[at + end + 1..];
        }
        out.push_str(rest);
        Ok(out)
    }

    impl Reader<'_> {
        fn skip_space(&mut self) {
            self.rest = self.rest.trim_start_matches([' ', '\t', '\n', '\r']);
        }

        fn eat(&mut self, token: &str) -> Result<(), String> {
            self.rest = self.rest.strip_prefix(token).ok_or_else(|| {
                format!(
                    "expected {token:?} at {:?}",
                    &self.rest[..self.rest.len().min(40)]
                )
            })?;
            Ok(())
        }

        fn name(&mut self) -> Result<String, String> {
            let end = self
                .rest
                .find(|c: char| !name_char(c))
                .unwrap_or(self.rest.len());
            if end == 0 {
                return Err(format!(
                    "expected a name at {:?}",
                    &self.rest[..self.rest.len().min(40)]
                ));
            }
            let name = self.rest[..end].to_string();
            self.rest = &self.rest[end..];
            Ok(name)
        }

        fn element(&mut self) -> Result<Element, String> {
            self.eat("<")?;
            let name = self.name()?;
            let mut attrs = BTreeMap::new();
            loop {
                let before = self.rest.len();
                self.skip_space();
                if self.rest.starts_with("/>") {
                    self.rest = &self.rest[2..];
                    return Ok(Element {
                        name,
                        attrs,
                        elements: vec![],
                        text: String::new(),
                    });
                }
                if self.rest.starts_with('>') {
                    self.rest = &self.rest[1..];
                    break;
                }
                if self.rest.len() == before {
                    return Err(format!("no space before an attribute of <{name}>"));
                }
                let key = self.name()?;
                self.eat("=\"")?;
                let end = self.rest.find('"').ok_or("unterminated attribute")?;
                let value = unescape(&self.rest[..end])?;
                self.rest = &self.rest[end + 1..];
                if attrs.insert(key.clone(), value).is_some() {
                    return Err(format!("attribute {key} repeated on <{name}>"));
                }
            }
            let mut elements = Vec::new();
            let mut text = String::new();
            loop {
                let end = self
                    .rest
                    .find('<')
                    .ok_or(format!("<{name}> is not closed"))?;
                text.push_str(&unescape(&self.rest[..end])?);
                self.rest = &self.rest[end..];
                if self.rest.starts_with("</") {
                    self.rest = &self.rest[2..];
                    let closing = self.name()?;
                    if closing != name {
                        return Err(format!("</{closing}> closes <{name}>"));
                    }
                    self.skip_space();
                    self.eat(">")?;
                    return Ok(Element {
                        name,
                        attrs,
                        elements,
                        text,
                    });
                }
                elements.push(self.element()?);
            }
        }
    }

    #[test]
    fn checker_rejects_malformed_xml() {
        for bad in [
            "<a>",
            "<a></b>",
            "<a>x & y</a>",
            "<a b=\"<\"/>",
            "<a b=\"1\" b=\"2\"/>",
            "<a>&bogus;</a>",
            "<a>&#1;</a>",
            "<a>\u{1}</a>",
            "<a/><b/>",
        ] {
            assert!(parse(bad).is_err(), "{bad:?} should be rejected");
        }
        let ok = parse("<?xml version=\"1.0\"?>\n<a x=\"&lt;&#10;\"><b/>t&amp;</a>\n")
            .expect("well-formed");
        assert_eq!(ok.attrs["x"], "<\n");
        assert_eq!(ok.text, "t&");
    }
}

/// The ids of `vectors/chat.json` carrying `flag`, read from the file as
/// JSON (not through the loader the runner uses).
fn chat_ids_with_flag(flag: &str) -> Vec<String> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("vectors/chat.json");
    let file: Value = serde_json::from_str(&std::fs::read_to_string(&path).expect("chat.json"))
        .expect("chat.json is JSON");
    file["cases"]
        .as_array()
        .expect("cases")
        .iter()
        .filter(|case| {
            case["flags"]
                .as_array()
                .is_some_and(|flags| flags.iter().any(|own| own == flag))
        })
        .map(|case| case["id"].as_str().expect("an id").to_owned())
        .collect()
}

/// issue 15: a port that draws its own nonce skips the `invalid-nonce`
/// cases by flag; they are not sent, and count as skipped in the closing
/// line and the JSON report.
#[test]
fn skip_flag_skips_the_cases_carrying_it_in_summary_and_report() {
    let dir = tempfile::tempdir().expect("a temp dir");
    let report = dir.path().join("report.json");
    let flagged = chat_ids_with_flag("invalid-nonce");
    assert!(flagged.len() >= 15, "{flagged:?}");
    let total = embedded_ids("chat-*").len();
    let output = agentfence(&[
        "run",
        "--suite",
        "chat",
        "--skip-flag",
        "invalid-nonce",
        "--report",
        &arg(&report),
    ]);
    let stdout = text(&output.stdout);
    assert_eq!(output.status.code(), Some(0), "{stdout}");
    assert_eq!(
        closing_line(&output),
        format!(
            "{} passed, 0 failed, {} skipped",
            total - flagged.len(),
            flagged.len()
        )
    );
    let json: Value = serde_json::from_str(
        &std::fs::read_to_string(&report).expect("the report file is written"),
    )
    .expect("the report is JSON");
    assert_eq!(json["tally"]["skipped"], json!(flagged.len()));
    let mut skipped = Vec::new();
    for case in json["files"][0]["cases"].as_array().expect("cases") {
        if case["verdict"]["status"] == "skipped" {
            skipped.push(case["id"].as_str().expect("an id").to_owned());
            assert!(
                case["answer"]["not_sent"]["reason"]
                    .as_str()
                    .is_some_and(|reason| reason.contains("invalid-nonce")),
                "{case}"
            );
            assert!(
                case["verdict"]["reason"]
                    .as_str()
                    .is_some_and(|reason| reason.contains("--skip-flag")),
                "{case}"
            );
        }
    }
    assert_eq!(skipped, flagged);
}

#[test]
fn skip_flag_and_follow_flag_refuse_a_flag_the_vectors_do_not_define() {
    for (option, flag, says) in [
        (
            "--skip-flag",
            "invalid-nonse",
            "--skip-flag \"invalid-nonse\" is no flag of the loaded vector files",
        ),
        (
            "--follow-flag",
            "integer-width",
            "--follow-flag \"integer-width\" is no policy flag",
        ),
    ] {
        let output = agentfence(&["run", "--suite", "chat", option, flag]);
        let stderr = text(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{option}: {stderr}");
        assert!(stderr.contains(says), "{option}: {stderr}");
    }
}
