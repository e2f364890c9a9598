//! Durable runs: every search and enumeration records its progress in an embedded SQLite
//! database, so a run killed at any moment (even `kill -9`) resumes with `--resume` from its
//! last recorded unit, and its result equals an uninterrupted run's.
//!
//! A row holds one run's result file (`runfile.rs`: parameters, range, the first unit not
//! done, the summary of the units before it, a checksum), replaced in one transaction as units
//! finish. SQLite's write-ahead log with `synchronous = NORMAL` keeps every committed
//! transaction across a crash of the process, which is the failure that matters here (a lost
//! power supply may lose the last second, never corrupt the file). Units finished after the
//! last commit are played again on resume, never counted twice: the row is always a whole
//! prefix of the run's units.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use anyhow::{Context, Result};
use bmn_search::Summary;
use rusqlite::{Connection, OptionalExtension, params};
use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::cli::DbArgs;
use crate::input::BadInput;
use crate::runfile::RunFile;

/// How often a running search or enumeration records its progress (database and `--out`).
pub const SAVE_EVERY: Duration = Duration::from_secs(1);

/// The database used when `--db` is not given: `$BMN_DB`, else
/// `$XDG_STATE_HOME/bmn/runs.sqlite`, else `~/.local/state/bmn/runs.sqlite`.
pub fn default_path() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("BMN_DB") {
        return Some(PathBuf::from(p));
    }
    let state = std::env::var_os("XDG_STATE_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| Path::new(&h).join(".local/state")))?;
    Some(state.join("bmn").join("runs.sqlite"))
}

/// An open run database.
pub struct Store {
    conn: Connection,
    path: PathBuf,
}

impl Store {
    /// Opens (creating if needed) the database at `path`.
    pub fn open(path: &Path) -> Result<Store> {
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
        }
        let conn = Connection::open(path)
            .with_context(|| format!("opening the run database {}", path.display()))?;
        conn.busy_timeout(Duration::from_secs(10))?;
        // WAL keeps committed transactions across a crash of the process; NORMAL skips the
        // fsync per commit that only a power failure would need.
        conn.pragma_update(None, "journal_mode", "WAL")?;
        conn.pragma_update(None, "synchronous", "NORMAL")?;
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
        .with_context(|| format!("{} is not a bmn run database", path.display()))?;
        Ok(Store {
            conn,
            path: path.to_path_buf(),
        })
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Starts recording `file`'s run: with `resume`, continues the latest unfinished run of
    /// the same parameters, shard and range (returning its recorded state), else adds a row.
    pub fn begin<P>(&self, file: &RunFile<P>, resume: bool) -> Result<(i64, Option<RunFile<P>>)>
    where
        P: Serialize + DeserializeOwned + PartialEq + Clone,
    {
        let key = run_key(file)?;
        if resume {
            // The latest unfinished run of these parameters; failing that the latest finished
            // one, whose result is then reported again without playing anything.
            let row: Option<(i64, String)> = self
                .conn
                .query_row(
                    "SELECT id, file FROM runs WHERE format = ?1 AND key = ?2
                     ORDER BY finished ASC, id DESC LIMIT 1",
                    params![file.format, key],
                    |r| Ok((r.get(0)?, r.get(1)?)),
                )
                .optional()?;
            let Some((id, text)) = row else {
                return Err(BadInput(format!(
                    "--resume: {} holds no run with these parameters (start it without --resume)",
                    self.path.display()
                ))
                .into());
            };
            let saved = RunFile::from_text(&text, &file.format)
                .map_err(|e| BadInput(format!("run {id} in {}: {e}", self.path.display())))?;
            return Ok((id, Some(saved)));
        }
        self.conn.execute(
            "INSERT INTO runs (format, key, file) VALUES (?1, ?2, ?3)",
            params![file.format, key, file.to_text()?],
        )?;
        Ok((self.conn.last_insert_rowid(), None))
    }

