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
use std::time::{Duration, Instant};

use crate::Job;
use crate::pace::{Claims, Rates, Worker};

/// How often `progress` is called when no unit finishes.
const TICK: Duration = Duration::from_millis(200);

/// Runs `units` (`first..u64::MAX`: until stopped) as `play(unit)` on `threads` threads and
/// merges each result into `merged` in unit order with `merge`. A unit that `play` abandons
/// part-way (`None`: it saw the stop inside a long unit) is not merged, nor any after it, and
/// ends the run. `progress(job, &merged, next)` is called as units merge and at least every
/// 200 ms, `next` being the first unit not yet merged, to report through `job`; returning
/// `false` stops the run, as does the job's stop. Returns the first unit not merged:
/// `units.end` if the run completed.
pub fn run_units<S: Send>(
    units: Range<u64>,
    threads: usize,
    job: &mut Job,
    merged: &mut S,
    merge: impl FnMut(&mut S, S),
    play: impl Fn(u64) -> Option<S> + Sync,
    progress: impl FnMut(&mut Job, &S, u64) -> bool,
) -> u64 {
    let blocks = Blocks {
        first: units.start,
        end: (units.end != u64::MAX).then_some(units.end),
        claims: Claims::Each(1),
    };
    run_unit_blocks(
        blocks,
        threads,
        job,
        merged,
        merge,
        |units, _| play(units.start),
        progress,
    )
}

/// Which units to run and how workers claim them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Blocks {
    /// Units `first..end` (`end: None`: until stopped).
    pub first: u64,
    pub end: Option<u64>,
    /// How many consecutive units a worker claims and plays as one, and on which engine.
    pub claims: Claims,
}

