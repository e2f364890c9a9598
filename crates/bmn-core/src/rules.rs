//! `Rules`: the penalty table and the running-out variant, everything a game needs besides cards.

use std::fmt;
use std::str::FromStr;

use crate::penalty::PenaltyTable;

/// What happens when a payer with more than one opponent runs out in the middle of a debt
/// (docs/rules.md, Running out of cards). With two players both variants play identically.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum OnEmpty {
    /// Paulhus 1999: the rest of the debt passes to the next player still in.
    #[default]
    Pass,
    /// everything2: the player with the claim takes the pile at once, as if the debt had been paid.
    Collect,
}

impl FromStr for OnEmpty {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "pass" => Ok(OnEmpty::Pass),
            "collect" => Ok(OnEmpty::Collect),
            other => Err(format!(
                "unknown running-out rule '{other}' (expected pass or collect)"
            )),
        }
    }
}

impl fmt::Display for OnEmpty {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            OnEmpty::Pass => "pass",
            OnEmpty::Collect => "collect",
        })
    }
}

/// Everything about a game that is not the cards: the penalty table and the running-out rule.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Rules {
    pub penalties: PenaltyTable,
    pub on_empty: OnEmpty,
}

impl Rules {
    /// J1 Q2 K3 A4 (jokers 5) and the `pass` running-out rule.
    pub const STANDARD: Rules = Rules {
        penalties: PenaltyTable::STANDARD,
        on_empty: OnEmpty::Pass,
    };
}
