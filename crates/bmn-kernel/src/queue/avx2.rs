//! The queue lanes written with AVX2 intrinsics and streamed like `avx512.rs`: four games in
//! 64-bit lanes of a 256-bit vector, two vectors in flight, for decks of at most 52 cards and
//! 17 penalty cards (the standard deck, Camicia, Paulhus's reduced decks). This file is the
//! step and the operations the streaming driver (`stream.rs`, shared with AVX-512) asks of
//! AVX2.
//!
//! Why: on a CPU without AVX-512 the scalar kernel was the fastest, and it spends about half
//! its cycles on mispredicted branches (who meets a penalty card first, whether a debt is
//! paid off). Here those choices are blends, four games a vector, and what AVX2 lacks is
//! built from what it has:
//! - trailing-zero counts (the first event of a stack): isolate the lowest set bit, OR it
//!   into the mantissa of 2^52 and subtract 2^52 as doubles; the difference is the bit as a
//!   double, whose exponent field is `1023 + index`. Exact for bits below 52, which is why
//!   the decks stop at 52 cards (a running stack holds at most 51).
//! - a stack's length and its queue's marker (where a taken pile goes): the same conversion
//!   of the whole word, whose highest bit is the marker; exact below 2^52, hence at most 17
//!   penalty cards (the marker of a queue sits at 3 per card).
//! - shifts: `vpsrlvq`/`vpsllvq` give 0 for counts of 64 and more, what the scalar `shl`
//!   and `shr` mean, so no rotation trick is needed.
//! - `k` masks: lanes of all ones, combined with `and`/`andn` and `vblendvpd`.
//! - `vpexpand`/`vpcompress` (refills, results): one `vpermd` by a 16-entry table indexed
//!   by the 4-bit mask of lanes.
//!
//! The deals are encoded up front without BMI2's `pext` (slow on some AVX2 CPUs): a byte
//! compare gives the penalty mask and a short loop over its bits packs the codes.

use crate::Played;
use crate::lockstep::Batch;
use crate::queue::Scratch;
use crate::queue::stream::{self, Step};
use core::arch::x86_64::*;

/// Most cards a deal may hold here (see the module documentation).
pub(crate) const MAX_LEN: usize = 52;
/// Most penalty cards a deal may hold here.
pub(crate) const MAX_PENALTY: u32 = 17;
/// Flags of a reported counter word (`cards | tricks << 32`; cards stay below 2^30).
const CAPPED: u64 = 1 << 30;
const WINNER: u64 = 1 << 31;
/// Lanes a vector.
const LANES: usize = 4;

/// One vector of lanes, as `QueueLanes`, with `pm` and `pq` XOR-ed with 1, `ctr` holding
/// `cards | tricks << 32` and `xid` all ones where `x` is player 2 (after a finishing step:
/// where player 2 won). Booleans are lanes of all ones.
#[derive(Clone, Copy)]
struct Lanes {
    xm: __m256i,
    xq: __m256i,
    ym: __m256i,
    yq: __m256i,
    pm: __m256i,
    pq: __m256i,
    ps: __m256i,
    /// Cards on the pile: none exactly in an opening, so no debt is kept (as `avx512.rs`).
    m: __m256i,
    xid: __m256i,
    ctr: __m256i,
    /// The deal each lane plays.
    slot: __m256i,
}

/// Constants of a step, built once per batch.
#[derive(Clone, Copy)]
struct Consts {
    one: __m256i,
    three: __m256i,
    seven: __m256i,
    nine: __m256i,
    /// The bits of 2^52 as a double, and 1023 (the exponent bias).
    magic: __m256i,
    bias: __m256i,
    trick: __m256i,
    /// The trick cap in the counter's units, less one (compares are "greater than").
    max_less_one: __m256i,
    /// `0, 1, 2, 3`: lane numbers.
    iota: __m256i,
    /// The flags of a reported word.
    capped: __m256i,
    winner: __m256i,
    tables: Tables,
}

