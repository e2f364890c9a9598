//! The `bmn` binary: parses the command line, runs the command, maps errors to exit codes.

#![forbid(unsafe_code)]

mod args;
mod cli;
mod commands;
mod output;
mod progress;

use std::process::ExitCode;

use clap::Parser;

use crate::cli::Cli;
use crate::output::BadInput;

fn main() -> ExitCode {
    let cli = Cli::parse();
    let run = bmn_app::input::simd_limit().map_err(anyhow::Error::from);
    match run.and_then(|_| commands::run(cli.command)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) if output::is_broken_pipe(&err) => ExitCode::SUCCESS, // `bmn ... | head`
        Err(err) => {
            eprintln!("bmn: error: {err:#}");
            // 2 for anything the user typed wrong (as clap does for flags), 1 for the rest.
            let input = err.downcast_ref::<BadInput>().is_some()
                || err
                    .downcast_ref::<bmn_app::Error>()
                    .is_some_and(bmn_app::Error::is_input);
            ExitCode::from(if input { 2 } else { 1 })
        }
    }
}
