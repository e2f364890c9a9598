//! Which command runs: a dispatch and nothing else. Each command's flags are mapped to its
//! bmn-app request, beside the flags, in `cli/`.

use anyhow::Result;

use crate::cli::{Command, PiecesCommand, backward, census, exhaustive, pieces, play, search};
use crate::progress::Bar;

pub fn run(command: Command) -> Result<()> {
    let bar = &mut Bar::default();
    match command {
        Command::Play(a) => play::play(a),
        Command::Search(a) => search::search(a, bar),
        Command::Bench(a) => a.run(),
        Command::Exhaustive(a) => exhaustive::exhaustive(a, bar),
        Command::Merge(a) => exhaustive::merge(a),
        Command::Backward(a) => backward::backward(a),
        Command::Basin(a) => backward::basin(a, bar),
        Command::Extend(a) => backward::extend(a, bar),
        Command::Trees(a) => backward::trees(a, bar),
        Command::Pieces(p) => match p.command {
            PiecesCommand::Search(a) => pieces::search(a, bar),
            PiecesCommand::Construct(a) => pieces::construct(a, bar),
            PiecesCommand::Factory(a) => pieces::factory(a, bar),
        },
        Command::Records(a) => play::records(a),
        Command::Deal(a) => play::deal(a),
        Command::Stats(a) => search::stats(a, bar),
        Command::Count(a) => play::count(a),
        Command::Devices(a) => search::devices(a),
        Command::Serve(a) => a.run(),
        Command::Census(a) => census::census(a, bar),
        Command::Family(a) => census::family(a),
        Command::Climb(a) => pieces::climb(a, bar),
        Command::Rank(a) => play::rank(a),
        Command::Unrank(a) => play::unrank(a),
        Command::Completions(a) => crate::about::completions(&a),
        Command::Man => crate::about::man(),
        Command::Odds(a) => search::odds(a, bar),
    }
}
