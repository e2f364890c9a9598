//! Result files (`--out`, `--checkpoint`, the ledger's rows) and merges of them (`bmn merge`,
//! `exhaustive --merge`): a file that loads writes itself back byte for byte, and a merge is
//! an error naming the culprit or a report whose counts are the sums of its files'.

use std::fmt::Debug;
use std::path::PathBuf;

use bmn_app::climb::ClimbParams;
use bmn_app::exhaustive::{self, ExhaustiveParams};
use bmn_app::merge::MergeReport;
use bmn_app::search::{self, SearchParams};
use bmn_climb::climb::ClimbState;
use bmn_run::{RunFile, file_format};
use bmn_search::Summary;
use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::{check_message, text};

/// Result files are a few KiB (a summary's top games and cycles); bigger inputs only slow
/// the fuzzer down.
const MAX_BYTES: usize = 64 * 1024;

/// The files of a merge input are separated by this byte (never in a JSON text).
pub const FILE_SEPARATOR: u8 = 0;

/// At most this many files to a merge.
const MAX_FILES: usize = 8;

/// The climb's format (its files are ledger rows; the crate's const is the same).
const CLIMB_FORMAT: &str = bmn_app::climb::FORMAT;

/// The first byte picks the format the text is read as (bits 0-1: search, exhaustive, climb,
/// or whatever the text says) and, with bit 2, seals it first: a fuzzer almost never guesses
/// a checksum, so a sealed input is read with serde alone and written with a correct one, and
/// the checks past the checksum see it.
pub fn result_file(data: &[u8]) {
    let Some((&flags, rest)) = data.split_first() else {
        return;
    };
    if rest.len() > MAX_BYTES {
        return;
    }
    let text = text(rest);
    let format = match flags & 3 {
        0 => search::FORMAT.to_owned(),
        1 => exhaustive::FORMAT.to_owned(),
        2 => CLIMB_FORMAT.to_owned(),
        _ => match file_format(&text) {
            Ok(f) => f,
            Err(e) => return check_message(&e, "file_format"),
        },
    };
    let sealed = flags & 4 != 0;
    match format.as_str() {
        search::FORMAT => check_file::<SearchParams, Summary>(&text, &format, sealed),
        exhaustive::FORMAT => check_file::<ExhaustiveParams, Summary>(&text, &format, sealed),
        // The other formats are refused the same way whatever `P` and `S` are: read as a
        // climb's.
        _ => check_file::<ClimbParams, ClimbState>(&text, &format, sealed),
    }
}

/// `text` sealed as a file of `format` (serde alone, then written with its checksum), if
/// serde reads it.
fn seal<P, S>(text: &str, format: &str) -> Option<String>
where
    P: Serialize + DeserializeOwned + PartialEq + Clone,
    S: Serialize + DeserializeOwned + Clone,
{
    let mut file: RunFile<P, S> = serde_json::from_str(text).ok()?;
    file.format = format.to_owned();
    Some(file.to_text().expect("a file read by serde writes"))
}

fn check_file<P, S>(text: &str, format: &str, sealed: bool)
where
    P: Serialize + DeserializeOwned + PartialEq + Clone + Debug,
    S: Serialize + DeserializeOwned + PartialEq + Clone + Debug,
{
    let text = if sealed {
        match seal::<P, S>(text, format) {
            Some(t) => t,
            None => return,
        }
    } else {
        text.to_owned()
    };
    let file = match RunFile::<P, S>::from_text(&text, format) {
        Ok(f) => f,
        Err(e) => {
            assert!(!sealed, "a file bmn wrote does not load: {e}\n{text}");
            return check_message(&e, "RunFile::from_text");
        }
    };
    let written = file.to_text().expect("a loaded file writes");
    let again = RunFile::<P, S>::from_text(&written, format)
        .unwrap_or_else(|e| panic!("a rewritten file does not load: {e}\n{written}"));
    assert_eq!(again, file, "{text}");
    // The written form is canonical: written again, the same bytes.
    assert_eq!(again.to_text().expect("writes"), written);
    if sealed {
        assert_eq!(written, text, "a sealed file is already canonical");
    }
}

