//! Deals in their marked form, the form the streaming kernels take: a mask of the places of the
//! marked cards (every card but the background's, the plain card in an enumeration) and a word
//! of their codes, 3 bits each in order of place; read off a deal ([`marked_of`]), laid out
//! again ([`lay_out`]), and stepped in lexicographic order ([`next_marked`]). The step is
//! [`next_arrangement`](crate::next_arrangement)'s (Narayana Pandita's) read off that form, so
//! an enumeration never lays a deal out card by card: on Paulhus's reduced decks laying out
//! and re-reading the bytes was a third of an enumeration's time.
//!
//! Why it is short: the non-increasing tail that the classic step reverses is, in this form,
//! a run of marked places whose codes do not increase followed by plain cards only (a plain
//! card is the smallest symbol). So the step touches the run's codes (one or two on average)
//! and moves the run's places with two mask operations, however many plain cards follow.

/// The most marked symbols the codes word holds (21 fields of 3 bits).
pub const MAX_MARKED: usize = 21;

/// A deal's marked form: `(mask, codes)`, bit `p` of `mask` set iff place `p` holds a card
/// other than `background`, whose codes (each below 8) stand in `codes` 3 bits each, the lowest
/// place first. [`lay_out`]'s inverse.
///
/// # Panics
/// If the deal is longer than 64 or holds more than [`MAX_MARKED`] marked cards, or a code of 8
/// or more.
pub fn marked_of(deal: &[u8], background: u8) -> (u64, u64) {
    assert!(deal.len() <= 64, "at most 64 places");
    let (mut mask, mut codes, mut at) = (0u64, 0u64, 0);
    for (p, &s) in deal.iter().enumerate() {
        if s != background {
            assert!(
                s < 8 && at < 3 * MAX_MARKED,
                "a symbol of 3 bits, at most 21 marked"
            );
            mask |= 1 << p;
            codes |= u64::from(s) << at;
            at += 3;
        }
    }
    (mask, codes)
}

/// Lays a deal out from its marked form: `background` everywhere but at `mask`'s bits, which
/// take the 3-bit fields of `codes` in order.
#[inline]
pub fn lay_out(deal: &mut [u8], mut mask: u64, mut codes: u64, background: u8) {
    deal.fill(background);
    while mask != 0 {
        deal[mask.trailing_zeros() as usize] = (codes & 7) as u8;
        mask &= mask - 1;
        codes >>= 3;
    }
}

/// Places `lo..=hi`.
#[inline(always)]
fn places(lo: u32, hi: u32) -> u64 {
    (u64::MAX >> (63 - hi)) & (u64::MAX << lo)
}

