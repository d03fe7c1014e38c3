//! Generated differential testing of a port: `agentfence diff`.
//!
//! Each case is an input drawn by the fuzz generators ([`generate`]),
//! answered by the embedded reference through the same call `run` makes
//! ([`call_reference`]), turned into an ordinary vector case whose
//! expectation is that answer, and run against the port by the runner
//! itself ([`runner::run`]: the operations the port lists, the suite
//! message, the judge, crashes, hangs and garbage as `run` reports them).
//! An input that equals a shipped vector's is judged by that vector, so its
//! acceptable answers stand. Each case the port fails is a disagreement;
//! the first few of each group (one [`DivergenceKind`]: same operation,
//! same first differing field, same outcome shapes on both sides) are
//! shortened by [`minimise`] and become ready vectors.
//!
//! A disagreement is *known by input* when its minimised input is exactly
//! a vector's that records this port's answer (or one `--known` lists),
//! and *known by rule* when a vector records the same kind of divergence
//! for this port: generated inputs almost never equal a vector's, so
//! without the rule every run against an upstream would report again, as
//! new, each class of divergence the vectors already record.

pub mod generate;
pub mod minimise;

use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::Path;
use std::time::{Duration, Instant};

use serde::Serialize;
use serde_json::{Map, Value};

use crate::canonical::canonical;
use crate::case_list::CaseList;
use crate::lint::UPSTREAM_DIVERGENCE;
use crate::loader;
use crate::outcome::{Answer, Verdict};
use crate::protocol::{CaseOutcome, ImplementationInfo};
use crate::reference::call_reference;
use crate::report::CaseReport;
use crate::runner::{self, Implementation, LateFault, Selection};
use crate::suites::{ReferenceSuite, SuiteRegistry};
use crate::vectors::{
    Alternative, Case, Expectation, ExpectedError, Note, VectorFile, VectorSet, VectorSource,
};

use minimise::Budget;

/// Cases sent to the port between two looks at the clock and the progress
/// line.
const BATCH: u64 = 200;

/// Disagreements of one group that are minimised and printed; the others
/// are counted.
pub const EXAMPLES_PER_GROUP: usize = 3;

/// Tries (round trips to the port) minimising one disagreement may take.
pub const MINIMISE_STEPS: usize = 2_000;

/// What to draw and how long for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DiffOptions {
    /// The suites to draw for (all of them when empty).
    pub suites: Vec<String>,
    /// Only this operation.
    pub op: Option<String>,
    /// At most this many cases (none: until `time` runs out).
    pub cases: Option<u64>,
    pub seed: u64,
    /// Stop drawing cases after this long; minimising what was found
    /// afterwards is bounded by [`DiffOptions::minimise_steps`].
    pub time: Option<Duration>,
    pub minimise_steps: usize,
}

/// Why a diff cannot run at all.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DiffError {
    #[error("{0}")]
    Usage(String),
    #[error("{0}")]
    Setup(String),
}

/// A case the port answered otherwise than the reference.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Disagreement {
    pub suite: String,
    pub op: String,
    /// Its number in the run: with the seed, it draws `drawn` again.
    pub index: u64,
    pub drawn: Value,
    /// The input after minimising (`drawn` when it was not minimised).
    pub input: Value,
    /// What the reference answered (or the vector that has this input
    /// demands), as a vector writes it.
    #[serde(flatten)]
    pub expectation: Expectation,
    pub answer: Answer,
    /// The judge's reason.
    pub reason: String,
    /// The first field where the answers differ (`output.template`,
    /// `error.kind`, `outcome`, or `answer` when the port gave none).
    pub field: String,
    /// Tries spent minimising it.
    pub minimise_tries: usize,
    /// The shipped vector that records this answer of the port, or that
    /// `--known` lists, when the input is that vector's.
    pub known_by_input: Option<String>,
}

/// What one side of a disagreement answered, as kinds of divergence are
/// told apart: an output, an error of some kind, a skip, or no answer.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(into = "String")]
pub enum Shape {
    Output,
    /// An error; `None` for an upstream answer recorded without a kind
    /// (none of ours fits it).
    Error(Option<String>),
    Skipped,
    /// A crash, a hang, garbage: nothing to compare.
    NoAnswer,
}

impl std::fmt::Display for Shape {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Shape::Output => f.write_str("output"),
            Shape::Error(Some(kind)) => write!(f, "error {kind}"),
            Shape::Error(None) => f.write_str("error"),
            Shape::Skipped => f.write_str("skipped"),
            Shape::NoAnswer => f.write_str("no answer"),
        }
    }
}

impl From<Shape> for String {
    fn from(shape: Shape) -> String {
        shape.to_string()
    }
}

impl Shape {
    /// The reference's side, from what a case expects: an output when an
    /// output is acceptable (the answer [`first_difference`] compares
    /// with), else the first acceptable error's kind.
    pub fn of_expectation(expectation: &Expectation) -> Shape {
        match expectation {
            Expectation::Valid { .. } => Shape::Output,
            Expectation::Invalid { expected_error } => {
                Shape::Error(Some(expected_error.kind.clone()))
            }
            Expectation::Acceptable { acceptable } => {
                if acceptable
                    .iter()
                    .any(|alternative| matches!(alternative, Alternative::Expected(_)))
                {
                    return Shape::Output;
                }
                Shape::Error(acceptable.iter().find_map(|alternative| match alternative {
                    Alternative::ExpectedError(error) => Some(error.kind.clone()),
                    Alternative::Expected(_) => None,
                }))
            }
        }
    }

    /// The port's side, from its answer.
    pub fn of_answer(answer: &Answer) -> Shape {
        match answer {
            Answer::Replied(CaseOutcome::Output(_)) => Shape::Output,
            Answer::Replied(CaseOutcome::Error(error)) => Shape::Error(Some(error.kind.clone())),
            Answer::Replied(CaseOutcome::Skipped(_)) => Shape::Skipped,
            Answer::Broken { .. } | Answer::NotSent { .. } => Shape::NoAnswer,
        }
    }
}

