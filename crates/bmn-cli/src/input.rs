//! Turning what the user typed into validated bmn-core values; failures become `BadInput` (exit 2).

use std::fmt;
use std::io::Read;

use anyhow::Result;
use bmn_core::{Deck, OnEmpty, PenaltyTable, Player, Position, Rules};

use crate::cli::RulesArgs;

/// An error in what the user typed: reported in one line, exit code 2.
#[derive(Debug)]
pub struct BadInput(pub String);

impl fmt::Display for BadInput {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for BadInput {}

/// Wraps any error in what the user typed as `BadInput`, prefixed with what it was.
pub fn bad<E: fmt::Display>(what: &str) -> impl FnOnce(E) -> anyhow::Error + '_ {
    move |e| BadInput(format!("{what}: {e}")).into()
}

/// Reads the deal argument; `-` means standard input.
pub fn deal_text(arg: &str) -> Result<String> {
    if arg != "-" {
        return Ok(arg.to_string());
    }
    let mut text = String::new();
    std::io::stdin()
        .read_to_string(&mut text)
        .map_err(bad("reading the deal from stdin"))?;
    Ok(text.trim().to_string())
}

/// A starting deal with its leader (1-based on the command line), checked against `deck` if given.
pub fn deal(arg: &str, leader: u64, deck: Option<&str>) -> Result<Position> {
    let text = deal_text(arg)?;
    // clap guarantees leader >= 1; the range check against the deal is Position's.
    let leader = Player(usize::try_from(leader - 1).unwrap_or(usize::MAX - 1));
    let position = Position::parse_deal(&text, leader).map_err(bad("bad deal"))?;
    if let Some(spec) = deck {
        let deck = Deck::parse(spec).map_err(bad("bad --deck"))?;
        position.check_deck(&deck).map_err(bad("bad deal"))?;
    }
    Ok(position)
}

/// The rules given by `--penalties` and `--on-empty`.
pub fn rules(args: &RulesArgs) -> Result<Rules> {
    let penalties = match &args.penalties {
        Some(text) => PenaltyTable::parse(text).map_err(bad("bad --penalties"))?,
        None => PenaltyTable::STANDARD,
    };
    let on_empty: OnEmpty = args.on_empty.parse().map_err(bad("bad --on-empty"))?;
    Ok(Rules {
        penalties,
        on_empty,
    })
}
