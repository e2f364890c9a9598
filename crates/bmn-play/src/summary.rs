//! `Summary`: what a search found, mergeable in any order into the same result.

use std::cmp::Ordering;
use std::collections::BTreeMap;

use bmn_core::{Cycle, CycleId, Player, Span};
use bmn_kernel::Played;
use serde::{Deserialize, Serialize};

use crate::counts::{add_at, add_counts};
use crate::device::{Digest, DigestSpec};
use crate::play::{DealIndex, DigestSink, Tally};

/// Width of a histogram bin, in cards.
pub const HISTOGRAM_BIN: u64 = 50;

/// Cycling deals kept in a summary by default (all are counted, and every distinct cycle is
/// kept in `classes`).
pub const MAX_CYCLES_KEPT: usize = 1000;

/// A finished game worth reporting.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LongGame {
    /// Index of the deal in the seed's stream.
    pub index: DealIndex,
    pub deal: String,
    pub cards: u64,
    pub tricks: u64,
    /// 1 or 2.
    pub winner: usize,
}

impl LongGame {
    /// Better first: more cards, then more tricks, then the deal text (smallest first), then the
    /// index, so the order is total and the top K never depend on the order games finish in.
    pub fn rank(&self, other: &LongGame) -> Ordering {
        other
            .cards
            .cmp(&self.cards)
            .then(other.tricks.cmp(&self.tricks))
            .then_with(|| self.deal.cmp(&other.deal))
            .then(self.index.cmp(&other.index))
    }
}

/// A deal whose game never ends.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CyclingDeal {
    pub index: DealIndex,
    pub deal: String,
    pub preperiod: Span,
    pub period: Span,
    pub cycle_id: CycleId,
    /// The cycle's canonical representative (`bmn_core::Cycle::representative`): deal text
    /// and leader (1-based).
    pub representative: String,
    pub representative_leader: usize,
}

/// A distinct cycle and the games that reach it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CycleClass {
    pub period: Span,
    /// How many games reach it.
    pub deals: u64,
    /// Its canonical representative: deal text and leader (1-based).
    pub representative: String,
    pub representative_leader: usize,
    /// The smallest deal index that reaches it.
    pub first_index: DealIndex,
}

/// Totals and finds of a set of games. `merge` is associative and commutative.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Summary {
    /// Games played (finished and cycling).
    pub games: u64,
    /// Finished games won by each seat (`wins[0]`: player 1), as many seats as have won.
    pub wins: Vec<u64>,
    /// Sums over finished games.
    pub total_cards: u128,
    pub total_tricks: u128,
    /// Finished games by cards, `HISTOGRAM_BIN` cards a bin.
    pub histogram: Vec<u64>,
    /// The best `top` finished games, best first.
    pub longest: Vec<LongGame>,
    /// How many games never end.
    pub cycling: u64,
    /// The first `keep_cycles` of them by deal index.
    pub cycles: Vec<CyclingDeal>,
    /// Every distinct cycle reached, by id.
    pub classes: BTreeMap<CycleId, CycleClass>,
    /// Games the reference engine gave up on (neither ended nor repeated within its limit).
    #[serde(default)]
    pub unresolved: u64,
    /// The first of them by deal index: (index, deal text).
    #[serde(default)]
    pub first_unresolved: Option<(DealIndex, String)>,
    top: usize,
    keep_cycles: usize,
}

impl Summary {
    /// Keeps the best `top` finished games and the first [`MAX_CYCLES_KEPT`] cycling deals.
    pub fn new(top: usize) -> Summary {
        Summary::keeping(top, MAX_CYCLES_KEPT)
    }

    /// Keeps the best `top` finished games and the first `keep_cycles` cycling deals.
    pub fn keeping(top: usize, keep_cycles: usize) -> Summary {
        Summary {
            top,
            keep_cycles,
            ..Summary::default()
        }
    }

    pub fn finished(&self) -> u64 {
        self.wins.iter().sum()
    }

    /// Finished games won by `player` (numbered from 1).
    pub fn wins_of(&self, player: usize) -> u64 {
        self.wins.get(player - 1).copied().unwrap_or(0)
    }

    pub fn mean_cards(&self) -> f64 {
        self.total_cards as f64 / self.finished().max(1) as f64
    }

    pub fn mean_tricks(&self) -> f64 {
        self.total_tricks as f64 / self.finished().max(1) as f64
    }

