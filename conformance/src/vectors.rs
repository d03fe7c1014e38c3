//! The vector format: the shared JSON test cases, embedded in the binary,
//! and their typed form. This module knows the format every suite shares
//! (header, cases, expectations) and no suite: which suites exist, which
//! operations they take and what their headers mean is checked by
//! [`crate::loader`], which sits above [`crate::suites`] and reads files
//! through [`UncheckedFile`].
//!
//! Every format error names the file and, where there is one, the case id
//! and the JSON path, because a vector author fixes a file, not a stack
//! trace.

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use thiserror::Error;

/// The files under `conformance/vectors/`, relative paths with `/`.
static EMBEDDED_FILES: &[(&str, &str)] = include!(concat!(env!("OUT_DIR"), "/embedded_vectors.rs"));

/// Every file embedded from `conformance/vectors/` (vector files and the
/// data they name), as (path relative to that directory, contents).
pub fn embedded_files() -> &'static [(&'static str, &'static str)] {
    EMBEDDED_FILES
}

fn embedded_file(relative: &str) -> Option<&'static str> {
    EMBEDDED_FILES
        .iter()
        .find(|(path, _)| *path == relative)
        .map(|(_, contents)| *contents)
}

/// The list of retired case ids, relative to `conformance/vectors/`.
pub const RETIRED_IDS_FILE: &str = "retired-ids.txt";

/// A case id that was used once and must never be used again.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RetiredId {
    pub id: String,
    /// 1-based line of the list it is on.
    pub line: usize,
    /// Why it was retired.
    pub reason: String,
}

/// Reads a list of retired ids: one `SUITE-NNNN  # why` per line; blank
/// lines and lines starting with `#` are comments. A line without an id of
/// that shape, without a reason, or repeating an id is an error naming it.
pub fn parse_retired_ids(text: &str) -> Result<Vec<RetiredId>, String> {
    let mut retired: Vec<RetiredId> = Vec::new();
    for (index, line) in text.lines().enumerate() {
        let line_number = index + 1;
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (id, reason) = line.split_once('#').unwrap_or((line, ""));
        let (id, reason) = (id.trim(), reason.trim());
        let well_formed = id.rsplit_once('-').is_some_and(|(suite, digits)| {
            !suite.is_empty()
                && suite.bytes().all(|b| b.is_ascii_lowercase())
                && digits.len() == 4
                && digits.bytes().all(|b| b.is_ascii_digit())
        });
        if !well_formed {
            return Err(format!(
                "line {line_number}: {id:?} is not a case id (SUITE-NNNN)"
            ));
        }
        if reason.is_empty() {
            return Err(format!(
                "line {line_number}: {id} has no `# reason` saying why it was retired"
            ));
        }
        if let Some(earlier) = retired.iter().find(|earlier| earlier.id == id) {
            return Err(format!(
                "line {line_number}: {id} is already retired on line {}",
                earlier.line
            ));
        }
        retired.push(RetiredId {
            id: id.to_owned(),
            line: line_number,
            reason: reason.to_owned(),
        });
    }
    Ok(retired)
}

/// The embedded `vectors/retired-ids.txt`.
pub fn retired_ids() -> Result<Vec<RetiredId>, String> {
    let text = embedded_file(RETIRED_IDS_FILE)
        .ok_or_else(|| format!("vectors/{RETIRED_IDS_FILE} is not embedded"))?;
    parse_retired_ids(text)
}

/// Where a vector file came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum VectorSource {
    /// Compiled in; the path is relative to `conformance/vectors/`.
    Embedded(&'static str),
    File(PathBuf),
}

impl VectorSource {
    /// The file name, which decides whether a file on disk replaces an
    /// embedded one.
    pub fn file_name(&self) -> Cow<'_, str> {
        match self {
            VectorSource::Embedded(path) => Cow::Borrowed(path.rsplit('/').next().unwrap_or(path)),
            VectorSource::File(path) => path
                .file_name()
                .map(|name| name.to_string_lossy())
                .unwrap_or_else(|| path.to_string_lossy()),
        }
    }
}

