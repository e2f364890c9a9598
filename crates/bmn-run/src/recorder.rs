//! `Recorder`: where a run records its progress (a ledger row, a result file, both or
//! neither), and what it starts from when it is resumed.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use bmn_play::Summary;
use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::error::RunError;
use crate::file::RunFile;
use crate::ledger::{Ledger, default_path};
use crate::lock::RunLock;

/// How often a running search or enumeration records its progress (ledger and result file).
pub const SAVE_EVERY: Duration = Duration::from_secs(1);

/// Which ledger a run records in: `--db FILE`, the default one, or none (`--no-db`); and
/// whether to resume the latest run of the same parameters there (`--resume`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LedgerChoice {
    pub db: Option<PathBuf>,
    pub resume: bool,
    pub no_db: bool,
}

impl LedgerChoice {
    /// Nothing recorded.
    pub const NONE: LedgerChoice = LedgerChoice {
        db: None,
        resume: false,
        no_db: true,
    };

    /// The ledger's path (see [`default_path`]), or `None` with `--no-db`.
    pub fn path(&self) -> Result<Option<PathBuf>, RunError> {
        if self.no_db {
            return Ok(None);
        }
        match &self.db {
            Some(path) => Ok(Some(path.clone())),
            None => default_path().map(Some).ok_or(RunError::NoDatabasePlace),
        }
    }
}

/// Where a run records its progress; saved at most every [`SAVE_EVERY`] while it runs and
/// once at the end. `S` is what the run's file keeps of it (see [`RunFile`]).
pub struct Recorder<P, S = Summary> {
    /// The run's file with its ranges and parameters; `next_unit` and `summary` are filled
    /// in at each save.
    template: RunFile<P, S>,
    ledger: Option<(Ledger, i64)>,
    out: Option<PathBuf>,
    saved_at: Instant,
    /// The run's locks (its `--out` file, its ledger row), held while it is recorded.
    _locks: Vec<RunLock>,
}

/// A recorder just opened: where the run starts, and a warning for the person running it.
pub struct Opened<P, S = Summary> {
    pub recorder: Recorder<P, S>,
    /// The state to start from: the template, or the furthest recorded state of this run.
    pub start: RunFile<P, S>,
    /// Why the default ledger could not be opened, when the run goes on unrecorded (for a
    /// warning the front end words, naming its own flags).
    pub warning: Option<RunError>,
}

impl<P, S> Recorder<P, S>
where
    P: Serialize + DeserializeOwned + PartialEq + Clone,
    S: Serialize + DeserializeOwned + Clone,
{
    /// Opens the recording of `template`'s run. The state to start from is the furthest of
    /// the `out` file (if it exists and is of this run: `same_run` says why not) and, with
    /// `resume`, the ledger's latest unfinished run of these parameters. A default ledger
    /// (none named) that cannot be opened only costs the recording, with a warning.
    pub fn open(
        template: RunFile<P, S>,
        choice: &LedgerChoice,
        out: Option<&Path>,
        same_run: impl Fn(&RunFile<P, S>, &RunFile<P, S>) -> Result<(), String>,
    ) -> Result<Opened<P, S>, RunError> {
        let db = choice.path()?;
        let (explicit_db, resume) = (choice.db.is_some(), choice.resume);
        let mut start = template.clone();
        let mut locks = Vec::new();
        if let Some(path) = out {
            locks.push(RunLock::acquire(
                RunLock::beside(path, ".lock"),
                &path.display().to_string(),
            )?);
        }
        if let Some(path) = out.filter(|p| p.exists()) {
            let saved = RunFile::load(path, &template.format)?;
            same_run(&saved, &template)
                .map_err(|e| RunError::Input(format!("{}: {e}", path.display())))?;
            start = saved;
        }
        let mut warning = None;
        let opened = match db.as_deref().map(Ledger::open) {
            // The default ledger is a convenience: where it cannot be opened (a read-only
            // home, say) the run goes on unrecorded rather than failing.
            Some(Err(e)) if !resume && !explicit_db => {
                warning = Some(e);
                None
            }
            other => other.transpose()?,
        };
        let ledger = match opened {
            Some(ledger) => {
                let (id, saved) = ledger.begin(&template, resume)?;
                locks.push(RunLock::acquire(
                    RunLock::beside(ledger.path(), &format!(".run-{id}.lock")),
                    &format!("run {id} in {}", ledger.path().display()),
                )?);
                if let Some(saved) = saved.filter(|s| s.next_unit > start.next_unit) {
                    start = saved;
                }
                Some((ledger, id))
            }
            None if resume => return Err(RunError::ResumeNeedsDatabase),
            None => None,
        };
        let recorder = Recorder {
            template,
            ledger,
            out: out.map(Path::to_path_buf),
            saved_at: Instant::now(),
            _locks: locks,
        };
        Ok(Opened {
            recorder,
            start,
            warning,
        })
    }

    /// Whether [`SAVE_EVERY`] has passed since the last save.
    pub fn due(&self) -> bool {
        self.saved_at.elapsed() >= SAVE_EVERY
    }

    /// Saves if [`SAVE_EVERY`] has passed since the last save.
    pub fn tick(&mut self, summary: &S, next_unit: u64) -> Result<(), RunError> {
        if !self.due() {
            return Ok(());
        }
        self.save(summary, next_unit)
    }

    /// Records the units before `next_unit` and what they reached.
    pub fn save(&mut self, summary: &S, next_unit: u64) -> Result<(), RunError> {
        self.saved_at = Instant::now();
        if self.ledger.is_none() && self.out.is_none() {
            return Ok(());
        }
        let file = RunFile {
            next_unit,
            summary: summary.clone(),
            ..self.template.clone()
        };
        if let Some(out) = &self.out {
            file.save(out)?;
        }
        if let Some((ledger, id)) = &self.ledger {
            ledger.save(*id, &file)?;
        }
        Ok(())
    }

    /// Where the run is recorded, for the report: `run 12 in FILE`.
    pub fn describe(&self) -> Option<String> {
        self.ledger
            .as_ref()
            .map(|(l, id)| format!("run {id} in {}", l.path().display()))
    }
}
