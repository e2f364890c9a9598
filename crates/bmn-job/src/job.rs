//! `Job`: one long job's link to whoever runs it, the stop request it reads and the hooks it
//! reports through, taken by every long job of every library as one value.

use std::sync::atomic::{AtomicBool, Ordering};

use crate::hooks::Hooks;

/// What a long job is given by whoever runs it: the hooks it reports through (stages,
/// progress, lines for the person) and the stop request it reads (Ctrl-C, a server shutting
/// down, Python's `KeyboardInterrupt`). A job checks [`Job::stopped`] (its threads, the flag of
/// [`Job::stop_flag`]) at least every ~100 ms of work, keeps what it finished and says so; it
/// never sets the flag, so its caller can tell a stop it asked for from one a hook asked for (a
/// time limit, which makes `progress` return false).
pub struct Job<'a> {
    /// `None`: a quiet job, reporting to no one.
    hooks: Option<&'a mut dyn Hooks>,
    stop: &'a AtomicBool,
    /// A hook asked to stop (returned false): the job ends as it would on the flag.
    halted: bool,
}

impl<'a> Job<'a> {
    /// A job reporting to `hooks`, stopped when `stop` is set.
    pub fn new(hooks: &'a mut dyn Hooks, stop: &'a AtomicBool) -> Job<'a> {
        Job {
            hooks: Some(hooks),
            stop,
            halted: false,
        }
    }

    /// A job that reports to no one, stopped only by `stop`.
    pub fn quiet(stop: &'a AtomicBool) -> Job<'a> {
        Job {
            hooks: None,
            stop,
            halted: false,
        }
    }

    /// A stage of this job that reports to the same hooks but reads `stop`: for a stage its
    /// caller ends on its own terms (a time limit) as well as on this job's flag, which the
    /// caller then copies into `stop` so that the stage's threads see either.
    pub fn stage<'b>(&'b mut self, stop: &'b AtomicBool) -> Job<'b> {
        Job {
            // Reborrowed as a shorter-lived trait object (`&mut *h` coerces; an Option does not).
            hooks: match &mut self.hooks {
                Some(h) => Some(&mut **h),
                None => None,
            },
            stop,
            halted: false,
        }
    }

    /// The caller's stop request, for a job's worker threads to read (never to set).
    pub fn stop_flag(&self) -> &'a AtomicBool {
        self.stop
    }

    /// Whether the job should stop: its caller asked, or a hook returned false.
    pub fn stopped(&self) -> bool {
        self.halted || self.stop.load(Ordering::Relaxed)
    }

    /// Whether the caller's flag is set (Ctrl-C), not merely a hook's stop (a time limit): a
    /// command reports the one as interrupted and the other as done.
    pub fn interrupted(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    /// Work on `what` starts or changes stage; `total` if known, `done` already.
    pub fn start(&mut self, total: Option<u64>, done: u64, what: &str) {
        if let Some(h) = &mut self.hooks {
            h.start(total, done, what);
        }
    }

    /// `done` so far, with a short message. False once the job should stop: the caller's flag
    /// is set or a hook asked (then and from then on).
    pub fn progress(&mut self, done: u64, message: Option<&str>) -> bool {
        if let Some(h) = &mut self.hooks
            && !h.progress(done, message)
        {
            self.halted = true;
        }
        !self.stopped()
    }

    /// The work of the current stage is over.
    pub fn finish(&mut self) {
        if let Some(h) = &mut self.hooks {
            h.finish();
        }
    }

    /// Something the person running the job should know but that does not stop it.
    pub fn warning(&mut self, text: &str) {
        if let Some(h) = &mut self.hooks {
            h.warning(text);
        }
    }

    /// A line for the person running the job (a resumed run, how to resume a stopped one).
    pub fn note(&mut self, line: &str) {
        if let Some(h) = &mut self.hooks {
            h.note(line);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Until(u64);

    impl Hooks for Until {
        fn progress(&mut self, done: u64, _: Option<&str>) -> bool {
            done < self.0
        }
    }

    #[test]
    fn a_hook_that_says_stop_stops_the_job_for_good_but_is_no_interruption() {
        let stop = AtomicBool::new(false);
        let mut hooks = Until(5);
        let mut job = Job::new(&mut hooks, &stop);
        assert!(job.progress(4, None) && !job.stopped());
        assert!(!job.progress(5, None));
        assert!(!job.progress(1, None), "a hook's stop is not taken back");
        assert!(job.stopped() && !job.interrupted());
    }

    #[test]
    fn the_callers_flag_stops_a_quiet_job() {
        let stop = AtomicBool::new(false);
        let mut job = Job::quiet(&stop);
        assert!(job.progress(1, Some("x")));
        stop.store(true, Ordering::Relaxed);
        assert!(!job.progress(2, None) && job.stopped() && job.interrupted());
    }
}
