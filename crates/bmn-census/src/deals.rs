//! Every deal of a small deck at any table, played by the reference engine: the truth a census
//! is measured against where bmn-exhaustive's two-player kernels do not play (three players
//! or more).

use std::collections::BTreeMap;

use bmn_core::{CycleId, Outcome, Position, Rules, play_out};
use bmn_job::Job;
use bmn_search::DealSource;

use crate::error::CensusError;

/// Deals played at a time (on every thread).
const BATCH: usize = 65_536;

/// What playing every deal found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct EveryDeal {
    pub deals: u64,
    /// Each cycle reached: its first deal (in rank order) and how many deals reach it.
    pub cycles: BTreeMap<CycleId, (Position, u64)>,
    /// Every deal was played (false if stopped).
    pub complete: bool,
}

/// Plays every deal of `source` (its deck in every arrangement, cut into its hand sizes,
/// player 1 leading) in rank order, on `threads` threads, reporting the deals played through
/// the job; once it stops, the deals played so far (`complete` false).
pub fn every_deal(
    source: &DealSource,
    rules: &Rules,
    threads: usize,
    job: &mut Job,
) -> Result<EveryDeal, CensusError> {
    let mut arrangement: Vec<u8> = source
        .deck()
        .cards()
        .iter()
        .map(|k| k.index() as u8)
        .collect();
    arrangement.sort_unstable();
    let mut out = EveryDeal::default();
    let mut more = true;
    while more {
        if !job.progress(out.deals, None) {
            return Ok(out);
        }
        let mut batch = Vec::with_capacity(BATCH);
        while more && batch.len() < BATCH {
            batch.push(arrangement.clone());
            more = bmn_deals::next_arrangement(&mut arrangement);
        }
        let played = bmn_job::in_parallel(&batch, threads, |part| {
            part.iter()
                .map(|a| {
                    let p = source.position(a);
                    match play_out(rules, &p) {
                        Outcome::Cycle(c) => Some((c.id, p)),
                        Outcome::Finished { .. } => None,
                    }
                })
                .collect()
        });
        out.deals += batch.len() as u64;
        for (id, p) in played.into_iter().flatten() {
            out.cycles.entry(id).or_insert((p, 0)).1 += 1;
        }
    }
    out.complete = true;
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use bmn_core::Deck;

    /// Two players: the same cycles and counts as bmn-exhaustive's fixture for the Camicia
    /// half deck (one cycle, 16 deals).
    #[test]
    fn two_players_agree_with_the_enumeration() {
        let source = DealSource::new(Deck::parse("2J,2Q,2K,14-").unwrap(), false).unwrap();
        let r = every_deal(
            &source,
            &Rules::STANDARD,
            2,
            &mut Job::quiet(&std::sync::atomic::AtomicBool::new(false)),
        )
        .unwrap();
        assert!(r.complete);
        assert_eq!(r.deals, 3_488_400);
        assert_eq!(r.cycles.len(), 1);
        assert_eq!(r.cycles.values().next().unwrap().1, 16);
        // Its one cycle is anti-periodic: half a period of play swaps the hands.
        let (start, _) = r.cycles.values().next().unwrap();
        let c = crate::describe(&Rules::STANDARD, start, 1_000, &Default::default()).unwrap();
        assert!(c.anti_periodic && !c.splits_at_rest_state);
        let Outcome::Cycle(cycle) = play_out(&Rules::STANDARD, start) else {
            unreachable!()
        };
        let mut half = cycle.start.clone();
        for _ in 0..cycle.period.tricks / 2 {
            bmn_core::play_trick(&Rules::STANDARD, &mut half);
        }
        assert_eq!(cycle.period.tricks % 2, 0);
        assert_eq!(half, cycle.start.seats_rotated(1));
    }
}
