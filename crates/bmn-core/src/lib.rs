//! bmn-core: Beggar-My-Neighbour's rules, notation, reference engine and exact cycle detection.
//!
//! The contract is `docs/rules.md`. This crate does no I/O: callers parse text into a
//! [`Position`], play it with [`Game`] or [`play_out`], and print what they get back.

#![forbid(unsafe_code)]

pub mod cycle;
pub mod dealing;
pub mod deck;
pub mod engine;
pub mod error;
pub mod kind;
pub mod notation;
pub mod penalty;
pub mod player;
pub mod position;
pub mod rules;
pub mod text;
pub mod walk;

pub use cycle::{
    Cycle, CycleId, Outcome, Span, Stopped, WATCH_EVERY, canonical, fnv1a64, play_out,
    play_out_watched, play_out_within,
};
pub use dealing::{dealt_sizes, has_dealt_sizes};
pub use deck::Deck;
pub use engine::{CardLaid, Game, Trick, play_trick, play_trick_observed};
pub use error::{DeckError, ParseError, PenaltyError, PositionError};
pub use kind::Kind;
pub use penalty::PenaltyTable;
pub use player::{MAX_PLAYERS, Player};
pub use position::{DealError, Position, Stack};
pub use rules::{OnEmpty, Rules};
pub use text::as_text;
pub use walk::{cycle_positions, stack_sizes, trace};
