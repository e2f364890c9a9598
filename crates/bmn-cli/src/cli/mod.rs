//! The commands and their own arguments (clap derive), a module per family of commands, each
//! command's flags beside its `run` (the flags as its bmn-app request, the report printed);
//! the flags they share are the families of `args.rs`, flattened in, and re-described
//! (`mut_arg`) where a command means more by one or gives it another default, so each
//! command's help tells its own truth.

use clap::{Parser, Subcommand};

use bmn_app::backward::{BackwardRequest, BasinRequest, ExtendRequest, TreesRequest};
use bmn_app::census::CensusRequest;
use bmn_app::climb::ClimbRequest;
use bmn_app::count::CountRequest;
use bmn_app::deal::DealRequest;
use bmn_app::exhaustive::ExhaustiveRequest;
use bmn_app::family::FamilyRequest;
use bmn_app::merge::MergeRequest;
use bmn_app::odds::OddsRequest;
use bmn_app::play::PlayRequest;
use bmn_app::rank::{RankRequest, UnrankRequest};
use bmn_app::records::RecordsRequest;
use bmn_app::search::SearchRequest;
use bmn_app::stats::StatsRequest;

use crate::args::{CompletionsArgs, OutputArg, Request};

pub mod backward;
pub mod census;
pub mod exhaustive;
mod given;
pub mod pieces;
pub mod play;
pub mod search;
mod serve;

pub use pieces::{PiecesArgs, PiecesCommand};
pub use search::BenchArgs;
pub use serve::ServeArgs;

#[derive(Parser, Debug)]
#[command(
    name = "bmn",
    version,
    about = "Play, analyse and search Beggar-My-Neighbour (Strip Jack Naked)"
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Play a deal to the end: who wins after how many cards and tricks, or the cycle if it never ends.
    Play(Request<PlayRequest>),
    /// Play random deals on the fast kernels: the longest games, any that never end.
    Search(Request<SearchRequest>),
    /// Time the reference engine and every fast kernel on the same random deals.
    Bench(BenchArgs),
    /// Play every deal of a (reduced) deck: wins, cycles, the longest game (Paulhus's tables).
    Exhaustive(Request<ExhaustiveRequest>),
    /// Every position exactly one trick before a position (backward play).
    Backward(Request<BackwardRequest>),
    /// Every position that reaches the same cycle or final position, and the balanced deals among them.
    Basin(Request<BasinRequest>),
    /// Search backward from a finishing game for balanced deals whose games are longer.
    Extend(Request<ExtendRequest>),
    /// Paulhus's statistic: the mean size of the tree of positions ending in a random final position.
    Trees(Request<TreesRequest>),
    /// Casella's Ansatz: search pieces, build non-terminating standard-deck games from them.
    Pieces(PiecesArgs),
    /// Merge the result files of the shards of one run (search or exhaustive) into its report.
    Merge(Request<MergeRequest>),
    /// The longest known games, each replayed by the engine (--verify fails on a disagreement).
    Records(Request<RecordsRequest>),
    /// Deal one random deal in deal notation, ready to paste into `bmn play`.
    Deal(Request<DealRequest>),
    /// The length distribution and the wins by seat over many random deals, with plots.
    Stats(Request<StatsRequest>),
    /// The exact number of distinct deals of a deck at a table, and of balanced ones.
    Count(Request<CountRequest>),
    /// The GPU adapters this machine offers, numbered for --kernel gpu --device N.
    Devices(OutputArg),
    /// The odds of a new record: an exponential-tail model of the longest of N games, fitted here.
    Odds(Request<OddsRequest>),
    /// A local web page that replays any deal card by card, with its JSON API under /api/.
    Serve(ServeArgs),
    /// The number of a deal: its lexicographic rank among all deals of its deck.
    Rank(Request<RankRequest>),
    /// Local search for long games: walkers edit deals and keep what plays longer.
    Climb(Request<ClimbRequest>),
    /// The deal of a number: deal K of a deck (the inverse of `bmn rank`).
    Unrank(Request<UnrankRequest>),
    /// Every endless game a table has: the cycles with balanced deals that the methods reach
    /// (Casella's pieces, every small hand, every deal where the deck allows or a sharded
    /// enumeration's files give), each with its class and balanced deals, and how complete
    /// the count is
    #[command(after_long_help = census::CENSUS_AT_SCALE)]
    Census(Request<CensusRequest>),
    /// Exact censuses of decks alike but for their plain cards, side by side: endless deals
    /// and cycles by class against n, where each class first appears, a plot.
    Family(Request<FamilyRequest>),
    /// The completion script of a shell, on stdout: e.g. `bmn completions bash >
    /// ~/.local/share/bash-completion/completions/bmn`.
    Completions(CompletionsArgs),
    /// The manual page (roff), on stdout: `bmn man | man -l -`, or `bmn man > bmn.1`.
    Man,
}

/// A long command: its request run as a job (progress on the bar, stopped by Ctrl-C), its
/// report printed, and the exit code of a run stopped before the end where `finished` says so.
pub fn long<R: clap::Args, P: bmn_app::Report>(
    a: Request<R>,
    bar: &mut crate::progress::Bar,
    run: impl FnOnce(&R, &mut bmn_job::Job) -> bmn_app::Result<P>,
    finished: impl FnOnce(&P) -> bool,
) -> anyhow::Result<()> {
    let stop = crate::stop::stop_on_ctrl_c();
    let report = run(&a.request, &mut bmn_job::Job::new(bar, stop))?;
    crate::output::emit(&report, a.output.json)?;
    crate::exit::finished(finished(&report))
}
