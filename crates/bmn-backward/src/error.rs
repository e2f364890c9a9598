//! Typed errors of bmn-backward: each names what is wrong with the input.

use bmn_core::CycleId;
use thiserror::Error;

/// Why a backward search cannot run on its input.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum BackwardError {
    #[error(
        "positions of {cards} cards and {players} players are too large for the backward search \
         (cards plus players must be at most {max})"
    )]
    TooLarge {
        cards: usize,
        players: usize,
        max: usize,
    },
    #[error("the game never ends (it reaches cycle {id}): extending needs a game that finishes")]
    NotFinishing { id: CycleId },
    #[error("sampling final positions needs 2 to {max} players, got {found}", max = bmn_core::MAX_PLAYERS)]
    PlayerCount { found: usize },
    #[error("the deck is empty")]
    EmptyDeck,
    #[error(
        "the deck has more than {max} arrangements: too many final positions to measure them all; sample them instead"
    )]
    TooManyFinals { max: u128 },
}
