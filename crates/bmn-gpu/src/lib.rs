//! bmn-gpu: two-player games dealt and played on a GPU, exactly as bmn-kernel plays them.
//!
//! WGSL compute shaders (`shader/`) run on any adapter wgpu finds (Vulkan, Metal, DX12; Mesa's
//! lavapipe runs them on the CPU, which is how CI checks them). The event kernel
//! (`events.wgsl`) deals a dispatch's games in one pass (from the seeded stream, by unranking,
//! or stepping from starts the host unranked), plays them in a second, every lane advancing
//! its game by a penalty card a step (and the payoff after it, when it follows at once) in
//! lockstep and taking the next game when its own ends, and
//! records their results in a third. Decks
//! its encoding cannot hold (jokers, more than 16 penalty cards) go to the trick kernel
//! (`tricks.wgsl`, a game per lane, a trick a step). Finished games are added up on the device
//! ([`bmn_play::device::Digest`]) or returned one by one, and the caller hands capped games
//! to bmn-core's exact cycle detection, as with every kernel. Scope: at most 64 cards, the
//! standard penalties (J1 Q2 K3 A4, joker 5), two players.
//! Nothing here prints.

#![forbid(unsafe_code)]

mod adapters;
mod contract;
mod dispatch;
mod error;
mod gpu;
mod pool;

pub use adapters::{AdapterSummary, adapters};
pub use error::GpuError;
pub use gpu::{Gpu, LaneSteps, Tuning, open};

/// Games one dispatch plays at most; a larger batch is played in several. On a GPU the event
/// kernel's lanes idle only at the end of a dispatch, while the last long games finish: by
/// issue 48's model of 270k lanes, the useful share of lane time is 0.62 at 2^22 games a
/// dispatch and 0.87 at 2^24 (a few tens of milliseconds; 384 MiB of dealt games).
pub const MAX_BATCH: usize = 1 << 24;

/// Games a CPU adapter (lavapipe) is given at once: under a second of its play on 2 cores
/// (about 6x10^5 games/s), so that a run's progress moves and a stop lands within a second.
pub const CPU_BATCH: usize = 1 << 19;
