//! `exhaustive` and `merge`: every deal of a deck, in shards, and the shards joined.
//! Each command's flags, and its `run`: the flags as its bmn-app request, the report printed.

use crate::args::{
    DeckArg, EngineArgs, LeaderArg, LedgerArgs, OutputArg, RulesArgs, ShardArg, ThreadsArg, decks,
};
use crate::exit::finished;
use crate::output::emit;
use crate::progress::Bar;
use crate::stop::stop_on_ctrl_c;
use anyhow::Result;
use bmn_app::exhaustive::ExhaustiveRequest;
use bmn_app::numbers::whole;
use bmn_job::Job;
use clap::Args;
use std::path::PathBuf;

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

impl ExhaustiveArgs {
    /// `bmn exhaustive`: the flags as its request, the report printed.
    pub fn run(self, bar: &mut Bar) -> Result<()> {
        if !self.merge.is_empty() {
            return emit(&bmn_app::merge::merge(&self.merge)?, self.output.json);
        }
        let req = ExhaustiveRequest {
            deck: self.deck.deck.unwrap_or_default(),
            leader: self.leader.leader,
            rules: self.rules.input(),
            list_cycles: self.list_cycles,
            shard: self.shard.shard,
            from: self.from,
            count: self.count,
            block: self.block,
            block_size: self.block_size,
            checkpoint: self.checkpoint,
            ledger: self.ledger.choice(),
            threads: self.threads.threads,
            engine: self.engine.input(),
        };
        let report = bmn_app::exhaustive::exhaustive(&req, &mut Job::new(bar, stop_on_ctrl_c()))?;
        emit(&report, self.output.json)?;
        finished(report.range_done)
    }
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

impl MergeArgs {
    /// `bmn merge`: the flags as its request, the report printed.
    pub fn run(self) -> Result<()> {
        emit(&bmn_app::merge::merge(&self.files)?, self.output.json)
    }
}
