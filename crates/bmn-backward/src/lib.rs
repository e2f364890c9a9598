//! bmn-backward: backward play for Beggar-My-Neighbour (docs/rules.md, Backward play), no I/O.
//!
//! The game is a function from position to position, one trick at a time; this crate inverts
//! it. Everything rests on [`predecessors`]: every position exactly one trick before a given
//! one, generated from the turn rules and then each checked by playing it forward with
//! `bmn_core::play_trick` (generate and test), for any number of players, any penalty table
//! (0-penalty cards included) and both running-out rules.
//!
//! On top of it:
//! - [`basin`]: every position whose play reaches the same cycle as a given position (its
//!   rotations included: docs/rules.md counts renamed players as the same cycle), or the same
//!   final position; the balanced starting deals in it with their game lengths. This is how
//!   Casella et al. (arXiv 2403.13855, 2024) found balanced deals for their cycle.
//! - [`trees`]: Paulhus's (1999) statistic, the mean size of the tree of positions ending in
//!   a random final position, which would equal [`no_cycle_mean`] if nothing cycled.
//! - [`extend`]: balanced deals that run into a finishing game from before its start and last
//!   longer (applied to the record games).
//! - [`graph`]: a set of positions under one trick, marked, as a value or as Graphviz DOT.
//!
//! Searches keep visited positions as [`PackedPosition`]s (24 bytes) in a hash set, stop at
//! a limit on positions and say so ([`Basin::complete`], [`Extension::complete`]). Results
//! depend only on their inputs: no clocks, no threads, no hash-map order in anything
//! returned. Balanced deals ([`is_balanced`]) are the hands dealing round-robin from the
//! leader gives: equal stacks, or for `n = q * k + r` cards, `q + 1` cards for the `r`
//! players from the leader on.

#![forbid(unsafe_code)]

mod basin;
mod bfs;
mod error;
mod extend;
pub mod graph;
mod packed;
mod predecessors;
mod trees;

pub use basin::{
    BalancedCounts, BalancedDeal, Basin, BasinConfig, BasinTarget, basin, is_balanced, rank_of,
    rotations,
};
pub use error::BackwardError;
pub use extend::{ExtendConfig, ExtendedDeal, Extension, extend};
pub use packed::{BuildPassThrough, PackedPosition, PackedSet, PassThrough};
pub use predecessors::{for_each_predecessor, predecessors};
pub use trees::{
    MAX_ALL_FINALS, Trees, TreesConfig, arrangements, final_position, no_cycle_mean, tree_size,
    trees, trees_all,
};
