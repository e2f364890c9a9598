//! The `bmn` binary: parses the command line, runs the command, ends with its exit code
//! (`exit.rs` holds the table).

#![forbid(unsafe_code)]

mod about;
mod args;
mod callgrind;
mod cli;
mod commands;
mod exit;
mod output;
mod progress;
mod stop;

use std::process::ExitCode;

use clap::FromArgMatches;

use crate::cli::Cli;

fn main() -> ExitCode {
    let parsed = about::command()
        .try_get_matches()
        .and_then(|m| Cli::from_arg_matches(&m));
    let cli = match parsed {
        Ok(cli) => cli,
        Err(err) => {
            let args: Vec<String> = std::env::args().skip(1).collect();
            return exit::refuse(&err, about::positional_tip(&err, &args));
        }
    };
    let run = bmn_app::input::simd_limit().map_err(anyhow::Error::from);
    exit::end(run.and_then(|_| commands::run(cli.command)))
}
