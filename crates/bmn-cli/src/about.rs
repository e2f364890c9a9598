//! What bmn says of itself: the command line as clap parses it (numbers read alike
//! everywhere, the commands grouped and the exit codes under `--help`, a tip where a positional
//! was given as a flag), the long `--version` (the commit it was built from, the kernels this
//! CPU runs), and the shell completions and man page made from it.

use std::io::{self, Write};
use std::sync::LazyLock;

use clap::CommandFactory;
use clap::error::{ContextKind, ContextValue, ErrorKind as ClapKind};

use bmn_app::flags::numbers_everywhere;

use crate::args::CompletionsArgs;
use crate::cli::Cli;
use crate::exit::TABLE;

/// What `bmn --version` says when the build had no git checkout to ask (a crate's tarball).
const NO_COMMIT: &str = "unknown (built outside a git checkout)";

/// The whole command line: the derive's, with every number read by one parser and the exit
/// codes at the end of `bmn --help`.
pub fn command() -> clap::Command {
    static LONG_VERSION: LazyLock<String> = LazyLock::new(|| {
        long_version(
            option_env!("BMN_COMMIT"),
            option_env!("BMN_COMMIT_DATE"),
            &kernels(),
        )
    });
    let command = numbers_everywhere(Cli::command())
        .after_help(TABLE)
        .long_version(LONG_VERSION.as_str());
    let template = help_template(&command);
    command.help_template(template)
}

/// Where a positional was given as a flag (`bmn play --deal X`): the command line as it
/// should read. A positional that may start with `-` (a deal of plain cards does) takes
/// `--deal` as its value, so clap's own words are about the `X` after it.
pub fn positional_tip(err: &clap::Error, args: &[String]) -> Option<String> {
    if err.kind() != ClapKind::UnknownArgument {
        return None;
    }
    let mut command = command();
    let mut path = Vec::new();
    for arg in args {
        match command.find_subcommand(arg) {
            Some(sub) => {
                path.push(arg.as_str());
                command = sub.clone();
            }
            None => break,
        }
    }
    command.get_positionals().find_map(|positional| {
        let flag = format!("--{}", positional.get_id());
        let at = args.iter().position(|a| *a == flag)?;
        let name = positional
            .get_value_names()
            .and_then(|names| names.first())
            .map_or_else(|| positional.get_id().to_string(), ToString::to_string);
        let value = args.get(at + 1).map_or(name.as_str(), String::as_str);
        Some(format!(
            "tip: {name} is given without a flag name: `bmn {} {value}`",
            path.join(" ")
        ))
    })
}

/// Clap's refusal of an argument that is not UTF-8, which says only that one of them is not,
/// made to name it: its place among `args` (those after the program's name) and its text,
/// read lossily. Any other refusal as it is.
pub fn with_culprit(err: clap::Error, args: &[std::ffi::OsString]) -> clap::Error {
    // An argument that is not UTF-8 and starts `--` (a deal such as `--K-/--J-\xff`) is taken
    // for an unknown flag, whose name clap reads lossily.
    let unknown_lossy = err.kind() == ClapKind::UnknownArgument
        && matches!(
            err.get(ContextKind::InvalidArg),
            Some(ContextValue::String(arg)) if arg.contains('\u{fffd}')
        );
    if err.kind() != ClapKind::InvalidUtf8 && !unknown_lossy {
        return err;
    }
    let Some(at) = args.iter().position(|a| a.to_str().is_none()) else {
        return err;
    };
    // The command the argument was given to: the subcommands named before it.
    let mut command = command();
    let mut path = vec!["bmn".to_string()];
    let mut first = 0;
    for arg in &args[..at] {
        let Some(sub) = arg.to_str().and_then(|a| command.find_subcommand(a)) else {
            break;
        };
        path.push(sub.get_name().to_string());
        command = sub.clone();
        first += 1;
    }
    let culprit = args[at].to_string_lossy();
    let mut named = clap::Error::raw(
        ClapKind::InvalidUtf8,
        format!(
            "argument {} of `{}` ('{}') is not UTF-8 text",
            at + 1 - first,
            path.join(" "),
            culprit.escape_debug()
        ),
    );
    named.insert(
        ContextKind::InvalidValue,
        ContextValue::String(culprit.into_owned()),
    );
    named
}

/// `bmn --help`'s commands by what a user wants, in this order; every command is in one group
/// (a test checks it), `help` among the tools.
const GROUPS: [(&str, &[&str]); 5] = [
    (
        "Play and look",
        &["play", "deal", "rank", "unrank", "count"],
    ),
    (
        "Search and records",
        &["search", "stats", "odds", "records", "climb"],
    ),
    (
        "Every deal, endless games, backward play",
        &[
            "exhaustive",
            "census",
            "family",
            "pieces",
            "backward",
            "basin",
            "extend",
            "trees",
            "merge",
        ],
    ),
    ("The page", &["serve"]),
    ("Tools", &["bench", "devices", "completions", "man", "help"]),
];

