//! `agentfence matrix`: run reports side by side, as Markdown and HTML.

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::Args;

use super::EXIT_USAGE;
use crate::matrix::{Matrix, read_report, write_html, write_markdown};

#[derive(Debug, Args)]
pub struct MatrixArgs {
    /// Reports written by `agentfence run --report FILE.json`, one row each
    /// in this order.
    #[arg(value_name = "REPORT.json", required = true)]
    pub reports: Vec<PathBuf>,
    /// Write the matrix as Markdown to this file.
    #[arg(long, value_name = "OUT.md")]
    pub markdown: Option<PathBuf>,
    /// Write the matrix as one self-contained HTML page to this file.
    #[arg(long, value_name = "OUT.html")]
    pub html: Option<PathBuf>,
}

/// Reads every report and writes the requested files; with neither
/// `--markdown` nor `--html`, the Markdown goes to stdout. A report that
/// cannot be read, or a file that cannot be written, is exit status 2.
pub fn matrix_command(args: &MatrixArgs) -> ExitCode {
    let mut reports = Vec::with_capacity(args.reports.len());
    for path in &args.reports {
        match read_report(path) {
            Ok(report) => reports.push(report),
            Err(message) => {
                eprintln!("agentfence matrix: {}: {message}", path.display());
                return ExitCode::from(EXIT_USAGE);
            }
        }
    }
    let matrix = Matrix::new(&reports);
    type Writer = fn(&Matrix, &mut dyn Write) -> std::io::Result<()>;
    let outputs: [(&Option<PathBuf>, Writer); 2] =
        [(&args.markdown, write_markdown), (&args.html, write_html)];
    if outputs.iter().all(|(path, _)| path.is_none()) {
        let mut stdout = std::io::stdout().lock();
        if let Err(error) = write_markdown(&matrix, &mut stdout).and_then(|()| stdout.flush()) {
            eprintln!("agentfence matrix: cannot write the matrix: {error}");
            return ExitCode::from(EXIT_USAGE);
        }
        return ExitCode::SUCCESS;
    }
    for (path, writer) in outputs {
        if let Some(path) = path
            && let Err(error) = write_file(path, &matrix, writer)
        {
            eprintln!(
                "agentfence matrix: cannot write {}: {error}",
                path.display()
            );
            return ExitCode::from(EXIT_USAGE);
        }
    }
    ExitCode::SUCCESS
}

fn write_file(
    path: &Path,
    matrix: &Matrix,
    writer: fn(&Matrix, &mut dyn Write) -> std::io::Result<()>,
) -> std::io::Result<()> {
    let mut out = BufWriter::new(File::create(path)?);
    writer(matrix, &mut out)?;
    out.flush()
}
