//! The commands and their own arguments (clap derive); the flags they share are the families
//! of `args.rs`, flattened in, and re-described (`mut_arg`) where a command means more by one
//! or gives it another default, so each command's help tells its own truth.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};

use crate::args::{
    CompletionsArgs, DeckArg, DotArg, EngineArgs, GiveUpArg, LeaderArg, LedgerArgs, LimitArg,
    OutputArg, PlayersArg, PlotArg, RulesArgs, SeedArg, ShardArg, ThreadsArg, TopArg, decks, whole,
};

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
    #[command(after_long_help = CENSUS_AT_SCALE)]
    Census(CensusArgs),
    /// The completion script of a shell, on stdout: e.g. `bmn completions bash >
    /// ~/.local/share/bash-completion/completions/bmn`.
    Completions(CompletionsArgs),
    /// The manual page (roff), on stdout: `bmn man | man -l -`, or `bmn man > bmn.1`.
    Man,
}

#[derive(Args, Debug)]
pub struct ClimbArgs {
    #[command(flatten)]
    pub seed: SeedArg,
    /// Climb for this long: 90s, 10m, 2h (whole rounds).
    #[arg(long, value_name = "DURATION", conflicts_with = "evals")]
    pub time: Option<String>,
    /// Evaluations (games played) in all, whole rounds [default: 10000000 unless --time].
    #[arg(long, value_name = "N")]
    pub evals: Option<u64>,
    #[command(flatten)]
    pub threads: ThreadsArg,
    /// Start from these deals (deal text, #K) or from the deals in FILE (one per line, or a
    /// `bmn search --json` report, whose longest games are taken); random deals otherwise.
    /// Repeat it for several.
    #[arg(long, value_name = "FILE|DEAL", allow_hyphen_values = true)]
    pub start: Vec<String>,
    #[command(flatten)]
    pub top: TopArg,
    #[command(flatten)]
    pub ledger: LedgerArgs,
    /// Balanced deals: both hands hold the same kinds, and edits keep them so.
    #[arg(long)]
    pub balanced: bool,
    /// What a long game is: cards (default) or tricks.
    #[arg(long, value_name = "cards|tricks")]
    pub by: Option<String>,
    /// Walkers climbing at once [default: 16].
    #[arg(long, value_name = "W")]
    pub walkers: Option<usize>,
    /// Neighbours each walker plays per round [default: 32].
    #[arg(long, value_name = "K")]
    pub neighbours: Option<usize>,
    /// The edits: swap, shift, cut, exchange, mixed, or a list such as swap,cut [default: swap].
    #[arg(long, value_name = "MOVES")]
    pub moves: Option<String>,
    /// The acceptance rule: hill (with restarts), anneal or population [default: hill].
    #[arg(long, value_name = "RULE")]
    pub accept: Option<String>,
    /// Rounds without a new best of its own before a walker restarts [default: 5].
    #[arg(long, value_name = "R")]
    pub restart: Option<u32>,
    /// Annealing's starting temperature, in the objective's units [default: 200].
    #[arg(long, value_name = "T")]
    pub temperature: Option<f64>,
    /// Annealing's cooling factor per round [default: 0.995].
    #[arg(long, value_name = "C")]
    pub cooling: Option<f64>,
    #[command(flatten)]
    pub output: OutputArg,
}

const RANK_DECK: &str = concat!(
    "Rank the deal among the deals of this deck, whose cards it must hold exactly: ",
    decks!(),
    " [default: the deal's own cards]"
);

#[derive(Args, Debug)]
#[command(mut_arg("deck", |a| a.help(RANK_DECK)))]
pub struct RankArgs {
    /// The deal (any notation `bmn play` reads); its hands must have the sizes round-robin
    /// dealing from the leader gives. "-" reads it from stdin.
    #[arg(allow_hyphen_values = true)]
    pub deal: String,
    #[command(flatten)]
    pub leader: LeaderArg,
    #[command(flatten)]
    pub deck: DeckArg,
    #[command(flatten)]
    pub output: OutputArg,
}

