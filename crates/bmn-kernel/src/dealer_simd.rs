//! SIMD batch dealers: eight deals of bmn-deals' stream at once in AVX-512 lanes, four in
//! AVX2 lanes, bit for bit.
//!
//! Lane `l` of a group runs deal `first + l`: its SplitMix64 seeding and xoshiro256++ live in
//! u64 lane `l` of four vector state words, and every lane draws the same bounds (`n`, `n-1`,
//! ..., `2`), so one 32x32-bit multiply per half-word gives every lane's Lemire products. The
//! indices go to a table; the swaps themselves are scalar byte loads and stores (bit planes
//! swapped in `zmm` lanes measured slower), swap pair `s` of all eight deals before pair
//! `s + 1` of any, so one deal's store-to-load chain hides behind the other seven, while the
//! vector unit draws the next group's indices. A lane whose product's low word falls below its
//! bound (where Lemire might reject; about 3e-7 of standard deals) is redone by the scalar
//! `deal_for`. Why this shape: of every arrangement measured (BENCHMARKS.md, "Dealing", has
//! them and their timings), this one keeps the vector unit and the byte swaps busy at once; it
//! dealt in 29 ns what the scalar dealer dealt in 65.
//!
//! The generators are written once over [`Vector`], the u64-lane operations they are made
//! of, and instantiated for `zmm` and `ymm` lanes. The `ymm` lanes build what AVX2 lacks: the
//! 64-bit multiplies of the seeding from three 32x32-bit ones, the rotations from two shifts,
//! the unsigned compares by flipping the sign bit.

use core::arch::x86_64::*;

use bmn_deals::{GAMMA, Sampler, deal_for};

/// Largest deck the table holds (the kernel's limit too).
pub(crate) const MAX_LEN: usize = 64;
/// Deals a group holds at most.
const MAX_LANES: usize = 8;
/// Groups of stream 2's lanes drawn at once, their chains interleaved. Zen 5, a standard deal
/// by its marked cards: AVX-512 4.5-4.8 ns with three, 5.3 with two, 7.8 with four (spilled
/// registers); AVX2 (`BMN_SIMD=avx2`, measured before its shift counts were masked) 20-21 ns
/// with three, 23-26 with two.
const IN_FLIGHT: usize = 3;

/// Which SIMD dealer this CPU runs, if any.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Lanes {
    /// Eight deals a group in `zmm` lanes (AVX-512 F and DQ).
    Avx512,
    /// Four deals a group in `ymm` lanes.
    Avx2,
}

impl Lanes {
    /// The widest this CPU runs (and `BMN_SIMD` lets it).
    pub(crate) fn best() -> Option<Lanes> {
        let limit = crate::SimdLimit::current();
        if limit >= crate::SimdLimit::Avx512
            && is_x86_feature_detected!("avx512f")
            && is_x86_feature_detected!("avx512dq")
        {
            Some(Lanes::Avx512)
        } else if limit >= crate::SimdLimit::Avx2 && is_x86_feature_detected!("avx2") {
            Some(Lanes::Avx2)
        } else {
            None
        }
    }

    /// Deals per group.
    pub(crate) fn width(self) -> usize {
        match self {
            Lanes::Avx512 => Zmm::LANES,
            Lanes::Avx2 => Ymm::LANES,
        }
    }

    /// Deals `first .. first + out.len() / deck.len()` of `seed` into `out`, a group at a
    /// time; `out.len()` must be a multiple of `self.width() * deck.len()` and the deck
    /// 2..=64 cards.
    ///
    /// # Safety
    /// The CPU must run `self` (as [`Lanes::best`] found, or something wider).
    pub(crate) unsafe fn deal_groups(self, seed: u64, first: u64, deck: &[u8], out: &mut [u8]) {
        // SAFETY: the caller guarantees the features.
        unsafe {
            match self {
                Lanes::Avx512 => deal_groups_avx512(seed, first, deck, out),
                Lanes::Avx2 => deal_groups_avx2(seed, first, deck, out),
            }
        }
    }
}

