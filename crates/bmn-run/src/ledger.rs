//! The run ledger: every search and enumeration records its progress in an embedded SQLite
//! database, so a run killed at any moment (even `kill -9`) resumes with `--resume` from its
//! last recorded unit, and its result equals an uninterrupted run's.
//!
//! A row holds one run's result file (`file.rs`: parameters, range, the first unit not done,
//! the summary of the units before it, a checksum), replaced in one transaction as units
//! finish. SQLite's write-ahead log with `synchronous = NORMAL` keeps every committed
//! transaction across a crash of the process, which is the failure that matters here (a lost
//! power supply may lose the last second, never corrupt the file). Units finished after the
//! last commit are played again on resume, never counted twice: the row is always a whole
//! prefix of the run's units.

use std::path::{Path, PathBuf};
use std::time::Duration;

use rusqlite::{Connection, OptionalExtension, params};
use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::error::RunError;
use crate::file::RunFile;

/// The ledger used when none is named: `$BMN_DB`, else `$XDG_STATE_HOME/bmn/runs.sqlite`,
/// else `~/.local/state/bmn/runs.sqlite`.
pub fn default_path() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("BMN_DB") {
        return Some(PathBuf::from(p));
    }
    let state = std::env::var_os("XDG_STATE_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| Path::new(&h).join(".local/state")))?;
    Some(state.join("bmn").join("runs.sqlite"))
}

/// An open run ledger.
pub struct Ledger {
    conn: Connection,
    path: PathBuf,
}

/// An SQLite error as a `RunError`: the failures a user can act on (a busy or damaged
/// database, a file that is not one, a full or failing disk) say so.
fn sql(context: impl std::fmt::Display) -> impl FnOnce(rusqlite::Error) -> RunError {
    use rusqlite::ErrorCode::{
        DatabaseBusy, DatabaseCorrupt, DatabaseLocked, DiskFull, NotADatabase, SystemIoFailure,
    };
    move |e| {
        let (doing, cause) = (context.to_string(), crate::error::chain(&e));
        let hint = match e.sqlite_error_code() {
            Some(DatabaseBusy | DatabaseLocked) => {
                return RunError::DatabaseBusy { doing, cause };
            }
            Some(NotADatabase) => return RunError::NotADatabase { doing, cause },
            Some(DatabaseCorrupt) => return RunError::DatabaseDamaged { doing, cause },
            Some(DiskFull) => " (the disk is full; the last saved state is kept)",
            // SQLite's I/O errors (a write, or growing its shared-memory file, refused):
            // nothing it committed before is lost.
            Some(SystemIoFailure) => {
                " (the disk is full, read-only or failing; the last saved state is kept)"
            }
            _ => "",
        };
        RunError::Io(format!("{doing}{hint}: {cause}"))
    }
}