/// A kind of divergence: the operation, the first differing field as
/// [`group_field`] writes it, and the shape of each side's answer.
/// Disagreements are grouped by it, and a vector that records a port's
/// answer records one kind for that port.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize)]
pub struct DivergenceKind {
    pub op: String,
    /// The field as [`group_field`] writes it (`output.messages[].role`).
    pub field: String,
    /// What the reference answered (or the vector with this input wants).
    pub reference: Shape,
    /// What the port answered.
    pub port: Shape,
}

impl DivergenceKind {
    pub fn of(op: &str, expectation: &Expectation, answer: &Answer) -> DivergenceKind {
        DivergenceKind {
            op: op.to_owned(),
            field: group_field(&first_difference(expectation, answer)),
            reference: Shape::of_expectation(expectation),
            port: Shape::of_answer(answer),
        }
    }
}

/// Disagreements of one [`DivergenceKind`].
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Group {
    #[serde(flatten)]
    pub kind: DivergenceKind,
    pub count: u64,
    /// Of `count`, those known by input: the examples whose minimised
    /// input a vector or `--known` holds, or the whole group when every
    /// example is (the examples stand for the rest).
    pub known_by_input: u64,
    /// Of `count`, those known by rule: the rest of the group when
    /// [`Group::rule`] names vectors.
    pub known_by_rule: u64,
    /// Of `count`, those neither: candidates for new vectors.
    pub unknown: u64,
    /// The vectors that record this kind of divergence for this port (all
    /// of them, in vector order); empty when none does or the run asked
    /// for known by input only.
    pub rule: Vec<String>,
    /// Its minimised examples, distinct inputs, at most
    /// [`EXAMPLES_PER_GROUP`].
    pub examples: Vec<Disagreement>,
}

impl Group {
    /// The examples no vector records, by input or by rule: the new
    /// vectors to write.
    pub fn new_examples(&self) -> impl Iterator<Item = &Disagreement> {
        self.examples
            .iter()
            .filter(|example| self.rule.is_empty() && example.known_by_input.is_none())
    }
}

/// A reference call that panicked: a bug of the reference, not the port.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ReferenceFault {
    pub op: String,
    pub index: u64,
    pub input: Value,
    pub reason: String,
}

/// Everything a diff found.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct DiffReport {
    pub implementation: ImplementationInfo,
    pub seed: u64,
    /// Cases sent, by operation.
    pub sent: BTreeMap<String, u64>,
    /// Operations of the selection the port does not list: never sent.
    pub not_listed: Vec<String>,
    /// Cases the port answered `skipped`.
    pub skipped_by_port: u64,
    pub groups: Vec<Group>,
    pub reference_faults: Vec<ReferenceFault>,
    /// Why drawing stopped early: the port was given up on.
    pub given_up: Option<String>,
}

impl DiffReport {
    pub fn total_sent(&self) -> u64 {
        self.sent.values().sum()
    }

    /// Disagreements in all, known ones included.
    pub fn disagreements(&self) -> u64 {
        self.groups.iter().map(|group| group.count).sum()
    }

    /// Whether something disagrees that no vector or `--known` list
    /// records, by input or by rule: a reference fault, or a group with
    /// unknown disagreements.
    pub fn has_unknown(&self) -> bool {
        !self.reference_faults.is_empty() || self.groups.iter().any(|group| group.unknown > 0)
    }
}

/// Inputs that a vector already pins: by `(op, input)`, the vector's id
/// and expectation.
struct VectorIndex {
    by_input: HashMap<String, (String, Expectation, Vec<String>)>,
}

/// `op` and `input` as one string, with object keys sorted whatever the
/// map type, so equal inputs have equal keys.
fn input_key(op: &str, input: &Value) -> String {
    fn sorted(value: &Value) -> Value {
        match value {
            Value::Object(object) => {
                let entries: BTreeMap<&String, Value> = object
                    .iter()
                    .map(|(key, item)| (key, sorted(item)))
                    .collect();
                let mut out = Map::new();
                for (key, item) in entries {
                    out.insert(key.clone(), item);
                }
                Value::Object(out)
            }
            Value::Array(items) => Value::Array(items.iter().map(sorted).collect()),
            other => other.clone(),
        }
    }
    format!("{op}\u{0}{}", sorted(input))
}

impl VectorIndex {
    fn new(vectors: &VectorSet) -> VectorIndex {
        let mut by_input = HashMap::new();
        for (_, case) in vectors.cases() {
            if case.fixture.is_some() {
                continue;
            }
            by_input
                .entry(input_key(&case.op, &case.input))
                .or_insert_with(|| {
                    (
                        case.id.clone(),
                        case.expectation.clone(),
                        case.upstream.keys().cloned().collect(),
                    )
                });
        }
        VectorIndex { by_input }
    }
}

/// Inputs whose disagreement is known, with the vector id that records it.
#[derive(Debug, Clone, Default)]
pub struct KnownCases {
    by_input: HashMap<String, String>,
}

impl KnownCases {
    /// Adds the cases `other` knows.
    pub fn extend(&mut self, other: KnownCases) {
        self.by_input.extend(other.by_input);
    }

