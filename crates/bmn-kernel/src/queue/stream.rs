//! The streaming driver, written once for every streaming kernel (AVX2's 4 lanes, AVX-512's 8
//! and 16): a batch's deals encoded up front, two vectors of lanes stepped in turn, a lane that
//! ends reported into a log and refilled with the next deal, the log read once at the end. A
//! kernel is its [`Step`]: its lanes, its step, and the few operations whose instructions
//! differ (the model is Stockfish's `simd.h`: one algorithm over a table of per-instruction-set
//! operations).
//!
//! Why generic code here and `#[target_feature]` only at each kernel's entry: every method of
//! [`Step`] is `#[inline(always)]`, so the whole driver is inlined into the entry, which enables
//! the kernel's instruction sets, and the intrinsics inline there in turn (measured equal to
//! the two hand-inlined drivers this replaced: BENCHMARKS.md).

use crate::Played;
use crate::lockstep::Batch;
use crate::queue::{Scratch, write_results};

/// What a streaming kernel supplies to the driver. Every method is called only from a
/// function compiled with the kernel's instruction sets (that is what its `unsafe` says).
pub(crate) trait Step {
    /// A lane's word.
    type Word: Copy + Into<u64>;
    /// A vector of lanes: the game state of each, and the number of the deal it plays.
    type Lanes: Copy;
    /// Per-lane flags a step returns (a `k` register, or a vector of all-ones lanes).
    type Flags: Copy;
    /// A batch's constants.
    type Consts;
    /// Lanes a vector.
    const LANES: usize;
    /// Most penalty cards a deal may hold.
    const MAX_PENALTY: u32;
    /// Where the tricks start in a reported counter word (`cards | tricks << SHIFT`).
    const SHIFT: u32;
    /// A reported word's flags: the game was capped; player 2 won.
    const CAPPED: u64;
    const WINNER: u64;
    /// An empty stack's words (mask, queue): what an idle lane holds.
    const EMPTY: (Self::Word, Self::Word);

    /// The constants of a batch capped at `max_tricks` tricks.
    unsafe fn consts(max_tricks: u32) -> Self::Consts;
    /// Lanes with nothing to play.
    unsafe fn idle(c: &Self::Consts) -> Self::Lanes;
    /// The penalty mask (bit `i`: card `i` is a penalty card) and the codes of the penalty
    /// cards, 3 bits each in order, of the `len` cards at `deals[at..]`.
    unsafe fn penalties(deals: &[u8], at: usize, len: usize) -> (u64, u64);
    /// A stack's mask and queue words from their bottom-first forms (`queue.rs`).
    fn words(mask: u64, queue: u64) -> (Self::Word, Self::Word);
    /// Encodes deals given by their penalty cards (`masks[d]`, `codes[d]`) into `e`'s first
    /// `masks.len()` entries, as [`encode_one`] does; false if some deal holds more than
    /// `MAX_PENALTY` penalty cards. One deal at a time unless a kernel does better.
    #[inline(always)]
    unsafe fn encode_marked(
        masks: &[u64],
        codes: &[u64],
        split: usize,
        len: usize,
        e: &mut Scratch<Self::Word>,
    ) -> bool
    where
        Self: Sized,
    {
        encode_from::<Self>(masks, codes, split, len, e, 0)
    }
    /// One step on every lane: the lanes that finished, and those that reached the cap.
    unsafe fn step(s: &mut Self::Lanes, c: &Self::Consts) -> (Self::Flags, Self::Flags);
    /// The lanes that ended (finished or capped), bit `i` for lane `i`.
    unsafe fn ended(finished: Self::Flags, capped: Self::Flags) -> u32;
    /// Stores the counter words of lanes `k`, in lane order, at `res`, and their deals' numbers
    /// at `idx` (a whole vector each: the buffers are padded).
    unsafe fn report(
        s: &Self::Lanes,
        finished: Self::Flags,
        capped: Self::Flags,
        k: u32,
        res: *mut Self::Word,
        idx: *mut Self::Word,
        c: &Self::Consts,
    );
    /// Loads deals `at..` (their encoded words in `enc`) into the lanes in `ended`, in lane
    /// order, numbering them, and resets their piles, counters and roles.
    unsafe fn load(
        s: &mut Self::Lanes,
        ended: u32,
        enc: &Scratch<Self::Word>,
        at: usize,
        c: &Self::Consts,
    );
}

