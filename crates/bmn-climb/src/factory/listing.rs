//! The factory's catalogue as it is reported: the cycles with balanced deals, each classed as
//! a relative of an earlier cycle (the same pieces' cards in another order or form), new
//! pieces, or neither form; and the counts of cycles by period and by closeness to balance.

use std::collections::BTreeMap;

use bmn_core::CycleId;

use super::walk::{Catalogue, CycleEntry};

/// How a cycle with balanced deals stands to those found before it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kinship {
    /// The same pieces' cards as an earlier cycle of the catalogue, in another order or form.
    Relative,
    /// Pieces not seen before.
    New,
    /// No position of Casella's template form.
    Other,
}

impl Kinship {
    /// `relative`, `new` or `other`.
    pub fn name(self) -> &'static str {
        match self {
            Kinship::Relative => "relative",
            Kinship::New => "new",
            Kinship::Other => "other",
        }
    }
}

/// A cycle of the catalogue with balanced deals, as listed (a copy: reports outlive the
/// catalogue).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Listed {
    pub entry: CycleEntry,
    pub kinship: Kinship,
    /// For a relative: the id of the first cycle of its pieces' cards.
    pub relative_of: Option<CycleId>,
}

/// The factory report's cycle: `{"cycle_id","period","representative","balanced_deals",
/// "example","preperiod","pieces","kind","relative_of","basin_positions","basin_complete",
/// "round"}`, its example the first balanced deal found (player 1 leads) and its preperiod.
impl serde::Serialize for Listed {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let e = &self.entry;
        let (example, preperiod) = &e.balanced[0];
        bmn_core::serialize_fields!(serializer, "Listed", {
            "cycle_id" => e.cycle_id.to_string(),
            "period" => e.period,
            "representative" => e.representative,
            "balanced_deals" => e.balanced_count,
            "example" => example,
            "preperiod" => preperiod,
            "pieces" => e.pieces,
            "kind" => self.kinship.name(),
            "relative_of" => self.relative_of.map(|id| id.to_string()),
            "basin_positions" => e.basin_positions,
            "basin_complete" => e.basin_complete,
            "round" => e.round,
        })
    }
}

/// The cards of each piece, sorted: what relatives share.
fn signature(pieces: &[String]) -> Vec<String> {
    let mut s: Vec<String> = pieces
        .iter()
        .map(|p| {
            let mut c: Vec<char> = p.chars().collect();
            c.sort_unstable();
            c.into_iter().collect()
        })
        .collect();
    s.sort();
    s
}

impl Catalogue {
    /// Every cycle with a balanced deal, most balanced deals first (then by id). Kinship is
    /// decided in the order the cycles were found (by round, then id): the first cycle of a
    /// signature is `new`, the later ones its relatives.
    pub fn listing(&self) -> Vec<Listed> {
        let mut balanced: Vec<&CycleEntry> = self
            .cycles
            .values()
            .filter(|c| c.balanced_count > 0)
            .collect();
        balanced.sort_by(|a, b| (a.round, &a.cycle_id).cmp(&(b.round, &b.cycle_id)));
        let mut first_of: BTreeMap<Vec<String>, CycleId> = BTreeMap::new();
        let mut listed: Vec<Listed> = balanced
            .into_iter()
            .map(|entry| {
                let (kinship, relative_of) = match &entry.pieces {
                    Some(p) => match first_of.get(&signature(p)) {
                        Some(first) => (Kinship::Relative, Some(*first)),
                        None => {
                            first_of.insert(signature(p), entry.cycle_id);
                            (Kinship::New, None)
                        }
                    },
                    None => (Kinship::Other, None),
                };
                Listed {
                    entry: entry.clone(),
                    kinship,
                    relative_of,
                }
            })
            .collect();
        listed.sort_by(|a, b| {
            b.entry
                .balanced_count
                .cmp(&a.entry.balanced_count)
                .then(a.entry.cycle_id.cmp(&b.entry.cycle_id))
        });
        listed
    }

    /// Cycles by period in tricks: how many of each.
    pub fn periods(&self) -> BTreeMap<u64, usize> {
        let mut periods = BTreeMap::new();
        for c in self.cycles.values() {
            *periods.entry(c.period.tricks).or_insert(0) += 1;
        }
        periods
    }

    /// Cycles by how close their positions (cycle and basin) come to balance: imbalance to
    /// the number of cycles.
    pub fn closeness(&self) -> BTreeMap<usize, usize> {
        let mut closeness = BTreeMap::new();
        for c in self.cycles.values() {
            *closeness.entry(c.closest).or_insert(0) += 1;
        }
        closeness
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bmn_core::Span;

    fn entry(id: u64, round: u64, balanced: usize, pieces: Option<&[&str]>) -> CycleEntry {
        CycleEntry {
            cycle_id: CycleId(id),
            period: Span {
                tricks: 10,
                cards: 40,
            },
            representative: bmn_core::Position::parse("J-/Q-", bmn_core::Player(0)).unwrap(),
            round,
            basin_positions: 0,
            basin_complete: true,
            balanced_count: balanced,
            balanced: Vec::new(),
            balanced_seen: Default::default(),
            closest: balanced.min(3),
            closest_deal: String::new(),
            visits: 0,
            pieces: pieces.map(|p| p.iter().map(|s| s.to_string()).collect()),
        }
    }

    #[test]
    fn relatives_share_their_pieces_cards_and_the_first_found_is_new() {
        let mut c = Catalogue::default();
        for e in [
            entry(0xb, 0, 2, Some(&["KQ-", "A-"])),
            entry(0xa, 1, 5, Some(&["-A", "QK-"])),
            entry(0xc, 0, 2, None),
            entry(0xd, 0, 0, Some(&["KQ-", "A-"])),
            entry(0xe, 2, 2, Some(&["KK-", "A-"])),
        ] {
            c.cycles.insert(e.cycle_id, e);
        }
        let listed: Vec<(u64, &str, Option<CycleId>)> = c
            .listing()
            .iter()
            .map(|l| (l.entry.cycle_id.0, l.kinship.name(), l.relative_of))
            .collect();
        assert_eq!(
            listed,
            [
                (0xa, "relative", Some(CycleId(0xb))),
                (0xb, "new", None),
                (0xc, "other", None),
                (0xe, "new", None),
            ]
        );
        assert_eq!(c.periods(), BTreeMap::from([(10, 5)]));
        assert_eq!(c.closeness(), BTreeMap::from([(0, 1), (2, 3), (3, 1)]));
    }
}
