//! Exact deal counts of any deck and table, in arbitrary precision (`bmn count`).
//!
//! A deal is an arrangement of the deck's multiset cut into the players' stacks with the sizes
//! round-robin dealing from player 1 gives. The cut is fixed by the deck's size and the number
//! of players, so deals and arrangements are in one-to-one correspondence and there are the
//! multinomial `n! / prod(c_k!)` of them whatever the table: 653,534,134,886,878,245,000 for
//! the standard deck. `Arrangements` counts in u128, which two standard decks (about 1.7e45)
//! already overflow, hence `BigUint` here.
//!
//! A *balanced* deal gives every player the same number of each kind (`c_k / P`), so each of
//! the `P` equal stacks is an arrangement of the same share: `((n/P)! / prod((c_k/P)!))^P`.

use bmn_core::Deck;
pub use num_bigint::BigUint;

/// The deal counts of a deck at a table of `players`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DealCount {
    /// Cards in the deck.
    pub cards: u32,
    pub players: usize,
    /// Distinct deals with player 1 leading: the multinomial `n! / prod(c_k!)`.
    pub deals: BigUint,
    /// Distinct balanced deals, or `None` when some kind's count is not a multiple of
    /// `players` (no deal is balanced).
    pub balanced_deals: Option<BigUint>,
    /// Deals times the `players` seats that could lead: distinct (deal, leader) starts.
    pub leaders_times_deals: BigUint,
}

impl DealCount {
    /// The counts of `deck` dealt to `players` (at least 1; the caller validates the table).
    pub fn new(deck: &Deck, players: usize) -> DealCount {
        let deals = multinomial(&deck.counts());
        DealCount {
            cards: deck.len(),
            players,
            leaders_times_deals: &deals * BigUint::from(players),
            balanced_deals: balanced_deals(deck, players),
            deals,
        }
    }
}

/// The number of distinct arrangements of `counts[k]` copies of each symbol `k`:
/// `(sum c_k)! / prod(c_k!)` (bmn-deals' one multinomial, which ranks use too).
pub use bmn_deals::rank::count as multinomial;

/// Distinct deals of `deck` to `players` in which every player holds the same number of each
/// kind; `None` if some count does not divide (or `players` is 0).
pub fn balanced_deals(deck: &Deck, players: usize) -> Option<BigUint> {
    let p = u32::try_from(players).ok().filter(|&p| p > 0)?;
    let counts = deck.counts();
    if counts.iter().any(|c| c % p != 0) {
        return None;
    }
    let share = multinomial(&counts.map(|c| c / p));
    Some(share.pow(p))
}

#[cfg(test)]
mod tests {
    use super::*;
    use bmn_deals::{Arrangements, next_arrangement};

    fn deck(spec: &str) -> Deck {
        Deck::parse(spec).unwrap()
    }

    #[track_caller]
    fn check(spec: &str, players: usize, deals: &str, balanced: Option<&str>) {
        let count = DealCount::new(&deck(spec), players);
        assert_eq!(count.deals.to_string(), deals, "{spec}");
        assert_eq!(
            count.balanced_deals.map(|b| b.to_string()).as_deref(),
            balanced,
            "{spec}, {players} players"
        );
    }

    #[test]
    fn closed_forms_and_published_counts() {
        // 4!/(1! 1! 2!) = 12; a single J cannot be shared out, so no deal is balanced.
        check("1J,1Q,2-", 2, "12", None);
        // 10!/(2! 2! 6!) = 1260; balanced: (5!/(1! 1! 3!))^2 = 20^2.
        check("2J,2Q,6-", 2, "1260", Some("400"));
        // Paulhus's n = 16 deck (golden fixtures): 24!/(2!^4 16!); balanced: (12!/8!)^2.
        check("2J,2Q,2K,2A,16-", 2, "1853386920", Some("141134400"));
        // The standard deck, any number of players: the cut changes nothing. Balanced:
        // (26!/(18! 2!^4))^2 = 3936933000^2, Paulhus's n = 18 count squared.
        check(
            "standard",
            2,
            "653534134886878245000",
            Some("15499441446489000000"),
        );
        for players in [2, 3, 4, 10] {
            let c = DealCount::new(&Deck::STANDARD, players);
            assert_eq!(c.deals.to_string(), "653534134886878245000");
            assert_eq!(c.leaders_times_deals, c.deals.clone() * players);
        }
        assert_eq!(DealCount::new(&Deck::STANDARD, 3).balanced_deals, None);
    }

