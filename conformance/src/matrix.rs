//! `agentfence matrix`: several run reports side by side.
//!
//! Reads the JSON reports that `agentfence run --report` writes (one per
//! implementation: its name, the suite version of each vector file, every
//! case's verdict) and lays them out as a [`Matrix`] of implementations ×
//! vector files with pass, fail and skip counts, followed by the cases each
//! implementation failed, by vector id with the vector's description.
//! [`write_markdown`] writes it as Markdown tables, [`write_html`] as one
//! self-contained HTML page (inline CSS, no script, nothing fetched).

use std::io::{self, Write};
use std::path::Path;

use serde::Deserialize;
use serde_json::Value;

use crate::report::{JSON_REPORT_FORMAT, Tally, xml_escape};

/// What the matrix reads of a report file; other keys are ignored.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct ReportSummary {
    pub implementation: ReportedImplementation,
    pub files: Vec<ReportedFile>,
}

/// The implementation a report ran, as its hello named it.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct ReportedImplementation {
    pub name: String,
    pub language: String,
    pub version: String,
}

impl ReportedImplementation {
    /// `name version (language)`.
    pub fn title(&self) -> String {
        format!("{} {} ({})", self.name, self.version, self.language)
    }
}

/// One vector file of a report.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct ReportedFile {
    pub suite: String,
    pub version: String,
    pub source: String,
    pub cases: Vec<ReportedCase>,
}

/// One case of a report: its id, what it pins, and the verdict.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct ReportedCase {
    pub id: String,
    #[serde(default)]
    pub description: String,
    #[serde(default)]
    pub flags: Vec<String>,
    pub verdict: ReportedVerdict,
}

#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct ReportedVerdict {
    pub status: Status,
    #[serde(default)]
    pub reason: String,
}

/// A verdict's `status`, as [`crate::outcome::Verdict`] writes it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    Passed,
    Failed,
    Errored,
    Skipped,
    ExpectedFailure,
}

impl Status {
    fn word(self) -> &'static str {
        match self {
            Status::Passed => "passed",
            Status::Failed => "failed",
            Status::Errored => "errored",
            Status::Skipped => "skipped",
            Status::ExpectedFailure => "expected failure",
        }
    }
}

/// Reads a report file written by `agentfence run --report`.
pub fn read_report(path: &Path) -> Result<ReportSummary, String> {
    let text = std::fs::read_to_string(path).map_err(|error| error.to_string())?;
    parse_report(&text)
}

/// Parses a report: its `format` must be [`JSON_REPORT_FORMAT`].
pub fn parse_report(text: &str) -> Result<ReportSummary, String> {
    let value: Value = serde_json::from_str(text).map_err(|error| format!("not JSON: {error}"))?;
    match value.get("format") {
        Some(Value::String(format)) if format == JSON_REPORT_FORMAT => {}
        Some(Value::String(format)) => {
            return Err(format!(
                "report format {format:?}, expected {JSON_REPORT_FORMAT:?}"
            ));
        }
        _ => {
            return Err(format!(
                "not an agentfence run report (no \"format\": {JSON_REPORT_FORMAT:?}); \
                 write one with `agentfence run --report FILE.json`"
            ));
        }
    }
    serde_path_to_error::deserialize(value).map_err(|error| {
        format!(
            "not a well-formed run report at {}: {}",
            error.path(),
            error.inner()
        )
    })
}

/// A column of the matrix: one vector file, named by its suite and file
/// name (a file replaced with `--vectors` keeps its embedded one's column).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Column {
    pub suite: String,
    pub file: String,
    /// The suite versions the reports ran, in the order first seen.
    pub versions: Vec<String>,
    /// Whether another column has the same suite, so the header names the
    /// file.
    pub shares_suite: bool,
}

impl Column {
    /// `suite version`, with `(file)` when the suite has several files.
    pub fn label(&self) -> String {
        let mut label = format!("{} {}", self.suite, self.versions.join("/"));
        if self.shares_suite {
            label.push_str(&format!(" ({})", self.file));
        }
        label
    }
}

