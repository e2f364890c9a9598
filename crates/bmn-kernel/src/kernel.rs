//! [`Kernel`], every way this crate plays a batch of games, named by its algorithm and width;
//! what each takes ([`Shape`]) and needs from the CPU; and [`play_many`], which runs exactly
//! the kernel it is given. Which kernel to give it is `choose.rs`'s one table.

use crate::Marked;
use crate::Played;
use crate::lockstep::{Batch, run};
use crate::queue::QueueLanes;

/// One kernel: an algorithm on one encoding, at one width. Each gives exactly the results of
/// [`crate::play`]; they differ in speed and in the deals they take ([`Kernel::takes`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Kernel {
    /// One game at a time on three bit planes (`hand.rs`): any deal of at most 64 cards.
    ScalarPlanes,
    /// One game at a time on the queue encoding (`queue.rs`): at most 21 penalty cards, both
    /// hands dealt.
    ScalarQueue,
    /// Queue lanes in lockstep, 4 lanes of 64 bits, compiled for the baseline target (any
    /// CPU; it keeps the lane bookkeeping tested): at most 21 penalty cards.
    Lanes4,
    /// The same lanes auto-vectorised for AVX-512, 16 lanes of 64 bits: at most 21 penalty
    /// cards.
    Avx512Lanes16,
    /// The streaming kernel in AVX2 intrinsics (`queue/avx2.rs`), 4 lanes of 64 bits: at most
    /// 52 cards and 17 penalty cards, both hands dealt, a cap of 1 to 2^24 tricks.
    Avx2Stream4,
    /// The streaming kernel in AVX-512 intrinsics (`queue/avx512.rs`), 8 lanes of 64 bits: at
    /// most 21 penalty cards, both hands dealt, a cap of 1 to 2^24 tricks.
    Avx512Stream8,
    /// The same at 16 lanes of 32 bits: at most 30 cards and 10 penalty cards, a cap whose
    /// counter fits 32 bits (below 8192 tricks, and below 2^17 cards laid).
    Avx512Stream16,
}

/// What a batch of deals is, as far as choosing a kernel goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shape {
    /// Cards in a deal (at most [`crate::MAX_CARDS`]).
    pub cards: usize,
    /// Cards of player 1, who leads (the first `split` of a deal).
    pub split: usize,
    /// The most penalty cards (codes 1 to 5) in any deal.
    pub penalty: usize,
    /// The trick cap.
    pub max_tricks: u32,
}

impl Shape {
    /// The shape of a flat batch of deals (`penalty` counted over every deal).
    pub fn of_batch(deals: &[u8], cards: usize, split: usize, max_tricks: u32) -> Shape {
        let penalty = deals
            .chunks_exact(cards.max(1))
            .map(penalty_cards)
            .max()
            .unwrap_or(0);
        Shape {
            cards,
            split,
            penalty,
            max_tricks,
        }
    }

    /// Whether both players hold cards and the cap allows a trick: what the streaming
    /// kernels assume (the others answer such deals one at a time).
    fn plays_a_trick(&self) -> bool {
        0 < self.split && self.split < self.cards && self.max_tricks > 0
    }
}

/// A deal's penalty cards: a byte sum, which vectorizes (a `filter().count()` did not, 11% of
/// an exhaustive run's instructions under callgrind).
fn penalty_cards(deal: &[u8]) -> usize {
    deal.iter().map(|&c| u8::from(c != 0)).sum::<u8>() as usize
}

impl Kernel {
    /// Every kernel, slowest first on a standard deal.
    pub const ALL: [Kernel; 7] = [
        Kernel::ScalarPlanes,
        Kernel::Lanes4,
        Kernel::ScalarQueue,
        Kernel::Avx512Lanes16,
        Kernel::Avx2Stream4,
        Kernel::Avx512Stream8,
        Kernel::Avx512Stream16,
    ];

