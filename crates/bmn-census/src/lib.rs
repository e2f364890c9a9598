//! bmn-census: every cycle with balanced deals that its methods reach, each balanced deal with
//! its rank, and how complete the count is.
//!
//! The methods are independent ways to reach cycles: [`hands`] enumerates every position in
//! which one player holds a small hand (complete for the cycles whose basins reach one),
//! and the front end adds Casella's construction (bmn-pieces through the factory) and, on
//! decks small enough, every deal (bmn-exhaustive) as the truth. [`catalogue`] turns the
//! cycles reached into entries (period, basin, structure, every balanced deal and its rank);
//! [`estimate`] measures recall against the truth and estimates the total from two methods.
//! No I/O, no printing.

#![forbid(unsafe_code)]

pub mod catalogue;
pub mod class;
pub mod deals;
pub mod error;
pub mod estimate;
pub mod hands;
pub mod method;
pub mod progress;
pub mod tally;

pub use catalogue::{CensusCycle, CensusDeal, describe, describe_all};
pub use class::{anti_periodic, splits_at_rest_state};
pub use deals::{EveryDeal, every_deal};
pub use error::CensusError;
pub use estimate::{Chapman, Recall, chapman, recall};
pub use hands::{HandsConfig, HandsCycle, HandsResult, hands};
pub use method::Method;
pub use progress::HandsProgress;
pub use tally::{ClassCount, Classes, PeriodCount};
