//! `Error`: what a command reports when it cannot answer.

use bmn_run::RunError;
use bmn_run::{SchedulerError, ShardError};

/// Why a command gave no answer. `Input` is the user's to fix and names the flag or value at
/// fault (exit code 2 in the CLI, HTTP 400 on the web, `ValueError` in Python); `Failed` is
/// everything else (a file that cannot be written, kernels that disagree: exit code 1).
/// Shown on one line whatever it quotes ([`one_line`]).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Error {
    #[error("{}", one_line(.0))]
    Input(String),
    #[error("{}", one_line(.0))]
    Failed(String),
}

/// `text` with its control characters escaped (`\n`, `\r`, `\u{0}`): a message quotes what
/// the user typed, and a line break or a terminal escape in it must not reach their screen or
/// a log as if it were bmn's own (found by fuzzing the page).
pub fn one_line(text: &str) -> std::borrow::Cow<'_, str> {
    if !text.chars().any(char::is_control) {
        return text.into();
    }
    text.chars()
        .map(|c| {
            if c.is_control() {
                c.escape_default().to_string()
            } else {
                c.to_string()
            }
        })
        .collect::<String>()
        .into()
}

impl Error {
    /// The user's error, one line.
    pub fn input(message: impl Into<String>) -> Error {
        Error::Input(message.into())
    }

    /// `bad FLAG: error`, the user's error about one flag or value.
    pub fn bad(what: &str, error: impl std::fmt::Display) -> Error {
        Error::Input(format!("{what}: {error}"))
    }

    /// Whether the user can fix it by changing what they gave.
    pub fn is_input(&self) -> bool {
        matches!(self, Error::Input(_))
    }
}

impl From<RunError> for Error {
    fn from(e: RunError) -> Error {
        let input = e.is_input();
        let text = run_message(e);
        if input {
            Error::Input(text)
        } else {
            Error::Failed(text)
        }
    }
}

/// A run's error as the user reads it: bmn-run says what is wrong in its own words, and where
/// the fix is another flag (`--db`, `--resume`, `--no-db`) this layer, which knows the flags,
/// names it.
fn run_message(e: RunError) -> String {
    match e {
        RunError::Input(m) | RunError::Io(m) => m,
        RunError::DatabaseBusy { doing, cause } => format!(
            "{doing} (another process holds the database: wait for it, or give another --db): \
             {cause}"
        ),
        RunError::DatabaseDamaged { doing, cause } => format!(
            "{doing} (the database is damaged: move it away, or give another --db): {cause}"
        ),
        RunError::NotADatabase { doing, cause } => {
            format!("{doing} (the file is not a run database: give another --db): {cause}")
        }
        RunError::NoSuchRun { path } => format!(
            "--resume: {} holds no run with these parameters (start it without --resume)",
            path.display()
        ),
        RunError::NoDatabasePlace => {
            "no place for the run database: set HOME or BMN_DB, give --db, or --no-db".into()
        }
        RunError::ResumeNeedsDatabase => "--resume needs a run database: drop --no-db".into(),
    }
}

/// The warning of a run that goes on unrecorded because the default run database could not
/// be opened (`Opened::warning`).
pub fn not_recording(e: &RunError) -> String {
    format!("not recording this run: {}", run_message(e.clone()))
}

/// `bad --shard: ...` for `i/N`, `--shard auto: ...` for what the scheduler's variables lack:
/// bmn-search's words, with the flag named here.
impl From<ShardError> for Error {
    fn from(e: ShardError) -> Error {
        match e {
            ShardError::Scheduler(SchedulerError::NoIndex) => Error::Input(format!(
                "--shard auto: {}; give --shard i/N",
                SchedulerError::NoIndex
            )),
            ShardError::Scheduler(s) => Error::Input(format!("--shard auto: {s}")),
            e => Error::bad("bad --shard", e),
        }
    }
}

impl From<bmn_plot::PlotError> for Error {
    fn from(e: bmn_plot::PlotError) -> Error {
        Error::Failed(bmn_run::chain(&e))
    }
}

/// Results of this crate.
pub type Result<T> = std::result::Result<T, Error>;

