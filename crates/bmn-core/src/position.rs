//! `Position`: every player's stack at a trick boundary plus who leads (docs/rules.md, Positions and cycles).

use std::cmp::Ordering;
use std::collections::VecDeque;
use std::fmt;

use crate::deck::Deck;
use crate::error::{ParseError, PositionError};
use crate::kind::Kind;
use crate::notation;
use crate::player::{MAX_PLAYERS, Player};

/// A stack, top card at the front.
pub type Stack = VecDeque<Kind>;

/// The state of a game between tricks: the table is empty. The game is a function from
/// position to position, one trick at a time.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    stacks: Vec<Stack>,
    leader: Player,
}

impl Position {
    /// A position with 2..=10 players and a leader among them. Empty stacks are allowed here
    /// (players who are out, or a finished game); `new_deal` is the stricter door for start deals.
    pub fn new(hands: Vec<Vec<Kind>>, leader: Player) -> Result<Position, PositionError> {
        let players = hands.len();
        if !(2..=MAX_PLAYERS).contains(&players) {
            return Err(PositionError::PlayerCount { found: players });
        }
        if leader.index() >= players {
            return Err(PositionError::LeaderOutOfRange {
                leader: leader.number(),
                players,
            });
        }
        Ok(Position {
            stacks: hands.into_iter().map(VecDeque::from).collect(),
            leader,
        })
    }

    /// A starting deal: like `new`, and every hand holds at least one card.
    pub fn new_deal(hands: Vec<Vec<Kind>>, leader: Player) -> Result<Position, PositionError> {
        if let Some(i) = hands.iter().position(Vec::is_empty) {
            return Err(PositionError::EmptyHand { hand: i + 1 });
        }
        Position::new(hands, leader)
    }

    /// A starting deal from card codes ([`Position::codes`]), cut into hands of `sizes` cards,
    /// seat 0's first: the inverse of `codes`.
    ///
    /// # Panics
    /// If the sizes do not add up to the codes, or a code is not a card.
    pub fn deal_from_codes(
        codes: &[u8],
        sizes: &[usize],
        leader: Player,
    ) -> Result<Position, PositionError> {
        assert_eq!(
            sizes.iter().sum::<usize>(),
            codes.len(),
            "sizes cut the codes"
        );
        let mut rest = codes;
        let hands = sizes
            .iter()
            .map(|&n| {
                let (hand, tail) = rest.split_at(n);
                rest = tail;
                hand.iter().map(|&c| Kind::from_code(c)).collect()
            })
            .collect();
        Position::new_deal(hands, leader)
    }

    /// Parses deal notation and validates it as a starting deal (no empty hand).
    pub fn parse_deal(text: &str, leader: Player) -> Result<Position, DealError> {
        let hands = notation::parse_deal(text)?;
        Ok(Position::new_deal(hands, leader)?)
    }

    /// Parses deal notation as a position (empty hands allowed).
    pub fn parse(text: &str, leader: Player) -> Result<Position, DealError> {
        let hands = notation::parse_deal(text)?;
        Ok(Position::new(hands, leader)?)
    }

    pub fn players(&self) -> usize {
        self.stacks.len()
    }

    pub fn leader(&self) -> Player {
        self.leader
    }

    pub fn stack(&self, player: Player) -> &Stack {
        &self.stacks[player.index()]
    }

    pub fn stacks(&self) -> &[Stack] {
        &self.stacks
    }

    /// Mutable access for the engine in this crate; keeps the public type's invariants
    /// (player count, leader in range) out of reach of callers.
    pub(crate) fn parts_mut(&mut self) -> (&mut [Stack], &mut Player) {
        (&mut self.stacks, &mut self.leader)
    }

    /// Every card as its kind's index (0 plain, 1 J .. 5 joker: the kernels' codes and the
    /// alphabet of ranks), seat after seat, each stack top first.
    pub fn codes(&self) -> Vec<u8> {
        self.stacks
            .iter()
            .flatten()
            .map(|k| k.index() as u8)
            .collect()
    }

    /// Total cards held.
    pub fn card_count(&self) -> usize {
        self.stacks.iter().map(VecDeque::len).sum()
    }

    /// The deck these stacks hold between them.
    pub fn deck(&self) -> Deck {
        Deck::of_cards(self.stacks.iter().flatten())
    }

    /// The one player who holds every card, if the game is over.
    pub fn winner(&self) -> Option<Player> {
        let mut holders = self
            .stacks
            .iter()
            .enumerate()
            .filter(|(_, s)| !s.is_empty());
        match (holders.next(), holders.next()) {
            (Some((i, _)), None) => Some(Player(i)),
            (None, None) => Some(self.leader), // no cards at all: nothing left to play
            _ => None,
        }
    }

