//! Requests from named values: the web API's query parameters and Python's keyword arguments
//! are read through the same clap declaration as the command line's flags (each request type
//! derives `clap::Args`), so a parameter has one name, type, default, number syntax and set of
//! refusals on every front end. The API and Python spell a parameter as its field is named
//! (`on_empty`), the command line in kebab-case (`--on-empty`).

use clap::error::{ContextKind, ContextValue, ErrorKind};
use clap::{Arg, ArgAction, Args, Command, FromArgMatches};

use crate::error::Error;
use crate::flags::numbers_everywhere;
use crate::message::Message;

/// A value as a front end was given it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Value {
    /// Text as typed (a number too, in bmn's one syntax: `1e6`, `1_000_000`).
    Text(String),
    /// A switch (`trace`), or a front end's bool.
    Flag(bool),
    /// Several values (`files`, `enumeration`).
    List(Vec<String>),
}

/// A command's request, whose fields are its parameters (every request type of bmn-app).
pub trait Request: Args + FromArgMatches {}

impl<T: Args + FromArgMatches> Request for T {}

/// Why named values make no request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refusal {
    /// The request has no parameter of this name.
    Unknown(String),
    /// A value of the wrong kind for its parameter (a list for a number, text for a list):
    /// Python's `TypeError`.
    Kind { name: String, why: String },
    /// A value the parameter refuses, in the command line's words with the parameter typed
    /// (`bad games: -1 is negative`).
    Bad(Error),
}

/// How a parameter takes its value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A switch: present or not.
    Switch,
    /// One value.
    One,
    /// Any number of values.
    Many,
}

/// One parameter of a request, as every front end sees it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Parameter {
    /// The field's name (`on_empty`): the web API's and Python's spelling.
    pub name: String,
    pub kind: Kind,
}

/// The command of request `R`, its numbers read as the command line reads them.
fn command<R: Args>() -> Command {
    numbers_everywhere(R::augment_args(
        Command::new("bmn")
            .no_binary_name(true)
            .disable_help_flag(true)
            .disable_version_flag(true),
    ))
}

fn kind(arg: &Arg) -> Kind {
    match arg.get_action() {
        ArgAction::SetTrue | ArgAction::SetFalse => Kind::Switch,
        ArgAction::Append => Kind::Many,
        _ if arg.get_num_args().is_some_and(|n| n.max_values() > 1) => Kind::Many,
        _ => Kind::One,
    }
}

/// Request `R`'s parameters, in the order the command line's help lists them.
pub fn parameters<R: Args>() -> Vec<Parameter> {
    command::<R>()
        .get_arguments()
        .map(|arg| Parameter {
            name: arg.get_id().to_string(),
            kind: kind(arg),
        })
        .collect()
}

/// Request `R` from named values, each read as the command line reads its flag.
pub fn request<R: Request>(given: Vec<(String, Value)>) -> Result<R, Refusal> {
    let command = command::<R>();
    let mut argv: Vec<String> = Vec::new();
    let mut places: Vec<(usize, Vec<String>)> = Vec::new();
    for (name, value) in given {
        let Some(arg) = command
            .get_arguments()
            .find(|a| a.get_id() == name.as_str())
        else {
            return Err(Refusal::Unknown(name));
        };
        let wrong = |why: &str| Refusal::Kind {
            name: name.clone(),
            why: why.to_string(),
        };
        let long = arg.get_long().unwrap_or(&name);
        let kind = kind(arg);
        if kind == Kind::Switch {
            let on = match value {
                Value::Flag(on) => on,
                Value::Text(text) => switch(&name, &text)?,
                Value::List(_) => return Err(wrong("a list is not true or false")),
            };
            if on {
                argv.push(format!("--{long}"));
            }
            continue;
        }
        let values = match value {
            Value::Flag(_) => return Err(wrong("a bool is not a value for it")),
            Value::List(_) if kind == Kind::One => {
                return Err(wrong("it takes one value, not a list"));
            }
            Value::Text(text) => vec![text],
            Value::List(list) => list,
        };
        if arg.is_positional() {
            places.push((arg.get_index().unwrap_or(0), values));
        } else {
            argv.extend(values.into_iter().map(|v| format!("--{long}={v}")));
        }
    }
    // Places after `--`, in order: a deal such as `--K-/J-` is never taken for a flag.
    places.sort_by_key(|(index, _)| *index);
    if !places.is_empty() {
        argv.push("--".into());
        argv.extend(places.into_iter().flat_map(|(_, values)| values));
    }
    let matches = command
        .clone()
        .try_get_matches_from(argv)
        .map_err(|e| Refusal::Bad(refusal(&e, &command)))?;
    R::from_arg_matches(&matches).map_err(|e| Refusal::Bad(refusal(&e, &command)))
}