/// `message` in the words of a front end whose parameters are spelled `flag_name` (the web
/// API's query parameters, Python's keywords): bmn-app's messages name the command line's
/// flags (`bad --on-empty`), so each `--flag-name` becomes `flag_name`. (Until input errors are
/// typed by parameter, issue 49, this is the one place the spelling changes.)
pub fn parameter_names(message: &str) -> String {
    let mut out = String::with_capacity(message.len());
    let mut rest = message;
    while let Some(at) = rest.find("--") {
        let (before, flag) = rest.split_at(at);
        out.push_str(before);
        let name_len = flag[2..]
            .find(|c: char| !(c.is_ascii_lowercase() || c == '-'))
            .unwrap_or(flag.len() - 2);
        let name = &flag[2..2 + name_len];
        if name.starts_with(|c: char| c.is_ascii_lowercase()) {
            out.push_str(&name.replace('-', "_"));
        } else {
            out.push_str(&flag[..2 + name_len]); // not a flag: `--` in a deal, say
        }
        rest = &flag[2 + name_len..];
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::Error;
    use super::parameter_names;

    #[test]
    fn the_web_and_python_name_parameters_not_flags() {
        assert_eq!(
            parameter_names("bad --on-empty: 'keep': give pass or collect (--basin-limit too)"),
            "bad on_empty: 'keep': give pass or collect (basin_limit too)"
        );
        // A deal's plain cards are not a flag.
        assert_eq!(parameter_names("bad deal '--K/J-'"), "bad deal '--K/J-'");
    }
    use bmn_run::RunError;
    use bmn_run::{SchedulerError, ShardError};

    /// bmn-run and bmn-search name no flags; the messages users read name them as before.
    #[test]
    fn the_libraries_errors_are_worded_with_the_flags() {
        let cases = [
            (
                RunError::NoSuchRun {
                    path: "r.sqlite".into(),
                }
                .into(),
                true,
                "--resume: r.sqlite holds no run with these parameters (start it without \
                 --resume)",
            ),
            (
                RunError::NoDatabasePlace.into(),
                true,
                "no place for the run database: set HOME or BMN_DB, give --db, or --no-db",
            ),
            (
                RunError::ResumeNeedsDatabase.into(),
                true,
                "--resume needs a run database: drop --no-db",
            ),
            (
                RunError::DatabaseBusy {
                    doing: "opening r".into(),
                    cause: "database is locked".into(),
                }
                .into(),
                false,
                "opening r (another process holds the database: wait for it, or give another \
                 --db): database is locked",
            ),
            (
                RunError::DatabaseDamaged {
                    doing: "opening r".into(),
                    cause: "database disk image is malformed".into(),
                }
                .into(),
                false,
                "opening r (the database is damaged: move it away, or give another --db): \
                 database disk image is malformed",
            ),
            (
                RunError::NotADatabase {
                    doing: "opening r".into(),
                    cause: "file is not a database".into(),
                }
                .into(),
                true,
                "opening r (the file is not a run database: give another --db): file is not a \
                 database",
            ),
            (
                ShardError::NoShards("1/0".into()).into(),
                true,
                "bad --shard: '1/0': N must be at least 1",
            ),
            (
                ShardError::Scheduler(SchedulerError::NoIndex).into(),
                true,
                "--shard auto: no scheduler index found (SLURM_ARRAY_TASK_ID or \
                 JOB_COMPLETION_INDEX); give --shard i/N",
            ),
            (
                ShardError::Scheduler(SchedulerError::Outside { count: 2 }).into(),
                true,
                "--shard auto: the task index is outside the 2 tasks of the array",
            ),
        ];
        for (error, input, text) in cases {
            let error: Error = error;
            assert_eq!(error.is_input(), input, "{error}");
            assert_eq!(error.to_string(), text);
        }
    }

    #[test]
    fn messages_are_one_line() {
        let e = Error::input("bad rank '\u{1b}[2J1\r\n2\u{0}': not a whole number");
        assert_eq!(
            e.to_string(),
            "bad rank '\\u{1b}[2J1\\r\\n2\\u{0}': not a whole number"
        );
        assert_eq!(Error::input("bad deal: 'Q♠'").to_string(), "bad deal: 'Q♠'");
    }
}
