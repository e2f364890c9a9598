//! Merging the result files of a run's shards into the unsplit run's summary, after checking
//! that they are finished shards of one run that cover it exactly once.

use std::ops::Range;
use std::path::PathBuf;

use bmn_play::Summary;

use crate::shard::{CoverError, check_cover};
use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::error::RunError;
use crate::file::{RunFile, differences};

/// The result of a merge: the first file (for the run's parameters), the merged summary, and
/// the indices the files cover together.
pub struct Merged<P> {
    pub first: RunFile<P>,
    pub summary: Summary,
    pub range: [u128; 2],
}

/// Checks that `files` (read from `paths`, in the same order) are finished shards of one run
/// (or of consecutive blocks of one, `--from`/`--count`) that together cover their range
/// exactly once, naming the file that is wrong, and merges their summaries.
///
/// # Panics
/// If `files` is empty.
pub fn merge_files<P>(paths: &[PathBuf], files: Vec<RunFile<P>>) -> Result<Merged<P>, RunError>
where
    P: Serialize + DeserializeOwned + PartialEq + Clone,
{
    let first = files.first().expect("at least one file to merge").clone();
    for (path, f) in paths.iter().zip(&files) {
        if f.params != first.params || f.total != first.total {
            return Err(RunError::Input(format!(
                "{} is not a shard of the same run as {}: {}",
                path.display(),
                paths[0].display(),
                differences(&f.params, &first.params)
            )));
        }
        if !f.finished() {
            return Err(RunError::Input(format!(
                "{} (shard {}) is not finished: {} of its units {}..{} are done; run it again to resume",
                path.display(),
                f.shard,
                f.next_unit.saturating_sub(f.units[0]),
                f.units[0],
                f.units[1]
            )));
        }
    }
    let name = |i: usize| format!("{} (shard {})", paths[i].display(), files[i].shard);
    let cover_error = |e: CoverError, what: &dyn Fn(usize) -> String| {
        RunError::Input(match e {
            CoverError::Gap {
                start,
                end,
                from,
                to,
            } => format!(
                "the files leave a gap: indices {start}..{end} of {from}..{to} are in none of them (a shard is missing)"
            ),
            CoverError::Overlap {
                first,
                second,
                start,
                end,
            } => format!(
                "{} and {} overlap on indices {start}..{end}: a shard is given twice or shards of different splits are mixed",
                what(first),
                what(second)
            ),
            CoverError::Outside { which, .. } => format!("{} lies outside the run", what(which)),
        })
    };
    // Each run's (or block's) shards tile it...
    let mut blocks: Vec<[u128; 2]> = files.iter().map(RunFile::run_range).collect();
    blocks.sort_unstable();
    blocks.dedup();
    for block in &blocks {
        let members: Vec<usize> = (0..files.len())
            .filter(|&i| files[i].run_range() == *block)
            .collect();
        let ranges: Vec<Range<u128>> = members
            .iter()
            .map(|&i| files[i].range[0]..files[i].range[1])
            .collect();
        check_cover(&ranges, block[0]..block[1])
            .map_err(|e| cover_error(e, &|k| name(members[k])))?;
    }
    // ...and the blocks follow one another with no gap and no overlap.
    let range = [blocks[0][0], blocks.iter().map(|b| b[1]).max().unwrap_or(0)];
    let spans: Vec<Range<u128>> = blocks.iter().map(|b| b[0]..b[1]).collect();
    check_cover(&spans, range[0]..range[1])
        .map_err(|e| cover_error(e, &|k| format!("block {}..{}", blocks[k][0], blocks[k][1])))?;
    let mut files = files.into_iter();
    let mut summary = files.next().expect("at least one").summary;
    for f in files {
        summary.merge(f.summary);
    }
    Ok(Merged {
        first,
        summary,
        range,
    })
}
