//! The random search: deal `k` of a seed's stream is a pure function of (seed, k); units of
//! [`GAMES_PER_UNIT`] deals run through the shared batch loop (`play.rs`) on worker threads and merge
//! in unit order (`units.rs`).
//!
//! Results depend only on (seed, games): a run stopped early (time limit, Ctrl-C) keeps
//! exactly the units `0..n` that all finished, so its result equals a run of
//! `--games n * GAMES_PER_UNIT` whatever the thread count.

use std::ops::Range;

use bmn_core::{Player, Position};
use bmn_job::{Blocks, Job, Worker, run_unit_blocks};
use bmn_kernel::Marked;

use crate::deals::DealSource;
use crate::device::DeviceBatch;
use crate::play::{DealIndex, Deals, Engine, Tally, play_deals, two_hand_text};
use crate::summary::Summary;

/// Games per unit of work: small enough to stop within milliseconds, large enough that
/// bookkeeping costs nothing.
pub const GAMES_PER_UNIT: u64 = 1 << 14;

/// What to search.
#[derive(Clone, Debug)]
pub struct SearchConfig {
    pub seed: u64,
    pub source: DealSource,
    /// How many of the longest games to keep.
    pub top: usize,
    pub engine: Engine,
    /// Games still running after this many tricks go to exact cycle detection.
    pub max_tricks: u32,
}

/// The seed's stream of deals, player 1 leading every one.
impl Deals for SearchConfig {
    fn deal_len(&self) -> usize {
        self.source.len()
    }

    fn split(&self) -> usize {
        self.source.split()
    }

    fn fill(&self, first: DealIndex, out: &mut [u8]) {
        // Game indices of a seed's stream are below 2^64 (`Units` counts them in u64).
        self.source.deal_batch(self.seed, first as u64, out);
    }

    fn fill_marked(&self, first: DealIndex, out: &mut Marked) -> bool {
        self.source.deal_batch_marked(self.seed, first as u64, out)
    }

    fn position(&self, codes: &[u8]) -> Position {
        self.source.position(codes)
    }

    fn leader(&self) -> Player {
        Player(0)
    }

    fn players(&self) -> usize {
        self.source.players()
    }

    fn device_deals(&self, first: DealIndex, count: usize, cap: u32) -> Option<DeviceBatch<'_>> {
        self.source
            .device_deals(self.seed, first as u64, count, cap)
    }

    fn deal_text(&self, codes: &[u8]) -> String {
        if self.source.players() == 2 {
            two_hand_text(codes, self.source.split())
        } else {
            self.source.position(codes).deal_text()
        }
    }
}

/// Plays deals `first..end` of the stream and sums them up.
pub fn play_range(config: &SearchConfig, first: u64, end: u64) -> Summary {
    let mut summary = Summary::new(config.top);
    play_into(config, Worker::Device, first, end, &mut summary);
    summary
}

/// Plays deals `first..end` of the stream into `tally`, on the engine `worker` plays on (see
/// [`Engine::on`]).
pub fn play_into(
    config: &SearchConfig,
    worker: Worker,
    first: u64,
    end: u64,
    tally: &mut impl Tally,
) {
    play_deals(
        config,
        config.engine.on(worker),
        config.max_tricks,
        DealIndex::from(first),
        DealIndex::from(end),
        tally,
    );
}

/// Runs `games` games (or until the job stops, if `None`) on `threads` threads. `progress` is
/// called with the job and the merged summary as units finish (and at least every 200 ms);
/// returning `false` stops the search, as does the job's stop (e.g. Ctrl-C).
pub fn search(
    config: &SearchConfig,
    games: Option<u64>,
    threads: usize,
    job: &mut Job,
    progress: impl FnMut(&mut Job, &Summary) -> bool,
) -> Summary {
    let fresh = Summary::new(config.top);
    stream(config, games, threads, job, &fresh, progress)
}

/// [`search`] into any tally: units of the stream played into copies of `fresh` on worker
/// threads and merged in unit order, so the result is a function of (seed, games) alone.
pub fn stream<T: Tally + Clone + Send + Sync>(
    config: &SearchConfig,
    games: Option<u64>,
    threads: usize,
    job: &mut Job,
    fresh: &T,
    mut progress: impl FnMut(&mut Job, &T) -> bool,
) -> T {
    let mut merged = fresh.clone();
    let units = Units::all(games);
    stream_units(
        config,
        units,
        threads,
        job,
        &mut merged,
        fresh,
        |job, t, _| progress(job, t),
    );
    merged
}

/// Which units of a run of `games` games (`None`: unbounded) to play: `first..end` (`end`
/// `None`: until stopped). A shard is a slice of a run's units; a resumed run starts at its
/// first unfinished unit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Units {
    pub games: Option<u64>,
    pub first: u64,
    pub end: Option<u64>,
}

impl Units {
    /// Every unit of a run of `games` games.
    pub fn all(games: Option<u64>) -> Units {
        Units {
            games,
            first: 0,
            end: games.map(units_of),
        }
    }

    /// Games `first..end` of unit `unit`.
    pub fn games_of(&self, unit: u64) -> Range<u64> {
        let end = (unit + 1) * GAMES_PER_UNIT;
        unit * GAMES_PER_UNIT..self.games.map_or(end, |g| g.min(end))
    }

    /// Games of units `units` (consecutive, non-empty).
    pub fn games_of_units(&self, units: Range<u64>) -> Range<u64> {
        self.games_of(units.start).start..self.games_of(units.end - 1).end
    }

    /// Games in units `first..next` (the units done when `next` is the first one not done).
    pub fn games_before(&self, next: u64) -> u64 {
        if next <= self.first {
            return 0;
        }
        self.games_of(next - 1).end - self.first * GAMES_PER_UNIT
    }
}

/// Units of work in a run of `games` games (`GAMES_PER_UNIT` games each, the last one short).
pub fn units_of(games: u64) -> u64 {
    games.div_ceil(GAMES_PER_UNIT)
}

/// Plays `units`, merging each into `merged` (a copy of `fresh` per unit, joined with
/// [`Tally::merge`]) in unit order; `progress(job, merged, next)` is called as units merge and
/// returning false stops. Returns the first unit not merged: `units.end` when all were.
pub fn stream_units<T: Tally + Clone + Send + Sync>(
    config: &SearchConfig,
    units: Units,
    threads: usize,
    job: &mut Job,
    merged: &mut T,
    fresh: &T,
    progress: impl FnMut(&mut Job, &T, u64) -> bool,
) -> u64 {
    let blocks = Blocks {
        first: units.first,
        end: units.end,
        claims: config.engine.claims(GAMES_PER_UNIT),
    };
    run_unit_blocks(
        blocks,
        threads,
        job,
        merged,
        T::merge,
        |block, worker| {
            let mut tally = fresh.clone();
            let r = units.games_of_units(block);
            play_into(config, worker, r.start, r.end, &mut tally);
            Some(tally)
        },
        progress,
    )
}
