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

use crate::Played;
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
            // SAFETY: `PEXT` is set only by `kernel::lanes_avx512`, which
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
                // y (the claim holder) takes the pile of `m2` cards under its stack. Wrapping:
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

/// Largest trick cap the streaming kernels' 64-bit packed `cards | tricks << 32` counter
/// takes: below it a game lays fewer than 64 * 2^24 = 2^30 cards, so the cards never reach
/// the flag bits.
#[cfg(target_arch = "x86_64")]
pub(crate) const MAX_PACKED_TRICKS: u32 = 1 << 24;

/// A streaming kernel's buffers (`avx512.rs`, `avx2.rs`): a batch's deals encoded up front,
/// one array per stack word, padded with a vector of empty deals so that a refill may always
/// load a whole vector; and the results as they leave the lanes, in the order they finish
/// (`res`: the counter with the flags; `idx`: the deal). Kept by the caller from batch to
/// batch (`KernelBuffers`): fresh buffers for every batch cost 10% of an enumeration's time
/// in page faults.
#[cfg(target_arch = "x86_64")]
#[derive(Default)]
pub(crate) struct Scratch<T> {
    pub(crate) xm: Vec<T>,
    pub(crate) xq: Vec<T>,
    pub(crate) ym: Vec<T>,
    pub(crate) yq: Vec<T>,
    pub(crate) res: Vec<T>,
    pub(crate) idx: Vec<T>,
}

/// Writes a streaming kernel's results to `out`: `res[i]` is the counter (`cards | tricks <<
/// shift`) of deal `idx[i]`, with the flags `capped` and `winner` (player 2 won) above it.
#[cfg(target_arch = "x86_64")]
pub(crate) fn write_results<T: Copy + Into<u64>>(
    res: &[T],
    idx: &[T],
    shift: u32,
    (capped, winner): (u64, u64),
    out: &mut [Played],
) {
    for (&w, &d) in res.iter().zip(idx) {
        let (w, d) = (w.into(), d.into());
        let plain = w & !(capped | winner);
        let (cards, tricks) = ((plain & ((1 << shift) - 1)) as u32, (plain >> shift) as u32);
        out[d as usize] = if w & capped == 0 {
            Played::Finished {
                winner: u8::from(w & winner != 0),
                cards,
                tricks,
            }
        } else {
            Played::Capped { cards, tricks }
        };
    }
}

/// The queue lanes written with AVX-512 intrinsics, the state held in registers.
#[cfg(target_arch = "x86_64")]
pub(crate) mod avx512;

/// The queue lanes written with AVX2 intrinsics, streamed as the AVX-512 ones are.
#[cfg(target_arch = "x86_64")]
pub(crate) mod avx2;

/// The streaming driver both share.
#[cfg(target_arch = "x86_64")]
mod stream;