/// [`run_units`] with blocks of consecutive units, claimed as `blocks.claims` says and played
/// as one by `play(units, worker)`: a block merges whole, in order, so a stopped run still
/// keeps a prefix of units, ending at a block boundary. Results do not depend on the claims.
pub fn run_unit_blocks<S: Send>(
    blocks: Blocks,
    threads: usize,
    job: &mut Job,
    merged: &mut S,
    mut merge: impl FnMut(&mut S, S),
    play: impl Fn(Range<u64>, Worker) -> Option<S> + Sync,
    mut progress: impl FnMut(&mut Job, &S, u64) -> bool,
) -> u64 {
    let stop = job.stop_flag();
    let Blocks { first, end, claims } = blocks;
    let end = end.unwrap_or(u64::MAX);
    let threads = threads.max(1);
    let claimed = AtomicU64::new(first);
    let rates = Rates::default();
    let halt = AtomicBool::new(false);
    let stopped = || stop.load(Ordering::Relaxed) || halt.load(Ordering::Relaxed);
    let mut next_to_merge = first;
    std::thread::scope(|scope| {
        let (tx, rx) = mpsc::channel::<(u64, u64, Option<S>)>();
        for index in 0..threads {
            let (tx, claimed, play, rates, stopped) =
                (tx.clone(), &claimed, &play, &rates, &stopped);
            let worker = claims.worker(index);
            scope.spawn(move || {
                let mut last = None;
                while !stopped() {
                    let next = claimed.load(Ordering::Relaxed);
                    let left = (end != u64::MAX).then(|| end.saturating_sub(next));
                    let size = claims.next_size(worker, last, left, rates, threads);
                    let start = claimed.fetch_add(size, Ordering::Relaxed);
                    if start >= end {
                        break;
                    }
                    let stop_at = start.saturating_add(size).min(end);
                    let began = Instant::now();
                    let result = play(start..stop_at, worker);
                    let seconds = began.elapsed().as_secs_f64();
                    match worker {
                        Worker::Device => last = Some((stop_at - start, seconds)),
                        Worker::Cpu => rates.set_cpu(stop_at - start, seconds),
                    }
                    if tx.send((start, stop_at, result)).is_err() {
                        break;
                    }
                }
            });
        }
        drop(tx);
        let mut pending = BTreeMap::new();
        // Set at the first abandoned unit in order: nothing merges from there on.
        let mut cut = false;
        loop {
            let received = rx.recv_timeout(TICK);
            let done = matches!(received, Err(mpsc::RecvTimeoutError::Disconnected));
            if let Ok((start, stop_at, result)) = received {
                pending.insert(start, (stop_at, result));
                while !cut && let Some((stop_at, result)) = pending.remove(&next_to_merge) {
                    match result {
                        Some(result) => {
                            merge(merged, result);
                            next_to_merge = stop_at;
                        }
                        None => {
                            cut = true;
                            halt.store(true, Ordering::Relaxed);
                        }
                    }
                }
            }
            if !progress(job, merged, next_to_merge) || job.stopped() {
                halt.store(true, Ordering::Relaxed);
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
                3..40,
                threads,
                &mut Job::quiet(&AtomicBool::new(false)),
                &mut seen,
                |all: &mut Vec<u64>, unit: Vec<u64>| all.extend(unit),
                |unit| Some(vec![unit]),
                |_, _, _| true,
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
                claims: Claims::Each(size),
            };
            let next = run_unit_blocks(
                blocks,
                threads,
                &mut Job::quiet(&AtomicBool::new(false)),
                &mut seen,
                |all: &mut Vec<u64>, units: Vec<u64>| all.extend(units),
                |units, _| Some(units.collect()),
                |_, _, _| true,
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
    fn paced_claims_merge_whole_and_in_order_on_both_workers() {
        for (threads, shared) in [(1, true), (2, true), (3, true), (3, false)] {
            let mut seen = Vec::new();
            let mut on_device = 0;
            let blocks = Blocks {
                first: 2,
                end: Some(500),
                claims: Claims::Paced { max: 64, shared },
            };
            run_unit_blocks(
                blocks,
                threads,
                &mut Job::quiet(&AtomicBool::new(false)),
                &mut seen,
                |all: &mut Vec<(u64, Worker)>, units| all.extend(units),
                |units, worker| {
                    // A device ten times as fast as a CPU worker.
                    let per_unit = if worker == Worker::Device { 10 } else { 100 };
                    std::thread::sleep(Duration::from_micros(per_unit * (units.end - units.start)));
                    Some(units.map(|u| (u, worker)).collect::<Vec<_>>())
                },
                |_, _, _| true,
            );
            let units: Vec<u64> = seen.iter().map(|&(u, _)| u).collect();
            assert_eq!(units, (2..500).collect::<Vec<_>>(), "{threads} {shared}");
            on_device += seen.iter().filter(|(_, w)| *w == Worker::Device).count();
            let cpu = seen.len() - on_device;
            assert_eq!(cpu > 0, shared && threads > 1, "{threads} {shared}");
        }
    }

    #[test]
    fn a_stopped_run_keeps_a_prefix_and_says_where_to_resume() {
        let mut seen = Vec::new();
        let next = run_units(
            0..u64::MAX,
            2,
            &mut Job::quiet(&AtomicBool::new(false)),
            &mut seen,
            |all: &mut Vec<u64>, unit: Vec<u64>| all.extend(unit),
            |unit| Some(vec![unit]),
            |_, all, _| all.len() < 10,
        );
        assert_eq!(seen, (0..next).collect::<Vec<_>>());
        assert!(next >= 10);
    }

    #[test]
    fn an_abandoned_unit_ends_the_run_and_nothing_after_it_merges() {
        for threads in 1..=3 {
            let mut seen = Vec::new();
            let next = run_units(
                0..1000,
                threads,
                &mut Job::quiet(&AtomicBool::new(false)),
                &mut seen,
                |all: &mut Vec<u64>, unit: Vec<u64>| all.extend(unit),
                |unit| (unit != 7).then(|| vec![unit]),
                |_, _, _| true,
            );
            assert_eq!((next, seen), (7, (0..7).collect::<Vec<_>>()), "{threads}");
        }
    }
}
