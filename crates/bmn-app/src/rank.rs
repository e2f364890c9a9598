//! `rank` and `unrank`: every deal of a deck has a number, its lexicographic rank among all the
//! deals of that deck (the order `exhaustive` plays them in), exact at any size; and `#K` names
//! deal K wherever a deal is asked for.
//!
//! A deal's cards are read player 1's hand first, then player 2's, ...; the hands have the sizes
//! round-robin dealing from the leader gives (the leader and the seats after it get the odd
//! cards), so a number and a leader name one deal.

use std::fmt::Write as _;

use bmn_core::{Deck, Position};
use bmn_deals::BigUint;
use serde::Serialize;

use crate::error::{Error, Result};
use crate::flags::{DeckArg, LeaderArg, PlayersArg};
use crate::input::{self, DEFAULT_DECK, DEFAULT_PLAYERS, deal_of_rank};
use crate::numbers::whole;

/// A deal with its number.
#[derive(Serialize, Clone, Debug, PartialEq, Eq)]
pub struct RankReport {
    pub deal: String,
    pub leader: usize,
    pub players: usize,
    pub deck: String,
    pub cards: u32,
    /// The deal's rank, a decimal string (ranks pass 2^64).
    pub rank: String,
    /// How many deals the deck has (so ranks run from 0 to `deals - 1`), a decimal string.
    pub deals: String,
}

const RANK_DECK: &str = concat!(
    "Rank the deal among the deals of this deck, whose cards it must hold exactly: ",
    bmn_params::decks!(),
    " [default: the deal's own cards]"
);

/// Which deal to number: `bmn rank`'s parameters.
#[derive(clap::Args, Clone, Debug, Default)]
#[command(mut_arg("deck", |a| a.help(RANK_DECK)))]
pub struct RankRequest {
    /// The deal (any notation `bmn play` reads); its hands must have the sizes round-robin
    /// dealing from the leader gives. "-" reads it from stdin.
    #[arg(allow_hyphen_values = true)]
    pub deal: String,
    #[command(flatten)]
    pub leader: LeaderArg,
    #[command(flatten)]
    pub deck: DeckArg,
}

/// Which number's deal: `bmn unrank`'s parameters.
#[derive(clap::Args, Clone, Debug, Default)]
pub struct UnrankRequest {
    /// The rank, from 0 (a whole number of any size).
    #[arg(value_parser = whole, allow_negative_numbers = true)]
    pub rank: String,
    #[command(flatten)]
    pub deck: DeckArg,
    #[command(flatten)]
    pub players: PlayersArg,
    #[command(flatten)]
    pub leader: LeaderArg,
}

/// The rank of a deal among the deals of the request's deck (its own cards if none).
pub fn rank(req: &RankRequest) -> Result<RankReport> {
    let deck = req.deck.deck.as_deref();
    let position = input::deal(&req.deal, req.leader.leader, deck, None)?;
    let deck = match deck {
        Some(spec) => input::deck(spec)?,
        None => Deck::of_cards(position.stacks().iter().flatten()),
    };
    let sizes: Vec<usize> = position.stacks().iter().map(|s| s.len()).collect();
    let want = bmn_core::dealt_sizes(position.card_count(), position.players(), position.leader());
    if let Some(p) = (0..sizes.len()).find(|&p| sizes[p] != want[p]) {
        return Err(Error::input(format!(
            "bad deal: player {} holds {} cards, but a deal of {} cards among {} players with \
             player {} leading gives player {} {} (the leader and the seats after it get the odd \
             cards)",
            p + 1,
            sizes[p],
            position.card_count(),
            position.players(),
            position.leader().number(),
            p + 1,
            want[p]
        )));
    }
    let rank = bmn_deals::rank::rank(&deck.counts(), &position.codes())
        .expect("a deal of the deck has a rank");
    Ok(report(&position, &deck, rank))
}

/// Deal `rank` of the deck (standard if not given) among the players (2) with the leader
/// leading.
pub fn unrank(req: &UnrankRequest) -> Result<RankReport> {
    let deck = input::deck(req.deck.deck.as_deref().unwrap_or(DEFAULT_DECK))?;
    let players = req.players.players.unwrap_or(DEFAULT_PLAYERS);
    let position = deal_of_rank(&req.rank, &deck, players, req.leader.leader)?;
    let k = bmn_deals::rank::rank(&deck.counts(), &position.codes()).expect("a deal of the deck");
    Ok(report(&position, &deck, k))
}

fn report(position: &Position, deck: &Deck, rank: BigUint) -> RankReport {
    RankReport {
        deal: position.deal_text(),
        leader: position.leader().number(),
        players: position.players(),
        deck: deck.to_string(),
        cards: deck.len(),
        rank: rank.to_string(),
        deals: bmn_deals::rank::count(&deck.counts()).to_string(),
    }
}

impl crate::Report for RankReport {
    fn text(&self) -> String {
        let mut t = String::new();
        let _ = writeln!(
            t,
            "rank {} of the {} deals of {} ({} players, player {} leads):",
            self.rank, self.deals, self.deck, self.players, self.leader
        );
        let _ = writeln!(t, "{}", self.deal);
        t
    }
}