    /// Checks that the stacks hold exactly `deck`, naming each kind whose count is off.
    pub fn check_deck(&self, deck: &Deck) -> Result<(), PositionError> {
        let have = self.deck();
        if have == *deck {
            return Ok(());
        }
        let detail: Vec<String> = Kind::ALL
            .into_iter()
            .filter(|&k| have.count(k) != deck.count(k))
            .map(|k| {
                format!(
                    "{} {} (deck has {})",
                    have.count(k),
                    k.symbol(),
                    deck.count(k)
                )
            })
            .collect();
        Err(PositionError::DeckMismatch {
            deck: deck.to_string(),
            detail: format!("the hands hold {}", detail.join(", ")),
        })
    }

    /// Deal notation of the stacks, `H1/H2/...` (the leader is not part of it).
    pub fn deal_text(&self) -> String {
        notation::format_deal(&self.stacks)
    }

    /// The same position with seats renamed so that the leader sits first (a rotation keeps the
    /// order of play, so the game is the same one).
    pub fn rotated_to_leader(&self) -> Position {
        self.seats_rotated(self.leader.index())
    }

    /// The same position with every seat renamed `by` places back: seat `by` becomes player
    /// 1, and the leader moves with its cards. With two players and `by = 1`, the hands swapped.
    pub fn seats_rotated(&self, by: usize) -> Position {
        let n = self.stacks.len();
        let mut stacks = self.stacks.clone();
        stacks.rotate_left(by % n);
        Position {
            stacks,
            leader: Player((self.leader.index() + n - by % n) % n),
        }
    }

    /// bmn's fixed order on positions with the same number of players: stack lengths first
    /// (player 1's, then 2's, ...), then the cards by kind index, player 1's stack first, then
    /// the leader. Kernels can compute it without building text.
    pub fn canonical_cmp(&self, other: &Position) -> Ordering {
        let lengths = |p: &Position| p.stacks.iter().map(VecDeque::len).collect::<Vec<_>>();
        lengths(self)
            .cmp(&lengths(other))
            .then_with(|| {
                self.stacks
                    .iter()
                    .flatten()
                    .cmp(other.stacks.iter().flatten())
            })
            .then_with(|| self.leader.cmp(&other.leader))
    }
}

/// `{"deal": "...", "leader": L}`: the deal notation and the leader, 1-based (the form of
/// every report's positions).
impl serde::Serialize for Position {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        crate::serialize_fields!(serializer, "Position", {
            "deal" => self.deal_text(),
            "leader" => self.leader,
        })
    }
}

impl fmt::Display for Position {
    /// `H1/H2 (leader N)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} (leader {})", self.deal_text(), self.leader)
    }
}

/// A deal that failed to parse or to validate.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DealError {
    #[error(transparent)]
    Parse(#[from] ParseError),
    #[error(transparent)]
    Position(#[from] PositionError),
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pos(text: &str, leader: usize) -> Position {
        Position::parse(text, Player(leader)).unwrap()
    }

    #[test]
    fn validation() {
        let err = |t: &str, l: usize| Position::parse_deal(t, Player(l)).unwrap_err().to_string();
        assert!(err("--/J-", 2).contains("leader 3 is out of range"));
        assert!(err("--//J-", 0).contains("hand 2 is empty"));
        assert!(Position::parse("--/", Player(0)).is_ok());
    }

    #[test]
    fn seats_rotated_renames_hands_and_leader_together() {
        let p = pos("QK-/J-/A", 0);
        let r = p.seats_rotated(1);
        assert_eq!(r.deal_text(), "J-/A/QK-");
        assert_eq!(r.leader(), Player(2));
        assert_eq!(p.seats_rotated(3), p);
        assert_eq!(pos("Q-/J", 1).seats_rotated(1), pos("J/Q-", 0));
        assert_eq!(p.rotated_to_leader(), p);
    }

    #[test]
    fn deck_check_names_counts() {
        let p = pos("JJJJJ-/QQQQKKKKAAAA", 0);
        let err = p.check_deck(&Deck::STANDARD).unwrap_err().to_string();
        assert!(err.contains("1 - (deck has 36)"), "{err}");
        assert!(err.contains("5 J (deck has 4)"), "{err}");
    }

    #[test]
    fn rotation_and_order() {
        let p = pos("J-/-Q/K", 1);
        assert_eq!(p.rotated_to_leader().to_string(), "-Q/K/J- (leader 1)");
        assert_eq!(
            pos("-/--", 0).canonical_cmp(&pos("--/-", 0)),
            Ordering::Less
        );
        assert_eq!(
            pos("-J/-", 0).canonical_cmp(&pos("J-/-", 0)),
            Ordering::Less
        );
        assert_eq!(pos("J/-", 0).canonical_cmp(&pos("J/-", 1)), Ordering::Less);
    }

    #[test]
    fn winner() {
        assert_eq!(pos("--/", 0).winner(), Some(Player(0)));
        assert_eq!(pos("/--/", 0).winner(), Some(Player(1)));
        assert_eq!(pos("-/-", 0).winner(), None);
    }
}
