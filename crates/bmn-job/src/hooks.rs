//! `Hooks`: how a long job reports to whoever runs it, without printing (the terminal's bar,
//! the page's events, Python's progress lines are each one).

/// How a long job reports to whoever runs it, without printing: stages of work, progress
/// within them, lines for the person running it. Called from the thread that runs the job
/// (through its [`Job`](crate::Job)), as units finish and at least every 200 ms. Every method
/// has a default that does nothing.
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

    /// Something the person running the job should know but that does not stop it (the CLI
    /// writes `bmn: warning: TEXT` to stderr).
    fn warning(&mut self, text: &str) {
        let _ = text;
    }

    /// A line for the person running the job: a resumed run, how to resume an interrupted one
    /// (the CLI writes it to stderr).
    fn note(&mut self, line: &str) {
        let _ = line;
    }
}

/// Hooks that see nothing and never stop a job.
pub struct Quiet;

impl Hooks for Quiet {}
