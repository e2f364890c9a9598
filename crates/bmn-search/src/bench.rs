//! Timing the reference engine and each kernel on the same deals (no printing: callers report).

use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use bmn_core::{Outcome, Player, Rules, play_out};
use bmn_job::Job;
use bmn_kernel::{DEFAULT_MAX_TRICKS, Kernel, KernelBuffers, Played, Shape};

use crate::deals::DealSource;
use crate::play::{BATCH, Engine, exact};
use crate::run::{SearchConfig, search};
use crate::summary::Summary;

/// One engine's run over the bench deals.
#[derive(Clone, Debug)]
pub struct Timing {
    pub engine: &'static str,
    pub games: usize,
    pub wall: Duration,
    /// Games whose result differs from the reference engine's.
    pub disagreements: usize,
}

impl Timing {
    pub fn games_per_second(&self) -> f64 {
        self.games as f64 / self.wall.as_secs_f64().max(1e-9)
    }
}

/// Deals `games` deals of `seed` into one buffer.
pub fn deal_all(source: &DealSource, seed: u64, games: usize) -> Vec<u8> {
    let mut deals = vec![0u8; games * source.len()];
    for (i, d) in deals.chunks_exact_mut(source.len()).enumerate() {
        source.deal(seed, i as u64, d);
    }
    deals
}