/// One implementation's counts in one column.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Cell {
    pub version: String,
    pub tally: Tally,
}

/// A case an implementation failed, errored on or was expected to fail.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    pub id: String,
    /// Index into [`Matrix::columns`].
    pub column: usize,
    pub status: Status,
    pub reason: String,
    pub description: String,
    /// The case is flagged `upstream-divergence`: the reference answers it
    /// differently from the upstream project on purpose.
    pub upstream_divergence: bool,
}

/// One implementation (one report).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Row {
    pub implementation: ReportedImplementation,
    /// One per column; `None` when the report has no file of that column.
    pub cells: Vec<Option<Cell>>,
    pub total: Tally,
    /// In report order.
    pub problems: Vec<Problem>,
}

/// Implementations × vector files.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Matrix {
    pub columns: Vec<Column>,
    pub rows: Vec<Row>,
}

/// The file name of a report's `source` (`embedded vectors/chat.json` or a
/// path).
fn file_name(source: &str) -> &str {
    source
        .rsplit(['/', '\\'])
        .next()
        .unwrap_or(source)
        .trim_start_matches("embedded ")
}

fn add(tally: &mut Tally, status: Status) {
    match status {
        Status::Passed => tally.passed += 1,
        Status::Failed | Status::Errored => tally.failed += 1,
        Status::Skipped => tally.skipped += 1,
        Status::ExpectedFailure => tally.expected_failures += 1,
    }
}

fn sum(into: &mut Tally, tally: &Tally) {
    into.passed += tally.passed;
    into.failed += tally.failed;
    into.skipped += tally.skipped;
    into.expected_failures += tally.expected_failures;
}

impl Matrix {
    /// Lays the reports out, one row each in the order given; columns in
    /// the order their files are first seen.
    pub fn new(reports: &[ReportSummary]) -> Matrix {
        let mut columns: Vec<Column> = Vec::new();
        let mut rows = Vec::new();
        for report in reports {
            let mut row = Row {
                implementation: report.implementation.clone(),
                cells: Vec::new(),
                total: Tally::default(),
                problems: Vec::new(),
            };
            for file in &report.files {
                let name = file_name(&file.source);
                let column = match columns
                    .iter()
                    .position(|column| column.suite == file.suite && column.file == name)
                {
                    Some(index) => index,
                    None => {
                        columns.push(Column {
                            suite: file.suite.clone(),
                            file: name.to_owned(),
                            versions: Vec::new(),
                            shares_suite: false,
                        });
                        columns.len() - 1
                    }
                };
                if !columns[column].versions.contains(&file.version) {
                    columns[column].versions.push(file.version.clone());
                }
                if row.cells.len() <= column {
                    row.cells.resize(column + 1, None);
                }
                let cell = row.cells[column].get_or_insert_with(|| Cell {
                    version: file.version.clone(),
                    tally: Tally::default(),
                });
                for case in &file.cases {
                    let status = case.verdict.status;
                    add(&mut cell.tally, status);
                    add(&mut row.total, status);
                    if matches!(
                        status,
                        Status::Failed | Status::Errored | Status::ExpectedFailure
                    ) {
                        row.problems.push(Problem {
                            id: case.id.clone(),
                            column,
                            status,
                            reason: case.verdict.reason.clone(),
                            description: case.description.clone(),
                            upstream_divergence: case
                                .flags
                                .iter()
                                .any(|flag| flag == "upstream-divergence"),
                        });
                    }
                }
            }
            rows.push(row);
        }
        for row in &mut rows {
            row.cells.resize(columns.len(), None);
        }
        let suites: Vec<String> = columns.iter().map(|column| column.suite.clone()).collect();
        for column in &mut columns {
            column.shares_suite = suites
                .iter()
                .filter(|&suite| *suite == column.suite)
                .count()
                > 1;
        }
        Matrix { columns, rows }
    }

    /// The counts of a whole column, over every implementation.
    pub fn column_total(&self, column: usize) -> Tally {
        let mut total = Tally::default();
        for cell in self
            .rows
            .iter()
            .filter_map(|row| row.cells[column].as_ref())
        {
            sum(&mut total, &cell.tally);
        }
        total
    }
}