#[derive(Args, Debug)]
pub struct UnrankArgs {
    /// The rank, from 0 (a whole number of any size).
    #[arg(value_parser = whole, allow_negative_numbers = true)]
    pub rank: String,
    #[command(flatten)]
    pub deck: DeckArg,
    #[command(flatten)]
    pub players: PlayersArg,
    #[command(flatten)]
    pub leader: LeaderArg,
    #[command(flatten)]
    pub output: OutputArg,
}

#[derive(Args, Debug)]
pub struct ServeArgs {
    /// The address to listen on: 127.0.0.1 keeps the page to this machine; 0.0.0.0 opens it to
    /// the network (the page has no login: a warning says so).
    #[arg(long, default_value = "127.0.0.1", value_name = "ADDR")]
    pub bind: String,
    /// The port (0: any free port).
    #[arg(long, default_value_t = 8080, value_name = "PORT")]
    pub port: u16,
    /// The atlas's catalogues: every *.json in DIR (the --json of `bmn census` or `bmn pieces
    /// factory`) instead of those compiled in (docs/catalogue/).
    #[arg(long, value_name = "DIR")]
    pub catalogue: Option<std::path::PathBuf>,
}

const PLAY_DECK: &str = concat!(
    "Check that the hands hold exactly this deck: ",
    decks!(),
    ". Unchecked unless given (the hands hold any cards); with DEAL \"#K\" or --rank K, deal K \
     is one of this deck (standard unless given)"
);
const PLAY_PLAYERS: &str = "Check that the deal has this many hands (2 to 10); unchecked \
    unless given (as many players as the deal has hands). With DEAL \"#K\" or --rank K, deal K \
    is dealt among this many players (2 unless given)";
const PLAY_GIVE_UP: &str = "Give up on a game that has neither ended nor repeated a position \
    after this many tricks, with an error that says so (some penalty tables make games \
    millions of tricks long; --tricks K shows where it got to) [default: 10000000]";
const PLAY_PLOT: &str = "Draw every player's stack size, trick by trick, into FILE (.svg or .png)";
const PLAY_DOT: &str = "Write the game's positions as a Graphviz DOT graph to FILE (render: \
    `dot -Tsvg FILE > out.svg`): one node per position, one edge per trick, the cycle in red, \
    the start outlined twice";

#[derive(Args, Debug)]
#[command(
    mut_arg("deck", |a| a.help(PLAY_DECK)),
    mut_arg("players", |a| a.help(PLAY_PLAYERS)),
    mut_arg("give_up", |a| a.help(PLAY_GIVE_UP)),
    mut_arg("plot", |a| a.help(PLAY_PLOT)),
    mut_arg("dot", |a| a.help(PLAY_DOT)),
)]
pub struct PlayArgs {
    /// The deal, hands separated by '/', top card first: e.g. "--K---A----AAJ-/J-". Symbols
    /// (-JQKAX), Paulhus digits 0-5, or real cards ("9C JH 10s Q♠"); "#K" is deal K of the
    /// deck (`bmn unrank`). "-" reads it from stdin.
    #[arg(allow_hyphen_values = true, required_unless_present = "rank")]
    pub deal: Option<String>,
    /// Play deal K of --deck (standard unless given) instead: the same as DEAL "#K".
    #[arg(long, value_name = "K", conflicts_with = "deal", value_parser = whole, allow_negative_numbers = true)]
    pub rank: Option<String>,
    #[command(flatten)]
    pub leader: LeaderArg,
    /// Print every position, trick by trick: `1. <stack> 2. <stack> (leader N)`.
    #[arg(long)]
    pub trace: bool,
    /// Stop after K tricks (or earlier if the game ends) and print the position reached.
    #[arg(long, value_name = "K")]
    pub tricks: Option<u64>,
    #[command(flatten)]
    pub deck: DeckArg,
    #[command(flatten)]
    pub players: PlayersArg,
    #[command(flatten)]
    pub rules: RulesArgs,
    #[command(flatten)]
    pub plot: PlotArg,
    #[command(flatten)]
    pub dot: DotArg,
    #[command(flatten)]
    pub give_up: GiveUpArg,
    #[command(flatten)]
    pub output: OutputArg,
}

