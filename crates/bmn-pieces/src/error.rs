//! Typed errors of bmn-pieces: each names what is wrong with the input.

use thiserror::Error;

/// Why a piece, a face list or a configuration cannot be used.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum PiecesError {
    #[error(
        "'{found}' at position {at} is not a piece card: a piece is made of - Q K A (jacks separate pieces)"
    )]
    PieceChar { found: char, at: usize },
    #[error("bad face list '{text}': {why} (write it like Q4,K3,A1 or Q4,K3,A1,-23)")]
    Faces { text: String, why: String },
    #[error("the filter piece {filter} does not keep the template game going: {why}")]
    Filter { filter: String, why: String },
    /// `field` names the setting at fault as its configuration spells it (`max_len`), so a
    /// front end can name its own parameter for it.
    #[error("{what} must be at least {min}")]
    TooSmall {
        what: &'static str,
        field: &'static str,
        min: u64,
    },
    #[error("{what} must be at most {max}, got {found}")]
    TooLarge {
        what: &'static str,
        field: &'static str,
        max: u64,
        found: u64,
    },
}

impl PiecesError {
    /// The setting at fault, for the errors about one setting's value.
    pub fn field(&self) -> Option<&'static str> {
        match self {
            PiecesError::TooSmall { field, .. } | PiecesError::TooLarge { field, .. } => {
                Some(field)
            }
            _ => None,
        }
    }
}
