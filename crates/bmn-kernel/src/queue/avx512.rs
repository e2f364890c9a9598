//! The queue lanes written with AVX-512 intrinsics, the state held in registers, in two
//! widths: 8 lanes of 64 bits (any deal of at most 64 cards) and 16 lanes of 32 bits (deals
//! of at most 30 cards and 10 penalty cards: Paulhus's reduced decks up to n = 22).
//!
//! Why a hand-written step (measured, Zen 4, kernel_speed 1e6 deals, CPU time): the
//! auto-vectorised `QueueLanes::step` loads and stores its 13 arrays on every step and builds
//! the event bitmask lane by lane in vector registers (about 135 instructions per 8 lanes);
//! here a step is about 60 vector instructions on values that stay in registers, the event
//! masks come straight from `k` registers, and the state is touched in memory only when a
//! lane finishes. The step's own shape (top-first masks, issue 52) is explained at `step`;
//! other savings: cards and tricks share one word (one masked add), the pile queue is kept
//! XOR-ed with 1 (saving the `^ 1` at each payoff), and the winner is left in `xid` (no
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
//! The driver (encoding, refills, the log) is `stream.rs`'s, shared with AVX2; this file is
//! the step and the operations the driver asks of AVX-512.
//!
//! Why a macro: the two widths are the same step on different intrinsics (`_epi64` and
//! `_epi32`), which a generic `Step` impl could express only through a trait per intrinsic.
//! One body calls each intrinsic by its role (`add`, `popcnt`, `rolv`, ...); one table at
//! the end of this file names each role's intrinsic in either width, and the body is
//! instantiated once per width from it.

/// Whether the 32-bit lanes can play a batch of this shape: stacks of at most 30 cards keep
/// bit 31 free for the rotation trick, and the `cards | tricks << 17` counter must hold the
/// most cards a capped game can lay and the cap itself, with bits 30 and 31 free for the
/// flags (so the default search cap of 3000 tricks fits every such deck).
pub(crate) fn fits_narrow(deal_len: usize, max_tricks: u32) -> bool {
    deal_len <= 30 && max_tricks < (1 << 13) && (max_tricks as usize) * deal_len < (1 << 17)
}