#[derive(Args, Debug)]
pub struct SearchArgs {
    /// How many random deals to play [default: 1000000 unless --time is given].
    #[arg(long, value_name = "N", conflicts_with = "time")]
    pub games: Option<u64>,
    /// Play for this long instead: 90s, 10m, 2h, 1d. The result is that of the whole units
    /// finished, so it equals a --games run of the same count.
    #[arg(long, value_name = "DURATION")]
    pub time: Option<String>,
    #[command(flatten)]
    pub seed: SeedArg,
    #[command(flatten)]
    pub threads: ThreadsArg,
    #[command(flatten)]
    pub top: TopArg,
    #[command(flatten)]
    pub shard: ShardArg,
    /// Write the result to FILE (a self-describing JSON file for `bmn merge`), rewritten every
    /// second; if FILE holds this run's unfinished result, the run resumes from it.
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
    #[command(flatten)]
    pub ledger: LedgerArgs,
    /// Only deals where every player holds the same number of each kind of card.
    #[arg(long)]
    pub balanced: bool,
    #[command(flatten)]
    pub deck: DeckArg,
    #[command(flatten)]
    pub players: PlayersArg,
    #[command(flatten)]
    pub rules: RulesArgs,
    #[command(flatten)]
    pub engine: EngineArgs,
    #[command(flatten)]
    pub output: OutputArg,
}

const BENCH_THREADS: &str = "Worker threads each engine is timed on [default: 1]. Results do \
    not depend on it";

#[derive(Args, Debug)]
#[command(mut_arg("threads", |a| a.help(BENCH_THREADS)))]
pub struct BenchArgs {
    /// Random deals played by every engine (the same deals for each) [default: 300000].
    #[arg(long, value_name = "N")]
    pub games: Option<usize>,
    #[command(flatten)]
    pub deck: DeckArg,
    #[command(flatten)]
    pub threads: ThreadsArg,
    #[command(flatten)]
    pub seed: SeedArg,
    #[command(flatten)]
    pub output: OutputArg,
}

const EXHAUSTIVE_DECK: &str = concat!(
    "The deck whose every deal is played: ",
    decks!(),
    " (required unless --merge; a deck of more than 2^64 - 1 deals, such as the standard \
     deck, is played in blocks: --from and --count, or --block)"
);
const EXHAUSTIVE_MAX_TRICKS: &str = "Games still going after this many tricks go to exact cycle \
    detection (any cap gives the same results) [default: 1000]";

