//! How `bmn` ends: the exit codes (one table, shown by `bmn --help` and kept in README.md),
//! and every refusal in one style, `bmn: error: ...` on one line, clap's own included.

use std::io::ErrorKind;
use std::process::ExitCode;

use clap::error::{ContextKind, ContextValue, ErrorKind as ClapKind};

use crate::output::{BadInput, is_broken_pipe};

/// The exit codes, as `bmn --help` ends. README.md holds the same rows (a test compares them).
pub const TABLE: &str = "\
Exit codes:
  0    done (also when whoever reads the output stops early, as `bmn ... | head` does)
  1    failed: the machine or its environment (a file that cannot be written, a busy port,
       a kernel that disagrees), or a bug in bmn
  2    bad input: a flag, value, deal or file that is wrong, missing or not a bmn file
       (`bmn` alone, with its help on stderr, too)
  130  stopped by Ctrl-C (or SIGTERM, SIGHUP) before finishing: the report covers the work
       finished; a run that records its progress goes on from it (--resume, or the same
       --out or --checkpoint file)";

/// Bad input, the second row of [`TABLE`].
const BAD_INPUT: u8 = 2;
/// A run stopped part-way, the last row of [`TABLE`]: 128 + SIGINT, what a shell reports
/// for a command that Ctrl-C killed, so scripts that test for it already work.
const STOPPED: u8 = 130;

/// A long run that Ctrl-C (or SIGTERM, SIGHUP) stopped before it finished: its report has
/// been printed and its own note on stderr says what was kept, so nothing more is said.
#[derive(Debug)]
pub struct Stopped;

impl std::fmt::Display for Stopped {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("stopped before finishing")
    }
}

impl std::error::Error for Stopped {}

/// `Ok` for a run that finished, [`Stopped`] for one that did not.
pub fn finished(done: bool) -> anyhow::Result<()> {
    if done { Ok(()) } else { Err(Stopped.into()) }
}

/// Says why the command failed, if it did, and gives its exit code.
pub fn end(run: anyhow::Result<()>) -> ExitCode {
    let Err(err) = run else {
        return ExitCode::SUCCESS;
    };
    if is_broken_pipe(&err) {
        return ExitCode::SUCCESS;
    }
    if err.is::<Stopped>() {
        return ExitCode::from(STOPPED);
    }
    eprintln!("bmn: error: {}", one_line(&err));
    // A command a signal stopped before it could answer (an odds fit left too short) was
    // stopped all the same.
    if crate::stop::requested() {
        return ExitCode::from(STOPPED);
    }
    ExitCode::from(if is_input(&err) { BAD_INPUT } else { 1 })
}

/// The error and its causes, `: `-joined, each said once: an error whose message already
/// quotes its cause (thiserror's `{source}`) would otherwise say it twice. A bmn-app error's
/// message is the whole story (its sources are there for code to inspect), so the walk stops
/// there.
fn one_line(err: &anyhow::Error) -> String {
    let mut line = String::new();
    for cause in err.chain() {
        let text = cause.to_string();
        if !line.contains(&text) {
            if !line.is_empty() {
                line.push_str(": ");
            }
            line.push_str(&text);
        }
        if cause.is::<bmn_app::Error>() {
            break;
        }
    }
    line
}

/// Whether the user can fix it by asking differently: exit code 2.
fn is_input(err: &anyhow::Error) -> bool {
    if err.downcast_ref::<BadInput>().is_some()
        || err
            .downcast_ref::<bmn_app::Error>()
            .is_some_and(bmn_app::Error::is_input)
    {
        return true;
    }
    // `serve --catalogue DIR`: a folder that is not there or holds no catalogue is the user's;
    // one that cannot be read for another reason (permissions, a disk) is the machine's.
    err.downcast_ref::<bmn_serve::AtlasError>()
        .is_some_and(|e| match e {
            bmn_serve::AtlasError::Read { source, .. } => {
                matches!(
                    source.kind(),
                    ErrorKind::NotFound | ErrorKind::NotADirectory
                )
            }
            bmn_serve::AtlasError::Bad { .. } | bmn_serve::AtlasError::Empty(_) => true,
        })
}

/// Ends a command line clap refused: `--help` and `--version` print as they are (stdout, 0);
/// `bmn` alone prints the help on stderr (2, as cargo and ripgrep do); anything else is one
/// line in bmn's style, with `tip` (bmn's own, `about::positional_tip`) or else clap's tip if
/// it has one (2).
pub fn refuse(err: &clap::Error, tip: Option<String>) -> ExitCode {
    match err.kind() {
        ClapKind::DisplayHelp | ClapKind::DisplayVersion => {
            let _ = err.print();
            ExitCode::SUCCESS
        }
        ClapKind::DisplayHelpOnMissingArgumentOrSubcommand => {
            let _ = err.print();
            ExitCode::from(BAD_INPUT)
        }
        _ => {
            eprintln!("bmn: error: {}", what(err));
            if let Some(tip) = tip.or_else(|| clap_tip(err)) {
                eprintln!("bmn: {tip}");
            }
            ExitCode::from(BAD_INPUT)
        }
    }
}

/// What clap refused, on one line. A value bmn's own parsers refused is `bad FLAG: why`, in
/// bmn-app's words for its own refusals (the why quotes the value); anything else is clap's
/// first paragraph, its lines joined.
pub fn what(err: &clap::Error) -> String {
    let arg = match err.get(ContextKind::InvalidArg) {
        Some(ContextValue::String(arg)) => Some(arg.as_str()),
        _ => None,
    };
    let value = match err.get(ContextKind::InvalidValue) {
        Some(ContextValue::String(value)) => Some(value.as_str()),
        _ => None,
    };
    let source = std::error::Error::source(err).map(ToString::to_string);
    if let (ClapKind::ValueValidation, Some(arg), Some(value), Some(source)) =
        (err.kind(), arg, value, &source)
        && source.contains(value)
    {
        let flag = arg.split([' ', '=']).next().unwrap_or(arg);
        return format!("bad {flag}: {source}");
    }
    let rendered = err.render().to_string();
    let first: Vec<&str> = rendered
        .lines()
        .take_while(|l| !l.trim().is_empty())
        .map(str::trim)
        .collect();
    let line = first.join(" ");
    line.strip_prefix("error: ").unwrap_or(&line).to_string()
}

/// Clap's first `tip: ...` line, if it has one.
fn clap_tip(err: &clap::Error) -> Option<String> {
    err.render()
        .to_string()
        .lines()
        .map(str::trim)
        .find(|l| l.starts_with("tip: "))
        .map(String::from)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cause_already_quoted_is_said_once() {
        let io = std::io::Error::new(ErrorKind::NotFound, "No such file or directory");
        let err = anyhow::Error::new(bmn_serve::AtlasError::Read {
            path: "/no/such/dir".into(),
            source: io,
        });
        assert_eq!(
            one_line(&err),
            "reading the catalogue /no/such/dir: No such file or directory"
        );
        assert!(is_input(&err));
        let err = anyhow::anyhow!("outer").context("context");
        assert_eq!(one_line(&err), "context: outer");
        assert!(!is_input(&err));
    }
}