/// Most penalty cards a deal may hold on the 64-bit lanes: 21 codes of 3 bits and a marker.
pub(crate) const MAX_PENALTY_WIDE: usize = 21;
/// Most penalty cards on the 32-bit lanes: 10 codes and a marker.
pub(crate) const MAX_PENALTY_NARROW: usize = 10;

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
            use crate::lockstep::Batch;
            use crate::queue::Scratch;
            use crate::queue::stream::{self, Step};

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

            /// One vector of lanes, as `QueueLanes` but with the masks top card first
            /// (card `i` at bit `BITS - 1 - i`, the sentinel below the last card), the pile
            /// mask likewise without a sentinel and XOR-ed with the top bit (which then
            /// clears the taker's sentinel), the pile queue XOR-ed with 1 and rotated right
            /// by one (its base at the top bit, `ps` counting from `BITS - 1`), and `ctr`
            /// holding `cards | tricks << $shift`. `xid` holds the winner after a
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
                /// Cards on the pile; none exactly in an opening (a payoff empties it, and a
                /// penalty card starts a payment on it), so no separate debt is kept: the
                /// step that sets a debt plays its payoff too if there is one, so a payment's
                /// size is never read.
                m: __m512i,
                /// Which player `x` is, one bit per lane (a `k` register: flipping it is
                /// one mask operation, where a vector `xid` took three instructions).
                xid: $mask,
                ctr: __m512i,
                /// The deal each lane plays.
                slot: __m512i,
            }

            /// Constants of a step, built once per batch.
            #[derive(Clone, Copy)]
            struct Consts {
                one: __m512i,
                three: __m512i,
                seven: __m512i,
                nine: __m512i,
                /// Where the pile queue's marker starts: `BITS - 1`, one below bit 0.
                ps0: __m512i,
                trick: __m512i,
                max: __m512i,
                top: __m512i,
                iota: __m512i,
                /// The flags of a reported word.
                capped: __m512i,
                winner: __m512i,
            }

            #[target_feature(enable = "avx512f")]
            #[inline]
            fn idle(c: &Consts) -> Lanes {
                // Empty stacks: an idle lane reports "out" on every step, masked off by
                // the driver.
                Lanes {
                    xm: c.top,
                    xq: c.one,
                    ym: c.top,
                    yq: c.one,
                    pm: c.top,
                    pq: _mm512_setzero_si512(),
                    ps: c.ps0,
                    m: _mm512_setzero_si512(),
                    xid: 0,
                    ctr: _mm512_setzero_si512(),
                    slot: _mm512_setzero_si512(),
                }
            }

            /// One step on every lane: a penalty card (or a player out of cards), and the
            /// payoff that follows it at once when the payer's next cards are all plain,
            /// where `QueueLanes::step` takes a second step for it. Returns the masks of
            /// lanes that finished and of lanes that reached the cap (or finished on that
            /// step: the driver, which runs only when some lane ends, gives finishing
            /// precedence). Comments give the scalar names.
            ///
            /// Why this shape (issue 52, measured in BENCHMARKS.md): a standard game is
            /// about 79 penalty cards and 35 tricks, and 31% of the old steps were payoffs
            /// that computed a penalty card for nothing (and the other steps a payoff for
            /// nothing); here each step does both, 1.45 events a step, for about 73
            /// instructions where the old step took about 108 for one. Top-first masks
            /// make each event one `lzcnt` (the trailing-zero count took three
            /// instructions) and each lay one `sllv` (a rotation and a clear before), and
            /// a lane is out when its shifted mask is zero. A lane that ends is refilled
            /// before its state is read again, so the masks may treat it as they like:
            /// that folds the roles, the winner and the pile's reset into the few masks
            /// the step computes anyway (`act_y`, `payoff`), where the compiler otherwise
            /// moved mask logic through general registers. Single bits are placed by
            /// rotations, which take any count, where `srlv` gets a range check from
            /// stdarch (a compare and a masked move).
            #[target_feature(enable = "avx512f,avx512cd,avx512vpopcntdq")]
            #[inline]
            fn step(s: &mut Lanes, c: &Consts) -> ($mask, $mask) {
                let (xm, xq, ym, yq, m) = (s.xm, s.xq, s.ym, s.yq, s.m);
                // The event: the first penalty card (or missing card) in the opening or the
                // payment. A payment never ends in a payoff here: the step that set the
                // debt played the payoff if there was one.
                let kx = lzcnt(xm);
                let ky = lzcnt(ym);
                let opening = testn(m, m);
                let act_y = cmplt(opening, ky, kx);
                let k = blend(act_y, kx, ky);
                // pos = m + before, before = kx in a payment, 2k + act_y in the opening;
                // y lays ry = before - k: k + act_y in the opening, none in a payment; x
                // lays k + 1.
                let pos0 = add(m, k);
                let pos = mask_add(pos0, opening, pos0, k);
                let pos = mask_add(pos, act_y, pos, c.one);
                let ry = sub(pos, pos0);
                let xm2 = sllv(xm, add(k, c.one));
                let ym2 = sllv(ym, ry);
                // The actor laid past its sentinel (the other player's shifted mask keeps
                // its sentinel).
                let out = testn(min(xm2, ym2), min(xm2, ym2));
                // The actor (a) laid a penalty card worth w; the other player (b) owes w.
                let aq = blend(act_y, xq, yq);
                let w = _mm512_and_si512(aq, c.seven);
                let am = blend(act_y, xm2, ym2);
                let bm = blend(act_y, ym2, xm2);
                let aq2 = srli::<3>(aq);
                let bq = blend(act_y, yq, xq);
                // The pile with the penalty card on it.
                let card = rorv(c.top, pos);
                let pq1 = _mm512_xor_si512(s.pq, rolv(_mm512_xor_si512(w, c.nine), s.ps));
                let m1 = add(pos, c.one);
                // The payoff in the same step: b's first w cards are plain.
                let payoff = cmpge(!out, lzcnt(bm), w);
                let bm3 = mask_sllv(bm, payoff, bm, w);
                // Cards on the pile when the trick ends: pos + 1 + w in a payoff, pos when
                // out.
                let cm = mask_add(pos, payoff, m1, w);
                // Payoff: a takes the pile under its stack. The pile (with its sentinel
                // at `cm`) rotated so that its top bit lands on a's sentinel, at the
                // count of a's bits up to its sentinel; the pile queue rotated right to
                // a's queue marker.
                let pile = _mm512_ternarylogic_epi64::<0xbe>(s.pm, card, rorv(c.top, cm));
                let to_sentinel = popcnt(_mm512_xor_si512(am, sub(am, c.one)));
                let am3 = mask_xor(am, payoff, am, rolv(pile, to_sentinel));
                let aq3 = mask_xor(aq2, payoff, aq2, rorv(pq1, lzcnt(aq2)));
                let ends = payoff | out;
                s.ctr = mask_add(s.ctr, ends, s.ctr, add(cm, c.trick));
                let finished = out | cmpeq(payoff, bm3, c.top);
                let capped = cmpge(payoff, s.ctr, c.max);
                // A payoff empties the pile and a leads; otherwise b pays next.
                let going = !payoff;
                s.pm = mask_xor(c.top, going, s.pm, card);
                s.pq = maskz_mov(going, pq1);
                s.ps = mask_add(c.ps0, going, s.ps, c.three);
                s.m = maskz_mov(going, m1);
                // x is a after a payoff, b otherwise; the winner is a after a payoff, b
                // when a is out.
                s.xid = !(s.xid ^ act_y ^ payoff);
                s.xm = blend(payoff, bm3, am3);
                s.ym = blend(payoff, am3, bm3);
                s.xq = blend(payoff, bq, aq3);
                s.yq = blend(payoff, aq3, bq);
                (finished, capped)
            }

            /// Resets the pile, counters and roles of the lanes in `fresh`.
            #[target_feature(enable = "avx512f")]
            #[inline]
            fn reset(s: &mut Lanes, fresh: $mask, c: &Consts) {
                s.pm = mask_mov(s.pm, fresh, c.top);
                s.pq = maskz_mov(!fresh, s.pq);
                s.ps = mask_mov(s.ps, fresh, c.ps0);
                s.m = maskz_mov(!fresh, s.m);
                s.xid &= !fresh;
                s.ctr = maskz_mov(!fresh, s.ctr);
            }

            /// `x`, which the compiler can no longer see through: kept as a constant,
            /// `1` let it turn each masked add of one into a mask widened to a vector, a
            /// shift and a subtraction (three instructions for one).
            #[target_feature(enable = "avx512f")]
            #[inline]
            fn opaque(mut x: __m512i) -> __m512i {
                // SAFETY: an empty template that leaves the register as it is.
                unsafe {
                    core::arch::asm!("/* {0} */", inout(zmm_reg) x, options(pure, nomem, nostack))
                };
                x
            }

            /// Each 64-bit lane's bits reversed (the bits of each byte by a GF(2) affine map,
            /// then the bytes by a shuffle), for a wide word; for a narrow one, its low
            /// half's 32 bits reversed into the low half.
            #[target_feature(enable = "avx512f,avx512bw,gfni")]
            #[inline]
            fn reversed(v: __m512i) -> __m512i {
                // Row `7 - i` of the map picks bit `i`.
                let map = _mm512_set1_epi64(0x8040_2010_0804_0201_u64 as i64);
                let bits = _mm512_gf2p8affine_epi64_epi8::<0>(v, map);
                // Within each 16-byte lane: bytes 7..0, then 15..8.
                let order = _mm512_set4_epi64(
                    0x0809_0a0b_0c0d_0e0f,
                    0x0001_0203_0405_0607,
                    0x0809_0a0b_0c0d_0e0f,
                    0x0001_0203_0405_0607,
                );
                let r = _mm512_shuffle_epi8(bits, order);
                if BITS == 64 { r } else { _mm512_srli_epi64::<32>(r) }
            }

            /// Stores eight 64-bit lanes as eight words of this width (a narrow word the
            /// lane's low half).
            ///
            /// # Safety
            /// `to` must be valid for eight words.
            #[target_feature(enable = "avx512f")]
            #[inline]
            unsafe fn put(to: *mut $t, v: __m512i) {
                // SAFETY: the caller's.
                unsafe {
                    if BITS == 64 {
                        _mm512_storeu_si512(to.cast(), v)
                    } else {
                        _mm256_storeu_si256(to.cast(), _mm512_cvtepi64_epi32(v))
                    }
                }
            }

            /// This width for the streaming driver.
            struct Width;

            impl Step for Width {
                type Word = $t;
                type Lanes = Lanes;
                type Flags = $mask;
                type Consts = Consts;
                const LANES: usize = $lanes;
                const MAX_PENALTY: u32 = $max_penalty;
                const SHIFT: u32 = $shift;
                const CAPPED: u64 = CAPPED as u64;
                const WINNER: u64 = WINNER as u64;
                const EMPTY: ($t, $t) = (TOP, 1);

                #[target_feature(enable = "avx512f")]
                #[inline]
                unsafe fn consts(max_tricks: u32) -> Consts {
                    Consts {
                        one: opaque(set1(1)),
                        three: set1(3),
                        seven: set1(7),
                        nine: set1(9),
                        ps0: set1((BITS - 1) as _),
                        trick: set1(1 << $shift),
                        max: set1((<$t>::from(max_tricks) << $shift) as _),
                        top: set1(TOP as _),
                        // SAFETY: `IOTA` is one vector's bytes.
                        iota: unsafe { _mm512_loadu_si512(IOTA.as_ptr().cast()) },
                        capped: set1(CAPPED as _),
                        winner: set1(WINNER as _),
                    }
                }

                #[target_feature(enable = "avx512f")]
                #[inline]
                unsafe fn idle(c: &Consts) -> Lanes {
                    idle(c)
                }

                /// A masked 64-byte load, the penalty mask a byte test, the penalty codes
                /// compressed to the front and packed three bits each by `pext`.
                #[target_feature(enable = "avx512f,avx512bw,avx512vbmi2,bmi2")]
                #[inline]
                unsafe fn penalties(deals: &[u8], at: usize, len: usize) -> (u64, u64) {
                    const FIELDS: u64 = 0x0707_0707_0707_0707;
                    let deal = &deals[at..at + len];
                    // SAFETY: the masked load reads only the deal's `len` bytes.
                    let v = unsafe {
                        _mm512_maskz_loadu_epi8(u64::MAX >> (64 - len), deal.as_ptr().cast())
                    };
                    let pen = _mm512_test_epi8_mask(v, v);
                    let codes = _mm512_maskz_compress_epi8(pen, v);
                    let low = _mm512_castsi512_si128(codes);
                    let c0 = _mm_cvtsi128_si64(low) as u64;
                    let c1 = _mm_extract_epi64::<1>(low) as u64;
                    let c2 = _mm_cvtsi128_si64(_mm512_extracti32x4_epi32::<1>(codes)) as u64;
                    // At most 21 codes count (a deal of more is refused): the third word's
                    // sixth and later fields fall off the top.
                    let q = _pext_u64(c0, FIELDS)
                        | (_pext_u64(c1, FIELDS) << 24)
                        | (_pext_u64(c2, FIELDS) << 48);
                    (pen, q)
                }

                /// The masks reversed, top card at the top bit; the bounds keep every word
                /// below `BITS` bits.
                #[inline(always)]
                fn words(mask: u64, queue: u64) -> ($t, $t) {
                    ((mask as $t).reverse_bits(), queue as $t)
                }

                /// Eight deals a round, in 64-bit lanes whichever the width (a narrow
                /// word is the low half), as `stream::encode_one` does one; the ragged end
                /// one deal at a time. Measured on a Camicia block (Zen 5): the scalar
                /// loop, its two 64-bit bit reversals a deal most of it, was 4% of the
                /// enumeration.
                #[target_feature(enable = "avx512f,avx512bw,avx512vpopcntdq,gfni")]
                #[inline]
                unsafe fn encode_marked(
                    masks: &[u64],
                    codes: &[u64],
                    split: usize,
                    len: usize,
                    e: &mut Scratch<$t>,
                ) -> bool {
                    let n = masks.len();
                    let whole = n - n % 8;
                    let one = _mm512_set1_epi64(1);
                    let first = _mm512_set1_epi64(((1u64 << split) - 1) as i64);
                    let x_end = _mm512_set1_epi64((1u64 << split) as i64);
                    let y_end = _mm512_set1_epi64((1u64 << (len - split)) as i64);
                    let most = _mm512_set1_epi64($max_penalty);
                    let by_split = _mm_cvtsi64_si128(split as i64);
                    let mut over = 0;
                    for d in (0..whole).step_by(8) {
                        // SAFETY: `d + 8 <= n`, and each of `e`'s arrays holds `n + $lanes`
                        // words.
                        unsafe {
                            let pen = _mm512_loadu_si512(masks.as_ptr().add(d).cast());
                            let q = _mm512_loadu_si512(codes.as_ptr().add(d).cast());
                            let total = _mm512_popcnt_epi64(pen);
                            over |= _mm512_cmpgt_epu64_mask(total, most);
                            let mine = _mm512_and_si512(pen, first);
                            let k = _mm512_popcnt_epi64(mine);
                            let sx = _mm512_add_epi64(k, _mm512_add_epi64(k, k));
                            let t = _mm512_sub_epi64(total, k);
                            let sy = _mm512_add_epi64(t, _mm512_add_epi64(t, t));
                            let bx = _mm512_sllv_epi64(one, sx);
                            let xq = _mm512_or_si512(
                                _mm512_and_si512(q, _mm512_sub_epi64(bx, one)),
                                bx,
                            );
                            let yq = _mm512_or_si512(
                                _mm512_srlv_epi64(q, sx),
                                _mm512_sllv_epi64(one, sy),
                            );
                            let xm = reversed(_mm512_or_si512(mine, x_end));
                            let theirs = _mm512_srl_epi64(pen, by_split);
                            let ym = reversed(_mm512_or_si512(theirs, y_end));
                            put(e.xm.as_mut_ptr().add(d), xm);
                            put(e.xq.as_mut_ptr().add(d), xq);
                            put(e.ym.as_mut_ptr().add(d), ym);
                            put(e.yq.as_mut_ptr().add(d), yq);
                        }
                    }
                    over == 0 && stream::encode_from::<Width>(masks, codes, split, len, e, whole)
                }

                #[target_feature(enable = "avx512f,avx512cd,avx512vpopcntdq")]
                #[inline]
                unsafe fn step(s: &mut Lanes, c: &Consts) -> ($mask, $mask) {
                    step(s, c)
                }

                #[inline(always)]
                unsafe fn ended(finished: $mask, capped: $mask) -> u32 {
                    u32::from(finished | capped)
                }

                #[target_feature(enable = "avx512f")]
                #[inline]
                unsafe fn report(
                    s: &Lanes,
                    fin: $mask,
                    cap: $mask,
                    k: u32,
                    res: *mut $t,
                    idx: *mut $t,
                    c: &Consts,
                ) {
                    // The step gives finishing precedence over the cap.
                    let word = mask_or(s.ctr, cap & !fin, s.ctr, c.capped);
                    let word = mask_or(word, s.xid & fin, word, c.winner);
                    // SAFETY: the driver's buffers hold a whole vector from `res` and `idx`.
                    unsafe {
                        _mm512_storeu_si512(res.cast(), compress(k as $mask, word));
                        _mm512_storeu_si512(idx.cast(), compress(k as $mask, s.slot));
                    }
                }

                /// One `vpexpand` per stack word.
                #[target_feature(enable = "avx512f")]
                #[inline]
                unsafe fn load(
                    s: &mut Lanes,
                    ended: u32,
                    enc: &Scratch<$t>,
                    at: usize,
                    c: &Consts,
                ) {
                    let ended = ended as $mask;
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
                    s.slot = expand(s.slot, ended, add(set1(at as _), c.iota));
                    reset(s, ended, c);
                }
            }

            /// Plays the batch; false (nothing written) if some deal has more than
            /// `$max_penalty` penalty cards. Needs a batch the kernel takes
            /// (`Kernel::takes`).
            ///
            /// # Safety
            /// The CPU must support AVX-512 F, BW, CD, VPOPCNTDQ and VBMI2, GFNI, BMI2 and POPCNT.
            #[target_feature(
                enable = "avx512f,avx512bw,avx512cd,avx512vpopcntdq,avx512vbmi2,gfni,bmi2,popcnt"
            )]
            pub(crate) fn run(
                job: &Batch,
                out: &mut [Played],
                scratch: &mut Scratch<$t>,
            ) -> bool {
                // SAFETY: this function enables the width's instruction sets.
                unsafe { stream::play::<Width>(job, out, scratch) }
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
    min: _mm512_min_epu64 / _mm512_min_epu32,
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
    sllv: _mm512_sllv_epi64 / _mm512_sllv_epi32,
    rorv: _mm512_rorv_epi64 / _mm512_rorv_epi32,
    srli: _mm512_srli_epi64 / _mm512_srli_epi32,
    mask_sllv: _mm512_mask_sllv_epi64 / _mm512_mask_sllv_epi32,
    expand: _mm512_mask_expand_epi64 / _mm512_mask_expand_epi32,
    compress: _mm512_maskz_compress_epi64 / _mm512_maskz_compress_epi32,
);