/// `vpermd` index vectors and lane masks for each 4-bit mask of lanes, built at compile time.
#[derive(Clone, Copy)]
struct Tables {
    /// Lane `i` of the mask takes element `rank of i among the mask's lanes` (an expand).
    expand: [[u32; 8]; 16],
    /// The mask's lanes moved to the front in order (a compress).
    compress: [[u32; 8]; 16],
    /// All ones in the mask's lanes.
    lanes: [[i64; 4]; 16],
}

const TABLES: Tables = {
    let mut t = Tables {
        expand: [[0; 8]; 16],
        compress: [[0; 8]; 16],
        lanes: [[0; 4]; 16],
    };
    let mut mask = 0;
    while mask < 16 {
        let (mut rank, mut i) = (0u32, 0usize);
        while i < LANES {
            let from = if mask >> i & 1 != 0 { rank } else { i as u32 };
            t.expand[mask][2 * i] = 2 * from;
            t.expand[mask][2 * i + 1] = 2 * from + 1;
            if mask >> i & 1 != 0 {
                t.compress[mask][2 * rank as usize] = 2 * i as u32;
                t.compress[mask][2 * rank as usize + 1] = 2 * i as u32 + 1;
                t.lanes[mask][i] = -1;
                rank += 1;
            }
            i += 1;
        }
        mask += 1;
    }
    t
};

/// Index of each lane's highest set bit (for a lone bit, its index), exact for
/// `1 <= x < 2^52`; what it gives for 0 is never used. `x` as a double has the exponent
/// field `1023 + index`.
#[target_feature(enable = "avx2")]
#[inline]
fn log2(x: __m256i, c: &Consts) -> __m256i {
    let d = _mm256_sub_pd(
        _mm256_castsi256_pd(_mm256_or_si256(x, c.magic)),
        _mm256_castsi256_pd(c.magic),
    );
    _mm256_sub_epi64(_mm256_srli_epi64::<52>(_mm256_castpd_si256(d)), c.bias)
}

/// Index of each lane's lowest set bit (a stack's first event: masks always hold their
/// sentinel, so never 0).
#[target_feature(enable = "avx2")]
#[inline]
fn lowest(x: __m256i, c: &Consts) -> __m256i {
    log2(
        _mm256_and_si256(x, _mm256_sub_epi64(_mm256_setzero_si256(), x)),
        c,
    )
}

/// `a` where `m` is 0, `b` where it is all ones.
#[target_feature(enable = "avx2")]
#[inline]
fn select(m: __m256i, a: __m256i, b: __m256i) -> __m256i {
    _mm256_blendv_epi8(a, b, m)
}

