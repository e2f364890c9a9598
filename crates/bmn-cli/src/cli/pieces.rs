//! `pieces` (`search`, `construct`, `factory`) and `climb`: building long and endless games.
//! Each command's flags, and its `run`: the flags as its bmn-app request, the report printed.

use anyhow::Result;
use bmn_app::input::TimeInput;
use bmn_app::pieces::ConstructRequest;
use bmn_app::pieces::PieceSearchRequest;
use bmn_job::Job;
use clap::Args;
use clap::Subcommand;

use crate::args::{
    DeckArg, GiveUpArg, LedgerArgs, OutputArg, PlayersArg, RulesArgs, SeedArg, ThreadsArg, TopArg,
    table,
};
use crate::exit::finished;
use crate::output::emit;
use crate::progress::Bar;
use crate::stop::stop_on_ctrl_c;

#[derive(Args, Debug)]
pub struct ClimbArgs {
    #[command(flatten)]
    pub seed: SeedArg,
    /// Climb for this long: 90s, 10m, 2h (whole rounds).
    #[arg(
        long,
        value_name = "DURATION",
        conflicts_with = "evals",
        allow_hyphen_values = true
    )]
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

impl ClimbArgs {
    /// `bmn climb`: the flags as its request, the report printed.
    pub fn run(self, bar: &mut Bar) -> Result<()> {
        let req = bmn_app::climb::ClimbRequest {
            seed: self.seed.seed,
            time: self.time.map(TimeInput::from),
            evals: self.evals,
            threads: self.threads.threads,
            starts: crate::output::start_deals(&self.start)?,
            top: self.top.top,
            ledger: self.ledger.choice(),
            balanced: self.balanced,
            by: self.by,
            walkers: self.walkers,
            neighbours: self.neighbours,
            moves: self.moves,
            accept: self.accept,
            restart: self.restart,
            temperature: self.temperature,
            cooling: self.cooling,
        };
        let report = bmn_app::climb::climb(&req, &mut Job::new(bar, stop_on_ctrl_c()))?;
        emit(&report, self.output.json)?;
        finished(!report.interrupted)
    }
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
    #[arg(
        long,
        value_name = "DURATION",
        conflicts_with = "rounds",
        allow_hyphen_values = true
    )]
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

impl FactoryArgs {
    /// `bmn pieces factory`: the flags as its request, the report printed.
    pub fn run(self, bar: &mut Bar) -> Result<()> {
        let req = bmn_app::factory::FactoryRequest {
            seed: self.seed.seed,
            time: self.time.map(TimeInput::from),
            rounds: self.rounds,
            table: table(self.deck, self.players, false),
            rules: self.rules.input(),
            threads: self.threads.threads,
            walkers: self.walkers,
            neighbours: self.neighbours,
            moves: self.moves,
            basin_limit: self.basin_limit,
            seeds: self.seeds,
            complete: self.complete,
            complete_max_len: self.complete_max_len,
            grow: self.grow,
        };
        let report = bmn_app::factory::factory(&req, &mut Job::new(bar, stop_on_ctrl_c()))?;
        emit(&report, self.output.json)?;
        finished(!report.interrupted)
    }
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

impl PieceSearchArgs {
    /// `bmn pieces search`: the flags as its request, the report printed.
    pub fn run(self, bar: &mut Bar) -> Result<()> {
        let req = PieceSearchRequest {
            filter: self.filter.filter,
            max_len: self.max_len,
            faces: self.faces,
            prefix: self.prefix,
            threads: self.threads.threads,
            give_up: self.give_up.give_up,
            forms: self.forms,
        };
        let report = bmn_app::pieces::search(&req, &mut Job::new(bar, stop_on_ctrl_c()))?;
        emit(&report, self.output.json)?;
        finished(!report.interrupted)
    }
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

impl ConstructArgs {
    /// `bmn pieces construct`: the flags as its request, the report printed.
    pub fn run(self, bar: &mut Bar) -> Result<()> {
        let req = ConstructRequest {
            seed: self.seed.seed,
            budget: self.budget,
            max_len: self.max_len,
            sparse_len: self.sparse_len,
            faces: self.faces,
            around: self.around,
            filter: self.filter.filter,
            basin_limit: self.basin_limit,
            threads: self.threads.threads,
            give_up: self.give_up.give_up,
        };
        let report = bmn_app::pieces::construct(&req, &mut Job::new(bar, stop_on_ctrl_c()))?;
        emit(&report, self.output.json)?;
        finished(!report.interrupted)
    }
}