#[derive(Args, Debug)]
#[command(
    mut_arg("deck", |a| a.required_unless_present("merge").help(EXHAUSTIVE_DECK)),
    mut_arg("max_tricks", |a| a.help(EXHAUSTIVE_MAX_TRICKS)),
)]
pub struct ExhaustiveArgs {
    #[command(flatten)]
    pub deck: DeckArg,
    #[command(flatten)]
    pub leader: LeaderArg,
    #[command(flatten)]
    pub rules: RulesArgs,
    /// Also list every cycling deal with its preperiod (Paulhus's Table 2).
    #[arg(long)]
    pub list_cycles: bool,
    #[command(flatten)]
    pub shard: ShardArg,
    /// Play only the deals of ranks K..K+M (with --count M; ranks as `bmn rank` gives them,
    /// of any size): a block of a deck too big to play whole, such as the standard deck.
    #[arg(long, value_name = "K", conflicts_with = "block", value_parser = whole, allow_negative_numbers = true)]
    pub from: Option<String>,
    /// How many deals from --from (0 if --from is not given).
    #[arg(long, value_name = "M", conflicts_with = "block", value_parser = whole, allow_negative_numbers = true)]
    pub count: Option<String>,
    /// Play only block B (from 0) of --block-size deals: ranks B*M..(B+1)*M.
    #[arg(long, value_name = "B", value_parser = whole, allow_negative_numbers = true)]
    pub block: Option<String>,
    /// Deals in a block [default: 1000000000].
    #[arg(long, value_name = "M", requires = "block", value_parser = whole, allow_negative_numbers = true)]
    pub block_size: Option<String>,
    /// Keep the run's state in FILE: resumed from it if it exists (same deck, leader and
    /// shard), rewritten every second and at the end. Interrupt with Ctrl-C at any time.
    #[arg(long, value_name = "FILE")]
    pub checkpoint: Option<PathBuf>,
    #[command(flatten)]
    pub ledger: LedgerArgs,
    /// Merge the checkpoints of finished shards of one run and report them as one run (the
    /// same as `bmn merge FILE...`).
    #[arg(long, value_name = "FILE", num_args = 1.., conflicts_with_all = ["deck", "shard", "checkpoint"])]
    pub merge: Vec<PathBuf>,
    #[command(flatten)]
    pub threads: ThreadsArg,
    #[command(flatten)]
    pub engine: EngineArgs,
    #[command(flatten)]
    pub output: OutputArg,
}

#[derive(Args, Debug)]
pub struct BackwardArgs {
    /// The position, hands separated by '/', top card first; a hand may be empty ("----/" is a
    /// finished game). "-" reads it from stdin.
    #[arg(allow_hyphen_values = true)]
    pub position: String,
    #[command(flatten)]
    pub leader: LeaderArg,
    #[command(flatten)]
    pub rules: RulesArgs,
    #[command(flatten)]
    pub output: OutputArg,
}

const BASIN_DOT: &str = "Write the basin's positions as a Graphviz DOT graph to FILE (render: \
    `dot -Tsvg FILE > out.svg`, or `sfdp` for big basins): one node per position, one edge per \
    trick, the cycle in red, balanced starting deals filled green, the position given outlined \
    twice";

#[derive(Args, Debug)]
#[command(mut_arg("dot", |a| a.help(BASIN_DOT)))]
pub struct BasinArgs {
    /// A position (hands may be empty); its basin is every position that reaches the same cycle
    /// (players renamed or not) or, if its game finishes, the same final position.
    #[arg(allow_hyphen_values = true)]
    pub position: String,
    #[command(flatten)]
    pub leader: LeaderArg,
    /// List the balanced starting deals with their game lengths (JSON always lists them).
    #[arg(long)]
    pub balanced: bool,
    #[command(flatten)]
    pub limit: LimitArg,
    #[command(flatten)]
    pub dot: DotArg,
    #[command(flatten)]
    pub rules: RulesArgs,
    #[command(flatten)]
    pub output: OutputArg,
}

#[derive(Args, Debug)]
pub struct ExtendArgs {
    /// A deal whose game finishes (e.g. a record game).
    #[arg(allow_hyphen_values = true)]
    pub deal: String,
    #[command(flatten)]
    pub leader: LeaderArg,
    /// Tricks to search backward from each position of the game [default: 10].
    #[arg(long, value_name = "D")]
    pub depth: Option<u64>,
    #[command(flatten)]
    pub limit: LimitArg,
    #[command(flatten)]
    pub top: TopArg,
    #[command(flatten)]
    pub rules: RulesArgs,
    #[command(flatten)]
    pub output: OutputArg,
}

