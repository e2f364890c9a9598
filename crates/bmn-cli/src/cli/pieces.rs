//! `pieces` (`search`, `construct`, `factory`): building endless games. Each subcommand's
//! flags are its bmn-app request's; each is a plain long command (`cli::long`).

use bmn_app::factory::FactoryRequest;
use bmn_app::pieces::{ConstructRequest, PieceSearchRequest};
use clap::{Args, Subcommand};

use crate::args::Request;

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
