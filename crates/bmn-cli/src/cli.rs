//! The command-line interface definition (clap derive): commands, flags and their help.

use clap::{Args, Parser, Subcommand};

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
    Backward(crate::backward::BackwardArgs),
    /// Every position that reaches the same cycle or final position, and the balanced deals among them.
    Basin(crate::backward::BasinArgs),
    /// Search backward from a finishing game for balanced deals whose games are longer.
    Extend(crate::backward::ExtendArgs),
    /// Paulhus's statistic: the mean size of the tree of positions ending in a random final position.
    Trees(crate::backward::TreesArgs),
    /// Casella's Ansatz: search pieces, build non-terminating standard-deck games from them.
    Pieces(crate::pieces::PiecesArgs),
    /// Merge the result files of the shards of one run (search or exhaustive) into its report.
    Merge(MergeArgs),
    /// The longest known games, each replayed by the engine (--verify fails on a disagreement).
    Records(RecordsArgs),
    /// Deal one random deal in deal notation, ready to paste into `bmn play`.
    Deal(DealArgs),
    /// The length distribution and the wins by seat over many random deals, with plots.
    Stats(StatsArgs),
    /// The exact number of distinct deals of a deck at a table, and of balanced deals.
    Count(crate::count::CountArgs),
    /// The odds of a new record: an exponential-tail model of the longest of N games, fitted here.
    Odds(crate::odds::OddsArgs),
}

/// The table of the commands that deal: how many players and which deck.
#[derive(Args, Debug, Clone)]
pub struct TableArgs {
    /// Players at the table (2 to 10); player 1 leads every deal. The kernels play two
    /// players; more go to the reference engine.
    #[arg(long, default_value_t = 2, value_name = "P")]
    pub players: usize,
    /// The deck: standard, camicia, standard+jokers, 2xstandard (any N x), or a composition
    /// such as 2J,2Q,2K,2A,16-.
    #[arg(long, default_value = "standard", value_name = "DECK")]
    pub deck: String,
}

/// How the commands that play many random deals play them.
#[derive(Args, Debug, Clone)]
pub struct EngineArgs {
    /// Kernel to use (default: the fastest this CPU runs): portable, lockstep, avx2, avx512.
    #[arg(long, value_name = "NAME")]
    pub kernel: Option<String>,
    /// Reference engine only (more players, other penalty tables): a game that has neither
    /// ended nor repeated a position after this many tricks is counted as unresolved.
    #[arg(long, default_value_t = bmn_search::DEFAULT_GIVE_UP, value_name = "T")]
    pub give_up: u64,
    /// Games still going after this many tricks go to exact cycle detection.
    #[arg(long, default_value_t = bmn_kernel::DEFAULT_MAX_TRICKS, value_name = "M")]
    pub max_tricks: u32,
}

/// Where a long run records its progress, so that it can be resumed.
#[derive(Args, Debug, Clone)]
pub struct DbArgs {
    /// The run database (SQLite) this run records its progress in, every second [default:
    /// $BMN_DB, else $XDG_STATE_HOME/bmn/runs.sqlite, else ~/.local/state/bmn/runs.sqlite].
    #[arg(long, value_name = "FILE", conflicts_with = "no_db")]
    pub db: Option<std::path::PathBuf>,
    /// Continue the latest unfinished run of the same parameters (and shard) recorded in the
    /// database, e.g. after the machine died or the run was killed; nothing is lost or
    /// counted twice.
    #[arg(long)]
    pub resume: bool,
    /// Record nothing.
    #[arg(long, conflicts_with = "resume")]
    pub no_db: bool,
}

/// Options shared by every command that plays a game.
#[derive(Args, Debug, Clone)]
pub struct RulesArgs {
    /// Penalty table, e.g. "J1,Q2,K3,A4" or Knocking Dolly "K3,J2,Q1,A0" (A0: takes the pile at
    /// once); kinds not listed keep their standard value, "A-" makes a kind plain.
    #[arg(long, value_name = "TABLE")]
    pub penalties: Option<String>,
    /// With more than two players, what happens when a payer runs out part-way through a debt:
    /// `pass` the rest to the next player (Paulhus) or the player with dibs `collect`s the pile.
    #[arg(long, value_name = "RULE", default_value = "pass", value_parser = ["pass", "collect"])]
    pub on_empty: String,
}