    /// Reads `--known FILE`: a JSON run report (`run --report`), whose
    /// failing and expected-failure cases are known; or a case list (the
    /// format of `--skip` and `--xfail`, such as a port's
    /// `not-yet-followed.txt`), whose ids name shipped vectors.
    pub fn read(path: &Path, vectors: &VectorSet) -> Result<KnownCases, String> {
        let text = std::fs::read_to_string(path)
            .map_err(|error| format!("cannot read {}: {error}", path.display()))?;
        let mut known = KnownCases::default();
        if let Ok(report) = serde_json::from_str::<Value>(&text) {
            let files = report
                .get("files")
                .and_then(Value::as_array)
                .ok_or_else(|| {
                    format!(
                        "{} is JSON but not a run report (no \"files\" array)",
                        path.display()
                    )
                })?;
            for case in files
                .iter()
                .filter_map(|file| file.get("cases").and_then(Value::as_array))
                .flatten()
            {
                let status = case.pointer("/verdict/status").and_then(Value::as_str);
                if !matches!(status, Some("failed" | "errored" | "expected_failure")) {
                    continue;
                }
                if let (Some(id), Some(op), Some(input)) = (
                    case.get("id").and_then(Value::as_str),
                    case.get("op").and_then(Value::as_str),
                    case.get("input"),
                ) {
                    known.by_input.insert(input_key(op, input), id.to_owned());
                }
            }
            return Ok(known);
        }
        let list = CaseList::read(path)?;
        for (_, case) in vectors.cases() {
            if list.matching(&case.id).is_some() {
                known
                    .by_input
                    .insert(input_key(&case.op, &case.input), case.id.clone());
            }
        }
        Ok(known)
    }
}

/// The port, held open across the runner's calls: the runner ends an
/// implementation after each run, and a diff runs it once per batch. Late
/// faults (a second reply line) are logged, since one found in a batch may
/// belong to a case of the batch before.
struct HeldOpen<'p> {
    port: &'p mut dyn Implementation,
    late: Vec<LateFault>,
}

impl Implementation for HeldOpen<'_> {
    fn info(&self) -> ImplementationInfo {
        self.port.info()
    }
    fn supports(&self, op: &str) -> bool {
        self.port.supports(op)
    }
    fn begin_file(&mut self, file: &VectorFile) -> Result<(), String> {
        self.port.begin_file(file)
    }
    fn run_case(&mut self, file: &VectorFile, case: &Case) -> Answer {
        self.port.run_case(file, case)
    }
    fn late_faults(&mut self) -> Vec<LateFault> {
        let faults = self.port.late_faults();
        self.late.extend(faults.iter().cloned());
        faults
    }
    fn finish(&mut self) {}
}

/// A suite as a diff uses it: the header of its shipped vector file (so
/// the port gets the suite message `run` sends) and its reference.
struct SuiteSetup {
    file: VectorFile,
    reference: Box<dyn ReferenceSuite>,
}

/// A drawn or shortened case, ready to send.
struct Prepared {
    suite: String,
    index: u64,
    case: Case,
}

impl Prepared {
    /// The port's `answer` to this case as a disagreement, not yet
    /// minimised or matched to a known vector.
    fn disagreement(&self, answer: Answer, reason: String, field: String) -> Disagreement {
        Disagreement {
            suite: self.suite.clone(),
            op: self.case.op.clone(),
            index: self.index,
            drawn: self.case.input.clone(),
            input: self.case.input.clone(),
            expectation: self.case.expectation.clone(),
            answer,
            reason,
            field,
            minimise_tries: 0,
            known_by_input: None,
        }
    }
}

/// A diff in progress against one port.
pub struct Differ<'r> {
    registry: &'r SuiteRegistry,
    setups: BTreeMap<String, SuiteSetup>,
    index: VectorIndex,
    known: KnownCases,
    /// `name@version` of the port, as vectors key its recorded answers.
    port_key: String,
    /// The kinds of divergence vectors record for this port, each with
    /// the ids of those vectors in vector order.
    rules: HashMap<DivergenceKind, Vec<String>>,
}

/// The kinds of divergence the vectors record for the port `port_key`:
/// for each vector (without a fixture, as diff draws none) with an
/// `upstream` answer under that key, the kind between its expectation and
/// that answer.
fn recorded_kinds(vectors: &VectorSet, port_key: &str) -> HashMap<DivergenceKind, Vec<String>> {
    let mut rules: HashMap<DivergenceKind, Vec<String>> = HashMap::new();
    for (_, case) in vectors.cases() {
        if case.fixture.is_some() {
            continue;
        }
        let Some(recorded) = case.upstream.get(port_key) else {
            continue;
        };
        let answer = recorded_as_answer(recorded);
        let mut kind = DivergenceKind::of(&case.op, &case.expectation, &answer);
        if let Some(shape) = recorded_error_shape(recorded) {
            kind.port = shape;
        }
        rules.entry(kind).or_default().push(case.id.clone());
    }
    rules
}

/// An `upstream` entry as the answer it records: `{"error": {...}}` alone
/// is an error, anything else an output (`tools/record_upstream.py`
/// records skips as nothing).
fn recorded_as_answer(recorded: &Value) -> Answer {
    match recorded_error(recorded) {
        Some(error) => Answer::Replied(CaseOutcome::Error(crate::protocol::ReportedError {
            kind: error
                .get("kind")
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_owned(),
            message: String::new(),
        })),
        None => Answer::Replied(CaseOutcome::Output(recorded.clone())),
    }
}

/// The `error` object of an `upstream` entry that records an error.
fn recorded_error(recorded: &Value) -> Option<&Value> {
    recorded
        .as_object()
        .filter(|object| object.len() == 1)
        .and_then(|object| object.get("error"))
        .filter(|error| error.is_object())
}

/// The shape of a recorded error, which may have no kind (none of ours
/// fits the upstream's refusal).
fn recorded_error_shape(recorded: &Value) -> Option<Shape> {
    recorded_error(recorded)
        .map(|error| Shape::Error(error.get("kind").and_then(Value::as_str).map(str::to_owned)))
}

/// The `(suite, op)` pairs of the selection, in [`generate::OPERATIONS`]
/// order.
pub fn selected_operations(
    options: &DiffOptions,
) -> Result<Vec<(&'static str, &'static str)>, DiffError> {
    for suite in &options.suites {
        if !generate::OPERATIONS.iter().any(|(name, _)| name == suite) {
            return Err(DiffError::Usage(format!(
                "no suite {suite:?} to draw cases for; suites: template, chat, web"
            )));
        }
    }
    let selected: Vec<(&str, &str)> = generate::OPERATIONS
        .iter()
        .copied()
        .filter(|(suite, _)| options.suites.is_empty() || options.suites.iter().any(|s| s == suite))
        .filter(|(_, op)| options.op.as_deref().is_none_or(|wanted| wanted == *op))
        .collect();
    if selected.is_empty() {
        let ops: Vec<&str> = generate::OPERATIONS.iter().map(|(_, op)| *op).collect();
        return Err(DiffError::Usage(match &options.op {
            Some(op) => format!(
                "no cases are drawn for operation {op:?} in the selected suites; operations: {}",
                ops.join(", ")
            ),
            None => "the selection has no operation".to_owned(),
        }));
    }
    Ok(selected)
}

