//! bmn-play: numbered deals played exactly, whoever numbers them. A [`Deals`] says what deal k
//! is (a seed's stream, a deck's ranks, given starts); an [`Engine`] plays a range of them (a
//! fast kernel, a device such as a GPU, or bmn-core's reference engine where no kernel
//! applies), every game still going at the trick cap handed to bmn-core's cycle detection; a
//! [`Tally`] adds the results up, a [`Summary`] being the one every run keeps.
//!
//! Random searches (bmn-search), exhaustive enumerations (bmn-exhaustive), run files (bmn-run)
//! and devices (bmn-gpu) build on this alone. Nothing here prints.

#![forbid(unsafe_code)]

pub mod counts;
pub mod device;
pub mod play;
pub mod summary;

pub use device::DEVICE_BATCH;
pub use play::{
    DEFAULT_GIVE_UP, DealIndex, Deals, DigestSink, Engine, Tally, exact, play_deals, two_hand_text,
};
pub use summary::{CycleClass, CyclingDeal, HISTOGRAM_BIN, LongGame, Progress, Summary};
