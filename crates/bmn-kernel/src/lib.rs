//! Fast exact two-player Beggar-My-Neighbour kernels and a reproducible uniform dealer.
//!
//! - [`play`]: scalar trick-level kernel (portable, safe): one game, resolved per penalty
//!   card on bit-plane stacks (`hand.rs`, `scalar.rs`).
//! - [`play_many`] with a [`Kernel`]: many games from a flat buffer of deals, on exactly the
//!   kernel given: one game at a time, lanes in lockstep (`lockstep.rs`) or streams of
//!   lanes in AVX2 or AVX-512 (`queue/`). [`Choice::kernel`] (`choose.rs`) is the one table
//!   that picks it from the request, the deals' [`Shape`] and the CPU.
//! - Deals of at most 21 penalty cards (every standard deal) run on a two-word stack
//!   encoding, a penalty mask with an end-of-stack sentinel and a queue of penalty codes
//!   (`queue.rs`); larger ones fall back to the three bit planes of `hand.rs`.
//! - [`dealer`]: a specified PRNG stream and exact Fisher-Yates, deal `k` = f(seed, k).
//! - [`cardwise`]: a plain card-by-card loop, the speed baseline.
//! - [`SimdLimit`]: `BMN_SIMD` hides instruction sets from the choice of kernel and dealer.
//!
//! Scope: two players, at most 64 cards, codes 0 plain, 1 J, 2 Q, 3 K, 4 A, 5 joker. The
//! library does no I/O and never allocates per game.

pub mod cardwise;
mod choose;
pub mod dealer;
#[cfg(target_arch = "x86_64")]
mod dealer_simd;
mod hand;
mod kernel;
mod lockstep;
mod marked;
mod queue;
mod scalar;
mod simd;

pub use choose::{Choice, KernelFamily};
pub use hand::{MAX_CARDS, MAX_CODE};
pub use kernel::{Kernel, KernelBuffers, Shape, play_many};
pub use marked::Marked;
pub use scalar::{CodedPosition, play, play_to_position};
pub use simd::SimdLimit;

/// Default trick cap for searches: the longest known finite game has 1164 tricks, so a game
/// still running after this many is handed to exact cycle detection.
pub const DEFAULT_MAX_TRICKS: u32 = 3000;

/// Result of one game in the kernel.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Played {
    /// The game ended: `winner` holds every card.
    Finished {
        /// The winner's 0-based seat: 0 is player 1, 1 is player 2 (the JSON's `winner`
        /// counts from 1).
        winner: u8,
        /// Cards laid on the pile during the whole game.
        cards: u32,
        /// Pile takings, the final one included.
        tricks: u32,
    },
    /// The game had not ended after `tricks` (= the cap) tricks.
    Capped {
        /// Cards laid so far.
        cards: u32,
        /// Tricks played so far (the cap).
        tricks: u32,
    },
}

impl Played {
    /// Cards laid.
    pub fn cards(&self) -> u32 {
        match *self {
            Played::Finished { cards, .. } | Played::Capped { cards, .. } => cards,
        }
    }

    /// Tricks played.
    pub fn tricks(&self) -> u32 {
        match *self {
            Played::Finished { tricks, .. } | Played::Capped { tricks, .. } => tricks,
        }
    }
}

impl Default for Played {
    fn default() -> Self {
        Played::Capped {
            cards: 0,
            tricks: 0,
        }
    }
}