impl fmt::Display for VectorSource {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            VectorSource::Embedded(path) => write!(f, "embedded vectors/{path}"),
            VectorSource::File(path) => write!(f, "{}", path.display()),
        }
    }
}

/// The directory a vector file's relative paths (its vocabulary, say) are
/// resolved in. A file on disk falls back to the embedded copy, so a vector
/// file written anywhere can still name the shipped vocabulary.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ResourceDir {
    Embedded,
    Dir(PathBuf),
}

impl ResourceDir {
    /// The contents of `relative`, or why they cannot be had.
    pub fn read(&self, relative: &str) -> Result<Cow<'static, str>, String> {
        if Path::new(relative).is_absolute() {
            return Err("the path must be relative to the vectors directory".into());
        }
        if let ResourceDir::Dir(dir) = self {
            let path = dir.join(relative);
            match std::fs::read_to_string(&path) {
                Ok(text) => return Ok(Cow::Owned(text)),
                Err(error) if error.kind() != std::io::ErrorKind::NotFound => {
                    return Err(format!("{}: {error}", path.display()));
                }
                Err(_) => {}
            }
        }
        embedded_file(relative)
            .map(Cow::Borrowed)
            .ok_or_else(|| match self {
                ResourceDir::Embedded => "no such embedded file".to_owned(),
                ResourceDir::Dir(dir) => format!(
                    "neither {} nor an embedded file of that name exists",
                    dir.join(relative).display()
                ),
            })
    }
}

/// What a flag means, from the file's `notes`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Note {
    pub description: String,
    pub effect: String,
}

/// A note as the file writes it: a flag that names a policy also says, in
/// `policy`, what a port that follows it answers.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawNote {
    description: String,
    effect: String,
    policy: Option<String>,
}

/// The error kind an `invalid` case expects; messages are never compared.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExpectedError {
    pub kind: String,
}

/// One answer an `acceptable` case allows, written as a `valid` case writes
/// its output (`{"expected": OUTPUT}`) or an `invalid` case its error
/// (`{"expected_error": {"kind": K}}`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum Alternative {
    Expected(Value),
    ExpectedError(ExpectedError),
}

/// What a case demands of an implementation.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "result", rename_all = "snake_case")]
pub enum Expectation {
    /// Exactly this output.
    Valid { expected: Value },
    /// An error of this kind.
    Invalid { expected_error: ExpectedError },
    /// Any one of these answers (outputs or error kinds), as Wycheproof's
    /// `acceptable` result: the behaviour is a legitimate choice, and the
    /// case's flags say which and why.
    Acceptable { acceptable: Vec<Alternative> },
}

/// One test vector.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Case {
    pub id: String,
    pub description: String,
    pub flags: Vec<String>,
    pub op: String,
    pub input: Value,
    #[serde(flatten)]
    pub expectation: Expectation,
    /// What upstream implementations answer, keyed by `name@version`.
    pub upstream: BTreeMap<String, Value>,
    /// What the runner sets up for the case besides its input (the HTTP
    /// fixture of a web `fetch` case); the suite reads it (see
    /// [`crate::suites::Suite::prepare`]) and no implementation sees it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fixture: Option<Value>,
}

impl Case {
    pub fn has_flag(&self, flag: &str) -> bool {
        self.flags.iter().any(|own| own == flag)
    }
}

impl VectorFile {
    /// The policy flags answer `index` (0-based) of acceptable case `case`
    /// needs; none for any other case.
    pub fn answer_flags(&self, case: &Case, index: usize) -> &[String] {
        self.answer_flags
            .get(&case.id)
            .and_then(|answers| answers.get(index))
            .map_or(&[], Vec::as_slice)
    }
}

