//! `Cards`: a deal as the climbers edit it: card codes, player 1's hand first, and the size of
//! each hand. Player 1 leads.

use bmn_core::{Kind, Player, Position};
use serde::{Deserialize, Serialize};

/// A deal: `codes` (0 plain, 1 J .. 5 joker) cut into hands of `sizes`, player 1 first.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Cards {
    pub codes: Vec<u8>,
    pub sizes: Vec<usize>,
}

impl Cards {
    /// The cards of a position (player 1 leading), or `None` if someone else leads.
    pub fn of(position: &Position) -> Option<Cards> {
        if position.leader() != Player(0) {
            return None;
        }
        Some(Cards {
            codes: position.codes(),
            sizes: position.stacks().iter().map(|s| s.len()).collect(),
        })
    }

    /// Where hand `p` starts in `codes`.
    pub fn start(&self, p: usize) -> usize {
        self.sizes[..p].iter().sum()
    }

    /// Hand `p`'s cards, top first.
    pub fn hand(&self, p: usize) -> &[u8] {
        let at = self.start(p);
        &self.codes[at..at + self.sizes[p]]
    }

    /// The deal as a position, player 1 leading.
    ///
    /// # Panics
    /// If a hand is empty or a code is not a card.
    pub fn position(&self) -> Position {
        Position::deal_from_codes(&self.codes, &self.sizes, Player(0))
            .expect("every hand holds a card")
    }

    /// The deal in bmn's notation.
    pub fn text(&self) -> String {
        (0..self.sizes.len())
            .map(|p| {
                self.hand(p)
                    .iter()
                    .map(|&c| Kind::from_code(c).symbol())
                    .collect::<String>()
            })
            .collect::<Vec<_>>()
            .join("/")
    }

    /// How many cards of each kind each hand holds.
    pub fn kinds(&self) -> Vec<[u32; 6]> {
        (0..self.sizes.len())
            .map(|p| {
                let mut k = [0; 6];
                for &c in self.hand(p) {
                    k[usize::from(c)] += 1;
                }
                k
            })
            .collect()
    }

    /// How far the hand sizes are from those round-robin dealing from player 1 gives (0 for a
    /// balanced deal: 26/26 for a standard deck).
    pub fn imbalance(&self) -> usize {
        let (n, players) = (self.codes.len(), self.sizes.len());
        let dealt = bmn_core::dealt_sizes(n, players, bmn_core::Player(0));
        self.sizes
            .iter()
            .zip(dealt)
            .map(|(&s, d)| s.abs_diff(d))
            .sum()
    }
}