impl<'r> Differ<'r> {
    /// A diff with the shipped vectors (their suite headers, the inputs
    /// they pin) and the known cases.
    pub fn new(
        registry: &'r SuiteRegistry,
        vectors: &VectorSet,
        known: KnownCases,
        port: &ImplementationInfo,
    ) -> Result<Differ<'r>, DiffError> {
        let port_key = port.upstream_key();
        let mut setups = BTreeMap::new();
        for file in &vectors.files {
            if setups.contains_key(&file.suite) {
                continue;
            }
            let Some(suite) = registry.find(&file.suite) else {
                continue;
            };
            let reference = suite.reference(&file.config).map_err(|error| {
                DiffError::Setup(format!(
                    "the reference rejects the config of {}: {error}",
                    file.source
                ))
            })?;
            let mut header = file.clone();
            header.cases.clear();
            setups.insert(
                file.suite.clone(),
                SuiteSetup {
                    file: header,
                    reference,
                },
            );
        }
        Ok(Differ {
            registry,
            setups,
            index: VectorIndex::new(vectors),
            known,
            rules: recorded_kinds(vectors, &port_key),
            port_key,
        })
    }

    /// Only exact inputs count as known: no disagreement is known by rule,
    /// so every kind the vectors record is reported again.
    pub fn known_by_input_only(mut self) -> Differ<'r> {
        self.rules.clear();
        self
    }

    /// The vectors that record `kind` for this port, if any.
    pub fn rule(&self, kind: &DivergenceKind) -> &[String] {
        self.rules.get(kind).map(Vec::as_slice).unwrap_or_default()
    }

    /// What the port must answer for `input`: the vector's expectation when
    /// a vector has this input, else the reference's answer. `Err` when the
    /// reference panicked.
    fn expectation(&self, suite: &str, op: &str, input: &Value) -> Result<Expectation, String> {
        if let Some((_, expectation, _)) = self.index.by_input.get(&input_key(op, input)) {
            return Ok(expectation.clone());
        }
        let setup = self
            .setups
            .get(suite)
            .ok_or_else(|| format!("no vector file of suite {suite:?} is loaded"))?;
        match call_reference(&*setup.reference, op, input) {
            Answer::Replied(CaseOutcome::Output(expected)) => Ok(Expectation::Valid { expected }),
            Answer::Replied(CaseOutcome::Error(error)) => Ok(Expectation::Invalid {
                expected_error: ExpectedError { kind: error.kind },
            }),
            Answer::Replied(CaseOutcome::Skipped(skip)) => {
                Err(format!("the reference skipped the case: {}", skip.reason))
            }
            Answer::Broken { reason } | Answer::NotSent { reason } => Err(reason),
        }
    }

    /// Sends `cases` through the runner and returns each one's report, in
    /// the order given.
    fn send(&self, port: &mut HeldOpen<'_>, cases: &[Prepared]) -> Vec<CaseReport> {
        let mut files: Vec<VectorFile> = Vec::new();
        for prepared in cases {
            let position = files.iter().position(|file| file.suite == prepared.suite);
            let file = match position {
                Some(at) => &mut files[at],
                None => {
                    let Some(setup) = self.setups.get(&prepared.suite) else {
                        continue;
                    };
                    let mut file = setup.file.clone();
                    file.source = VectorSource::File(format!("diff-{}", prepared.suite).into());
                    files.push(file);
                    files.last_mut().expect("a file was just pushed")
                }
            };
            file.cases.push(prepared.case.clone());
        }
        let report = runner::run(
            &VectorSet { files },
            self.registry,
            port,
            &Selection::default(),
        );
        let mut by_id: HashMap<String, CaseReport> = report
            .files
            .into_iter()
            .flat_map(|file| file.cases)
            .map(|case| (case.id.clone(), case))
            .collect();
        cases
            .iter()
            .filter_map(|prepared| by_id.remove(&prepared.case.id))
            .collect()
    }

    /// The disagreement in a case's report, if it has one.
    fn disagreement(&self, prepared: &Prepared, report: &CaseReport) -> Option<Disagreement> {
        let reason = match &report.verdict {
            Verdict::Failed { reason } | Verdict::Errored { reason } => reason.clone(),
            _ => return None,
        };
        let field = first_difference(&prepared.case.expectation, &report.answer);
        Some(prepared.disagreement(report.answer.clone(), reason, field))
    }

    /// Runs the diff: draws, sends and judges cases until `options` says
    /// stop, then minimises the first examples of each group. `progress`
    /// is told how many cases are done after each batch.
    pub fn run(
        &self,
        port: &mut dyn Implementation,
        options: &DiffOptions,
        progress: &mut dyn FnMut(u64, Duration),
    ) -> Result<DiffReport, DiffError> {
        let selected = selected_operations(options)?;
        let listed: Vec<(&str, &str)> = selected
            .iter()
            .copied()
            .filter(|(_, op)| port.supports(op))
            .collect();
        let not_listed: Vec<String> = selected
            .iter()
            .filter(|(_, op)| !port.supports(op))
            .map(|(_, op)| (*op).to_owned())
            .collect();
        let info = port.info();
        if listed.is_empty() {
            return Err(DiffError::Usage(format!(
                "the port lists none of the operations drawn for ({})",
                not_listed.join(", ")
            )));
        }
        if options.cases.is_none() && options.time.is_none() {
            return Err(DiffError::Usage("give --cases or --time".into()));
        }
        let started = Instant::now();
        let mut held = HeldOpen {
            port,
            late: Vec::new(),
        };
        let mut report = DiffReport {
            implementation: info,
            seed: options.seed,
            sent: BTreeMap::new(),
            not_listed,
            skipped_by_port: 0,
            groups: Vec::new(),
            reference_faults: Vec::new(),
            given_up: None,
        };
        // Per kind, in order of first appearance: its count and examples.
        let mut groups: Vec<(DivergenceKind, u64, Vec<Disagreement>)> = Vec::new();
        let mut record = |disagreement: Disagreement| {
            let kind = DivergenceKind::of(
                &disagreement.op,
                &disagreement.expectation,
                &disagreement.answer,
            );
            let group = match groups.iter().position(|(k, _, _)| *k == kind) {
                Some(at) => &mut groups[at],
                None => {
                    groups.push((kind, 0, Vec::new()));
                    groups.last_mut().expect("a group was just pushed")
                }
            };
            group.1 += 1;
            if group.2.len() < EXAMPLES_PER_GROUP {
                group.2.push(disagreement);
            }
        };
        let mut previous: Vec<Prepared> = Vec::new();
        let mut next = 0u64;
        loop {
            let limit = options.cases.unwrap_or(u64::MAX);
            let out_of_time = options.time.is_some_and(|time| started.elapsed() >= time);
            if next >= limit || out_of_time {
                break;
            }
            let end = next.saturating_add(BATCH).min(limit);
            let mut batch = Vec::new();
            for index in next..end {
                let (suite, op) = listed[(index % listed.len() as u64) as usize];
                let Some(input) = generate::draw_input(op, options.seed, index) else {
                    continue;
                };
                match self.expectation(suite, op, &input) {
                    Ok(expectation) => batch.push(Prepared {
                        suite: suite.to_owned(),
                        index,
                        case: generated_case(format!("diff-{index}"), op, input, expectation),
                    }),
                    Err(reason) => report.reference_faults.push(ReferenceFault {
                        op: op.to_owned(),
                        index,
                        input,
                        reason,
                    }),
                }
            }
            next = end;
            held.late.clear();
            let reports = self.send(&mut held, &batch);
            for (prepared, case_report) in batch.iter().zip(&reports) {
                *report.sent.entry(prepared.case.op.clone()).or_default() += 1;
                if matches!(case_report.verdict, Verdict::Skipped { .. }) {
                    report.skipped_by_port += 1;
                }
                if let Answer::NotSent { reason } = &case_report.answer {
                    report.given_up.get_or_insert_with(|| reason.clone());
                }
                if let Some(disagreement) = self.disagreement(prepared, case_report) {
                    record(disagreement);
                }
            }
            // A second reply to the last case of the batch before shows
            // only now.
            late_disagreements(&held.late, &previous, &batch, &mut record);
            previous = batch;
            progress(next, started.elapsed());
            if report.given_up.is_some() {
                break;
            }
        }
        held.late.clear();
        held.port.finish();
        let late = held.port.late_faults();
        late_disagreements(&late, &previous, &[], &mut record);

        for (kind, count, examples) in groups {
            let mut minimised: Vec<Disagreement> = Vec::new();
            for example in examples {
                let example = self.minimise(&mut held, example, options.minimise_steps);
                let same = |other: &Disagreement| input_key(&other.op, &other.input);
                if !minimised
                    .iter()
                    .any(|earlier| same(earlier) == same(&example))
                {
                    minimised.push(example);
                }
            }
            let rule = self.rule(&kind).to_vec();
            let examples_by_input = minimised
                .iter()
                .filter(|example| example.known_by_input.is_some())
                .count() as u64;
            let all_by_input = !minimised.is_empty() && examples_by_input == minimised.len() as u64;
            let known_by_input = if all_by_input && rule.is_empty() {
                count
            } else {
                examples_by_input.min(count)
            };
            let known_by_rule = if rule.is_empty() {
                0
            } else {
                count - known_by_input
            };
            report.groups.push(Group {
                kind,
                count,
                known_by_input,
                known_by_rule,
                unknown: count - known_by_input - known_by_rule,
                rule,
                examples: minimised,
            });
        }
        held.port.finish();
        Ok(report)
    }

    /// `disagreement` with its input shortened while the port still
    /// disagrees in the same kind; marked known when the result is an
    /// input a vector or `--known` records. A port that gave no answer is
    /// not minimised: each try could cost a timeout.
    fn minimise(
        &self,
        port: &mut HeldOpen<'_>,
        mut disagreement: Disagreement,
        steps: usize,
    ) -> Disagreement {
        if !matches!(disagreement.answer, Answer::Replied(_)) {
            disagreement.known_by_input = self.known_id(&disagreement);
            return disagreement;
        }
        let mut budget = Budget { left: steps };
        let mut tries = 0u64;
        let mut last: Option<(Expectation, CaseReport)> = None;
        let target = DivergenceKind::of(
            &disagreement.op,
            &disagreement.expectation,
            &disagreement.answer,
        );
        let mut keeps = |candidate: &Value| {
            tries += 1;
            let Ok(expectation) =
                self.expectation(&disagreement.suite, &disagreement.op, candidate)
            else {
                return false;
            };
            let prepared = Prepared {
                suite: disagreement.suite.clone(),
                index: disagreement.index,
                case: generated_case(
                    format!("diff-{}-try-{tries}", disagreement.index),
                    &disagreement.op,
                    candidate.clone(),
                    expectation.clone(),
                ),
            };
            let Some(report) = self.send(port, std::slice::from_ref(&prepared)).pop() else {
                return false;
            };
            // The same kind of divergence, so the shortened case stands
            // for its group and is known by rule exactly when it is.
            let same = report.verdict.is_failure()
                && matches!(report.answer, Answer::Replied(_))
                && DivergenceKind::of(&disagreement.op, &expectation, &report.answer) == target;
            if same {
                last = Some((expectation, report));
            }
            same
        };
        let shortest = minimise::minimise_input(&disagreement.input, &mut budget, &mut keeps);
        disagreement.minimise_tries = steps - budget.left;
        if let Some((expectation, report)) = last
            && report.input == shortest
        {
            disagreement.field = first_difference(&expectation, &report.answer);
            if let Verdict::Failed { reason } | Verdict::Errored { reason } = &report.verdict {
                disagreement.reason = reason.clone();
            }
            disagreement.expectation = expectation;
            disagreement.answer = report.answer;
            disagreement.input = shortest;
        }
        disagreement.known_by_input = self.known_id(&disagreement);
        disagreement
    }

    /// The vector that records this disagreement: one with its input that
    /// holds the port's answer under its `name@version`, or one `--known`
    /// lists.
    fn known_id(&self, disagreement: &Disagreement) -> Option<String> {
        let key = input_key(&disagreement.op, &disagreement.input);
        if let Some(id) = self.known.by_input.get(&key) {
            return Some(id.clone());
        }
        self.index
            .by_input
            .get(&key)
            .filter(|(_, _, upstreams)| upstreams.contains(&self.port_key))
            .map(|(id, _, _)| id.clone())
    }

    /// The vector file `--out` writes for `suite`: the shipped file's
    /// header, and each minimised example of the suite as a case with a
    /// placeholder id and description, the reference's answer as its
    /// expectation and the port's answer under `upstream`, in canonical
    /// form. `None` when the suite has no example.
    pub fn vector_file(&self, report: &DiffReport, suite: &str) -> Option<String> {
        let setup = self.setups.get(suite)?;
        let cases: Vec<VectorCase> = report
            .groups
            .iter()
            .flat_map(Group::new_examples)
            .filter(|example| example.suite == suite)
            .enumerate()
            .map(|(number, example)| vector_case(example, number + 1, &self.port_key))
            .collect();
        if cases.is_empty() {
            return None;
        }
        let implementation = &report.implementation;
        let mut notes = BTreeMap::new();
        notes.insert(
            UPSTREAM_DIVERGENCE.to_owned(),
            Note {
                description: format!(
                    "{} {} answers this case otherwise (found by agentfence diff, seed {}); its \
                     answer is recorded under upstream.",
                    implementation.name, implementation.version, report.seed
                ),
                effect: "TODO: describe what a port that answers so gets wrong.".to_owned(),
            },
        );
        let file = VectorFileOut {
            schema: setup.file.schema.as_deref(),
            suite,
            version: &setup.file.version,
            description: format!(
                "Cases agentfence diff found where {} {} and the reference disagree. TODO: \
                 describe.",
                implementation.name, implementation.version
            ),
            header: &setup.file.header,
            notes,
            cases,
        };
        let text = serde_json::to_string(&file).ok()?;
        canonical(&text).ok()
    }
}

