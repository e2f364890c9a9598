//! `pieces` (`search`, `construct`, `factory`) and `climb`: building long and endless games.
//! Each command's flags are its bmn-app request's; these print the reports.

use anyhow::Result;
use bmn_app::climb::ClimbRequest;
use bmn_app::factory::FactoryRequest;
use bmn_app::pieces::{ConstructRequest, PieceSearchRequest};
use bmn_job::Job;
use clap::{Args, Subcommand};

use crate::args::Request;
use crate::exit::finished;
use crate::output::emit;
use crate::progress::Bar;
use crate::stop::stop_on_ctrl_c;

#[derive(Args, Debug)]
pub struct PiecesArgs {
    #[command(subcommand)]
    pub command: PiecesCommand,
}

#[derive(Subcommand, Debug)]
pub enum PiecesCommand {
    /// Candidate pieces in increasing size, kept if the test template never ends.
    Search(Request<PieceSearchRequest>),
    /// Standard decks Δ1 J Δ2 J Δ3 J - / J - from found pieces, then balanced deals backward.
    Construct(Request<ConstructRequest>),
    /// Balanced deals that never end, from scratch: endless games (from pieces, or a random
    /// search at other tables), walked toward balance; a catalogue of the cycles reached.
    Factory(Request<FactoryRequest>),
}

/// `bmn climb`.
pub fn climb(a: Request<ClimbRequest>, bar: &mut Bar) -> Result<()> {
    let report = bmn_app::climb::climb(&a.request, &mut Job::new(bar, stop_on_ctrl_c()))?;
    emit(&report, a.output.json)?;
    finished(!report.interrupted)
}

/// `bmn pieces factory`.
pub fn factory(a: Request<FactoryRequest>, bar: &mut Bar) -> Result<()> {
    let report = bmn_app::factory::factory(&a.request, &mut Job::new(bar, stop_on_ctrl_c()))?;
    emit(&report, a.output.json)?;
    finished(!report.interrupted)
}

/// `bmn pieces search`.
pub fn search(a: Request<PieceSearchRequest>, bar: &mut Bar) -> Result<()> {
    let report = bmn_app::pieces::search(&a.request, &mut Job::new(bar, stop_on_ctrl_c()))?;
    emit(&report, a.output.json)?;
    finished(!report.interrupted)
}

/// `bmn pieces construct`.
pub fn construct(a: Request<ConstructRequest>, bar: &mut Bar) -> Result<()> {
    let report = bmn_app::pieces::construct(&a.request, &mut Job::new(bar, stop_on_ctrl_c()))?;
    emit(&report, a.output.json)?;
    finished(!report.interrupted)
}
