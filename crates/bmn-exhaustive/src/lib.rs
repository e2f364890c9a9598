//! bmn-exhaustive: every deal of a deck, played exactly (Paulhus 1999, Tables 1 and 2).

pub mod multiset;
pub mod shard;

pub use multiset::{Arrangements, next_arrangement};
pub use shard::{Shard, ShardError};
