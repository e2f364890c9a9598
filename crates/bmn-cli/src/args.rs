//! The flag families: each flag is declared once here and flattened into every command that
//! takes it, so it has one name and one meaning everywhere. The help text here is what most
//! commands mean by it; a command whose flag says more or has another default re-describes
//! it where it flattens it (`mut_arg` in its file under `cli/`), so no command's help
//! carries another's caveats. Defaults left as `None` here are the library's (`bmn_app::input::DEFAULT_*` and
//! each command's constants).
//!
//! Every number a user types, flag or argument, is read by [`whole`] and its kin at the end of
//! this file, so `1e6`, `1_000_000` and `1000000` mean the same to every command and a
//! negative or misplaced number gets the same words everywhere.

use std::path::PathBuf;

use bmn_app::LedgerChoice;
use bmn_app::input::{EngineInput, RulesInput, TableInput};
use bmn_app::numbers::{count, real, seat};
use clap::builder::ValueParser;
use clap::{Arg, Args, Command};

/// The deck names and compositions `--deck` takes: one text for every command's help.
macro_rules! decks {
    () => {
        "standard, camicia, standard+jokers, 2xstandard (any N x), or a composition such as \
         2J,2Q,2K,2A,16-"
    };
}
pub(crate) use decks;

/// `--deck`.
#[derive(Args, Debug, Clone, Default)]
pub struct DeckArg {
    /// The deck dealt from [default: standard].
    #[arg(
        long,
        value_name = "DECK",
        help = concat!("The deck dealt from: ", decks!(), " [default: standard]")
    )]
    pub deck: Option<String>,
}

/// `--players`.
#[derive(Args, Debug, Clone, Default)]
pub struct PlayersArg {
    /// Players at the table (2 to 10), player 1 leading [default: 2]. The kernels play two
    /// players; more go to the reference engine.
    #[arg(long, value_name = "P")]
    pub players: Option<usize>,
}

/// `--penalties`, `--on-empty`.
#[derive(Args, Debug, Clone, Default)]
pub struct RulesArgs {
    /// Penalty table, e.g. "J1,Q2,K3,A4" or Knocking Dolly "K3,J2,Q1,A0" (A0: takes the pile at
    /// once); kinds not listed keep their standard value, "A-" makes a kind plain.
    #[arg(long, value_name = "TABLE")]
    pub penalties: Option<String>,
    /// With more than two players, what happens when a payer runs out part-way through a debt:
    /// `pass` the rest to the next player (Paulhus) or the player with the claim `collect`s the pile
    /// [default: pass].
    #[arg(long, value_name = "RULE", value_parser = ["pass", "collect"])]
    pub on_empty: Option<String>,
}

impl RulesArgs {
    pub fn input(&self) -> RulesInput {
        RulesInput {
            penalties: self.penalties.clone(),
            on_empty: self.on_empty.clone(),
        }
    }
}

/// `--give-up`.
#[derive(Args, Debug, Clone, Default)]
pub struct GiveUpArg {
    /// Give up on a game that has neither ended nor repeated a position after this many tricks
    /// and count it as unresolved (some penalty tables make games millions of tricks long)
    /// [default: 100000].
    #[arg(long, value_name = "T")]
    pub give_up: Option<u64>,
}

/// `--kernel`, `--give-up`, `--max-tricks`: how the commands that play many deals play them.
#[derive(Args, Debug, Clone, Default)]
pub struct EngineArgs {
    /// Kernel to use (default: the fastest this CPU runs): portable, lockstep, avx2, avx512;
    /// gpu (a GPU: `bmn devices` lists them), or all (the GPU and the fastest CPU kernel
    /// together). Results never depend on it.
    #[arg(long, value_name = "NAME")]
    pub kernel: Option<String>,
    /// The GPU of --kernel gpu or all, as `bmn devices` numbers them [default: 0].
    #[arg(long, value_name = "N")]
    pub device: Option<usize>,
    #[command(flatten)]
    pub give_up: GiveUpArg,
    /// Games still going after this many tricks go to exact cycle detection (any cap gives the
    /// same results) [default: 3000].
    #[arg(long, value_name = "M")]
    pub max_tricks: Option<u32>,
}

impl EngineArgs {
    pub fn input(&self) -> EngineInput {
        EngineInput {
            kernel: self.kernel.clone(),
            device: self.device,
            give_up: self.give_up.give_up,
            max_tricks: self.max_tricks,
        }
    }
}

/// `--seed`.
#[derive(Args, Debug, Clone, Default)]
pub struct SeedArg {
    /// Seed of the stream: deal (or sample, or deck) k is a function of (seed, k) only
    /// [default: 1].
    #[arg(long, value_name = "S")]
    pub seed: Option<u64>,
}

/// `--threads`.
#[derive(Args, Debug, Clone, Default)]
pub struct ThreadsArg {
    /// Worker threads [default: every core]. Results do not depend on it.
    #[arg(long, value_name = "T")]
    pub threads: Option<usize>,
}

