//! `agentfence chat`: the chat role-marker reference by hand. Each
//! subcommand reads its text on stdin and prints one JSON line on stdout,
//! in the shape of the chat suite's outputs.
//!
//! Exit status: 0 with the output, 1 with `{"error": {"kind", "message"}}`
//! on stdout when the reference refuses the text, 2 with a message on
//! stderr when the input itself is unusable (stdin not UTF-8, a bad
//! `--vars` file) or the command line is wrong.

use std::collections::BTreeMap;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Args, Subcommand};
use serde_json::{Value, json};

use super::{BadInput, EXIT_FAILURE, EXIT_USAGE, json_type, read_stdin};
use crate::suites::chat::{messages_json, pre_render_json};
use agentfence::chat::{self, ChatError, Context};

#[derive(Debug, Args)]
pub struct ChatArgs {
    #[command(subcommand)]
    pub command: ChatCommand,
}

#[derive(Debug, Subcommand)]
pub enum ChatCommand {
    /// Split rendered text (stdin) into messages: non-strict, or strict
    /// with both --nonce and --markers. Prints {"messages": [...]}.
    Parse(ParseArgs),
    /// Put a nonce into every role marker of a template (stdin). Prints
    /// {"prepared": ..., "context": {"nonce", "markers"}}.
    PreRender(PreRenderArgs),
    /// Pre-render a template (stdin), fill its {{name}} placeholders from
    /// --vars and parse the result strictly. Prints {"messages": [...]}.
    Render(RenderArgs),
}

#[derive(Debug, Args)]
pub struct ParseArgs {
    /// The nonce pre-render put into the markers (strict mode).
    #[arg(
        long,
        value_name = "N",
        requires = "markers",
        allow_hyphen_values = true
    )]
    pub nonce: Option<String>,
    /// How many markers the template had (strict mode).
    #[arg(long, value_name = "K", requires = "nonce")]
    pub markers: Option<usize>,
}

#[derive(Debug, Args)]
pub struct PreRenderArgs {
    /// The nonce to write; a fresh random one by default.
    #[arg(long, value_name = "N", allow_hyphen_values = true)]
    pub nonce: Option<String>,
}

#[derive(Debug, Args)]
pub struct RenderArgs {
    /// A JSON object of string values, one per placeholder name.
    #[arg(long, value_name = "FILE")]
    pub vars: PathBuf,
    /// The nonce to pre-render with; a fresh random one by default.
    #[arg(
        long,
        value_name = "N",
        conflicts_with = "non_strict",
        allow_hyphen_values = true
    )]
    pub nonce: Option<String>,
    /// Render the template as it is and parse without the nonce check.
    #[arg(long)]
    pub non_strict: bool,
}

pub fn chat_command(args: &ChatArgs) -> ExitCode {
    let (name, result) = match &args.command {
        ChatCommand::Parse(args) => ("parse", parse_command(args)),
        ChatCommand::PreRender(args) => ("pre-render", pre_render_command(args)),
        ChatCommand::Render(args) => ("render", render_command(args)),
    };
    let (reply, code) = match result {
        Ok(Ok(output)) => (output, ExitCode::SUCCESS),
        Ok(Err(error)) => (error_json(&error), ExitCode::from(EXIT_FAILURE)),
        Err(BadInput(message)) => {
            eprintln!("agentfence chat {name}: {message}");
            return ExitCode::from(EXIT_USAGE);
        }
    };
    let mut stdout = io::stdout().lock();
    match writeln!(stdout, "{reply}").and_then(|()| stdout.flush()) {
        Ok(()) => code,
        Err(error) => {
            eprintln!("agentfence chat {name}: cannot write the output: {error}");
            ExitCode::from(EXIT_FAILURE)
        }
    }
}

/// What a command answers: an output, or the reference's refusal.
type Answer = Result<Result<Value, ChatError>, BadInput>;

fn parse_command(args: &ParseArgs) -> Answer {
    let rendered = read_stdin()?;
    // clap's `requires` gives both flags or neither.
    let context = match (&args.nonce, args.markers) {
        (Some(nonce), Some(markers)) => Some(Context {
            nonce: nonce.clone(),
            markers,
        }),
        _ => None,
    };
    Ok(chat::parse(&rendered, context.as_ref()).map(|messages| messages_json(&messages)))
}

fn pre_render_command(args: &PreRenderArgs) -> Answer {
    let template = read_stdin()?;
    let prepared = match &args.nonce {
        Some(nonce) => chat::pre_render_with_nonce(&template, nonce),
        None => chat::pre_render(&template),
    };
    Ok(prepared.map(|(prepared, context)| pre_render_json(&prepared, &context)))
}

fn render_command(args: &RenderArgs) -> Answer {
    let values = read_vars(&args.vars)?;
    let template = read_stdin()?;
    // The messages borrow from the rendered text: they become JSON while it
    // lives.
    let answer = if args.non_strict {
        chat::render(&template, &values).and_then(|rendered| {
            chat::parse(&rendered, None).map(|messages| messages_json(&messages))
        })
    } else {
        let prepared = match &args.nonce {
            Some(nonce) => chat::pre_render_with_nonce(&template, nonce),
            None => chat::pre_render(&template),
        };
        prepared.and_then(|(prepared, context)| {
            let rendered = chat::render(&prepared, &values)?;
            chat::parse(&rendered, Some(&context)).map(|messages| messages_json(&messages))
        })
    };
    Ok(answer)
}

fn error_json(error: &ChatError) -> Value {
    json!({ "error": { "kind": error.kind(), "message": error.to_string() } })
}

/// The `--vars` file: a JSON object whose values are all strings.
fn read_vars(path: &Path) -> Result<BTreeMap<String, String>, BadInput> {
    let file = path.display();
    let bytes = std::fs::read(path)
        .map_err(|error| BadInput(format!("cannot read the vars file {file}: {error}")))?;
    let text = std::str::from_utf8(&bytes).map_err(|error| {
        BadInput(format!(
            "the vars file {file} is not UTF-8 (invalid byte at offset {})",
            error.valid_up_to()
        ))
    })?;
    let value: Value = serde_json::from_str(text)
        .map_err(|error| BadInput(format!("the vars file {file} is not JSON: {error}")))?;
    let Value::Object(object) = value else {
        return Err(BadInput(format!(
            "the vars file {file} holds a JSON {} where an object of strings was expected",
            json_type(&value)
        )));
    };
    let mut values = BTreeMap::new();
    for (key, value) in object {
        match value {
            Value::String(text) => {
                values.insert(key, text);
            }
            other => {
                return Err(BadInput(format!(
                    "the vars file {file}: the value of {key:?} is a JSON {}, not a string",
                    json_type(&other)
                )));
            }
        }
    }
    Ok(values)
}
