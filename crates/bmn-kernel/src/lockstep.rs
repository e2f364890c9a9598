//! Batch entry point, kernel dispatch and the lockstep driver: `N` games advanced together,
//! one event (a penalty card, a payoff or a player running out) per game per step.
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

use crate::Outcome;
use crate::queue::QueueLanes;

/// Which kernel [`play_many`] runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kernel {
    /// The scalar trick-level kernel, one game at a time (safe, any CPU).
    Portable,
    /// The lockstep kernel compiled for the baseline target (safe, any CPU).
    Lockstep,
    /// The lockstep kernel compiled with AVX2 (x86-64 only, chosen at run time).
    Avx2,
    /// The lockstep kernel compiled with AVX-512 F/CD/VL/DQ/BW (x86-64 only, run time).
    Avx512,
}

impl Kernel {
    /// Every kernel this CPU can run, slowest first.
    pub fn all_available() -> Vec<Kernel> {
        let mut v = vec![Kernel::Portable, Kernel::Lockstep];
        if Kernel::Avx2.is_available() {
            v.push(Kernel::Avx2);
        }
        if Kernel::Avx512.is_available() {
            v.push(Kernel::Avx512);
        }
        v
    }

    /// The fastest kernel this CPU can run: AVX-512 where there is one, else the portable
    /// scalar kernel, which beats the AVX2 and baseline lanes (kernel_speed 1e6 standard
    /// deals on Zen 4, CPU time: portable 1.90-1.95, avx2 1.1-1.5, lockstep 0.65 M games/s;
    /// AVX2 has no vector zero count, so each event costs several emulated ones).
    pub fn best_available() -> Kernel {
        if Kernel::Avx512.is_available() {
            Kernel::Avx512
        } else {
            Kernel::Portable
        }
    }

    /// Whether this CPU can run the kernel.
    pub fn is_available(self) -> bool {
        match self {
            Kernel::Portable | Kernel::Lockstep => true,
            #[cfg(target_arch = "x86_64")]
            Kernel::Avx2 => {
                std::arch::is_x86_feature_detected!("avx2")
                    && std::arch::is_x86_feature_detected!("bmi1")
                    && std::arch::is_x86_feature_detected!("bmi2")
                    && std::arch::is_x86_feature_detected!("lzcnt")
                    && std::arch::is_x86_feature_detected!("popcnt")
            }
            #[cfg(target_arch = "x86_64")]
            Kernel::Avx512 => {
                std::arch::is_x86_feature_detected!("avx512f")
                    && std::arch::is_x86_feature_detected!("avx512cd")
                    && std::arch::is_x86_feature_detected!("avx512vl")
                    && std::arch::is_x86_feature_detected!("avx512dq")
                    && std::arch::is_x86_feature_detected!("avx512bw")
                    && std::arch::is_x86_feature_detected!("bmi1")
                    && std::arch::is_x86_feature_detected!("bmi2")
                    && std::arch::is_x86_feature_detected!("lzcnt")
                    && std::arch::is_x86_feature_detected!("popcnt")
            }
            #[cfg(not(target_arch = "x86_64"))]
            Kernel::Avx2 | Kernel::Avx512 => false,
        }
    }

    /// Short name for reports.
    pub fn name(self) -> &'static str {
        match self {
            Kernel::Portable => "portable",
            Kernel::Lockstep => "lockstep",
            Kernel::Avx2 => "avx2",
            Kernel::Avx512 => "avx512",
        }
    }
}

/// Plays every deal of `deals` (consecutive deals of `deal_len` cards; the first `split`
/// cards of each go to player 1, the rest to player 2; player 1 leads) with at most
/// `max_tricks` tricks each, writing one [`Outcome`] per deal to `out`. Every kernel gives
/// the same results as [`crate::play`].
///
/// # Panics
/// If `deal_len` is 0 or above 64, `split > deal_len`, `deals.len() != out.len() * deal_len`,
/// a code is above 5, or `kernel` is not available on this CPU.
pub fn play_many(
    kernel: Kernel,
    deals: &[u8],
    deal_len: usize,
    split: usize,
    max_tricks: u32,
    out: &mut [Outcome],
) {
    assert!(
        (1..=crate::MAX_CARDS).contains(&deal_len) && split <= deal_len,
        "bad deal shape"
    );
    assert_eq!(
        deals.len(),
        out.len() * deal_len,
        "deals and out must match"
    );
    // One pass over the bytes (vectorized) so the kernels can skip per-card checks.
    assert!(
        deals.iter().fold(0u8, |a, &c| a.max(c)) <= crate::MAX_CODE,
        "card code above 5"
    );
    assert!(
        kernel.is_available(),
        "kernel {} not available on this CPU",
        kernel.name()
    );
    let job = Job {
        deals,
        deal_len,
        split,
        max_tricks,
    };
    match kernel {
        Kernel::Portable if job.fits_queue() && split != 0 && split != deal_len => {
            for (d, o) in deals.chunks_exact(deal_len).zip(out.iter_mut()) {
                *o = crate::scalar::play_queue_deal(&d[..split], &d[split..], 0, max_tricks);
            }
        }
        Kernel::Portable => {
            for (d, o) in deals.chunks_exact(deal_len).zip(out.iter_mut()) {
                *o = crate::play(&d[..split], &d[split..], 0, max_tricks);
            }
        }
        Kernel::Lockstep => dispatch::<LANES_BASELINE, false>(&job, out),
        #[cfg(target_arch = "x86_64")]
        // SAFETY: `kernel.is_available()` was asserted above, so the CPU has AVX2.
        Kernel::Avx2 => unsafe { run_avx2(&job, out) },
        #[cfg(target_arch = "x86_64")]
        // SAFETY: `kernel.is_available()` was asserted above, so the CPU has the AVX-512
        // subsets the function is compiled for.
        Kernel::Avx512 => unsafe { run_avx512(&job, out) },
        #[cfg(not(target_arch = "x86_64"))]
        Kernel::Avx2 | Kernel::Avx512 => unreachable!("not available"),
    }
}