/// One to [`MAX_FILES`] files separated by [`FILE_SEPARATOR`], after a first byte whose bit 0
/// seals each file that serde reads as its format's (see [`result_file`]). They are written
/// under a temporary directory and merged with `bmn merge`'s function.
pub fn merge(data: &[u8]) {
    let Some((&flags, rest)) = data.split_first() else {
        return;
    };
    if rest.len() > MAX_BYTES {
        return;
    }
    let parts: Vec<String> = rest
        .split(|&b| b == FILE_SEPARATOR)
        .take(MAX_FILES)
        .map(text)
        .map(|t| if flags & 1 != 0 { seal_any(&t) } else { t })
        .collect();
    // A directory of this merge's own, removed when it is dropped, on a failed check too.
    let dir = tempfile::Builder::new()
        .prefix("bmn-fuzz-merge-")
        .tempdir()
        .expect("a temporary directory");
    let paths: Vec<PathBuf> = (0..parts.len())
        .map(|i| dir.path().join(format!("{i}.json")))
        .collect();
    for (path, part) in paths.iter().zip(&parts) {
        std::fs::write(path, part).expect("writing a temporary file");
    }
    let report = match bmn_app::merge::merge(&paths) {
        Ok(r) => r,
        Err(e) => return check_message(&e.to_string(), "merge"),
    };
    // Merged in the other order, the same counts (a merge is a sum).
    let mut reversed = paths.clone();
    reversed.reverse();
    let other = bmn_app::merge::merge(&reversed)
        .unwrap_or_else(|e| panic!("merged in one order but not the other: {e}"));
    match (&report, &other) {
        (MergeReport::Search(a), MergeReport::Search(b)) => {
            let files = load_all::<SearchParams>(&parts, search::FORMAT);
            check_sum(&a.summary, &files);
            check_sum(&b.summary, &files);
        }
        (MergeReport::Exhaustive(a), MergeReport::Exhaustive(b)) => {
            let files = load_all::<ExhaustiveParams>(&parts, exhaustive::FORMAT);
            check_sum(&a.summary, &files);
            check_sum(&b.summary, &files);
            assert_eq!(a.deals_in_range, a.summary.games);
            assert_eq!(a.ranks, b.ranks);
        }
        _ => panic!("one merge, two kinds of report"),
    }
}

/// `text` sealed as the format it names, if it names one bmn merges and serde reads it.
fn seal_any(text: &str) -> String {
    let sealed = match file_format(text).as_deref() {
        Ok(search::FORMAT) => seal::<SearchParams, Summary>(text, search::FORMAT),
        Ok(exhaustive::FORMAT) => seal::<ExhaustiveParams, Summary>(text, exhaustive::FORMAT),
        _ => None,
    };
    sealed.unwrap_or_else(|| text.to_owned())
}

/// Every part of a merge that succeeded, loaded.
fn load_all<P>(parts: &[String], format: &str) -> Vec<RunFile<P>>
where
    P: Serialize + DeserializeOwned + PartialEq + Clone,
{
    parts
        .iter()
        .map(|t| RunFile::<P>::from_text(t, format).expect("a merged file loads"))
        .collect()
}

/// The merged counts are the sums of the files' (where a sum fits: a merge that overflows
/// has no right answer, but it must not panic either).
fn check_sum<P>(merged: &Summary, files: &[RunFile<P>]) {
    let sum_u64 = |f: fn(&Summary) -> u64| {
        files
            .iter()
            .try_fold(0u64, |acc, file| acc.checked_add(f(&file.summary)))
    };
    let sum_u128 = |f: fn(&Summary) -> u128| {
        files
            .iter()
            .try_fold(0u128, |acc, file| acc.checked_add(f(&file.summary)))
    };
    if let Some(games) = sum_u64(|s| s.games) {
        assert_eq!(merged.games, games);
    }
    if let Some(cycling) = sum_u64(|s| s.cycling) {
        assert_eq!(merged.cycling, cycling);
    }
    if let Some(unresolved) = sum_u64(|s| s.unresolved) {
        assert_eq!(merged.unresolved, unresolved);
    }
    if let Some(cards) = sum_u128(|s| s.total_cards) {
        assert_eq!(merged.total_cards, cards);
    }
    if let Some(tricks) = sum_u128(|s| s.total_tricks) {
        assert_eq!(merged.total_tricks, tricks);
    }
    for (seat, &wins) in merged.wins.iter().enumerate() {
        let sum = files.iter().try_fold(0u64, |acc, file| {
            acc.checked_add(file.summary.wins.get(seat).copied().unwrap_or(0))
        });
        if let Some(sum) = sum {
            assert_eq!(wins, sum, "wins of seat {}", seat + 1);
        }
    }
    let seats = files
        .iter()
        .map(|f| f.summary.wins.len())
        .max()
        .unwrap_or(0);
    assert_eq!(merged.wins.len(), seats, "seats with wins");
}
