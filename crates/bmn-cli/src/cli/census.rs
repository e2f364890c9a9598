//! `census` and `family`: every endless game a table has, and exact censuses of a family of
//! decks side by side.
//! Each command's flags are its bmn-app request's; these print the reports.

use anyhow::Result;
use bmn_app::census::CensusRequest;
use bmn_app::family::FamilyRequest;
use bmn_job::Job;

use crate::args::Request;
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

/// `bmn census` (with `--plan`, its price).
pub fn census(a: Request<CensusRequest>, bar: &mut Bar) -> Result<()> {
    if a.request.plan {
        return emit(&bmn_app::census::cost::cost(&a.request)?, a.output.json);
    }
    let report = bmn_app::census::census(&a.request, &mut Job::new(bar, stop_on_ctrl_c()))?;
    emit(&report, a.output.json)?;
    finished(!report.interrupted)
}

/// `bmn family`.
pub fn family(a: Request<FamilyRequest>) -> Result<()> {
    let report = bmn_app::family::family(&a.request)?;
    let plot = a.request.plot.as_deref();
    emit_with_files(&report, a.output.json, &[("plot", plot)])
}
