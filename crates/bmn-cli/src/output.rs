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

/// `--start FILE|DEAL...`: deals given as they are, or read from a file (one per line, `#`
/// comments; or a `bmn search --json` report, whose longest games are taken).
pub fn start_deals(values: &[String]) -> Result<Vec<String>> {
    let mut deals = Vec::new();
    for v in values {
        let path = std::path::Path::new(v);
        if !v.starts_with('#') && path.is_file() {
            let text = std::fs::read_to_string(path)
                .map_err(|e| BadInput(format!("bad --start {v}: {e}")))?;
            let before = deals.len();
            if let Ok(report) = serde_json::from_str::<serde_json::Value>(&text)
                && let Some(longest) = report["longest"].as_array()
            {
                deals.extend(
                    longest
                        .iter()
                        .filter_map(|g| g["deal"].as_str().map(String::from)),
                );
            } else {
                deals.extend(
                    text.lines()
                        .map(str::trim)
                        .filter(|l| !l.is_empty() && !l.starts_with('#'))
                        .map(String::from),
                );
            }
            // A file that gives no deal is a mistake, not a request to start at random.
            if deals.len() == before {
                return Err(BadInput(format!(
                    "bad --start {v}: the file holds no deal (one a line, `#` comments, or the \
                     --json of `bmn search`, whose longest games are taken)"
                ))
                .into());
            }
        } else if path.is_dir() {
            return Err(BadInput(format!(
                "bad --start {v}: is a folder; name a file of deals in it"
            ))
            .into());
        } else if v.starts_with('/')
            || v.starts_with("./")
            || v.ends_with(".json")
            || v.ends_with(".txt")
        {
            // A path, not a deal (no deal starts with an empty first hand or ends so).
            return Err(BadInput(format!("bad --start {v}: no such file")).into());
        } else {
            deals.push(v.clone());
        }
    }
    Ok(deals)
}

/// Whether `err` is a write to a closed pipe (`bmn ... | head`), which ends quietly.
pub fn is_broken_pipe(err: &anyhow::Error) -> bool {
    err.chain()
        .filter_map(|e| e.downcast_ref::<io::Error>())
        .any(|e| e.kind() == io::ErrorKind::BrokenPipe)
}