/// Steps `(mask, codes)`, the marked form ([`marked_of`], background 0) of an arrangement of
/// `len` places with `marked` marked symbols (`mask.count_ones()`, the same for every
/// arrangement of a multiset: a caller that steps many knows it, where a popcount without the
/// instruction costs a dozen), to the next arrangement in lexicographic order; `false`
/// (nothing changed) after the last.
#[inline]
pub fn next_marked(mask: &mut u64, codes: &mut u64, len: usize, marked: u32) -> bool {
    let (m, c) = (*mask, *codes);
    debug_assert_eq!(m.count_ones(), marked);
    if m == 0 {
        return false;
    }
    let hi = 63 - m.leading_zeros();
    if hi > 0 && m & (1 << (hi - 1)) == 0 {
        // The commonest step (most of an enumeration's): the last marked card has a plain
        // card before it, and moves there; the codes keep their order. The general step below
        // does the same in four times the instructions.
        *mask = m ^ (0b11 << (hi - 1));
        return true;
    }
    let code = |k: u32| (c >> (3 * k)) & 7;
    // The run: fields `first..marked`, at places `start..=hi`, contiguous, their codes not
    // increasing left to right.
    let (mut first, mut start) = (marked - 1, hi);
    while first > 0 && start > 0 && m & (1 << (start - 1)) != 0 && code(first - 1) >= code(first) {
        first -= 1;
        start -= 1;
    }
    if start == 0 {
        return false;
    }
    let (pivot, run, len) = (start - 1, marked - first, len as u32);
    // The run's codes reversed, ascending from field 0: what the classic step's reversal
    // leaves.
    let mut reversed = 0u64;
    for k in first..marked {
        reversed = (reversed << 3) | code(k);
    }
    let cleared = m & !places(start, hi);
    if m & (1 << pivot) == 0 {
        // A plain card before the run takes the run's smallest code (its last); the rest of
        // the run goes to the very end, the plain cards between.
        let rest = if run > 1 {
            places(len - run + 1, len - 1)
        } else {
            0
        };
        *mask = cleared | 1 << pivot | rest;
        *codes = (c & ((1 << (3 * first)) - 1)) | reversed << (3 * first);
    } else {
        // A marked pivot below its right neighbour takes the run's smallest code above its
        // own, which takes its place; then the run goes, ascending, to the very end.
        let p = code(first - 1);
        let mut j = 0;
        while (reversed >> (3 * j)) & 7 <= p {
            j += 1;
        }
        let taken = (reversed >> (3 * j)) & 7;
        let run_codes = (reversed & !(7 << (3 * j))) | p << (3 * j);
        *mask = cleared | places(len - run, len - 1);
        *codes = (c & ((1 << (3 * (first - 1))) - 1))
            | taken << (3 * (first - 1))
            | run_codes << (3 * first);
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Arrangements, next_arrangement};

    /// Every arrangement of `counts`, stepped both ways from the first: the same each step,
    /// and both end together.
    fn walk_every(counts: [u32; crate::SYMBOLS]) -> u128 {
        let arr = Arrangements::new(counts).unwrap();
        let mut bytes = vec![0u8; arr.len()];
        arr.unrank(0, &mut bytes);
        let (mut mask, mut codes) = marked_of(&bytes, 0);
        let mut steps = 1;
        loop {
            let more = next_arrangement(&mut bytes);
            let before = (mask, codes);
            let marked = mask.count_ones();
            let stepped = next_marked(&mut mask, &mut codes, arr.len(), marked);
            assert_eq!(stepped, more, "{counts:?} after {before:?}");
            if !more {
                assert_eq!((mask, codes), before, "nothing changed after the last");
                break;
            }
            assert_eq!(
                (mask, codes),
                marked_of(&bytes, 0),
                "{counts:?} at {bytes:?}"
            );
            steps += 1;
        }
        assert_eq!(steps, arr.count(), "{counts:?}");
        steps
    }

    #[test]
    fn every_arrangement_in_the_classic_order() {
        for counts in [
            [0, 0, 0, 0, 0, 0],
            [5, 0, 0, 0, 0, 0],
            [0, 1, 0, 0, 0, 0],
            [0, 3, 2, 0, 0, 0],
            [3, 1, 0, 0, 0, 0],
            [2, 1, 1, 0, 0, 0],
            [4, 2, 2, 2, 2, 0],
            [6, 2, 0, 3, 0, 1],
            [0, 2, 2, 2, 2, 0],
            [9, 1, 1, 1, 1, 1],
            [3, 0, 0, 0, 0, 4],
        ] {
            walk_every(counts);
        }
    }

    #[test]
    fn full_decks_step_as_their_bytes_do_from_any_rank() {
        // The standard deck (64-bit edges: 52 places), Camicia's, and a 64-card deck with
        // marked cards at the last place.
        for counts in [
            [36, 4, 4, 4, 4, 0],
            [28, 4, 4, 4, 0, 0],
            [44, 4, 4, 4, 4, 4],
        ] {
            let arr = Arrangements::new(counts).unwrap();
            let mut bytes = vec![0u8; arr.len()];
            let mut x = 0x9e37_79b9_7f4a_7c15u128;
            for r in [0, 1, 2, arr.count() / 2, arr.count() - 2]
                .into_iter()
                .chain(
                    std::iter::repeat_with(|| {
                        x = x
                            .wrapping_mul(0x2545_f491_4f6c_dd1d)
                            .wrapping_add(1442695040888963407);
                        x % (arr.count() - 1)
                    })
                    .take(2000),
                )
            {
                arr.unrank(r, &mut bytes);
                let (mut mask, mut codes) = marked_of(&bytes, 0);
                for _ in 0..50 {
                    let more = next_arrangement(&mut bytes);
                    let marked = mask.count_ones();
                    assert_eq!(next_marked(&mut mask, &mut codes, arr.len(), marked), more);
                    if !more {
                        break;
                    }
                    assert_eq!(
                        (mask, codes),
                        marked_of(&bytes, 0),
                        "{counts:?} from rank {r}"
                    );
                }
            }
            // The last arrangement has no next.
            arr.unrank(arr.count() - 1, &mut bytes);
            let (mut mask, mut codes) = marked_of(&bytes, 0);
            let marked = mask.count_ones();
            assert!(!next_marked(&mut mask, &mut codes, arr.len(), marked));
        }
    }
}