/// Splits `deals` into `threads` contiguous parts and runs `f(part, first game index)` on
/// each in parallel; the results in order.
fn parallel<R: Send>(
    deals: &[u8],
    len: usize,
    threads: usize,
    f: impl Fn(&[u8], usize) -> R + Sync,
) -> Vec<R> {
    let games = deals.len() / len;
    let per = games.div_ceil(threads.max(1)).max(1);
    std::thread::scope(|scope| {
        let handles: Vec<_> = deals
            .chunks(per * len)
            .enumerate()
            .map(|(k, part)| {
                let f = &f;
                scope.spawn(move || f(part, k * per))
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("bench thread"))
            .collect()
    })
}

/// The reference engine (bmn-core, card by card with Brent's cycle detection) on every deal;
/// also returns its outcomes, which the kernels are checked against. `None` once the job is
/// stopped (the slowest engine: 150,000 games a second a core).
pub fn time_reference(
    source: &DealSource,
    deals: &[u8],
    threads: usize,
    job: &mut Job,
) -> Option<(Timing, Vec<Outcome>)> {
    let stop = job.stop_flag();
    let len = source.len();
    let started = Instant::now();
    let parts = parallel(deals, len, threads, |part, _| {
        let mut out = Vec::with_capacity(part.len() / len);
        for chunk in part.chunks(BATCH * len) {
            if stop.load(Ordering::Relaxed) {
                return None;
            }
            counted_reference(source, chunk, &mut out);
        }
        Some(out)
    });
    let outcomes: Vec<Outcome> = parts.into_iter().collect::<Option<Vec<_>>>()?.concat();
    let timing = Timing {
        engine: "reference",
        games: deals.len() / len,
        wall: started.elapsed(),
        disagreements: 0,
    };
    Some((timing, outcomes))
}

/// A kernel on every deal, `BATCH` deals a call as the search plays them, capped games
/// handed to exact cycle detection, each result checked against `reference` as it comes
/// (storing every kernel's results made the big runs memory-bound: 1e6 deals halved the
/// avx512 row's rate). `None` once the job is stopped.
pub fn time_kernel(
    source: &DealSource,
    deals: &[u8],
    threads: usize,
    kernel: Kernel,
    max_tricks: u32,
    reference: &[Outcome],
    job: &mut Job,
) -> Option<Timing> {
    let stop = job.stop_flag();
    let len = source.len();
    let started = Instant::now();
    let disagreements = parallel(deals, len, threads, |part, first| {
        let mut out = vec![Played::default(); BATCH];
        let mut buffers = KernelBuffers::default();
        let mut wrong = 0;
        for (b, batch) in part.chunks(BATCH * len).enumerate() {
            if stop.load(Ordering::Relaxed) {
                return None;
            }
            let n = batch.len() / len;
            counted_kernel(
                source,
                kernel,
                &mut buffers,
                batch,
                max_tricks,
                &mut out[..n],
            );
            for (i, (d, &o)) in batch.chunks_exact(len).zip(&out[..n]).enumerate() {
                let want = &reference[first + b * BATCH + i];
                wrong += usize::from(&exact(o, Player(0), || source.position(d)) != want);
            }
        }
        Some(wrong)
    })
    .into_iter()
    .sum::<Option<usize>>()?;
    Some(Timing {
        engine: kernel.name(),
        games: deals.len() / len,
        wall: started.elapsed(),
        disagreements,
    })
}

/// The reference engine on one batch of deals, its outcomes appended to `out`. Never inlined:
/// `bmn bench --instructions` has callgrind count instructions inside the `counted_*`
/// functions only.
#[inline(never)]
pub fn counted_reference(source: &DealSource, deals: &[u8], out: &mut Vec<Outcome>) {
    out.extend(
        deals
            .chunks_exact(source.len())
            .map(|d| play_out(&Rules::STANDARD, &source.position(d))),
    );
}

/// `kernel` on one batch of deals, as the search plays it (capped games not yet handed
/// over). Never inlined, as [`counted_reference`].
#[inline(never)]
pub fn counted_kernel(
    source: &DealSource,
    kernel: Kernel,
    buffers: &mut KernelBuffers,
    deals: &[u8],
    max_tricks: u32,
    out: &mut [Played],
) {
    buffers.play(kernel, deals, source.len(), source.split(), max_tricks, out);
}

/// Plays every deal of `deals` on `engine` (`reference` or a kernel's name), a batch at a
/// time through the `counted_*` functions and nothing else: what `bmn bench --instructions`
/// runs under callgrind. False for an engine this CPU does not run.
pub fn play_counted(source: &DealSource, deals: &[u8], engine: &str) -> bool {
    let chunks = deals.chunks(BATCH * source.len());
    if engine == "reference" {
        let mut out = Vec::with_capacity(BATCH);
        for chunk in chunks {
            out.clear();
            counted_reference(source, chunk, &mut out);
        }
        return true;
    }
    let shape = Shape::of_batch(deals, source.len(), source.split(), DEFAULT_MAX_TRICKS);
    let Some(kernel) = Kernel::all_for(&shape)
        .into_iter()
        .find(|k| k.name() == engine)
    else {
        return false;
    };
    let mut out = vec![Played::default(); BATCH];
    let mut buffers = KernelBuffers::default();
    for chunk in chunks {
        let n = chunk.len() / source.len();
        let out = &mut out[..n];
        counted_kernel(source, kernel, &mut buffers, chunk, DEFAULT_MAX_TRICKS, out);
    }
    true
}

/// The whole search pipeline (dealing, kernel, hand-over of capped games, merging) on deals
/// `0..games` of `seed`, the same deals [`deal_all`] gives: what `bmn search` costs per game.
pub fn time_search(
    source: &DealSource,
    seed: u64,
    games: usize,
    threads: usize,
    engine: Engine,
    max_tricks: u32,
    job: &mut Job,
) -> (Duration, Summary) {
    let config = SearchConfig {
        seed,
        source: source.clone(),
        top: 1,
        engine,
        max_tricks,
    };
    let started = Instant::now();
    let summary = search(&config, Some(games as u64), threads, job, |_, _| true);
    (started.elapsed(), summary)
}

/// Whether a search's totals (wins, cards, tricks, cycling games) are those of `outcomes`.
pub fn summary_matches(summary: &Summary, outcomes: &[Outcome]) -> bool {
    let mut wins = [0u64; 2];
    let (mut cards, mut tricks, mut cycling) = (0u128, 0u128, 0u64);
    for o in outcomes {
        match o {
            Outcome::Finished {
                winner,
                cards: c,
                tricks: t,
            } => {
                wins[winner.index()] += 1;
                cards += u128::from(*c);
                tricks += u128::from(*t);
            }
            Outcome::Cycle(_) => cycling += 1,
        }
    }
    summary.games == outcomes.len() as u64
        && (1..=2).all(|p| summary.wins_of(p) == wins[p - 1])
        && summary.total_cards == cards
        && summary.total_tricks == tricks
        && summary.cycling == cycling
}