/// One step on every lane: a penalty card (or a player out of cards), and the payoff that
/// follows it at once when the payer's next cards are all plain, as the AVX-512 step does
/// (issue 52: 1.45 events a step where `QueueLanes::step` plays one). Returns the lanes that
/// finished and those that reached the cap. Comments give the scalar names.
#[target_feature(enable = "avx2")]
#[inline]
fn step(s: &mut Lanes, c: &Consts) -> (__m256i, __m256i) {
    let (xm, xq, ym, yq, m) = (s.xm, s.xq, s.ym, s.yq, s.m);
    let zero = _mm256_setzero_si256();
    let all = _mm256_cmpeq_epi64(zero, zero);
    // The event: the first penalty card (or missing card) in the opening or the payment. A
    // payment never ends in a payoff here: the step that set the debt played the payoff if
    // there was one.
    let kx = lowest(xm, c);
    let ky = lowest(ym, c);
    let opening = _mm256_cmpeq_epi64(m, zero);
    let act_y = _mm256_and_si256(opening, _mm256_cmpgt_epi64(kx, ky));
    let k = select(act_y, kx, ky);
    // before = kx in a payment, 2k + act_y in the opening; y lays ry = before - k, x lays
    // k + 1 (act_y lanes are -1).
    let ry = _mm256_sub_epi64(_mm256_and_si256(opening, k), act_y);
    let pos = _mm256_add_epi64(_mm256_add_epi64(m, k), ry);
    let xm2 = _mm256_srlv_epi64(xm, _mm256_add_epi64(k, c.one));
    let ym2 = _mm256_srlv_epi64(ym, ry);
    // The actor (a) laid a penalty card worth w, or laid past its sentinel (out); the other
    // player (b) owes w.
    let am = select(act_y, xm2, ym2);
    let bm = select(act_y, ym2, xm2);
    let out = _mm256_cmpeq_epi64(am, zero);
    let aq = select(act_y, xq, yq);
    let w = _mm256_and_si256(aq, c.seven);
    let aq2 = _mm256_srli_epi64::<3>(aq);
    let bq = select(act_y, yq, xq);
    // The pile with the penalty card on it.
    let pm1 = _mm256_xor_si256(s.pm, _mm256_sllv_epi64(c.one, pos));
    let pq1 = _mm256_xor_si256(s.pq, _mm256_sllv_epi64(_mm256_xor_si256(w, c.nine), s.ps));
    let m1 = _mm256_add_epi64(pos, c.one);
    // The payoff in the same step: b's first w cards are plain.
    let kb = lowest(bm, c);
    let payoff = _mm256_xor_si256(_mm256_or_si256(out, _mm256_cmpgt_epi64(w, kb)), all);
    let bm3 = select(payoff, bm, _mm256_srlv_epi64(bm, w));
    // Cards on the pile when the trick ends: pos + 1 + w in a payoff, pos when out.
    let cm = select(payoff, pos, _mm256_add_epi64(m1, w));
    // Payoff: a takes the pile (its mask gains the sentinel at cm) under its stack, at its
    // mask's sentinel and its queue's marker.
    let pile = _mm256_or_si256(pm1, _mm256_sllv_epi64(c.one, cm));
    let am3 = _mm256_xor_si256(
        am,
        _mm256_and_si256(payoff, _mm256_sllv_epi64(pile, log2(am, c))),
    );
    let aq3 = _mm256_xor_si256(
        aq2,
        _mm256_and_si256(payoff, _mm256_sllv_epi64(pq1, log2(aq2, c))),
    );
    let ends = _mm256_or_si256(payoff, out);
    s.ctr = _mm256_add_epi64(s.ctr, _mm256_and_si256(ends, _mm256_add_epi64(cm, c.trick)));
    let paid_last = _mm256_and_si256(payoff, _mm256_cmpeq_epi64(bm3, c.one));
    let finished = _mm256_or_si256(out, paid_last);
    let over = _mm256_and_si256(payoff, _mm256_cmpgt_epi64(s.ctr, c.max_less_one));
    let capped = _mm256_andnot_si256(finished, over);
    // A payoff empties the pile and a leads; otherwise b pays next. x is a after a payoff,
    // b otherwise; the winner is a after a payoff, b when a is out.
    s.pm = select(payoff, pm1, c.one);
    s.pq = _mm256_andnot_si256(payoff, pq1);
    s.ps = _mm256_andnot_si256(payoff, _mm256_add_epi64(s.ps, c.three));
    s.m = _mm256_andnot_si256(payoff, m1);
    s.xid = _mm256_xor_si256(
        s.xid,
        _mm256_xor_si256(_mm256_xor_si256(act_y, payoff), all),
    );
    s.xm = select(payoff, bm3, am3);
    s.ym = select(payoff, am3, bm3);
    s.xq = select(payoff, bq, aq3);
    s.yq = select(payoff, aq3, bq);
    (finished, capped)
}

/// The lanes of a 4-bit mask as a vector of all ones.
#[target_feature(enable = "avx2")]
#[inline]
fn lanes_of(tables: &Tables, mask: usize) -> __m256i {
    // SAFETY: one table entry is one vector's bytes.
    unsafe { _mm256_loadu_si256(tables.lanes[mask & 15].as_ptr().cast()) }
}

