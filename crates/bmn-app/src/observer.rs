//! `Observer`: how a long command reports to whoever runs it, without printing.
//!
//! The CLI draws a progress bar on a terminal (elsewhere, a line every few seconds), the web
//! page streams the same events, the Python package checks for Ctrl-C between them. Commands
//! call these hooks from the thread that called the command, as units of work finish and at
//! least every 200 ms. Progress is reported through bmn-job's `Hooks`, which the libraries'
//! long jobs take, so an observer is passed to them as it is.

use bmn_job::{Hooks, Quiet};

/// The hooks of a long command: [`Hooks`] (stages and progress, as every long job of the
/// libraries reports them), and the lines meant for the person running it. Every method has a
/// default that does nothing.
pub trait Observer: Hooks {
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

/// bmn-job's hooks that see nothing and never stop a job see no lines either.
impl Observer for Quiet {}
