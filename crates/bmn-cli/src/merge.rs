//! `bmn merge`: result files of the shards of one run (a search or an enumeration, in any
//! order) combined into exactly the unsplit run's report.

use anyhow::{Context, Result};

use crate::cli::MergeArgs;
use crate::exhaustive;
use crate::input::BadInput;
use crate::runfile::{RunFile, file_format, merge_files};
use crate::search::{self, SearchParams};

pub fn run(args: &MergeArgs) -> Result<()> {
    let first = &args.files[0];
    let text =
        std::fs::read_to_string(first).with_context(|| format!("reading {}", first.display()))?;
    let format = file_format(&text).map_err(|e| BadInput(format!("{}: {e}", first.display())))?;
    match format.as_str() {
        search::FORMAT => merge_search(args),
        exhaustive::FORMAT => exhaustive::merge(&args.files, args.json),
        other => Err(BadInput(format!(
            "{} is a {other} file: bmn merge reads {} and {} files",
            first.display(),
            search::FORMAT,
            exhaustive::FORMAT
        ))
        .into()),
    }
}

fn merge_search(args: &MergeArgs) -> Result<()> {
    let files = args
        .files
        .iter()
        .map(|p| RunFile::<SearchParams>::load(p, search::FORMAT))
        .collect::<Result<Vec<_>>>()?;
    let shards: Vec<String> = files.iter().map(|f| f.shard.clone()).collect();
    let (run, summary) = merge_files(&args.files, files)?;
    let count = run.shard.split('/').nth(1).unwrap_or("?").to_string();
    let merged = format!("merged from {} of {count} shards", shards.len());
    let report = search::Report {
        params: &run.params,
        shard: &merged,
        engine: search::MERGED,
        threads: 0,
        elapsed: 0.0,
        rate: 0.0,
        interrupted: false,
        json: args.json,
    };
    report.print(&summary)
}