    /// Its name in reports, `bmn bench` and `--kernel`.
    pub fn name(self) -> &'static str {
        match self {
            Kernel::ScalarPlanes => "scalar-planes",
            Kernel::ScalarQueue => "scalar-queue",
            Kernel::Lanes4 => "lanes-4x64",
            Kernel::Avx512Lanes16 => "avx512-lanes-16x64",
            Kernel::Avx2Stream4 => "avx2-stream-4x64",
            Kernel::Avx512Stream8 => "avx512-stream-8x64",
            Kernel::Avx512Stream16 => "avx512-stream-16x32",
        }
    }

    /// The kernel of this name.
    pub fn from_name(name: &str) -> Option<Kernel> {
        Kernel::ALL.into_iter().find(|k| k.name() == name)
    }

    /// Whether the kernel streams a batch's deals through its lanes (encoding each once, and
    /// counting its penalty cards as it does): the kernels that take deals by their penalty
    /// cards as they are ([`KernelBuffers::play_marked`]).
    pub fn streams(self) -> bool {
        matches!(
            self,
            Kernel::Avx2Stream4 | Kernel::Avx512Stream8 | Kernel::Avx512Stream16
        )
    }

    /// Every kernel this CPU can run (and `BMN_SIMD` lets it), in [`Kernel::ALL`]'s order.
    pub fn all_available() -> Vec<Kernel> {
        Kernel::ALL
            .into_iter()
            .filter(|k| k.is_available())
            .collect()
    }

    /// Every kernel this CPU runs that takes deals of `shape`: what a differential test or a
    /// benchmark plays them on.
    pub fn all_for(shape: &Shape) -> Vec<Kernel> {
        let all = Kernel::all_available().into_iter();
        all.filter(|k| k.takes(shape)).collect()
    }

    /// Whether this CPU can run the kernel (and `BMN_SIMD` lets it: `simd.rs`).
    pub fn is_available(self) -> bool {
        use crate::SimdLimit;
        let limit = SimdLimit::current();
        match self {
            Kernel::ScalarPlanes | Kernel::ScalarQueue | Kernel::Lanes4 => true,
            Kernel::Avx2Stream4 => limit >= SimdLimit::Avx2 && cpu::avx2(),
            Kernel::Avx512Lanes16 => limit >= SimdLimit::Avx512 && cpu::avx512(),
            Kernel::Avx512Stream8 | Kernel::Avx512Stream16 => {
                limit >= SimdLimit::Avx512 && cpu::avx512() && cpu::avx512_streams()
            }
        }
    }

    /// Whether the kernel plays deals of this shape.
    pub fn takes(self, shape: &Shape) -> bool {
        let s = shape;
        let fits = (1..=crate::MAX_CARDS).contains(&s.cards) && s.split <= s.cards;
        let stream = s.plays_a_trick() && s.max_tricks <= crate::queue::MAX_PACKED_TRICKS;
        fits && s.penalty <= self.max_penalty()
            && match self {
                Kernel::ScalarPlanes | Kernel::Lanes4 | Kernel::Avx512Lanes16 => true,
                Kernel::ScalarQueue => 0 < s.split && s.split < s.cards,
                Kernel::Avx2Stream4 => stream && s.cards <= crate::queue::avx2::MAX_LEN,
                Kernel::Avx512Stream8 => stream,
                Kernel::Avx512Stream16 => {
                    stream && crate::queue::avx512::fits_narrow(s.cards, s.max_tricks)
                }
            }
    }

    /// The most penalty cards a deal may hold for this kernel.
    pub fn max_penalty(self) -> usize {
        match self {
            Kernel::ScalarPlanes => crate::MAX_CARDS,
            Kernel::ScalarQueue | Kernel::Lanes4 | Kernel::Avx512Lanes16 => {
                crate::queue::MAX_PENALTY
            }
            Kernel::Avx2Stream4 => crate::queue::avx2::MAX_PENALTY as usize,
            Kernel::Avx512Stream8 => crate::queue::avx512::MAX_PENALTY_WIDE,
            Kernel::Avx512Stream16 => crate::queue::avx512::MAX_PENALTY_NARROW,
        }
    }
}

/// What the CPU has, for [`Kernel::is_available`].
mod cpu {
    /// Whether the CPU has every one of these features (never off x86-64).
    macro_rules! has {
        ($($feature:tt),+) => {{
            #[cfg(target_arch = "x86_64")]
            {
                true $(&& std::arch::is_x86_feature_detected!($feature))+
            }
            #[cfg(not(target_arch = "x86_64"))]
            false
        }};
    }

    /// AVX2 and the bit instructions its kernel uses.
    pub(super) fn avx2() -> bool {
        has!("avx2", "bmi1", "bmi2", "lzcnt", "popcnt")
    }

    /// The AVX-512 subsets every AVX-512 kernel is compiled for.
    pub(super) fn avx512() -> bool {
        has!(
            "avx512f", "avx512cd", "avx512vl", "avx512dq", "avx512bw", "bmi1", "bmi2", "lzcnt",
            "popcnt"
        )
    }

    /// What the streaming AVX-512 kernels need besides: VPOPCNTDQ, VBMI2 and GFNI (Ice Lake and
    /// Zen 4 on; not Skylake-X).
    pub(super) fn avx512_streams() -> bool {
        has!("avx512vpopcntdq", "avx512vbmi2", "gfni")
    }
}

