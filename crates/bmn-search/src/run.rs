//! The search driver: units of deal indices played on worker threads, merged in index order.
//!
//! Results depend only on (seed, games): deal `k` is a pure function of (seed, k), and a run
//! stopped early (time limit, Ctrl-C) keeps exactly the units `0..n` that all finished, so its
//! result equals a run of `--games n * UNIT` whatever the thread count.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc;
use std::time::Duration;

use bmn_core::{Kind, Outcome as Exact, Player, Position, Rules, play_out};
use bmn_kernel::{Kernel, Outcome};

use crate::deals::DealSource;
use crate::summary::{FoundCycle, Summary};

/// Games per unit of work: small enough to stop within milliseconds, large enough that
/// bookkeeping costs nothing.
pub const UNIT: u64 = 1 << 14;

/// Games dealt and played per kernel call. Larger batches shorten the lanes' drain (the
/// steps after a batch's last deal is loaded, while a few long games finish with the other
/// lanes idle); 4096 deals are 213 KB, still in L2. Measured (search 3e6 games, 1 thread):
/// 1024 gave 2.62-2.74, 4096 2.65-2.79 M games/s: within noise, kept for the shorter drain.
const BATCH: usize = 4096;

/// What to search.
#[derive(Clone, Debug)]
pub struct SearchConfig {
    pub seed: u64,
    pub source: DealSource,
    /// How many of the longest games to keep.
    pub top: usize,
    pub kernel: Kernel,
    /// Games still running after this many tricks go to exact cycle detection.
    pub max_tricks: u32,
}

/// A game's exact result: the kernel's when it finished; after a cap, the reference engine's
/// from `start` (asked for only then).
pub fn exact_outcome(kernel: Outcome, start: impl FnOnce() -> Position) -> Exact {
    match kernel {
        Outcome::Finished {
            winner,
            cards,
            tricks,
        } => Exact::Finished {
            winner: Player(usize::from(winner)),
            cards: u64::from(cards),
            tricks: u64::from(tricks),
        },
        Outcome::Capped { .. } => play_out(&Rules::STANDARD, &start()),
    }
}

/// A dealt deal as a bmn-core position, player 1 leading.
pub fn position(source: &DealSource, codes: &[u8]) -> Position {
    let hand = |h: &[u8]| {
        h.iter()
            .map(|&c| Kind::from_index(usize::from(c)).expect("code"))
            .collect()
    };
    let (p1, p2) = codes.split_at(source.split());
    Position::new_deal(vec![hand(p1), hand(p2)], Player(0))
        .expect("a dealt deal is a valid position")
}

/// Plays deals `first..end` of the stream and sums them up.
pub fn play_range(config: &SearchConfig, first: u64, end: u64) -> Summary {
    let source = &config.source;
    let len = source.len();
    let mut summary = Summary::new(config.top);
    let mut deals = vec![0u8; BATCH * len];
    let mut outcomes = vec![Outcome::default(); BATCH];
    let mut start = first;
    while start < end {
        let n = (end - start).min(BATCH as u64) as usize;
        for (i, deal) in deals[..n * len].chunks_exact_mut(len).enumerate() {
            source.deal(config.seed, start + i as u64, deal);
        }
        bmn_kernel::play_many(
            config.kernel,
            &deals[..n * len],
            len,
            source.split(),
            config.max_tricks,
            &mut outcomes[..n],
        );
        for (i, (codes, &outcome)) in deals.chunks_exact(len).zip(&outcomes[..n]).enumerate() {
            let index = start + i as u64;
            match exact_outcome(outcome, || position(source, codes)) {
                Exact::Finished {
                    winner,
                    cards,
                    tricks,
                } => {
                    summary.add_finished(index, cards, tricks, winner.number(), || {
                        source.deal_text(codes)
                    });
                }
                Exact::Cycle(c) => summary.add_cycle(FoundCycle {
                    index,
                    deal: source.deal_text(codes),
                    preperiod: c.preperiod,
                    period: c.period,
                    cycle_id: c.id,
                    representative: c.representative.deal_text(),
                    representative_leader: c.representative.leader().number(),
                }),
            }
        }
        start += n as u64;
    }
    summary
}

/// Runs `games` games (or until `stop` is set, if `None`) on `threads` threads. `progress` is
/// called with the merged summary as units finish (and at least every 200 ms); returning
/// `false` stops the search, as does setting `stop` (e.g. from a Ctrl-C handler).
pub fn search(
    config: &SearchConfig,
    games: Option<u64>,
    threads: usize,
    stop: &AtomicBool,
    mut progress: impl FnMut(&Summary) -> bool,
) -> Summary {
    let units = games.map_or(u64::MAX, |g| g.div_ceil(UNIT));
    let end_of = |unit: u64| games.map_or((unit + 1) * UNIT, |g| g.min((unit + 1) * UNIT));
    let next = AtomicU64::new(0);
    let mut merged = Summary::new(config.top);
    std::thread::scope(|scope| {
        let (tx, rx) = mpsc::channel::<(u64, Summary)>();
        for _ in 0..threads.max(1) {
            let tx = tx.clone();
            let next = &next;
            scope.spawn(move || {
                while !stop.load(Ordering::Relaxed) {
                    let unit = next.fetch_add(1, Ordering::Relaxed);
                    if unit >= units {
                        break;
                    }
                    let summary = play_range(config, unit * UNIT, end_of(unit));
                    if tx.send((unit, summary)).is_err() {
                        break;
                    }
                }
            });
        }
        drop(tx);
        // Units arrive in any order; merge only the contiguous prefix so the result is the
        // same as a single-threaded run over the same units.
        let mut pending = BTreeMap::new();
        let mut next_to_merge = 0u64;
        loop {
            let received = rx.recv_timeout(Duration::from_millis(200));
            let done = matches!(received, Err(mpsc::RecvTimeoutError::Disconnected));
            if let Ok((unit, summary)) = received {
                pending.insert(unit, summary);
                while let Some(summary) = pending.remove(&next_to_merge) {
                    merged.merge(summary);
                    next_to_merge += 1;
                }
            }
            if !progress(&merged) {
                stop.store(true, Ordering::Relaxed);
            }
            if done {
                break;
            }
        }
    });
    merged
}