/// Lanes per batch. Measured on Zen 4 (1e6 standard deals): AVX-512 8 / 16 / 32 lanes
/// gave 2.07 / 2.18 / 1.96 M games/s; AVX2 4 / 8 / 16 gave 1.02 / 0.96-1.03 / 0.97.
/// The baseline build gains nothing from more lanes (no vector shifts or tzcnt in SSE2), so
/// it keeps a few lanes to exercise the lane bookkeeping.
const LANES_AVX512: usize = 16;
const LANES_AVX2: usize = 8;
const LANES_BASELINE: usize = 4;

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,bmi1,bmi2,lzcnt,popcnt")]
fn run_avx2(job: &Job, out: &mut [Outcome]) {
    // The queue lanes, as everywhere: the former plane lanes measured the same within noise
    // (kernel_speed 1e6 deals, same session: queue 1.11-1.31, planes 0.90-1.53 M games/s).
    dispatch::<LANES_AVX2, true>(job, out)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512cd,avx512vl,avx512dq,avx512bw,bmi1,bmi2,lzcnt,popcnt")]
fn run_avx512(job: &Job, out: &mut [Outcome]) {
    // Deals of at most 21 penalty cards go to the register-resident streaming kernels of
    // `queue::avx512` (kernel_speed 1e6 standard deals, CPU time, same session: 2.67-2.72
    // -> 3.49-3.68 M games/s for the first register-resident driver; every deal of
    // 2J,2Q,2K,2A,16- on two threads: 202-209 -> 162 CPU-s streaming, 117 with the 32-bit
    // lanes); the auto-vectorised lanes stay for larger decks, huge caps, odd shapes (an
    // empty hand, a cap of 0) and CPUs without VPOPCNTDQ or VBMI2.
    if (1..=crate::queue::avx512::MAX_PACKED_TRICKS).contains(&job.max_tricks)
        && 0 < job.split
        && job.split < job.deal_len
        && std::arch::is_x86_feature_detected!("avx512vpopcntdq")
        && std::arch::is_x86_feature_detected!("avx512vbmi2")
        // SAFETY: AVX-512 F/BW/CD, BMI2 and POPCNT are enabled on this function (checked by
        // `Kernel::is_available`), VPOPCNTDQ and VBMI2 were detected just above.
        && unsafe { crate::queue::avx512::run_stream(job, out) }
    {
        return;
    }
    dispatch::<LANES_AVX512, true>(job, out)
}

/// Runs the batch on the queue lanes when every deal fits them (every deal of at most 21
/// penalty cards, so every standard deal), else one game at a time on the scalar kernel.
/// Plane-encoded lanes for the rest were a second copy of the step for a rare case: on
/// 64-card decks with many penalty cards the scalar kernel is the one that runs.
#[inline(always)]
fn dispatch<const N: usize, const PEXT: bool>(job: &Job, out: &mut [Outcome]) {
    if job.fits_queue() {
        run::<N, QueueLanes<N, PEXT>>(job, out)
    } else {
        for (d, o) in job.deals.chunks_exact(job.deal_len).zip(out.iter_mut()) {
            *o = crate::play(&d[..job.split], &d[job.split..], 0, job.max_tricks);
        }
    }
}

/// A validated batch.
pub(crate) struct Job<'a> {
    pub(crate) deals: &'a [u8],
    pub(crate) deal_len: usize,
    pub(crate) split: usize,
    pub(crate) max_tricks: u32,
}

impl Job<'_> {
    /// Whether every deal has at most [`crate::queue::MAX_PENALTY`] penalty cards: a byte
    /// sum (which vectorizes) rather than `filter().count()` (which did not: 5 instructions
    /// a card, 11% of an exhaustive run's instructions under callgrind). Asked only by the
    /// paths that need it: the AVX-512 streaming kernel counts while it encodes.
    pub(crate) fn fits_queue(&self) -> bool {
        self.deals.chunks_exact(self.deal_len).all(|d| {
            d.iter().map(|&c| u8::from(c != 0)).sum::<u8>() as usize <= crate::queue::MAX_PENALTY
        })
    }
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
fn run<const N: usize, L: LaneSet>(job: &Job, out: &mut [Outcome]) {
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
                Outcome::Finished {
                    winner: ((e >> 1) & 1) as u8,
                    cards,
                    tricks,
                }
            } else {
                Outcome::Capped { cards, tricks }
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
pub(crate) fn next_deal(job: &Job, out: &mut [Outcome], next: &mut usize) -> Option<usize> {
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
