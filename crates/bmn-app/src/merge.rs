//! `merge`: the result files of a run's shards (a search's or an enumeration's, in any order)
//! combined into exactly the unsplit run's report. The one merge behind `bmn merge` and
//! `bmn exhaustive --merge`.

use std::path::PathBuf;

use bmn_core::{Deck, Player};
use bmn_run::Shard;
use bmn_run::{RunFile, format_of, merge_files};
use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::error::{Error, Result};
use crate::exhaustive::{self, ExhaustiveParams, ExhaustiveReport};
use crate::search::{self, MERGED, SearchParams, SearchReport};

/// A merged run: the report of the kind of run the files hold.
#[derive(Clone, Debug, Serialize)]
#[serde(untagged)]
pub enum MergeReport {
    Search(SearchReport),
    Exhaustive(ExhaustiveReport),
}

impl crate::Report for MergeReport {
    fn text(&self) -> String {
        match self {
            MergeReport::Search(r) => r.text(),
            MergeReport::Exhaustive(r) => r.text(),
        }
    }
}

/// `bmn merge`'s parameters.
#[derive(clap::Args, Clone, Debug, Default)]
pub struct MergeRequest {
    /// Result files (`bmn search --out`, `bmn exhaustive --checkpoint`) of every shard of one
    /// run, in any order: refused if one is missing, given twice, unfinished, corrupt or of
    /// another run.
    #[arg(required = true, value_name = "FILE")]
    pub files: Vec<PathBuf>,
}

/// Merges the files of every shard of one run. Refused, naming the file: a missing shard (a
/// gap), a shard given twice or from another split (an overlap), files of another run, an
/// unfinished shard, a truncated or corrupt file.
///
/// # Panics
/// If `paths` is empty.
pub fn merge(paths: &[PathBuf]) -> Result<MergeReport> {
    let first = &paths[0];
    let format = format_of(first)?;
    match format.as_str() {
        search::FORMAT => {
            let (file, label, _) = merged::<SearchParams>(paths, search::FORMAT)?;
            Ok(MergeReport::Search(SearchReport {
                params: file.params,
                shard: label,
                engine: MERGED.to_owned(),
                threads: 0,
                elapsed: 0.0,
                rate: 0.0,
                interrupted: false,
                summary: file.summary,
            }))
        }
        exhaustive::FORMAT => {
            let (file, label, ranks) = merged::<ExhaustiveParams>(paths, exhaustive::FORMAT)?;
            let deck = Deck::parse(&file.params.deck)
                .map_err(|e| Error::input(format!("bad deck in checkpoint: {e}")))?;
            // Written by bmn as 1 or 2; a file sealed by hand may say anything.
            let leader = match file.params.leader {
                n @ (1 | 2) => Player(n - 1),
                n => {
                    return Err(Error::input(format!(
                        "bad leader in checkpoint: {n} (an enumeration deals to players 1 and 2)"
                    )));
                }
            };
            Ok(MergeReport::Exhaustive(ExhaustiveReport {
                deck,
                leader,
                penalties: file.params.penalties.clone(),
                ranks,
                deck_deals: file.total,
                shards: label,
                deals_in_range: file.summary.games,
                range_done: true,
                all_shards: ranks == [0, file.total],
                list_cycles: file.params.list_cycles,
                kernel: MERGED.to_owned(),
                threads: 0,
                elapsed: 0.0,
                deals_per_second: 0.0,
                summary: file.summary,
            }))
        }
        other => Err(Error::input(format!(
            "{} is a {other} file: bmn merge reads {} and {} files",
            first.display(),
            search::FORMAT,
            exhaustive::FORMAT
        ))),
    }
}

/// The files read, checked and merged: the first file with the merged summary in it, the
/// label of the merged shards (`1,2,3/3`) and the indices they cover.
fn merged<P>(paths: &[PathBuf], format: &str) -> Result<(RunFile<P>, String, [u128; 2])>
where
    P: Serialize + DeserializeOwned + PartialEq + Clone,
{
    let files = paths
        .iter()
        .map(|p| RunFile::<P>::load(p, format))
        .collect::<std::result::Result<Vec<_>, _>>()?;
    let mut shards: Vec<Shard> = files
        .iter()
        .filter_map(|f| Shard::parse(&f.shard).ok())
        .collect();
    shards.sort_by_key(|s| s.index);
    let merged = merge_files(paths, files)?;
    let mut file = merged.first;
    file.summary = merged.summary;
    let label = format!(
        "{}/{}",
        shards
            .iter()
            .map(|s| s.index.to_string())
            .collect::<Vec<_>>()
            .join(","),
        shards.first().map_or(1, |s| s.count)
    );
    Ok((file, label, merged.range))
}
