//! Numbered units of work on worker threads, merged strictly in unit order.
//!
//! Why in order: merging units `first..n` in index order gives the same result whatever the
//! thread count and whatever order the units finish in, and a run stopped at any moment keeps
//! exactly a whole prefix of units (unfinished ones are dropped, never half-counted). That
//! prefix is what makes runs reproducible and resumable: restart at the unit returned.

use std::collections::BTreeMap;
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

/// Runs units `first..end` (`end: None`: until stopped) as `play(unit)` on `threads` threads
/// and merges each result into `merged` in unit order with `merge`. `progress(&merged, next)`
/// is called as units merge and at least every 200 ms, `next` being the first unit not yet
/// merged; returning `false` stops the run, as does setting `stop` (e.g. from Ctrl-C).
/// Returns the first unit not merged: `end` if the run completed.
#[allow(clippy::too_many_arguments)]
pub fn run_units<S: Send>(
    first: u64,
    end: Option<u64>,
    threads: usize,
    stop: &AtomicBool,
    merged: &mut S,
    mut merge: impl FnMut(&mut S, S),
    play: impl Fn(u64) -> S + Sync,
    mut progress: impl FnMut(&S, u64) -> bool,
) -> u64 {
    let end = end.unwrap_or(u64::MAX);
    let claimed = AtomicU64::new(first);
    let mut next_to_merge = first;
    std::thread::scope(|scope| {
        let (tx, rx) = mpsc::channel::<(u64, S)>();
        for _ in 0..threads.max(1) {
            let (tx, claimed, play) = (tx.clone(), &claimed, &play);
            scope.spawn(move || {
                while !stop.load(Ordering::Relaxed) {
                    let unit = claimed.fetch_add(1, Ordering::Relaxed);
                    if unit >= end || tx.send((unit, play(unit))).is_err() {
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
            if let Ok((unit, result)) = received {
                pending.insert(unit, result);
                while let Some(result) = pending.remove(&next_to_merge) {
                    merge(merged, result);
                    next_to_merge += 1;
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
