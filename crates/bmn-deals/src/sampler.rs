//! Stream 2's deal: where the deck's few marked cards lie and in what order, drawn straight
//! (no shuffle of the whole deck), several bounded draws to a 32-bit word.
//!
//! Deal `k` of seed `s` under stream 2 is specified here, as [`crate::stream`] specifies
//! stream 1; both start from the same generator ([`deal_rng`]).
//! - The deck's *background* is its most common code (the smallest such code on a tie: the
//!   plain cards of every deck people play); the other `m` cards are *marked*.
//! - Their positions are an `m`-subset of `0..n` drawn by Floyd's algorithm (Bentley and Floyd,
//!   "A sample of brilliance", CACM 1987): for `j` in `n-m .. n`, draw `t` uniform in `0..=j`
//!   and add `t`, or `j` if `t` is already taken. Their order is Durstenfeld's Fisher-Yates on
//!   the marked codes in ascending order (`i = m-1` down to 1, `j` uniform in `0..=i`), laid
//!   on the positions in ascending order. A uniform subset and an independent uniform
//!   arrangement of the marked codes make a uniform arrangement of the deck.
//! - The draws' bounds are known before any is drawn (`n-m+1 ..= n`, then `m` down to 2), so
//!   they are grouped in that order, greedily, while the product of a group's bounds stays
//!   at most 2^24. A group takes one 32-bit word `w` ([`Xoshiro256PlusPlus::next_u32`]) and
//!   reads its draws as mixed-radix digits: for each bound `b`, the draw is the high half of
//!   `w * b` and `w` becomes its low half (Brackett-Rozinsky and Lemire, "Batched ranged random
//!   integer generation", Software: Practice and Experience 2024). This is Lemire's method with
//!   the group's product `P` as its bound, so a group whose final `w` is below `2^32 mod P` is
//!   drawn again from a fresh word: exactly uniform, and redrawn less than once in 256 groups.
//!
//! A standard deal: 16 positions and 15 swaps in 6 words (3 outputs of xoshiro256++), where
//! stream 1 takes 51 swaps and 26 outputs.

use crate::stream::{Xoshiro256PlusPlus, deal_rng};

/// The largest product of a group's bounds.
pub const GROUP_LIMIT: u64 = 1 << 24;

/// A group of draws sharing one 32-bit word.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Group {
    /// Its bounds, in draw order.
    bounds: Vec<u32>,
    /// `2^32 mod P`: a final word below it is redrawn.
    threshold: u32,
}

/// Stream 2 for one deck: its background, marked codes and draw groups, worked out once.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sampler {
    n: usize,
    background: u8,
    /// The marked codes, ascending.
    marked: Vec<u8>,
    groups: Vec<Group>,
}

impl Sampler {
    /// The sampler of `deck` (codes, in any order).
    ///
    /// # Panics
    /// If the deck has 2^24 cards or more.
    pub fn new(deck: &[u8]) -> Sampler {
        let n = deck.len();
        assert!((n as u64) < GROUP_LIMIT, "deck too large");
        let mut counts = [0usize; 256];
        for &c in deck {
            counts[usize::from(c)] += 1;
        }
        // The first code with the largest count.
        let background = (0..=255u8)
            .rev()
            .max_by_key(|&c| counts[usize::from(c)])
            .unwrap_or(0);
        let mut marked: Vec<u8> = deck.iter().copied().filter(|&c| c != background).collect();
        marked.sort_unstable();
        let m = marked.len();
        let bounds = ((n - m + 1)..=n).chain((2..=m).rev()).map(|b| b as u32);
        let mut groups: Vec<Group> = Vec::new();
        let mut product = u64::MAX;
        for b in bounds {
            if product.saturating_mul(u64::from(b)) > GROUP_LIMIT {
                groups.push(Group {
                    bounds: Vec::new(),
                    threshold: 0,
                });
                product = 1;
            }
            product *= u64::from(b);
            let g = groups.last_mut().expect("a group was opened");
            g.bounds.push(b);
            g.threshold = ((1u64 << 32) % product) as u32;
        }
        Sampler {
            n,
            background,
            marked,
            groups,
        }
    }

