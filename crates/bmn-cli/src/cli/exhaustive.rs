//! `exhaustive` and `merge`: every deal of a deck, in shards, and the shards joined. Each
//! command's flags are its bmn-app request's; these print the reports.

use anyhow::Result;
use bmn_app::exhaustive::ExhaustiveRequest;
use bmn_app::merge::MergeRequest;
use bmn_job::Job;

use crate::args::Request;
use crate::exit::finished;
use crate::output::emit;
use crate::progress::Bar;
use crate::stop::stop_on_ctrl_c;

/// `bmn exhaustive` (with `--merge`, `bmn merge`).
pub fn exhaustive(a: Request<ExhaustiveRequest>, bar: &mut Bar) -> Result<()> {
    if !a.request.merge.is_empty() {
        return emit(&bmn_app::merge::merge(&a.request.merge)?, a.output.json);
    }
    let report = bmn_app::exhaustive::exhaustive(&a.request, &mut Job::new(bar, stop_on_ctrl_c()))?;
    emit(&report, a.output.json)?;
    finished(report.range_done)
}

/// `bmn merge`.
pub fn merge(a: Request<MergeRequest>) -> Result<()> {
    emit(&bmn_app::merge::merge(&a.request.files)?, a.output.json)
}