/// One vector file, parsed and checked against its suite (by
/// [`crate::loader`]).
#[derive(Debug, Clone, PartialEq)]
pub struct VectorFile {
    pub source: VectorSource,
    /// The file's `$schema`, relative to the file.
    pub schema: Option<String>,
    pub suite: String,
    pub version: String,
    pub description: String,
    pub notes: BTreeMap<String, Note>,
    /// The flags whose note names a policy (its `policy` field, the text
    /// here): a port follows such a flag or not (`agentfence run
    /// --follow-flag FLAG`).
    pub policies: BTreeMap<String, String>,
    /// For each `acceptable` case, by id, the policy flags each of its
    /// answers needs (an answer's `flags`): an answer passes a run that
    /// follows all of them, so one that needs none passes every run. The
    /// first answer, the suite's choice, needs none.
    pub answer_flags: BTreeMap<String, Vec<Vec<String>>>,
    /// The suite-specific header fields (everything not listed above).
    pub header: Map<String, Value>,
    /// The `config` of the protocol's suite message, built by the suite
    /// from `header`.
    pub config: Value,
    pub cases: Vec<Case>,
}

/// A vector file that does not follow the format every suite shares.
#[derive(Debug, Error)]
pub enum FormatError {
    #[error("{file}: not valid JSON: {message}")]
    Json { file: String, message: String },
    #[error("{file}: at {path}: {message}")]
    Header {
        file: String,
        path: String,
        message: String,
    },
    #[error("{file}: case {id} (at {path}): {message}")]
    Case {
        file: String,
        id: String,
        path: String,
        message: String,
    },
}

#[derive(Deserialize)]
struct RawHeader {
    #[serde(rename = "$schema")]
    schema: Option<String>,
    suite: String,
    version: String,
    description: String,
    #[serde(default)]
    notes: BTreeMap<String, RawNote>,
    cases: Vec<Value>,
    #[serde(flatten)]
    extra: Map<String, Value>,
}

#[derive(Deserialize)]
#[serde(rename_all = "snake_case")]
enum ResultKind {
    Valid,
    Invalid,
    Acceptable,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawCase {
    id: String,
    description: String,
    #[serde(default)]
    flags: Vec<String>,
    op: String,
    input: Value,
    result: ResultKind,
    expected: Option<Value>,
    expected_error: Option<ExpectedError>,
    acceptable: Option<Vec<RawAlternative>>,
    #[serde(default)]
    upstream: BTreeMap<String, Value>,
    fixture: Option<Value>,
}

/// An answer of an `acceptable` case as the file writes it: an
/// [`Alternative`], and the policy flags a port must follow for it to pass
/// (read again by [`UncheckedFile::into_file`]). Checked as it is read, so
/// that a broken answer is reported at its own path.
#[derive(Deserialize)]
#[serde(try_from = "RawAlternativeFields")]
struct RawAlternative(Alternative);

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawAlternativeFields {
    expected: Option<Value>,
    expected_error: Option<ExpectedError>,
    flags: Option<Vec<String>>,
}

impl TryFrom<RawAlternativeFields> for RawAlternative {
    type Error = String;

