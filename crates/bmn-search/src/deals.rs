//! `DealSource`: which random deals a search plays, and deal `k` of a seed's stream.

use bmn_core::{Deck, Kind, MAX_PLAYERS, Player, Position};
use bmn_deals::{Sampler, Stream};
use bmn_kernel::Marked;
use bmn_kernel::dealer::Dealer;

use std::borrow::Cow;

use crate::SearchError;
use crate::device::{DeviceBatch, DeviceDeals};

/// The largest deck dealt to more than two players: ten standard decks with jokers, far past
/// any table people play at, small enough that a deal is a few hundred bytes.
pub const MAX_REFERENCE_CARDS: usize = 540;

/// The random deals of a search: uniform arrangements of a deck, or balanced ones, cut
/// among 2..=10 players, player 1 leading.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DealSource {
    deck: Deck,
    /// With `balanced`: one player's share (every player's is the same multiset).
    share: Option<Vec<u8>>,
    /// Cards of each player, seat order: round-robin dealing from the leader (player 1)
    /// gives the first `len % players` seats one card more.
    sizes: Vec<usize>,
    /// The whole deck's deals on the source's stream; it holds the deck as kernel codes (kind
    /// index = standard penalty), in `Deck::cards` order.
    dealer: Dealer,
    /// With `balanced` on stream 2: one share's sampler.
    share_sampler: Option<Sampler>,
}

impl DealSource {
    /// Two players: [`Self::with_players`] with 2.
    pub fn new(deck: Deck, balanced: bool) -> Result<DealSource, SearchError> {
        DealSource::with_players(deck, 2, balanced)
    }

    /// Uniformly random arrangements of `deck` cut into `players` stacks, seat after seat,
    /// with the sizes round-robin dealing from player 1 (who leads) gives: the same
    /// distribution as dealing a shuffled deck round-robin, and for two players exactly the
    /// deals of `bmn search` (first half, rounded up, to player 1). With
    /// `balanced`, only deals where every player holds the same number of each kind
    /// (uniform among those: each hand is shuffled on its own).
    pub fn with_players(
        deck: Deck,
        players: usize,
        balanced: bool,
    ) -> Result<DealSource, SearchError> {
        let len = deck.len() as usize;
        if !(2..=MAX_PLAYERS).contains(&players) {
            return Err(SearchError::Players(players));
        }
        // The kernels take two players and at most 64 cards; the reference engine any deck
        // that gives every player a card.
        let max = MAX_REFERENCE_CARDS;
        if !(players..=max).contains(&len) {
            return Err(SearchError::DeckSize {
                deck: deck.to_string(),
                cards: len,
                players,
                max,
            });
        }
        let codes: Vec<u8> = deck.cards().iter().map(|k| k.index() as u8).collect();
        let share = if balanced {
            if let Some(k) = Kind::ALL
                .into_iter()
                .find(|&k| !(deck.count(k) as usize).is_multiple_of(players))
            {
                return Err(SearchError::Unbalanceable {
                    deck: deck.to_string(),
                    kind: k.symbol(),
                    players,
                });
            }
            let p = players as u32;
            let share = Deck::from_counts(deck.counts().map(|c| c / p));
            Some(share.cards().iter().map(|k| k.index() as u8).collect())
        } else {
            None
        };
        let sizes = bmn_core::dealt_sizes(len, players, bmn_core::Player(0));
        Ok(DealSource {
            deck,
            dealer: Dealer::new(Stream::V1, &codes),
            share,
            sizes,
            share_sampler: None,
        })
    }

    /// The same deals drawn from `stream` (a source starts on stream 1).
    pub fn with_stream(mut self, stream: Stream) -> DealSource {
        self.dealer = Dealer::new(stream, self.dealer.deck());
        self.share_sampler = match (&self.share, stream) {
            (Some(share), Stream::V2) => Some(Sampler::new(share)),
            _ => None,
        };
        self
    }

    /// The stream deal `k` of a seed is drawn from.
    pub fn stream(&self) -> Stream {
        self.dealer.stream()
    }

    pub fn deck(&self) -> &Deck {
        &self.deck
    }

    pub fn balanced(&self) -> bool {
        self.share.is_some()
    }

    /// Seats at the table.
    pub fn players(&self) -> usize {
        self.sizes.len()
    }

    /// Cards in one deal.
    pub fn len(&self) -> usize {
        self.dealer.len()
    }

    /// Always false: a source has at least two cards.
    pub fn is_empty(&self) -> bool {
        self.dealer.is_empty()
    }

    /// Cards of each player, seat order (round-robin dealing from player 1).
    pub fn sizes(&self) -> &[usize] {
        &self.sizes
    }

    /// Cards player 1 gets.
    pub fn split(&self) -> usize {
        self.sizes[0]
    }

    /// Writes deal `index` of stream `seed` into `out` (`self.len()` codes, player 1's
    /// first, then player 2's, ...). A pure function of (seed, index), so any thread can
    /// deal any game.
    pub fn deal(&self, seed: u64, index: u64, out: &mut [u8]) {
        let Some(share) = &self.share else {
            return self.dealer.deal(seed, index, out);
        };
        let mut rng = bmn_deals::deal_rng(seed, index);
        for hand in out.chunks_exact_mut(share.len()) {
            match &self.share_sampler {
                Some(sampler) => sampler.deal_from(&mut rng, hand),
                None => {
                    hand.copy_from_slice(share);
                    bmn_deals::shuffle(&mut rng, hand);
                }
            }
        }
    }