impl Ledger {
    /// Opens (creating if needed) the ledger at `path`. A folder is refused, and so is an
    /// existing empty file whose name does not end `.sqlite`, `.sqlite3` or `.db`: SQLite would
    /// take it for a new database, and a text file named by mistake would become one.
    pub fn open(path: &Path) -> Result<Ledger, RunError> {
        if path.is_dir() {
            return Err(RunError::NotADatabaseFile {
                path: path.to_path_buf(),
                why: "is a folder; name a file (in it, say)",
            });
        }
        let named_as_database = path
            .extension()
            .is_some_and(|e| ["sqlite", "sqlite3", "db"].iter().any(|d| e == *d));
        if !named_as_database && std::fs::metadata(path).is_ok_and(|m| m.is_file() && m.len() == 0)
        {
            return Err(RunError::NotADatabaseFile {
                path: path.to_path_buf(),
                why: "is an empty file, not a run database: a new database is made in an \
                      empty file only when its name ends .sqlite, .sqlite3 or .db (or where no \
                      file is)",
            });
        }
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir)
                .map_err(|e| RunError::io(format!("creating {}", dir.display()), &e))?;
        }
        let opening = || format!("opening the run database {}", path.display());
        let conn = Connection::open(path).map_err(sql(opening()))?;
        conn.busy_timeout(Duration::from_secs(10))
            .map_err(sql(opening()))?;
        // WAL keeps committed transactions across a crash of the process; NORMAL skips the
        // fsync per commit that only a power failure would need.
        conn.pragma_update(None, "journal_mode", "WAL")
            .map_err(sql(opening()))?;
        conn.pragma_update(None, "synchronous", "NORMAL")
            .map_err(sql(opening()))?;
        conn.execute_batch(
            "CREATE TABLE IF NOT EXISTS runs (
                id INTEGER PRIMARY KEY,
                format TEXT NOT NULL,
                key TEXT NOT NULL,
                started TEXT NOT NULL DEFAULT (datetime('now')),
                updated TEXT NOT NULL DEFAULT (datetime('now')),
                finished INTEGER NOT NULL DEFAULT 0,
                file TEXT NOT NULL
            );
            CREATE INDEX IF NOT EXISTS runs_by_key ON runs (format, key, finished);",
        )
        .map_err(sql(format!("{} is not a bmn run database", path.display())))?;
        Ok(Ledger {
            conn,
            path: path.to_path_buf(),
        })
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Starts recording `file`'s run: with `resume`, continues the latest unfinished run of
    /// the same parameters, shard and range (returning its recorded state), else adds a row.
    pub fn begin<P, S>(
        &self,
        file: &RunFile<P, S>,
        resume: bool,
    ) -> Result<(i64, Option<RunFile<P, S>>), RunError>
    where
        P: Serialize + DeserializeOwned + PartialEq + Clone,
        S: Serialize + DeserializeOwned + Clone,
    {
        let key = run_key(file);
        let at = || format!("the run database {}", self.path.display());
        if resume {
            // The latest unfinished run of these parameters; failing that the latest finished
            // one, whose result is then reported again without playing anything. Failing both,
            // a run of these parameters in another format (an older bmn's, before its file
            // changed shape) is read, to be refused as such rather than said not to exist.
            let row: Option<(i64, String)> = self
                .conn
                .query_row(
                    "SELECT id, file FROM runs WHERE key = ?2
                     ORDER BY format = ?1 DESC, finished ASC, id DESC LIMIT 1",
                    params![file.format, key],
                    |r| Ok((r.get(0)?, r.get(1)?)),
                )
                .optional()
                .map_err(sql(at()))?;
            let Some((id, text)) = row else {
                return Err(RunError::NoSuchRun {
                    path: self.path.clone(),
                });
            };
            let saved = RunFile::from_text(&text, &file.format).map_err(|e| {
                RunError::Input(format!("run {id} in {}: {e}", self.path.display()))
            })?;
            return Ok((id, Some(saved)));
        }
        self.conn
            .execute(
                "INSERT INTO runs (format, key, file) VALUES (?1, ?2, ?3)",
                params![file.format, key, file.to_text()?],
            )
            .map_err(sql(at()))?;
        Ok((self.conn.last_insert_rowid(), None))
    }

    /// Records run `id`'s state in one transaction.
    pub fn save<P, S>(&self, id: i64, file: &RunFile<P, S>) -> Result<(), RunError>
    where
        P: Serialize + DeserializeOwned + PartialEq + Clone,
        S: Serialize + DeserializeOwned + Clone,
    {
        self.conn
            .execute(
                "UPDATE runs SET file = ?1, finished = ?2, updated = datetime('now') WHERE id = ?3",
                params![file.to_text()?, file.finished(), id],
            )
            .map_err(sql(format!(
                "recording run {id} in {}",
                self.path.display()
            )))?;
        Ok(())
    }
}

/// What identifies a run for `--resume`: its parameters, shard and range.
fn run_key<P: Serialize, S>(file: &RunFile<P, S>) -> String {
    serde_json::to_string(&(&file.params, &file.shard, file.range))
        .expect("run parameters serialize")
}
