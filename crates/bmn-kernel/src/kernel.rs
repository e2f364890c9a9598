//! [`Kernel`] and [`play_many`]: which kernel plays a batch of deals, chosen at run time from
//! what this CPU can run, and the dispatch to each (the lockstep lanes of `lockstep.rs` and
//! `queue.rs`, the streaming kernels of `queue/avx512.rs` and `queue/avx2.rs`, or the scalar
//! kernel).

use crate::Played;
use crate::lockstep::{Batch, run};
use crate::queue::QueueLanes;

/// Which kernel [`play_many`] runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kernel {
    /// The scalar trick-level kernel, one game at a time (safe, any CPU).
    Portable,
    /// The lockstep kernel compiled for the baseline target (safe, any CPU).
    Lockstep,
    /// The AVX2 streaming kernel, four games a vector (x86-64 only, chosen at run time);
    /// decks of more than 52 cards or 17 penalty cards play on the portable path.
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

    /// The fastest kernel this CPU can run: AVX-512, else AVX2, else the portable scalar
    /// kernel (on Zen 4, `kernel_speed` 1e6 standard deals, one thread: avx512 4.2, avx2 3.1-3.3,
    /// portable 2.0, lockstep 0.66 M games/s; BENCHMARKS.md).
    pub fn best_available() -> Kernel {
        if Kernel::Avx512.is_available() {
            Kernel::Avx512
        } else if Kernel::Avx2.is_available() {
            Kernel::Avx2
        } else {
            Kernel::Portable
        }
    }

    /// Whether this CPU can run the kernel (and `BMN_SIMD` lets it: `simd.rs`).
    pub fn is_available(self) -> bool {
        let limit = crate::SimdLimit::current();
        match self {
            Kernel::Portable | Kernel::Lockstep => true,
            #[cfg(target_arch = "x86_64")]
            Kernel::Avx2 => {
                limit >= crate::SimdLimit::Avx2
                    && std::arch::is_x86_feature_detected!("avx2")
                    && std::arch::is_x86_feature_detected!("bmi1")
                    && std::arch::is_x86_feature_detected!("bmi2")
                    && std::arch::is_x86_feature_detected!("lzcnt")
                    && std::arch::is_x86_feature_detected!("popcnt")
            }
            #[cfg(target_arch = "x86_64")]
            Kernel::Avx512 => {
                limit >= crate::SimdLimit::Avx512
                    && std::arch::is_x86_feature_detected!("avx512f")
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

    /// Whether [`Kernel::Avx512`] plays deals of at most 21 penalty cards on its streaming
    /// driver (`queue/avx512.rs`, which needs VPOPCNTDQ and VBMI2 besides the kernel's own
    /// features) rather than on the auto-vectorised lanes.
    pub fn avx512_streams() -> bool {
        #[cfg(target_arch = "x86_64")]
        {
            Kernel::Avx512.is_available()
                && std::arch::is_x86_feature_detected!("avx512vpopcntdq")
                && std::arch::is_x86_feature_detected!("avx512vbmi2")
        }
        #[cfg(not(target_arch = "x86_64"))]
        false
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
/// `max_tricks` tricks each, writing one [`Played`] per deal to `out`. Every kernel gives
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
    out: &mut [Played],
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
    let job = Batch {
        deals,
        deal_len,
        split,
        max_tricks,
    };
    match kernel {
        Kernel::Portable => portable(&job, out),
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
/// gave 2.07 / 2.18 / 1.96 M games/s.
/// The baseline build gains nothing from more lanes (no vector shifts or tzcnt in SSE2), so
/// it keeps a few lanes to exercise the lane bookkeeping.
const LANES_AVX512: usize = 16;
const LANES_BASELINE: usize = 4;

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,bmi1,bmi2,lzcnt,popcnt")]
fn run_avx2(job: &Batch, out: &mut [Played]) {
    // Decks of at most 52 cards and 17 penalty cards stream through `queue::avx2`; the rest
    // (larger decks, odd shapes) play on the portable path, which beat the auto-vectorised
    // AVX2 lanes that used to take them (BENCHMARKS.md).
    if crate::queue::avx2::fits(job) && crate::queue::avx2::run(job, out) {
        return;
    }
    portable(job, out)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512cd,avx512vl,avx512dq,avx512bw,bmi1,bmi2,lzcnt,popcnt")]
fn run_avx512(job: &Batch, out: &mut [Played]) {
    // Deals of at most 21 penalty cards go to the register-resident streaming kernels of
    // `queue::avx512` (why, and their measured gains: that file and BENCHMARKS.md); the
    // auto-vectorised lanes stay for larger decks, huge caps, odd shapes (an empty hand, a
    // cap of 0) and CPUs without VPOPCNTDQ or VBMI2.
    if (1..=crate::queue::MAX_PACKED_TRICKS).contains(&job.max_tricks)
        && 0 < job.split
        && job.split < job.deal_len
        && Kernel::avx512_streams()
        // SAFETY: AVX-512 F/BW/CD, BMI2 and POPCNT are enabled on this function (checked by
        // `Kernel::is_available`), VPOPCNTDQ and VBMI2 were detected by `avx512_streams`.
        && unsafe { crate::queue::avx512::run_stream(job, out) }
    {
        return;
    }
    dispatch::<LANES_AVX512, true>(job, out)
}

/// The portable kernel: one game at a time, on the queue encoding where every deal fits it.
fn portable(job: &Batch, out: &mut [Played]) {
    let (deals, len, split, cap) = (job.deals, job.deal_len, job.split, job.max_tricks);
    if job.fits_queue() && split != 0 && split != len {
        for (d, o) in deals.chunks_exact(len).zip(out.iter_mut()) {
            *o = crate::scalar::play_queue_deal(&d[..split], &d[split..], 0, cap);
        }
    } else {
        for (d, o) in deals.chunks_exact(len).zip(out.iter_mut()) {
            *o = crate::play(&d[..split], &d[split..], 0, cap);
        }
    }
}

/// Runs the batch on the queue lanes when every deal fits them (every deal of at most 21
/// penalty cards, so every standard deal), else one game at a time on the scalar kernel.
/// Plane-encoded lanes for the rest were a second copy of the step for a rare case: on
/// 64-card decks with many penalty cards the scalar kernel is the one that runs.
#[inline(always)]
fn dispatch<const N: usize, const PEXT: bool>(job: &Batch, out: &mut [Played]) {
    if job.fits_queue() {
        run::<N, QueueLanes<N, PEXT>>(job, out)
    } else {
        for (d, o) in job.deals.chunks_exact(job.deal_len).zip(out.iter_mut()) {
            *o = crate::play(&d[..job.split], &d[job.split..], 0, job.max_tricks);
        }
    }
}

impl Batch<'_> {
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