    /// Writes deals `first .. first + out.len() / self.len()` of stream `seed` into `out`,
    /// deal after deal: the same as [`Self::deal`] for each, but uniform deals go through
    /// [`Dealer::batch`] (eight at a time in SIMD lanes where the CPU allows).
    pub fn deal_batch(&self, seed: u64, first: u64, out: &mut [u8]) {
        match &self.share {
            None => self.dealer.batch(seed, first, out),
            Some(_) => {
                for (i, deal) in out.chunks_exact_mut(self.len()).enumerate() {
                    self.deal(seed, first + i as u64, deal);
                }
            }
        }
    }

    /// [`Self::deal_batch`]'s deals `first..first + out.len()` by their penalty cards, as the
    /// streaming kernels take them ([`bmn_kernel::dealer::Dealer::batch_marked`]), where
    /// they can be had so: stream 2, the whole deck dealt at once (not `balanced`), plain
    /// cards its background; `false` (nothing written) otherwise.
    pub fn deal_batch_marked(&self, seed: u64, first: u64, out: &mut Marked) -> bool {
        self.share.is_none()
            && self.dealer.sampler().is_some_and(|s| s.background() == 0)
            && self.dealer.batch_marked(seed, first, out)
    }

    /// Deals `first..first + count` of stream `seed` as a device makes them, to be played
    /// with at most `max_tricks` tricks: two players and at most 64 cards (the kernels'
    /// scope), else `None`.
    pub fn device_deals(
        &self,
        seed: u64,
        first: u64,
        count: usize,
        max_tricks: u32,
    ) -> Option<DeviceBatch<'_>> {
        if self.players() != 2 || self.len() > bmn_kernel::MAX_CARDS {
            return None;
        }
        let (deck, segment) = match &self.share {
            None => (Cow::Borrowed(self.dealer.deck()), self.len()),
            Some(share) => (Cow::Owned(share.repeat(2)), share.len()),
        };
        Some(DeviceBatch {
            deals: DeviceDeals::Stream {
                seed,
                first,
                deck,
                segment,
                stream: self.stream(),
            },
            count,
            len: self.len(),
            first_hand: self.split(),
            leader: 0,
            max_tricks,
        })
    }

    /// A dealt deal as a bmn-core position, player 1 leading.
    pub fn position(&self, codes: &[u8]) -> Position {
        Position::deal_from_codes(codes, &self.sizes, Player(0))
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
        for (deck, balanced, stream) in [
            ("standard", false, Stream::V1),
            ("standard", true, Stream::V1),
            ("1J,1Q,1K,1A,5-", false, Stream::V1),
            ("standard", false, Stream::V2),
            ("standard", true, Stream::V2),
            ("1J,1Q,1K,1A,5-", false, Stream::V2),
        ] {
            let src = DealSource::new(Deck::parse(deck).unwrap(), balanced)
                .unwrap()
                .with_stream(stream);
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
    fn stream_2_balanced_deals_are_uniform_among_balanced_deals() {
        // 2J,2Q,6- balanced: each hand one J, one Q and three plain cards, 20 ways a hand:
        // 400 deals, each drawn about 500 times; Pearson's statistic under a bound that a
        // uniform sample passes but for about 1 in 10^6 (df 399: 399 + 4.75 * sqrt(798)).
        let src = DealSource::new(Deck::parse("2J,2Q,6-").unwrap(), true)
            .unwrap()
            .with_stream(Stream::V2);
        let mut seen = std::collections::HashMap::<Vec<u8>, u64>::new();
        let mut out = vec![0; 10];
        let draws = 400 * 500;
        for k in 0..draws {
            src.deal(3, k, &mut out);
            *seen.entry(out.clone()).or_default() += 1;
        }
        assert_eq!(seen.len(), 400);
        let e = draws as f64 / 400.0;
        let x2: f64 = seen.values().map(|&c| (c as f64 - e).powi(2) / e).sum();
        assert!(x2 < 399.0 + 4.75 * 798f64.sqrt(), "chi-square {x2:.1}");
    }

    #[test]
    fn a_device_deals_the_source_s_stream() {
        for stream in Stream::ALL {
            let src = DealSource::new(Deck::STANDARD, true)
                .unwrap()
                .with_stream(stream);
            let batch = src.device_deals(9, 40, 20, 3000).unwrap();
            assert!(
                matches!(batch.deals, DeviceDeals::Stream { stream: s, segment: 26, .. } if s == stream)
            );
        }
    }

    #[test]
    fn odd_decks_give_the_leader_the_extra_card() {
        let src = DealSource::new(Deck::parse("1J,1Q,1K,1A,5-").unwrap(), false).unwrap();
        assert_eq!(src.split(), 5);
        assert!(DealSource::new(Deck::parse("1J,1Q,2-").unwrap(), true).is_err());
        assert!(DealSource::new(Deck::parse("1J").unwrap(), false).is_err());
        assert!(DealSource::with_players(Deck::parse("2xstandard").unwrap(), 4, true).is_ok());
        assert!(DealSource::with_players(Deck::STANDARD, 3, true).is_err());
        assert!(DealSource::with_players(Deck::STANDARD, 11, false).is_err());
    }

    #[test]
    fn more_players_get_round_robin_sizes_and_balanced_shares() {
        let src = DealSource::with_players(Deck::STANDARD, 3, false).unwrap();
        let mut out = vec![0; 52];
        src.deal(5, 9, &mut out);
        let p = src.position(&out);
        let sizes: Vec<_> = p.stacks().iter().map(|s| s.len()).collect();
        assert_eq!(sizes, vec![18, 17, 17]);
        assert_eq!(p.deck(), Deck::STANDARD);
        let src = DealSource::with_players(Deck::STANDARD, 4, true).unwrap();
        src.deal(5, 9, &mut out);
        let p = src.position(&out);
        for stack in p.stacks() {
            assert_eq!(stack.iter().filter(|k| k.symbol() == 'A').count(), 1);
            assert_eq!(stack.len(), 13);
        }
    }
}
