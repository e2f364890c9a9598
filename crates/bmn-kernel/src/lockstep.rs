//! The lockstep driver: `N` games advanced together, one event (a penalty card, a payoff or
//! a player running out) per game per step. Which kernel runs a batch is `choose.rs`'s table.
//!
//! Why: the scalar kernel's per-event branches are close to coin flips (who meets a penalty
//! card first, whether a debt is paid off), so it spends most of its time on mispredictions
//! and on one long dependency chain per game. In lockstep every step is straight-line code
//! over arrays of lanes with selects instead of branches: independent games overlap in the
//! pipeline. The lanes and their step are `queue.rs`'s: `QueueLanes`, one safe source the
//! compiler vectorizes (compiled for the baseline target and under `#[target_feature]` for
//! AVX2 and AVX-512, chosen at run time with `is_x86_feature_detected!`), and `avx512`, the
//! same step written with intrinsics, in 64-bit and (for decks of at most 30 cards) 32-bit
//! lanes. Only the calls into `#[target_feature]` code are `unsafe` here.
//!
//! Here a lane whose game ends (or reaches the trick cap) is reported and refilled with the
//! next deal in a short scalar pass, about once per hundred steps per lane on standard
//! deals; `avx512` streams deals in and results out with vector instructions instead,
//! which is what short games (reduced decks: a refill every 25 steps) need.

use crate::Played;

/// A validated batch.
pub(crate) struct Batch<'a> {
    /// The deals' codes, `deal_len` a deal; empty where `marked` holds the deals.
    pub(crate) deals: &'a [u8],
    /// The deals as their penalty masks and penalty codes (3 bits each, in order), for the
    /// streaming kernels alone (`KernelBuffers::play_marked`).
    pub(crate) marked: Option<&'a crate::Marked>,
    pub(crate) deal_len: usize,
    pub(crate) split: usize,
    pub(crate) max_tricks: u32,
}

/// `x << k`, 0 for `k >= 64` (what `vpsllvq` does).
#[inline(always)]
pub(crate) fn shl(x: u64, k: u64) -> u64 {
    if k < 64 { x << k } else { 0 }
}

/// `x >> k`, 0 for `k >= 64` (what `vpsrlvq` does).
#[inline(always)]
pub(crate) fn shr(x: u64, k: u64) -> u64 {
    if k < 64 { x >> k } else { 0 }
}

/// What the driver needs from a lane representation.
pub(crate) trait LaneSet {
    /// Empty lanes.
    fn new() -> Self;
    /// Puts a fresh deal (both hands non-empty) into lane `i`, player 1 leading.
    fn load(&mut self, i: usize, p1: &[u8], p2: &[u8]);
    /// Advances every lane by one event; returns the lanes with an event, bit `i` for lane
    /// `i` (so at most 64 lanes).
    fn step(&mut self, max_tricks: u64) -> u64;
    /// Lane `i` after a step: (event, cards, tricks); the event is 0, or `1 | winner << 1`
    /// for a finished game, or 4 if capped.
    fn report(&self, i: usize) -> (u64, u64, u64);
}

/// The lockstep driver: fills the lanes, steps them, reports and refills finished lanes.
#[inline(always)]
pub(crate) fn run<const N: usize, L: LaneSet>(job: &Batch, out: &mut [Played]) {
    const { assert!(N <= 64, "one bit per lane in a u64") };
    let mut lanes = L::new();
    // Which deal each lane plays; `usize::MAX` for a lane with nothing left to play.
    let mut slot = [usize::MAX; N];
    let mut next = 0usize;
    let mut live = 0usize;
    for (i, s) in slot.iter_mut().enumerate() {
        if let Some(d) = next_deal(job, out, &mut next) {
            lanes.load(
                i,
                &job.deals[d * job.deal_len..][..job.split],
                &job.deals[d * job.deal_len + job.split..][..job.deal_len - job.split],
            );
            *s = d;
            live += 1;
        }
    }
    let max = u64::from(job.max_tricks);
    while live > 0 {
        // Visiting only the lanes with an event (not scanning all `N`): +5% on AVX-512.
        let mut events = lanes.step(max);
        while events != 0 {
            let i = events.trailing_zeros() as usize;
            events &= events - 1;
            let (e, cards, tricks) = lanes.report(i);
            if slot[i] == usize::MAX {
                continue;
            }
            let (cards, tricks) = (cards as u32, tricks as u32);
            out[slot[i]] = if e & 1 != 0 {
                Played::Finished {
                    winner: ((e >> 1) & 1) as u8,
                    cards,
                    tricks,
                }
            } else {
                Played::Capped { cards, tricks }
            };
            if let Some(d) = next_deal(job, out, &mut next) {
                let deal = &job.deals[d * job.deal_len..][..job.deal_len];
                lanes.load(i, &deal[..job.split], &deal[job.split..]);
                slot[i] = d;
            } else {
                slot[i] = usize::MAX;
                live -= 1;
            }
        }
    }
}

/// Index of the next deal that needs playing; deals that end before their first trick
/// (an empty hand, or a cap of 0) are answered here directly.
#[inline(always)]
pub(crate) fn next_deal(job: &Batch, out: &mut [Played], next: &mut usize) -> Option<usize> {
    while *next < out.len() {
        let d = *next;
        *next += 1;
        if job.max_tricks == 0 || job.split == 0 || job.split == job.deal_len {
            let deal = &job.deals[d * job.deal_len..][..job.deal_len];
            out[d] = crate::play(&deal[..job.split], &deal[job.split..], 0, job.max_tricks);
            continue;
        }
        return Some(d);
    }
    None
}
