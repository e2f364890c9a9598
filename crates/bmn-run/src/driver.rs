//! The one driver of durable runs: units played on worker threads, merged in unit order,
//! recorded every second and at the end; progress and stopping are the caller's hooks.
//!
//! Searches and enumerations differ only in what a unit is (a slice of a seed's stream of
//! games, or of a deck's ranked deals); both come here, so a run of either kind stops,
//! records and resumes the same way: always at a unit boundary, never holding part of a unit.

use std::ops::Range;

use bmn_job::{Blocks, Claims, Job, Worker, run_unit_blocks};
use bmn_play::{Progress, Summary};
use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::error::RunError;
use crate::recorder::Recorder;

/// How a run's units are played: on `threads` threads, claimed as `claims` says (several
/// units at once where a device plays them as one batch).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Workers {
    pub threads: usize,
    pub claims: Claims,
}

/// Plays units `state.next_unit..end` (`end: None`: until stopped) as `workers` say, each
/// block as `play(units)`, merging them in unit order into `state`. `progress(job, summary,
/// next_unit)` is called as units merge and at least every 200 ms; returning false stops the
/// run, as does the job's stop (e.g. Ctrl-C). `recorder` saves at most every second and once at the
/// end, so what it holds is always a whole prefix of the units. A failed save stops the run
/// and is returned after the units under way are merged.
pub fn drive<P>(
    recorder: &mut Recorder<P>,
    state: &mut Progress,
    end: Option<u64>,
    workers: Workers,
    job: &mut Job,
    play: impl Fn(Range<u64>, Worker) -> Summary + Sync,
    mut progress: impl FnMut(&mut Job, &Summary, u64) -> bool,
) -> Result<(), RunError>
where
    P: Serialize + DeserializeOwned + PartialEq + Clone,
{
    let mut save_error = None;
    let blocks = Blocks {
        first: state.next_unit,
        end,
        claims: workers.claims,
    };
    state.next_unit = run_unit_blocks(
        blocks,
        workers.threads,
        job,
        &mut state.summary,
        Summary::merge,
        |units, worker| Some(play(units, worker)),
        |job, summary, next| {
            if let Err(e) = recorder.tick(summary, next) {
                save_error = Some(e);
                return false;
            }
            progress(job, summary, next)
        },
    );
    if let Some(e) = save_error {
        return Err(e);
    }
    recorder.save(&state.summary, state.next_unit)
}
