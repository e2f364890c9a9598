//! bmn-search: reproducible random searches over deals on the fast kernels, exact to the rules.
//!
//! Deals come from a [`DealSource`]; the kernels of `bmn-kernel` play them (bmn-core's reference
//! engine where no kernel applies: more players, other penalty tables); any game still going
//! at the trick cap is handed to bmn-core's exact cycle detection. Nothing here prints: callers
//! get a [`Summary`] (the longest games) or [`Stats`] (the length distribution, wins by seat)
//! and progress callbacks. Playing numbered deals, which a search shares with enumerations and
//! devices, is bmn-play's (re-exported here).

#![forbid(unsafe_code)]

pub mod bench;
pub mod deals;
pub mod given;
pub mod odds;
pub mod run;
pub mod stats;

// Playing numbered deals is bmn-play's; a search's callers see it through this crate too.
pub use bmn_play::{CycleClass, CyclingDeal, HISTOGRAM_BIN, LongGame, Progress, Summary};
pub use bmn_play::{
    DEFAULT_GIVE_UP, DEVICE_BATCH, DealIndex, Deals, DigestSink, Engine, Tally, counts, device,
    exact, play, play_deals, summary, two_hand_text,
};
pub use deals::DealSource;
pub use given::{GivenDeal, KernelDeal, play_given};
pub use odds::TailModel;
pub use run::{
    GAMES_PER_UNIT, SearchConfig, Units, play_into, play_range, search, stream, stream_units,
    units_of,
};
pub use stats::{Stats, TailFit};

/// Why a search cannot run.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SearchError {
    #[error("{0} players: a table seats 2 to 10")]
    Players(usize),
    #[error("deck {deck} has {cards} cards; {players} players are dealt {players} to {max}")]
    DeckSize {
        deck: String,
        cards: usize,
        players: usize,
        max: usize,
    },
    /// Balanced deals asked for, which this deck cannot give (a front end names its flag).
    #[error(
        "deck {deck}: its {kind} cards cannot be shared equally among {players} players, as a balanced deal needs"
    )]
    Unbalanceable {
        deck: String,
        kind: char,
        players: usize,
    },
}