    #[test]
    fn big_decks_go_past_u128() {
        // 104! / (72! 8!^4), computed independently with Python's exact integers.
        let two = DealCount::new(&deck("2xstandard"), 2);
        assert_eq!(
            two.deals.to_string(),
            "63638185714705576605564248358021063170085000"
        );
        assert!(two.deals.bits() > 128);
        // 540 cards: Pascal's rule for multinomials (each arrangement starts with some
        // kind) checks the product without another closed form.
        let ten = DealCount::new(&deck("10xstandard+jokers"), 2);
        assert_eq!(ten.cards, 540);
        let counts = [360, 40, 40, 40, 40, 20];
        assert_eq!(ten.deals, multinomial(&counts));
        let pascal: BigUint = (0..6)
            .map(|k| {
                let mut less = counts;
                less[k] -= 1;
                multinomial(&less)
            })
            .sum();
        assert_eq!(ten.deals, pascal);
        assert!(ten.balanced_deals.is_some());
    }

    #[test]
    fn agrees_with_the_u128_arrangements_on_every_deck_up_to_16_cards() {
        let mut decks = 0;
        for a in 0..=16u32 {
            for b in 0..=16 - a {
                for c in 0..=16 - a - b {
                    for d in 0..=16 - a - b - c {
                        for e in 0..=16 - a - b - c - d {
                            for f in 0..=16 - a - b - c - d - e {
                                let counts = [a, b, c, d, e, f];
                                let arr = Arrangements::new(counts).unwrap();
                                assert_eq!(
                                    multinomial(&counts),
                                    BigUint::from(arr.count()),
                                    "{counts:?}"
                                );
                                decks += 1;
                            }
                        }
                    }
                }
            }
        }
        assert_eq!(decks, 74_613); // C(22, 6): compositions of at most 16 into 6 parts
    }

    /// Every arrangement cut into round-robin-sized stacks, counting those where each stack
    /// holds exactly `c_k / P` of each kind.
    fn brute_force_balanced(counts: [u32; 6], players: usize) -> u64 {
        let mut a: Vec<u8> = Deck::from_counts(counts)
            .cards()
            .iter()
            .map(|k| k.index() as u8)
            .collect();
        let n = a.len();
        let sizes: Vec<usize> = (0..players)
            .map(|s| n / players + usize::from(s < n % players))
            .collect();
        let mut balanced = 0;
        loop {
            let mut at = 0;
            let ok = sizes.iter().all(|&size| {
                let mut held = [0u32; 6];
                for &s in &a[at..at + size] {
                    held[usize::from(s)] += 1;
                }
                at += size;
                held.iter()
                    .zip(counts)
                    .all(|(&h, c)| h * players as u32 == c)
            });
            balanced += u64::from(ok);
            if !next_arrangement(&mut a) {
                return balanced;
            }
        }
    }

    #[test]
    fn balanced_counts_match_brute_force() {
        for (counts, players) in [
            ([4, 2, 2, 0, 0, 0], 2),
            ([4, 2, 2, 2, 2, 0], 2),
            ([3, 3, 0, 0, 0, 3], 3),
            ([4, 4, 0, 0, 0, 0], 4),
            ([3, 1, 2, 0, 0, 0], 2),
        ] {
            let d = Deck::from_counts(counts);
            let expected = brute_force_balanced(counts, players);
            let got = balanced_deals(&d, players);
            if expected == 0 {
                assert_eq!(got, None, "{counts:?}");
            } else {
                assert_eq!(got, Some(BigUint::from(expected)), "{counts:?}");
            }
        }
        // 12 cards: (6!/(3! 1! 1! 1!))^2 = 120^2.
        assert_eq!(brute_force_balanced([6, 2, 2, 2, 0, 0], 2), 14_400);
    }
}
