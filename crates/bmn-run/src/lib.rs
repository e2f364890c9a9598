//! bmn-run: durable runs, for every long job of bmn (searches, enumerations) and every front
//! end (the CLI, the web page, the Python package).
//!
//! - [`RunFile`]: a run's or shard's parameters, range, progress and summary, self-describing
//!   and checksummed, written atomically and flushed (`--out`, `--checkpoint`).
//! - [`RunLock`]: one process at a time per run (a second `--resume` is refused).
//! - [`Ledger`]: the SQLite run database (`--db`, `--resume`), one row per run.
//! - [`Recorder`]: where a run records itself and what it resumes from.
//! - [`drive`]: the one driver: units on threads, merged in order, recorded every second.
//! - [`merge_files`]: shards checked to cover a run exactly once, then merged.
//!
//! - [`Shard`]: which part of a run a process plays (`--shard i/N`, or `auto` from a
//!   scheduler's variables), and [`check_cover`], that shards tile their run.
//!
//! Errors are typed ([`RunError`]), in this crate's words: it knows no front end's flags; nothing
//! here prints.

#![forbid(unsafe_code)]

mod driver;
mod error;
mod file;
mod ledger;
mod lock;
mod merge;
mod recorder;
mod shard;

pub use driver::{Workers, drive};
pub use error::{RunError, chain};
pub use file::{RunFile, differences, file_format, format_of, write_atomically};
pub use ledger::{Ledger, default_path};
pub use lock::RunLock;
pub use merge::{Merged, merge_files};
pub use recorder::{LedgerChoice, Opened, Recorder, SAVE_EVERY};
pub use shard::{CoverError, SchedulerError, Shard, ShardError, check_cover};