#[derive(Args, Debug)]
pub struct PlayArgs {
    /// The deal, hands separated by '/', top card first: e.g. "--K---A----AAJ-/J-". Symbols
    /// - J Q K A X, Paulhus digits 0-5, or real cards ("9C JH 10s Q♠"). "-" reads it from stdin.
    #[arg(allow_hyphen_values = true)]
    pub deal: String,
    /// Who leads, numbered from 1.
    #[arg(long, default_value_t = 1, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub leader: u64,
    /// Print every position, trick by trick: `1. <stack> 2. <stack> (leader N)`.
    #[arg(long)]
    pub trace: bool,
    /// Stop after K tricks (or earlier if the game ends) and print the position reached.
    #[arg(long, value_name = "K")]
    pub tricks: Option<u64>,
    /// Check that the hands hold exactly this deck (e.g. standard, camicia, 2J,2Q,2K,2A,16-).
    #[arg(long, value_name = "DECK")]
    pub deck: Option<String>,
    /// Check that the deal has this many hands (2 to 10).
    #[arg(long, value_name = "P")]
    pub players: Option<usize>,
    #[command(flatten)]
    pub rules: RulesArgs,
    /// Draw every player's stack size trick by trick into FILE (.svg or .png): the whole
    /// game, up to --tricks, or through one turn of its cycle.
    #[arg(long, value_name = "FILE")]
    pub plot: Option<std::path::PathBuf>,
    /// Write the game as a Graphviz DOT graph to FILE (render: `dot -Tsvg FILE > out.svg`):
    /// one node per position, one edge per trick, the cycle in red.
    #[arg(long, value_name = "FILE")]
    pub dot: Option<std::path::PathBuf>,
    /// Give up on a game that has neither ended nor repeated a position after this many
    /// tricks (some penalty tables make games millions of tricks long).
    #[arg(long, default_value_t = 10_000_000, value_name = "T")]
    pub give_up: u64,
    /// Print one JSON object instead of text.
    #[arg(long)]
    pub json: bool,
}

#[derive(Args, Debug)]
pub struct SearchArgs {
    /// How many random deals to play (default 1000000 unless --time is given).
    #[arg(long, value_name = "N", conflicts_with = "time")]
    pub games: Option<u64>,
    /// Play for this long instead: 90s, 10m, 2h, 1d. The result is that of the whole units
    /// finished, so it equals a --games run of the same count.
    #[arg(long, value_name = "DURATION")]
    pub time: Option<String>,
    /// Seed of the deal stream: deal k is a function of (seed, k) only.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Worker threads (default: every core). Results do not depend on it.
    #[arg(long, value_name = "T")]
    pub threads: Option<usize>,
    /// How many of the longest games to report.
    #[arg(long, default_value_t = 10, value_name = "K")]
    pub top: usize,
    /// Play only shard i of N (1-based) of the --games: N disjoint ranges of the seed's deal
    /// stream; `auto` takes i and N from the scheduler (SLURM_ARRAY_TASK_ID and
    /// SLURM_ARRAY_TASK_COUNT, or Kubernetes' JOB_COMPLETION_INDEX with BMN_SHARDS).
    #[arg(long, value_name = "i/N|auto")]
    pub shard: Option<String>,
    /// Write the result to FILE (a self-describing JSON file for `bmn merge`), rewritten every
    /// second; if FILE holds this run's unfinished result, the run resumes from it.
    #[arg(long, value_name = "FILE")]
    pub out: Option<std::path::PathBuf>,
    #[command(flatten)]
    pub db: DbArgs,
    /// Only deals where every player holds the same number of each kind of card.
    #[arg(long)]
    pub balanced: bool,
    #[command(flatten)]
    pub table: TableArgs,
    #[command(flatten)]
    pub rules: RulesArgs,
    #[command(flatten)]
    pub engine: EngineArgs,
    /// Print one JSON object instead of text.
    #[arg(long)]
    pub json: bool,
}

#[derive(Args, Debug)]
pub struct BenchArgs {
    /// Random deals played by every engine (the same deals for each).
    #[arg(long, default_value_t = 300_000, value_name = "N")]
    pub games: usize,
    /// The deck the two-player deals are drawn from: standard, camicia or a composition such
    /// as 2J,2Q,2K,2A,16- (at most 64 cards, the kernels' limit).
    #[arg(long, default_value = "standard", value_name = "SPEC")]
    pub deck: String,
    /// Threads per engine.
    #[arg(long, default_value_t = 1, value_name = "T")]
    pub threads: usize,
    /// Seed of the deals.
    #[arg(long, default_value_t = 2026)]
    pub seed: u64,
    /// Print one JSON object instead of text.
    #[arg(long)]
    pub json: bool,
}

