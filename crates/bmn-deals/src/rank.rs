//! Ranks of arrangements of any size, exact: the lexicographic rank of an arrangement among
//! all arrangements of its multiset (the order of [`crate::Arrangements`], whose `u128`
//! numbering it extends), in arbitrary precision.
//!
//! The standard deck has 653,534,134,886,878,245,000 deals (about 2^69), two decks about
//! 2^150: past `u64` and `u128`. The method is the textbook one (e.g. Knuth, TAOCP 7.2.1.2):
//! of the arrangements of what is left, those that start with symbol `s` number
//! `block * c_s / left`, an exact division.

use num_bigint::BigUint;

use crate::arrangements::SYMBOLS;

/// The number of distinct arrangements of `counts[s]` copies of each symbol `s`, the
/// multinomial `(sum c_s)! / prod(c_s!)`: built as a product of binomials, one symbol at a
/// time, so every intermediate value is an exact integer (each step `total * n / i` is `i *
/// C(n, i)` divided by `i`) and no factorial of the whole deck is ever formed.
pub fn count(counts: &[u32]) -> BigUint {
    let mut total = BigUint::from(1u32);
    let mut n = 0u64;
    for &c in counts {
        for i in 1..=u64::from(c) {
            n += 1;
            total *= n;
            total /= i;
        }
    }
    total
}

/// The rank of `arrangement` (symbols `0..SYMBOLS`) among the arrangements of `counts`, or
/// `None` if it is not one (another multiset, or a symbol out of range).
pub fn rank(counts: &[u32; SYMBOLS], arrangement: &[u8]) -> Option<BigUint> {
    let mut left_counts = *counts;
    let total: u64 = counts.iter().map(|&c| u64::from(c)).sum();
    if arrangement.len() as u64 != total {
        return None;
    }
    let mut block = count(counts);
    let mut rank = BigUint::from(0u32);
    for (i, &symbol) in arrangement.iter().enumerate() {
        let s = usize::from(symbol);
        if s >= SYMBOLS || left_counts[s] == 0 {
            return None;
        }
        let left = total - i as u64;
        for &c in &left_counts[..s] {
            if c > 0 {
                rank += &block * u64::from(c) / left;
            }
        }
        block = block * u64::from(left_counts[s]) / left;
        left_counts[s] -= 1;
    }
    Some(rank)
}

/// The arrangement of rank `rank` among the arrangements of `counts`, or `None` if there are
/// no more than `rank` of them.
pub fn unrank(counts: &[u32; SYMBOLS], rank: &BigUint) -> Option<Vec<u8>> {
    let mut block = count(counts);
    if *rank >= block {
        return None;
    }
    let mut rank = rank.clone();
    let mut left_counts = *counts;
    let total: u64 = counts.iter().map(|&c| u64::from(c)).sum();
    let mut out = Vec::with_capacity(total as usize);
    for left in (1..=total).rev() {
        for (s, count) in left_counts.iter_mut().enumerate() {
            if *count == 0 {
                continue;
            }
            let starting_with_s = &block * u64::from(*count) / left;
            if rank < starting_with_s {
                out.push(s as u8);
                *count -= 1;
                block = starting_with_s;
                break;
            }
            rank -= starting_with_s;
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Arrangements, Xoshiro256PlusPlus, next_arrangement};

    const STANDARD: [u32; SYMBOLS] = [36, 4, 4, 4, 4, 0];

    fn random_rank(total: &BigUint, rng: &mut Xoshiro256PlusPlus) -> BigUint {
        // Uniform enough for a test: a long random number reduced modulo the count.
        let words: Vec<u64> = (0..(total.bits() / 64 + 2))
            .map(|_| rng.next_u64())
            .collect();
        let big = words
            .iter()
            .fold(BigUint::from(0u32), |acc, &w| (acc << 64u32) + w);
        big % total
    }

    #[test]
    fn counts_are_the_multinomial() {
        assert_eq!(count(&STANDARD).to_string(), "653534134886878245000");
        assert_eq!(count(&[16, 2, 2, 2, 2, 0]).to_string(), "1853386920");
        assert_eq!(count(&[0; SYMBOLS]).to_string(), "1");
        // Two standard decks: past 2^128.
        assert!(count(&[72, 8, 8, 8, 8, 0]).bits() > 128);
    }

    #[test]
    fn rank_zero_is_sorted_and_the_last_is_reversed() {
        for counts in [
            STANDARD,
            [72, 8, 8, 8, 8, 4],
            [28, 4, 4, 4, 0, 0],
            [1, 1, 1, 1, 1, 1],
        ] {
            let sorted: Vec<u8> = (0..SYMBOLS as u8)
                .flat_map(|s| std::iter::repeat_n(s, counts[usize::from(s)] as usize))
                .collect();
            let reversed: Vec<u8> = sorted.iter().rev().copied().collect();
            let last = count(&counts) - 1u32;
            assert_eq!(rank(&counts, &sorted), Some(BigUint::from(0u32)));
            assert_eq!(rank(&counts, &reversed), Some(last.clone()));
            assert_eq!(unrank(&counts, &last), Some(reversed));
            assert_eq!(unrank(&counts, &count(&counts)), None);
        }
    }

    #[test]
    fn rank_and_unrank_invert_each_other_at_any_size() {
        let mut rng = Xoshiro256PlusPlus::from_state([7, 8, 9, 10]);
        for counts in [
            STANDARD,
            [28, 4, 4, 4, 0, 0],       // camicia
            [36, 4, 4, 4, 4, 2],       // standard+jokers
            [72, 8, 8, 8, 8, 0],       // 2xstandard, past 2^128
            [360, 40, 40, 40, 40, 20], // 10xstandard+jokers, 540 cards
            [16, 2, 2, 2, 2, 0],
            [11, 1, 1, 1, 1, 0],
        ] {
            let total = count(&counts);
            for _ in 0..50 {
                let k = random_rank(&total, &mut rng);
                let a = unrank(&counts, &k).unwrap();
                assert_eq!(rank(&counts, &a), Some(k));
            }
        }
    }

    #[test]
    fn agrees_with_the_u128_numbering_of_enumerations() {
        for counts in [[6, 2, 2, 0, 0, 0], [4, 2, 2, 2, 2, 0], STANDARD] {
            let a = Arrangements::new(counts).unwrap();
            let mut rng = Xoshiro256PlusPlus::from_state([1, 2, 3, 4]);
            for _ in 0..100 {
                let k = u128::from(rng.next_u64()) * u128::from(rng.next_u64()) % a.count();
                let mut out = vec![0u8; a.len()];
                a.unrank(k, &mut out);
                assert_eq!(rank(&counts, &out), Some(BigUint::from(k)));
                assert_eq!(unrank(&counts, &BigUint::from(k)), Some(out.clone()));
                // The next rank is the next arrangement.
                if k + 1 < a.count() && next_arrangement(&mut out) {
                    assert_eq!(rank(&counts, &out), Some(BigUint::from(k + 1)));
                }
            }
        }
    }

    #[test]
    fn what_is_no_arrangement_has_no_rank() {
        assert_eq!(rank(&[1, 1, 0, 0, 0, 0], &[0, 0]), None);
        assert_eq!(rank(&[1, 1, 0, 0, 0, 0], &[0]), None);
        assert_eq!(rank(&[1, 1, 0, 0, 0, 0], &[0, 7]), None);
    }
}
