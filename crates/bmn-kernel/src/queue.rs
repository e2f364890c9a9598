//! Lockstep lanes on a two-word stack encoding: fewer vector operations per event than the
//! three bit planes of `hand.rs`, for deals of at most [`MAX_PENALTY`] penalty cards.
//!
//! A stack is
//! - `mask`: bit `i` set iff card `i` (from the top) is a penalty card, plus a sentinel bit
//!   at `n`, the stack's length (so `n <= 63`, which holds for both players at every trick
//!   boundary of a game that has not ended). The first event of a stack (its first penalty
//!   card, or "no card left") is `mask.trailing_zeros()`, laying `k` cards is `mask >> k`,
//!   the stack is empty iff `mask == 1`, and its length is `63 - mask.leading_zeros()`:
//!   no length counter to keep.
//! - `queue`: the codes of its penalty cards in order, 3 bits each, the first in the low
//!   bits, followed by a marker bit. Laying a penalty card pops 3 bits; putting a pile's
//!   queue under it is one shifted XOR at the marker (`63 - leading_zeros`).
//!
//! Putting a pile under a stack uses the same XOR at the sentinel: `x ^ ((pile ^ 1) << n)`
//! replaces the sentinel bit by the pile's first bit and copies the rest, where the pile
//! carries its own sentinel. A step then needs two words per stack instead of four (three
//! planes and a length), and one variable shift per stack instead of three.
//!
//! Measured (Xeon model 207, best of 5, 5e5 standard deals, CPU time): AVX-512 lockstep
//! 2.22 -> 2.45-2.55 M games/s together with the pext refill and the event bitmask;
//! the scalar `play` on this encoding 0.83-0.98 -> 1.11-1.18 M games/s.

use crate::lockstep::{LaneSet, shl, shr};

/// Most penalty cards a deal may hold for these lanes: 21 codes of 3 bits and a marker.
pub(crate) const MAX_PENALTY: usize = 21;

/// Encodes a stack (codes at most 7, at most 63 cards, at most [`MAX_PENALTY`] penalty
/// cards) as `(mask, queue)`; see the module documentation.
#[inline(always)]
pub(crate) fn encode_queue(cards: &[u8]) -> (u64, u64) {
    debug_assert!(cards.len() < 64);
    let [a, b, c] = crate::hand::encode_unchecked(cards);
    let pen = a | b | c;
    let mut rest = pen;
    let mut queue = 0u64;
    let mut s = 0u32;
    while rest != 0 {
        let i = rest.trailing_zeros();
        let code = ((a >> i) & 1) | (((b >> i) & 1) << 1) | (((c >> i) & 1) << 2);
        queue |= code << s;
        s += 3;
        rest &= rest - 1;
    }
    debug_assert!(s < 64);
    (pen | (1u64 << cards.len()), queue | (1u64 << s))
}

/// [`encode_queue`] with BMI2, branch-free: per 8 cards, `pext` gathers the 3-bit codes of
/// the non-zero bytes in order and one multiply gathers their penalty bits. Replaces a
/// data-dependent loop whose exit mispredicted on every refill (AVX-512: 1.89 -> 2.37
/// M games/s).
///
/// # Safety
/// The CPU must support BMI2 and POPCNT.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "bmi2,popcnt")]
#[inline]
pub(crate) unsafe fn encode_queue_pext(cards: &[u8]) -> (u64, u64) {
    use core::arch::x86_64::_pext_u64;
    const LSB: u64 = 0x0101_0101_0101_0101;
    const GATHER: u64 = 0x0102_0408_1020_4080; // byte i's bit 0 -> bit 56 + i
    debug_assert!(cards.len() < 64);
    let mut mask = 0u64;
    let mut queue = 0u64;
    let mut s = 0u32;
    for (ci, chunk) in cards.chunks(8).enumerate() {
        let mut bytes = [0u8; 8];
        bytes[..chunk.len()].copy_from_slice(chunk);
        let w = u64::from_le_bytes(bytes);
        let nz = (w | (w >> 1) | (w >> 2)) & LSB;
        let fields = nz * 7;
        queue |= _pext_u64(w, fields) << s;
        s += fields.count_ones();
        mask |= (nz.wrapping_mul(GATHER) >> 56) << (8 * ci);
    }
    debug_assert!(s < 64);
    (mask | (1u64 << cards.len()), queue | (1u64 << s))
}