#[derive(Args, Debug)]
pub struct TreesArgs {
    /// How many random final positions (player 1 holds every card) to sample.
    #[arg(
        long,
        value_name = "N",
        required_unless_present = "all",
        conflicts_with = "all"
    )]
    pub samples: Option<u64>,
    /// Measure every final position instead (small decks): the exact mean, and the exact
    /// number of positions that never finish.
    #[arg(long)]
    pub all: bool,
    #[command(flatten)]
    pub deck: DeckArg,
    #[command(flatten)]
    pub players: PlayersArg,
    #[command(flatten)]
    pub seed: SeedArg,
    /// Stop counting a tree at this many positions (the mean is then a lower bound)
    /// [default: 1000000].
    #[arg(long, value_name = "M")]
    pub cap: Option<u64>,
    #[command(flatten)]
    pub rules: RulesArgs,
    #[command(flatten)]
    pub output: OutputArg,
}

#[derive(Args, Debug)]
pub struct PiecesArgs {
    #[command(subcommand)]
    pub command: PiecesCommand,
}

#[derive(Subcommand, Debug)]
pub enum PiecesCommand {
    /// Candidate pieces in increasing size, kept if the test template never ends.
    Search(PieceSearchArgs),
    /// Standard decks Δ1 J Δ2 J Δ3 J - / J - from found pieces, then balanced deals backward.
    Construct(ConstructArgs),
    /// Balanced deals that never end, from scratch: endless games (from pieces, or a random
    /// search at other tables), walked toward balance; a catalogue of the cycles reached.
    Factory(FactoryArgs),
}

#[derive(Args, Debug)]
pub struct FactoryArgs {
    #[command(flatten)]
    pub seed: SeedArg,
    /// Walk for this long: 90s, 30m (whole rounds).
    #[arg(long, value_name = "DURATION", conflicts_with = "rounds")]
    pub time: Option<String>,
    /// Rounds of walks [default: 200 unless --time].
    #[arg(long, value_name = "N")]
    pub rounds: Option<u64>,
    #[command(flatten)]
    pub deck: DeckArg,
    #[command(flatten)]
    pub players: PlayersArg,
    #[command(flatten)]
    pub rules: RulesArgs,
    #[command(flatten)]
    pub threads: ThreadsArg,
    /// Cycles whose closest positions are edited each round [default: 16].
    #[arg(long, value_name = "W")]
    pub walkers: Option<usize>,
    /// Edits of each per round [default: 64].
    #[arg(long, value_name = "K")]
    pub neighbours: Option<usize>,
    /// The edits [default: give,transfer,swap,shift].
    #[arg(long, value_name = "MOVES")]
    pub moves: Option<String>,
    /// Positions a basin search may visit per cycle [default: 20000].
    #[arg(long, value_name = "M")]
    pub basin_limit: Option<u64>,
    /// Endless games to start from [default: 60 decks of pieces; 200 cycling deals at other
    /// tables].
    #[arg(long, value_name = "N")]
    pub seeds: Option<u64>,
    /// Also start from decks around third pieces searched by their cards: the piece that fills
    /// the test template to the deck (`template`, the default at the standard two-player
    /// table: a search of some minutes), the pieces that complete the deck from any two pool
    /// pieces (`pairs`, the default where the template does not fit, e.g. Camicia: hours on
    /// the standard deck), or none beyond the pool's decks (`none`)
    #[arg(long, value_name = "template|pairs|none")]
    pub complete: Option<String>,
    /// With `--complete pairs`, search only completions of at most L cards
    #[arg(long, value_name = "L")]
    pub complete_max_len: Option<u32>,
    /// Grow pieces from the completion's pieces: search every piece that begins as one of
    /// their forms does up to player 2's high water (the most cards it holds during a pass),
    /// up to L cards longer than that form; 0 turns it off [default: 3]
    #[arg(long, value_name = "L")]
    pub grow: Option<u32>,
    #[command(flatten)]
    pub output: OutputArg,
}

