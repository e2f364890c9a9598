//! `CensusError`: what a census cannot do with the table or limits it was given.

use thiserror::Error;

#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum CensusError {
    #[error("{what} has at most {max} cards; this one has {found}")]
    TooLarge {
        what: &'static str,
        max: u64,
        found: u64,
    },
    #[error("{0}")]
    Invalid(String),
}
