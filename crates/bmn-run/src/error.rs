//! `RunError`: why a durable run cannot start, go on or be merged.

use std::path::PathBuf;

/// Why a run, a result file or a merge is refused. `Input` and the variants a person can fix
/// by asking differently (see [`RunError::is_input`]) are the user's; `Io` and the database's
/// failures are the machine's (a file or the ledger could not be read or written).
///
/// Messages name the files at fault in this crate's own words: it knows nothing of a front
/// end's flags, so where a fix is to give another flag (another database, no resume), the
/// variant says what happened and the front end words the fix with its own flag names.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RunError {
    #[error("{0}")]
    Input(String),
    #[error("{0}")]
    Io(String),
    /// `doing` (e.g. `opening the run database FILE`) failed because another process holds
    /// the database past the wait; `cause` is SQLite's error and its sources.
    #[error(
        "{doing} (another process holds the database: wait for it, or use another database): {cause}"
    )]
    DatabaseBusy { doing: String, cause: String },
    /// `doing` failed because the database is damaged inside (its pages, not its header).
    #[error("{doing} (the database is damaged: move it away, or use another database): {cause}")]
    DatabaseDamaged { doing: String, cause: String },
    /// `doing` failed because the file is not a database at all (a file named by mistake).
    #[error("{doing} (the file is not a run database: name another database): {cause}")]
    NotADatabase { doing: String, cause: String },
    /// The file named as the database cannot be one: a folder, or an empty file not named as
    /// a database (`why` says which).
    #[error("the run database {}: {why}", .path.display())]
    NotADatabaseFile { path: PathBuf, why: &'static str },
    /// A resume was asked for, and the database at `path` holds no run of these parameters.
    #[error("{} holds no run with these parameters", .path.display())]
    NoSuchRun { path: PathBuf },
    /// No database was named, and there is no default place for one (no `HOME`, no `BMN_DB`).
    #[error("no place for the run database: set HOME or BMN_DB, or name a database")]
    NoDatabasePlace,
    /// A resume was asked for by a run that records in no database.
    #[error("resuming needs a run database, and this run records in none")]
    ResumeNeedsDatabase,
}

impl RunError {
    /// `context: error: its source: ...`, as one line (the error and every source below it).
    pub fn io(context: impl std::fmt::Display, error: &dyn std::error::Error) -> RunError {
        RunError::Io(format!("{context}: {}", chain(error)))
    }

    /// Whether the user can fix it by asking differently (another file, another database, no
    /// resume), rather than by fixing the machine (a full disk, a busy or damaged database).
    pub fn is_input(&self) -> bool {
        match self {
            RunError::Input(_)
            | RunError::NotADatabase { .. }
            | RunError::NotADatabaseFile { .. }
            | RunError::NoSuchRun { .. }
            | RunError::NoDatabasePlace
            | RunError::ResumeNeedsDatabase => true,
            RunError::Io(_) | RunError::DatabaseBusy { .. } | RunError::DatabaseDamaged { .. } => {
                false
            }
        }
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