const CENSUS_AT_SCALE: &str = "\
A census at any scale (docs/census.md): every deal is the one method that reaches every class
of cycle. Price it first, then enumerate in shards and give the census their files:

  bmn census --deck camicia --plan --cores 1000
  # Slurm: one shard per array task, then the census once every task has succeeded
  export BMN=$HOME/bin/bmn BMN_DECK=camicia BMN_OUT_DIR=$PWD/results
  jobid=$(sbatch --parsable --array=0-999 --cpus-per-task=16 examples/slurm/census-array.sh)
  sbatch --dependency=afterok:\"${jobid%%;*}\" examples/slurm/census.sh
  # Kubernetes: examples/k8s/enumeration-job.yaml, then examples/k8s/census-job.yaml
  # by hand, or on a GPU (--kernel gpu), with the same files:
  bmn exhaustive --deck camicia --list-cycles --shard 7/1000 --checkpoint results/enumeration-7.json
  bmn census --deck camicia --methods deals --enumeration results/enumeration-*.json

Measured on Camicia (1.94e14 deals), 2026-11-26: 96 s per billion deals on 2 Zen 4 threads
(10.4 M deals/s: 215 days), 4.6 s per billion on one NVIDIA H200 (216.8 M deals/s: 10.3 days).";

#[derive(Args, Debug)]
pub struct CensusArgs {
    #[command(flatten)]
    pub seed: SeedArg,
    #[command(flatten)]
    pub deck: DeckArg,
    #[command(flatten)]
    pub players: PlayersArg,
    #[command(flatten)]
    pub rules: RulesArgs,
    #[command(flatten)]
    pub threads: ThreadsArg,
    /// Methods, comma-separated: `pieces` (the factory: Casella's construction, walks),
    /// `hands` (every position where a player holds at most --hands cards), `deals` (every
    /// deal, the truth, on decks of at most --deals-max deals) [default: all that apply]
    #[arg(long, value_name = "LIST")]
    pub methods: Option<String>,
    /// The small hand's largest size for `hands` [default: 2]
    #[arg(long, value_name = "M")]
    pub hands: Option<usize>,
    /// How long `hands` runs when its subspace is too big to finish (over 3e9 positions), or
    /// at most when given [default: 60s]
    #[arg(long, value_name = "DURATION")]
    pub hands_time: Option<String>,
    /// `deals` plays decks of at most this many deals [default: 400000000 for two players,
    /// 20000000 at other tables, which the reference engine plays]
    #[arg(long, value_name = "N")]
    pub deals_max: Option<u64>,
    /// Positions a basin search may visit per cycle [default: 1000000]
    #[arg(long, value_name = "M")]
    pub basin_limit: Option<u64>,
    /// Rounds of the factory's walks [default: the factory's, 200]
    #[arg(long, value_name = "N")]
    pub rounds: Option<u64>,
    /// The result files of every shard of one `bmn exhaustive --list-cycles` run (--out or
    /// --checkpoint of each): `deals` reads them instead of playing, on any deck. The deck
    /// and penalties are theirs unless given; files `bmn merge` refuses are refused
    #[arg(long, value_name = "FILE", num_args = 1..)]
    pub enumeration: Vec<PathBuf>,
    /// Play nothing: time a short sample of the deck's deals and print what every deal (the
    /// complete census) would take here, on --cores cores and on a GPU
    #[arg(long)]
    pub plan: bool,
    /// Cores the --plan's cluster line assumes [default: 1000]
    #[arg(long, value_name = "N", requires = "plan")]
    pub cores: Option<usize>,
    #[command(flatten)]
    pub output: OutputArg,
}

/// `--filter`: the piece the template tests candidates behind.
#[derive(Args, Debug, Clone)]
pub struct FilterArg {
    /// The known piece the template tests candidates behind (docs/rules.md's filter)
    /// [default: --K---A----AA].
    #[arg(long, value_name = "P", allow_hyphen_values = true)]
    pub filter: Option<String>,
}

