//! `AllDeals`: every deal of a deck, numbered by the lexicographic rank of its arrangement.
//!
//! The deal definition is Paulhus's (1999): each distinct arrangement of the
//! deck's multiset of kinds, top card first; the first half is player 1's stack, the rest
//! player 2's. With an odd number of cards the leader gets the extra card, as when dealing
//! round-robin from the leader; so with player 2 leading, player 1's half is the shorter.

use bmn_core::{Deck, Kind, Player, Position};
use bmn_play::device::{DeviceBatch, DeviceDeals, MAX_RANKED, PER_START};
use bmn_play::{DealIndex, Deals, two_hand_text};

use crate::error::ExhaustiveError;
use bmn_deals::{Arrangements, MAX_MARKED, marked_of, next_arrangement, next_marked};
use bmn_kernel::Marked;

/// The deals of one deck with one seat leading.
#[derive(Clone, Debug)]
pub struct AllDeals {
    deck: Deck,
    arrangements: Arrangements,
    leader: Player,
    /// Cards of player 1.
    first_hand: usize,
    /// Deals in all.
    count: DealIndex,
}

impl AllDeals {
    /// Every deal of `deck` with `leader` (player 1 or 2) leading.
    pub fn new(deck: Deck, leader: Player) -> Result<AllDeals, ExhaustiveError> {
        let len = deck.len() as usize;
        if !(2..=bmn_kernel::MAX_CARDS).contains(&len) {
            return Err(ExhaustiveError::DeckSize {
                deck: deck.to_string(),
                cards: len,
            });
        }
        if leader.index() > 1 {
            return Err(ExhaustiveError::Leader(leader.number()));
        }
        let arrangements = Arrangements::new(deck.counts()).ok_or(ExhaustiveError::TooMany {
            deck: deck.to_string(),
            deals: None,
        })?;
        let count = arrangements.count();
        let first_hand = if leader == Player(0) {
            len.div_ceil(2)
        } else {
            len / 2
        };
        Ok(AllDeals {
            deck,
            arrangements,
            leader,
            first_hand,
            count,
        })
    }

    pub fn deck(&self) -> &Deck {
        &self.deck
    }

    /// Who leads every deal.
    pub fn leader(&self) -> Player {
        self.leader
    }

    /// How many deals there are.
    pub fn count(&self) -> DealIndex {
        self.count
    }

    /// Deal `index` as a position (player 1's half first).
    pub fn deal(&self, index: DealIndex) -> Position {
        let mut codes = vec![0u8; self.deal_len()];
        self.fill(index, &mut codes);
        self.position(&codes)
    }

    /// An arrangement's marked form in the kernels' order, the leader's hand first: with
    /// player 2 leading, its cards (the arrangement's second part) move to the front.
    #[inline]
    fn leader_first(&self, mask: u64, codes: u64) -> (u64, u64) {
        if self.leader == Player(0) {
            return (mask, codes);
        }
        let (len, first) = (self.deal_len() as u32, self.first_hand as u32);
        let mine = mask & ((1 << first) - 1);
        let k = 3 * mine.count_ones();
        let theirs = 3 * (mask >> first).count_ones();
        (
            (mask >> first) | mine << (len - first),
            (codes >> k) | (codes & ((1 << k) - 1)) << theirs,
        )
    }

    /// The index of `position` among these deals, if it is one of them.
    pub fn index_of(&self, position: &Position) -> Option<DealIndex> {
        if position.players() != 2
            || position.leader() != self.leader
            || position.stack(Player(0)).len() != self.first_hand
        {
            return None;
        }
        self.arrangements.rank(&position.codes())
    }
}

impl Deals for AllDeals {
    fn deal_len(&self) -> usize {
        self.arrangements.len()
    }

    fn split(&self) -> usize {
        if self.leader == Player(0) {
            self.first_hand
        } else {
            self.deal_len() - self.first_hand
        }
    }

    fn fill(&self, first: DealIndex, out: &mut [u8]) {
        let len = self.deal_len();
        let mut buffer = [0u8; bmn_kernel::MAX_CARDS];
        let arrangement = &mut buffer[..len];
        self.arrangements.unrank(first, arrangement);
        for deal in out.chunks_exact_mut(len) {
            if self.leader == Player(0) {
                copy_short(deal, arrangement);
            } else {
                // The kernel wants the leader's hand first: player 2's half, then player 1's.
                let (p1, p2) = arrangement.split_at(self.first_hand);
                deal[..p2.len()].copy_from_slice(p2);
                deal[p2.len()..].copy_from_slice(p1);
            }
            next_arrangement(arrangement);
        }
    }

