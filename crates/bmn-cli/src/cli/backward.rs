//! `backward`, `basin`, `extend`, `trees`: backward play. Each command's flags are its bmn-app
//! request's; these print the reports.

use anyhow::Result;
use bmn_app::backward::{BackwardRequest, BasinRequest, ExtendRequest};
use bmn_job::Job;

use crate::args::Request;
use crate::exit::finished;
use crate::output::{deal_text, emit, emit_with_files};
use crate::progress::Bar;
use crate::stop::stop_on_ctrl_c;

/// `bmn backward`.
pub fn backward(mut a: Request<BackwardRequest>) -> Result<()> {
    a.request.position = deal_text(&a.request.position)?;
    emit(&bmn_app::backward::backward(&a.request)?, a.output.json)
}

/// `bmn basin`.
pub fn basin(mut a: Request<BasinRequest>, bar: &mut Bar) -> Result<()> {
    a.request.position = deal_text(&a.request.position)?;
    let report = bmn_app::backward::basin(&a.request, &mut Job::new(bar, stop_on_ctrl_c()))?;
    let dot = a.request.dot.dot.as_deref();
    emit_with_files(&report, a.output.json, &[("graph", dot)])?;
    finished(!report.interrupted)
}

/// `bmn extend`.
pub fn extend(mut a: Request<ExtendRequest>, bar: &mut Bar) -> Result<()> {
    a.request.deal = deal_text(&a.request.deal)?;
    let report = bmn_app::backward::extend(&a.request, &mut Job::new(bar, stop_on_ctrl_c()))?;
    emit(&report, a.output.json)?;
    finished(!report.interrupted)
}
