//! `Error`: what a command reports when it cannot answer.

use bmn_run::RunError;
use bmn_run::{SchedulerError, ShardError};

use crate::message;
use crate::message::{Message, Spelling};

/// Why a command gave no answer. `Input` is the user's to fix and names the parameter or value
/// at fault (exit code 2 in the CLI, HTTP 400 on the web, `ValueError` in Python); `Failed` is
/// everything else (a file that cannot be written, kernels that disagree: exit code 1). Shown
/// on one line whatever it quotes ([`crate::one_line`]), in the command line's words
/// (`--on-empty`); [`Error::spelled`] gives the other front ends' (`on_empty`). Every parameter
/// a message names is typed as one ([`Message`]): no front end rewrites text. The message is
/// the whole story; a library's error it was made from stays at hand, typed, as its
/// [`std::error::Error::source`] ([`Error::caused_by`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Error {
    Input(Input),
    Failed(Message, Option<Cause>),
}

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.spelled(Spelling::Flags))
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        let cause = match self {
            Error::Input(i) => i.cause.as_ref(),
            Error::Failed(_, cause) => cause.as_ref(),
        };
        cause.map(|c| &*c.0 as &(dyn std::error::Error + 'static))
    }
}

/// A library's error, kept with its type beside the message made from it (equal when their
/// texts are: errors are compared in tests by what they say).
#[derive(Debug, Clone)]
pub struct Cause(pub std::sync::Arc<dyn std::error::Error + Send + Sync>);

impl PartialEq for Cause {
    fn eq(&self, other: &Cause) -> bool {
        self.0.to_string() == other.0.to_string()
    }
}

impl Eq for Cause {}

/// The user's error: the parameter at fault, when it is one parameter's, and what is wrong.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Input {
    /// The parameter, by its name in the web API and Python (`on_empty`), which the command
    /// line spells `--on-empty`.
    pub parameter: Option<&'static str>,
    /// What follows `bad PARAMETER` (`: is negative`, ` 'x': not a number`), or the whole
    /// message when no one parameter is at fault, with the other parameters it names typed.
    pub detail: Message,
    /// The library's error the message was made from, if any.
    pub cause: Option<Cause>,
}

impl Input {
    /// The whole message: `bad PARAMETER` and the detail, or the detail alone.
    pub fn message(&self) -> Message {
        match self.parameter {
            Some(p) => message!("bad ")
                .then(Message::parameter(p))
                .then(self.detail.clone()),
            None => self.detail.clone(),
        }
    }

    /// The message in `spelling`'s words, on one line.
    pub fn spelled(&self, spelling: Spelling) -> String {
        self.message().spelled(spelling)
    }
}

impl Error {
    /// The user's error, not one parameter's (a deal, two flags at odds): text, or a
    /// [`message!`] that names parameters.
    pub fn input(message: impl Into<Message>) -> Error {
        Error::Input(Input {
            parameter: None,
            detail: message.into(),
            cause: None,
        })
    }

    /// bmn's failure, not the user's: text, or a [`message!`] that names parameters.
    pub fn failed(message: impl Into<Message>) -> Error {
        Error::Failed(message.into(), None)
    }

    /// This error, with the library's error it was made from kept as its source (its text is
    /// already in the message: a front end shows the message alone).
    pub fn caused_by(self, cause: impl std::error::Error + Send + Sync + 'static) -> Error {
        let cause = Some(Cause(std::sync::Arc::new(cause)));
        match self {
            Error::Input(i) => Error::Input(Input { cause, ..i }),
            Error::Failed(m, _) => Error::Failed(m, cause),
        }
    }

    /// bmn's failure in the library's own words (the error and its causes), the error kept.
    pub fn failed_from(cause: impl std::error::Error + Send + Sync + 'static) -> Error {
        Error::failed(bmn_run::chain(&cause)).caused_by(cause)
    }

    /// `bad PARAMETER: error`: the user's error about one parameter, named as the web API
    /// spells it (`on_empty`).
    pub fn bad(parameter: &'static str, error: impl std::fmt::Display) -> Error {
        Error::bad_with(parameter, format!(": {error}"))
    }

    /// `bad PARAMETER` then `detail` (`: ...`, or ` 'value': ...`).
    pub fn bad_with(parameter: &'static str, detail: impl Into<Message>) -> Error {
        Error::Input(Input {
            parameter: Some(parameter),
            detail: detail.into(),
            cause: None,
        })
    }

    /// Whether the user can fix it by changing what they gave.
    pub fn is_input(&self) -> bool {
        matches!(self, Error::Input(_))
    }

    /// The message in `spelling`'s words, on one line.
    pub fn spelled(&self, spelling: Spelling) -> String {
        match self {
            Error::Input(i) => i.spelled(spelling),
            Error::Failed(m, _) => m.spelled(spelling),
        }
    }
}

