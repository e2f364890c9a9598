//! `Error`: what a command reports when it cannot answer.

use bmn_run::RunError;

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
        match e {
            RunError::Input(m) => Error::Input(m),
            RunError::Io(m) => Error::Failed(m),
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

#[cfg(test)]
mod tests {
    use super::Error;

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
