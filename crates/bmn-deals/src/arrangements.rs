//! Multiset permutations in lexicographic order: count, rank, unrank and step to the next.
//!
//! A deal of a deck is an arrangement of its multiset of kinds, so the deals of a deck are
//! numbered `0..count` in lexicographic order of their codes (0 plain < J < Q < K < A < X).
//! Unranking turns a range of indices into a unit of work that any machine can start
//! without playing through the ones before it; ranking is its inverse. The method is the
//! textbook one (e.g. Knuth, TAOCP 7.2.1.2): the arrangements that start with symbol `s`
//! number `multinomial(counts - e_s)`, which is `multinomial(counts) * c_s / n`.

/// How many distinct symbols a deck can hold (codes 0..=5).
pub const SYMBOLS: usize = 6;

/// The arrangements of a multiset given by its symbol counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Arrangements {
    counts: [u32; SYMBOLS],
    len: usize,
    total: u128,
}

impl Arrangements {
    /// The arrangements of `counts[s]` copies of symbol `s`; `None` if there are more than
    /// `u128::MAX` of them (no deck of at most 64 cards comes near: a standard deck has
    /// about 6.4e20).
    pub fn new(counts: [u32; SYMBOLS]) -> Option<Arrangements> {
        let mut total: u128 = 1;
        let mut n: u128 = 0;
        // Multiply in the binomials C(n + c, c) one symbol at a time; each step stays exact.
        for &c in &counts {
            for i in 1..=u128::from(c) {
                n += 1;
                total = total.checked_mul(n)? / i;
            }
        }
        Some(Arrangements {
            counts,
            len: counts.iter().map(|&c| c as usize).sum(),
            total,
        })
    }

    /// Number of distinct arrangements.
    pub fn count(&self) -> u128 {
        self.total
    }

    /// Length of each arrangement.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the multiset is empty (one empty arrangement).
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The arrangement of lexicographic rank `rank`, written into `out` (of length `len()`).
    ///
    /// # Panics
    /// If `rank >= count()` or `out` has the wrong length.
    pub fn unrank(&self, mut rank: u128, out: &mut [u8]) {
        assert!(rank < self.total, "rank {rank} out of 0..{}", self.total);
        assert_eq!(out.len(), self.len, "output length");
        let mut counts = self.counts;
        let mut block = self.total; // arrangements of what is left
        for (left, slot) in (1..=self.len as u128).rev().zip(out.iter_mut()) {
            for (s, count) in counts.iter_mut().enumerate() {
                let c = u128::from(*count);
                if c == 0 {
                    continue;
                }
                let starting_with_s = block * c / left;
                if rank < starting_with_s {
                    *slot = s as u8;
                    *count -= 1;
                    block = starting_with_s;
                    break;
                }
                rank -= starting_with_s;
            }
        }
    }

    /// The lexicographic rank of `arrangement`, or `None` if it is not an arrangement of
    /// this multiset.
    pub fn rank(&self, arrangement: &[u8]) -> Option<u128> {
        if arrangement.len() != self.len {
            return None;
        }
        let mut counts = self.counts;
        let mut block = self.total;
        let mut rank = 0u128;
        for (left, &sym) in (1..=self.len as u128).rev().zip(arrangement) {
            let sym = usize::from(sym);
            if sym >= SYMBOLS || counts[sym] == 0 {
                return None;
            }
            for &c in counts.iter().take(sym) {
                rank += block * u128::from(c) / left;
            }
            block = block * u128::from(counts[sym]) / left;
            counts[sym] -= 1;
        }
        Some(rank)
    }
}

/// Steps `a` to the next arrangement in lexicographic order; `false` (leaving `a` sorted,
/// the first arrangement) after the last one. The classic algorithm (Narayana Pandita),
/// which handles repeated symbols as they are.
#[inline]
pub fn next_arrangement<T: Ord>(a: &mut [T]) -> bool {
    let n = a.len();
    if n < 2 {
        return false;
    }
    let mut i = n - 1;
    while i > 0 && a[i - 1] >= a[i] {
        i -= 1;
    }
    if i == 0 {
        a.reverse();
        return false;
    }
    let mut j = n - 1;
    while a[j] <= a[i - 1] {
        j -= 1;
    }
    a.swap(i - 1, j);
    a[i..].reverse();
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    fn paulhus(plain: u32) -> Arrangements {
        Arrangements::new([plain, 2, 2, 2, 2, 0]).unwrap()
    }

    #[test]
    fn counts_are_multinomials() {
        // (8+n)!/(2!^4 n!), as Paulhus's table states.
        assert_eq!(paulhus(0).count(), 2520);
        assert_eq!(paulhus(16).count(), 1_853_386_920);
        assert_eq!(paulhus(18).count(), 3_936_933_000);
        let standard = Arrangements::new([36, 4, 4, 4, 4, 0]).unwrap();
        assert_eq!(standard.count(), 653_534_134_886_878_245_000);
        assert_eq!(Arrangements::new([0; 6]).unwrap().count(), 1);
    }

    #[test]
    fn unrank_walks_in_next_order_and_rank_inverts_it() {
        for counts in [[2, 1, 1, 0, 0, 0], [3, 2, 0, 2, 1, 0], [4, 2, 2, 2, 2, 0]] {
            let arr = Arrangements::new(counts).unwrap();
            let mut walk = vec![0u8; arr.len()];
            arr.unrank(0, &mut walk);
            let mut seen = 0u128;
            loop {
                let mut at = vec![0u8; arr.len()];
                arr.unrank(seen, &mut at);
                assert_eq!(at, walk, "rank {seen} of {counts:?}");
                assert_eq!(arr.rank(&walk), Some(seen));
                seen += 1;
                if !next_arrangement(&mut walk) {
                    break;
                }
            }
            assert_eq!(seen, arr.count(), "{counts:?}");
        }
    }

    #[test]
    fn rank_rejects_what_is_not_an_arrangement() {
        let arr = paulhus(2);
        assert_eq!(arr.rank(&[0; 10]), None);
        assert_eq!(arr.rank(&[0, 1]), None);
        assert_eq!(arr.rank(&[9, 0, 1, 1, 2, 2, 3, 3, 4, 4]), None);
    }

    #[test]
    fn large_ranks_round_trip() {
        let standard = Arrangements::new([36, 4, 4, 4, 4, 0]).unwrap();
        let mut a = vec![0u8; 52];
        for r in [0, 1, 12345678901234567890, standard.count() - 1] {
            standard.unrank(r, &mut a);
            assert_eq!(standard.rank(&a), Some(r));
        }
    }
}