/// A switch's text as the web API takes it: `true`, `1`, `yes` or `false`, `0`, `no`.
fn switch(name: &str, text: &str) -> Result<bool, Refusal> {
    match text.trim() {
        "true" | "1" | "yes" => Ok(true),
        "false" | "0" | "no" | "" => Ok(false),
        _ => Err(Refusal::Bad(Error::input(
            Message::text("bad ")
                .then(Message::parameter(name))
                .then(Message::text(format!(
                    ": '{}' is not true or false",
                    text.escape_debug()
                ))),
        ))),
    }
}

/// The parameter clap names as `--games <N>`, `<DEAL>` or `[FILE]...`.
fn named<'c>(command: &'c Command, shown: &str) -> Option<&'c Arg> {
    let first = shown.split_whitespace().next()?;
    if let Some(long) = first.strip_prefix("--") {
        return command.get_arguments().find(|a| a.get_long() == Some(long));
    }
    let bare = first.trim_matches(|c| matches!(c, '<' | '>' | '[' | ']' | '.'));
    command.get_positionals().find(|a| {
        a.get_value_names()
            .is_some_and(|names| names.iter().any(|n| n.as_str() == bare))
            || a.get_id().as_str().eq_ignore_ascii_case(bare)
    })
}

fn strings(value: Option<&ContextValue>) -> Vec<String> {
    match value {
        Some(ContextValue::String(s)) => vec![s.clone()],
        Some(ContextValue::Strings(s)) => s.clone(),
        _ => Vec::new(),
    }
}

/// Clap's refusal in bmn's words, each parameter it names typed as one (so each front end
/// spells it its own way).
fn refusal(e: &clap::Error, command: &Command) -> Error {
    let param = |shown: &str| {
        named(command, shown).map_or_else(
            || Message::text(shown),
            |a| Message::parameter(a.get_id().as_str()),
        )
    };
    let arg = strings(e.get(ContextKind::InvalidArg));
    let first = arg.first().map(String::as_str).unwrap_or_default();
    let message = match e.kind() {
        ErrorKind::ValueValidation => {
            let why = std::error::Error::source(e).map_or_else(String::new, |s| s.to_string());
            Message::text("bad ")
                .then(param(first))
                .then(Message::text(format!(": {}", crate::one_line(&why))))
        }
        ErrorKind::InvalidValue => {
            let value = strings(e.get(ContextKind::InvalidValue)).join("");
            let valid = strings(e.get(ContextKind::ValidValue)).join(" or ");
            Message::text("bad ")
                .then(param(first))
                .then(Message::text(format!(
                    " '{}': give {valid}",
                    value.escape_debug()
                )))
        }
        ErrorKind::ArgumentConflict => {
            let prior = strings(e.get(ContextKind::PriorArg));
            let other = prior.first().map(String::as_str).unwrap_or_default();
            Message::text("give ")
                .then(param(first))
                .then(Message::text(" or "))
                .then(param(other))
                .then(Message::text(", not both"))
        }
        ErrorKind::MissingRequiredArgument => Message::text("bad ")
            .then(param(first))
            .then(Message::text(": give one")),
        _ => Message::text(crate::one_line(&e.to_string())),
    };
    Error::input(message)
}