impl From<RunError> for Error {
    fn from(e: RunError) -> Error {
        let input = e.is_input();
        let message = run_message(e.clone());
        let error = if input {
            Error::input(message)
        } else {
            Error::failed(message)
        };
        error.caused_by(e)
    }
}

/// A run's error as the user reads it: bmn-run says what is wrong in its own words, and where
/// the fix is another flag (`--db`, `--resume`, `--no-db`) this layer, which knows the flags,
/// names it.
fn run_message(e: RunError) -> Message {
    match e {
        RunError::Input(m) | RunError::Io(m) => Message::text(m),
        RunError::DatabaseBusy { doing, cause } => message!(
            "{} (another process holds the database: wait for it, or give another --db): {}",
            doing,
            cause
        ),
        RunError::DatabaseDamaged { doing, cause } => message!(
            "{} (the database is damaged: move it away, or give another --db): {}",
            doing,
            cause
        ),
        RunError::NotADatabase { doing, cause } => message!(
            "{} (the file is not a run database: give another --db): {}",
            doing,
            cause
        ),
        RunError::NotADatabaseFile { path, why } => message!(
            "bad run database '{}': {} (give another --db, or --no-db)",
            path.display(),
            why
        ),
        RunError::NoSuchRun { path } => message!(
            "--resume: {} holds no run with these parameters (start it without --resume)",
            path.display()
        ),
        RunError::NoDatabasePlace => {
            message!("no place for the run database: set HOME or BMN_DB, give --db, or --no-db")
        }
        RunError::ResumeNeedsDatabase => message!("--resume needs a run database: drop --no-db"),
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
        match &e {
            ShardError::Scheduler(SchedulerError::NoIndex) => Error::input(message!(
                "--shard auto: {}; give --shard i/N",
                SchedulerError::NoIndex
            )),
            ShardError::Scheduler(s) => Error::input(message!("--shard auto: {}", s)),
            other => Error::bad("shard", other),
        }
        .caused_by(e)
    }
}

impl From<bmn_plot::PlotError> for Error {
    fn from(e: bmn_plot::PlotError) -> Error {
        Error::failed_from(e)
    }
}

/// Results of this crate.
pub type Result<T> = std::result::Result<T, Error>;

#[cfg(test)]
mod tests {
    use super::{Error, Spelling};

    #[test]
    fn the_web_and_python_name_parameters_not_flags() {
        // The parameter at fault is typed; each front end spells it.
        let e = Error::bad_with(
            "on_empty",
            " 'keep': give pass or collect (--basin-limit too)",
        );
        let Error::Input(input) = &e else {
            panic!("{e:?}")
        };
        assert_eq!(input.parameter, Some("on_empty"));
        assert_eq!(
            e.to_string(),
            "bad --on-empty 'keep': give pass or collect (--basin-limit too)"
        );
        assert_eq!(
            e.spelled(Spelling::Names),
            "bad on_empty 'keep': give pass or collect (--basin-limit too)"
        );
        let e = Error::bad_with(
            "on_empty",
            crate::message!(" '{}': give pass or collect (--basin-limit too)", "keep"),
        );
        assert_eq!(
            e.spelled(Spelling::Names),
            "bad on_empty 'keep': give pass or collect (basin_limit too)"
        );
        assert_eq!(
            Error::bad("fit_games", "must be at least 1").spelled(Spelling::Names),
            "bad fit_games: must be at least 1"
        );
        // A deal's plain cards are not a flag, nor is anything the user typed.
        assert_eq!(
            Error::bad("deal", "'--on-empty': no such card").spelled(Spelling::Names),
            "bad deal: '--on-empty': no such card"
        );
        assert_eq!(
            Error::input("bad deal '--K/J-'").spelled(Spelling::Names),
            "bad deal '--K/J-'"
        );
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

    /// The message is made from a library's error, which stays at hand, typed, as the source.
    #[test]
    fn the_libraries_errors_are_kept_as_sources() {
        let e: Error = RunError::ResumeNeedsDatabase.into();
        let source = std::error::Error::source(&e).expect("a source");
        assert_eq!(
            source.downcast_ref::<RunError>(),
            Some(&RunError::ResumeNeedsDatabase)
        );
        let e: Error = ShardError::NoShards("1/0".into()).into();
        assert!(std::error::Error::source(&e).is_some_and(|s| s.is::<ShardError>()));
        let e = Error::failed_from(RunError::Io("disk full".into()));
        assert_eq!(e.to_string(), "disk full");
        assert!(std::error::Error::source(&e).is_some_and(|s| s.is::<RunError>()));
        assert!(std::error::Error::source(&Error::input("bad deal")).is_none());
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