/// [`KernelBuffers::play`] on buffers of its own: for a single batch (a loop over batches
/// keeps one [`KernelBuffers`]).
///
/// # Panics
/// As [`KernelBuffers::play`].
pub fn play_many(
    kernel: Kernel,
    deals: &[u8],
    deal_len: usize,
    split: usize,
    max_tricks: u32,
    out: &mut [Played],
) {
    KernelBuffers::default().play(kernel, deals, deal_len, split, max_tricks, out)
}

/// The buffers the streaming kernels encode a batch's deals into and log its results in, kept
/// by the caller from one batch to the next: reused, they cost nothing after the first batch
/// (fresh ones for every batch cost an enumeration 10% in page faults).
#[derive(Default)]
pub struct KernelBuffers {
    #[cfg(target_arch = "x86_64")]
    words: crate::queue::Scratch<u64>,
    #[cfg(target_arch = "x86_64")]
    halves: crate::queue::Scratch<u32>,
    /// Marked deals laid out for a kernel that reads codes (`play_marked`).
    codes: Vec<u8>,
}

impl KernelBuffers {
    /// Plays every deal of `deals` (consecutive deals of `deal_len` cards; the first `split`
    /// cards of each go to player 1, the rest to player 2; player 1 leads) with at most
    /// `max_tricks` tricks each on `kernel`, and nothing else, writing one [`Played`] per
    /// deal to `out`. Every kernel gives the same results as [`crate::play`].
    ///
    /// # Panics
    /// If `deal_len` is 0 or above 64, `split > deal_len`, `deals.len() != out.len() *
    /// deal_len`, a code is above 5, `kernel` is not available on this CPU, or it does not
    /// take the deals ([`Kernel::takes`]: a deal with more penalty cards than it holds, say).
    pub fn play(
        &mut self,
        kernel: Kernel,
        deals: &[u8],
        deal_len: usize,
        split: usize,
        max_tricks: u32,
        out: &mut [Played],
    ) {
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
        check(kernel, deal_len, split, max_tricks);
        let job = Batch {
            deals,
            marked: None,
            deal_len,
            split,
            max_tricks,
        };
        // The streams count penalty cards as they encode; the others are checked here (a
        // vectorized byte sum).
        let limit = kernel.max_penalty();
        let fits = kernel.streams()
            || limit >= crate::MAX_CARDS
            || deals
                .chunks_exact(deal_len)
                .all(|d| penalty_cards(d) <= limit);
        let played = fits && run_on(kernel, &job, out, self);
        assert!(played, "{}", too_many(kernel));
    }

    /// [`Self::play`] on deals given by their penalty cards ([`Marked`]), as stream 2 draws
    /// them ([`crate::dealer::Dealer::batch_marked`] on a deck whose background is plain),
    /// each code 1 to 5. The streaming kernels take them as they are, no deal laid out and no
    /// byte read (what stream 2 saves a search); the others are given them laid out.
    ///
    /// The codes are the caller's to get right (the dealer makes them): a code of 0 or above
    /// 5, or bits past the last penalty card's, give wrong results (debug builds panic), never
    /// undefined behaviour; the masks are checked.
    ///
    /// # Panics
    /// As [`Self::play`], and if `deals` and `out` differ in length or a mask has a bit at or
    /// past `deal_len`.
    pub fn play_marked(
        &mut self,
        kernel: Kernel,
        deals: &Marked,
        deal_len: usize,
        split: usize,
        max_tricks: u32,
        out: &mut [Played],
    ) {
        assert_eq!(deals.len(), out.len(), "deals and out must match");
        check(kernel, deal_len, split, max_tricks);
        let (masks, codes) = deals.parts();
        // One vectorized pass over the masks; the whole check (a few word operations a deal,
        // 3% of a search) only in debug builds.
        let all = masks.iter().fold(0u64, |a, &m| a | m);
        assert!(
            deal_len == 64 || all >> deal_len == 0,
            "a penalty card past the deal's {deal_len} cards"
        );
        debug_assert!(
            masks
                .iter()
                .zip(codes)
                .all(|(&m, &c)| marked_deal(m, c, deal_len)),
            "a marked deal that is not one"
        );
        if !kernel.streams() {
            let mut laid = core::mem::take(&mut self.codes);
            laid.clear();
            laid.resize(out.len() * deal_len, 0);
            for (d, deal) in laid.chunks_exact_mut(deal_len).enumerate() {
                deals.lay_out(d, deal);
            }
            self.play(kernel, &laid, deal_len, split, max_tricks, out);
            self.codes = laid;
            return;
        }
        let job = Batch {
            deals: &[],
            marked: Some(deals),
            deal_len,
            split,
            max_tricks,
        };
        assert!(run_on(kernel, &job, out, self), "{}", too_many(kernel));
    }
}

