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
use crate::input::{self, DEFAULT_DECK, DEFAULT_PLAYERS, deal_of_rank};

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

/// The rank of a deal among the deals of `deck` (its own cards if `None`).
pub fn rank(deal: &str, leader: Option<u64>, deck: Option<&str>) -> Result<RankReport> {
    let position = input::deal(deal, leader, deck, None)?;
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

/// The rank of `position` among the deals of its own cards, when its hands have the sizes a
/// deal gives (a position in mid-game has none).
pub fn rank_of(position: &Position) -> Option<String> {
    if !bmn_core::has_dealt_sizes(position) {
        return None;
    }
    let deck = Deck::of_cards(position.stacks().iter().flatten());
    bmn_deals::rank::rank(&deck.counts(), &position.codes()).map(|k| k.to_string())
}

/// Deal `rank` of `deck` (standard if `None`) among `players` (2) with `leader` leading.
pub fn unrank(
    rank: &str,
    deck: Option<&str>,
    players: Option<usize>,
    leader: Option<u64>,
) -> Result<RankReport> {
    let deck = input::deck(deck.unwrap_or(DEFAULT_DECK))?;
    let position = deal_of_rank(rank, &deck, players.unwrap_or(DEFAULT_PLAYERS), leader)?;
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