    fn try_from(fields: RawAlternativeFields) -> Result<RawAlternative, String> {
        if fields.flags.as_ref().is_some_and(Vec::is_empty) {
            return Err(
                "an acceptable answer's \"flags\" name one policy flag at least; leave it out for none"
                    .into(),
            );
        }
        match (fields.expected, fields.expected_error) {
            (Some(expected), None) => Ok(RawAlternative(Alternative::Expected(expected))),
            (None, Some(error)) => Ok(RawAlternative(Alternative::ExpectedError(error))),
            _ => Err(
                "an acceptable answer holds exactly one of \"expected\" and \"expected_error\""
                    .into(),
            ),
        }
    }
}

impl RawCase {
    fn expectation(&mut self) -> Result<Expectation, String> {
        let fields = [
            ("expected", self.expected.is_some()),
            ("expected_error", self.expected_error.is_some()),
            ("acceptable", self.acceptable.is_some()),
        ];
        let (wanted, result) = match self.result {
            ResultKind::Valid => ("expected", "valid"),
            ResultKind::Invalid => ("expected_error", "invalid"),
            ResultKind::Acceptable => ("acceptable", "acceptable"),
        };
        for (field, present) in fields {
            if field == wanted && !present {
                return Err(format!("result is {result:?} but {field:?} is missing"));
            }
            if field != wanted && present {
                return Err(format!(
                    "result is {result:?}, which takes {wanted:?}, but the case also has {field:?}"
                ));
            }
        }
        let missing = || format!("{wanted:?} is missing");
        Ok(match self.result {
            ResultKind::Valid => Expectation::Valid {
                expected: self.expected.take().ok_or_else(missing)?,
            },
            ResultKind::Invalid => Expectation::Invalid {
                expected_error: self.expected_error.take().ok_or_else(missing)?,
            },
            ResultKind::Acceptable => {
                let acceptable = self
                    .acceptable
                    .take()
                    .ok_or_else(missing)?
                    .into_iter()
                    .map(|RawAlternative(alternative)| alternative)
                    .collect::<Vec<_>>();
                if acceptable.is_empty() {
                    return Err("\"acceptable\" lists no answer".into());
                }
                Expectation::Acceptable { acceptable }
            }
        })
    }
}

/// A vector file as the format reads it, before any suite has looked at
/// it: the header parsed, the cases still JSON. [`UncheckedFile::case`]
/// reads them one at a time, so that the loader can check each against its
/// suite before the next is read and a broken file reports its first fault.
#[derive(Debug, Clone, PartialEq)]
pub struct UncheckedFile {
    /// The header; its `cases` stay empty and its `config` null until
    /// [`UncheckedFile::into_file`].
    file: VectorFile,
    cases: Vec<Value>,
}

impl UncheckedFile {
    /// Reads the header of one vector file.
    pub fn parse(text: &str, source: VectorSource) -> Result<UncheckedFile, FormatError> {
        let file = source.to_string();
        let value: Value = serde_json::from_str(text).map_err(|error| FormatError::Json {
            file: file.clone(),
            message: error.to_string(),
        })?;
        let header: RawHeader =
            serde_path_to_error::deserialize(&value).map_err(|error| FormatError::Header {
                file,
                path: json_path(&error.path().to_string()),
                message: error.inner().to_string(),
            })?;
        let mut notes = BTreeMap::new();
        let mut policies = BTreeMap::new();
        for (flag, note) in header.notes {
            if let Some(policy) = note.policy {
                policies.insert(flag.clone(), policy);
            }
            let RawNote {
                description,
                effect,
                ..
            } = note;
            notes.insert(
                flag,
                Note {
                    description,
                    effect,
                },
            );
        }
        Ok(UncheckedFile {
            file: VectorFile {
                source,
                schema: header.schema,
                suite: header.suite,
                version: header.version,
                description: header.description,
                notes,
                policies,
                answer_flags: BTreeMap::new(),
                header: header.extra,
                config: Value::Null,
                cases: Vec::new(),
            },
            cases: header.cases,
        })
    }

    pub fn source(&self) -> &VectorSource {
        &self.file.source
    }

    /// The file's `suite` field.
    pub fn suite(&self) -> &str {
        &self.file.suite
    }

    /// The suite-specific header fields.
    pub fn header(&self) -> &Map<String, Value> {
        &self.file.header
    }

    /// How many cases the file holds.
    pub fn case_count(&self) -> usize {
        self.cases.len()
    }