/// The checks of a batch's shape every `play` makes (see [`KernelBuffers::play`]'s panics).
fn check(kernel: Kernel, deal_len: usize, split: usize, max_tricks: u32) {
    assert!(
        (1..=crate::MAX_CARDS).contains(&deal_len) && split <= deal_len,
        "bad deal shape"
    );
    assert!(
        kernel.is_available(),
        "kernel {} not available on this CPU",
        kernel.name()
    );
    let shape = Shape {
        cards: deal_len,
        split,
        penalty: 0,
        max_tricks,
    };
    assert!(
        kernel.takes(&shape),
        "kernel {} does not take deals of {deal_len} cards split at {split} with a cap of \
         {max_tricks} tricks",
        kernel.name()
    );
}

/// The panic of a batch with more penalty cards than `kernel` holds.
fn too_many(kernel: Kernel) -> String {
    format!(
        "kernel {} takes deals of at most {} penalty cards; this batch has more",
        kernel.name(),
        kernel.max_penalty()
    )
}

/// Whether (`mask`, `codes`) is a deal of `len` cards by its penalty cards: mask bits below
/// `len`, at most 21 of them, a code of 1 to 5 for each (3 bits, in order) and nothing past.
/// Word-wide tests, no loop over the cards.
#[cfg_attr(not(debug_assertions), allow(dead_code))]
fn marked_deal(mask: u64, codes: u64, len: usize) -> bool {
    // Bit 0 of each of 21 3-bit fields.
    const LOW: u64 = 0o111_111_111_111_111_111_111;
    let k = mask.count_ones();
    if (len < 64 && mask >> len != 0) || k > 21 {
        return false;
    }
    let used = (1u64 << (3 * k)) - 1;
    let present = (codes | codes >> 1 | codes >> 2) & LOW & used;
    // Fields 6 and 7: their two high bits both set.
    let high = (codes >> 2) & (codes >> 1) & LOW;
    codes & !used == 0 && present == LOW & used && high == 0
}

/// Runs `job` on `kernel`; false (nothing written) if a stream met a deal of more penalty
/// cards than it holds.
#[cfg_attr(not(target_arch = "x86_64"), allow(unused_variables))]
fn run_on(kernel: Kernel, job: &Batch, out: &mut [Played], buffers: &mut KernelBuffers) -> bool {
    match kernel {
        Kernel::ScalarPlanes => {
            for (d, o) in job.deals.chunks_exact(job.deal_len).zip(out.iter_mut()) {
                *o = crate::play(&d[..job.split], &d[job.split..], 0, job.max_tricks);
            }
        }
        Kernel::ScalarQueue => {
            let (len, split, cap) = (job.deal_len, job.split, job.max_tricks);
            for (d, o) in job.deals.chunks_exact(len).zip(out.iter_mut()) {
                *o = crate::scalar::play_queue_deal(&d[..split], &d[split..], 0, cap);
            }
        }
        Kernel::Lanes4 => run::<4, QueueLanes<4, false>>(job, out),
        #[cfg(target_arch = "x86_64")]
        // SAFETY (this and the next two): `play_many` asserted `kernel.is_available()`, so
        // the CPU has every feature the function is compiled for.
        Kernel::Avx512Lanes16 => unsafe { lanes_avx512(job, out) },
        #[cfg(target_arch = "x86_64")]
        Kernel::Avx2Stream4 => {
            return unsafe { crate::queue::avx2::run(job, out, &mut buffers.words) };
        }
        #[cfg(target_arch = "x86_64")]
        Kernel::Avx512Stream8 => {
            return unsafe { crate::queue::avx512::wide::run(job, out, &mut buffers.words) };
        }
        #[cfg(target_arch = "x86_64")]
        Kernel::Avx512Stream16 => {
            return unsafe { crate::queue::avx512::narrow::run(job, out, &mut buffers.halves) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        _ => unreachable!("not available"),
    }
    true
}

/// The queue lanes compiled for AVX-512 and BMI2's `pext` refill. Measured on Zen 4 (1e6
/// standard deals): 8 / 16 / 32 lanes gave 2.07 / 2.18 / 1.96 M games/s.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512cd,avx512vl,avx512dq,avx512bw,bmi1,bmi2,lzcnt,popcnt")]
fn lanes_avx512(job: &Batch, out: &mut [Played]) {
    run::<16, QueueLanes<16, true>>(job, out)
}
