//! bmn-search: reproducible random searches over deals on the fast kernels, exact to the rules.
//!
//! Deals come from a [`DealSource`]; the kernels of `bmn-kernel` play them; any game still going
//! at the trick cap is handed to bmn-core's exact cycle detection. Nothing here prints: callers
//! get a [`Summary`] and progress callbacks.

pub mod bench;
pub mod deals;
pub mod play;
pub mod run;
pub mod summary;
pub mod units;

pub use deals::DealSource;
pub use play::{Deals, exact, play_deals, two_hand_text};
pub use run::{SearchConfig, UNIT, play_range, search};
pub use summary::{CycleClass, Found, FoundCycle, HISTOGRAM_BIN, Summary};
pub use units::run_units;

/// Why a search cannot run.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SearchError {
    #[error("deck {deck} has {cards} cards; the fast search plays 2 to 64")]
    DeckSize { deck: String, cards: usize },
    #[error(
        "deck {deck} has an odd number of {kind}: it cannot be split into equal halves (--balanced)"
    )]
    Unbalanceable { deck: String, kind: char },
}
