//! The queue lanes written with AVX-512 intrinsics, the state held in registers, in two
//! widths: 8 lanes of 64 bits (any deal of at most 64 cards) and 16 lanes of 32 bits (deals
//! of at most 30 cards and 10 penalty cards: Paulhus's reduced decks up to n = 22).
//!
//! Why a hand-written step (measured, Zen 4, kernel_speed 1e6 deals, CPU time): the
//! auto-vectorised `QueueLanes::step` loads and stores its 13 arrays on every step and builds
//! the event bitmask lane by lane in vector registers (about 135 instructions per 8 lanes);
//! here a step is about 60 vector instructions on values that stay in registers, the event
//! masks come straight from `k` registers, and the state is touched in memory only when a
//! lane finishes. Other savings: the trailing-zero counts are `vpopcnt((x - 1) & !x)` (3
//! instructions instead of 4), cards and tricks share one word (one masked add), the pile is
//! kept XOR-ed with 1 (saving the `^ 1` at each payoff), and the winner is left in `xid` (no
//! event word).
//!
//! Why streaming: on reduced decks a lane finishes every ~25 steps, so a scalar refill that
//! encodes the next deal byte by byte behind a branch per lane dominates. Here the whole
//! batch is encoded up front (a masked load, a byte test and a byte compress per deal),
//! finished lanes take the next deals with one `vpexpand` per stack word and report through
//! `vpcompress` into a log that is read once at the end; the 32-bit lanes put twice the
//! games in each instruction on small decks. Measured on every deal of 2J,2Q,2K,2A,16- (2
//! threads, CPU time): 202-209 s with a scalar refill, 162 s streaming, 117 s with the 32-bit
//! lanes (BENCHMARKS.md).
//!
//! Why a macro: the two widths are the same algorithm on different intrinsics (`_epi64`
//! and `_epi32`), which generic Rust cannot express without losing the inlining of the
//! intrinsics into the `#[target_feature]` functions. One body calls each intrinsic by its
//! role (`add`, `popcnt`, `rolv`, ...); one table at the end of this file names each role's
//! intrinsic in either width, and the body is instantiated once per width from it.

use crate::Played;
use crate::lockstep::Job;

/// Whether the 32-bit lanes can play a batch of this shape: stacks of at most 30 cards keep
/// bit 31 free for the rotation trick, and the `cards | tricks << 17` counter must hold the
/// most cards a capped game can lay and the cap itself, with bits 30 and 31 free for the
/// flags (so the default search cap of 3000 tricks fits every such deck).
pub(crate) fn fits_narrow(deal_len: usize, max_tricks: u32) -> bool {
    deal_len <= 30 && max_tricks < (1 << 13) && (max_tricks as usize) * deal_len < (1 << 17)
}