/// Struct-of-arrays state of `N` games, stacks in the queue encoding: `x` is the player to
/// act (the leader in the opening exchange, the payer after it), `y` the other, `xid` which
/// player `x` is, `v` the debt or 0 in the opening, `m` the cards on the pile.
///
/// `PEXT`: encode refills with [`encode_queue_pext`]; only for builds that checked BMI2.
#[derive(Clone)]
pub(crate) struct QueueLanes<const N: usize, const PEXT: bool> {
    xm: [u64; N],
    xq: [u64; N],
    ym: [u64; N],
    yq: [u64; N],
    /// The pile's penalty positions (no sentinel: it is added when the pile is taken).
    pm: [u64; N],
    /// The pile's penalty queue, marker included (1 when empty).
    pq: [u64; N],
    /// Position of the pile queue's marker (3 per penalty card on the pile).
    ps: [u64; N],
    m: [u64; N],
    v: [u64; N],
    xid: [u64; N],
    cards: [u64; N],
    tricks: [u64; N],
    event: [u64; N],
}

impl<const N: usize, const PEXT: bool> LaneSet for QueueLanes<N, PEXT> {
    fn new() -> Self {
        QueueLanes {
            xm: [1; N],
            xq: [1; N],
            ym: [1; N],
            yq: [1; N],
            pm: [0; N],
            pq: [1; N],
            ps: [0; N],
            m: [0; N],
            v: [0; N],
            xid: [0; N],
            cards: [0; N],
            tricks: [0; N],
            event: [0; N],
        }
    }

    #[inline(always)]
    fn load(&mut self, i: usize, p1: &[u8], p2: &[u8]) {
        #[cfg(target_arch = "x86_64")]
        if PEXT {
            // SAFETY: `PEXT` is set only by `lockstep::run_avx2` and `run_avx512`, which
            // `play_many` calls only after `Kernel::is_available` confirmed BMI2 and POPCNT.
            unsafe {
                (self.xm[i], self.xq[i]) = encode_queue_pext(p1);
                (self.ym[i], self.yq[i]) = encode_queue_pext(p2);
            }
        } else {
            (self.xm[i], self.xq[i]) = encode_queue(p1);
            (self.ym[i], self.yq[i]) = encode_queue(p2);
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            (self.xm[i], self.xq[i]) = encode_queue(p1);
            (self.ym[i], self.yq[i]) = encode_queue(p2);
        }
        self.pm[i] = 0;
        self.pq[i] = 1;
        self.ps[i] = 0;
        self.m[i] = 0;
        self.v[i] = 0;
        self.xid[i] = 0;
        self.cards[i] = 0;
        self.tricks[i] = 0;
        self.event[i] = 0;
    }

