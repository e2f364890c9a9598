//! Why an enumeration cannot run, or a saved one cannot be used.

/// Errors of `bmn-exhaustive`, each naming what is wrong.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ExhaustiveError {
    #[error("deck {deck} has {cards} cards; exhaustive enumeration plays 2 to 64")]
    DeckSize { deck: String, cards: usize },
    #[error("leader {0} is out of range: the deals have 2 players (1 to 2)")]
    Leader(usize),
    #[error(
        "deck {deck} has {} deals: too many to number in 64 bits (at most 18446744073709551615); exhaustive enumeration is for reduced decks",
        deals.map_or("more than 2^128".to_string(), |d| d.to_string())
    )]
    TooMany { deck: String, deals: Option<u128> },
}