/// Encodes every deal of the batch into `e`'s stack arrays, padded with a vector of empty
/// stacks; false if some deal holds more than `S::MAX_PENALTY` penalty cards.
#[inline(always)]
unsafe fn encode_all<S: Step>(job: &Batch, n: usize, e: &mut Scratch<S::Word>) -> bool {
    let (len, split) = (job.deal_len, job.split);
    debug_assert!(0 < split && split < len && len <= 64);
    let (mask, queue) = S::EMPTY;
    for (v, empty) in [
        (&mut e.xm, mask),
        (&mut e.xq, queue),
        (&mut e.ym, mask),
        (&mut e.yq, queue),
    ] {
        // Writing into presized arrays, not pushing: the pushes' capacity checks kept the
        // vector in memory (+17% for an enumeration on AVX-512).
        v.clear();
        v.resize(n + S::LANES, empty);
    }
    match job.marked {
        Some(marked) => {
            let (masks, codes) = marked.parts();
            // SAFETY: the caller's instruction sets are the kernel's.
            unsafe { S::encode_marked(&masks[..n], &codes[..n], split, len, e) }
        }
        None => encode_each::<S>(e, 0, n, split, len, |d| {
            // SAFETY: as above.
            unsafe { S::penalties(job.deals, d * len, len) }
        }),
    }
}

/// One deal's stack words from its penalty mask and codes (bit `i` of `pen`: card `i` is a
/// penalty card; their codes 3 bits each in order): `(xm, xq, ym, yq)`, player 1 holding the
/// first `split` cards; `None` if it holds more than `S::MAX_PENALTY` penalty cards.
#[inline(always)]
fn encode_one<S: Step>(pen: u64, q: u64, split: usize, len: usize) -> Option<[S::Word; 4]> {
    let total = pen.count_ones();
    if total > S::MAX_PENALTY {
        return None;
    }
    let first = (1u64 << split) - 1;
    let mine = (pen & first).count_ones();
    let (sx, sy) = (3 * mine, 3 * (total - mine));
    let (xm, xq) = S::words(
        (pen & first) | (1 << split),
        (q & ((1u64 << sx) - 1)) | (1 << sx),
    );
    let (ym, yq) = S::words((pen >> split) | (1 << (len - split)), (q >> sx) | (1 << sy));
    Some([xm, xq, ym, yq])
}

/// Encodes deals `from..to` into `e`, deal `d` given by `deal(d)` (its penalty mask and
/// codes); false if some deal holds too many penalty cards.
#[inline(always)]
fn encode_each<S: Step>(
    e: &mut Scratch<S::Word>,
    from: usize,
    to: usize,
    split: usize,
    len: usize,
    mut deal: impl FnMut(usize) -> (u64, u64),
) -> bool {
    // Zipped slices, not indices: no bounds check a deal.
    let stacks = e.xm[from..to]
        .iter_mut()
        .zip(&mut e.xq[from..to])
        .zip(e.ym[from..to].iter_mut().zip(&mut e.yq[from..to]));
    for (d, ((xm, xq), (ym, yq))) in (from..to).zip(stacks) {
        let (pen, q) = deal(d);
        match encode_one::<S>(pen, q, split, len) {
            Some(words) => [*xm, *xq, *ym, *yq] = words,
            None => return false,
        }
    }
    true
}

/// [`Step::encode_marked`] one deal at a time, from deal `from` on (a vector kernel's ragged
/// end).
#[inline(always)]
pub(crate) fn encode_from<S: Step>(
    masks: &[u64],
    codes: &[u64],
    split: usize,
    len: usize,
    e: &mut Scratch<S::Word>,
    from: usize,
) -> bool {
    encode_each::<S>(e, from, masks.len(), split, len, |d| (masks[d], codes[d]))
}

