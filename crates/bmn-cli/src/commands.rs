//! Which command runs: a dispatch and nothing else. Each command's flags are mapped to its
//! bmn-app request, beside the flags, in `cli/`.

use anyhow::Result;

use crate::cli::{Command, PiecesCommand};
use crate::progress::Bar;

pub fn run(command: Command) -> Result<()> {
    let bar = &mut Bar::default();
    match command {
        Command::Play(a) => a.run(),
        Command::Search(a) => a.run(bar),
        Command::Bench(a) => a.run(),
        Command::Exhaustive(a) => a.run(bar),
        Command::Merge(a) => a.run(),
        Command::Backward(a) => a.run(),
        Command::Basin(a) => a.run(bar),
        Command::Extend(a) => a.run(bar),
        Command::Trees(a) => a.run(bar),
        Command::Pieces(p) => match p.command {
            PiecesCommand::Search(a) => a.run(bar),
            PiecesCommand::Construct(a) => a.run(bar),
            PiecesCommand::Factory(a) => a.run(bar),
        },
        Command::Records(a) => a.run(),
        Command::Deal(a) => a.run(),
        Command::Stats(a) => a.run(bar),
        Command::Count(a) => a.run(),
        Command::Devices(a) => a.run(),
        Command::Serve(a) => a.run(),
        Command::Census(a) => a.run(bar),
        Command::Family(a) => a.run(),
        Command::Climb(a) => a.run(bar),
        Command::Rank(a) => a.run(),
        Command::Unrank(a) => a.run(),
        Command::Completions(a) => crate::about::completions(&a),
        Command::Man => crate::about::man(),
        Command::Odds(a) => a.run(bar),
    }
}
