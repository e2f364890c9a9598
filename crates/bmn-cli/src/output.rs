//! Writing results to stdout (text or JSON, in one go), reading a deal from stdin, and quiet
//! exits on a closed pipe.

use std::fmt;
use std::io::{self, Read, Write};
use std::path::Path;

use anyhow::Result;
use bmn_app::Report;

/// An error in what the user typed, found by the binary itself (reading stdin): exit code 2.
#[derive(Debug)]
pub struct BadInput(pub String);

impl fmt::Display for BadInput {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for BadInput {}

/// Writes a report: its JSON on one line with `--json`, else its text.
pub fn emit(report: &impl Report, json: bool) -> Result<()> {
    emit_with_files(report, json, &[])
}

/// Writes a report as [`emit`] does, its text followed by a line for each file the command
/// wrote (`plot: FILE`, `graph: FILE`), as `stats` and `records` name their plots; the JSON
/// is the report's own.
pub fn emit_with_files(
    report: &impl Report,
    json: bool,
    files: &[(&str, Option<&Path>)],
) -> Result<()> {
    let text = if json {
        let mut line = report.json();
        line.push('\n');
        line
    } else {
        let mut text = report.text();
        for (what, path) in files {
            if let Some(path) = path {
                text.push_str(&format!("{what}: {}\n", path.display()));
            }
        }
        text
    };
    let mut out = io::stdout().lock();
    out.write_all(text.as_bytes())?;
    out.flush()?;
    Ok(())
}

/// The deal or position argument; `-` means standard input.
pub fn deal_text(arg: &str) -> Result<String> {
    if arg != "-" {
        return Ok(arg.to_string());
    }
    let mut text = String::new();
    io::stdin()
        .read_to_string(&mut text)
        .map_err(|e| BadInput(format!("reading the deal from stdin: {e}")))?;
    Ok(text.trim().to_string())
}

/// Whether `err` is a write to a closed pipe (`bmn ... | head`), which ends quietly.
pub fn is_broken_pipe(err: &anyhow::Error) -> bool {
    err.chain()
        .filter_map(|e| e.downcast_ref::<io::Error>())
        .any(|e| e.kind() == io::ErrorKind::BrokenPipe)
}
