//! Result files: one run's or one shard's parameters, range, progress and summary in a
//! self-describing JSON file with a checksum, written atomically, read back with errors that
//! say what is wrong; and merging a set of them into the unsplit run's summary.
//!
//! The same file is a checkpoint (a run resumes from it) and a shard's result (`bmn merge`
//! combines them): a shard is finished when its `next_unit` reaches its last unit.

use std::ops::Range;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use bmn_search::{Shard, Summary, check_cover};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

use crate::input::BadInput;

/// A run's or shard's file. `P` is everything the result depends on besides the range
/// (deck, seed, rules, ...): files merge only if their `P`s are equal.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, Eq)]
pub struct RunFile<P> {
    /// What the file is and its version, e.g. `bmn-search-2`: an old file is refused, never
    /// misread.
    pub format: String,
    pub params: P,
    /// `i/N`.
    pub shard: String,
    /// The indices this shard covers (games of the seed's stream, or deal ranks), and how
    /// many the whole run has.
    pub range: [u64; 2],
    pub total: u64,
    /// Units of this shard: `first..end`, and the first not yet done.
    pub units: [u64; 2],
    pub next_unit: u64,
    pub summary: Summary,
    /// FNV-1a 64 of the file's JSON with this field empty: a corrupt file is refused.
    #[serde(default)]
    pub checksum: String,
}

impl<P: Serialize + DeserializeOwned + PartialEq> RunFile<P> {
    /// Whether `other` is a file of the same run and shard (what resuming from it needs).
    pub fn same_run(&self, other: &RunFile<P>) -> bool {
        self.params == other.params && self.shard == other.shard && self.range == other.range
    }

    /// Whether every unit of the shard is done.
    pub fn finished(&self) -> bool {
        self.next_unit >= self.units[1]
    }

    fn checksum_of(&self) -> Result<String>
    where
        P: Clone,
    {
        let blank = RunFile {
            checksum: String::new(),
            ..self.clone()
        };
        let text = serde_json::to_string(&blank)?;
        Ok(format!("{:016x}", bmn_core::fnv1a64(text.as_bytes())))
    }

    /// The file's text, checksum filled in.
    pub fn to_text(&self) -> Result<String>
    where
        P: Clone,
    {
        let sealed = RunFile {
            checksum: self.checksum_of()?,
            ..self.clone()
        };
        Ok(serde_json::to_string(&sealed)?)
    }

    /// Writes the file atomically (a temporary file renamed over it), so an interrupted write
    /// never leaves a broken file.
    pub fn save(&mut self, path: &Path) -> Result<()>
    where
        P: Clone,
    {
        let text = self.to_text()?;
        let mut tmp = path.as_os_str().to_owned();
        tmp.push(".tmp");
        let tmp = PathBuf::from(tmp);
        std::fs::write(&tmp, text).with_context(|| format!("writing {}", tmp.display()))?;
        std::fs::rename(&tmp, path).with_context(|| format!("writing {}", path.display()))?;
        Ok(())
    }

    /// Reads a file written by [`Self::save`] with format `format`: refused, with the reason,
    /// if it is truncated, corrupt, of another format or of another kind of run.
    pub fn load(path: &Path, format: &str) -> Result<RunFile<P>>
    where
        P: Clone,
    {
        let text =
            std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
        Self::from_text(&text, format)
            .map_err(|e| BadInput(format!("{}: {e}", path.display())).into())
    }

    /// Parses and checks a file's text (see [`Self::load`]); the error says what is wrong.
    pub fn from_text(text: &str, format: &str) -> std::result::Result<RunFile<P>, String>
    where
        P: Clone,
    {
        let found = file_format(text)?;
        if found != format {
            return Err(format!(
                "a {found} file, not {format} (of another kind of run, or another bmn)"
            ));
        }
        let file: RunFile<P> = serde_json::from_str(text)
            .map_err(|e| format!("not a complete {format} file (truncated or corrupt): {e}"))?;
        let sum = file.checksum_of().map_err(|e| e.to_string())?;
        if file.checksum != sum {
            return Err("corrupt: its checksum does not match its contents".into());
        }
        Ok(file)
    }
}