    /// Records run `id`'s state in one transaction.
    pub fn save<P>(&self, id: i64, file: &RunFile<P>) -> Result<()>
    where
        P: Serialize + DeserializeOwned + PartialEq + Clone,
    {
        self.conn
            .execute(
                "UPDATE runs SET file = ?1, finished = ?2, updated = datetime('now') WHERE id = ?3",
                params![file.to_text()?, file.finished(), id],
            )
            .with_context(|| format!("recording run {id} in {}", self.path.display()))?;
        Ok(())
    }
}

/// What identifies a run for `--resume`: its parameters, shard and range.
fn run_key<P: Serialize>(file: &RunFile<P>) -> Result<String> {
    Ok(serde_json::to_string(&(
        &file.params,
        &file.shard,
        file.range,
    ))?)
}

/// Where a run records its progress: a database row, a result file, both or neither; saved
/// at most every [`SAVE_EVERY`] while it runs and once at the end.
pub struct Recorder<P> {
    /// The run's file with its ranges and parameters; `next_unit` and `summary` are filled
    /// in at each save.
    template: RunFile<P>,
    store: Option<(Store, i64)>,
    out: Option<PathBuf>,
    saved_at: Instant,
}

impl<P> Recorder<P>
where
    P: Serialize + DeserializeOwned + PartialEq + Clone,
{
    /// Opens the recording of `template`'s run in the database `args` name. The state to
    /// start from is the furthest of the `out` file (if it exists and is of this run) and,
    /// with `--resume`, the database's latest unfinished run of these parameters. A default
    /// database (no `--db`) that cannot be opened only costs the recording, with a warning.
    pub fn open(
        template: RunFile<P>,
        args: &DbArgs,
        out: Option<&Path>,
        same_run: impl Fn(&RunFile<P>, &RunFile<P>) -> Result<()>,
    ) -> Result<(Recorder<P>, RunFile<P>)> {
        let db = crate::input::db(args)?;
        let (explicit_db, resume) = (args.db.is_some(), args.resume);
        let mut start = template.clone();
        if let Some(path) = out.filter(|p| p.exists()) {
            let saved = RunFile::load(path, &template.format)?;
            same_run(&saved, &template)
                .map_err(|e| BadInput(format!("{}: {e}", path.display())))?;
            start = saved;
        }
        let opened = match db.as_deref().map(Store::open) {
            // The default database is a convenience: where it cannot be opened (a read-only
            // home, say) the run goes on unrecorded rather than failing.
            Some(Err(e)) if !resume && !explicit_db => {
                eprintln!("bmn: warning: not recording this run: {e:#}");
                None
            }
            other => other.transpose()?,
        };
        let store = match opened {
            Some(store) => {
                let (id, saved) = store.begin(&template, resume)?;
                if let Some(saved) = saved.filter(|s| s.next_unit > start.next_unit) {
                    start = saved;
                }
                Some((store, id))
            }
            None if resume => {
                return Err(BadInput("--resume needs a run database: drop --no-db".into()).into());
            }
            None => None,
        };
        let recorder = Recorder {
            template,
            store,
            out: out.map(Path::to_path_buf),
            saved_at: Instant::now(),
        };
        Ok((recorder, start))
    }

    /// Saves if [`SAVE_EVERY`] has passed since the last save.
    pub fn tick(&mut self, summary: &Summary, next_unit: u64) -> Result<()> {
        if self.saved_at.elapsed() < SAVE_EVERY {
            return Ok(());
        }
        self.save(summary, next_unit)
    }

    /// Records the units before `next_unit` and their summary.
    pub fn save(&mut self, summary: &Summary, next_unit: u64) -> Result<()> {
        self.saved_at = Instant::now();
        if self.store.is_none() && self.out.is_none() {
            return Ok(());
        }
        let mut file = RunFile {
            next_unit,
            summary: summary.clone(),
            ..self.template.clone()
        };
        if let Some(out) = &self.out {
            file.save(out)?;
        }
        if let Some((store, id)) = &self.store {
            store.save(*id, &file)?;
        }
        Ok(())
    }

    /// Where the run is recorded, for the report: `run 12 in FILE`.
    pub fn describe(&self) -> Option<String> {
        self.store
            .as_ref()
            .map(|(s, id)| format!("run {id} in {}", s.path().display()))
    }
}
