//! `search`, `stats`, `bench`, `odds`, `devices`: random deals by the million, and the engines
//! that play them.
//! Each command's flags, and its `run`: the flags as its bmn-app request, the report printed.

use bmn_job::Job;
use std::path::PathBuf;

use anyhow::Result;
use bmn_app::bench::BenchRequest;
use bmn_app::input::TimeInput;
use bmn_app::odds::OddsRequest;
use bmn_app::search::SearchRequest;
use bmn_app::stats::StatsRequest;
use clap::Args;

use crate::args::{
    DeckArg, EngineArgs, LedgerArgs, OutputArg, PlayersArg, PlotArg, RulesArgs, SeedArg, ShardArg,
    ThreadsArg, TopArg, table,
};
use crate::exit::finished;
use crate::output::emit;
use crate::progress::Bar;
use crate::stop::stop_on_ctrl_c;

#[derive(Args, Debug)]
pub struct SearchArgs {
    /// How many random deals to play [default: 1000000 unless --time is given].
    #[arg(long, value_name = "N", conflicts_with = "time")]
    pub games: Option<u64>,
    /// Play for this long instead: 90s, 10m, 2h, 1d. The result is that of the whole units
    /// finished, so it equals a --games run of the same count.
    #[arg(long, value_name = "DURATION", allow_hyphen_values = true)]
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

impl SearchArgs {
    /// `bmn search`: the flags as its request, the report printed.
    pub fn run(self, bar: &mut Bar) -> Result<()> {
        let req = SearchRequest {
            games: self.games,
            time: self.time.map(TimeInput::from),
            seed: self.seed.seed,
            threads: self.threads.threads,
            top: self.top.top,
            shard: self.shard.shard,
            out: self.out,
            ledger: self.ledger.choice(),
            table: table(self.deck, self.players, self.balanced),
            rules: self.rules.input(),
            engine: self.engine.input(),
        };
        let report = bmn_app::search::search(&req, &mut Job::new(bar, stop_on_ctrl_c()))?;
        emit(&report, self.output.json)?;
        finished(!report.interrupted)
    }
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
    /// Also count each engine's instructions per game with callgrind (valgrind must be
    /// installed; it runs neither AVX-512 nor the GPU, so those rows have none)
    #[arg(long)]
    pub instructions: bool,
    /// Play only ENGINE's batches and print nothing (what --instructions runs under callgrind)
    #[arg(
        long,
        value_name = "ENGINE",
        hide = true,
        conflicts_with = "instructions"
    )]
    pub count_only: Option<String>,
    #[command(flatten)]
    pub output: OutputArg,
}

impl BenchArgs {
    /// `bmn bench`: the flags as its request, the report printed.
    pub fn run(self) -> Result<()> {
        let req = BenchRequest {
            games: self.games,
            deck: self.deck.deck,
            threads: self.threads.threads,
            seed: self.seed.seed,
        };
        if let Some(engine) = &self.count_only {
            return Ok(bmn_app::bench::play_counted(&req, engine)?);
        }
        if self.instructions {
            crate::callgrind::check_available()?;
        }
        let stop = stop_on_ctrl_c();
        let mut report = bmn_app::bench::bench(&req, &mut Job::quiet(stop))?;
        if self.instructions && !report.interrupted {
            crate::callgrind::count_rows(&req, &mut report, stop)?;
        }
        emit(&report, self.output.json)?;
        report.check()?;
        finished(!report.interrupted)
    }
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

impl StatsArgs {
    /// `bmn stats`: the flags as its request, the report printed.
    pub fn run(self, bar: &mut Bar) -> Result<()> {
        let req = StatsRequest {
            games: self.games,
            table: table(self.deck, self.players, self.balanced),
            rules: self.rules.input(),
            seed: self.seed.seed,
            threads: self.threads.threads,
            engine: self.engine.input(),
            plot: self.plot.plot,
        };
        let report = bmn_app::stats::stats(&req, &mut Job::new(bar, stop_on_ctrl_c()))?;
        emit(&report, self.output.json)?;
        finished(!report.interrupted)
    }
}

#[derive(Args, Debug)]
pub struct DevicesArgs {
    #[command(flatten)]
    pub output: OutputArg,
}

impl DevicesArgs {
    /// `bmn devices`: the flags as its request, the report printed.
    pub fn run(self) -> Result<()> {
        emit(&bmn_app::devices::devices(), self.output.json)
    }
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

impl OddsArgs {
    /// `bmn odds`: the flags as its request, the report printed.
    pub fn run(self, bar: &mut Bar) -> Result<()> {
        let req = OddsRequest {
            games: self.games,
            target_cards: self.target_cards,
            rate: self.rate,
            fit_games: self.fit_games,
            seed: self.seed.seed,
            threads: self.threads.threads,
            mu: self.mu,
            x0: self.x0,
            p0: self.p0,
        };
        // Stopped, the model is fitted to the games played, and says so.
        let report = bmn_app::odds::odds(&req, &mut Job::new(bar, stop_on_ctrl_c()))?;
        emit(&report, self.output.json)?;
        finished(!report.interrupted)
    }
}
