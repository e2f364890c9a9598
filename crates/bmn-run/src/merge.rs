//! Merging the result files of a run's shards into the unsplit run's summary, after checking
//! that they are finished shards of one run that cover it exactly once.

use std::ops::Range;
use std::path::PathBuf;

use bmn_search::{CoverError, Summary, check_cover};
use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::error::RunError;
use crate::file::{RunFile, differences};

/// Checks that `files` (read from `paths`, in the same order) are finished shards of one run
/// that together cover it exactly once, naming the file that is wrong, and merges their
/// summaries. Returns the first file (for the run's parameters) and the merged summary.
///
/// # Panics
/// If `files` is empty.
pub fn merge_files<P>(
    paths: &[PathBuf],
    files: Vec<RunFile<P>>,
) -> Result<(RunFile<P>, Summary), RunError>
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
    let ranges: Vec<Range<u64>> = files.iter().map(|f| f.range[0]..f.range[1]).collect();
    let name = |i: usize| format!("{} (shard {})", paths[i].display(), files[i].shard);
    check_cover(&ranges, first.total).map_err(|e| {
        RunError::Input(match e {
            CoverError::Gap { start, end, total } => format!(
                "the files leave a gap: indices {start}..{end} of 0..{total} are in none of them (a shard is missing)"
            ),
            CoverError::Overlap {
                first,
                second,
                start,
                end,
            } => format!(
                "{} and {} overlap on indices {start}..{end}: a shard is given twice or shards of different splits are mixed",
                name(first),
                name(second)
            ),
            CoverError::Outside { which, .. } => format!("{} lies outside the run", name(which)),
        })
    })?;
    let mut files = files.into_iter();
    let mut merged = files.next().expect("at least one").summary;
    for f in files {
        merged.merge(f.summary);
    }
    Ok((first, merged))
}