/// The u64-lane operations the generators are made of, in one vector width. Each method
/// enables its width's features itself: as `#[inline(always)]` methods without them, the
/// intrinsics inlined late and the AVX2 dealer took 40 ns a deal instead of 37.5.
///
/// # Safety
/// Every method: the CPU must have the width's features.
trait Vector: Copy {
    /// u64 lanes in a vector.
    const LANES: usize;
    unsafe fn splat(x: u64) -> Self;
    /// `0, 1, 2, ...`: lane numbers.
    unsafe fn iota() -> Self;
    unsafe fn add(self, other: Self) -> Self;
    unsafe fn sub(self, other: Self) -> Self;
    unsafe fn xor(self, other: Self) -> Self;
    unsafe fn shl<const K: i32>(self) -> Self;
    unsafe fn shr<const K: i32>(self) -> Self;
    /// Rotated left by `L` bits; `R = 64 - L` (AVX2 shifts by immediates).
    unsafe fn rol<const L: i32, const R: i32>(self) -> Self;
    /// The low 64 bits of each lane's product.
    unsafe fn mullo(self, other: Self) -> Self;
    /// Lemire for two swaps of every lane: bound `b` on the low half of each u64 lane and
    /// `b - 1` on its high half. Writes the indices `(word * bound) >> 32` to `row[..LANES]`,
    /// the first swap's in the low half of each entry and the second's in the high half, and
    /// returns a mask with bit `2l` set where a low product word of lane `l` is below its
    /// bound (where the word might be rejected).
    unsafe fn bounded_pair(self, b: u32, row: &mut [u64; MAX_LANES]) -> u16;
    unsafe fn and(self, other: Self) -> Self;
    unsafe fn or(self, other: Self) -> Self;
    /// Each lane shifted left by its own count, where no set bit passes bit 63 (so a
    /// rotation is the same): AVX-512 rotates, since stdarch gives a variable shift a range
    /// check (a compare and a masked move) for counts of 64 and more, which never occur here.
    unsafe fn shl_in(self, counts: Self) -> Self;
    /// Each lane's bits from its own count (below 64) up, in its low bits; the bits above the
    /// low `64 - count` are not specified (AVX-512 rotates: see [`Vector::shl_in`]), so the
    /// caller masks them off.
    unsafe fn shr_low(self, counts: Self) -> Self;
    /// The full product of each lane's low 32 bits and `other`'s.
    unsafe fn mul32(self, other: Self) -> Self;
    /// Bit `2l` set where lane `l`'s low 32 bits are below `other`'s (unsigned).
    unsafe fn below32(self, other: Self) -> u16;
    unsafe fn store(self, row: &mut [u64; MAX_LANES]);
}

/// Eight u64 lanes (AVX-512 F and DQ).
#[derive(Clone, Copy)]
struct Zmm(__m512i);

impl Vector for Zmm {
    const LANES: usize = 8;

    #[inline]
    #[target_feature(enable = "avx512f,avx512dq")]
    unsafe fn splat(x: u64) -> Zmm {
        Zmm(_mm512_set1_epi64(x as i64))
    }

    #[inline]
    #[target_feature(enable = "avx512f,avx512dq")]
    unsafe fn iota() -> Zmm {
        Zmm(_mm512_setr_epi64(0, 1, 2, 3, 4, 5, 6, 7))
    }

    #[inline]
    #[target_feature(enable = "avx512f,avx512dq")]
    unsafe fn add(self, other: Zmm) -> Zmm {
        Zmm(_mm512_add_epi64(self.0, other.0))
    }

    #[inline]
    #[target_feature(enable = "avx512f,avx512dq")]
    unsafe fn sub(self, other: Zmm) -> Zmm {
        Zmm(_mm512_sub_epi64(self.0, other.0))
    }

    #[inline]
    #[target_feature(enable = "avx512f,avx512dq")]
    unsafe fn xor(self, other: Zmm) -> Zmm {
        Zmm(_mm512_xor_si512(self.0, other.0))
    }

    #[inline]
    #[target_feature(enable = "avx512f,avx512dq")]
    unsafe fn shl<const K: i32>(self) -> Zmm {
        // A constant count: the compiler emits `vpsllq` with an immediate.
        Zmm(_mm512_sll_epi64(self.0, _mm_cvtsi32_si128(K)))
    }

    #[inline]
    #[target_feature(enable = "avx512f,avx512dq")]
    unsafe fn shr<const K: i32>(self) -> Zmm {
        Zmm(_mm512_srl_epi64(self.0, _mm_cvtsi32_si128(K)))
    }

    #[inline]
    #[target_feature(enable = "avx512f,avx512dq")]
    unsafe fn rol<const L: i32, const R: i32>(self) -> Zmm {
        Zmm(_mm512_rol_epi64::<L>(self.0))
    }

    #[inline]
    #[target_feature(enable = "avx512f,avx512dq")]
    unsafe fn mullo(self, other: Zmm) -> Zmm {
        Zmm(_mm512_mullo_epi64(self.0, other.0))
    }

    #[inline]
    #[target_feature(enable = "avx512f,avx512dq")]
    unsafe fn bounded_pair(self, b: u32, row: &mut [u64; MAX_LANES]) -> u16 {
        let x = self.0;
        let b1 = _mm512_set1_epi64(i64::from(b));
        let b2 = _mm512_set1_epi64(i64::from(b - 1));
        let m1 = _mm512_mul_epu32(x, b1);
        let m2 = _mm512_mul_epu32(_mm512_srli_epi64::<32>(x), b2);
        // Odd 32-bit lanes compare a high word with 0: never below.
        let risky = _mm512_cmplt_epu32_mask(m1, b1) | _mm512_cmplt_epu32_mask(m2, b2);
        let j = _mm512_mask_blend_epi32(0xAAAA, _mm512_srli_epi64::<32>(m1), m2);
        // SAFETY: `row` is 64 writable bytes and `storeu` needs no alignment.
        unsafe { _mm512_storeu_si512(row.as_mut_ptr().cast(), j) };
        risky
    }

    #[inline]
    #[target_feature(enable = "avx512f,avx512dq")]
    unsafe fn and(self, other: Zmm) -> Zmm {
        Zmm(_mm512_and_si512(self.0, other.0))
    }

    #[inline]
    #[target_feature(enable = "avx512f,avx512dq")]
    unsafe fn or(self, other: Zmm) -> Zmm {
        Zmm(_mm512_or_si512(self.0, other.0))
    }