    /// Cards in a deal.
    pub fn len(&self) -> usize {
        self.n
    }

    /// True for an empty deck.
    pub fn is_empty(&self) -> bool {
        self.n == 0
    }

    /// The most common code.
    pub fn background(&self) -> u8 {
        self.background
    }

    /// The other codes, ascending.
    pub fn marked(&self) -> &[u8] {
        &self.marked
    }

    /// The draw groups, in order: each one's bounds and the word below which it is redrawn.
    pub fn groups(&self) -> impl Iterator<Item = (&[u32], u32)> {
        self.groups
            .iter()
            .map(|g| (g.bounds.as_slice(), g.threshold))
    }

    /// Every draw of one deal, in order, into `draws` (`2m - 1` of them, or none).
    #[inline]
    fn draw(&self, rng: &mut Xoshiro256PlusPlus, draws: &mut [u32]) {
        let mut at = 0;
        for g in &self.groups {
            loop {
                let mut w = rng.next_u32();
                for (d, &b) in draws[at..].iter_mut().zip(&g.bounds) {
                    let t = u64::from(w) * u64::from(b);
                    *d = (t >> 32) as u32;
                    w = t as u32;
                }
                if w >= g.threshold {
                    break;
                }
            }
            at += g.bounds.len();
        }
    }

    /// The next deal of `rng` into `out` (`self.len()` codes): what [`Self::deal`] writes,
    /// for callers that draw several arrangements from one generator (a balanced deal's
    /// hands, one after another).
    ///
    /// # Panics
    /// If `out.len() != self.len()`.
    pub fn deal_from(&self, rng: &mut Xoshiro256PlusPlus, out: &mut [u8]) {
        assert_eq!(out.len(), self.n, "out must hold one deal");
        let (n, m) = (self.n, self.marked.len());
        let total = (2 * m).saturating_sub(1);
        let mut small = [0u32; 127];
        let mut heap;
        let draws: &mut [u32] = if total <= small.len() {
            &mut small[..total]
        } else {
            heap = vec![0u32; total];
            &mut heap
        };
        self.draw(rng, draws);
        let (places, swaps) = draws.split_at(m);
        if n <= 64 {
            let mask = floyd_mask(n, places);
            self.lay(mask_positions(mask), swaps, out);
        } else {
            let mut taken = vec![false; n];
            for (j, &t) in ((n - m)..n).zip(places) {
                let p = if taken[t as usize] { j } else { t as usize };
                taken[p] = true;
            }
            let at = taken.iter().enumerate().filter(|t| *t.1).map(|t| t.0);
            self.lay(at, swaps, out);
        }
    }

    /// The background everywhere, then the marked codes, shuffled by `swaps`, at `positions`
    /// (ascending).
    #[inline]
    fn lay(&self, positions: impl Iterator<Item = usize>, swaps: &[u32], out: &mut [u8]) {
        let mut kinds = [0u8; 64];
        let mut heap;
        let kinds: &mut [u8] = if self.marked.len() <= 64 {
            &mut kinds[..self.marked.len()]
        } else {
            heap = vec![0u8; self.marked.len()];
            &mut heap
        };
        kinds.copy_from_slice(&self.marked);
        for (i, &j) in (1..kinds.len()).rev().zip(swaps) {
            kinds.swap(i, j as usize);
        }
        out.fill(self.background);
        for (p, &k) in positions.zip(kinds.iter()) {
            out[p] = k;
        }
    }

    /// Deal `index` of seed `seed` under stream 2 into `out` (`self.len()` codes).
    pub fn deal(&self, seed: u64, index: u64, out: &mut [u8]) {
        self.deal_from(&mut deal_rng(seed, index), out);
    }
}