#[derive(Args, Debug)]
pub struct ExhaustiveArgs {
    /// The deck: a composition such as 2J,2Q,2K,2A,16- or 1J,1Q,1K,1A,20-, or camicia; every
    /// distinct arrangement is a deal, its first half player 1's stack.
    #[arg(long, value_name = "SPEC", required_unless_present = "merge")]
    pub deck: Option<String>,
    /// Who leads every deal, numbered from 1.
    #[arg(long, default_value_t = 1, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub leader: u64,
    #[command(flatten)]
    pub rules: RulesArgs,
    /// Also list every cycling deal with its preperiod (Paulhus's Table 2).
    #[arg(long)]
    pub list_cycles: bool,
    /// Play only shard i of N (1-based): N disjoint ranges of deal indices that together
    /// cover every deal; merge their checkpoints with --merge.
    #[arg(long, value_name = "i/N")]
    pub shard: Option<String>,
    /// Keep the run's state in FILE: resumed from it if it exists (same deck, leader and
    /// shard), rewritten every second and at the end. Interrupt with Ctrl-C at any time.
    #[arg(long, value_name = "FILE")]
    pub checkpoint: Option<std::path::PathBuf>,
    #[command(flatten)]
    pub db: DbArgs,
    /// Merge the checkpoints of finished shards of one deck and report them as one run.
    #[arg(long, value_name = "FILE", num_args = 1.., conflicts_with_all = ["deck", "shard", "checkpoint"])]
    pub merge: Vec<std::path::PathBuf>,
    /// Worker threads (default: every core). Results do not depend on it.
    #[arg(long, value_name = "T")]
    pub threads: Option<usize>,
    /// Kernel to use (default: the fastest this CPU runs): portable, lockstep, avx2, avx512.
    #[arg(long, value_name = "NAME")]
    pub kernel: Option<String>,
    /// Print one JSON object instead of text.
    #[arg(long)]
    pub json: bool,
}

#[derive(Args, Debug)]
pub struct DealArgs {
    #[command(flatten)]
    pub table: TableArgs,
    /// Seed of the deal stream (default: one drawn from the clock, printed so the deal can be
    /// dealt again).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Which deal of the seed's stream: deal K is the one `bmn search` and `bmn stats` with
    /// the same seed, table and --balanced play as game K (from 0).
    #[arg(long, default_value_t = 0, value_name = "K")]
    pub index: u64,
    /// Every player holds the same number of each kind of card.
    #[arg(long)]
    pub balanced: bool,
    /// Print one JSON object instead of text.
    #[arg(long)]
    pub json: bool,
}

#[derive(Args, Debug)]
pub struct StatsArgs {
    /// How many random deals to play.
    #[arg(long, default_value_t = 1_000_000, value_name = "N")]
    pub games: u64,
    #[command(flatten)]
    pub table: TableArgs,
    #[command(flatten)]
    pub rules: RulesArgs,
    /// Only deals where every player holds the same number of each kind of card.
    #[arg(long)]
    pub balanced: bool,
    /// Seed of the deal stream: deal k is a function of (seed, k) only.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Worker threads (default: every core). Results do not depend on it.
    #[arg(long, value_name = "T")]
    pub threads: Option<usize>,
    #[command(flatten)]
    pub engine: EngineArgs,
    /// Draw the length distribution on a log scale into FILE (.svg or .png): uniform and
    /// balanced deals on one plot (the other kind is played too, as many games).
    #[arg(long, value_name = "FILE")]
    pub plot: Option<std::path::PathBuf>,
    /// Print one JSON object instead of text.
    #[arg(long)]
    pub json: bool,
}

#[derive(Args, Debug)]
pub struct MergeArgs {
    /// Result files (`bmn search --out`, `bmn exhaustive --checkpoint`) of every shard of one
    /// run, in any order: refused if one is missing, given twice, unfinished, corrupt or of
    /// another run.
    #[arg(required = true, value_name = "FILE")]
    pub files: Vec<std::path::PathBuf>,
    /// Print one JSON object instead of text.
    #[arg(long)]
    pub json: bool,
}

#[derive(Args, Debug)]
pub struct RecordsArgs {
    /// Exit with an error if any record disagrees with the reference engine.
    #[arg(long)]
    pub verify: bool,
    /// Draw record length against year, cards and tricks, into FILE (.svg or .png).
    #[arg(long, value_name = "FILE")]
    pub plot: Option<std::path::PathBuf>,
    /// Print one JSON object instead of text.
    #[arg(long)]
    pub json: bool,
}
