//! Numbered units of work on worker threads, merged strictly in unit order.
//!
//! Why in order: merging units `first..n` in index order gives the same result whatever the
//! thread count and whatever order the units finish in, and a run stopped at any moment keeps
//! exactly a whole prefix of units (unfinished ones are dropped, never half-counted). That
//! prefix is what makes runs reproducible and resumable: restart at the unit returned.

use std::collections::BTreeMap;
use std::ops::Range;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc;
use std::time::Duration;

use crate::summary::Summary;

/// How far a run of units has got: the summary of its units before `next_unit`. All a
/// checkpoint or a ledger row needs to resume the run exactly.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Progress {
    pub next_unit: u64,
    pub summary: Summary,
}

/// How often `progress` is called when no unit finishes.
const TICK: Duration = Duration::from_millis(200);

/// Runs units `first..end` (`end: None`: until stopped) as `play(unit)` on `threads` threads and
/// merges each result into `merged` in unit order with `merge`. `progress(&merged, next)` is
/// called as units merge and at least every 200 ms, `next` being the first unit not yet
/// merged; returning `false` stops the run, as does setting `stop` (e.g. from Ctrl-C).
/// Returns the first unit not merged: `end` if the run completed.
#[allow(clippy::too_many_arguments)]
pub fn run_units<S: Send>(
    first: u64,
    end: Option<u64>,
    threads: usize,
    stop: &AtomicBool,
    merged: &mut S,
    merge: impl FnMut(&mut S, S),
    play: impl Fn(u64) -> S + Sync,
    progress: impl FnMut(&S, u64) -> bool,
) -> u64 {
    let blocks = Blocks {
        first,
        end,
        size: 1,
    };
    run_unit_blocks(
        blocks,
        threads,
        stop,
        merged,
        merge,
        |units| play(units.start),
        progress,
    )
}

/// Which units to run and how many a worker takes at once.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Blocks {
    /// Units `first..end` (`end: None`: until stopped).
    pub first: u64,
    pub end: Option<u64>,
    /// Consecutive units a worker claims and plays as one (a device's batch); the last block
    /// of a run may be shorter.
    pub size: u64,
}

/// [`run_units`] with blocks of `blocks.size` consecutive units played as one by
/// `play(units)`: a block merges whole, in order, so a stopped run still keeps a prefix of
/// units, ending at a block boundary.
pub fn run_unit_blocks<S: Send>(
    blocks: Blocks,
    threads: usize,
    stop: &AtomicBool,
    merged: &mut S,
    mut merge: impl FnMut(&mut S, S),
    play: impl Fn(Range<u64>) -> S + Sync,
    mut progress: impl FnMut(&S, u64) -> bool,
) -> u64 {
    let Blocks { first, end, size } = blocks;
    let (end, size) = (end.unwrap_or(u64::MAX), size.max(1));
    let claimed = AtomicU64::new(first);
    let mut next_to_merge = first;
    std::thread::scope(|scope| {
        let (tx, rx) = mpsc::channel::<(u64, u64, S)>();
        for _ in 0..threads.max(1) {
            let (tx, claimed, play) = (tx.clone(), &claimed, &play);
            scope.spawn(move || {
                while !stop.load(Ordering::Relaxed) {
                    let start = claimed.fetch_add(size, Ordering::Relaxed);
                    if start >= end {
                        break;
                    }
                    let stop_at = start.saturating_add(size).min(end);
                    if tx.send((start, stop_at, play(start..stop_at))).is_err() {
                        break;
                    }
                }
            });
        }
        drop(tx);
        let mut pending = BTreeMap::new();
        loop {
            let received = rx.recv_timeout(TICK);
            let done = matches!(received, Err(mpsc::RecvTimeoutError::Disconnected));
            if let Ok((start, stop_at, result)) = received {
                pending.insert(start, (stop_at, result));
                while let Some((stop_at, result)) = pending.remove(&next_to_merge) {
                    merge(merged, result);
                    next_to_merge = stop_at;
                }
            }
            if !progress(merged, next_to_merge) {
                stop.store(true, Ordering::Relaxed);
            }
            if done {
                break;
            }
        }
    });
    next_to_merge
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn merges_in_unit_order_for_any_thread_count() {
        for threads in 1..=4 {
            let mut seen = Vec::new();
            let next = run_units(
                3,
                Some(40),
                threads,
                &AtomicBool::new(false),
                &mut seen,
                |all: &mut Vec<u64>, unit: Vec<u64>| all.extend(unit),
                |unit| vec![unit],
                |_, _| true,
            );
            assert_eq!(next, 40);
            assert_eq!(seen, (3..40).collect::<Vec<_>>(), "{threads} threads");
        }
    }

    #[test]
    fn blocks_merge_whole_and_in_order() {
        for (threads, size) in [(1, 3), (3, 4), (2, 100)] {
            let mut seen = Vec::new();
            let blocks = Blocks {
                first: 5,
                end: Some(40),
                size,
            };
            let next = run_unit_blocks(
                blocks,
                threads,
                &AtomicBool::new(false),
                &mut seen,
                |all: &mut Vec<u64>, units: Vec<u64>| all.extend(units),
                |units| units.collect(),
                |_, _| true,
            );
            assert_eq!(next, 40);
            assert_eq!(
                seen,
                (5..40).collect::<Vec<_>>(),
                "{threads} threads, {size}"
            );
        }
    }

    #[test]
    fn a_stopped_run_keeps_a_prefix_and_says_where_to_resume() {
        let mut seen = Vec::new();
        let next = run_units(
            0,
            None,
            2,
            &AtomicBool::new(false),
            &mut seen,
            |all: &mut Vec<u64>, unit: Vec<u64>| all.extend(unit),
            |unit| vec![unit],
            |all, _| all.len() < 10,
        );
        assert_eq!(seen, (0..next).collect::<Vec<_>>());
        assert!(next >= 10);
    }
}
