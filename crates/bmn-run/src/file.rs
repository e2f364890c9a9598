//! Result files: one run's or one shard's parameters, range, progress and summary in a
//! self-describing JSON file with a checksum, written atomically, read back with errors that
//! say what is wrong.
//!
//! The same file is a checkpoint (a run resumes from it) and a shard's result (`bmn merge`
//! combines them): a shard is finished when its `next_unit` reaches its last unit.

use std::io::Write;
use std::path::{Path, PathBuf};

use bmn_play::Summary;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

use crate::error::RunError;

/// A run's or shard's file. `P` is everything the result depends on besides the range
/// (deck, seed, rules, ...): files merge only if their `P`s are equal. `S` is what the run
/// has reached: a search's or enumeration's [`Summary`] of the units done (independent units,
/// merged), or a climb's whole state (its walkers, which a resumed climb goes on with).
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, Eq)]
pub struct RunFile<P, S = Summary> {
    /// What the file is and its version, e.g. `bmn-search-2`: an old file is refused, never
    /// misread.
    pub format: String,
    pub params: P,
    /// `i/N`.
    pub shard: String,
    /// The indices this shard covers (games of the seed's stream, or deal ranks), and how
    /// many the whole run has.
    pub range: [u128; 2],
    pub total: u128,
    /// The block of `0..total` the shards of this run split (`--from`/`--count`, `--block`);
    /// absent: all of it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub block: Option<[u128; 2]>,
    /// Units of this shard: `first..end`, and the first not yet done.
    pub units: [u64; 2],
    pub next_unit: u64,
    /// What the units before `next_unit` reached (the key stays `summary` whatever `S` is, so
    /// a search's file reads as it always has).
    pub summary: S,
    /// FNV-1a 64 of the file's JSON with this field empty: a corrupt file is refused.
    #[serde(default)]
    pub checksum: String,
}

impl<P, S> RunFile<P, S>
where
    P: Serialize + DeserializeOwned + PartialEq + Clone,
    S: Serialize + DeserializeOwned + Clone,
{
    /// Whether `other` is a file of the same run and shard (what resuming from it needs).
    pub fn same_run(&self, other: &RunFile<P, S>) -> bool {
        self.params == other.params
            && self.shard == other.shard
            && self.range == other.range
            && self.block == other.block
    }

    /// The part of the indices the shards of this file's run split: its block, or all.
    pub fn run_range(&self) -> [u128; 2] {
        self.block.unwrap_or([0, self.total])
    }

    /// Whether every unit of the shard is done.
    pub fn finished(&self) -> bool {
        self.next_unit >= self.units[1]
    }

    fn checksum_of(&self) -> Result<String, serde_json::Error> {
        let blank = RunFile {
            checksum: String::new(),
            ..self.clone()
        };
        let text = serde_json::to_string(&blank)?;
        Ok(format!("{:016x}", bmn_core::fnv1a64(text.as_bytes())))
    }

    /// The file's text, checksum filled in.
    pub fn to_text(&self) -> Result<String, RunError> {
        let encode = |e: serde_json::Error| RunError::Io(format!("encoding a result file: {e}"));
        let sealed = RunFile {
            checksum: self.checksum_of().map_err(encode)?,
            ..self.clone()
        };
        serde_json::to_string(&sealed).map_err(encode)
    }

    /// Writes the file atomically (see [`write_atomically`]): an interrupted or failed write
    /// never leaves a broken file, and the last good one stays.
    pub fn save(&self, path: &Path) -> Result<(), RunError> {
        write_atomically(path, self.to_text()?.as_bytes())
    }

    /// Reads a file written by [`Self::save`] with format `format`: refused, with the reason,
    /// if it is truncated, corrupt, of another format or of another kind of run.
    pub fn load(path: &Path, format: &str) -> Result<RunFile<P, S>, RunError> {
        let text = read_named(path)?;
        Self::from_text(&text, format)
            .map_err(|e| RunError::Input(format!("{}: {e}", path.display())))
    }

    /// Parses and checks a file's text (see [`Self::load`]); the error says what is wrong.
    pub fn from_text(text: &str, format: &str) -> Result<RunFile<P, S>, String> {
        let found = file_format(text)?;
        if found != format {
            return Err(format!(
                "a {found} file, not {format} (of another kind of run, or another bmn)"
            ));
        }
        let file: RunFile<P, S> = serde_json::from_str(text)
            .map_err(|e| format!("not a complete {format} file (truncated or corrupt): {e}"))?;
        let sum = file.checksum_of().map_err(|e| e.to_string())?;
        if file.checksum != sum {
            return Err("corrupt: its checksum does not match its contents".into());
        }
        Ok(file)
    }
}

/// Writes `bytes` to `path` so that `path` is either its old file or the whole new one:
/// written to `path.tmp`, flushed to the disk, renamed over `path`, the directory flushed.
/// On any failure (a full disk, a read-only directory) `path.tmp` is removed and `path` is
/// left as it was; the error names the file and, for a full disk, says so.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> Result<(), RunError> {
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(".tmp");
    let tmp = PathBuf::from(tmp);
    let written = (|| {
        let mut file = std::fs::File::create(&tmp)?;
        file.write_all(bytes)?;
        file.sync_all()
    })();
    if let Err(e) = written {
        let _ = std::fs::remove_file(&tmp);
        return Err(write_error(&tmp, &e));
    }
    if let Err(e) = std::fs::rename(&tmp, path) {
        let _ = std::fs::remove_file(&tmp);
        return Err(write_error(path, &e));
    }
    // The rename itself is durable once the directory is flushed; where a directory cannot
    // be opened for that (some file systems), the file is still whole.
    let dir = path.parent().filter(|d| !d.as_os_str().is_empty());
    if let Some(Ok(dir)) = dir.map(std::fs::File::open) {
        let _ = dir.sync_all();
    }
    Ok(())
}