/// The suites with minimised examples to write, in report order.
pub fn suites_with_examples(report: &DiffReport) -> Vec<String> {
    let mut suites: Vec<String> = Vec::new();
    for example in report.groups.iter().flat_map(Group::new_examples) {
        if !suites.contains(&example.suite) {
            suites.push(example.suite.clone());
        }
    }
    suites
}

/// A case as the runner takes it; its id is only the protocol's.
fn generated_case(id: String, op: &str, input: Value, expectation: Expectation) -> Case {
    Case {
        id,
        description: "drawn by agentfence diff".into(),
        flags: Vec::new(),
        op: op.to_owned(),
        input,
        expectation,
        upstream: BTreeMap::new(),
        fixture: None,
    }
}

/// Late faults (a second reply line) that belong to a case of the batch
/// before, which the runner could not charge: those cases disagree.
fn late_disagreements(
    faults: &[LateFault],
    previous: &[Prepared],
    current: &[Prepared],
    record: &mut dyn FnMut(Disagreement),
) {
    let current: HashSet<&str> = current.iter().map(|p| p.case.id.as_str()).collect();
    for fault in faults {
        if current.contains(fault.id.as_str()) {
            continue;
        }
        if let Some(prepared) = previous.iter().find(|p| p.case.id == fault.id) {
            let answer = Answer::Broken {
                reason: fault.reason.clone(),
            };
            record(prepared.disagreement(answer, fault.reason.clone(), "answer".into()));
        }
    }
}