    /// Whether a game of `cards` and `tricks` may enter the top K (ties on both are settled
    /// by the deal text, which is built only then: on reduced decks ties on cards alone are
    /// common enough that building every tied deal's text cost 3% of an enumeration).
    fn may_enter(&self, cards: u64, tricks: u64) -> bool {
        match self.longest.last() {
            _ if self.top == 0 => false,
            Some(last) if self.longest.len() >= self.top => {
                (cards, tricks) >= (last.cards, last.tricks)
            }
            _ => true,
        }
    }

    pub fn add_cycle(&mut self, found: CyclingDeal) {
        self.games += 1;
        self.cycling += 1;
        self.add_class(
            found.cycle_id,
            CycleClass {
                period: found.period,
                deals: 1,
                representative: found.representative.clone(),
                representative_leader: found.representative_leader,
                first_index: found.index,
            },
        );
        if self.cycles.len() < self.keep_cycles
            || self.cycles.last().is_some_and(|c| c.index > found.index)
        {
            let at = self.cycles.partition_point(|c| c.index < found.index);
            self.cycles.insert(at, found);
            self.cycles.truncate(self.keep_cycles);
        }
    }

    /// Counts a game the reference engine gave up on.
    pub fn add_unresolved(&mut self, index: DealIndex, deal: impl FnOnce() -> String) {
        self.games += 1;
        self.unresolved += 1;
        if self
            .first_unresolved
            .as_ref()
            .is_none_or(|(i, _)| index < *i)
        {
            self.first_unresolved = Some((index, deal()));
        }
    }

    fn add_class(&mut self, id: CycleId, class: CycleClass) {
        self.classes
            .entry(id)
            .and_modify(|c| {
                c.deals += class.deals;
                c.first_index = c.first_index.min(class.first_index);
            })
            .or_insert(class);
    }

    fn offer(&mut self, found: LongGame) {
        let at = self
            .longest
            .partition_point(|f| f.rank(&found) == Ordering::Less);
        self.longest.insert(at, found);
        self.longest.truncate(self.top);
    }

    fn trim_cycles(&mut self) {
        self.cycles.sort_by_key(|c| c.index);
        self.cycles.truncate(self.keep_cycles);
    }

    /// Adds `other`'s games to these.
    pub fn merge(&mut self, other: Summary) {
        self.games += other.games;
        for (seat, wins) in other.wins.into_iter().enumerate() {
            add_at(&mut self.wins, seat, wins);
        }
        self.total_cards += other.total_cards;
        self.total_tricks += other.total_tricks;
        add_counts(&mut self.histogram, &other.histogram);
        for found in other.longest {
            self.offer(found);
        }
        self.cycling += other.cycling;
        self.cycles.extend(other.cycles);
        self.trim_cycles();
        for (id, class) in other.classes {
            self.add_class(id, class);
        }
        self.unresolved += other.unresolved;
        if let Some((index, deal)) = other.first_unresolved
            && self
                .first_unresolved
                .as_ref()
                .is_none_or(|(i, _)| index < *i)
        {
            self.first_unresolved = Some((index, deal));
        }
    }
}

impl Tally for Summary {
    /// `deal` is asked for only if the game may enter the top K.
    fn record_finished(
        &mut self,
        index: DealIndex,
        cards: u64,
        tricks: u64,
        winner: usize,
        deal: impl FnOnce() -> String,
    ) {
        self.games += 1;
        add_at(&mut self.wins, winner - 1, 1);
        self.total_cards += u128::from(cards);
        self.total_tricks += u128::from(tricks);
        add_at(&mut self.histogram, (cards / HISTOGRAM_BIN) as usize, 1);
        if self.may_enter(cards, tricks) {
            self.offer(LongGame {
                index,
                deal: deal(),
                cards,
                tricks,
                winner,
            });
        }
    }

    fn record_cycle(&mut self, index: DealIndex, c: &Cycle, deal: impl FnOnce() -> String) {
        self.add_cycle(CyclingDeal {
            index,
            deal: deal(),
            preperiod: c.preperiod,
            period: c.period,
            cycle_id: c.id,
            representative: c.representative.deal_text(),
            representative_leader: c.representative.leader().number(),
        });
    }

    fn record_unresolved(&mut self, index: DealIndex, deal: impl FnOnce() -> String) {
        self.add_unresolved(index, deal);
    }