fn write_error(path: &Path, e: &std::io::Error) -> RunError {
    use std::io::ErrorKind::{FileTooLarge, QuotaExceeded, StorageFull};
    let hint = match e.kind() {
        StorageFull | QuotaExceeded | FileTooLarge => {
            " (the disk is full or a size limit was reached; the last saved state is kept)"
        }
        _ => "",
    };
    RunError::io(format!("writing {}{hint}", path.display()), e)
}

/// The `format` of a result file's text, read before the rest so any version is named.
pub fn file_format(text: &str) -> Result<String, String> {
    #[derive(Deserialize)]
    struct Head {
        format: String,
    }
    if text.trim().is_empty() {
        return Err("the file is empty (a result file is the JSON of a run)".into());
    }
    match serde_json::from_str::<Head>(text) {
        Ok(h) => Ok(h.format),
        Err(e) if e.is_eof() => Err("the file is truncated (it ends part-way)".into()),
        Err(e) => Err(format!("not a bmn result file: {e}")),
    }
}

/// The text of a result file the user named. A file that is not there, is a folder, or is not
/// text is the user's to fix (another name), not the machine's: [`RunError::Input`].
fn read_named(path: &Path) -> Result<String, RunError> {
    use std::io::ErrorKind::{InvalidData, IsADirectory, NotADirectory, NotFound};
    std::fs::read_to_string(path).map_err(|e| {
        let error = RunError::io(format!("reading {}", path.display()), &e);
        match e.kind() {
            NotFound | IsADirectory | NotADirectory | InvalidData => {
                RunError::Input(error.to_string())
            }
            _ => error,
        }
    })
}

/// The `format` of the result file at `path` (see [`file_format`]).
pub fn format_of(path: &Path) -> Result<String, RunError> {
    let text = read_named(path)?;
    file_format(&text).map_err(|e| RunError::Input(format!("{}: {e}", path.display())))
}

/// `seed 8 against 7, games 10 against 20`: the parameters in which `a` differs from `b`.
pub fn differences<P: Serialize>(a: &P, b: &P) -> String {
    let (Ok(a), Ok(b)) = (serde_json::to_value(a), serde_json::to_value(b)) else {
        return "its parameters differ".into();
    };
    let (Some(a), Some(b)) = (a.as_object(), b.as_object()) else {
        return "its parameters differ".into();
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
    if diffs.is_empty() {
        "its run has another size".into()
    } else {
        diffs.join(", ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file<S>(format: &str, summary: S) -> RunFile<u64, S> {
        RunFile {
            format: format.into(),
            params: 7,
            shard: "1/1".into(),
            range: [0, 10],
            total: 10,
            block: None,
            units: [0, 1],
            next_unit: 1,
            summary,
            checksum: String::new(),
        }
    }

    /// A search's file keeps the keys and order it always had (`bmn-search-2` is unchanged):
    /// the summary, then the checksum, and no key of another kind of run.
    #[test]
    fn a_summary_file_keeps_its_shape() {
        let text = file("bmn-search-2", Summary::new(1)).to_text().unwrap();
        let keys = [
            "format",
            "params",
            "shard",
            "range",
            "total",
            "units",
            "next_unit",
            "summary",
            "checksum",
        ];
        let at: Vec<usize> = keys
            .iter()
            .map(|k| text.find(&format!("\"{k}\":")).unwrap())
            .collect();
        assert!(at.windows(2).all(|w| w[0] < w[1]), "{text}");
        assert!(!text.contains("\"state\""), "{text}");
        let back = RunFile::<u64>::from_text(&text, "bmn-search-2").unwrap();
        assert_eq!(back.to_text().unwrap(), text);
    }

    /// A run that keeps its own state (a climb's) stores it as the summary, checksummed, and
    /// reads it back whole.
    #[test]
    fn a_file_keeps_any_state_as_its_summary() {
        let state = vec![(3u64, "walker".to_string())];
        let text = file("bmn-climb-2", state.clone()).to_text().unwrap();
        assert!(text.contains(r#""summary":[[3,"walker"]]"#), "{text}");
        let back = RunFile::<u64, Vec<(u64, String)>>::from_text(&text, "bmn-climb-2").unwrap();
        assert_eq!(back.summary, state);
        let edited = text.replace("walker", "walkers");
        assert!(
            RunFile::<u64, Vec<(u64, String)>>::from_text(&edited, "bmn-climb-2")
                .unwrap_err()
                .contains("checksum")
        );
    }

    /// An older format is refused by name, in one line, before its contents are read.
    #[test]
    fn an_old_format_is_refused_by_name() {
        let old = file("bmn-climb-1", Summary::new(0)).to_text().unwrap();
        let e = RunFile::<u64, Vec<u64>>::from_text(&old, "bmn-climb-2").unwrap_err();
        assert_eq!(
            e,
            "a bmn-climb-1 file, not bmn-climb-2 (of another kind of run, or another bmn)"
        );
    }
}