/// `--db`, `--resume`, `--no-db`: where a long run records its progress.
#[derive(Args, Debug, Clone, Default)]
pub struct LedgerArgs {
    /// The run database (SQLite) this run records its progress in, every second [default:
    /// $BMN_DB, else $XDG_STATE_HOME/bmn/runs.sqlite, else ~/.local/state/bmn/runs.sqlite].
    #[arg(long, value_name = "FILE", conflicts_with = "no_db")]
    pub db: Option<PathBuf>,
    /// Continue the latest unfinished run of the same parameters (and shard) recorded in the
    /// database, e.g. after the machine died or the run was killed; nothing is lost or
    /// counted twice.
    #[arg(long)]
    pub resume: bool,
    /// Record nothing.
    #[arg(long, conflicts_with = "resume")]
    pub no_db: bool,
}

impl LedgerArgs {
    pub fn choice(&self) -> LedgerChoice {
        LedgerChoice {
            db: self.db.clone(),
            resume: self.resume,
            no_db: self.no_db,
        }
    }
}

/// `--shard`: only the flag; its text is read where every front end's is, by bmn-app with
/// `bmn_run::Shard::parse_or_auto` (the one place a shard is parsed).
#[derive(Args, Debug, Clone, Default)]
pub struct ShardArg {
    /// Play only shard i of N (1-based): N disjoint ranges of the run (units of a seed's
    /// games, or deal indices) that together cover it; `auto` takes i and N from the scheduler
    /// (SLURM_ARRAY_TASK_ID and SLURM_ARRAY_TASK_COUNT, or Kubernetes' JOB_COMPLETION_INDEX
    /// with BMN_SHARDS). Merge the shards' files with `bmn merge`.
    #[arg(long, value_name = "i/N|auto")]
    pub shard: Option<String>,
}

/// The table of `--deck`, `--players` and `--balanced`.
pub fn table(deck: DeckArg, players: PlayersArg, balanced: bool) -> TableInput {
    TableInput {
        deck: deck.deck,
        players: players.players,
        balanced,
    }
}

/// `bmn completions SHELL`.
#[derive(Args, Debug)]
pub struct CompletionsArgs {
    /// The shell: bash, zsh, fish, elvish or powershell.
    pub shell: clap_complete::Shell,
}

/// `--leader`.
#[derive(Args, Debug, Clone)]
pub struct LeaderArg {
    /// Who leads, numbered from 1 [default: 1].
    #[arg(long, value_name = "N", value_parser = seat, allow_negative_numbers = true)]
    pub leader: Option<u64>,
}

/// `--limit`.
#[derive(Args, Debug, Clone, Default)]
pub struct LimitArg {
    /// Stop after this many positions (about 50 bytes of memory each) and say it was cut
    /// short [default: 20000000].
    #[arg(long, value_name = "M")]
    pub limit: Option<u64>,
}

/// `--top`.
#[derive(Args, Debug, Clone, Default)]
pub struct TopArg {
    /// How many of the longest games to report [default: 10].
    #[arg(long, value_name = "K")]
    pub top: Option<usize>,
}

/// `--plot`.
#[derive(Args, Debug, Clone, Default)]
pub struct PlotArg {
    /// Draw the command's figure into FILE (.svg or .png).
    #[arg(long, value_name = "FILE")]
    pub plot: Option<PathBuf>,
}

/// `--dot`.
#[derive(Args, Debug, Clone, Default)]
pub struct DotArg {
    /// Write the positions as a Graphviz DOT graph to FILE (render: `dot -Tsvg FILE > out.svg`):
    /// one node per position, one edge per trick, the cycle in red, the position given
    /// outlined twice.
    #[arg(long, value_name = "FILE")]
    pub dot: Option<PathBuf>,
}

/// `--json`.
#[derive(Args, Debug, Clone, Default)]
pub struct OutputArg {
    /// Print one JSON object instead of text.
    #[arg(long)]
    pub json: bool,
}

/// `cmd` with every number flag and argument of it and its subcommands read by [`count`]
/// (unsigned integers) or [`real`] (reals), negative numbers taken as values, to be refused
/// in words rather than mistaken for a flag. An argument that already takes negative numbers
/// reads them with its own parser (`--leader`, the ranks) and is left as it is.
pub fn numbers_everywhere(cmd: Command) -> Command {
    fn numeric(arg: Arg) -> Arg {
        if arg.is_allow_negative_numbers_set() {
            return arg;
        }
        let parser = arg.get_value_parser().type_id();
        let ours: Option<ValueParser> = if parser == std::any::TypeId::of::<u64>() {
            Some(ValueParser::new(count::<u64>))
        } else if parser == std::any::TypeId::of::<usize>() {
            Some(ValueParser::new(count::<usize>))
        } else if parser == std::any::TypeId::of::<u32>() {
            Some(ValueParser::new(count::<u32>))
        } else if parser == std::any::TypeId::of::<u16>() {
            Some(ValueParser::new(count::<u16>))
        } else if parser == std::any::TypeId::of::<f64>() {
            Some(ValueParser::new(real))
        } else {
            None
        };
        match ours {
            Some(p) => arg.value_parser(p).allow_negative_numbers(true),
            None => arg,
        }
    }
    let cmd = cmd.mut_args(numeric);
    let names: Vec<String> = cmd
        .get_subcommands()
        .map(|s| s.get_name().to_string())
        .collect();
    names.iter().fold(cmd, |cmd, name| {
        cmd.mut_subcommand(name, numbers_everywhere)
    })
}
