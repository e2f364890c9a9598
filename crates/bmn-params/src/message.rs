//! `Message`: what an error says, bmn's own words and the parameters they name kept apart, so
//! that each front end spells a parameter its own way (`--on-empty` on the command line,
//! `on_empty` in the web API and Python) without rewriting text, and no text the user typed is
//! ever taken for a parameter.

use std::fmt::Display;

/// How a front end spells a parameter.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Spelling {
    /// The command line's flags: `--on-empty`.
    Flags,
    /// The web API's query parameters and Python's keywords: `on_empty`.
    Names,
    /// Names, but for the parameters a front end calls otherwise: `(name, its own)` pairs
    /// (Python's `seconds` for a search's `time`).
    Renamed(&'static [(&'static str, &'static str)]),
}

/// A message: text, and parameters named by the web API's and Python's name (`on_empty`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Message(Vec<Part>);

#[derive(Debug, Clone, PartialEq, Eq)]
enum Part {
    Text(String),
    /// By its web API name (`on_empty`).
    Parameter(String),
}

/// A [`Message`] from a template of bmn's own words and values put in its `{}`: a parameter is
/// written in the template as the command line spells it (`--on-empty`), and only there; the
/// values (what the user typed, a file name, a library's error) are text whatever they hold.
/// A command line quoted in backticks (`` `bmn census --json` ``) is kept as it is.
#[macro_export]
macro_rules! message {
    ($template:literal $(, $value:expr)* $(,)?) => {
        $crate::Message::template($template, &[$(&$value as &dyn std::fmt::Display),*])
    };
}

impl Message {
    /// Text that names no parameter (or names them only as values: a deal's `--K`).
    pub fn text(text: impl Into<String>) -> Message {
        Message(vec![Part::Text(text.into())])
    }

    /// One parameter, by its web API name (`on_empty`).
    pub fn parameter(name: &str) -> Message {
        Message(vec![Part::Parameter(name.to_string())])
    }

    /// See [`message!`]. Panics if the template's `{}` and the values differ in number (a bug
    /// the tests of each message find).
    pub fn template(template: &'static str, values: &[&dyn Display]) -> Message {
        let mut out = Message::default();
        let mut values = values.iter();
        let mut quoted = false;
        let mut rest = template;
        while !rest.is_empty() {
            if let Some(after) = rest.strip_prefix("{}") {
                let value = values.next().expect("a value for each {} of the template");
                out.push_text(&value.to_string());
                rest = after;
            } else if !quoted && let Some((name, after)) = flag(rest) {
                out.0.push(Part::Parameter(name.replace('-', "_")));
                rest = after;
            } else {
                let c = rest.chars().next().expect("not empty");
                quoted ^= c == '`';
                out.push_text(&rest[..c.len_utf8()]);
                rest = &rest[c.len_utf8()..];
            }
        }
        assert!(values.next().is_none(), "a {{}} for each value: {template}");
        out
    }

    /// This message, then `more`.
    pub fn then(mut self, more: Message) -> Message {
        for part in more.0 {
            match part {
                Part::Text(t) => self.push_text(&t),
                p => self.0.push(p),
            }
        }
        self
    }

    /// The message in `spelling`'s words, on one line.
    pub fn spelled(&self, spelling: Spelling) -> String {
        let mut text = String::new();
        for part in &self.0 {
            match (part, spelling) {
                (Part::Text(t), _) => text.push_str(t),
                (Part::Parameter(p), Spelling::Flags) => {
                    text.push_str("--");
                    text.push_str(&p.replace('_', "-"));
                }
                (Part::Parameter(p), Spelling::Names) => text.push_str(p),
                (Part::Parameter(p), Spelling::Renamed(pairs)) => {
                    text.push_str(own_name(pairs, p));
                }
            }
        }
        one_line(&text).into_owned()
    }

    /// The parameters it names, in order.
    pub fn parameters(&self) -> impl Iterator<Item = &str> {
        self.0.iter().filter_map(|p| match p {
            Part::Parameter(name) => Some(name.as_str()),
            Part::Text(_) => None,
        })
    }

    fn push_text(&mut self, text: &str) {
        match self.0.last_mut() {
            Some(Part::Text(t)) => t.push_str(text),
            _ => self.0.push(Part::Text(text.to_string())),
        }
    }
}

impl From<String> for Message {
    fn from(text: String) -> Message {
        Message::text(text)
    }
}

impl From<&str> for Message {
    fn from(text: &str) -> Message {
        Message::text(text)
    }
}

impl std::fmt::Display for Message {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.spelled(Spelling::Flags))
    }
}

/// What a front end calls the parameter `name`, by its `(name, its own)` pairs.
pub fn own_name<'a>(pairs: &[(&'static str, &'static str)], name: &'a str) -> &'a str {
    pairs
        .iter()
        .find(|(ours, _)| *ours == name)
        .map_or(name, |(_, own)| own)
}

/// The parameter a front end calls `own`, by its `(name, its own)` pairs.
pub fn name_of<'a>(pairs: &[(&'static str, &'static str)], own: &'a str) -> &'a str {
    pairs
        .iter()
        .find(|(_, theirs)| *theirs == own)
        .map_or(own, |(name, _)| name)
}

/// `--flag-name` at the start of `text` (a lowercase letter first, then lowercase letters,
/// digits and dashes, not ending in a dash): the flag's name (`flag-name`) and the rest.
fn flag(text: &str) -> Option<(&str, &str)> {
    let body = text.strip_prefix("--")?;
    if !body.starts_with(|c: char| c.is_ascii_lowercase()) {
        return None;
    }
    let len = body
        .find(|c: char| !(c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-'))
        .unwrap_or(body.len());
    let name = body[..len].trim_end_matches('-');
    Some((name, &body[name.len()..]))
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_template_names_its_flags_and_its_values_stay_text() {
        let deal = "--k/--on-empty";
        let m = message!("bad deal '{}': with --on-empty pass, see --x0", deal);
        assert_eq!(
            m.spelled(Spelling::Flags),
            "bad deal '--k/--on-empty': with --on-empty pass, see --x0"
        );
        assert_eq!(
            m.spelled(Spelling::Names),
            "bad deal '--k/--on-empty': with on_empty pass, see x0"
        );
        assert_eq!(m.parameters().collect::<Vec<_>>(), ["on_empty", "x0"]);
    }

    #[test]
    fn a_front_end_renames_the_parameters_it_calls_otherwise() {
        let m = message!("bad --time '{}': see --hands-time and --games", "-3");
        assert_eq!(
            m.spelled(Spelling::Renamed(&[
                ("time", "seconds"),
                ("hands_time", "hands_seconds")
            ])),
            "bad seconds '-3': see hands_seconds and games"
        );
    }

    #[test]
    fn a_quoted_command_line_and_what_is_no_flag_are_kept() {
        let m = message!("give the files of `bmn exhaustive --list-cycles` (-- or --K)");
        assert_eq!(
            m.spelled(Spelling::Names),
            "give the files of `bmn exhaustive --list-cycles` (-- or --K)"
        );
        let m = message!("--resume needs a run database: drop --no-db").then(message!("."));
        assert_eq!(
            m.spelled(Spelling::Names),
            "resume needs a run database: drop no_db."
        );
    }
}