/// A `vpermd` index vector from one of the tables.
#[target_feature(enable = "avx2")]
#[inline]
fn perm(table: &[[u32; 8]; 16], mask: usize) -> __m256i {
    // SAFETY: one table entry is one vector's bytes.
    unsafe { _mm256_loadu_si256(table[mask & 15].as_ptr().cast()) }
}

/// This kernel for the streaming driver.
struct Avx2;

impl Step for Avx2 {
    type Word = u64;
    type Lanes = Lanes;
    type Flags = __m256i;
    type Consts = Consts;
    const LANES: usize = LANES;
    const MAX_PENALTY: u32 = MAX_PENALTY;
    const SHIFT: u32 = 32;
    const CAPPED: u64 = CAPPED;
    const WINNER: u64 = WINNER;
    const EMPTY: (u64, u64) = (1, 1);

    #[target_feature(enable = "avx2")]
    #[inline]
    unsafe fn consts(max_tricks: u32) -> Consts {
        // The constants and tables live in the driver's frame, where the spilled lanes live:
        // loaded from read-only data, a load whose address matched a recent spill's in its low
        // 12 bits waited for that store, and whether that happened depended on where the
        // thread's stack sat (1.2 to 3.3 M games/s for the same deals, moving the stack 256
        // bytes at a time). `black_box` keeps the compiler from folding them back into
        // read-only data.
        core::hint::black_box(Consts {
            one: _mm256_set1_epi64x(1),
            three: _mm256_set1_epi64x(3),
            seven: _mm256_set1_epi64x(7),
            nine: _mm256_set1_epi64x(9),
            magic: _mm256_set1_epi64x(0x4330_0000_0000_0000),
            bias: _mm256_set1_epi64x(1023),
            trick: _mm256_set1_epi64x(1 << 32),
            max_less_one: _mm256_set1_epi64x((i64::from(max_tricks) << 32) - 1),
            iota: _mm256_set_epi64x(3, 2, 1, 0),
            capped: _mm256_set1_epi64x(CAPPED as i64),
            winner: _mm256_set1_epi64x(WINNER as i64),
            tables: TABLES,
        })
    }

    #[target_feature(enable = "avx2")]
    #[inline]
    unsafe fn idle(c: &Consts) -> Lanes {
        let z = _mm256_setzero_si256();
        Lanes {
            xm: c.one,
            xq: c.one,
            ym: c.one,
            yq: c.one,
            pm: c.one,
            pq: z,
            ps: z,
            m: z,
            xid: z,
            ctr: z,
            slot: z,
        }
    }

    /// A byte compare gives the penalty mask and a short loop over its bits packs the codes
    /// (without BMI2's `pext`, slow on some AVX2 CPUs).
    #[target_feature(enable = "avx2")]
    #[inline]
    unsafe fn penalties(deals: &[u8], at: usize, len: usize) -> (u64, u64) {
        // 64 bytes from the deal's first: straight from the batch where it holds them, else
        // from a copy (the batch's last deals).
        let mut tail = [0u8; 64];
        let bytes: &[u8] = if at + 64 <= deals.len() {
            &deals[at..at + 64]
        } else {
            tail[..len].copy_from_slice(&deals[at..at + len]);
            &tail
        };
        let zero = _mm256_setzero_si256();
        // SAFETY: `bytes` holds 64 bytes; the loads are unaligned.
        let (lo, hi) = unsafe {
            (
                _mm256_loadu_si256(bytes.as_ptr().cast()),
                _mm256_loadu_si256(bytes.as_ptr().add(32).cast()),
            )
        };
        let plain_lo = _mm256_movemask_epi8(_mm256_cmpeq_epi8(lo, zero)) as u32;
        let plain_hi = _mm256_movemask_epi8(_mm256_cmpeq_epi8(hi, zero)) as u32;
        let pen = !(u64::from(plain_lo) | u64::from(plain_hi) << 32) & (u64::MAX >> (64 - len));
        let (mut rest, mut q, mut s) = (pen, 0u64, 0u32);
        // At most 17 codes matter; a deal of more is refused by the driver.
        while rest != 0 && s < 64 {
            q |= u64::from(bytes[rest.trailing_zeros() as usize]) << s;
            s += 3;
            rest &= rest - 1;
        }
        (pen, q)
    }

