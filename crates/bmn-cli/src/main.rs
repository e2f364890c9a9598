//! The `bmn` binary: parses the command line, runs the command, maps errors to exit codes.

mod backward;
mod bench;
mod cli;
mod count;
mod deal;
mod dot;
mod exhaustive;
mod input;
mod merge;
mod odds;
mod output;
mod pieces;
mod play;
mod progress;
mod records;
mod runfile;
mod search;
mod stats;
mod store;

use std::process::ExitCode;

use clap::Parser;

use crate::cli::{Cli, Command};
use crate::input::BadInput;

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Play(args) => play::run(&args),
        Command::Backward(args) => backward::run_backward(&args),
        Command::Basin(args) => backward::run_basin(&args),
        Command::Extend(args) => backward::run_extend(&args),
        Command::Trees(args) => backward::run_trees(&args),
        Command::Pieces(args) => pieces::run(&args),
        Command::Search(args) => search::run(&args),
        Command::Bench(args) => bench::run(&args),
        Command::Exhaustive(args) => exhaustive::run(&args),
        Command::Merge(args) => merge::run(&args),
        Command::Records(args) => records::run(&args),
        Command::Deal(args) => deal::run(&args),
        Command::Stats(args) => stats::run(&args),
        Command::Count(args) => count::run(&args),
        Command::Odds(args) => odds::run(&args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) if output::is_broken_pipe(&err) => ExitCode::SUCCESS, // `bmn ... | head`
        Err(err) => {
            eprintln!("bmn: error: {err:#}");
            // 2 for anything the user typed wrong (as clap does for flags), 1 for the rest.
            ExitCode::from(if err.downcast_ref::<BadInput>().is_some() {
                2
            } else {
                1
            })
        }
    }
}
