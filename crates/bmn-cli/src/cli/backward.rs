//! `backward`, `basin`, `extend`, `trees`: backward play.
//! Each command's flags, and its `run`: the flags as its bmn-app request, the report printed.

use crate::args::{
    DeckArg, DotArg, LeaderArg, LimitArg, OutputArg, PlayersArg, RulesArgs, SeedArg, TopArg,
};
use crate::exit::finished;
use crate::output::deal_text;
use crate::output::emit;
use crate::output::emit_with_files;
use crate::progress::Bar;
use crate::stop::stop_on_ctrl_c;
use anyhow::Result;
use bmn_app::backward::BasinRequest;
use bmn_app::backward::ExtendRequest;
use bmn_app::backward::TreesRequest;
use bmn_job::Job;
use clap::Args;

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

impl BackwardArgs {
    /// `bmn backward`: the flags as its request, the report printed.
    pub fn run(self) -> Result<()> {
        let position = deal_text(&self.position)?;
        let report =
            bmn_app::backward::backward(&position, self.leader.leader, &self.rules.input())?;
        emit(&report, self.output.json)
    }
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

impl BasinArgs {
    /// `bmn basin`: the flags as its request, the report printed.
    pub fn run(self, bar: &mut Bar) -> Result<()> {
        let req = BasinRequest {
            position: deal_text(&self.position)?,
            leader: self.leader.leader,
            balanced: self.balanced,
            limit: self.limit.limit,
            dot: self.dot.dot.clone(),
            graph: None,
            rules: self.rules.input(),
        };
        let report = bmn_app::backward::basin(&req, &mut Job::new(bar, stop_on_ctrl_c()))?;
        emit_with_files(
            &report,
            self.output.json,
            &[("graph", self.dot.dot.as_deref())],
        )?;
        finished(!report.interrupted)
    }
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

impl ExtendArgs {
    /// `bmn extend`: the flags as its request, the report printed.
    pub fn run(self, bar: &mut Bar) -> Result<()> {
        let req = ExtendRequest {
            deal: deal_text(&self.deal)?,
            leader: self.leader.leader,
            depth: self.depth,
            limit: self.limit.limit,
            top: self.top.top,
            rules: self.rules.input(),
        };
        let report = bmn_app::backward::extend(&req, &mut Job::new(bar, stop_on_ctrl_c()))?;
        emit(&report, self.output.json)?;
        finished(!report.interrupted)
    }
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

impl TreesArgs {
    /// `bmn trees`: the flags as its request, the report printed.
    pub fn run(self, bar: &mut Bar) -> Result<()> {
        let req = TreesRequest {
            samples: self.samples,
            deck: self.deck.deck,
            players: self.players.players,
            seed: self.seed.seed,
            cap: self.cap,
            rules: self.rules.input(),
        };
        let report = bmn_app::backward::trees(&req, &mut Job::new(bar, stop_on_ctrl_c()))?;
        emit(&report, self.output.json)?;
        finished(!report.interrupted)
    }
}