/// Defines a module `$name` holding the streaming kernel on lanes of `$t`: `$lanes` lanes a
/// vector, `$mask` a `k` register, penalty queues of at most `$max_penalty` codes, the
/// tricks at bit `$shift` of the counter, then the width's intrinsics, each imported under
/// the name of its role (`add`, `popcnt`, ...), which is what the body calls.
macro_rules! stream_kernel {
    (
        $name:ident, $t:ty, $mask:ty, $lanes:literal, $max_penalty:literal, $shift:literal,
        { $($intrinsic:ident as $role:ident),* }
    ) => {
        pub(crate) mod $name {
            use core::arch::x86_64::*;
            // This width's intrinsics under the names of their roles.
            use core::arch::x86_64::{$($intrinsic as $role),*};

            use crate::Played;
            use crate::lockstep::Job;

            /// Bits in a lane.
            const BITS: u32 = <$t>::BITS;
            /// Flags in a reported counter word (bits the counter never reaches).
            const CAPPED: $t = 1 << 30;
            const WINNER: $t = 1 << 31;
            /// A lane's top bit.
            const TOP: $t = 1 << (BITS - 1);
            /// `0, 1, 2, ...`: lane numbers.
            const IOTA: [$t; $lanes] = {
                let mut a = [0; $lanes];
                let mut i = 0;
                while i < $lanes {
                    a[i] = i as $t;
                    i += 1;
                }
                a
            };

            /// One vector of lanes, as `QueueLanes` with `pm` and `pq` XOR-ed with 1 and
            /// `ctr` holding `cards | tricks << $shift`. `xid` holds the winner after a
            /// finishing step.
            #[derive(Clone, Copy)]
            struct Lanes {
                xm: __m512i,
                xq: __m512i,
                ym: __m512i,
                yq: __m512i,
                pm: __m512i,
                pq: __m512i,
                ps: __m512i,
                m: __m512i,
                v: __m512i,
                /// Which player `x` is, one bit per lane (a `k` register: flipping it is
                /// one mask operation, where a vector `xid` took three instructions).
                xid: $mask,
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
                top_index: __m512i,
                trick: __m512i,
                max: __m512i,
                top: __m512i,
                iota: __m512i,
            }

            #[target_feature(enable = "avx512f")]
            #[inline]
            fn idle(c: &Consts) -> Lanes {
                // Empty stacks: an idle lane reports "out" on every step, masked off by
                // the driver.
                Lanes {
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

            /// `QueueLanes::step` on every lane; returns the masks of lanes that finished
            /// and of lanes that reached the cap. Comments give the scalar names.
            #[target_feature(enable = "avx512f,avx512cd,avx512vpopcntdq")]
            #[inline]
            fn step(s: &mut Lanes, c: &Consts) -> ($mask, $mask) {
                let (xm, xq, ym, yq, v, m) = (s.xm, s.xq, s.ym, s.yq, s.v, s.m);
                // Trailing-zero counts: popcnt((x - 1) & !x). Masks always hold their
                // sentinel.
                let (xm1, ym1) = (add(xm, c.all), add(ym, c.all));
                let kx = popcnt(_mm512_andnot_si512(xm, xm1));
                let ky = popcnt(_mm512_andnot_si512(ym, ym1));
                let opening = testn(v, v);
                let act_y = cmplt(opening, ky, kx);
                let k = blend(act_y, kx, ky);
                let aq = blend(act_y, xq, yq);
                let payoff = cmpge(!opening, kx, v);
                // The actor's first event is its sentinel iff its mask is a power of two.
                let empty_x = testn(xm, xm1);
                let empty_y = testn(ym, ym1);
                let out = !payoff & ((act_y & empty_y) | (!act_y & empty_x));
                let pen = !(payoff | out);
                // before = kx in a payment, 2k + act_y in the opening (k = kx in a
                // payment).
                let before = mask_add(k, opening, k, k);
                let before = mask_add(before, act_y, before, c.one);
                let w = _mm512_and_si512(aq, c.seven);
                let pos = add(m, before);
                let pm = mask_xor(s.pm, pen, s.pm, rolv(c.one, pos));
                let pq = mask_xor(s.pq, pen, s.pq, rolv(_mm512_xor_si512(w, c.nine), s.ps));
                let ps = mask_add(s.ps, pen, s.ps, c.three);
                let k1 = add(k, c.one);
                let rx = blend(payoff, k1, v);
                let ry = mask_mov(maskz_mov(opening, k), act_y, k1);
                // The low `rx` bits of `xm` hold at most the laid penalty card, at
                // `rx - 1`, so the shift is a rotation that moves that bit to the top,
                // then cleared (no card sits at the top bit in a running game); likewise
                // for y. Rotations, unlike `srlv`, need no compare against the width
                // around them (stdarch writes the shifts as generic SIMD with an explicit
                // range check).
                let xm2 = _mm512_andnot_si512(c.top, rorv(xm, rx));
                let mut ym2 = _mm512_andnot_si512(c.top, rorv(ym, ry));
                let xq2 = mask_srli::<3>(xq, pen & !act_y, xq);
                let mut yq2 = mask_srli::<3>(yq, pen & act_y, yq);
                let add_m = mask_add(before, pen, before, c.one);
                let m2 = add(m, mask_mov(add_m, payoff, v));
                // Payoff: y takes the pile (its mask gains the sentinel at m2) under its
                // stack.
                let ny = sub(c.top_index, lzcnt(ym2));
                let pile = _mm512_or_si512(pm, rolv(c.one, m2));
                ym2 = mask_xor(ym2, payoff, ym2, rolv(pile, ny));
                let qy = sub(c.top_index, lzcnt(yq2));
                yq2 = mask_xor(yq2, payoff, yq2, rolv(pq, qy));
                let ends_trick = payoff | out;
                s.ctr = mask_add(s.ctr, ends_trick, s.ctr, add(m2, c.trick));
                let finished = out | cmpeq(payoff, xm2, c.one);
                let capped = cmpge(payoff & !finished, s.ctr, c.max);
                let swap = (pen & !act_y) | payoff;
                // The winner is y after a payoff (swap), the actor's opponent when it is
                // out.
                s.xid ^= swap | (out & !act_y);
                s.pm = mask_mov(pm, payoff, c.one);
                s.pq = maskz_mov(!payoff, pq);
                s.ps = maskz_mov(!payoff, ps);
                s.m = maskz_mov(!payoff, m2);
                s.v = maskz_mov(pen, w);
                s.xm = blend(swap, xm2, ym2);
                s.ym = blend(swap, ym2, xm2);
                s.xq = blend(swap, xq2, yq2);
                s.yq = blend(swap, yq2, xq2);
                (finished, capped)
            }

            /// Resets the pile, counters and roles of the lanes in `fresh`.
            #[target_feature(enable = "avx512f")]
            #[inline]
            fn reset(s: &mut Lanes, fresh: $mask, c: &Consts) {
                s.pm = mask_mov(s.pm, fresh, c.one);
                s.pq = maskz_mov(!fresh, s.pq);
                s.ps = maskz_mov(!fresh, s.ps);
                s.m = maskz_mov(!fresh, s.m);
                s.v = maskz_mov(!fresh, s.v);
                s.xid &= !fresh;
                s.ctr = maskz_mov(!fresh, s.ctr);
            }

            /// This width's buffers.
            type Scratch = crate::queue::Scratch<$t>;

            std::thread_local! {
                static SCRATCH: core::cell::RefCell<Scratch> = core::cell::RefCell::default();
            }

            /// Encodes every deal of the batch (a masked 64-byte load, the penalty mask a
            /// byte test, the penalty codes compressed to the front and packed three bits
            /// each by `pext`); false if some deal holds more than `$max_penalty` penalty
            /// cards. Writing into presized arrays, not pushing: the pushes' capacity
            /// checks kept the vector in memory (+17% for the whole enumeration).
            #[target_feature(enable = "avx512f,avx512bw,avx512vbmi2,bmi2,popcnt")]
            fn encode_all(job: &Job, n: usize, e: &mut Scratch) -> bool {
                const FIELDS: u64 = 0x0707_0707_0707_0707;
                let (len, split) = (job.deal_len, job.split);
                debug_assert!(0 < split && split < len && len <= 64);
                for v in [&mut e.xm, &mut e.xq, &mut e.ym, &mut e.yq] {
                    // Past the deals: empty stacks (an idle lane's).
                    v.clear();
                    v.resize(n + $lanes, 1);
                }
                let all = u64::MAX >> (64 - len);
                let first = (1u64 << split) - 1;
                let stacks =
                    e.xm.iter_mut()
                        .zip(&mut e.xq)
                        .zip(e.ym.iter_mut().zip(&mut e.yq));
                for (deal, ((xm, xq), (ym, yq))) in job.deals.chunks_exact(len).zip(stacks) {
                    // SAFETY: the masked load reads only the deal's `len` bytes.
                    let v = unsafe { _mm512_maskz_loadu_epi8(all, deal.as_ptr().cast()) };
                    let pen = _mm512_test_epi8_mask(v, v);
                    let total = pen.count_ones();
                    if total > $max_penalty {
                        return false;
                    }
                    let mine = (pen & first).count_ones();
                    let codes = _mm512_maskz_compress_epi8(pen, v);
                    let low = _mm512_castsi512_si128(codes);
                    let c0 = _mm_cvtsi128_si64(low) as u64;
                    let c1 = _mm_extract_epi64::<1>(low) as u64;
                    let c2 = _mm_cvtsi128_si64(_mm512_extracti32x4_epi32::<1>(codes)) as u64;
                    // At most 21 codes: the third word's sixth and later fields are empty.
                    let q = _pext_u64(c0, FIELDS)
                        | (_pext_u64(c1, FIELDS) << 24)
                        | (_pext_u64(c2, FIELDS) << 48);
                    let (sx, sy) = (3 * mine, 3 * (total - mine));
                    // The bounds above keep every word below `BITS` bits.
                    *xm = ((pen & first) | (1 << split)) as $t;
                    *xq = ((q & ((1u64 << sx) - 1)) | (1 << sx)) as $t;
                    *ym = ((pen >> split) | (1 << (len - split))) as $t;
                    *yq = ((q >> sx) | (1 << sy)) as $t;
                }
                true
            }

            /// Loads the next deals into the lanes in `ended` (in lane order), numbering
            /// them in `slot`; `live` marks the lanes that hold a deal of the batch.
            #[target_feature(enable = "avx512f,bmi2,popcnt")]
            #[inline]
            #[allow(clippy::too_many_arguments)]
            fn refill(
                s: &mut Lanes,
                slot: &mut __m512i,
                live: &mut $mask,
                ended: $mask,
                enc: &Scratch,
                next: &mut usize,
                n: usize,
                c: &Consts,
            ) {
                let at = *next;
                // SAFETY: `at <= n` and each array holds `n + $lanes` entries.
                let (xm, xq, ym, yq) = unsafe {
                    (
                        _mm512_loadu_si512(enc.xm.as_ptr().add(at).cast()),
                        _mm512_loadu_si512(enc.xq.as_ptr().add(at).cast()),
                        _mm512_loadu_si512(enc.ym.as_ptr().add(at).cast()),
                        _mm512_loadu_si512(enc.yq.as_ptr().add(at).cast()),
                    )
                };
                s.xm = expand(s.xm, ended, xm);
                s.xq = expand(s.xq, ended, xq);
                s.ym = expand(s.ym, ended, ym);
                s.yq = expand(s.yq, ended, yq);
                *slot = expand(*slot, ended, add(set1(at as _), c.iota));
                let avail = (n - at).min($lanes) as u32;
                let fresh = _pdep_u32((1u32 << avail) - 1, u32::from(ended)) as $mask;
                *live = (*live & !ended) | fresh;
                *next = (at + ended.count_ones() as usize).min(n);
                reset(s, ended, c);
            }

            /// Plays the batch; false (nothing written) if some deal has more than
            /// `$max_penalty` penalty cards. Needs `0 < split < deal_len <= 64` and a cap
            /// that the counter takes.
            ///
            /// # Safety
            /// The CPU must support AVX-512 F, BW, CD, VPOPCNTDQ and VBMI2, BMI2 and POPCNT.
            #[target_feature(
                enable = "avx512f,avx512bw,avx512cd,avx512vpopcntdq,avx512vbmi2,bmi2,popcnt"
            )]
            pub(crate) fn run(job: &Job, out: &mut [Played]) -> bool {
                let mut scratch = SCRATCH.take();
                let fits = play(job, out, &mut scratch);
                SCRATCH.set(scratch);
                fits
            }

            /// [`run`] with its buffers.
            #[target_feature(
                enable = "avx512f,avx512bw,avx512cd,avx512vpopcntdq,avx512vbmi2,bmi2,popcnt"
            )]
            fn play(job: &Job, out: &mut [Played], enc: &mut Scratch) -> bool {
                debug_assert!(job.max_tricks > 0 && 0 < job.split && job.split < job.deal_len);
                let n = out.len();
                if !encode_all(job, n, enc) {
                    return false;
                }
                // Every entry read back below is written first; a shorter buffer only grows.
                let (mut res, mut idx) =
                    (core::mem::take(&mut enc.res), core::mem::take(&mut enc.idx));
                if res.len() < n + $lanes {
                    res.resize(n + $lanes, 0);
                    idx.resize(n + $lanes, 0);
                }
                let c = Consts {
                    one: set1(1),
                    all: set1(-1),
                    three: set1(3),
                    seven: set1(7),
                    nine: set1(9),
                    top_index: set1((BITS - 1) as _),
                    trick: set1(1 << $shift),
                    max: set1((<$t>::from(job.max_tricks) << $shift) as _),
                    top: set1(TOP as _),
                    // SAFETY: `IOTA` is one vector's bytes.
                    iota: unsafe { _mm512_loadu_si512(IOTA.as_ptr().cast()) },
                };
                let (capped_flag, winner_flag) = (set1(CAPPED as _), set1(WINNER as _));
                let (mut next, mut done) = (0usize, 0usize);
                let mut st = [idle(&c), idle(&c)];
                let mut slot = [_mm512_setzero_si512(); 2];
                let mut live: [$mask; 2] = [0; 2];
                refill(
                    &mut st[0],
                    &mut slot[0],
                    &mut live[0],
                    !0,
                    enc,
                    &mut next,
                    n,
                    &c,
                );
                refill(
                    &mut st[1],
                    &mut slot[1],
                    &mut live[1],
                    !0,
                    enc,
                    &mut next,
                    n,
                    &c,
                );
                // Indices are literals so that no vector is ever addressed by a variable
                // index (which kept them all in memory). Two vectors: one is bound by a
                // step's latency, three do not fit the 32 registers.
                macro_rules! one {
                    ($j:literal) => {{
                        let (fin, cap) = step(&mut st[$j], &c);
                        let ended = fin | cap;
                        // A branch, not straight-line code: in most steps no lane ends
                        // (measured, reduced deals: 84-88 -> 78-80 ns a game).
                        if ended != 0 {
                            let k = ended & live[$j];
                            let word = mask_or(st[$j].ctr, cap, st[$j].ctr, capped_flag);
                            let word = mask_or(word, st[$j].xid & fin, word, winner_flag);
                            // SAFETY: `done + popcnt(k) <= n`, both arrays hold
                            // `n + $lanes` entries.
                            unsafe {
                                let at = res.as_mut_ptr().add(done).cast();
                                _mm512_storeu_si512(at, compress(k, word));
                                let at = idx.as_mut_ptr().add(done).cast();
                                _mm512_storeu_si512(at, compress(k, slot[$j]));
                            }
                            done += k.count_ones() as usize;
                            refill(
                                &mut st[$j],
                                &mut slot[$j],
                                &mut live[$j],
                                ended,
                                enc,
                                &mut next,
                                n,
                                &c,
                            );
                        }
                    }};
                }
                while done < n {
                    one!(0);
                    one!(1);
                }
                crate::queue::write_results(
                    &res[..n],
                    &idx[..n],
                    $shift,
                    (CAPPED.into(), WINNER.into()),
                    out,
                );
                (enc.res, enc.idx) = (res, idx);
                true
            }
        }
    };
}