    #[inline]
    #[target_feature(enable = "avx512f,avx512dq")]
    unsafe fn shl_in(self, counts: Zmm) -> Zmm {
        Zmm(_mm512_rolv_epi64(self.0, counts.0))
    }

    #[inline]
    #[target_feature(enable = "avx512f,avx512dq")]
    unsafe fn shr_low(self, counts: Zmm) -> Zmm {
        Zmm(_mm512_rorv_epi64(self.0, counts.0))
    }

    #[inline]
    #[target_feature(enable = "avx512f,avx512dq")]
    unsafe fn mul32(self, other: Zmm) -> Zmm {
        Zmm(_mm512_mul_epu32(self.0, other.0))
    }

    #[inline]
    #[target_feature(enable = "avx512f,avx512dq")]
    unsafe fn below32(self, other: Zmm) -> u16 {
        _mm512_cmplt_epu32_mask(self.0, other.0) & 0x5555
    }

    #[inline]
    #[target_feature(enable = "avx512f,avx512dq")]
    unsafe fn store(self, row: &mut [u64; MAX_LANES]) {
        // SAFETY: `row` is 64 writable bytes and `storeu` needs no alignment.
        unsafe { _mm512_storeu_si512(row.as_mut_ptr().cast(), self.0) };
    }
}

/// Four u64 lanes (AVX2).
#[derive(Clone, Copy)]
struct Ymm(__m256i);

impl Vector for Ymm {
    const LANES: usize = 4;

    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn splat(x: u64) -> Ymm {
        Ymm(_mm256_set1_epi64x(x as i64))
    }

    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn iota() -> Ymm {
        Ymm(_mm256_setr_epi64x(0, 1, 2, 3))
    }

    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn add(self, other: Ymm) -> Ymm {
        Ymm(_mm256_add_epi64(self.0, other.0))
    }

    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn sub(self, other: Ymm) -> Ymm {
        Ymm(_mm256_sub_epi64(self.0, other.0))
    }

    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn xor(self, other: Ymm) -> Ymm {
        Ymm(_mm256_xor_si256(self.0, other.0))
    }

    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn shl<const K: i32>(self) -> Ymm {
        Ymm(_mm256_slli_epi64::<K>(self.0))
    }

    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn shr<const K: i32>(self) -> Ymm {
        Ymm(_mm256_srli_epi64::<K>(self.0))
    }

    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn rol<const L: i32, const R: i32>(self) -> Ymm {
        // No rotation in AVX2: two shifts.
        Ymm(_mm256_or_si256(
            _mm256_slli_epi64::<L>(self.0),
            _mm256_srli_epi64::<R>(self.0),
        ))
    }

    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn mullo(self, other: Ymm) -> Ymm {
        // No 64-bit multiply in AVX2: three 32x32-bit ones.
        let (a, b) = (self.0, other.0);
        let low = _mm256_mul_epu32(a, b);
        let cross = _mm256_add_epi64(
            _mm256_mul_epu32(_mm256_srli_epi64::<32>(a), b),
            _mm256_mul_epu32(a, _mm256_srli_epi64::<32>(b)),
        );
        Ymm(_mm256_add_epi64(low, _mm256_slli_epi64::<32>(cross)))
    }

    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn bounded_pair(self, b: u32, row: &mut [u64; MAX_LANES]) -> u16 {
        let x = self.0;
        let b1 = _mm256_set1_epi64x(i64::from(b));
        let b2 = _mm256_set1_epi64x(i64::from(b - 1));
        let m1 = _mm256_mul_epu32(x, b1);
        let m2 = _mm256_mul_epu32(_mm256_srli_epi64::<32>(x), b2);
        // Unsigned compares: both sides with their sign bits flipped. Odd 32-bit lanes
        // compare a high word with 0: never below.
        let sign = _mm256_set1_epi32(i32::MIN);
        let below = |m: __m256i, b: __m256i| {
            _mm256_cmpgt_epi32(_mm256_xor_si256(b, sign), _mm256_xor_si256(m, sign))
        };
        let risky = _mm256_or_si256(below(m1, b1), below(m2, b2));
        let risky = _mm256_movemask_ps(_mm256_castsi256_ps(risky)) as u16;
        let j = _mm256_blend_epi32::<0b1010_1010>(_mm256_srli_epi64::<32>(m1), m2);
        // SAFETY: `row` holds at least 32 writable bytes; `storeu` needs no alignment.
        unsafe { _mm256_storeu_si256(row.as_mut_ptr().cast(), j) };
        risky
    }

    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn and(self, other: Ymm) -> Ymm {
        Ymm(_mm256_and_si256(self.0, other.0))
    }

    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn or(self, other: Ymm) -> Ymm {
        Ymm(_mm256_or_si256(self.0, other.0))
    }

    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn shl_in(self, counts: Ymm) -> Ymm {
        // No variable rotation in AVX2: the shift, its count masked to six bits (which changes
        // no count here) so that the compiler drops stdarch's range check (an unsigned compare
        // by sign flips and a blend: three instructions for one `and`).
        Ymm(_mm256_sllv_epi64(
            self.0,
            _mm256_and_si256(counts.0, _mm256_set1_epi64x(63)),
        ))
    }

    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn shr_low(self, counts: Ymm) -> Ymm {
        Ymm(_mm256_srlv_epi64(
            self.0,
            _mm256_and_si256(counts.0, _mm256_set1_epi64x(63)),
        ))
    }

    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn mul32(self, other: Ymm) -> Ymm {
        Ymm(_mm256_mul_epu32(self.0, other.0))
    }

    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn below32(self, other: Ymm) -> u16 {
        let sign = _mm256_set1_epi32(i32::MIN);
        let below = _mm256_cmpgt_epi32(
            _mm256_xor_si256(other.0, sign),
            _mm256_xor_si256(self.0, sign),
        );
        (_mm256_movemask_ps(_mm256_castsi256_ps(below)) as u16) & 0x55
    }

    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn store(self, row: &mut [u64; MAX_LANES]) {
        // SAFETY: `row` holds at least 32 writable bytes; `storeu` needs no alignment.
        unsafe { _mm256_storeu_si256(row.as_mut_ptr().cast(), self.0) };
    }
}

