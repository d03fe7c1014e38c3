//! The `agentfence` command line: `run` the vectors, set run reports side by
//! side in a `matrix`, serve the reference as a `port`, `template` messages
//! by hand or as JSON lines, `chat`: split prompt text into role messages, or
//! `web`: strip, wrap and fetch pages, or `diff` a port against the
//! reference on generated cases.
//!
//! Exit status: 0 success, 1 a failing case or a bad input line, 2 a usage
//! or load error (clap uses 2 for its own usage errors too).

pub mod chat;
pub mod diff;
pub mod matrix;
mod progress;
mod run;
pub mod template;
pub mod vectors;
pub mod web;

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use clap::{Args, Parser, Subcommand};

use crate::suites::SuiteRegistry;

pub use run::run_command;

/// A case failed, or an input line was bad.
pub const EXIT_FAILURE: u8 = 1;
/// The command line or a vector file is wrong.
pub const EXIT_USAGE: u8 = 2;

#[derive(Debug, Parser)]
#[command(
    name = "agentfence",
    version,
    about = "Conformance vectors and reference for agentfence's text trust boundaries"
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: CliCommand,
}

#[derive(Debug, Subcommand)]
pub enum CliCommand {
    /// Run the conformance vectors against the reference or a port.
    Run(RunArgs),
    /// Set the JSON reports of several runs side by side: implementations ×
    /// vector files with pass, fail and skip counts, and each
    /// implementation's failing cases, as Markdown and HTML.
    Matrix(matrix::MatrixArgs),
    /// Serve the embedded reference over protocol v1 on stdin/stdout.
    Port,
    /// Template an error message: prints {"kind", "template"} as JSON.
    Template(TemplateArgs),
    /// Split prompt text into role messages, strictly or not (stdin in, JSON out).
    Chat(chat::ChatArgs),
    /// Strip injection markers, wrap a body in its envelope, or fetch and
    /// sanitize a page.
    Web(web::WebArgs),
    /// Rewrite vector files in canonical form (fmt), or verify it (check).
    Vectors(vectors::VectorsArgs),
    /// Send a port generated cases, compare its answers with the
    /// reference's, and print each disagreement minimised as a vector.
    Diff(diff::DiffArgs),
}

#[derive(Debug, Args)]
pub struct RunArgs {
    /// More vector files: a file, or a directory of *.json files. A file
    /// named like an embedded one replaces it. Repeatable.
    #[arg(long = "vectors", value_name = "PATH")]
    pub vectors: Vec<PathBuf>,
    /// Run against this port command (through `sh -c`) instead of the
    /// embedded reference.
    #[arg(long, value_name = "CMD")]
    pub port: Option<String>,
    /// Only the vector files of this suite.
    #[arg(long, value_name = "NAME")]
    pub suite: Option<String>,
    /// Only cases whose id matches this glob (`*`, `?`). Repeatable: a
    /// case matching any of them runs.
    #[arg(long = "id", value_name = "GLOB")]
    pub ids: Vec<String>,
    /// Skip the cases listed in FILE: one id or glob per line, `#`
    /// comments. A line matching no case is an error. Repeatable.
    #[arg(long = "skip", value_name = "FILE")]
    pub skip: Vec<PathBuf>,
    /// Run the cases listed in FILE (same format as --skip) and expect them
    /// to fail: a failure is an expected failure, a pass fails the run.
    /// Repeatable.
    #[arg(long = "xfail", value_name = "FILE")]
    pub xfail: Vec<PathBuf>,
    /// Skip, without sending them, the cases carrying FLAG (a flag of a
    /// vector file's notes): for a port that cannot take the input the flag
    /// names, such as a nonce from outside (`invalid-nonce`). Repeatable.
    #[arg(long = "skip-flag", value_name = "FLAG")]
    pub skip_flags: Vec<String>,
    /// The port follows the policy FLAG names (a flag whose note has a
    /// `policy`): the acceptable answers of the cases carrying it after the
    /// first, the suite's own choice, pass too. Repeatable.
    #[arg(long = "follow-flag", value_name = "FLAG")]
    pub follow_flags: Vec<String>,
    /// Also write the report as JSON to FILE.
    #[arg(long, value_name = "FILE")]
    pub report: Option<PathBuf>,
    /// Also write the report as JUnit XML to FILE.
    #[arg(long, value_name = "FILE")]
    pub junit: Option<PathBuf>,
    /// Seconds a port may take to answer one case.
    #[arg(long, value_name = "SECS", default_value = "5", value_parser = parse_timeout)]
    pub timeout: Duration,
}

#[derive(Debug, Args)]
#[command(group(clap::ArgGroup::new("input").required(true).args(["message", "jsonl"])))]
pub struct TemplateArgs {
    /// The error message.
    pub message: Option<String>,
    /// Read one JSON string per line on stdin, write one JSON object per line.
    #[arg(long)]
    pub jsonl: bool,
}

fn parse_timeout(text: &str) -> Result<Duration, String> {
    let seconds: f64 = text
        .parse()
        .map_err(|_| format!("{text:?} is not a number of seconds"))?;
    Duration::try_from_secs_f64(seconds)
        .ok()
        .filter(|timeout| !timeout.is_zero())
        .ok_or_else(|| format!("{text:?} is not a positive number of seconds"))
}

/// Runs the command line of this process.
pub fn main() -> ExitCode {
    let cli = Cli::parse();
    let registry = SuiteRegistry::standard();
    match cli.command {
        CliCommand::Run(args) => run_command(&args, &registry),
        CliCommand::Matrix(args) => matrix::matrix_command(&args),
        CliCommand::Port => {
            let stdin = std::io::stdin().lock();
            let stdout = std::io::stdout().lock();
            match crate::port_server::serve(&registry, stdin, stdout, std::io::stderr()) {
                Ok(()) => ExitCode::SUCCESS,
                Err(error) => {
                    eprintln!("agentfence port: {error}");
                    ExitCode::from(EXIT_FAILURE)
                }
            }
        }
        CliCommand::Template(args) => template::template_command(&args),
        CliCommand::Chat(args) => chat::chat_command(&args),
        CliCommand::Web(args) => web::web_command(&args),
        CliCommand::Vectors(args) => vectors::vectors_command(&args),
        CliCommand::Diff(args) => diff::diff_command(&args, &registry),
    }
}

/// The JSON type of a value, as an error message names it.
fn json_type(value: &serde_json::Value) -> &'static str {
    use serde_json::Value;
    match value {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

/// Input a command cannot use at all: reported on stderr, exit 2.
struct BadInput(String);

/// The whole of stdin as UTF-8, or a [`BadInput`] naming what was wrong.
fn read_stdin() -> Result<String, BadInput> {
    let mut bytes = Vec::new();
    std::io::Read::read_to_end(&mut std::io::stdin().lock(), &mut bytes)
        .map_err(|error| BadInput(format!("cannot read stdin: {error}")))?;
    String::from_utf8(bytes).map_err(|error| {
        BadInput(format!(
            "stdin is not UTF-8 (invalid byte at offset {})",
            error.utf8_error().valid_up_to()
        ))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn timeout_takes_fractions_and_rejects_zero() {
        assert_eq!(parse_timeout("0.5"), Ok(Duration::from_millis(500)));
        assert!(parse_timeout("0").is_err());
        assert!(parse_timeout("-1").is_err());
        assert!(parse_timeout("soon").is_err());
    }

    #[test]
    fn cli_definition_is_consistent() {
        use clap::CommandFactory;
        Cli::command().debug_assert();
    }
}