/// The `format` of a result file's text, read before the rest so any version is named.
pub fn file_format(text: &str) -> std::result::Result<String, String> {
    #[derive(Deserialize)]
    struct Head {
        format: String,
    }
    match serde_json::from_str::<Head>(text) {
        Ok(h) => Ok(h.format),
        Err(e) if e.is_eof() => Err("the file is truncated (it ends part-way)".into()),
        Err(e) => Err(format!("not a bmn result file: {e}")),
    }
}

/// The indices shard `shard` covers of a run of `total` units of `unit` indices each (the
/// last unit short when `total_items` is not a multiple): `(units, items)`.
pub fn shard_units(shard: Shard, units: u64, unit: u64, items: u64) -> (Range<u64>, Range<u64>) {
    let r = shard.range(u128::from(units));
    let (first, end) = (r.start as u64, r.end as u64);
    (
        first..end,
        (first * unit).min(items)..(end * unit).min(items),
    )
}

/// `seed 8 against 7, games 10 against 20`: the parameters in which `a` differs from `b`.
pub fn differences<P: Serialize>(a: &P, b: &P) -> Result<String> {
    let (a, b) = (serde_json::to_value(a)?, serde_json::to_value(b)?);
    let (Some(a), Some(b)) = (a.as_object(), b.as_object()) else {
        return Ok("its parameters differ".into());
    };
    let diffs: Vec<String> = a
        .iter()
        .filter(|(k, v)| b.get(*k) != Some(v))
        .map(|(k, v)| {
            format!(
                "{k} {v} against {}",
                b.get(k).unwrap_or(&serde_json::Value::Null)
            )
        })
        .collect();
    Ok(if diffs.is_empty() {
        "its run has another size".into()
    } else {
        diffs.join(", ")
    })
}

/// Checks that `files` are finished shards of one run that together cover it exactly once,
/// naming the file that is wrong, and merges their summaries.
pub fn merge_files<P>(paths: &[PathBuf], files: Vec<RunFile<P>>) -> Result<(RunFile<P>, Summary)>
where
    P: Serialize + DeserializeOwned + PartialEq + Clone + std::fmt::Debug,
{
    let first = files
        .first()
        .expect("clap asks for at least one file")
        .clone();
    for (path, f) in paths.iter().zip(&files) {
        if f.params != first.params || f.total != first.total {
            return Err(BadInput(format!(
                "{} is not a shard of the same run as {}: {}",
                path.display(),
                paths[0].display(),
                differences(&f.params, &first.params)?
            ))
            .into());
        }
        if !f.finished() {
            return Err(BadInput(format!(
                "{} (shard {}) is not finished: {} of its units {}..{} are done; run it again to resume",
                path.display(),
                f.shard,
                f.next_unit.saturating_sub(f.units[0]),
                f.units[0],
                f.units[1]
            ))
            .into());
        }
    }
    let ranges: Vec<Range<u64>> = files.iter().map(|f| f.range[0]..f.range[1]).collect();
    let name = |i: usize| format!("{} (shard {})", paths[i].display(), files[i].shard);
    check_cover(&ranges, first.total).map_err(|e| {
        use bmn_search::CoverError::*;
        BadInput(match e {
            Gap { start, end, total } => format!(
                "the files leave a gap: indices {start}..{end} of 0..{total} are in none of them (a shard is missing)"
            ),
            Overlap {
                first,
                second,
                start,
                end,
            } => format!(
                "{} and {} overlap on indices {start}..{end}: a shard is given twice or shards of different splits are mixed",
                name(first),
                name(second)
            ),
            Outside { which, .. } => format!("{} lies outside the run", name(which)),
        })
    })?;
    let mut files = files.into_iter();
    let mut merged = files.next().expect("at least one").summary;
    for f in files {
        merged.merge(f.summary);
    }
    Ok((first, merged))
}