/// The first field where `answer` differs from what `expectation` wants:
/// `output.<path>` between two outputs (`output.messages[1].content`),
/// `error.kind` between two errors, `outcome` between an output and an
/// error, `answer` when the port gave none. For naming and grouping a
/// disagreement only: whether there is one is the judge's business.
pub fn first_difference(expectation: &Expectation, answer: &Answer) -> String {
    let outcome = match answer {
        Answer::Replied(outcome) => outcome,
        Answer::Broken { .. } | Answer::NotSent { .. } => return "answer".into(),
    };
    let expected_output = match expectation {
        Expectation::Valid { expected } => Some(expected),
        Expectation::Invalid { .. } => None,
        Expectation::Acceptable { acceptable } => {
            acceptable.iter().find_map(|alternative| match alternative {
                Alternative::Expected(expected) => Some(expected),
                Alternative::ExpectedError(_) => None,
            })
        }
    };
    match (outcome, expected_output) {
        (CaseOutcome::Output(got), Some(expected)) => {
            value_difference("output", expected, got).unwrap_or_else(|| "output".into())
        }
        (CaseOutcome::Error(_), None) => "error.kind".into(),
        (CaseOutcome::Skipped(_), _) => "skipped".into(),
        _ => "outcome".into(),
    }
}

/// The path of the first place where `got` differs from `expected`.
fn value_difference(path: &str, expected: &Value, got: &Value) -> Option<String> {
    if expected == got {
        return None;
    }
    // The children on either side, by key or index, to compare in order.
    let children: Vec<(String, Option<&Value>, Option<&Value>)> = match (expected, got) {
        (Value::Object(want), Value::Object(have)) => want
            .keys()
            .chain(have.keys().filter(|key| !want.contains_key(*key)))
            .map(|key| (format!("{path}.{key}"), want.get(key), have.get(key)))
            .collect(),
        (Value::Array(want), Value::Array(have)) => (0..want.len().max(have.len()))
            .map(|index| (format!("{path}[{index}]"), want.get(index), have.get(index)))
            .collect(),
        _ => return Some(path.to_owned()),
    };
    for (here, want, have) in children {
        match (want, have) {
            (Some(a), Some(b)) => {
                if let Some(found) = value_difference(&here, a, b) {
                    return Some(found);
                }
            }
            _ => return Some(here),
        }
    }
    Some(path.to_owned())
}