    /// One event per lane, straight-line code (the `if`s are selects) that vectorizes.
    #[inline(always)]
    fn step(&mut self, max_tricks: u64) -> u64 {
        let mut any = 0;
        for i in 0..N {
            let (xm, xq, ym, yq) = (self.xm[i], self.xq[i], self.ym[i], self.yq[i]);
            let (v, m) = (self.v[i], self.m[i]);
            // First event of each stack (masks always hold their sentinel, so never 0).
            let kx = u64::from(xm.trailing_zeros());
            let ky = u64::from(ym.trailing_zeros());
            let opening = v == 0;
            // Opening: the follower's card `ky` (step 2ky+1) comes before the leader's
            // card `kx` (step 2kx) iff ky < kx. In a payment only x plays.
            let act_y = opening & (ky < kx);
            let k = if act_y { ky } else { kx };
            let am = if act_y { ym } else { xm };
            let aq = if act_y { yq } else { xq };
            let payoff = !opening & (kx >= v);
            // The actor's event is its sentinel: it must play and has no card.
            let out = !payoff & (shr(am, k) == 1);
            let pen = !payoff & !out;
            // Plain cards laid in this step before the event card.
            let before = if !opening {
                kx
            } else if act_y {
                2 * ky + 1
            } else {
                2 * kx
            };
            let w = aq & 7;
            let pos = m.wrapping_add(before);
            let mut pm = self.pm[i];
            let mut pq = self.pq[i];
            let mut ps = self.ps[i];
            if pen {
                // The penalty card goes onto the pile: its bit at `pos`, its code where
                // the pile queue's marker was (the marker moves up by 3).
                pm |= shl(1, pos);
                pq ^= shl(w ^ 9, ps);
                ps += 3;
            }
            // Cards each player lays in this step.
            let rx = if payoff {
                v
            } else if act_y {
                ky + 1
            } else {
                kx + 1
            };
            let ry = if act_y {
                ky + 1
            } else if opening {
                kx
            } else {
                0
            };
            let mut xm2 = shr(xm, rx);
            let mut ym2 = shr(ym, ry);
            let mut xq2 = xq;
            let mut yq2 = yq;
            if pen & act_y {
                yq2 = yq >> 3;
            }
            if pen & !act_y {
                xq2 = xq >> 3;
            }
            let m2 = m.wrapping_add(if payoff { v } else { before + u64::from(pen) });
            if payoff {
                // y (the dibs holder) takes the pile of `m2` cards under its stack. Wrapping:
                // a lane with no deal left keeps stepping on stale state, whose stacks may be
                // 0; its results are never read.
                let ny = 63u64.wrapping_sub(u64::from(ym2.leading_zeros()));
                ym2 ^= shl((pm ^ 1) | shl(1, m2), ny);
                let qy = 63u64.wrapping_sub(u64::from(yq2.leading_zeros()));
                yq2 ^= shl(pq ^ 1, qy);
            }
            let ends_trick = payoff | out;
            let cards = self.cards[i].wrapping_add(if ends_trick { m2 } else { 0 });
            let tricks = self.tricks[i] + u64::from(ends_trick);
            // Finished: the actor is out, or the payer paid with its last card.
            let finished = out | (payoff & (xm2 == 1));
            // Out: the actor's opponent wins; payoff: y wins.
            let winner_is_x = out & act_y;
            let winner = self.xid[i] ^ u64::from(!winner_is_x);
            let capped = !finished & payoff & (tricks >= max_tricks);
            let event = if finished {
                1 | (winner << 1)
            } else if capped {
                4
            } else {
                0
            };
            // After a penalty card by x, or a payoff, the roles swap.
            let swap = (pen & !act_y) | payoff;
            let (pm, pq, ps, m3) = if payoff {
                (0, 1, 0, 0)
            } else {
                (pm, pq, ps, m2)
            };
            if swap {
                (xm2, ym2) = (ym2, xm2);
                (xq2, yq2) = (yq2, xq2);
            }
            self.xm[i] = xm2;
            self.xq[i] = xq2;
            self.ym[i] = ym2;
            self.yq[i] = yq2;
            self.pm[i] = pm;
            self.pq[i] = pq;
            self.ps[i] = ps;
            self.m[i] = m3;
            self.v[i] = if pen { w } else { 0 };
            self.xid[i] ^= u64::from(swap);
            self.cards[i] = cards;
            self.tricks[i] = tricks;
            self.event[i] = event;
            any |= u64::from(event != 0) << i;
        }
        any
    }

    #[inline(always)]
    fn report(&self, i: usize) -> (u64, u64, u64) {
        (self.event[i], self.cards[i], self.tricks[i])
    }
}