/// Loads the next deals into the lanes in `ended`; `live` marks the lanes that hold a deal of
/// the batch (those past its end hold empty stacks).
#[inline(always)]
#[allow(clippy::too_many_arguments)]
unsafe fn refill<S: Step>(
    s: &mut S::Lanes,
    live: &mut u32,
    ended: u32,
    enc: &Scratch<S::Word>,
    next: &mut usize,
    n: usize,
    c: &S::Consts,
) {
    let at = *next;
    // SAFETY: the caller's instruction sets are the kernel's; `at <= n` and the arrays hold
    // `n + LANES` entries.
    unsafe { S::load(s, ended, enc, at, c) };
    // The first `avail` lanes of `ended` take deals of the batch.
    let avail = (n - at).min(S::LANES) as u32;
    let mut fresh = ended;
    while fresh.count_ones() > avail {
        fresh &= !(1 << (31 - fresh.leading_zeros()));
    }
    *live = (*live & !ended) | fresh;
    *next = (at + ended.count_ones() as usize).min(n);
}

/// Plays the batch on `S`'s lanes; false (nothing written) if some deal has more than
/// `S::MAX_PENALTY` penalty cards. Needs `0 < split < deal_len <= 64` and a cap the counter
/// takes.
///
/// # Safety
/// Called only from a function compiled with `S`'s instruction sets, on a CPU that has them.
#[inline(always)]
pub(crate) unsafe fn play<S: Step>(
    job: &Batch,
    out: &mut [Played],
    enc: &mut Scratch<S::Word>,
) -> bool
where
    S::Word: Default,
{
    let n = out.len();
    // SAFETY (every `unsafe` below but the stores): the caller's instruction sets are `S`'s.
    if !unsafe { encode_all::<S>(job, n, enc) } {
        return false;
    }
    // Every entry read back below is written first; a shorter buffer only grows.
    let (mut res, mut idx) = (core::mem::take(&mut enc.res), core::mem::take(&mut enc.idx));
    if res.len() < n + S::LANES {
        res.resize(n + S::LANES, S::Word::default());
        idx.resize(n + S::LANES, S::Word::default());
    }
    let c = unsafe { S::consts(job.max_tricks) };
    let (mut next, mut done) = (0usize, 0usize);
    let mut st = unsafe { [S::idle(&c), S::idle(&c)] };
    let mut live = [0u32; 2];
    let all = (1u32 << S::LANES) - 1;
    unsafe {
        refill::<S>(&mut st[0], &mut live[0], all, enc, &mut next, n, &c);
        refill::<S>(&mut st[1], &mut live[1], all, enc, &mut next, n, &c);
    }
    // Indices are literals so that no vector is ever addressed by a variable index (which
    // kept them all in memory). Two vectors: one is bound by a step's latency, three do not
    // fit the registers.
    macro_rules! ended {
        ($j:literal, $fin:expr, $cap:expr) => {{
            let (fin, cap) = ($fin, $cap);
            let ended = unsafe { S::ended(fin, cap) };
            // A branch, not straight-line code: in most steps no lane ends (measured on
            // AVX-512, reduced deals: 84-88 -> 78-80 ns a game).
            if ended != 0 {
                let k = ended & live[$j];
                // SAFETY: `done + popcnt(k) <= n`, both arrays hold `n + LANES` entries.
                unsafe {
                    let (r, i) = (res.as_mut_ptr().add(done), idx.as_mut_ptr().add(done));
                    S::report(&st[$j], fin, cap, k, r, i, &c);
                    refill::<S>(&mut st[$j], &mut live[$j], ended, enc, &mut next, n, &c);
                }
                done += k.count_ones() as usize;
            }
        }};
    }
    while done < n {
        // Both steps before either test: the branch into a refill is mispredicted whenever a
        // lane ends, and a misprediction discards only what follows the branch, so the other
        // vector's step, issued before it, is not lost.
        let (fin0, cap0) = unsafe { S::step(&mut st[0], &c) };
        let (fin1, cap1) = unsafe { S::step(&mut st[1], &c) };
        ended!(0, fin0, cap0);
        ended!(1, fin1, cap1);
    }
    write_results(&res[..n], &idx[..n], S::SHIFT, (S::CAPPED, S::WINNER), out);
    (enc.res, enc.idx) = (res, idx);
    true
}