    /// Stepped in the marked form itself ([`next_marked`]): nothing laid out card by card.
    fn fill_marked(&self, first: DealIndex, out: &mut Marked) -> bool {
        let len = self.deal_len();
        let marked = len - self.deck.counts()[0] as usize;
        if marked > MAX_MARKED {
            return false;
        }
        let mut buffer = [0u8; bmn_kernel::MAX_CARDS];
        self.arrangements.unrank(first, &mut buffer[..len]);
        let (mut mask, mut codes) = marked_of(&buffer[..len], 0);
        let (masks, words) = out.parts_mut();
        for (m, c) in masks.iter_mut().zip(words) {
            (*m, *c) = self.leader_first(mask, codes);
            next_marked(&mut mask, &mut codes, len, marked as u32);
        }
        true
    }

    fn position(&self, codes: &[u8]) -> Position {
        let hand = |h: &[u8]| -> Vec<Kind> { h.iter().map(|&c| Kind::from_code(c)).collect() };
        let (lead, other) = codes.split_at(self.split());
        let hands = if self.leader == Player(0) {
            vec![hand(lead), hand(other)]
        } else {
            vec![hand(other), hand(lead)]
        };
        Position::new_deal(hands, self.leader).expect("a deal of the deck")
    }

    fn leader(&self) -> Player {
        self.leader
    }

    /// The ranks themselves where the device can unrank them (decks of at most
    /// [`MAX_RANKED`] deals), else runs of [`PER_START`] arrangements, each from its first one
    /// unranked here; the device plays them with player 1's part first and the true leader,
    /// as `fill` does in the kernels' layout.
    fn device_deals(&self, first: DealIndex, count: usize, cap: u32) -> Option<DeviceBatch<'_>> {
        let len = self.deal_len();
        let deals = if self.count <= MAX_RANKED {
            DeviceDeals::Ranks {
                first: first as u64,
                counts: self.deck.counts(),
            }
        } else {
            let runs = count.div_ceil(PER_START);
            let mut starts = vec![0u8; runs * len];
            for (r, start) in starts.chunks_exact_mut(len).enumerate() {
                self.arrangements
                    .unrank(first + (r * PER_START) as DealIndex, start);
            }
            DeviceDeals::Arrangements {
                starts,
                per_start: PER_START,
            }
        };
        Some(DeviceBatch {
            deals,
            count,
            len,
            first_hand: self.first_hand,
            leader: self.leader.index() as u8,
            max_tricks: cap,
        })
    }

    fn deal_text(&self, codes: &[u8]) -> String {
        if self.leader == Player(0) {
            two_hand_text(codes, self.first_hand)
        } else {
            self.position(codes).deal_text()
        }
    }
}

/// `src` into `dst` (same length, at most 64) in 8-byte words, the last one overlapping:
/// a plain `copy_from_slice` of a run-time length calls libc's `memcpy`, which was 6% of an
/// enumeration's instructions for 24-card deals.
#[inline(always)]
fn copy_short(dst: &mut [u8], src: &[u8]) {
    let n = src.len();
    if n < 8 {
        dst.copy_from_slice(src);
        return;
    }
    let mut i = 0;
    while i + 8 <= n {
        dst[i..i + 8].copy_from_slice(&src[i..i + 8]);
        i += 8;
    }
    if i < n {
        dst[n - 8..].copy_from_slice(&src[n - 8..]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn deals_are_numbered_in_order_and_found_again() {
        for leader in [Player(0), Player(1)] {
            let all = AllDeals::new(Deck::parse("1J,1Q,3-").unwrap(), leader).unwrap();
            assert_eq!(all.count(), 20);
            let mut codes = vec![0u8; 20 * 5];
            all.fill(0, &mut codes);
            let texts: Vec<String> = codes
                .chunks_exact(5)
                .enumerate()
                .map(|(i, c)| {
                    let p = all.position(c);
                    assert_eq!(p, all.deal(i as u128));
                    assert_eq!(all.index_of(&p), Some(i as u128));
                    p.deal_text()
                })
                .collect();
            let first_hand = if leader == Player(0) { 3 } else { 2 };
            let want = if leader == Player(0) {
                ["---/JQ", "---/QJ", "--J/-Q"]
            } else {
                ["--/-JQ", "--/-QJ", "--/J-Q"]
            };
            assert_eq!(&texts[..3], want);
            assert!(texts.iter().all(|t| t.find('/') == Some(first_hand)));
            let mut sorted = texts.clone();
            sorted.sort();
            sorted.dedup();
            assert_eq!(sorted.len(), 20, "all distinct");
        }
    }

    #[test]
    fn the_standard_deck_is_numbered_past_u64() {
        let all = AllDeals::new(Deck::STANDARD, Player(0)).unwrap();
        assert_eq!(all.count(), 653_534_134_886_878_245_000);
        let last = all.deal(all.count() - 1);
        assert_eq!(all.index_of(&last), Some(all.count() - 1));
        assert!(AllDeals::new(Deck::parse("1-").unwrap(), Player(0)).is_err());
    }
}
