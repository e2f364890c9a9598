//! bmn-deals: how deals are numbered and drawn, for every crate that needs either.
//!
//! - [`arrangements`]: the deals of a deck as multiset permutations in lexicographic order,
//!   counted, ranked, unranked and stepped (deal `k` of `bmn exhaustive`).
//! - [`stream`]: the seeded random stream, deal `k` of seed `s` a pure function of `(s, k)`
//!   (`bmn search`, `bmn stats`, `bmn deal`, sampled trees, drawn decks of pieces).
//!
//! No dependencies, no I/O: the kernels, the searches, backward play and the pieces all reach
//! these without going through one another.

#![forbid(unsafe_code)]

pub mod arrangements;
pub mod stream;

pub use arrangements::{Arrangements, SYMBOLS, next_arrangement};
pub use stream::{
    GAMMA, STANDARD_DECK, SplitMix64, Xoshiro256PlusPlus, deal_for, deal_range, deal_rng, shuffle,
};