/// A field path as disagreements are grouped by: without its array
/// indices, so that one rule broken at another position groups with the
/// rest, and at most [`GROUP_DEPTH`] fields deep, since what lies deeper
/// in an output is its data (the keys of a message's `metadata`), not a
/// field of the operation.
pub fn group_field(field: &str) -> String {
    let mut out = String::with_capacity(field.len());
    let mut in_index = false;
    for c in field.chars() {
        match c {
            '[' => {
                in_index = true;
                out.push('[');
            }
            ']' => {
                in_index = false;
                out.push(']');
            }
            _ if in_index => {}
            _ => out.push(c),
        }
    }
    out.split('.')
        .take(GROUP_DEPTH)
        .collect::<Vec<_>>()
        .join(".")
}

/// Fields of a path that name a group: `output.messages[].metadata`.
pub const GROUP_DEPTH: usize = 3;

/// A vector file as `--out` writes it, fields in the order of the shipped
/// files.
#[derive(Serialize)]
struct VectorFileOut<'a> {
    #[serde(rename = "$schema", skip_serializing_if = "Option::is_none")]
    schema: Option<&'a str>,
    suite: &'a str,
    version: &'a str,
    description: String,
    #[serde(flatten)]
    header: &'a Map<String, Value>,
    notes: BTreeMap<String, Note>,
    cases: Vec<VectorCase>,
}

/// A case in the vector format, fields in the order of the shipped files.
#[derive(Serialize)]
pub struct VectorCase {
    id: String,
    description: String,
    flags: Vec<String>,
    op: String,
    input: Value,
    #[serde(flatten)]
    expectation: Expectation,
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    upstream: BTreeMap<String, Value>,
}

/// The port's answer as a vector's `upstream` entry records one: the
/// output, or `{"error": {"kind", "message"}}`; `None` when it gave none.
fn recorded_answer(answer: &Answer) -> Option<Value> {
    match answer {
        Answer::Replied(CaseOutcome::Output(output)) => Some(output.clone()),
        Answer::Replied(CaseOutcome::Error(error)) => Some(serde_json::json!({
            "error": { "kind": error.kind, "message": error.message }
        })),
        _ => None,
    }
}

/// `example` as a vector case numbered `number`, with a placeholder id
/// (`TODO-<suite>-<number>`, which the lint refuses until it is replaced by
/// a fresh `SUITE-NNNN`) and description.
pub fn vector_case(example: &Disagreement, number: usize, port_key: &str) -> VectorCase {
    let mut upstream = BTreeMap::new();
    let mut flags = Vec::new();
    if let Some(answer) = recorded_answer(&example.answer) {
        upstream.insert(port_key.to_owned(), answer);
        flags.push(UPSTREAM_DIVERGENCE.to_owned());
    }
    VectorCase {
        id: format!("TODO-{}-{number}", example.suite),
        description: "TODO: describe".into(),
        flags,
        op: example.op.clone(),
        input: example.input.clone(),
        expectation: example.expectation.clone(),
        upstream,
    }
}

/// A vector case in canonical form, as `diff` prints it.
pub fn canonical_case(case: &VectorCase) -> String {
    serde_json::to_string(case)
        .ok()
        .and_then(|text| canonical(&text).ok())
        .unwrap_or_default()
}

