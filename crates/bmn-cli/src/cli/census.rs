//! `census` and `family`: every endless game a table has, and exact censuses of a family of
//! decks side by side.
//! Each command's flags, and its `run`: the flags as its bmn-app request, the report printed.

use bmn_job::Job;
use std::path::PathBuf;

use anyhow::Result;
use bmn_app::input::TimeInput;
use clap::Args;

use crate::args::{DeckArg, OutputArg, PlayersArg, RulesArgs, SeedArg, ThreadsArg, table};
use crate::exit::finished;
use crate::output::{emit, emit_with_files};
use crate::progress::Bar;
use crate::stop::stop_on_ctrl_c;

pub const CENSUS_AT_SCALE: &str = "\
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
    #[arg(long, value_name = "DURATION", allow_hyphen_values = true)]
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

impl CensusArgs {
    /// `bmn census`: the flags as its request, the report printed.
    pub fn run(self, bar: &mut Bar) -> Result<()> {
        let req = bmn_app::census::CensusRequest {
            table: table(self.deck, self.players, false),
            rules: self.rules.input(),
            seed: self.seed.seed,
            threads: self.threads.threads,
            methods: self.methods,
            hands: self.hands,
            hands_time: self.hands_time.map(TimeInput::from),
            deals_max: self.deals_max,
            basin_limit: self.basin_limit,
            rounds: self.rounds,
            enumeration: self.enumeration,
        };
        if self.plan {
            return emit(
                &bmn_app::census::cost::cost(&req, self.cores)?,
                self.output.json,
            );
        }
        let report = bmn_app::census::census(&req, &mut Job::new(bar, stop_on_ctrl_c()))?;
        emit(&report, self.output.json)?;
        finished(!report.interrupted)
    }
}

#[derive(Args, Debug)]
pub struct FamilyArgs {
    /// Census reports (`bmn census --methods deals --json`, or with --enumeration) of decks
    /// alike but for their plain cards, in any order: refused if a census did not play every
    /// deal or was interrupted.
    #[arg(required = true, value_name = "FILE")]
    pub files: Vec<PathBuf>,
    /// Print the tables in Markdown (docs/results.md's) instead of text.
    #[arg(long)]
    pub markdown: bool,
    /// Draw the endless deals and the cycles of each class against n into FILE (.svg or
    /// .png; the files must hold one family).
    #[arg(long, value_name = "FILE")]
    pub plot: Option<PathBuf>,
    #[command(flatten)]
    pub output: OutputArg,
}

impl FamilyArgs {
    /// `bmn family`: the flags as its request, the report printed.
    pub fn run(self) -> Result<()> {
        let report = bmn_app::family::family(&bmn_app::family::FamilyRequest {
            files: self.files,
            plot: self.plot.clone(),
            markdown: self.markdown,
        })?;
        emit_with_files(&report, self.output.json, &[("plot", self.plot.as_deref())])
    }
}
