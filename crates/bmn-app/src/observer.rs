//! `Observer`: how a long command reports to whoever runs it, without printing.
//!
//! The CLI draws a progress bar on a terminal (elsewhere, a line every few seconds), the web
//! page streams the same events, the Python package checks for Ctrl-C between them. Commands
//! call these hooks from the thread that called the command, as units of work finish and at
//! least every 200 ms.

/// The hooks of a long command. Every method has a default that does nothing.
pub trait Observer {
    /// Work on `what` ("games", "deals", "positions", ...) starts or changes stage; `total`
    /// if known, `done` already (a resumed run).
    fn start(&mut self, total: Option<u64>, done: u64, what: &str) {
        let _ = (total, done, what);
    }

    /// `done` items so far, with a short message such as the best game so far. Returning
    /// false asks the command to stop at the next unit boundary and report what it has.
    fn progress(&mut self, done: u64, message: Option<&str>) -> bool {
        let _ = (done, message);
        true
    }

    /// The work of the current stage is over (a progress bar is cleared).
    fn finish(&mut self) {}

    /// Something the person running the command should know but that does not stop it
    /// (the CLI writes `bmn: warning: TEXT` to stderr).
    fn warning(&mut self, text: &str) {
        let _ = text;
    }

    /// A line for the person running the command: a resumed run, a warning, how to resume an
    /// interrupted one (the CLI writes it to stderr).
    fn note(&mut self, line: &str) {
        let _ = line;
    }
}

/// An observer that sees nothing and never stops a command.
pub struct Quiet;

impl Observer for Quiet {}