/// Floyd's subset of `0..n` (`n <= 64`) from its draws, one for each `j` in `n - m .. n`.
#[inline]
fn floyd_mask(n: usize, places: &[u32]) -> u64 {
    let mut mask = 0u64;
    for (j, &t) in ((n - places.len())..n).zip(places) {
        let bit = 1u64 << t;
        mask |= if mask & bit != 0 { 1u64 << j } else { bit };
    }
    mask
}

/// The set bits of `mask`, lowest first.
#[inline]
fn mask_positions(mut mask: u64) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (mask != 0).then(|| {
            let p = mask.trailing_zeros() as usize;
            mask &= mask - 1;
            p
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stream::STANDARD_DECK;

    fn symbols(codes: &[u8]) -> String {
        codes
            .iter()
            .map(|&c| b"-JQKAX"[c as usize] as char)
            .collect()
    }

    #[test]
    fn the_standard_deck_draws_six_words() {
        let s = Sampler::new(&STANDARD_DECK);
        assert_eq!(s.background(), 0);
        assert_eq!(
            s.marked(),
            &[1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4]
        );
        let groups: Vec<Vec<u32>> = s.groups.iter().map(|g| g.bounds.clone()).collect();
        assert_eq!(
            groups,
            vec![
                vec![37, 38, 39, 40],
                vec![41, 42, 43, 44],
                vec![45, 46, 47, 48],
                vec![49, 50, 51, 52],
                vec![16, 15, 14, 13, 12, 11],
                vec![10, 9, 8, 7, 6, 5, 4, 3, 2],
            ]
        );
        for g in &s.groups {
            let p: u64 = g.bounds.iter().map(|&b| u64::from(b)).product();
            assert!(p <= GROUP_LIMIT);
            assert_eq!(u64::from(g.threshold), (1u64 << 32) % p);
        }
    }

    #[test]
    fn pinned_deals() {
        // Checked against an independent Python transcription of the module docs.
        let s = Sampler::new(&STANDARD_DECK);
        let mut out = [0u8; 52];
        s.deal(2026, 0, &mut out);
        assert_eq!(symbols(&out), PINNED_0);
        s.deal(2026, 123_456_789, &mut out);
        assert_eq!(symbols(&out), PINNED_1);
    }
    const PINNED_0: &str = "----JJ------K----K---JQQ-KJ---QAK-A------A--A------Q";
    const PINNED_1: &str = "AK----A--K----K-Q----QJQJ-JJ---A--------K------A--Q-";

    /// Pearson's statistic of `counts` against equal expectations.
    fn chi_square(counts: &[u64]) -> f64 {
        let e = counts.iter().sum::<u64>() as f64 / counts.len() as f64;
        counts.iter().map(|&c| (c as f64 - e).powi(2) / e).sum()
    }

    /// An upper bound on chi-square with `df` degrees of freedom that a uniform sample passes
    /// but for about 1 in 10^6 (Wilson-Hilferty's normal approximation, z = 4.75).
    fn chi_square_bound(df: f64) -> f64 {
        let z = 4.75;
        df * (1.0 - 2.0 / (9.0 * df) + z * (2.0 / (9.0 * df)).sqrt()).powi(3)
    }

    #[test]
    fn every_deal_of_a_small_deck_is_drawn_equally_often() {
        // 2J,2Q,6-: 1,260 deals, each drawn about 400 times; and a deck of 40 cards with
        // 6 marked ones, whose draws share words differently, ranked by a marked card's place.
        let counts = [6, 2, 2, 0, 0, 0];
        let all = crate::Arrangements::new(counts).unwrap();
        let deck: Vec<u8> = counts
            .iter()
            .enumerate()
            .flat_map(|(c, &k)| std::iter::repeat_n(c as u8, k as usize))
            .collect();
        let s = Sampler::new(&deck);
        let mut seen = vec![0u64; all.count() as usize];
        let mut out = vec![0u8; deck.len()];
        for k in 0..seen.len() as u64 * 400 {
            s.deal(2026, k, &mut out);
            seen[all.rank(&out).unwrap() as usize] += 1;
        }
        assert!(seen.iter().all(|&c| c > 0));
        let (x2, bound) = (chi_square(&seen), chi_square_bound(1259.0));
        assert!(x2 < bound, "chi-square {x2:.1}, bound {bound:.1}");
        // A biased stream fails the same test: one deal in 100 replaced by deal 0.
        let mut biased = seen.clone();
        biased[0] += seen.iter().sum::<u64>() / 100;
        assert!(chi_square(&biased) > bound);

        let mut deck = vec![0u8; 40];
        deck[..6].copy_from_slice(&[1, 2, 3, 4, 4, 1]);
        let s = Sampler::new(&deck);
        let mut out = vec![0u8; 40];
        let mut places = vec![0u64; 40 * 5];
        for k in 0..200_000 {
            s.deal(7, k, &mut out);
            let first = out.iter().position(|&c| c != 0).unwrap();
            places[first * 5 + usize::from(out[first])] += 1;
        }
        // The first marked card: at place p with probability C(39-p, 5) / C(40, 6), and
        // any code in proportion to its count; check the places' marginal only.
        let mut by_place = vec![0u64; 40];
        for (i, c) in places.iter().enumerate() {
            by_place[i / 5] += c;
        }
        let choose = |a: u64, b: u64| -> f64 {
            (0..b)
                .map(|i| (a - i) as f64 / (i + 1) as f64)
                .product::<f64>()
        };
        let (mut x2, mut cells) = (0.0, 0.0);
        for (p, &c) in by_place.iter().enumerate().take(30) {
            let e = 200_000.0 * choose(39 - p as u64, 5) / choose(40, 6);
            if e >= 20.0 {
                x2 += (c as f64 - e).powi(2) / e;
                cells += 1.0;
            }
        }
        assert!(
            x2 < chi_square_bound(cells - 1.0),
            "chi-square {x2:.1} over {cells} places"
        );
    }

    #[test]
    fn the_background_is_the_first_most_common_code() {
        assert_eq!(Sampler::new(&[2, 2, 1, 1, 3]).background(), 1);
        assert_eq!(Sampler::new(&[4, 0, 4]).background(), 4);
        assert_eq!(Sampler::new(&[]).background(), 0);
        let s = Sampler::new(&[3, 3, 3]);
        assert!(s.marked().is_empty());
        let mut out = [9u8; 3];
        s.deal(1, 2, &mut out);
        assert_eq!(out, [3, 3, 3]);
    }

    #[test]
    fn small_and_large_decks_keep_their_cards() {
        for n in [1usize, 2, 5, 52, 64, 65, 100, 540] {
            let deck: Vec<u8> = (0..n).map(|i| ((i * 7 + n) % 6) as u8).collect();
            let s = Sampler::new(&deck);
            let mut out = vec![0u8; n];
            for k in 0..50 {
                s.deal(9, k, &mut out);
                let (mut a, mut b) = (deck.clone(), out.clone());
                a.sort_unstable();
                b.sort_unstable();
                assert_eq!(a, b, "{n} cards, deal {k}");
            }
        }
    }

    #[test]
    fn the_bitset_and_the_mask_agree() {
        // Floyd's subset as a mask (n <= 64) and as a bitset (the path for larger decks).
        for m in 0..=20usize {
            let n = 52;
            let places: Vec<u32> = ((n - m)..n)
                .map(|j| ((j * 31 + m) % (j + 1)) as u32)
                .collect();
            let mask = floyd_mask(n, &places);
            let mut taken = vec![false; n];
            for (j, &t) in ((n - m)..n).zip(&places) {
                let p = if taken[t as usize] { j } else { t as usize };
                taken[p] = true;
            }
            let bits: Vec<usize> = mask_positions(mask).collect();
            let set: Vec<usize> = (0..n).filter(|&i| taken[i]).collect();
            assert_eq!(bits, set);
            assert_eq!(bits.len(), m);
        }
    }
}