/// What a cell says: `N passed, N failed` with the skipped and expected
/// failures when there are some, `not run (N skipped)` when nothing was
/// answered, `—` when the report has no such file. A version other than the
/// column's only one is named.
fn cell_text(column: &Column, cell: Option<&Cell>) -> String {
    let Some(cell) = cell else {
        return "—".to_owned();
    };
    let tally = &cell.tally;
    let mut text = if tally.passed + tally.failed + tally.expected_failures == 0 {
        format!("not run ({} skipped)", tally.skipped)
    } else {
        tally.closing_line()
    };
    if column.versions.len() > 1 {
        text.push_str(&format!(" [version {}]", cell.version));
    }
    text
}

/// The state a cell is in, for its colour.
fn cell_class(cell: Option<&Cell>) -> &'static str {
    match cell.map(|cell| &cell.tally) {
        None => "absent",
        Some(tally) if tally.failed > 0 => "fail",
        Some(tally) if tally.passed + tally.expected_failures == 0 => "absent",
        Some(tally) if tally.expected_failures > 0 || tally.skipped > 0 => "partial",
        Some(_) => "pass",
    }
}

/// The verdict of a listed case, in words.
fn problem_verdict(problem: &Problem) -> String {
    let mut verdict = problem.status.word().to_owned();
    if problem.upstream_divergence {
        verdict.push_str(" (upstream divergence)");
    }
    verdict
}

/// The heading line under a section: how many cases are listed.
fn problem_summary(row: &Row) -> String {
    let failed = row
        .problems
        .iter()
        .filter(|problem| problem.status != Status::ExpectedFailure)
        .count();
    let expected = row.problems.len() - failed;
    let mut summary = match failed {
        0 => "No case failed".to_owned(),
        1 => "1 case failed".to_owned(),
        n => format!("{n} cases failed"),
    };
    match expected {
        0 => {}
        1 => summary.push_str(", 1 expected failure"),
        n => summary.push_str(&format!(", {n} expected failures")),
    }
    summary.push_str(&format!(
        " ({} passed, {} skipped).",
        row.total.passed, row.total.skipped
    ));
    summary
}

const LEGEND: &str = "Each cell counts one implementation's cases in one vector file: \
passed, failed (errored cases, where the implementation gave no usable answer, count as \
failed), skipped (not sent, because the implementation does not list the operation or a \
--skip list names the case, or answered skipped) and expected failures (--xfail). \
Cases flagged upstream-divergence are those where the reference answers differently \
from the upstream project on purpose.";

/// Escapes text for a Markdown table cell: one line, no `|` or markup
/// character left active, `<`, `>` and `&` as references.
pub fn markdown_escape(text: &str) -> String {
    let mut escaped = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => escaped.push_str("&amp;"),
            '<' => escaped.push_str("&lt;"),
            '>' => escaped.push_str("&gt;"),
            '\\' | '`' | '*' | '_' | '[' | ']' | '|' | '#' | '~' | '!' | '$' => {
                escaped.push('\\');
                escaped.push(c);
            }
            '\n' | '\r' | '\t' => escaped.push(' '),
            c if c.is_control() => escaped.push_str(&format!("\\\\u{{{:x}}}", u32::from(c))),
            c => escaped.push(c),
        }
    }
    escaped
}

/// Writes the matrix as Markdown: a title, the matrix table with a legend,
/// then per implementation a section with its failing cases in a table.
pub fn write_markdown(matrix: &Matrix, out: &mut dyn Write) -> io::Result<()> {
    writeln!(out, "# Conformance matrix")?;
    writeln!(out)?;
    write_markdown_table(matrix, out)?;
    writeln!(out)?;
    writeln!(out, "{LEGEND}")?;
    for row in &matrix.rows {
        writeln!(out)?;
        writeln!(out, "## {}", markdown_escape(&row.implementation.title()))?;
        writeln!(out)?;
        writeln!(out, "{}", problem_summary(row))?;
        if row.problems.is_empty() {
            continue;
        }
        writeln!(out)?;
        writeln!(out, "| id | vector file | verdict | reason | description |")?;
        writeln!(out, "| --- | --- | --- | --- | --- |")?;
        for problem in &row.problems {
            let column = &matrix.columns[problem.column];
            writeln!(
                out,
                "| {} | {} | {} | {} | {} |",
                markdown_escape(&problem.id),
                markdown_escape(&column.label()),
                markdown_escape(&problem_verdict(problem)),
                markdown_escape(&problem.reason),
                markdown_escape(&problem.description),
            )?;
        }
    }
    Ok(())
}