/// Defines `wide` (8 lanes of `u64`) and `narrow` (16 lanes of `u32`) from one table: each role
/// and its intrinsic in either width.
macro_rules! stream_kernels {
    ($($role:ident: $wide:ident / $narrow:ident),* $(,)?) => {
        stream_kernel!(wide, u64, u8, 8, 21, 32, { $($wide as $role),* });
        stream_kernel!(narrow, u32, u16, 16, 10, 17, { $($narrow as $role),* });
    };
}

stream_kernels!(
    set1: _mm512_set1_epi64 / _mm512_set1_epi32,
    add: _mm512_add_epi64 / _mm512_add_epi32,
    sub: _mm512_sub_epi64 / _mm512_sub_epi32,
    mask_add: _mm512_mask_add_epi64 / _mm512_mask_add_epi32,
    popcnt: _mm512_popcnt_epi64 / _mm512_popcnt_epi32,
    lzcnt: _mm512_lzcnt_epi64 / _mm512_lzcnt_epi32,
    testn: _mm512_testn_epi64_mask / _mm512_testn_epi32_mask,
    cmplt: _mm512_mask_cmplt_epu64_mask / _mm512_mask_cmplt_epu32_mask,
    cmpge: _mm512_mask_cmpge_epu64_mask / _mm512_mask_cmpge_epu32_mask,
    cmpeq: _mm512_mask_cmpeq_epi64_mask / _mm512_mask_cmpeq_epi32_mask,
    blend: _mm512_mask_blend_epi64 / _mm512_mask_blend_epi32,
    mask_mov: _mm512_mask_mov_epi64 / _mm512_mask_mov_epi32,
    maskz_mov: _mm512_maskz_mov_epi64 / _mm512_maskz_mov_epi32,
    mask_xor: _mm512_mask_xor_epi64 / _mm512_mask_xor_epi32,
    mask_or: _mm512_mask_or_epi64 / _mm512_mask_or_epi32,
    rolv: _mm512_rolv_epi64 / _mm512_rolv_epi32,
    rorv: _mm512_rorv_epi64 / _mm512_rorv_epi32,
    mask_srli: _mm512_mask_srli_epi64 / _mm512_mask_srli_epi32,
    expand: _mm512_mask_expand_epi64 / _mm512_mask_expand_epi32,
    compress: _mm512_maskz_compress_epi64 / _mm512_maskz_compress_epi32,
);

/// Plays the batch on the narrowest lanes that take it; false if neither does (a deal of
/// more than 21 penalty cards), with nothing written. Needs `0 < split < deal_len <= 64`
/// and `1 <= max_tricks <= queue::MAX_PACKED_TRICKS`.
///
/// # Safety
/// The CPU must support AVX-512 F, BW, CD, VPOPCNTDQ and VBMI2, BMI2 and POPCNT.
#[target_feature(enable = "avx512f,avx512bw,avx512cd,avx512vpopcntdq,avx512vbmi2,bmi2,popcnt")]
pub(crate) fn run_stream(job: &Job, out: &mut [Played]) -> bool {
    (fits_narrow(job.deal_len, job.max_tricks) && narrow::run(job, out)) || wide::run(job, out)
}