/// [`encode_queue_pext`] reading the hand `buf[start..start + len]` eight bytes at a time
/// straight from the deal buffer (bytes past the hand are masked off), instead of copying
/// each chunk into a zeroed array: that copy compiled to a `memcpy` call per chunk, 14 per
/// refill.
///
/// # Safety
/// The CPU must support BMI2 and POPCNT.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "bmi2,popcnt")]
#[inline]
pub(crate) unsafe fn encode_queue_pext_at(buf: &[u8], start: usize, len: usize) -> (u64, u64) {
    use core::arch::x86_64::_pext_u64;
    const LSB: u64 = 0x0101_0101_0101_0101;
    const GATHER: u64 = 0x0102_0408_1020_4080; // byte i's bit 0 -> bit 56 + i
    debug_assert!(len < 64 && start + len <= buf.len());
    let mut mask = 0u64;
    let mut queue = 0u64;
    let mut s = 0u32;
    let mut off = 0;
    while off < len {
        let at = start + off;
        let mut w = match buf.get(at..at + 8) {
            Some(b) => u64::from_le_bytes(b.try_into().expect("8 bytes")),
            None => {
                // Only the last deal of a buffer: its tail is shorter than a word.
                let mut bytes = [0u8; 8];
                let n = (buf.len() - at).min(8);
                bytes[..n].copy_from_slice(&buf[at..at + n]);
                u64::from_le_bytes(bytes)
            }
        };
        let valid = len - off;
        if valid < 8 {
            w &= (1u64 << (8 * valid)) - 1;
        }
        let nz = (w | (w >> 1) | (w >> 2)) & LSB;
        let fields = nz * 7;
        queue |= _pext_u64(w, fields) << s;
        s += fields.count_ones();
        mask |= (nz.wrapping_mul(GATHER) >> 56) << off;
        off += 8;
    }
    debug_assert!(s < 64);
    (mask | (1u64 << len), queue | (1u64 << s))
}

/// The queue lanes written with AVX-512 intrinsics, the state held in registers.
///
/// Why (measured, Zen 4, kernel_speed 1e6 deals, CPU time): the auto-vectorised
/// `QueueLanes::step` loads and stores its 13 arrays on every step and builds the event
/// bitmask lane by lane in vector registers (about 135 instructions per 8 lanes); here a
/// step is about 60 vector instructions on values that stay in registers, the event masks
/// come straight from `k` registers, and the state is touched in memory only when a lane
/// finishes. Other savings: the trailing-zero counts are `vpopcntq((x - 1) & !x)` (3
/// instructions instead of 4), cards and tricks share one word (one masked add), the pile
/// is kept XOR-ed with 1 (saving the `^ 1` at each payoff), and the winner is left in
/// `xid` (no event word).
#[cfg(target_arch = "x86_64")]
pub(crate) mod avx512 {
    use core::arch::x86_64::*;

    use crate::Outcome;
    use crate::lockstep::{Job, next_deal};

    /// Largest trick cap the packed `cards | tricks << 32` counter takes: below it a game
    /// lays fewer than 64 * 2^24 = 2^30 cards, so the cards never carry into the tricks.
    pub(crate) const MAX_PACKED_TRICKS: u32 = 1 << 24;

    /// Eight lanes, as `QueueLanes` with `pm` and `pq` XOR-ed with 1 and `ctr` holding
    /// `cards | tricks << 32`. `xid` holds the winner after a finishing step.
    #[derive(Clone, Copy)]
    struct Vec8 {
        xm: __m512i,
        xq: __m512i,
        ym: __m512i,
        yq: __m512i,
        pm: __m512i,
        pq: __m512i,
        ps: __m512i,
        m: __m512i,
        v: __m512i,
        /// Which player `x` is, one bit per lane (a `k` register: flipping it is one
        /// mask operation, where a vector `xid` took three instructions).
        xid: u8,
        ctr: __m512i,
    }

    /// Constants of a step, built once per batch.
    #[derive(Clone, Copy)]
    struct Consts {
        one: __m512i,
        all: __m512i,
        three: __m512i,
        seven: __m512i,
        nine: __m512i,
        c63: __m512i,
        trick: __m512i,
        max: __m512i,
        top: __m512i,
    }

    /// `x` as its eight lanes.
    #[inline(always)]
    fn lanes(x: __m512i) -> [u64; 8] {
        // SAFETY: `__m512i` and `[u64; 8]` are both 64 plain bytes, every bit pattern valid.
        unsafe { core::mem::transmute::<__m512i, [u64; 8]>(x) }
    }

    #[target_feature(enable = "avx512f")]
    #[inline]
    fn idle(c: &Consts) -> Vec8 {
        // Empty stacks: an idle lane reports "out" on every step, masked off by the driver.
        Vec8 {
            xm: c.one,
            xq: c.one,
            ym: c.one,
            yq: c.one,
            pm: c.one,
            pq: _mm512_setzero_si512(),
            ps: _mm512_setzero_si512(),
            m: _mm512_setzero_si512(),
            v: _mm512_setzero_si512(),
            xid: 0,
            ctr: _mm512_setzero_si512(),
        }
    }