const PIECES_GIVE_UP: &str = "Give up on a template game that has neither ended nor repeated a \
    position after this many tricks, and count it as unresolved [default: 1000000]";

#[derive(Args, Debug)]
#[command(mut_arg("give_up", |a| a.help(PIECES_GIVE_UP)))]
pub struct PieceSearchArgs {
    #[command(flatten)]
    pub filter: FilterArg,
    /// Longest candidate, in cards (every string of - Q K A up to it) [default: 12].
    #[arg(long, value_name = "L")]
    pub max_len: Option<u32>,
    /// Only arrangements of these faces, e.g. "Q4,K3,A1" (any number of plain cards up to
    /// --max-len) or "Q4,K3,A1,-23" (exactly 23 plain cards).
    #[arg(long, value_name = "FACES", allow_hyphen_values = true)]
    pub faces: Option<String>,
    /// Only candidates that begin with these cards, e.g. "--------K---------Q-" (the first 20
    /// cards of Casella's piece, after which player 2 holds 22 cards)
    #[arg(long, value_name = "P", allow_hyphen_values = true)]
    pub prefix: Option<String>,
    #[command(flatten)]
    pub threads: ThreadsArg,
    #[command(flatten)]
    pub give_up: GiveUpArg,
    /// Also list every form of each piece (text output).
    #[arg(long)]
    pub forms: bool,
    #[command(flatten)]
    pub output: OutputArg,
}

#[derive(Args, Debug)]
#[command(mut_arg("give_up", |a| a.help(PIECES_GIVE_UP)))]
pub struct ConstructArgs {
    #[command(flatten)]
    pub seed: SeedArg,
    /// Decks to draw and play [default: 2000].
    #[arg(long, value_name = "DECKS")]
    pub budget: Option<u64>,
    /// The pool: every piece up to this length... [default: 14]
    #[arg(long, value_name = "L")]
    pub max_len: Option<u32>,
    /// ...and every piece of at most one face up to this length [default: 30].
    #[arg(long, value_name = "L")]
    pub sparse_len: Option<u32>,
    /// Extra pieces for the pool by face list, e.g. "Q4,K3,A1,-23" (repeatable).
    #[arg(long, value_name = "FACES", allow_hyphen_values = true)]
    pub faces: Vec<String>,
    /// Only decks built around a piece of exactly these cards, e.g. "Q4,K3,A1,-23"
    /// (searched and added to the pool): a rare long piece is otherwise almost never drawn.
    #[arg(long, value_name = "FACES", allow_hyphen_values = true)]
    pub around: Option<String>,
    #[command(flatten)]
    pub filter: FilterArg,
    /// Positions a basin search may visit per cycle [default: 2000000].
    #[arg(long, value_name = "M")]
    pub basin_limit: Option<u64>,
    #[command(flatten)]
    pub threads: ThreadsArg,
    #[command(flatten)]
    pub give_up: GiveUpArg,
    #[command(flatten)]
    pub output: OutputArg,
}

#[derive(Args, Debug)]
pub struct MergeArgs {
    /// Result files (`bmn search --out`, `bmn exhaustive --checkpoint`) of every shard of one
    /// run, in any order: refused if one is missing, given twice, unfinished, corrupt or of
    /// another run.
    #[arg(required = true, value_name = "FILE")]
    pub files: Vec<PathBuf>,
    #[command(flatten)]
    pub output: OutputArg,
}

const RECORDS_PLOT: &str = "Draw record length against year (cards and tricks) into FILE (.svg \
    or .png)";

#[derive(Args, Debug)]
#[command(mut_arg("plot", |a| a.help(RECORDS_PLOT)))]
pub struct RecordsArgs {
    /// Exit with an error if any record disagrees with the reference engine.
    #[arg(long)]
    pub verify: bool,
    #[command(flatten)]
    pub plot: PlotArg,
    #[command(flatten)]
    pub output: OutputArg,
}

