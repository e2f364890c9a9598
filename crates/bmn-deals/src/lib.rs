//! bmn-deals: how deals are numbered and drawn, for every crate that needs either.
//!
//! - [`arrangements`]: the deals of a deck as multiset permutations in lexicographic order,
//!   counted, ranked, unranked and stepped (deal `k` of `bmn exhaustive`).
//! - [`marked`]: the same order stepped in the streaming kernels' form (a mask of the marked
//!   cards' places and their codes), with no deal laid out.
//! - [`rank`]: the same numbering in arbitrary precision, for decks past `u128` (and the
//!   standard deck's 2^69 deals, past `u64`).
//! - [`stream`]: the seeded random stream, deal `k` of seed `s` a pure function of `(s, k)`
//!   (`bmn search`, `bmn stats`, `bmn deal`, sampled trees, drawn decks of pieces): stream 1,
//!   a shuffle of the deck.
//! - [`sampler`]: stream 2, which draws where the marked cards lie and their
//!   order, not a shuffle; [`version`] names the two.
//!
//! No I/O, and no dependency but num-bigint: the kernels, the searches, backward play and the pieces all reach
//! these without going through one another.

#![forbid(unsafe_code)]

pub mod arrangements;
pub mod marked;
pub mod rank;
pub mod sampler;
pub mod stream;
pub mod version;

pub use arrangements::{Arrangements, SYMBOLS, next_arrangement};
pub use marked::{MAX_MARKED, marked_of, next_marked};
pub use num_bigint::BigUint;
pub use sampler::Sampler;
pub use stream::{
    GAMMA, STANDARD_DECK, SplitMix64, Xoshiro256PlusPlus, deal_for, deal_range, deal_rng, shuffle,
};
pub use version::Stream;