    #[inline(always)]
    fn words(mask: u64, queue: u64) -> (u64, u64) {
        (mask, queue)
    }

    #[target_feature(enable = "avx2")]
    #[inline]
    unsafe fn step(s: &mut Lanes, c: &Consts) -> (__m256i, __m256i) {
        step(s, c)
    }

    #[target_feature(enable = "avx2")]
    #[inline]
    unsafe fn ended(finished: __m256i, capped: __m256i) -> u32 {
        _mm256_movemask_pd(_mm256_castsi256_pd(_mm256_or_si256(finished, capped))) as u32
    }

    #[target_feature(enable = "avx2")]
    #[inline]
    unsafe fn report(
        s: &Lanes,
        finished: __m256i,
        capped: __m256i,
        k: u32,
        res: *mut u64,
        idx: *mut u64,
        c: &Consts,
    ) {
        let word = _mm256_or_si256(s.ctr, _mm256_and_si256(capped, c.capped));
        let won = _mm256_and_si256(_mm256_and_si256(finished, s.xid), c.winner);
        let word = _mm256_or_si256(word, won);
        let to = perm(&c.tables.compress, k as usize);
        // SAFETY: the driver's buffers hold a whole vector from `res` and `idx`.
        unsafe {
            _mm256_storeu_si256(res.cast(), _mm256_permutevar8x32_epi32(word, to));
            _mm256_storeu_si256(idx.cast(), _mm256_permutevar8x32_epi32(s.slot, to));
        }
    }

    #[target_feature(enable = "avx2")]
    #[inline]
    unsafe fn load(s: &mut Lanes, ended: u32, enc: &Scratch<u64>, at: usize, c: &Consts) {
        let e = ended as usize;
        let (to, fresh) = (perm(&c.tables.expand, e), lanes_of(&c.tables, e));
        // SAFETY: `at <= n` and each array holds `n + LANES` entries.
        let load = |v: &Vec<u64>| unsafe {
            let x = _mm256_loadu_si256(v.as_ptr().add(at).cast());
            _mm256_permutevar8x32_epi32(x, to)
        };
        s.xm = select(fresh, s.xm, load(&enc.xm));
        s.xq = select(fresh, s.xq, load(&enc.xq));
        s.ym = select(fresh, s.ym, load(&enc.ym));
        s.yq = select(fresh, s.yq, load(&enc.yq));
        let numbers = _mm256_add_epi64(_mm256_set1_epi64x(at as i64), c.iota);
        s.slot = select(fresh, s.slot, _mm256_permutevar8x32_epi32(numbers, to));
        s.pm = select(fresh, s.pm, c.one);
        s.pq = _mm256_andnot_si256(fresh, s.pq);
        s.ps = _mm256_andnot_si256(fresh, s.ps);
        s.m = _mm256_andnot_si256(fresh, s.m);
        s.xid = _mm256_andnot_si256(fresh, s.xid);
        s.ctr = _mm256_andnot_si256(fresh, s.ctr);
    }
}

/// Plays the batch; false (nothing written) if some deal has more than 17 penalty cards.
/// Needs a batch `Kernel::Avx2Stream4` takes.
///
/// # Safety
/// The CPU must support AVX2, BMI1, BMI2, LZCNT and POPCNT.
#[target_feature(enable = "avx2,bmi1,bmi2,lzcnt,popcnt")]
pub(crate) fn run(job: &Batch, out: &mut [Played], scratch: &mut Scratch<u64>) -> bool {
    // SAFETY: this function enables AVX2's instruction sets.
    unsafe { stream::play::<Avx2>(job, out, scratch) }
}
