//! Enumerating a range of deals: units of [`DEALS_PER_UNIT`] deals on threads, merged in order, so a
//! run can stop at any moment and resume from its last merged unit without losing or
//! double-counting a deal, and shards of one deck merge into the unsplit run's report.

use std::ops::Range;

use bmn_job::{Blocks, Claims, Job, Worker, run_unit_blocks};
use bmn_play::{DealIndex, Engine, Progress, Summary, play_deals};

use crate::deals::AllDeals;

/// Deals per unit of work: a few milliseconds on the fast kernels, so Ctrl-C, progress and
/// checkpoints are prompt, while the bookkeeping per unit costs nothing measurable.
pub const DEALS_PER_UNIT: u64 = 1 << 16;

/// Trick cap before a game is handed to exact cycle detection. Reduced decks' finite games
/// are far shorter than standard ones, so cycling deals are handed over sooner than with the
/// search's cap; any cap gives the same results (the hand-over is exact).
pub const MAX_TRICKS: u32 = 1000;

/// Units a range of `deals` deals is cut into.
pub fn units_for(deals: u64) -> u64 {
    deals.div_ceil(DEALS_PER_UNIT)
}

/// What to enumerate: a range of the deals of a deck, on a kernel (or the reference engine
/// for other penalty tables).
#[derive(Clone, Debug)]
pub struct Enumeration {
    pub deals: AllDeals,
    /// Deal ranks covered (a block, a shard of one, or all of them); at most `u64::MAX` deals
    /// (see [`Enumeration::len`]).
    pub range: Range<DealIndex>,
    pub engine: Engine,
    pub max_tricks: u32,
    /// Keep every cycling deal (Paulhus's Table 2), not only the distinct cycles.
    pub list_cycles: bool,
}

impl Enumeration {
    /// Deals in the range.
    ///
    /// # Panics
    /// If the range holds more than `u64::MAX` deals (a run's counts are `u64`; split it).
    pub fn len(&self) -> u64 {
        u64::try_from(self.range.end - self.range.start).expect("a run of at most 2^64 - 1 deals")
    }

    /// Whether the range is empty.
    pub fn is_empty(&self) -> bool {
        self.range.is_empty()
    }

    /// Units in the range.
    pub fn units(&self) -> u64 {
        units_for(self.len())
    }

    /// Deal ranks of unit `u`.
    fn unit_range(&self, unit: u64) -> Range<DealIndex> {
        let start = self.range.start + DealIndex::from(unit * DEALS_PER_UNIT);
        start..(start + DealIndex::from(DEALS_PER_UNIT)).min(self.range.end)
    }

    /// Deals covered by units `0..next_unit`.
    pub fn deals_done(&self, next_unit: u64) -> u64 {
        next_unit.saturating_mul(DEALS_PER_UNIT).min(self.len())
    }

    /// Whether every unit is done.
    pub fn is_complete(&self, progress: &Progress) -> bool {
        progress.next_unit >= self.units()
    }

    /// Nothing done yet.
    pub fn start(&self) -> Progress {
        Progress {
            next_unit: 0,
            summary: Summary::keeping(1, if self.list_cycles { usize::MAX } else { 0 }),
        }
    }

    /// How workers claim units ([`Engine::claims`]).
    pub fn claims(&self) -> Claims {
        self.engine.claims(DEALS_PER_UNIT)
    }

    /// Plays units `units` (consecutive, non-empty) of the range into a fresh summary, on
    /// the engine `worker` plays on.
    pub fn play_units(&self, units: Range<u64>, worker: Worker) -> Summary {
        let mut s = self.start().summary;
        let r = self.unit_range(units.start).start..self.unit_range(units.end - 1).end;
        play_deals(
            &self.deals,
            self.engine.on(worker),
            self.max_tricks,
            r.start,
            r.end,
            &mut s,
        );
        s
    }

    /// Plays units from `progress.next_unit` on, merging into `progress`, until the range is
    /// done, the job stops, or `report(job, summary, next_unit)` (called as units merge and
    /// every 200 ms, with what `progress` would then hold) returns false. (Durable runs go through
    /// `bmn_run::drive` with [`Self::play_units`] instead, which records as it goes.)
    pub fn run(
        &self,
        progress: &mut Progress,
        threads: usize,
        job: &mut Job,
        report: impl FnMut(&mut Job, &Summary, u64) -> bool,
    ) {
        let blocks = Blocks {
            first: progress.next_unit,
            end: Some(self.units()),
            claims: self.claims(),
        };
        progress.next_unit = run_unit_blocks(
            blocks,
            threads,
            job,
            &mut progress.summary,
            Summary::merge,
            |units, worker| Some(self.play_units(units, worker)),
            report,
        );
    }
}
