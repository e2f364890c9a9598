//! bmn-pieces: Casella's Ansatz as a tool (docs/rules.md, "Casella's Ansatz"), no I/O.
//!
//! Casella et al., "A Non-Terminating Game of Beggar-My-Neighbor" (arXiv 2403.13855, 2024;
//! Amer. Math. Monthly 2025) built the first non-terminating game from *pieces*: strings of
//! non-jack cards that, each followed by a jack in player 1's stack against player 2's
//! `J -`, are played one at a time and come back as pieces of the same cards. This crate:
//! - [`turn`] / [`orbit`]: the fast path, one pass of a piece card by card;
//! - [`search`]: candidates in increasing size (or arrangements of given faces), kept when
//!   the spec's test template never ends on the reference engine, grouped up to passes;
//! - [`build_pool`] + [`construct`]: standard decks `Δ1 J Δ2 J Δ3 J - / J -` drawn from the
//!   pieces by a seeded PRNG, played exactly, and every cycle reached searched backward
//!   (bmn_backward::basin) for balanced 26/26 starting deals.
//!
//! Nothing here prints or reads files; results depend only on the inputs (and seed), never
//! on the thread count.

#![forbid(unsafe_code)]

mod construct;
mod enumerate;
mod error;
mod pass;
mod piece;
mod pool;
mod search;
mod stack;
mod template;

pub use construct::{ConstructConfig, Construction, EndlessGame, ReachedCycle, construct};
pub use error::PiecesError;
pub use pass::{high_water, orbit, turn};
pub use piece::{Composition, PIECE_KINDS, Piece};
pub use pool::{PoolConfig, build_pool, pair_completions};
pub use search::{FoundPiece, PieceSearchConfig, PieceSearchResult, TemplateCycle, search};
pub use template::{
    DEFAULT_FILTER, DEFAULT_GIVE_UP, check_filter, jack_position, play, template,
    template_completion, template_completion_of, template_pieces,
};