/// The shipped vectors, as `run` loads them.
pub fn shipped_vectors(registry: &SuiteRegistry) -> Result<VectorSet, DiffError> {
    loader::embedded(registry).map_err(|error| DiffError::Setup(error.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::ReportedError;
    use serde_json::json;

    #[test]
    fn first_difference_names_the_path() {
        let expectation = Expectation::Valid {
            expected: json!({"messages": [{"role": "user", "content": "a"}, {"role": "system", "content": "b"}]}),
        };
        let got = Answer::Replied(CaseOutcome::Output(
            json!({"messages": [{"role": "user", "content": "a"}, {"role": "system", "content": "c"}]}),
        ));
        assert_eq!(
            first_difference(&expectation, &got),
            "output.messages[1].content"
        );
        assert_eq!(
            group_field("output.messages[1].content"),
            "output.messages[].content"
        );
        assert_eq!(
            group_field("output.messages[0].metadata.A1"),
            "output.messages[].metadata"
        );
        let shorter = Answer::Replied(CaseOutcome::Output(
            json!({"messages": [{"role": "user", "content": "a"}]}),
        ));
        assert_eq!(
            first_difference(&expectation, &shorter),
            "output.messages[1]"
        );
        let error = Answer::Replied(CaseOutcome::Error(ReportedError {
            kind: "nonce_mismatch".into(),
            message: String::new(),
        }));
        assert_eq!(first_difference(&expectation, &error), "outcome");
        let invalid = Expectation::Invalid {
            expected_error: ExpectedError {
                kind: "duplicate_nonce".into(),
            },
        };
        assert_eq!(first_difference(&invalid, &error), "error.kind");
        let broken = Answer::Broken {
            reason: "crashed".into(),
        };
        assert_eq!(first_difference(&invalid, &broken), "answer");
    }

    fn disagreement_on(op: &str, input: Value) -> Disagreement {
        Disagreement {
            suite: "template".into(),
            op: op.into(),
            index: 0,
            drawn: input.clone(),
            input,
            expectation: Expectation::Valid {
                expected: json!({}),
            },
            answer: Answer::Replied(CaseOutcome::Output(json!({}))),
            reason: "differs".into(),
            field: "output.template".into(),
            minimise_tries: 0,
            known_by_input: None,
        }
    }

    fn info(name: &str, version: &str) -> ImplementationInfo {
        ImplementationInfo {
            name: name.into(),
            language: "rust".into(),
            version: version.into(),
        }
    }

    #[test]
    fn a_disagreement_on_a_known_vector_input_is_known_by_its_id() {
        let registry = SuiteRegistry::standard();
        let vectors = shipped_vectors(&registry).expect("the shipped vectors load");
        let input_of = |id: &str| {
            vectors
                .cases()
                .find(|(_, case)| case.id == id)
                .map(|(_, case)| case.input.clone())
                .expect("a shipped case")
        };
        let dir = tempfile::tempdir().expect("a temporary directory");
        let list = dir.path().join("not-yet-followed.txt");
        std::fs::write(&list, "# known\ntemplate-0001\n").expect("the list is written");
        let report = dir.path().join("report.json");
        let reported = json!({"files": [{"cases": [
            {"id": "template-0002", "op": "template", "input": input_of("template-0002"),
             "verdict": {"status": "failed", "reason": "r"}},
            {"id": "template-0010", "op": "template", "input": input_of("template-0010"),
             "verdict": {"status": "passed"}},
        ]}]});
        std::fs::write(&report, reported.to_string()).expect("the report is written");
        let mut known = KnownCases::read(&list, &vectors).expect("a case list");
        known.extend(KnownCases::read(&report, &vectors).expect("a run report"));
        let port = info("some-port", "1.0");
        let differ = Differ::new(&registry, &vectors, known, &port).expect("a differ");
        let known_id = |id: &str| differ.known_id(&disagreement_on("template", input_of(id)));
        assert_eq!(known_id("template-0001").as_deref(), Some("template-0001"));
        assert_eq!(known_id("template-0002").as_deref(), Some("template-0002"));
        assert_eq!(known_id("template-0010"), None, "it passed in the report");
        assert_eq!(
            differ.known_id(&disagreement_on(
                "template",
                json!({"message": "never a vector"})
            )),
            None
        );
        // A vector that records this port's own answer under `upstream`.
        let lean = Differ::new(
            &registry,
            &vectors,
            KnownCases::default(),
            &info("lean-ctx", "3.12.0"),
        )
        .expect("a differ");
        let recorded = vectors
            .cases()
            .find(|(_, case)| case.upstream.contains_key("lean-ctx@3.12.0"))
            .map(|(_, case)| case.clone())
            .expect("a vector records lean-ctx");
        assert_eq!(
            lean.known_id(&disagreement_on(&recorded.op, recorded.input.clone())),
            Some(recorded.id)
        );
    }

    #[test]
    fn a_vector_records_the_kind_of_its_upstream_answer_for_that_port_only() {
        let registry = SuiteRegistry::standard();
        let vectors = shipped_vectors(&registry).expect("the shipped vectors load");
        let (op, expectation, recorded, id) = vectors
            .cases()
            .find_map(|(_, case)| {
                let recorded = case.upstream.get("prompty@2.1.0")?;
                recorded_error(recorded)?;
                Some((
                    case.op.clone(),
                    case.expectation.clone(),
                    recorded.clone(),
                    case.id.clone(),
                ))
            })
            .expect("a vector records an error of prompty");
        let kind = recorded.pointer("/error/kind").and_then(Value::as_str);
        let answer = Answer::Replied(CaseOutcome::Error(ReportedError {
            kind: kind.unwrap_or_default().into(),
            message: "as prompty words it".into(),
        }));
        let mut divergence = DivergenceKind::of(&op, &expectation, &answer);
        divergence.port = Shape::Error(kind.map(str::to_owned));
        let prompty = info("prompty", "2.1.0");
        let differ =
            Differ::new(&registry, &vectors, KnownCases::default(), &prompty).expect("a differ");
        assert!(
            differ.rule(&divergence).contains(&id),
            "{id} records {divergence:?}"
        );
        let strict = differ.known_by_input_only();
        assert!(strict.rule(&divergence).is_empty());
        let other = Differ::new(
            &registry,
            &vectors,
            KnownCases::default(),
            &info("prompty", "9.9.9"),
        )
        .expect("a differ");
        assert!(
            other.rule(&divergence).is_empty(),
            "another version records nothing"
        );
    }

    #[test]
    fn recorded_answers_have_the_shapes_of_answers() {
        assert_eq!(
            recorded_error_shape(&json!({"error": {"kind": "bad_nonce"}})),
            Some(Shape::Error(Some("bad_nonce".into())))
        );
        assert_eq!(
            recorded_error_shape(&json!({"error": {}})),
            Some(Shape::Error(None))
        );
        // An output that happens to have an `error` field is an output.
        assert_eq!(
            recorded_error_shape(&json!({"error": {"kind": "x"}, "text": ""})),
            None
        );
        assert_eq!(
            Shape::of_answer(&recorded_as_answer(&json!({"messages": []}))),
            Shape::Output
        );
        let acceptable_errors = Expectation::Acceptable {
            acceptable: vec![Alternative::ExpectedError(ExpectedError {
                kind: "nonce_mismatch".into(),
            })],
        };
        assert_eq!(
            Shape::of_expectation(&acceptable_errors),
            Shape::Error(Some("nonce_mismatch".into()))
        );
    }

    #[test]
    fn input_keys_ignore_key_order() {
        let mut a = Map::new();
        a.insert("b".into(), json!(1));
        a.insert("a".into(), json!({"y": 2, "x": 3}));
        let mut b = Map::new();
        b.insert("a".into(), json!({"x": 3, "y": 2}));
        b.insert("b".into(), json!(1));
        assert_eq!(
            input_key("op", &Value::Object(a)),
            input_key("op", &Value::Object(b))
        );
    }
}
