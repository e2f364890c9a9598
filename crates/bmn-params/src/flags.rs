//! The parameter families: each parameter that several commands take is declared once here
//! (its name, type, help and the library default it names) and flattened into every request
//! that takes it, so it has one name and one meaning on the command line, in the web API and in
//! Python. A request whose parameter says more or has another default re-describes it where it
//! flattens it (`mut_arg`), so no command's help carries another's caveats. Defaults left as
//! `None` are the plans' (each command's constants).
//!
//! Every number a user types is read by [`numbers::count`](crate::numbers::count) and its kin
//! ([`numbers_everywhere`]), so `1e6`, `1_000_000` and `1000000` mean the same to every command
//! and front end.

use std::path::PathBuf;

use bmn_run::LedgerChoice;
use clap::builder::ValueParser;
use clap::{Arg, Args, Command};

use crate::numbers::{count, real, seat};

/// The deck names and compositions `--deck` takes: one text for every command's help.
#[macro_export]
macro_rules! decks {
    () => {
        "standard, camicia, standard+jokers, 2xstandard (any N x), or a composition such as \
         2J,2Q,2K,2A,16-"
    };
}

/// `--deck`.
#[derive(Args, Debug, Clone, Default, PartialEq, Eq)]
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
#[derive(Args, Debug, Clone, Default, PartialEq, Eq)]
pub struct PlayersArg {
    /// Players at the table (2 to 10), player 1 leading [default: 2]. The kernels play two
    /// players; more go to the reference engine.
    #[arg(long, value_name = "P")]
    pub players: Option<usize>,
}

/// `--give-up`.
#[derive(Args, Debug, Clone, Default, PartialEq, Eq)]
pub struct GiveUpArg {
    /// Give up on a game that has neither ended nor repeated a position after this many tricks
    /// and count it as unresolved (some penalty tables make games millions of tricks long)
    /// [default: 100000].
    #[arg(long, value_name = "T")]
    pub give_up: Option<u64>,
}

/// `--seed`.
#[derive(Args, Debug, Clone, Default, PartialEq, Eq)]
pub struct SeedArg {
    /// Seed of the stream: deal (or sample, or deck) k is a function of (seed, k) only
    /// [default: 1].
    #[arg(long, value_name = "S")]
    pub seed: Option<u64>,
}

/// `--threads`.
#[derive(Args, Debug, Clone, Default, PartialEq, Eq)]
pub struct ThreadsArg {
    /// Worker threads [default: every core]. Results do not depend on it.
    #[arg(long, value_name = "T")]
    pub threads: Option<usize>,
}

/// `--db`, `--resume`, `--no-db`: where a long run records its progress.
#[derive(Args, Debug, Clone, Default, PartialEq, Eq)]
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
    /// A run that records nothing (the web API's and Python's, which take none of these).
    pub const NONE: LedgerArgs = LedgerArgs {
        db: None,
        resume: false,
        no_db: true,
    };

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
#[derive(Args, Debug, Clone, Default, PartialEq, Eq)]
pub struct ShardArg {
    /// Play only shard i of N (1-based): N disjoint ranges of the run (units of a seed's
    /// games, or deal indices) that together cover it; `auto` takes i and N from the scheduler
    /// (SLURM_ARRAY_TASK_ID and SLURM_ARRAY_TASK_COUNT, or Kubernetes' JOB_COMPLETION_INDEX
    /// with BMN_SHARDS). Merge the shards' files with `bmn merge`.
    #[arg(long, value_name = "i/N|auto")]
    pub shard: Option<String>,
}

/// `--leader`.
#[derive(Args, Debug, Clone, Default, PartialEq, Eq)]
pub struct LeaderArg {
    /// Who leads, numbered from 1 [default: 1].
    #[arg(long, value_name = "N", value_parser = seat, allow_negative_numbers = true)]
    pub leader: Option<u64>,
}

/// `--limit`.
#[derive(Args, Debug, Clone, Default, PartialEq, Eq)]
pub struct LimitArg {
    /// Stop after this many positions (about 50 bytes of memory each) and say it was cut
    /// short [default: 20000000].
    #[arg(long, value_name = "M")]
    pub limit: Option<u64>,
}

/// `--top`.
#[derive(Args, Debug, Clone, Default, PartialEq, Eq)]
pub struct TopArg {
    /// How many of the longest games to report [default: 10].
    #[arg(long, value_name = "K")]
    pub top: Option<usize>,
}

/// `--plot`.
#[derive(Args, Debug, Clone, Default, PartialEq, Eq)]
pub struct PlotArg {
    /// Draw the command's figure into FILE (.svg or .png).
    #[arg(long, value_name = "FILE")]
    pub plot: Option<PathBuf>,
}

/// `--dot`.
#[derive(Args, Debug, Clone, Default, PartialEq, Eq)]
pub struct DotArg {
    /// Write the positions as a Graphviz DOT graph to FILE (render: `dot -Tsvg FILE > out.svg`):
    /// one node per position, one edge per trick, the cycle in red, the position given
    /// outlined twice.
    #[arg(long, value_name = "FILE")]
    pub dot: Option<PathBuf>,
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

impl From<&str> for DeckArg {
    fn from(deck: &str) -> Self {
        DeckArg {
            deck: Some(deck.to_string()),
        }
    }
}
