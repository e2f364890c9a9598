//! `bench` and `devices`: the engines that play random deals (`search`, `stats` and `odds` are
//! plain long commands, `cli::long`). Each command's flags are its bmn-app request's.

use anyhow::Result;
use bmn_app::bench::BenchRequest;
use bmn_job::Job;
use clap::Args;

use crate::args::OutputArg;
use crate::exit::finished;
use crate::output::emit;
use crate::stop::stop_on_ctrl_c;

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
