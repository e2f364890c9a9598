//! Writing results: JSON shapes shared by commands, and quiet exits on a closed pipe.

use std::io::{self, Write};

use bmn_core::{Position, Span};
use bmn_search::Summary;
use serde::Serialize;

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
#[derive(Serialize, Debug, Clone, Copy)]
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
#[derive(Serialize, Debug, Clone)]
pub struct CycleClassJson {
    pub cycle_id: String,
    pub period: SpanJson,
    pub deals: u64,
    pub representative: PositionJson,
    pub first_index: u64,
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

/// Writes text to stdout in one go.
pub fn print(text: &str) -> io::Result<()> {
    let mut out = io::stdout().lock();
    out.write_all(text.as_bytes())?;
    out.flush()
}

/// Writes one JSON value and a newline to stdout.
pub fn print_json<T: Serialize>(value: &T) -> anyhow::Result<()> {
    let mut text = serde_json::to_string(value)?;
    text.push('\n');
    Ok(print(&text)?)
}

/// Whether `err` is a write to a closed pipe (`bmn ... | head`), which ends quietly.
pub fn is_broken_pipe(err: &anyhow::Error) -> bool {
    err.chain()
        .filter_map(|e| e.downcast_ref::<io::Error>())
        .any(|e| e.kind() == io::ErrorKind::BrokenPipe)
}