    /// `QueueLanes::step` on eight lanes; returns the masks of lanes that finished and
    /// of lanes that reached the cap. Comments give the scalar names.
    #[target_feature(enable = "avx512f,avx512cd,avx512vpopcntdq")]
    #[inline]
    fn step(s: &mut Vec8, c: &Consts) -> (u8, u8) {
        let (xm, xq, ym, yq, v, m) = (s.xm, s.xq, s.ym, s.yq, s.v, s.m);
        // Trailing-zero counts: popcnt((x - 1) & !x). Masks always hold their sentinel.
        let (xm1, ym1) = (_mm512_add_epi64(xm, c.all), _mm512_add_epi64(ym, c.all));
        let kx = _mm512_popcnt_epi64(_mm512_andnot_si512(xm, xm1));
        let ky = _mm512_popcnt_epi64(_mm512_andnot_si512(ym, ym1));
        let opening = _mm512_testn_epi64_mask(v, v);
        let act_y = _mm512_mask_cmplt_epu64_mask(opening, ky, kx);
        let k = _mm512_mask_blend_epi64(act_y, kx, ky);
        let aq = _mm512_mask_blend_epi64(act_y, xq, yq);
        let payoff = _mm512_mask_cmpge_epu64_mask(!opening, kx, v);
        // The actor's first event is its sentinel iff its mask is a power of two.
        let empty_x = _mm512_testn_epi64_mask(xm, xm1);
        let empty_y = _mm512_testn_epi64_mask(ym, ym1);
        let out = !payoff & ((act_y & empty_y) | (!act_y & empty_x));
        let pen = !(payoff | out);
        // before = kx in a payment, 2k + act_y in the opening (k = kx in a payment).
        let before = _mm512_mask_add_epi64(k, opening, k, k);
        let before = _mm512_mask_add_epi64(before, act_y, before, c.one);
        let w = _mm512_and_si512(aq, c.seven);
        let pos = _mm512_add_epi64(m, before);
        let pm = _mm512_mask_xor_epi64(s.pm, pen, s.pm, _mm512_rolv_epi64(c.one, pos));
        let pq = _mm512_mask_xor_epi64(
            s.pq,
            pen,
            s.pq,
            _mm512_rolv_epi64(_mm512_xor_si512(w, c.nine), s.ps),
        );
        let ps = _mm512_mask_add_epi64(s.ps, pen, s.ps, c.three);
        let k1 = _mm512_add_epi64(k, c.one);
        let rx = _mm512_mask_blend_epi64(payoff, k1, v);
        let ry = _mm512_mask_mov_epi64(_mm512_maskz_mov_epi64(opening, k), act_y, k1);
        // The low `rx` bits of `xm` hold at most the laid penalty card, at `rx - 1`, so
        // the shift is a rotation that moves that bit to 63, then cleared (no card sits at
        // 63 in a running game); likewise for y. Rotations, unlike `_mm512_srlv_epi64`,
        // need no compare against 64 around them (stdarch writes the shifts as generic
        // SIMD with an explicit range check).
        let xm2 = _mm512_andnot_si512(c.top, _mm512_rorv_epi64(xm, rx));
        let mut ym2 = _mm512_andnot_si512(c.top, _mm512_rorv_epi64(ym, ry));
        let xq2 = _mm512_mask_srli_epi64::<3>(xq, pen & !act_y, xq);
        let mut yq2 = _mm512_mask_srli_epi64::<3>(yq, pen & act_y, yq);
        let add_m = _mm512_mask_add_epi64(before, pen, before, c.one);
        let m2 = _mm512_add_epi64(m, _mm512_mask_mov_epi64(add_m, payoff, v));
        // Payoff: y takes the pile (its mask gains the sentinel at m2) under its stack.
        let ny = _mm512_sub_epi64(c.c63, _mm512_lzcnt_epi64(ym2));
        let pile = _mm512_or_si512(pm, _mm512_rolv_epi64(c.one, m2));
        ym2 = _mm512_mask_xor_epi64(ym2, payoff, ym2, _mm512_rolv_epi64(pile, ny));
        let qy = _mm512_sub_epi64(c.c63, _mm512_lzcnt_epi64(yq2));
        yq2 = _mm512_mask_xor_epi64(yq2, payoff, yq2, _mm512_rolv_epi64(pq, qy));
        let ends_trick = payoff | out;
        s.ctr = _mm512_mask_add_epi64(s.ctr, ends_trick, s.ctr, _mm512_add_epi64(m2, c.trick));
        let finished = out | _mm512_mask_cmpeq_epi64_mask(payoff, xm2, c.one);
        let capped = _mm512_mask_cmpge_epu64_mask(payoff & !finished, s.ctr, c.max);
        let swap = (pen & !act_y) | payoff;
        // The winner is y after a payoff (swap), the actor's opponent when it is out.
        s.xid ^= swap | (out & !act_y);
        s.pm = _mm512_mask_mov_epi64(pm, payoff, c.one);
        s.pq = _mm512_maskz_mov_epi64(!payoff, pq);
        s.ps = _mm512_maskz_mov_epi64(!payoff, ps);
        s.m = _mm512_maskz_mov_epi64(!payoff, m2);
        s.v = _mm512_maskz_mov_epi64(pen, w);
        s.xm = _mm512_mask_blend_epi64(swap, xm2, ym2);
        s.ym = _mm512_mask_blend_epi64(swap, ym2, xm2);
        s.xq = _mm512_mask_blend_epi64(swap, xq2, yq2);
        s.yq = _mm512_mask_blend_epi64(swap, yq2, xq2);
        (finished, capped)
    }