    fn merge(&mut self, other: Summary) {
        // The inherent method (inherent methods take precedence over the trait's).
        Summary::merge(self, other);
    }

    fn digest_sink(&mut self) -> Option<&mut dyn DigestSink> {
        Some(self)
    }
}

impl DigestSink for Summary {
    /// Keeps every game that may enter the top K: the threshold only rises as games come in,
    /// so a game below today's last entry can never enter.
    fn digest_spec(&self) -> DigestSpec {
        let keep_cards = match self.longest.last() {
            _ if self.top == 0 => u32::MAX,
            Some(last) if self.longest.len() >= self.top => {
                u32::try_from(last.cards).unwrap_or(u32::MAX)
            }
            _ => 0,
        };
        DigestSpec {
            bin: HISTOGRAM_BIN as u32,
            keep_cards,
            lengths: false,
        }
    }

    /// A game below `keep_cards` cards ranks below every game of at least that many: it cannot
    /// enter if `top` such games are here or kept.
    fn covered(&self, keep_cards: u32, kept: &[(usize, Played)]) -> bool {
        let here = self
            .longest
            .iter()
            .filter(|f| f.cards >= u64::from(keep_cards))
            .count();
        let kept = kept
            .iter()
            .filter(|(_, p)| matches!(p, Played::Finished { cards, .. } if *cards >= keep_cards))
            .count();
        here + kept >= self.top
    }

    fn add_digest(&mut self, digest: &Digest, leader: Player) {
        self.games += digest.finished;
        digest.add_wins(&mut self.wins, leader);
        self.total_cards += u128::from(digest.cards);
        self.total_tricks += u128::from(digest.tricks);
        add_counts(&mut self.histogram, &digest.histogram);
    }
}

/// How far a run of units has got: the summary of its units before `next_unit`. All a
/// checkpoint or a ledger row needs to resume the run exactly.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Progress {
    pub next_unit: u64,
    pub summary: Summary,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn add(s: &mut Summary, index: DealIndex, cards: u64) {
        s.record_finished(index, cards, cards / 7, 1 + (index % 2) as usize, || {
            format!("deal{index}")
        });
    }

    fn cycle(index: DealIndex, id: u64) -> CyclingDeal {
        CyclingDeal {
            index,
            deal: format!("deal{index}"),
            preperiod: Span::default(),
            period: Span {
                tricks: id,
                cards: 5 * id,
            },
            cycle_id: CycleId(id),
            representative: format!("rep{id}"),
            representative_leader: 1,
        }
    }

    #[test]
    fn cycles_are_grouped_by_id_and_the_list_is_capped_by_index() {
        let mut whole = Summary::keeping(0, 3);
        let (mut a, mut b) = (Summary::keeping(0, 3), Summary::keeping(0, 3));
        for i in 0..20u64 {
            let c = cycle((100 - i).into(), i % 3);
            whole.add_cycle(c.clone());
            if i % 2 == 0 { &mut a } else { &mut b }.add_cycle(c);
        }
        a.merge(b);
        assert_eq!(a, whole);
        assert_eq!(whole.cycling, 20);
        assert_eq!(
            whole.cycles.iter().map(|c| c.index).collect::<Vec<_>>(),
            vec![81, 82, 83]
        );
        let deals: Vec<_> = whole.classes.values().map(|c| c.deals).collect();
        assert_eq!(deals, vec![7, 7, 6]);
        assert_eq!(whole.classes[&CycleId(2)].first_index, 83);
        assert_eq!(whole.classes[&CycleId(1)].representative, "rep1");
    }

    #[test]
    fn merge_order_does_not_matter() {
        let mut whole = Summary::new(3);
        let (mut a, mut b) = (Summary::new(3), Summary::new(3));
        for i in 0..100u64 {
            let cards = (i * 37) % 101 + 10;
            add(&mut whole, i.into(), cards);
            add(if i % 3 == 0 { &mut a } else { &mut b }, i.into(), cards);
        }
        let mut ab = a.clone();
        ab.merge(b.clone());
        let mut ba = b;
        ba.merge(a);
        assert_eq!(ab, whole);
        assert_eq!(ba, whole);
        assert_eq!(
            whole.longest.iter().map(|f| f.cards).collect::<Vec<_>>(),
            vec![110, 109, 108]
        );
    }
}
