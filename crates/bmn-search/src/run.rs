//! The random search: deal `k` of a seed's stream is a pure function of (seed, k); units of
//! [`UNIT`] deals run through the shared batch loop (`play.rs`) on worker threads and merge
//! in unit order (`units.rs`).
//!
//! Results depend only on (seed, games): a run stopped early (time limit, Ctrl-C) keeps
//! exactly the units `0..n` that all finished, so its result equals a run of
//! `--games n * UNIT` whatever the thread count.

use std::sync::atomic::AtomicBool;

use bmn_core::{Player, Position};
use bmn_kernel::Kernel;

use crate::deals::DealSource;
use crate::play::{Deals, play_deals, two_hand_text};
use crate::summary::Summary;
use crate::units::run_units;

/// Games per unit of work: small enough to stop within milliseconds, large enough that
/// bookkeeping costs nothing.
pub const UNIT: u64 = 1 << 14;

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

/// The seed's stream of deals, player 1 leading every one.
impl Deals for SearchConfig {
    fn deal_len(&self) -> usize {
        self.source.len()
    }

    fn split(&self) -> usize {
        self.source.split()
    }

    fn fill(&self, first: u64, out: &mut [u8]) {
        self.source.deal_batch(self.seed, first, out);
    }

    fn position(&self, codes: &[u8]) -> Position {
        self.source.position(codes)
    }

    fn leader(&self) -> Player {
        Player(0)
    }

    fn deal_text(&self, codes: &[u8]) -> String {
        two_hand_text(codes, self.source.split())
    }
}

/// Plays deals `first..end` of the stream and sums them up.
pub fn play_range(config: &SearchConfig, first: u64, end: u64) -> Summary {
    let mut summary = Summary::new(config.top);
    play_deals(
        config,
        config.kernel,
        config.max_tricks,
        first,
        end,
        &mut summary,
    );
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
    let end_of = |unit: u64| games.map_or((unit + 1) * UNIT, |g| g.min((unit + 1) * UNIT));
    let mut merged = Summary::new(config.top);
    run_units(
        0,
        games.map(|g| g.div_ceil(UNIT)),
        threads,
        stop,
        &mut merged,
        Summary::merge,
        |unit| play_range(config, unit * UNIT, end_of(unit)),
        |summary, _| progress(summary),
    );
    merged
}
