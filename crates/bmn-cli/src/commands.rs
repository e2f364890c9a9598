//! Which command runs: a dispatch and nothing else. A long command is `cli::long` over its
//! bmn-app request and function; the others print their reports in `cli/`.

use anyhow::Result;

use bmn_app as app;

use crate::cli::{Command, PiecesCommand, backward, census, exhaustive, long, play, search};
use crate::progress::Bar;

pub fn run(command: Command) -> Result<()> {
    let bar = &mut Bar::default();
    match command {
        Command::Play(a) => play::play(a),
        Command::Search(a) => long(a, bar, app::search::search, |r| !r.interrupted),
        Command::Bench(a) => a.run(),
        Command::Exhaustive(a) => exhaustive::exhaustive(a, bar),
        Command::Merge(a) => exhaustive::merge(a),
        Command::Backward(a) => backward::backward(a),
        Command::Basin(a) => backward::basin(a, bar),
        Command::Extend(a) => backward::extend(a, bar),
        Command::Trees(a) => long(a, bar, app::backward::trees, |r| !r.trees.interrupted),
        Command::Pieces(p) => match p.command {
            PiecesCommand::Search(a) => long(a, bar, app::pieces::search, |r| !r.interrupted),
            PiecesCommand::Construct(a) => long(a, bar, app::pieces::construct, |r| !r.interrupted),
            PiecesCommand::Factory(a) => long(a, bar, app::factory::factory, |r| !r.interrupted),
        },
        Command::Records(a) => play::records(a),
        Command::Deal(a) => play::deal(a),
        Command::Stats(a) => long(a, bar, app::stats::stats, |r| !r.interrupted),
        Command::Count(a) => play::count(a),
        Command::Devices(a) => search::devices(a),
        Command::Serve(a) => a.run(),
        Command::Census(a) => census::census(a, bar),
        Command::Family(a) => census::family(a),
        Command::Climb(a) => long(a, bar, app::climb::climb, |r| !r.interrupted),
        Command::Rank(a) => play::rank(a),
        Command::Unrank(a) => play::unrank(a),
        Command::Completions(a) => crate::about::completions(&a),
        Command::Man => crate::about::man(),
        // Stopped, the model is fitted to the games played, and says so.
        Command::Odds(a) => long(a, bar, app::odds::odds, |r| !r.interrupted),
    }
}
