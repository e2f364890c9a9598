//! A census entry per cycle: its period, its basin searched backward, its structure, and every
//! balanced deal on it with its rank.
//!
//! Balanced here is docs/rules.md's "balanced by size" with player 1 leading (section 9,
//! `leader_1`): the deals a person would deal, and the count the literature gives (Casella et
//! al.'s 30, the Camicia enumeration's 162). Each deal's rank is its number among the deals of
//! its deck (bmn-deals, `bmn rank`), so `#K` replays it.

use std::collections::BTreeSet;
use std::sync::atomic::{AtomicBool, Ordering};

use bmn_backward::BasinConfig;
use bmn_core::{CycleId, Outcome, Player, Position, Rules, Span, cycle_positions, play_out};
use bmn_job::Job;

use crate::class::{anti_periodic, splits_at_rest_state};
use crate::method::Method;
use bmn_deals::BigUint;

/// A balanced deal whose game never ends.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct CensusDeal {
    pub deal: String,
    /// Its number among the deals of the deck (a decimal string: ranks pass 2^64).
    #[serde(serialize_with = "bmn_core::as_text")]
    pub rank: BigUint,
    /// Play before the first position on the cycle.
    pub preperiod: Span,
    /// It reaches the cycle only with the players renamed.
    pub renamed: bool,
}

/// One cycle of the census, with its class: [`CensusCycle::anti_periodic`],
/// [`CensusCycle::min_hand`] and [`CensusCycle::splits_at_rest_state`] say which methods can
/// reach it (docs/census.md).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CensusCycle {
    pub id: CycleId,
    pub period: Span,
    pub representative: Position,
    pub basin_positions: u64,
    pub basin_complete: bool,
    /// The fewest cards a player holds at a position of the cycle.
    pub min_hand: usize,
    /// Part-way round, the position is the start with the seats renamed (two players: half
    /// the period, then the same play with the hands swapped); see [`anti_periodic`](crate::class::anti_periodic).
    pub anti_periodic: bool,
    /// One period passes at least twice through a rest state of Casella's kind with the same
    /// player holding `J-`, so the cycle is a chain of segments from one to the next; see
    /// [`splits_at_rest_state`](crate::class::splits_at_rest_state).
    pub splits_at_rest_state: bool,
    /// Player 1's stack split at its jacks, when a position of the cycle has Casella's
    /// template form (`Δ1 J Δ2 J ... J -` against `J -`).
    pub pieces: Option<Vec<String>>,
    /// The methods that reached it.
    pub found_by: BTreeSet<Method>,
    /// Every balanced deal with player 1 leading in its basin, by rank.
    pub deals: Vec<CensusDeal>,
}

impl CensusCycle {
    /// Its class in a word or two: `anti-periodic`, `rest state`, both or `other`.
    pub fn class(&self) -> &'static str {
        match (self.anti_periodic, self.splits_at_rest_state) {
            (true, true) => "anti+rest",
            (true, false) => "anti-periodic",
            (false, true) => "rest state",
            (false, false) => "other",
        }
    }

    /// The names of the methods that reached it ([`Method::names`]).
    pub fn found_by_names(&self) -> Vec<&'static str> {
        Method::names(&self.found_by)
    }
}

/// The census's JSON for a cycle: its id as hex, the methods by name, its balanced deals
/// counted and listed.
impl serde::Serialize for CensusCycle {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        bmn_core::serialize_fields!(serializer, "CensusCycle", {
            "cycle_id" => self.id.to_string(),
            "period" => self.period,
            "representative" => self.representative,
            "basin_positions" => self.basin_positions,
            "basin_complete" => self.basin_complete,
            "min_hand" => self.min_hand,
            "anti_periodic" => self.anti_periodic,
            "splits_at_rest_state" => self.splits_at_rest_state,
            "pieces" => self.pieces,
            "found_by" => self.found_by_names(),
            "balanced_deals" => self.deals.len(),
            "balanced_deal_list" => self.deals,
        })
    }
}

