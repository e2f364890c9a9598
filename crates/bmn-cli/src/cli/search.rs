//! `search`, `stats`, `bench`, `odds`, `devices`: random deals by the million, and the engines
//! that play them. Each command's flags are its bmn-app request's; `run` prints the report.

use anyhow::Result;
use bmn_app::bench::BenchRequest;
use bmn_app::odds::OddsRequest;
use bmn_app::search::SearchRequest;
use bmn_app::stats::StatsRequest;
use bmn_job::Job;
use clap::Args;

use crate::args::{OutputArg, Request};
use crate::exit::finished;
use crate::output::emit;
use crate::progress::Bar;
use crate::stop::stop_on_ctrl_c;

/// `bmn search`.
pub fn search(a: Request<SearchRequest>, bar: &mut Bar) -> Result<()> {
    let report = bmn_app::search::search(&a.request, &mut Job::new(bar, stop_on_ctrl_c()))?;
    emit(&report, a.output.json)?;
    finished(!report.interrupted)
}

/// `bmn stats`.
pub fn stats(a: Request<StatsRequest>, bar: &mut Bar) -> Result<()> {
    let report = bmn_app::stats::stats(&a.request, &mut Job::new(bar, stop_on_ctrl_c()))?;
    emit(&report, a.output.json)?;
    finished(!report.interrupted)
}

/// `bmn odds`: stopped, the model is fitted to the games played, and says so.
pub fn odds(a: Request<OddsRequest>, bar: &mut Bar) -> Result<()> {
    let report = bmn_app::odds::odds(&a.request, &mut Job::new(bar, stop_on_ctrl_c()))?;
    emit(&report, a.output.json)?;
    finished(!report.interrupted)
}

/// `bmn devices`.
pub fn devices(a: OutputArg) -> Result<()> {
    emit(&bmn_app::devices::devices(), a.json)
}

#[derive(Args, Debug)]
pub struct BenchArgs {
    #[command(flatten)]
    pub request: BenchRequest,
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
    /// `bmn bench`: the request's report printed, with callgrind's counts when asked.
    pub fn run(self) -> Result<()> {
        let req = &self.request;
        if let Some(engine) = &self.count_only {
            return Ok(bmn_app::bench::play_counted(req, engine)?);
        }
        if self.instructions {
            crate::callgrind::check_available()?;
        }
        let stop = stop_on_ctrl_c();
        let mut report = bmn_app::bench::bench(req, &mut Job::quiet(stop))?;
        if self.instructions && !report.interrupted {
            crate::callgrind::count_rows(req, &mut report, stop)?;
        }
        emit(&report, self.output.json)?;
        report.check()?;
        finished(!report.interrupted)
    }
}
