//! The commands and their own arguments (clap derive), a module per family of commands, each
//! command's flags beside its `run` (the flags as its bmn-app request, the report printed);
//! the flags they share are the families of `args.rs`, flattened in, and re-described
//! (`mut_arg`) where a command means more by one or gives it another default, so each
//! command's help tells its own truth.

use clap::{Parser, Subcommand};

use crate::args::CompletionsArgs;

mod backward;
mod census;
mod exhaustive;
mod given;
mod pieces;
mod play;
mod search;
mod serve;

pub use backward::{BackwardArgs, BasinArgs, ExtendArgs, TreesArgs};
pub use census::{CensusArgs, FamilyArgs};
pub use exhaustive::{ExhaustiveArgs, MergeArgs};
pub use pieces::{ClimbArgs, PiecesArgs, PiecesCommand};
pub use play::{CountArgs, DealArgs, PlayArgs, RankArgs, RecordsArgs, UnrankArgs};
pub use search::{BenchArgs, DevicesArgs, OddsArgs, SearchArgs, StatsArgs};
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
    Play(PlayArgs),
    /// Play random deals on the fast kernels: the longest games, any that never end.
    Search(SearchArgs),
    /// Time the reference engine and every fast kernel on the same random deals.
    Bench(BenchArgs),
    /// Play every deal of a (reduced) deck: wins, cycles, the longest game (Paulhus's tables).
    Exhaustive(ExhaustiveArgs),
    /// Every position exactly one trick before a position (backward play).
    Backward(BackwardArgs),
    /// Every position that reaches the same cycle or final position, and the balanced deals among them.
    Basin(BasinArgs),
    /// Search backward from a finishing game for balanced deals whose games are longer.
    Extend(ExtendArgs),
    /// Paulhus's statistic: the mean size of the tree of positions ending in a random final position.
    Trees(TreesArgs),
    /// Casella's Ansatz: search pieces, build non-terminating standard-deck games from them.
    Pieces(PiecesArgs),
    /// Merge the result files of the shards of one run (search or exhaustive) into its report.
    Merge(MergeArgs),
    /// The longest known games, each replayed by the engine (--verify fails on a disagreement).
    Records(RecordsArgs),
    /// Deal one random deal in deal notation, ready to paste into `bmn play`.
    Deal(DealArgs),
    /// The length distribution and the wins by seat over many random deals, with plots.
    Stats(StatsArgs),
    /// The exact number of distinct deals of a deck at a table, and of balanced ones.
    Count(CountArgs),
    /// The GPU adapters this machine offers, numbered for --kernel gpu --device N.
    Devices(DevicesArgs),
    /// The odds of a new record: an exponential-tail model of the longest of N games, fitted here.
    Odds(OddsArgs),
    /// A local web page that replays any deal card by card, with its JSON API under /api/.
    Serve(ServeArgs),
    /// The number of a deal: its lexicographic rank among all deals of its deck.
    Rank(RankArgs),
    /// Local search for long games: walkers edit deals and keep what plays longer.
    Climb(ClimbArgs),
    /// The deal of a number: deal K of a deck (the inverse of `bmn rank`).
    Unrank(UnrankArgs),
    /// Every endless game a table has: the cycles with balanced deals that the methods reach
    /// (Casella's pieces, every small hand, every deal where the deck allows or a sharded
    /// enumeration's files give), each with its class and balanced deals, and how complete
    /// the count is
    #[command(after_long_help = census::CENSUS_AT_SCALE)]
    Census(CensusArgs),
    /// Exact censuses of decks alike but for their plain cards, side by side: endless deals
    /// and cycles by class against n, where each class first appears, a plot.
    Family(FamilyArgs),
    /// The completion script of a shell, on stdout: e.g. `bmn completions bash >
    /// ~/.local/share/bash-completion/completions/bmn`.
    Completions(CompletionsArgs),
    /// The manual page (roff), on stdout: `bmn man | man -l -`, or `bmn man > bmn.1`.
    Man,
}
