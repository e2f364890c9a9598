//! `count`: the exact number of distinct deals of a deck at a table, and of balanced ones,
//! as decimal strings (the standard deck's count passes 2^64, two decks' passes 2^128).

use std::fmt::Write as _;

use bmn_exhaustive::DealCount;
use serde::Serialize;

use crate::error::Result;
use crate::flags::{DeckArg, PlayersArg};
use crate::input::TableInput;
use crate::thousands;

/// `count --json`.
#[derive(Serialize, Clone, Debug, PartialEq)]
pub struct CountReport {
    pub deck: String,
    /// Cards in the deck.
    pub deck_cards: u32,
    pub players: usize,
    pub deals: String,
    /// Deals where every player holds the same number of each kind (0 when a kind cannot be
    /// shared equally).
    pub deals_balanced_by_kind: String,
    pub leaders_times_deals: String,
    pub log10_deals: f64,
    /// Whether every kind can be shared equally (else `balanced_deals` is 0).
    #[serde(skip)]
    pub balanceable: bool,
}

/// Which table's deals to count: `bmn count`'s parameters.
#[derive(clap::Args, Clone, Debug, Default)]
pub struct CountRequest {
    #[command(flatten)]
    pub deck: DeckArg,
    #[command(flatten)]
    pub players: PlayersArg,
}

/// The deal counts of a table.
pub fn count(req: &CountRequest) -> Result<CountReport> {
    let source = TableInput::of(&req.deck, &req.players).source()?;
    let count = DealCount::new(source.deck(), source.players());
    let deals = count.deals.to_string();
    let balanced = count
        .balanced_deals
        .as_ref()
        .map_or_else(|| "0".to_string(), ToString::to_string);
    Ok(CountReport {
        deck: source.deck().to_string(),
        deck_cards: count.cards,
        players: count.players,
        log10_deals: log10(&deals),
        deals,
        deals_balanced_by_kind: balanced,
        leaders_times_deals: count.leaders_times_deals.to_string(),
        balanceable: count.balanced_deals.is_some(),
    })
}

impl crate::Report for CountReport {
    fn text(&self) -> String {
        let mut t = String::new();
        let _ = writeln!(
            t,
            "deck:      {} ({} cards), {} players, player 1 leads",
            self.deck, self.deck_cards, self.players
        );
        let _ = writeln!(t, "deals:     {}", both(&self.deals));
        let _ = if self.balanceable {
            writeln!(
                t,
                "balanced:  {}, a share {:.3e} of the deals",
                both(&self.deals_balanced_by_kind),
                10f64.powf(log10(&self.deals_balanced_by_kind) - log10(&self.deals))
            )
        } else {
            writeln!(
                t,
                "balanced:  0 (some kind cannot be shared equally among {} players)",
                self.players
            )
        };
        let _ = writeln!(t, "with any leader: {}", both(&self.leaders_times_deals));
        t
    }
}

/// `653,534,134,886,878,245,000 (6.535e20)`.
fn both(digits: &str) -> String {
    format!("{} ({})", thousands(digits), scientific(digits))
}

/// `6.535e20`: four significant digits, rounded from the first seventeen (exact in f64).
fn scientific(digits: &str) -> String {
    let exponent = digits.len() as i32 - 1;
    let head = &digits[..digits.len().min(17)];
    let mantissa = head.parse::<f64>().unwrap_or(0.0) / 10f64.powi(head.len() as i32 - 1);
    let text = format!("{mantissa:.3}");
    if text.starts_with("10") {
        // 9.9996 rounds up to the next power of ten.
        format!("1.000e{}", exponent + 1)
    } else {
        format!("{text}e{exponent}")
    }
}

/// log10 of a (positive) decimal string, from its first seventeen digits and its length.
fn log10(digits: &str) -> f64 {
    let head = &digits[..digits.len().min(17)];
    head.parse::<f64>().unwrap_or(0.0).log10() + (digits.len() - head.len()) as f64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_read_well() {
        assert_eq!(
            thousands("653534134886878245000"),
            "653,534,134,886,878,245,000"
        );
        assert_eq!(thousands("12"), "12");
        assert_eq!(thousands("1260"), "1,260");
        assert_eq!(thousands("100000"), "100,000");
        assert_eq!(scientific("653534134886878245000"), "6.535e20");
        assert_eq!(scientific("12"), "1.200e1");
        assert_eq!(scientific("99999"), "1.000e5");
        assert!((log10("1000") - 3.0).abs() < 1e-12);
        assert!((log10("653534134886878245000") - 20.8153).abs() < 1e-4);
    }
}