/// SplitMix64's output function on every lane.
///
/// # Safety
/// As [`Vector`].
#[inline(always)]
unsafe fn mix<V: Vector>(z: V) -> V {
    unsafe {
        let z = z.xor(z.shr::<30>()).mullo(V::splat(0xBF58_476D_1CE4_E5B9));
        let z = z.xor(z.shr::<27>()).mullo(V::splat(0x94D0_49BB_1331_11EB));
        z.xor(z.shr::<31>())
    }
}

/// xoshiro256++ generators, one per u64 lane.
#[derive(Clone, Copy)]
struct Xoshiro<V>([V; 4]);

impl<V: Vector> Xoshiro<V> {
    /// Deals `first .. first + V::LANES` of `seed`, seeded as `bmn_deals::deal_rng`.
    ///
    /// # Safety
    /// As [`Vector`].
    #[inline(always)]
    unsafe fn for_deals(seed: u64, first: u64) -> Self {
        unsafe {
            let index = V::splat(first).add(V::iota());
            // seed + 4 * index * GAMMA (mod 2^64), the SplitMix64 counter of each deal.
            let base = V::splat(seed).add(index.mullo(V::splat(GAMMA.wrapping_mul(4))));
            let at = |k: u64| mix(base.add(V::splat(GAMMA.wrapping_mul(k))));
            Xoshiro([at(1), at(2), at(3), at(4)])
        }
    }

    /// Next output of every lane.
    ///
    /// # Safety
    /// As [`Vector`].
    #[inline(always)]
    unsafe fn next(&mut self) -> V {
        unsafe {
            let [s0, s1, s2, s3] = &mut self.0;
            let result = s0.add(*s3).rol::<23, 41>().add(*s0);
            let t = s1.shl::<17>();
            *s2 = s2.xor(*s0);
            *s3 = s3.xor(*s1);
            *s1 = s1.xor(*s2);
            *s0 = s0.xor(*s3);
            *s2 = s2.xor(t);
            *s3 = s3.rol::<45, 19>();
            result
        }
    }

    /// The indices of the swaps at `b - 1` and `b - 2` of every lane into `row` (see
    /// [`Vector::bounded_pair`]); returns the lanes that might have rejected a word.
    ///
    /// # Safety
    /// As [`Vector`].
    #[inline(always)]
    unsafe fn draw_pair(&mut self, b: u32, row: &mut [u64; MAX_LANES]) -> u16 {
        unsafe { self.next().bounded_pair(b, row) }
    }
}

/// One group's swap indices: entry `[s][l]` holds lane `l`'s indices for the swaps at
/// `n - 1 - 2s` (low half) and `n - 2 - 2s` (high half).
type Rows = [[u64; MAX_LANES]; MAX_LEN / 2];

/// [`Lanes::deal_groups`] on AVX-512.
#[target_feature(enable = "avx512f,avx512dq")]
fn deal_groups_avx512(seed: u64, first: u64, deck: &[u8], out: &mut [u8]) {
    // The standard deck gets its own copy with `n` a constant (immediate offsets).
    // SAFETY: this function's target features are the ones `Zmm` needs.
    unsafe {
        if deck.len() == 52 {
            deal_groups_n::<Zmm>(seed, first, deck, out, 52);
        } else {
            deal_groups_n::<Zmm>(seed, first, deck, out, deck.len());
        }
    }
}

/// [`Lanes::deal_groups`] on AVX2.
#[target_feature(enable = "avx2")]
fn deal_groups_avx2(seed: u64, first: u64, deck: &[u8], out: &mut [u8]) {
    // SAFETY: this function's target features are the ones `Ymm` needs.
    unsafe {
        if deck.len() == 52 {
            deal_groups_n::<Ymm>(seed, first, deck, out, 52);
        } else {
            deal_groups_n::<Ymm>(seed, first, deck, out, deck.len());
        }
    }
}