const DEAL_SEED: &str = "Seed of the stream: deal K (--index) is a function of (seed, K) only \
    [default: drawn from the clock; stderr says which, to deal it again]";

#[derive(Args, Debug)]
#[command(mut_arg("seed", |a| a.help(DEAL_SEED)))]
pub struct DealArgs {
    #[command(flatten)]
    pub deck: DeckArg,
    #[command(flatten)]
    pub players: PlayersArg,
    #[command(flatten)]
    pub seed: SeedArg,
    /// Which deal of the seed's stream: deal K is the one `bmn search` and `bmn stats` with
    /// the same seed, table and --balanced play as game K (from 0) [default: 0].
    #[arg(long, value_name = "K")]
    pub index: Option<u64>,
    /// Every player holds the same number of each kind of card.
    #[arg(long)]
    pub balanced: bool,
    #[command(flatten)]
    pub output: OutputArg,
}

const STATS_PLOT: &str = "Draw the length distribution on a log scale, uniform against balanced \
    deals, into FILE (.svg or .png)";

#[derive(Args, Debug)]
#[command(mut_arg("plot", |a| a.help(STATS_PLOT)))]
pub struct StatsArgs {
    /// How many random deals to play [default: 1000000].
    #[arg(long, value_name = "N")]
    pub games: Option<u64>,
    #[command(flatten)]
    pub deck: DeckArg,
    #[command(flatten)]
    pub players: PlayersArg,
    #[command(flatten)]
    pub rules: RulesArgs,
    /// Only deals where every player holds the same number of each kind of card.
    #[arg(long)]
    pub balanced: bool,
    #[command(flatten)]
    pub seed: SeedArg,
    #[command(flatten)]
    pub threads: ThreadsArg,
    #[command(flatten)]
    pub engine: EngineArgs,
    #[command(flatten)]
    pub plot: PlotArg,
    #[command(flatten)]
    pub output: OutputArg,
}

#[derive(Args, Debug)]
pub struct CountArgs {
    #[command(flatten)]
    pub deck: DeckArg,
    #[command(flatten)]
    pub players: PlayersArg,
    #[command(flatten)]
    pub output: OutputArg,
}

#[derive(Args, Debug)]
pub struct DevicesArgs {
    #[command(flatten)]
    pub output: OutputArg,
}

#[derive(Args, Debug)]
pub struct OddsArgs {
    /// Also report the expected record after N games (e.g. 1e12), besides the published
    /// history (3.2e9, 1e13 and 3.3e15 games).
    #[arg(long, value_name = "N")]
    pub games: Option<f64>,
    /// The length in cards whose chance and expected time to report [default: one card more
    /// than the record].
    #[arg(long, value_name = "C")]
    pub target_cards: Option<u64>,
    /// Games per second for the times [default: this machine's, measured by the fit run].
    #[arg(long, value_name = "R")]
    pub rate: Option<f64>,
    /// Random standard two-player deals played to fit the model and time this machine
    /// [default: 2000000].
    #[arg(long, value_name = "N")]
    pub fit_games: Option<u64>,
    #[command(flatten)]
    pub seed: SeedArg,
    #[command(flatten)]
    pub threads: ThreadsArg,
    /// Use this tail mean (cards) instead of a fit; needs --x0 and --p0.
    #[arg(long, value_name = "M", requires_all = ["x0", "p0"])]
    pub mu: Option<f64>,
    /// Where the exponential tail starts (cards); with --mu and --p0.
    #[arg(long, value_name = "X", requires_all = ["mu", "p0"])]
    pub x0: Option<f64>,
    /// Share of all games at least --x0 cards long; with --mu and --x0.
    #[arg(long, value_name = "P", requires_all = ["mu", "x0"])]
    pub p0: Option<f64>,
    #[command(flatten)]
    pub output: OutputArg,
}