    /// Reads case `index` (0-based, below [`UncheckedFile::case_count`]).
    pub fn case(&self, index: usize) -> Result<Case, FormatError> {
        let raw = self.cases.get(index).unwrap_or(&Value::Null);
        let case_error = |path: String, message: String| self.case_error(index, path, message);
        let mut case: RawCase = serde_path_to_error::deserialize(raw).map_err(|error| {
            let inner = error.path().to_string();
            let path = if inner == "." {
                format!("cases[{index}]")
            } else {
                format!("cases[{index}].{inner}")
            };
            case_error(path, error.inner().to_string())
        })?;
        let expectation = case
            .expectation()
            .map_err(|message| case_error(format!("cases[{index}]"), message))?;
        Ok(Case {
            id: case.id,
            description: case.description,
            flags: case.flags,
            op: case.op,
            input: case.input,
            expectation,
            upstream: case.upstream,
            fixture: case.fixture,
        })
    }

    /// An error in case `index` at `path`, naming the file and the case's
    /// id as far as it can be read.
    pub fn case_error(&self, index: usize, path: String, message: String) -> FormatError {
        let id = self
            .cases
            .get(index)
            .and_then(|raw| raw.get("id"))
            .and_then(Value::as_str)
            .unwrap_or("(no id)")
            .to_owned();
        FormatError::Case {
            file: self.file.source.to_string(),
            id,
            path,
            message,
        }
    }

    /// The checked file: its cases, read and checked, and the `config` its
    /// suite built from the header.
    pub fn into_file(self, cases: Vec<Case>, config: Value) -> VectorFile {
        // The answers' flags, read again from the raw cases that `case`
        // parsed (and so checked) already.
        let answer_flags = self
            .cases
            .iter()
            .filter_map(|raw| {
                let id = raw.get("id")?.as_str()?;
                let answers = raw.get("acceptable")?.as_array()?;
                let flags: Vec<Vec<String>> = answers
                    .iter()
                    .map(|answer| {
                        answer
                            .get("flags")
                            .and_then(Value::as_array)
                            .map(|flags| {
                                flags
                                    .iter()
                                    .filter_map(Value::as_str)
                                    .map(str::to_owned)
                                    .collect()
                            })
                            .unwrap_or_default()
                    })
                    .collect();
                flags
                    .iter()
                    .any(|flags| !flags.is_empty())
                    .then(|| (id.to_owned(), flags))
            })
            .collect();
        VectorFile {
            config,
            cases,
            answer_flags,
            ..self.file
        }
    }
}

/// serde_path_to_error writes the root as `.`; a person reads `$`.
fn json_path(path: &str) -> String {
    if path == "." {
        "$".into()
    } else {
        format!("$.{path}")
    }
}

/// The vector files of one run.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct VectorSet {
    pub files: Vec<VectorFile>,
}

impl VectorSet {
    /// Every embedded vector file (`*.json` at the top of `vectors/`), as
    /// (path relative to that directory, contents).
    pub fn embedded_texts() -> impl Iterator<Item = (&'static str, &'static str)> {
        EMBEDDED_FILES
            .iter()
            .copied()
            .filter(|(path, _)| !path.contains('/') && path.ends_with(".json"))
    }

    /// Adds a file; a file named like one already in the set replaces it,
    /// so an edited checkout of the vectors runs without a rebuild.
    pub fn insert(&mut self, file: VectorFile) {
        let name = file.source.file_name().into_owned();
        match self
            .files
            .iter_mut()
            .find(|existing| existing.source.file_name() == name)
        {
            Some(existing) => *existing = file,
            None => self.files.push(file),
        }
    }

