//! `DealSource`: which random deals a search plays, and deal `k` of a seed's stream.

use bmn_core::{Deck, Kind, Player, Position};
use bmn_kernel::dealer;

use crate::SearchError;

/// The random deals of a search: uniform arrangements of a deck, or balanced ones.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DealSource {
    deck: Deck,
    /// The deck as kernel codes (kind index = standard penalty), in `Deck::cards` order.
    codes: Vec<u8>,
    /// With `balanced`: player 1's half (player 2's is the same multiset).
    half: Option<Vec<u8>>,
    /// Cards to player 1, who leads: round-robin dealing from the leader gives them the odd card.
    split: usize,
}

impl DealSource {
    /// Uniformly random arrangements of `deck`, first half (rounded up) to player 1, who leads.
    /// With `balanced`, only deals where both players hold the same number of each kind
    /// (uniform among those: each half is shuffled on its own).
    pub fn new(deck: Deck, balanced: bool) -> Result<DealSource, SearchError> {
        let len = deck.len() as usize;
        if !(2..=bmn_kernel::MAX_CARDS).contains(&len) {
            return Err(SearchError::DeckSize {
                deck: deck.to_string(),
                cards: len,
            });
        }
        let codes: Vec<u8> = deck.cards().iter().map(|k| k.index() as u8).collect();
        let half = if balanced {
            if let Some(k) = Kind::ALL.into_iter().find(|&k| deck.count(k) % 2 == 1) {
                return Err(SearchError::Unbalanceable {
                    deck: deck.to_string(),
                    kind: k.symbol(),
                });
            }
            let half_deck = Deck::from_counts(deck.counts().map(|c| c / 2));
            Some(half_deck.cards().iter().map(|k| k.index() as u8).collect())
        } else {
            None
        };
        Ok(DealSource {
            deck,
            codes,
            half,
            split: len.div_ceil(2),
        })
    }

    pub fn deck(&self) -> &Deck {
        &self.deck
    }

    pub fn balanced(&self) -> bool {
        self.half.is_some()
    }

    /// Cards in one deal.
    pub fn len(&self) -> usize {
        self.codes.len()
    }

    /// Always false: a source has at least two cards.
    pub fn is_empty(&self) -> bool {
        self.codes.is_empty()
    }

    /// Cards player 1 gets.
    pub fn split(&self) -> usize {
        self.split
    }

    /// Writes deal `index` of stream `seed` into `out` (`self.len()` codes, player 1's first).
    /// A pure function of (seed, index), so any thread can deal any game.
    pub fn deal(&self, seed: u64, index: u64, out: &mut [u8]) {
        match &self.half {
            None => dealer::deal_for(seed, index, &self.codes, out),
            Some(half) => {
                let mut rng = dealer::deal_rng(seed, index);
                let (p1, p2) = out.split_at_mut(half.len());
                p1.copy_from_slice(half);
                p2.copy_from_slice(half);
                dealer::shuffle(&mut rng, p1);
                dealer::shuffle(&mut rng, p2);
            }
        }
    }

    /// Writes deals `first .. first + out.len() / self.len()` of stream `seed` into `out`,
    /// deal after deal: the same as [`Self::deal`] for each, but uniform deals go through
    /// [`dealer::deal_batch`] (eight at a time in SIMD lanes where the CPU allows).
    pub fn deal_batch(&self, seed: u64, first: u64, out: &mut [u8]) {
        match &self.half {
            None => dealer::deal_batch(seed, first, &self.codes, out),
            Some(_) => {
                for (i, deal) in out.chunks_exact_mut(self.len()).enumerate() {
                    self.deal(seed, first + i as u64, deal);
                }
            }
        }
    }

    /// A dealt deal as a bmn-core position, player 1 leading.
    pub fn position(&self, codes: &[u8]) -> Position {
        let hand = |h: &[u8]| {
            h.iter()
                .map(|&c| Kind::from_index(usize::from(c)).expect("kernel code"))
                .collect()
        };
        let (p1, p2) = codes.split_at(self.split);
        Position::new_deal(vec![hand(p1), hand(p2)], Player(0))
            .expect("a dealt deal is a valid position")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn balanced_deals_share_the_faces() {
        let src = DealSource::new(Deck::STANDARD, true).unwrap();
        let mut out = vec![0; 52];
        for i in 0..100 {
            src.deal(7, i, &mut out);
            let (a, b) = out.split_at(26);
            for code in 0..5u8 {
                let count = |h: &[u8]| h.iter().filter(|&&c| c == code).count();
                assert_eq!(count(a), count(b));
            }
        }
    }

    #[test]
    fn deal_batch_matches_deal() {
        for (deck, balanced) in [
            ("standard", false),
            ("standard", true),
            ("1J,1Q,1K,1A,5-", false),
        ] {
            let src = DealSource::new(Deck::parse(deck).unwrap(), balanced).unwrap();
            let n = src.len();
            let mut batch = vec![0; 21 * n];
            src.deal_batch(11, 1000, &mut batch);
            let mut one = vec![0; n];
            for (i, got) in batch.chunks_exact(n).enumerate() {
                src.deal(11, 1000 + i as u64, &mut one);
                assert_eq!(got, one);
            }
        }
    }

    #[test]
    fn odd_decks_give_the_leader_the_extra_card() {
        let src = DealSource::new(Deck::parse("1J,1Q,1K,1A,5-").unwrap(), false).unwrap();
        assert_eq!(src.split(), 5);
        assert!(DealSource::new(Deck::parse("1J,1Q,2-").unwrap(), true).is_err());
        assert!(DealSource::new(Deck::parse("2xstandard").unwrap(), false).is_err());
    }
}