    /// Puts deal `d` into lane `i` of `s` (the other fields are reset by the caller).
    #[target_feature(enable = "avx512f,bmi2,popcnt")]
    #[inline]
    fn load(s: &mut Vec8, i: usize, job: &Job, d: usize) {
        let at = d * job.deal_len;
        // SAFETY: this function's target features include BMI2 and POPCNT.
        let (xm, xq) = unsafe { super::encode_queue_pext_at(job.deals, at, job.split) };
        let (ym, yq) = unsafe {
            super::encode_queue_pext_at(job.deals, at + job.split, job.deal_len - job.split)
        };
        let bit = 1u8 << i;
        s.xm = _mm512_mask_set1_epi64(s.xm, bit, xm as i64);
        s.xq = _mm512_mask_set1_epi64(s.xq, bit, xq as i64);
        s.ym = _mm512_mask_set1_epi64(s.ym, bit, ym as i64);
        s.yq = _mm512_mask_set1_epi64(s.yq, bit, yq as i64);
    }

    /// Resets the pile, counters and roles of the lanes in `fresh`.
    #[target_feature(enable = "avx512f")]
    #[inline]
    fn reset(s: &mut Vec8, fresh: u8, c: &Consts) {
        s.pm = _mm512_mask_mov_epi64(s.pm, fresh, c.one);
        s.pq = _mm512_maskz_mov_epi64(!fresh, s.pq);
        s.ps = _mm512_maskz_mov_epi64(!fresh, s.ps);
        s.m = _mm512_maskz_mov_epi64(!fresh, s.m);
        s.v = _mm512_maskz_mov_epi64(!fresh, s.v);
        s.xid &= !fresh;
        s.ctr = _mm512_maskz_mov_epi64(!fresh, s.ctr);
    }

    /// Reports the lanes of `s` that finished (`ev.0`) or were capped (`ev.1`) and refills
    /// them with the next deals.
    #[target_feature(enable = "avx512f,bmi2,popcnt")]
    #[inline(never)]
    #[allow(clippy::too_many_arguments)]
    fn handle(
        s: &mut Vec8,
        ev: (u8, u8),
        slot: &mut [usize; 8],
        active: &mut u8,
        next: &mut usize,
        job: &Job,
        out: &mut [Outcome],
        c: &Consts,
    ) {
        let (fin, cap) = ev;
        let ctr = lanes(s.ctr);
        let mut bits = (fin | cap) & *active;
        let mut fresh = 0u8;
        while bits != 0 {
            let i = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            let (cards, tricks) = (ctr[i] as u32, (ctr[i] >> 32) as u32);
            out[slot[i]] = if fin & (1 << i) != 0 {
                Outcome::Finished {
                    winner: (s.xid >> i) & 1,
                    cards,
                    tricks,
                }
            } else {
                Outcome::Capped { cards, tricks }
            };
            if let Some(d) = next_deal(job, out, next) {
                load(s, i, job, d);
                slot[i] = d;
                fresh |= 1 << i;
            } else {
                *active &= !(1 << i);
            }
        }
        reset(s, fresh, c);
    }

