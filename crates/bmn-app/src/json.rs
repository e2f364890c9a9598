//! JSON shapes several commands share: positions, spans, finished games, cycling deals and
//! distinct cycles. Their keys are a contract that scripts depend on.

use bmn_core::{Position, Span};
use bmn_search::{CyclingDeal, LongGame, Summary};
use serde::{Deserialize, Serialize};

/// `{"deal": "...", "leader": L}` (leader 1-based).
#[derive(Serialize, Debug, Clone, PartialEq, Eq)]
pub struct PositionJson {
    pub deal: String,
    pub leader: usize,
}

impl From<&Position> for PositionJson {
    fn from(p: &Position) -> Self {
        PositionJson {
            deal: p.deal_text(),
            leader: p.leader().number(),
        }
    }
}

/// `{"tricks": t, "cards": c}`.
#[derive(Serialize, Debug, Clone, Copy, PartialEq, Eq)]
pub struct SpanJson {
    pub tricks: u64,
    pub cards: u64,
}

impl From<Span> for SpanJson {
    fn from(s: Span) -> Self {
        SpanJson {
            tricks: s.tricks,
            cards: s.cards,
        }
    }
}

/// One distinct cycle of a search or enumeration: its id, period, how many deals reach it, its
/// canonical representative and the first deal (by index) that reaches it.
#[derive(Serialize, Debug, Clone, PartialEq, Eq)]
pub struct CycleClassJson {
    pub cycle_id: String,
    pub period: SpanJson,
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
                period: c.period.into(),
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
    pub preperiod: SpanJson,
    pub period: SpanJson,
    pub cycle_id: String,
    pub index: u128,
}

impl CyclingDealJson {
    /// `found`, dealt with `leader` (1-based) leading.
    pub fn new(found: &CyclingDeal, leader: usize) -> CyclingDealJson {
        CyclingDealJson {
            deal: found.deal.clone(),
            leader,
            preperiod: found.preperiod.into(),
            period: found.period.into(),
            cycle_id: found.cycle_id.to_string(),
            index: found.index,
        }
    }
}
