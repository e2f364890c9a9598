//! `Hooks`: how a long job (a search, a climb, the factory, backward searches, and bmn-app's
//! commands through their `Observer`) reports to whoever runs it, without printing.

/// How a long job reports to whoever runs it, without printing: stages of work, progress
/// within them. Every method has a default that does nothing.
pub trait Hooks {
    /// Work on `what` starts or changes stage; `total` if known, `done` already.
    fn start(&mut self, total: Option<u64>, done: u64, what: &str) {
        let _ = (total, done, what);
    }

    /// `done` so far, with a short message. Returning false asks the job to stop where it
    /// can (in a round driver, before the next round).
    fn progress(&mut self, done: u64, message: Option<&str>) -> bool {
        let _ = (done, message);
        true
    }

    /// The work of the current stage is over.
    fn finish(&mut self) {}
}

/// Hooks that see nothing and never stop a job.
pub struct Quiet;

impl Hooks for Quiet {}