/// The root help's template: clap's own, with the commands listed by [`GROUPS`], each with the
/// start of its description (up to a colon, where it runs long).
fn help_template(command: &clap::Command) -> String {
    let about = |name: &str| -> String {
        let text = match name {
            "help" => "Print this message or the help of the given subcommand(s)".to_string(),
            _ => command
                .find_subcommand(name)
                .and_then(|c| c.get_about())
                .map(ToString::to_string)
                .unwrap_or_default(),
        };
        let text = text.trim_end_matches('.');
        match text.split_once(": ") {
            Some((head, _)) if text.len() > 100 => head.to_string(),
            _ => text.to_string(),
        }
    };
    let width = GROUPS
        .iter()
        .flat_map(|(_, names)| names.iter().map(|n| n.len()))
        .max()
        .unwrap_or(0);
    let mut groups = String::new();
    for (heading, names) in GROUPS {
        groups.push_str(&format!("{heading}:\n"));
        for name in names {
            groups.push_str(&format!("  {name:width$}  {}\n", about(name)));
        }
        groups.push('\n');
    }
    format!(
        "{{about-with-newline}}\n{{usage-heading}} {{usage}}\n\n{groups}Options:\n{{options}}{{after-help}}"
    )
}

/// The CPU kernels this machine runs (and `BMN_SIMD` allows), the fastest named.
fn kernels() -> String {
    let (all, best) = bmn_app::input::cpu_kernels();
    format!("{} (fastest: {best})", all.join(", "))
}

/// `bmn --version`'s text after `bmn `: a bug report that quotes it says which build, from
/// which source, chose which kernel.
fn long_version(commit: Option<&str>, date: Option<&str>, kernels: &str) -> String {
    let commit = match (commit, date) {
        (Some(c), Some(d)) => format!("{c} ({d})"),
        (Some(c), None) => c.to_string(),
        (None, _) => NO_COMMIT.to_string(),
    };
    format!(
        "{}\ncommit: {commit}\nkernels: {kernels}",
        env!("CARGO_PKG_VERSION")
    )
}

/// Writes the completion script of `shell` to stdout.
pub fn completions(args: &CompletionsArgs) -> anyhow::Result<()> {
    // Made in memory, then written: clap_complete panics on a failed write, and a closed
    // pipe (`bmn completions zsh | head`) must end quietly, as every command's output does.
    let mut script = Vec::new();
    clap_complete::generate(args.shell, &mut command(), "bmn", &mut script);
    write_out(&script)
}

/// Writes the man page (roff) to stdout.
pub fn man() -> anyhow::Result<()> {
    let mut page = Vec::new();
    clap_mangen::Man::new(command()).render(&mut page)?;
    write_out(&page)
}

fn write_out(bytes: &[u8]) -> anyhow::Result<()> {
    let mut out = io::stdout().lock();
    out.write_all(bytes)?;
    out.flush()?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_positional_given_as_a_flag_gets_a_tip() {
        let args: Vec<String> = ["play", "--deal", "ZZ"].map(String::from).to_vec();
        let err = command()
            .try_get_matches_from(std::iter::once("bmn".to_string()).chain(args.clone()))
            .unwrap_err();
        assert_eq!(err.kind(), ClapKind::UnknownArgument);
        assert_eq!(
            positional_tip(&err, &args).as_deref(),
            Some("tip: DEAL is given without a flag name: `bmn play ZZ`")
        );
        // A flag that is not a positional's name gets clap's own tip, if any.
        let args: Vec<String> = ["play", "--trace", "ZZ", "YY"].map(String::from).to_vec();
        let err = command()
            .try_get_matches_from(std::iter::once("bmn".to_string()).chain(args.clone()))
            .unwrap_err();
        assert_eq!(positional_tip(&err, &args), None);
    }

    #[test]
    fn every_command_is_in_one_group_of_the_help() {
        let command = command();
        let mut grouped: Vec<&str> = GROUPS.iter().flat_map(|(_, n)| n.iter().copied()).collect();
        let mut names: Vec<&str> = command.get_subcommands().map(|c| c.get_name()).collect();
        names.push("help");
        grouped.sort_unstable();
        names.sort_unstable();
        assert_eq!(grouped, names);
        let help = command.clone().render_help().to_string();
        for (heading, _) in GROUPS {
            assert!(help.contains(&format!("{heading}:\n")), "{help}");
        }
    }

    #[test]
    fn the_version_says_where_it_came_from_even_without_git() {
        let v = long_version(Some("0123456789ab"), Some("2026-11-27"), "scalar-queue");
        assert!(v.contains("commit: 0123456789ab (2026-11-27)"), "{v}");
        let v = long_version(
            None,
            None,
            "scalar-planes, scalar-queue (fastest: scalar-queue)",
        );
        assert!(v.contains(&format!("commit: {NO_COMMIT}")), "{v}");
        assert!(
            v.ends_with("kernels: scalar-planes, scalar-queue (fastest: scalar-queue)"),
            "{v}"
        );
    }

    #[test]
    fn the_command_line_is_consistent() {
        command().debug_assert();
    }
}
