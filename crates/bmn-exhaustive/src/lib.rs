//! bmn-exhaustive: every deal of a deck, played exactly (Paulhus 1999, Tables 1 and 2).
//!
//! Deals are numbered by the lexicographic rank of their arrangement (`bmn_deals::arrangements`), so any
//! range of indices is a unit of work (a `bmn_run::Shard` of them); `AllDeals` hands them to the search's
//! batch loop (`bmn_play::play_deals`), whose fast kernels and exact cycle hand-over are
//! the same as a random search's. Nothing here prints.

#![forbid(unsafe_code)]

pub mod count;
pub mod deals;
pub mod error;
pub mod run;

pub use count::DealCount;
pub use deals::AllDeals;
pub use error::ExhaustiveError;
pub use run::{DEALS_PER_UNIT, Enumeration, MAX_TRICKS, units_for};
