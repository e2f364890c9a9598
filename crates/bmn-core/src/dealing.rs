//! How dealing splits a deck: round-robin from the leader, so with `n = q * players + r` cards
//! the leader and the `r - 1` seats after it hold `q + 1` cards and the others `q`
//! (docs/rules.md, Deals). The one place that says so; a "balanced" deal has these sizes.

use crate::{Player, Position};

/// The hand sizes dealing `cards` cards round-robin among `players` from `leader` gives, seat
/// by seat (seat 0 first).
pub fn dealt_sizes(cards: usize, players: usize, leader: Player) -> Vec<usize> {
    let (q, r) = (cards / players, cards % players);
    (0..players)
        .map(|seat| q + usize::from((seat + players - leader.index()) % players < r))
        .collect()
}

/// Whether every hand of `position` has the size dealing its cards from its leader gives.
pub fn has_dealt_sizes(position: &Position) -> bool {
    let want = dealt_sizes(position.card_count(), position.players(), position.leader());
    position
        .stacks()
        .iter()
        .zip(want)
        .all(|(stack, n)| stack.len() == n)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_leader_and_the_seats_after_it_get_the_odd_cards() {
        assert_eq!(dealt_sizes(52, 2, Player(0)), [26, 26]);
        assert_eq!(dealt_sizes(10, 3, Player(0)), [4, 3, 3]);
        assert_eq!(dealt_sizes(10, 3, Player(2)), [3, 3, 4]);
        assert_eq!(dealt_sizes(11, 3, Player(2)), [4, 3, 4]);
        let p = Position::parse("--J/-Q-/K", Player(0)).unwrap();
        assert!(!has_dealt_sizes(&p));
        let p = Position::parse("--J/-Q/K-", Player(0)).unwrap();
        assert!(has_dealt_sizes(&p));
        let p = Position::parse("--J/-Q/K-", Player(1)).unwrap();
        assert!(!has_dealt_sizes(&p));
    }
}