/// The deals of `out`, `V::LANES` at a time, for `n = deck.len()`. Software-pipelined: while
/// the swaps of group `g` run (scalar loads and stores), the vector unit draws the indices
/// of group `g + 1`, so every swap's addresses come from a table written one group earlier.
///
/// # Safety
/// The CPU must have `V`'s features (this is inlined into the functions that enable them).
#[inline(always)]
unsafe fn deal_groups_n<V: Vector>(seed: u64, first: u64, deck: &[u8], out: &mut [u8], n: usize) {
    let lanes = V::LANES;
    assert!(deck.len() == n && (2..=MAX_LEN).contains(&n));
    assert!(out.len().is_multiple_of(lanes * n));
    let groups = out.len() / (lanes * n);
    if groups == 0 {
        return;
    }
    let steps = (n - 1).div_ceil(2);
    let mut rows: [Rows; 2] = [[[0; MAX_LANES]; MAX_LEN / 2]; 2];
    // SAFETY (every call of a `Vector` method here): the caller guarantees `V`'s features.
    let mut rng = unsafe { Xoshiro::<V>::for_deals(seed, first) };
    // `risky[g % 2]`: the lanes of group `g` to redeal (see `Vector::bounded_pair`).
    let mut risky = [0u16; 2];
    for (s, row) in rows[0][..steps].iter_mut().enumerate() {
        risky[0] |= unsafe { rng.draw_pair((n - 2 * s) as u32, row) };
    }
    for (g, group) in out.chunks_exact_mut(lanes * n).enumerate() {
        let group_first = first.wrapping_add((g * lanes) as u64);
        let (now, next) = (g % 2, (g + 1) % 2);
        let more = g + 1 < groups;
        let mut rng =
            unsafe { Xoshiro::<V>::for_deals(seed, group_first.wrapping_add(lanes as u64)) };
        risky[next] = 0;
        for lane in group.chunks_exact_mut(n) {
            lane.copy_from_slice(deck);
        }
        let base = group.as_mut_ptr();
        let [r0, r1] = &mut rows;
        let (cur, nxt) = if now == 0 { (&*r0, r1) } else { (&*r1, r0) };
        for s in 0..steps {
            if more {
                risky[next] |= unsafe { rng.draw_pair((n - 2 * s) as u32, &mut nxt[s]) };
            }
            let top = n - 1 - 2 * s;
            if top == 1 {
                // The last swap of an even deck: only the low half.
                for (l, &pair) in cur[s][..lanes].iter().enumerate() {
                    // SAFETY: the index is below the bound 2, so both bytes lie in lane `l`'s
                    // deal, `group[l * n .. (l + 1) * n]`; `ptr::swap` allows equal pointers.
                    unsafe {
                        core::ptr::swap(base.add(l * n + 1), base.add(l * n + pair as u32 as usize))
                    };
                }
                break;
            }
            for (l, &pair) in cur[s][..lanes].iter().enumerate() {
                // Swap `top` with `j1`, then `top - 1` with `j2`; the two cards that end at
                // `top - 1` and `top` are stored together (one 16-bit store), so the copy of
                // the card at `top - 1` is fixed up when the first swap moved it (`j1 == top - 1`).
                let (j1, j2) = (pair as u32 as usize, (pair >> 32) as usize);
                // SAFETY: an index is `(word * bound) >> 32 < bound`: `j1 <= top` and
                // `j2 <= top - 1`, so every byte touched lies in lane `l`'s deal,
                // `group[l * n .. (l + 1) * n]`, and `top - 1 .. top + 1` too.
                unsafe {
                    let p = base.add(l * n);
                    let (t0, t1) = (*p.add(top), *p.add(top - 1));
                    let x1 = *p.add(j1);
                    *p.add(j1) = t0;
                    let t1 = if j1 == top - 1 { t0 } else { t1 };
                    let x2 = *p.add(j2);
                    *p.add(j2) = t1;
                    p.add(top - 1)
                        .cast::<u16>()
                        .write_unaligned(u16::from_le_bytes([x2, x1]));
                }
            }
        }
        let mut lanes = risky[now];
        while lanes != 0 {
            let lane = lanes.trailing_zeros() as usize / 2;
            lanes &= lanes - 1;
            let cards = &mut group[lane * n..(lane + 1) * n];
            deal_for(seed, group_first.wrapping_add(lane as u64), deck, cards);
        }
    }
}

/// Whether [`Lanes::sample_groups`] deals `sampler`'s deck: at most 64 cards, at most 21
/// marked cards, each code below 8 (three bits a marked card in one u64 lane).
pub(crate) fn samples(sampler: &Sampler) -> bool {
    (1..=MAX_LEN).contains(&sampler.len())
        && sampler.marked().len() <= 21
        && sampler.marked().iter().all(|&c| c < 8)
}

impl Lanes {
    /// Stream 2's deals `first .. first + out.len() / sampler.len()` of `seed` into `out`, a
    /// group at a time; `out.len()` must be a multiple of `self.width() * sampler.len()` and
    /// [`samples`] true.
    ///
    /// # Safety
    /// The CPU must run `self` (as [`Lanes::best`] found, or something wider).
    pub(crate) unsafe fn sample_groups(
        self,
        sampler: &Sampler,
        seed: u64,
        first: u64,
        out: &mut [u8],
    ) {
        // SAFETY: the caller guarantees the features.
        unsafe {
            match self {
                Lanes::Avx512 if expands() => sample_groups_vbmi2(sampler, seed, first, out),
                Lanes::Avx512 => sample_groups_avx512(sampler, seed, first, out),
                Lanes::Avx2 => sample_groups_avx2(sampler, seed, first, out),
            }
        }
    }
}