/// Writes only the matrix table (implementations × vector files, and a
/// total column), for embedding in another document.
pub fn write_markdown_table(matrix: &Matrix, out: &mut dyn Write) -> io::Result<()> {
    let mut header = String::from("| implementation |");
    let mut rule = String::from("| --- |");
    for column in &matrix.columns {
        header.push_str(&format!(" {} |", markdown_escape(&column.label())));
        rule.push_str(" --- |");
    }
    header.push_str(" all files |");
    rule.push_str(" --- |");
    writeln!(out, "{header}")?;
    writeln!(out, "{rule}")?;
    for row in &matrix.rows {
        let mut line = format!("| {} |", markdown_escape(&row.implementation.title()));
        for (column, cell) in matrix.columns.iter().zip(&row.cells) {
            line.push_str(&format!(
                " {} |",
                markdown_escape(&cell_text(column, cell.as_ref()))
            ));
        }
        line.push_str(&format!(" {} |", row.total.closing_line()));
        writeln!(out, "{line}")?;
    }
    Ok(())
}

/// Escapes text for HTML element content or a double-quoted attribute.
pub fn html_escape(text: &str) -> String {
    xml_escape(text)
}

const STYLE: &str = "
body { font-family: system-ui, -apple-system, 'Segoe UI', sans-serif; margin: 2rem; color: #1b1f24; background: #fff; line-height: 1.4; }
h1 { font-size: 1.6rem; margin-bottom: 0.3rem; }
h2 { font-size: 1.2rem; margin-top: 2.2rem; border-bottom: 1px solid #d0d7de; padding-bottom: 0.2rem; }
p.legend { color: #57606a; font-size: 0.9rem; max-width: 60rem; }
table { border-collapse: collapse; margin: 0.8rem 0; font-size: 0.9rem; }
th, td { border: 1px solid #d0d7de; padding: 0.35rem 0.6rem; vertical-align: top; text-align: left; }
th { background: #f6f8fa; }
table.matrix td { min-width: 9rem; }
td.pass { background: #dafbe1; }
td.fail { background: #ffebe9; }
td.partial { background: #fff8c5; }
td.absent { background: #f6f8fa; color: #8c959f; }
.count { font-weight: 600; font-variant-numeric: tabular-nums; }
.detail { color: #57606a; font-size: 0.85rem; }
.bar { height: 0.35rem; background: #ffcecb; margin-top: 0.3rem; border-radius: 0.2rem; overflow: hidden; }
.bar span { display: block; height: 100%; background: #2da44e; }
table.cases td.id { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; white-space: nowrap; }
table.cases td.verdict { white-space: nowrap; }
tr.errored td.verdict { color: #cf222e; font-weight: 600; }
tr.expected_failure td.verdict { color: #9a6700; }
";

/// Writes the matrix as one self-contained HTML page: a section with the
/// matrix table, then a section per implementation with its failing cases
/// in one table (none when nothing failed).
pub fn write_html(matrix: &Matrix, out: &mut dyn Write) -> io::Result<()> {
    writeln!(out, "<!DOCTYPE html>")?;
    writeln!(out, "<html lang=\"en\">")?;
    writeln!(out, "<head>")?;
    writeln!(out, "<meta charset=\"utf-8\">")?;
    writeln!(
        out,
        "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
    )?;
    writeln!(out, "<title>Conformance matrix</title>")?;
    writeln!(out, "<style>{STYLE}</style>")?;
    writeln!(out, "</head>")?;
    writeln!(out, "<body>")?;
    writeln!(out, "<h1>Conformance matrix</h1>")?;

    writeln!(out, "<section id=\"matrix\">")?;
    writeln!(out, "<h2>Implementations × vector files</h2>")?;
    writeln!(out, "<table class=\"matrix\">")?;
    write!(out, "<thead><tr><th>implementation</th>")?;
    for column in &matrix.columns {
        write!(out, "<th>{}</th>", html_escape(&column.label()))?;
    }
    writeln!(out, "<th>all files</th></tr></thead>")?;
    writeln!(out, "<tbody>")?;
    for (index, row) in matrix.rows.iter().enumerate() {
        write!(
            out,
            "<tr><th><a href=\"#impl-{}\">{}</a></th>",
            index + 1,
            html_escape(&row.implementation.title())
        )?;
        for (column, cell) in matrix.columns.iter().zip(&row.cells) {
            write_html_cell(out, column, cell.as_ref())?;
        }
        let total = Cell {
            version: String::new(),
            tally: row.total,
        };
        let whole = Column {
            suite: String::new(),
            file: String::new(),
            versions: Vec::new(),
            shares_suite: false,
        };
        write_html_cell(out, &whole, Some(&total))?;
        writeln!(out, "</tr>")?;
    }
    writeln!(out, "</tbody>")?;
    writeln!(out, "</table>")?;
    writeln!(out, "<p class=\"legend\">{}</p>", html_escape(LEGEND))?;
    writeln!(out, "</section>")?;

    for (index, row) in matrix.rows.iter().enumerate() {
        writeln!(out, "<section id=\"impl-{}\">", index + 1)?;
        writeln!(out, "<h2>{}</h2>", html_escape(&row.implementation.title()))?;
        writeln!(out, "<p>{}</p>", html_escape(&problem_summary(row)))?;
        if !row.problems.is_empty() {
            writeln!(out, "<table class=\"cases\">")?;
            writeln!(
                out,
                "<thead><tr><th>id</th><th>vector file</th><th>verdict</th><th>reason</th><th>description</th></tr></thead>"
            )?;
            writeln!(out, "<tbody>")?;
            for problem in &row.problems {
                let status = match problem.status {
                    Status::Errored => "errored",
                    Status::ExpectedFailure => "expected_failure",
                    _ => "failed",
                };
                writeln!(
                    out,
                    "<tr class=\"{status}\"><td class=\"id\">{}</td><td>{}</td><td class=\"verdict\">{}</td><td>{}</td><td>{}</td></tr>",
                    html_escape(&problem.id),
                    html_escape(&matrix.columns[problem.column].label()),
                    html_escape(&problem_verdict(problem)),
                    html_escape(&problem.reason),
                    html_escape(&problem.description),
                )?;
            }
            writeln!(out, "</tbody>")?;
            writeln!(out, "</table>")?;
        }
        writeln!(out, "</section>")?;
    }
    writeln!(out, "</body>")?;
    writeln!(out, "</html>")
}

/// One `<td>`: the cell's text, coloured by its state, with a bar of the
/// share of answered cases that passed.
fn write_html_cell(out: &mut dyn Write, column: &Column, cell: Option<&Cell>) -> io::Result<()> {
    let class = cell_class(cell);
    let answered = cell.map_or(0, |cell| {
        cell.tally.passed + cell.tally.failed + cell.tally.expected_failures
    });
    match cell {
        Some(cell) if answered > 0 => {
            let tally = &cell.tally;
            let percent = tally.passed * 100 / answered;
            let mut detail: Vec<String> = [
                (tally.failed, "failed"),
                (tally.skipped, "skipped"),
                (tally.expected_failures, "expected failures"),
            ]
            .into_iter()
            .filter(|&(count, _)| count > 0)
            .map(|(count, what)| format!("{count} {what}"))
            .collect();
            if column.versions.len() > 1 {
                detail.push(format!("version {}", cell.version));
            }
            let detail = if detail.is_empty() {
                "all passed".to_owned()
            } else {
                detail.join(", ")
            };
            write!(
                out,
                "<td class=\"{class}\"><span class=\"count\">{}/{answered}</span> passed\
                 <div class=\"detail\">{}</div>\
                 <div class=\"bar\"><span style=\"width:{percent}%\"></span></div></td>",
                tally.passed,
                html_escape(&detail)
            )
        }
        _ => write!(
            out,
            "<td class=\"{class}\">{}</td>",
            html_escape(&cell_text(column, cell))
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn report(name: &str, files: Value) -> ReportSummary {
        parse_report(
            &json!({
                "format": JSON_REPORT_FORMAT,
                "implementation": {"name": name, "language": "rust", "version": "1"},
                "files": files,
            })
            .to_string(),
        )
        .expect("a well-formed report")
    }

    fn case(id: &str, status: &str) -> Value {
        json!({"id": id, "description": format!("pins {id}"), "flags": [],
               "verdict": {"status": status, "reason": "r"}})
    }

    fn file(suite: &str, source: &str, cases: Vec<Value>) -> Value {
        json!({"suite": suite, "version": "1.0.0", "source": source, "cases": cases})
    }

    #[test]
    fn reports_without_the_format_are_refused() {
        assert!(
            parse_report("{}")
                .unwrap_err()
                .contains("agentfence run --report")
        );
        assert!(
            parse_report(r#"{"format": "other/1"}"#)
                .unwrap_err()
                .contains("other/1")
        );
        let missing = parse_report(&json!({"format": JSON_REPORT_FORMAT}).to_string());
        assert!(missing.unwrap_err().contains("implementation"));
    }

    #[test]
    fn columns_are_files_and_share_a_suite_label() {
        let a = report(
            "a",
            json!([
                file(
                    "chat",
                    "embedded vectors/chat.json",
                    vec![case("chat-0001", "passed")]
                ),
                file(
                    "web",
                    "embedded vectors/strip.json",
                    vec![case("web-1001", "failed")]
                ),
                file(
                    "web",
                    "/tmp/x/fetch.json",
                    vec![case("web-3001", "skipped")]
                ),
            ]),
        );
        let b = report(
            "b",
            json!([file(
                "web",
                "embedded vectors/strip.json",
                vec![case("web-1001", "passed")]
            )]),
        );
        let matrix = Matrix::new(&[a, b]);
        let labels: Vec<String> = matrix.columns.iter().map(Column::label).collect();
        assert_eq!(
            labels,
            [
                "chat 1.0.0",
                "web 1.0.0 (strip.json)",
                "web 1.0.0 (fetch.json)"
            ]
        );
        assert_eq!(matrix.rows[1].cells[0], None);
        assert_eq!(
            matrix.rows[0].total.closing_line(),
            "1 passed, 1 failed, 1 skipped"
        );
        assert_eq!(
            cell_text(&matrix.columns[2], matrix.rows[0].cells[2].as_ref()),
            "not run (1 skipped)"
        );
        assert_eq!(cell_text(&matrix.columns[0], None), "—");
        assert_eq!(matrix.rows[0].problems.len(), 1);
        assert_eq!(matrix.rows[0].problems[0].id, "web-1001");
        assert_eq!(matrix.column_total(1).passed, 1);
    }

    #[test]
    fn errored_and_expected_failures_are_listed() {
        let a = report(
            "a",
            json!([file(
                "template",
                "embedded vectors/template.json",
                vec![
                    case("template-0001", "errored"),
                    case("template-0002", "expected_failure"),
                    case("template-0003", "passed"),
                ]
            )]),
        );
        let matrix = Matrix::new(&[a]);
        let row = &matrix.rows[0];
        assert_eq!(row.problems.len(), 2);
        assert_eq!(
            problem_summary(row),
            "1 case failed, 1 expected failure (1 passed, 0 skipped)."
        );
    }

    #[test]
    fn markdown_escape_keeps_a_cell_one_inert_line() {
        assert_eq!(
            markdown_escape("a|b <t> & *c*\n`d` [e]"),
            r"a\|b &lt;t&gt; &amp; \*c\* \`d\` \[e\]"
        );
    }
}
