//! `Error`: what a command reports when it cannot answer.

use bmn_run::RunError;

/// Why a command gave no answer. `Input` is the user's to fix and names the flag or value at
/// fault (exit code 2 in the CLI, HTTP 400 on the web, `ValueError` in Python); `Failed` is
/// everything else (a file that cannot be written, kernels that disagree: exit code 1).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Error {
    #[error("{0}")]
    Input(String),
    #[error("{0}")]
    Failed(String),
}

impl Error {
    /// The user's error, one line.
    pub fn input(message: impl Into<String>) -> Error {
        Error::Input(message.into())
    }

    /// `bad FLAG: error`, the user's error about one flag or value.
    pub fn bad(what: &str, error: impl std::fmt::Display) -> Error {
        Error::Input(format!("{what}: {error}"))
    }

    /// Whether the user can fix it by changing what they gave.
    pub fn is_input(&self) -> bool {
        matches!(self, Error::Input(_))
    }
}

impl From<RunError> for Error {
    fn from(e: RunError) -> Error {
        match e {
            RunError::Input(m) => Error::Input(m),
            RunError::Io(m) => Error::Failed(m),
        }
    }
}

impl From<bmn_plot::PlotError> for Error {
    fn from(e: bmn_plot::PlotError) -> Error {
        Error::Failed(bmn_run::chain(&e))
    }
}

/// Results of this crate.
pub type Result<T> = std::result::Result<T, Error>;