impl Lanes {
    /// [`Lanes::sample_groups`]'s deals as their marked places and codes (a deal each in
    /// `masks` and `codes`, a multiple of `self.width()` of them).
    ///
    /// # Safety
    /// As [`Lanes::sample_groups`].
    pub(crate) unsafe fn sample_marked_groups(
        self,
        sampler: &Sampler,
        seed: u64,
        first: u64,
        masks: &mut [u64],
        codes: &mut [u64],
    ) {
        // SAFETY: the caller guarantees the features.
        unsafe {
            match self {
                Lanes::Avx512 => sample_marked_avx512(sampler, seed, first, masks, codes),
                Lanes::Avx2 => sample_marked_avx2(sampler, seed, first, masks, codes),
            }
        }
    }
}

/// Whether the CPU lays a deal out with byte expansion (AVX-512 VBMI and VBMI2: Ice Lake and
/// later, Zen 4).
pub(crate) fn expands() -> bool {
    is_x86_feature_detected!("avx512bw")
        && is_x86_feature_detected!("avx512vbmi")
        && is_x86_feature_detected!("avx512vbmi2")
}

/// [`Lanes::sample_groups`] on AVX-512.
#[target_feature(enable = "avx512f,avx512dq")]
fn sample_groups_avx512(sampler: &Sampler, seed: u64, first: u64, out: &mut [u8]) {
    // SAFETY: this function's target features are the ones `Zmm` needs.
    unsafe { sample_groups_v::<Zmm, false>(sampler, seed, first, out) }
}

/// [`Lanes::sample_groups`] on AVX-512 without byte expansion, where the CPU has it: the
/// path of AVX-512 CPUs without VBMI2 (Skylake-X), for the tests of a CPU with it.
#[cfg(test)]
pub(crate) fn sample_groups_without_expansion(
    sampler: &Sampler,
    seed: u64,
    first: u64,
    out: &mut [u8],
) -> bool {
    if Lanes::best() != Some(Lanes::Avx512) {
        return false;
    }
    // SAFETY: `Lanes::best` found AVX-512 F and DQ on this CPU.
    unsafe { sample_groups_avx512(sampler, seed, first, out) };
    true
}

/// [`Lanes::sample_groups`] on AVX-512 with byte expansion.
#[target_feature(enable = "avx512f,avx512dq,avx512bw,avx512vbmi,avx512vbmi2")]
fn sample_groups_vbmi2(sampler: &Sampler, seed: u64, first: u64, out: &mut [u8]) {
    // SAFETY: this function's target features are the ones `Zmm` and `lay_expanded` need.
    unsafe { sample_groups_v::<Zmm, true>(sampler, seed, first, out) }
}

/// Lays one deal out: `background` everywhere but at `mask`'s bits, which take the 3-bit
/// fields of `codes` in order: the fields spread to bytes (`vpmultishiftqb`), then expanded to
/// the mask's places (`vpexpandb`), the deal's `n` bytes stored at once. About 8 instructions
/// where the byte loop takes a store and four more for each marked card.
///
/// # Safety
/// The CPU must have AVX-512 F, BW, VBMI and VBMI2; `deal` is at most 64 bytes, `mask`'s bits
/// below its length, at most 21 of them.
#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi,avx512vbmi2")]
unsafe fn lay_expanded(deal: &mut [u8], mask: u64, codes: u64, background: u8) {
    // Byte b of qword q takes the field 8q + b: bits 3(8q + b) onward.
    let offsets = _mm512_set_epi64(
        0,
        0,
        0,
        0,
        0,
        0x0502_3f3c_3936_3330,
        0x2d2a_2724_211e_1b18,
        0x1512_0f0c_0906_0300,
    );
    let fields = _mm512_and_si512(
        _mm512_multishift_epi64_epi8(offsets, _mm512_set1_epi64(codes as i64)),
        _mm512_set1_epi8(7),
    );
    let laid = _mm512_mask_expand_epi8(_mm512_set1_epi8(background as i8), mask, fields);
    let keep = u64::MAX >> (64 - deal.len());
    // SAFETY: `keep` stores only the deal's bytes.
    unsafe { _mm512_mask_storeu_epi8(deal.as_mut_ptr().cast(), keep, laid) };
}

/// [`Lanes::sample_groups`] on AVX2.
#[target_feature(enable = "avx2")]
fn sample_groups_avx2(sampler: &Sampler, seed: u64, first: u64, out: &mut [u8]) {
    // SAFETY: this function's target features are the ones `Ymm` needs.
    unsafe { sample_groups_v::<Ymm, false>(sampler, seed, first, out) }
}