    /// Fills every lane of a fresh vector with the next deals (idle lanes where none is left).
    #[target_feature(enable = "avx512f,bmi2,popcnt")]
    #[inline(never)]
    fn fill(
        c: &Consts,
        slot: &mut [usize; 8],
        active: &mut u8,
        next: &mut usize,
        job: &Job,
        out: &mut [Outcome],
    ) -> Vec8 {
        let mut s = idle(c);
        for (i, sl) in slot.iter_mut().enumerate() {
            if let Some(d) = next_deal(job, out, next) {
                load(&mut s, i, job, d);
                *sl = d;
                *active |= 1 << i;
            }
        }
        reset(&mut s, *active, c);
        s
    }

    /// Defines a lockstep driver on `8 * K` lanes held in registers, one vector per listed
    /// index; the indices are literals so that no vector is ever addressed by a variable
    /// index (which kept them all in memory; with the other changes below the loop went
    /// from 3.1-3.25 to 3.4-3.7 M games/s once they stayed in registers). Needs `job.queue` and
    /// `job.max_tricks <= MAX_PACKED_TRICKS`.
    macro_rules! driver {
        ($name:ident, $k:literal, $($j:literal),+) => {
            #[target_feature(enable = "avx512f,avx512cd,avx512vpopcntdq,bmi2,popcnt")]
            pub(crate) fn $name(job: &Job, out: &mut [Outcome]) {
                debug_assert!(job.queue && job.max_tricks <= MAX_PACKED_TRICKS);
                let c = Consts {
                    one: _mm512_set1_epi64(1),
                    all: _mm512_set1_epi64(-1),
                    three: _mm512_set1_epi64(3),
                    seven: _mm512_set1_epi64(7),
                    nine: _mm512_set1_epi64(9),
                    c63: _mm512_set1_epi64(63),
                    trick: _mm512_set1_epi64(1 << 32),
                    max: _mm512_set1_epi64(i64::from(job.max_tricks) << 32),
                    top: _mm512_set1_epi64(i64::MIN),
                };
                // Deal of each lane; `active[j]` has bit `i` set iff lane `i` of vector `j`
                // plays one.
                let mut slot = [[0usize; 8]; $k];
                let mut active = [0u8; $k];
                let mut next = 0usize;
                let mut st = [$(fill(&c, &mut slot[$j], &mut active[$j], &mut next, job, out)),+];
                // Every deal may have been answered by `next_deal` (a cap of 0, an empty hand).
                while active.iter().any(|&a| a != 0) {
                    let mut ev = [(0u8, 0u8); $k];
                    let mut any = 0u8;
                    $(
                        ev[$j] = step(&mut st[$j], &c);
                        any |= (ev[$j].0 | ev[$j].1) & active[$j];
                    )+
                    if any == 0 {
                        continue;
                    }
                    $(
                        if (ev[$j].0 | ev[$j].1) & active[$j] != 0 {
                            let mut t = st[$j];
                            handle(
                                &mut t,
                                ev[$j],
                                &mut slot[$j],
                                &mut active[$j],
                                &mut next,
                                job,
                                out,
                                &c,
                            );
                            st[$j] = t;
                        }
                    )+
                }
            }
        };
    }
    // Vectors per driver, measured (Zen 4, kernel_speed 1e6 deals, CPU time, same session):
    // 1 / 2 / 3 vectors gave 3.05-3.21 / 3.49-3.68 / 3.38-3.47 M games/s. One vector is
    // bound by a step's latency; three do not fit the 32 registers (spills).
    driver!(run2, 2, 0, 1);
}
