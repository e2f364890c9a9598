//! `RunError`: why a durable run cannot start, go on or be merged.

/// Why a run, a result file or a merge is refused. `Input` is the user's to fix (a file of
/// another run, a missing shard, `--resume` with nothing to resume); `Io` is the machine's (a
/// file or the ledger could not be read or written). Each message names the file or flag.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RunError {
    #[error("{0}")]
    Input(String),
    #[error("{0}")]
    Io(String),
}

impl RunError {
    /// `context: error: its source: ...`, as one line (the error and every source below it).
    pub fn io(context: impl std::fmt::Display, error: &dyn std::error::Error) -> RunError {
        RunError::Io(format!("{context}: {}", chain(error)))
    }
}

/// An error and its sources, joined by `: `.
pub fn chain(error: &dyn std::error::Error) -> String {
    let mut text = error.to_string();
    let mut source = error.source();
    while let Some(e) = source {
        text.push_str(": ");
        text.push_str(&e.to_string());
        source = e.source();
    }
    text
}