/// Stream 2 in `V::LANES` deals at once (`bmn_deals::sampler` specifies it): every lane draws
/// the same bounds, so each draw is one 32x32-bit multiply of the lanes' words; Floyd's subset
/// is a u64 mask a lane, the marked codes three bits each in another, swapped by variable
/// rotations (AVX-512) or shifts (AVX2). [`IN_FLIGHT`] groups are drawn at once. The deals are
/// then laid out lane by lane. A lane that redraws a group (its words shift; about 1 deal in
/// 100) is redone by the scalar sampler.
///
/// # Safety
/// The CPU must have `V`'s features (this is inlined into the functions that enable them).
#[inline(always)]
unsafe fn sample_groups_v<V: Vector, const EXPAND: bool>(
    sampler: &Sampler,
    seed: u64,
    first: u64,
    out: &mut [u8],
) {
    let lanes = V::LANES;
    assert!(samples(sampler) && out.len().is_multiple_of(lanes * sampler.len()));
    let plan = SamplePlan::new(sampler);
    let mut runs = out.chunks_exact_mut(IN_FLIGHT * lanes * sampler.len());
    let mut at = first;
    for run in &mut runs {
        // SAFETY: the caller guarantees `V`'s features (and `EXPAND`'s).
        unsafe { sample_k::<V, EXPAND, IN_FLIGHT>(&plan, seed, at, run) };
        at = at.wrapping_add((IN_FLIGHT * lanes) as u64);
    }
    for group in runs
        .into_remainder()
        .chunks_exact_mut(lanes * sampler.len())
    {
        // SAFETY: as above.
        unsafe { sample_k::<V, EXPAND, 1>(&plan, seed, at, group) };
        at = at.wrapping_add(lanes as u64);
    }
}

/// [`sample_groups_v`] keeping each deal as its marked places and codes (`masks`, `codes`: a
/// deal each, a multiple of `V::LANES` of them).
///
/// # Safety
/// As [`sample_groups_v`].
#[inline(always)]
unsafe fn sample_marked_v<V: Vector>(
    sampler: &Sampler,
    seed: u64,
    first: u64,
    masks: &mut [u64],
    codes: &mut [u64],
) {
    let lanes = V::LANES;
    assert!(samples(sampler) && masks.len() == codes.len() && masks.len().is_multiple_of(lanes));
    let plan = SamplePlan::new(sampler);
    let run = IN_FLIGHT * lanes;
    let mut runs = masks.chunks_exact_mut(run).zip(codes.chunks_exact_mut(run));
    let mut at = first;
    for (m, c) in &mut runs {
        // SAFETY: the caller guarantees `V`'s features.
        unsafe { sample_marked_k::<V, IN_FLIGHT>(&plan, seed, at, m, c) };
        at = at.wrapping_add(run as u64);
    }
    let done = masks.len() / run * run;
    let rest = masks[done..]
        .chunks_exact_mut(lanes)
        .zip(codes[done..].chunks_exact_mut(lanes));
    for (m, c) in rest {
        // SAFETY: as above.
        unsafe { sample_marked_k::<V, 1>(&plan, seed, at, m, c) };
        at = at.wrapping_add(lanes as u64);
    }
}

/// [`sample_marked_v`] on AVX-512.
#[target_feature(enable = "avx512f,avx512dq")]
fn sample_marked_avx512(
    sampler: &Sampler,
    seed: u64,
    first: u64,
    masks: &mut [u64],
    codes: &mut [u64],
) {
    // SAFETY: this function's target features are the ones `Zmm` needs.
    unsafe { sample_marked_v::<Zmm>(sampler, seed, first, masks, codes) }
}

/// [`sample_marked_v`] on AVX2.
#[target_feature(enable = "avx2")]
fn sample_marked_avx2(
    sampler: &Sampler,
    seed: u64,
    first: u64,
    masks: &mut [u64],
    codes: &mut [u64],
) {
    // SAFETY: this function's target features are the ones `Ymm` needs.
    unsafe { sample_marked_v::<Ymm>(sampler, seed, first, masks, codes) }
}

/// What every group of a batch shares: the sampler, its codes packed 3 bits a field, its
/// groups of draws.
struct SamplePlan<'a> {
    sampler: &'a Sampler,
    packed: u64,
    groups: Vec<(&'a [u32], u32)>,
}

