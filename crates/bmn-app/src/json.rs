//! JSON shapes several commands share: positions, finished games, cycling deals and distinct
//! cycles (a span is `bmn_core::Span` itself). Their keys are a contract that scripts depend on.

use bmn_core::Span;
use bmn_search::{CyclingDeal, LongGame, Summary};
use serde::{Deserialize, Serialize};

/// `{"deal": "...", "leader": L}` (leader 1-based), for a position a `Summary` holds as text
/// (a `bmn_core::Position` serializes to the same shape itself).
#[derive(Serialize, Debug, Clone, PartialEq, Eq)]
pub struct PositionJson {
    pub deal: String,
    pub leader: usize,
}

/// One distinct cycle of a search or enumeration: its id, period, how many deals reach it, its
/// canonical representative and the first deal (by index) that reaches it.
#[derive(Serialize, Debug, Clone, PartialEq, Eq)]
pub struct CycleClassJson {
    pub cycle_id: String,
    pub period: Span,
    pub deals: u64,
    pub representative: PositionJson,
    pub first_index: u128,
}

impl CycleClassJson {
    /// Every distinct cycle of `summary`, most-reached first (then by id).
    pub fn list(summary: &Summary) -> Vec<CycleClassJson> {
        let mut v: Vec<CycleClassJson> = summary
            .classes
            .iter()
            .map(|(id, c)| CycleClassJson {
                cycle_id: id.to_string(),
                period: c.period,
                deals: c.deals,
                representative: PositionJson {
                    deal: c.representative.clone(),
                    leader: c.representative_leader,
                },
                first_index: c.first_index,
            })
            .collect();
        v.sort_by(|a, b| b.deals.cmp(&a.deals).then(a.cycle_id.cmp(&b.cycle_id)));
        v
    }
}

/// A finished game of a search or enumeration: `{"deal","leader","cards","tricks","winner","index"}`.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq, Eq)]
pub struct LongGameJson {
    pub deal: String,
    pub leader: usize,
    pub cards: u64,
    pub tricks: u64,
    pub winner: usize,
    pub index: u128,
}

impl LongGameJson {
    /// `found`, dealt with `leader` (1-based) leading.
    pub fn new(found: &LongGame, leader: usize) -> LongGameJson {
        LongGameJson {
            deal: found.deal.clone(),
            leader,
            cards: found.cards,
            tricks: found.tricks,
            winner: found.winner,
            index: found.index,
        }
    }
}

/// A deal that never ends: `{"deal","leader","preperiod","period","cycle_id","index"}`.
#[derive(Serialize, Debug, Clone, PartialEq, Eq)]
pub struct CyclingDealJson {
    pub deal: String,
    pub leader: usize,
    pub preperiod: Span,
    pub period: Span,
    pub cycle_id: String,
    pub index: u128,
}

impl CyclingDealJson {
    /// `found`, dealt with `leader` (1-based) leading.
    pub fn new(found: &CyclingDeal, leader: usize) -> CyclingDealJson {
        CyclingDealJson {
            deal: found.deal.clone(),
            leader,
            preperiod: found.preperiod,
            period: found.period,
            cycle_id: found.cycle_id.to_string(),
            index: found.index,
        }
    }
}
