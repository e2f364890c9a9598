//! What searches and enumerations share as durable runs: open the recording (a ledger row,
//! a result file), say where a resumed run starts, drive the units with the job's
//! progress, save, and say how to go on after an interruption.

use std::ops::Range;
use std::path::Path;
use std::time::Instant;

use bmn_job::{Job, Worker};
use bmn_run::{LedgerChoice, Recorder, RunFile, Workers, drive};
use bmn_search::{Progress, Summary};
use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::error::Result;

/// Why a recorded state is not of this run (`Ok` if it is).
pub type SameRun<P> = dyn Fn(&RunFile<P>, &RunFile<P>) -> std::result::Result<(), String>;

/// How a durable run is played and recorded.
pub struct Recording<'a, P> {
    /// The run's file before any unit is played (parameters, shard, range, units).
    pub template: RunFile<P>,
    pub ledger: &'a LedgerChoice,
    /// `--out` or `--checkpoint`.
    pub file: Option<&'a Path>,
    /// Why a recorded state is not of this run (`None` if it is).
    pub same_run: &'a SameRun<P>,
    /// The last unit to play (`None`: until stopped).
    pub end: Option<u64>,
    /// The worker threads, how they claim units (several at once on a device) and where they
    /// play them.
    pub workers: Workers,
    /// What the job's hooks count ("games", "deals") and how many of them are in the range.
    pub what: &'a str,
    pub total: Option<u64>,
}

/// A durable run after its units were played.
pub struct Done<P> {
    /// The run's file as recorded last (parameters, shard, range and the state reached).
    pub file: RunFile<P>,
    pub recorder: Recorder<P>,
    /// The unit the run started from (after a resume, the first one not done before).
    pub first_unit: u64,
    pub elapsed: f64,
}

/// What a durable run plays, counts and says: the command's side of [`run`] (a search's
/// seeded games, an enumeration's ranks).
pub trait DurableWork<P>: Sync {
    /// The summary of the units of `block`, played (on a worker thread) on the engine
    /// `worker` plays on.
    fn play(&self, block: Range<u64>, worker: Worker) -> Summary;
    /// How many of the range's items (games, deals) the units before `next_unit` hold.
    fn items_before(&self, next_unit: u64) -> u64;
    /// The progress line's message, from the summary so far.
    fn message(&self, summary: &Summary) -> Option<String> {
        let _ = summary;
        None
    }
    /// A stop of the command's own (a time limit), checked at each unit merged.
    fn keep_going(&self) -> bool {
        true
    }
    /// The note shown when the run goes on from a recorded state.
    fn resumed(&self, file: &RunFile<P>) -> String;
}

/// Plays `plan`'s units as `units` says, recording each second and at the end.
pub fn run<P>(plan: Recording<P>, job: &mut Job, units: &impl DurableWork<P>) -> Result<Done<P>>
where
    P: Serialize + DeserializeOwned + PartialEq + Clone,
{
    let first_unit = plan.template.next_unit;
    let opened = Recorder::open(plan.template, plan.ledger, plan.file, plan.same_run)?;
    if let Some(w) = &opened.warning {
        job.warning(&crate::error::not_recording(w));
    }
    let mut recorder = opened.recorder;
    let mut file = opened.start;
    // A run database is made unasked (`~/.local/state/bmn/runs.sqlite`): say where.
    if let Some(at) = recorder.describe() {
        job.note(&format!("recording progress as {at}"));
    }
    if file.next_unit > first_unit {
        job.note(&units.resumed(&file));
    }
    let mut state = Progress {
        next_unit: file.next_unit,
        summary: std::mem::take(&mut file.summary),
    };
    let start_unit = state.next_unit;
    job.start(plan.total, units.items_before(state.next_unit), plan.what);
    let started = Instant::now();
    let result = drive(
        &mut recorder,
        &mut state,
        plan.end,
        plan.workers,
        job,
        |block, worker| units.play(block, worker),
        |job, summary, next| {
            let message = units.message(summary);
            let go_on = job.progress(units.items_before(next), message.as_deref());
            go_on && units.keep_going()
        },
    );
    job.finish();
    result?;
    file.next_unit = state.next_unit;
    file.summary = state.summary;
    Ok(Done {
        file,
        recorder,
        first_unit: start_unit,
        elapsed: started.elapsed().as_secs_f64(),
    })
}