impl<'a> SamplePlan<'a> {
    fn new(sampler: &'a Sampler) -> SamplePlan<'a> {
        let marked = sampler.marked();
        SamplePlan {
            sampler,
            packed: (marked.iter().enumerate())
                .fold(0u64, |k, (f, &c)| k | u64::from(c) << (3 * f)),
            groups: sampler.groups().collect(),
        }
    }
}

/// `K` groups of `V::LANES` deals from deal `first`, their steps interleaved (one group's Floyd
/// mask and codes are chains of dependent steps; two hide each other's latency): each group's
/// marked places and codes (3 bits each, in order), and the lanes that must be redrawn (bit
/// `2i` for lane `i`), which the caller redoes with the scalar sampler.
///
/// # Safety
/// As [`sample_groups_v`].
#[inline(always)]
unsafe fn draw_k<V: Vector, const K: usize>(
    plan: &SamplePlan,
    seed: u64,
    first: u64,
) -> ([V; K], [V; K], [u16; K]) {
    let (sampler, lanes) = (plan.sampler, V::LANES);
    let (n, m) = (sampler.len(), sampler.marked().len());
    // SAFETY (every call of a `Vector` method here): the caller guarantees `V`'s features.
    unsafe {
        let (one, seven) = (V::splat(1), V::splat(7));
        // Loops, not `array::from_fn`: a closure has no target features, so the `Vector`
        // methods inside it were not inlined (stream 2's deals took 120 ns for 15).
        let mut rng = [Xoshiro::<V>::for_deals(seed, first); K];
        for (k, rng) in rng.iter_mut().enumerate().skip(1) {
            *rng = Xoshiro::<V>::for_deals(seed, first.wrapping_add((k * lanes) as u64));
        }
        let mut mask = [V::splat(0); K];
        let mut kinds = [V::splat(plan.packed); K];
        let mut output = [V::splat(0); K];
        let mut redo = [0u16; K];
        let mut draw = 0usize;
        for (i, &(bounds, threshold)) in plan.groups.iter().enumerate() {
            // Words: the low half of an output, then its high half.
            let mut w = [V::splat(0); K];
            for k in 0..K {
                w[k] = if i % 2 == 0 {
                    output[k] = rng[k].next();
                    output[k]
                } else {
                    output[k].shr::<32>()
                };
            }
            for &b in bounds {
                let bound = V::splat(u64::from(b));
                if draw < m {
                    // Floyd at j: take d, or j if d is taken. j is never taken before this
                    // draw, so the taken bit (d's, or none) moved up by j - d is j's or
                    // none: three operations on the mask's chain, where a test and a blend
                    // took about five cycles.
                    let j = V::splat((n - m + draw) as u64);
                    for k in 0..K {
                        let t = w[k].mul32(bound);
                        w[k] = t;
                        let d = t.shr::<32>();
                        let bit = one.shl_in(d);
                        let moved = mask[k].and(bit).shl_in(j.sub(d));
                        mask[k] = mask[k].or(bit).or(moved);
                    }
                } else {
                    // Fisher-Yates: swap field i with field d.
                    let i = V::splat(3 * (2 * m - 1 - draw) as u64);
                    for k in 0..K {
                        let t = w[k].mul32(bound);
                        w[k] = t;
                        let d = t.shr::<32>();
                        let dj = d.add(d).add(d);
                        // Fields end by bit 63 (at most 21 of 3 bits): rotations serve.
                        let x = kinds[k].shr_low(i).xor(kinds[k].shr_low(dj)).and(seven);
                        kinds[k] = kinds[k].xor(x.shl_in(i).or(x.shl_in(dj)));
                    }
                }
                draw += 1;
            }
            let threshold = V::splat(u64::from(threshold));
            for k in 0..K {
                redo[k] |= w[k].below32(threshold);
            }
        }
        (mask, kinds, redo)
    }
}

/// `K` groups of `V::LANES` deals from deal `first` into `out`, laid out as codes.
///
/// # Safety
/// As [`sample_groups_v`].
#[inline(always)]
unsafe fn sample_k<V: Vector, const EXPAND: bool, const K: usize>(
    plan: &SamplePlan,
    seed: u64,
    first: u64,
    out: &mut [u8],
) {
    let (sampler, lanes, n) = (plan.sampler, V::LANES, plan.sampler.len());
    // SAFETY: the caller guarantees `V`'s features.
    let (mask, kinds, mut redo) = unsafe { draw_k::<V, K>(plan, seed, first) };
    let background = sampler.background();
    for k in 0..K {
        let group = &mut out[k * lanes * n..(k + 1) * lanes * n];
        let (mut masks, mut codes) = ([0u64; MAX_LANES], [0u64; MAX_LANES]);
        // SAFETY: as above.
        unsafe {
            mask[k].store(&mut masks);
            kinds[k].store(&mut codes);
        }
        for ((deal, mask), code) in group.chunks_exact_mut(n).zip(masks).zip(codes) {
            if EXPAND {
                // SAFETY: `EXPAND` is set only by `sample_groups_vbmi2`, whose features these
                // are; a deal is at most 64 bytes, with at most 21 marked cards.
                unsafe { lay_expanded(deal, mask, code, background) };
                continue;
            }
            bmn_deals::marked::lay_out(deal, mask, code, background);
        }
        let group_first = first.wrapping_add((k * lanes) as u64);
        while redo[k] != 0 {
            let lane = redo[k].trailing_zeros() as usize / 2;
            redo[k] &= redo[k] - 1;
            let deal = &mut group[lane * n..(lane + 1) * n];
            sampler.deal(seed, group_first.wrapping_add(lane as u64), deal);
        }
    }
}

/// `K` groups of `V::LANES` deals from deal `first` as their marked places and codes, into
/// `masks` and `codes` (a deal each), never laid out.
///
/// # Safety
/// As [`sample_groups_v`].
#[inline(always)]
unsafe fn sample_marked_k<V: Vector, const K: usize>(
    plan: &SamplePlan,
    seed: u64,
    first: u64,
    masks: &mut [u64],
    codes: &mut [u64],
) {
    let lanes = V::LANES;
    // SAFETY: the caller guarantees `V`'s features.
    let (mask, kinds, mut redo) = unsafe { draw_k::<V, K>(plan, seed, first) };
    for k in 0..K {
        let (mut m, mut c) = ([0u64; MAX_LANES], [0u64; MAX_LANES]);
        // SAFETY: as above.
        unsafe {
            mask[k].store(&mut m);
            kinds[k].store(&mut c);
        }
        let group = k * lanes..(k + 1) * lanes;
        masks[group.clone()].copy_from_slice(&m[..lanes]);
        codes[group].copy_from_slice(&c[..lanes]);
        while redo[k] != 0 {
            let lane = redo[k].trailing_zeros() as usize / 2;
            redo[k] &= redo[k] - 1;
            let at = k * lanes + lane;
            let index = first.wrapping_add(at as u64);
            (masks[at], codes[at]) = crate::dealer::marked_of(plan.sampler, seed, index);
        }
    }
}
