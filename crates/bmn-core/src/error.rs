//! Typed errors of bmn-core: every one names what is wrong and where, on one line (what the
//! user typed is quoted with its control characters escaped).

use thiserror::Error;

/// Why a stack, deal or position did not parse. Positions are 1-based character positions in
/// the whole text given, so a person can count to the culprit.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ParseError {
    #[error("the deal is empty: write the hands as H1/H2, e.g. --K---A--/J--Q-")]
    Empty,
    #[error(
        "unexpected character '{}' at position {at} (hand {hand}): expected - J Q K A X, \
         Paulhus digits 0-5, or real cards such as 9C 10h Q♠",
        .found.escape_debug()
    )]
    UnexpectedChar { found: char, at: usize, hand: usize },
    #[error(
        "'{0}' at position {at} (hand {hand}) has no suit: in a hand written with real cards \
         (suits present) ranks need a suit, e.g. {0}C; Paulhus digits cannot be mixed with them",
        .found.escape_debug()
    )]
    MissingSuit {
        found: String,
        at: usize,
        hand: usize,
    },
    #[error(
        "unexpected suit '{}' at position {at} (hand {hand}): a suit must follow a rank",
        .found.escape_debug()
    )]
    StraySuit { found: char, at: usize, hand: usize },
    #[error("a deal needs at least 2 hands separated by '/', found {found}")]
    TooFewHands { found: usize },
    #[error("a deal has at most {max} hands, found {found}", max = crate::MAX_PLAYERS)]
    TooManyHands { found: usize },
}

/// Why a set of hands is not a position that can be played.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum PositionError {
    #[error("a position needs 2 to {max} players, found {found}", max = crate::MAX_PLAYERS)]
    PlayerCount { found: usize },
    #[error("leader {leader} is out of range: the deal has {players} players (1 to {players})")]
    LeaderOutOfRange { leader: usize, players: usize },
    #[error("hand {hand} is empty: every player must start with at least one card")]
    EmptyHand { hand: usize },
    #[error("the cards do not match deck {deck}: {detail}")]
    DeckMismatch { deck: String, detail: String },
}

/// Why a penalty table such as `J1,Q2,K3,A4` did not parse.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum PenaltyError {
    #[error("empty item in penalty table '{}': write it like J1,Q2,K3,A4", .0.escape_debug())]
    Empty(String),
    #[error(
        "'{}': '{}' is not a face card (expected J, Q, K, A or X)",
        .item.escape_debug(),
        .found.escape_debug()
    )]
    UnknownKind { item: String, found: char },
    #[error(
        "'{}': the value must be a number from 0 to 99, or - for a plain card",
        .item.escape_debug()
    )]
    BadValue { item: String },
    #[error("{} is given twice in the penalty table", .0.escape_debug())]
    Repeated(char),
}

/// Why a deck spec such as `2J,2Q,2K,2A,16-` did not parse.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum DeckError {
    #[error("the deck is empty")]
    Empty,
    #[error(
        "'{}' is not a deck term: use standard, camicia, jokers, 2xstandard, or a list such as 2J,2Q,2K,2A,16-",
        .0.escape_debug()
    )]
    BadTerm(String),
    #[error("the deck has {cards} cards: at most {max}")]
    TooBig { cards: u64, max: u32 },
}
