//! `bmn count`: the exact number of distinct deals of a deck at a table, and of balanced deals.
//!
//! The counting is bmn-exhaustive's (`count.rs`, arbitrary precision); this is the text and
//! JSON around it. JSON gives the counts as decimal strings: they pass 2^53 (a standard deck
//! already has 6.5e20 deals), where JSON readers' numbers stop being exact.

use std::fmt::Write as _;

use anyhow::Result;
use bmn_exhaustive::DealCount;
use clap::Args;
use serde::Serialize;

use crate::cli::TableArgs;
use crate::input;
use crate::output;

#[derive(Args, Debug)]
pub struct CountArgs {
    #[command(flatten)]
    pub table: TableArgs,
    /// Print one JSON object instead of text.
    #[arg(long)]
    pub json: bool,
}

/// `bmn count --json`: `deck`, `cards`, `players`, `deals` and `balanced_deals` are the
/// issue's keys; every count is a decimal string.
#[derive(Serialize)]
struct CountJson {
    deck: String,
    cards: u32,
    players: usize,
    deals: String,
    /// "0" when some kind cannot be shared out equally.
    balanced_deals: String,
    /// Deals times the seats that could lead.
    leaders_times_deals: String,
    /// log10 of `deals`, for plotting and comparing.
    log10_deals: f64,
}

pub fn run(args: &CountArgs) -> Result<()> {
    // The same table checks as every command that deals (2 to 10 players, a card each).
    let source = input::source(&args.table, false)?;
    let count = DealCount::new(source.deck(), source.players());
    let balanced = count
        .balanced_deals
        .as_ref()
        .map_or_else(|| "0".to_string(), ToString::to_string);
    let deals = count.deals.to_string();
    if args.json {
        return output::print_json(&CountJson {
            deck: source.deck().to_string(),
            cards: count.cards,
            players: count.players,
            log10_deals: log10(&deals),
            deals,
            balanced_deals: balanced,
            leaders_times_deals: count.leaders_times_deals.to_string(),
        });
    }
    let mut t = String::new();
    writeln!(
        t,
        "deck:      {} ({} cards), {} players, player 1 leads",
        source.deck(),
        count.cards,
        count.players
    )?;
    writeln!(t, "deals:     {}", both(&deals))?;
    match &count.balanced_deals {
        Some(b) => {
            let b = b.to_string();
            writeln!(
                t,
                "balanced:  {}, a share {:.3e} of the deals",
                both(&b),
                10f64.powf(log10(&b) - log10(&deals))
            )?;
        }
        None => writeln!(
            t,
            "balanced:  0 (some kind cannot be shared equally among {} players)",
            count.players
        )?,
    }
    writeln!(
        t,
        "with any leader: {}",
        both(&count.leaders_times_deals.to_string())
    )?;
    Ok(output::print(&t)?)
}

/// `653,534,134,886,878,245,000 (6.535e20)`.
fn both(digits: &str) -> String {
    format!("{} ({})", thousands(digits), scientific(digits))
}

/// A decimal string with commas every three digits.
fn thousands(digits: &str) -> String {
    let mut out = String::with_capacity(digits.len() * 4 / 3 + 1);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
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