    /// Every case with the file it belongs to, in file order.
    pub fn cases(&self) -> impl Iterator<Item = (&VectorFile, &Case)> {
        self.files
            .iter()
            .flat_map(|file| file.cases.iter().map(move |case| (file, case)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// The file's first case, as the format reads it.
    fn parse(value: Value) -> Result<Case, FormatError> {
        UncheckedFile::parse(&value.to_string(), VectorSource::File("test.json".into()))?.case(0)
    }

    fn file_with_case(case: Value) -> Value {
        json!({
            "suite": "template",
            "version": "1.0.0",
            "description": "d",
            "vocabulary": "vocabulary/template-v1.txt",
            "cases": [case],
        })
    }

    #[test]
    fn missing_expected_names_the_case() {
        let error = parse(file_with_case(json!({
            "id": "template-0001", "description": "d", "op": "template",
            "input": {"message": "x"}, "result": "valid",
        })))
        .expect_err("a valid case needs expected");
        let text = error.to_string();
        assert!(text.contains("test.json"), "{text}");
        assert!(text.contains("template-0001"), "{text}");
        assert!(text.contains("\"expected\" is missing"), "{text}");
    }

    #[test]
    fn wrong_field_type_names_the_json_path() {
        let error = parse(file_with_case(json!({
            "id": "template-0002", "description": "d", "op": "template", "flags": "oops",
            "input": {"message": "x"}, "result": "valid", "expected": {},
        })))
        .expect_err("flags must be an array");
        let text = error.to_string();
        assert!(text.contains("cases[0].flags"), "{text}");
        assert!(text.contains("template-0002"), "{text}");
    }

    #[test]
    fn acceptable_answers_are_outputs_or_error_kinds() {
        let case = parse(file_with_case(json!({
            "id": "template-0004", "description": "d", "op": "template", "flags": ["f"],
            "input": {"message": "x"}, "result": "acceptable",
            "acceptable": [
                {"expected": {"kind": "other", "template": null}},
                {"expected_error": {"kind": "timeout"}},
            ],
        })))
        .expect("a well-formed acceptable case");
        assert_eq!(
            case.expectation,
            Expectation::Acceptable {
                acceptable: vec![
                    Alternative::Expected(json!({"kind": "other", "template": null})),
                    Alternative::ExpectedError(ExpectedError {
                        kind: "timeout".into()
                    }),
                ]
            }
        );

        for broken in [
            json!([{"kind": "other", "template": null}]),
            json!([{"expected": {}, "expected_error": {"kind": "timeout"}}]),
            json!([{"expected_error": {"kind": "timeout", "message": "m"}}]),
            json!([{"expected": {}, "flags": []}]),
            json!([{"expected": {}, "flags": "policy"}]),
        ] {
            let error = parse(file_with_case(json!({
                "id": "template-0005", "description": "d", "op": "template", "flags": ["f"],
                "input": {"message": "x"}, "result": "acceptable", "acceptable": broken,
            })))
            .expect_err("not an answer");
            assert!(error.to_string().contains("cases[0].acceptable"), "{error}");
        }
    }

    #[test]
    fn retired_ids_need_an_id_and_a_reason() {
        let list = "# header\n\nchat-0042  # duplicated chat-0041\n  web-1001 # gone # really\n";
        assert_eq!(
            parse_retired_ids(list),
            Ok(vec![
                RetiredId {
                    id: "chat-0042".into(),
                    line: 3,
                    reason: "duplicated chat-0041".into()
                },
                RetiredId {
                    id: "web-1001".into(),
                    line: 4,
                    reason: "gone # really".into()
                },
            ])
        );
        for (broken, message) in [
            ("chat-0042\n", "line 1: chat-0042 has no `# reason`"),
            ("chat-42 # short\n", "line 1: \"chat-42\" is not a case id"),
            (
                "# c\nchat-0001 # a\nchat-0001 # b\n",
                "line 3: chat-0001 is already retired on line 2",
            ),
        ] {
            let error = parse_retired_ids(broken).expect_err(broken);
            assert!(error.starts_with(message), "{error}");
        }
        // The shipped list parses and holds the ids chat and template 2.0.0
        // retired.
        assert!(retired_ids().is_ok_and(|list| !list.is_empty()));
    }
}