/// The entry of the cycle `position` reaches, its basin searched with at most `basin_limit`
/// positions; `None` if its game ends, or if `stop` cut the basin search short (an entry is
/// never filed with a basin the stop cut). A piece of a job run on its worker threads
/// ([`describe_all`]): it reads the job's stop flag.
pub fn describe(
    rules: &Rules,
    position: &Position,
    basin_limit: u64,
    stop: &AtomicBool,
) -> Option<CensusCycle> {
    let Outcome::Cycle(c) = play_out(rules, position) else {
        return None;
    };
    let on_cycle = cycle_positions(rules, &c.start, c.period.tricks);
    let min_hand = on_cycle
        .iter()
        .flat_map(|p| p.stacks().iter().map(|s| s.len()))
        .min()
        .unwrap_or(0);
    let pieces = on_cycle
        .iter()
        .filter_map(bmn_pieces::template_pieces)
        .min();
    let anti_periodic = anti_periodic(&on_cycle, &c.start);
    let splits_at_rest_state = splits_at_rest_state(rules, &c.start, c.period.tricks);
    let basin = bmn_backward::basin(
        rules,
        &c.start,
        &BasinConfig {
            limit: basin_limit,
            keep_members: false,
        },
        &mut Job::quiet(stop),
    );
    if basin.as_ref().is_ok_and(|b| b.interrupted) {
        return None;
    }
    let counts = position.deck().counts();
    let (mut basin_positions, mut basin_complete, mut deals) = (0, false, Vec::new());
    if let Ok(b) = basin {
        basin_positions = b.positions;
        basin_complete = b.complete;
        deals = b
            .balanced
            .iter()
            .filter(|d| d.deal.leader() == Player(0))
            .map(|d| {
                let codes = d.deal.codes();
                CensusDeal {
                    deal: d.deal.deal_text(),
                    rank: bmn_deals::rank::rank(&counts, &codes).expect("the deck's own cards"),
                    preperiod: d.length,
                    renamed: d.renamed,
                }
            })
            .collect();
        deals.sort_by(|a, b| a.rank.cmp(&b.rank));
    }
    Some(CensusCycle {
        id: c.id,
        period: c.period,
        representative: c.representative,
        basin_positions,
        basin_complete,
        min_hand,
        anti_periodic,
        splits_at_rest_state,
        pieces,
        found_by: BTreeSet::new(),
        deals,
    })
}

/// [`describe`] for many positions on `threads` threads, in order; once the job stops,
/// `None` for every position not yet begun and the one whose basin it cut.
pub fn describe_all(
    rules: &Rules,
    positions: &[Position],
    basin_limit: u64,
    threads: usize,
    job: &mut Job,
) -> Vec<Option<CensusCycle>> {
    let stop = job.stop_flag();
    bmn_job::in_parallel(positions, threads, |part| {
        part.iter()
            .map(|p| {
                if stop.load(Ordering::Relaxed) {
                    return None;
                }
                describe(rules, p, basin_limit, stop)
            })
            .collect()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Casella et al.'s cycle: 62 tricks, 30 balanced deals with player 1 leading, one of them
    /// their published deal; every deal's rank unranks to it.
    #[test]
    fn casella_s_cycle_has_its_thirty_deals() {
        let p = Position::parse(
            "---K---Q-KQAJ-----AAJ--J--/----------Q----KQ-J-----KA",
            Player(0),
        )
        .unwrap();
        let c = describe(&Rules::STANDARD, &p, 1_000_000, &AtomicBool::new(false)).unwrap();
        assert_eq!(
            c.period,
            Span {
                tricks: 62,
                cards: 440
            }
        );
        assert!(c.basin_complete);
        assert_eq!(c.deals.len(), 30);
        assert!(c.deals.iter().any(|d| d.deal == p.deal_text()));
        assert_eq!(c.min_hand, 2);
        assert!(c.pieces.is_some() && c.splits_at_rest_state);
        assert!(!c.anti_periodic);
        let counts = p.deck().counts();
        for d in &c.deals {
            let codes = bmn_deals::rank::unrank(&counts, &d.rank).unwrap();
            let text: String = codes
                .iter()
                .map(|&k| bmn_core::Kind::from_code(k).symbol())
                .collect();
            assert_eq!(text, d.deal.replace('/', ""));
        }
        assert!(c.deals.windows(2).all(|w| w[0].rank < w[1].rank));
    }
}
