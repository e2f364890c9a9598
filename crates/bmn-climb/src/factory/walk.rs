//! The factory's walks: from games that never end, walk toward balanced starting deals
//! (every hand the size round-robin dealing gives, player 1 leading) that never end, and keep
//! a catalogue of every cycle reached.
//!
//! Why walking works: a position on a cycle is itself a game that never ends, and so is every
//! position of the cycle's basin. Casella et al.'s construction gives cycles whose positions
//! are lopsided (a 50/2 deck); their basins are small and never reach 26/26. But edits of an
//! endless position often land on another cycle (its pieces rearranged, a card moved between
//! hands), and each new cycle brings new positions, some closer to balance. So the factory
//! keeps, for every cycle found, its position closest to balance (over the cycle and its
//! basin), and each round edits the closest ones with moves that shift cards between hands
//! (transfers) and within them. Every endless game met is played to its cycle exactly; every
//! new cycle's basin is searched backward, and its balanced deals are the factory's output.
//!
//! Results depend only on the configuration, the seeds given and the number of rounds.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::atomic::{AtomicBool, Ordering};

use bmn_backward::BasinConfig;
use bmn_core::{CycleId, Outcome, Player, Position, Span, cycle_positions, play_out};
use bmn_job::Job;

use super::FactoryConfig;
use crate::cards::Cards;
use crate::eval::{Evaluator, Game};
use crate::moves;

/// A cycle of the catalogue.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CycleEntry {
    pub cycle_id: CycleId,
    pub period: Span,
    /// The cycle's canonical position.
    pub representative: Position,
    /// The round that found it (0: a seed).
    pub round: u64,
    /// Positions of its basin, and whether the search was complete.
    pub basin_positions: u64,
    pub basin_complete: bool,
    /// Balanced deals with player 1 leading in its basin (or found by walking) that reach it.
    pub balanced_count: usize,
    /// The first of them (deal text, preperiod).
    pub balanced: Vec<(String, Span)>,
    /// All of them, to count each once.
    pub balanced_seen: BTreeSet<String>,
    /// The least imbalance over its positions and basin, and a position that has it (player 1
    /// leading, after renaming the seats if need be).
    pub closest: usize,
    pub closest_deal: String,
    /// Rounds its closest position has been edited.
    pub visits: u64,
    /// Player 1's stack split at the jacks, when some position of the cycle has Casella's
    /// template form (player 1 `Δ1 J Δ2 J ... J -` against `J -`): its pieces.
    pub pieces: Option<Vec<String>>,
}

/// Everything the factory has found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Catalogue {
    pub cycles: BTreeMap<CycleId, CycleEntry>,
    pub round: u64,
    /// Games played (edits evaluated).
    pub evals: u64,
    /// Of them, games that never end.
    pub endless: u64,
}

impl Catalogue {
    /// The least imbalance of any cycle's closest position (0: a balanced deal was found);
    /// `None` before any cycle is catalogued.
    pub fn closest(&self) -> Option<usize> {
        self.cycles.values().map(|c| c.closest).min()
    }

    /// Cycles with at least one balanced deal.
    pub fn balanced_cycles(&self) -> usize {
        self.cycles
            .values()
            .filter(|c| c.balanced_count > 0)
            .count()
    }
}

/// The factory at work: the walks of `config` (`walkers`, `neighbours`, `moves`, `seed`,
/// `basin_limit`, `keep_balanced`, `rules`) and what they found.
pub struct Factory<'a> {
    pub config: FactoryConfig,
    pub evaluator: &'a Evaluator,
    pub catalogue: Catalogue,
}

impl<'a> Factory<'a> {
    pub fn new(config: FactoryConfig, evaluator: &'a Evaluator) -> Factory<'a> {
        Factory {
            config,
            evaluator,
            catalogue: Catalogue::default(),
        }
    }

    /// Adds the cycle `position` reaches (if it never ends), and `position` itself as one of
    /// the cycle's positions (it reaches the cycle). Returns the cycle's id if it was new.
    /// Once `stop` is raised the basin search under way ends, and a new cycle whose basin it
    /// cut is not filed.
    pub fn add(&mut self, position: &Position, stop: &AtomicBool) -> Option<CycleId> {
        let Outcome::Cycle(c) = play_out(&self.config.rules, position) else {
            return None;
        };
        let id = c.id;
        let new = !self.catalogue.cycles.contains_key(&id);
        if new {
            let entry = self.entry(&c.start, c.period, c.id, &c.representative, stop)?;
            self.catalogue.cycles.insert(id, entry);
        }
        self.meet(id, position, c.preperiod);
        new.then_some(id)
    }

    /// A position known to reach cycle `id` (with `preperiod`): the cycle's closest position
    /// if it is closer, one more balanced deal if it is one.
    fn meet(&mut self, id: CycleId, position: &Position, preperiod: Span) {
        let keep = self.config.keep_balanced;
        let Some(entry) = self.catalogue.cycles.get_mut(&id) else {
            return;
        };
        let Some(cards) = Cards::of(&position.rotated_to_leader()) else {
            return;
        };
        let key = (cards.imbalance(), cards.text());
        if key < (entry.closest, entry.closest_deal.clone()) {
            entry.closest = key.0;
            entry.closest_deal = key.1.clone();
        }
        // A balanced deal is one with player 1 leading as dealt (not after renaming seats).
        if position.leader() == Player(0) && key.0 == 0 && entry.balanced_seen.insert(key.1.clone())
        {
            entry.balanced_count += 1;
            if entry.balanced.len() < keep {
                entry.balanced.push((key.1, preperiod));
            }
        }
    }

    /// A new cycle's entry: its positions, its basin, its balanced deals, its closest position;
    /// `None` if `stop` cut its basin search short.
    fn entry(
        &self,
        on_cycle: &Position,
        period: Span,
        id: CycleId,
        rep: &Position,
        stop: &AtomicBool,
    ) -> Option<CycleEntry> {
        let rules = &self.config.rules;
        let positions = cycle_positions(rules, on_cycle, period.tricks);
        let pieces = positions
            .iter()
            .filter_map(bmn_pieces::template_pieces)
            .min();
        let basin = bmn_backward::basin(
            rules,
            on_cycle,
            &BasinConfig {
                limit: self.config.basin_limit,
                keep_members: true,
            },
            &mut Job::quiet(stop),
        );
        if basin.as_ref().is_ok_and(|b| b.interrupted) {
            return None;
        }
        let mut closest: Option<(usize, String)> = None;
        let mut consider = |p: &Position| {
            if let Some(c) = Cards::of(&p.rotated_to_leader()) {
                let key = (c.imbalance(), c.text());
                if closest.as_ref().is_none_or(|best| key < *best) {
                    closest = Some(key);
                }
            }
        };
        positions.iter().for_each(&mut consider);
        let (mut basin_positions, mut basin_complete, mut balanced) = (0, true, Vec::new());
        if let Ok(b) = &basin {
            basin_positions = b.positions;
            basin_complete = b.complete;
            for p in b.members.iter().flatten() {
                consider(p);
            }
            balanced = b
                .balanced
                .iter()
                .filter(|d| d.deal.leader() == Player(0))
                .map(|d| (d.deal.deal_text(), d.length))
                .collect();
        }
        let (closest, closest_deal) = closest.unwrap_or((usize::MAX, String::new()));
        let balanced_seen: BTreeSet<String> = balanced.iter().map(|(d, _)| d.clone()).collect();
        let balanced_count = balanced_seen.len();
        balanced.truncate(self.config.keep_balanced);
        Some(CycleEntry {
            cycle_id: id,
            period,
            representative: rep.clone(),
            round: self.catalogue.round,
            basin_positions,
            basin_complete,
            balanced_count,
            balanced,
            balanced_seen,
            closest,
            closest_deal,
            visits: 0,
            pieces,
        })
    }

    /// One round: the `walkers` cycles whose closest positions are nearest balance (fewest
    /// visits first among equals) are edited `neighbours` times each; every endless edit
    /// counts for its cycle, and new cycles (their basins searched on `threads` threads) join
    /// the catalogue. Once `stop` is raised the basin searches under way end, and the round
    /// is dropped whole (false): the catalogue stays that of the rounds finished.
    pub fn round(&mut self, threads: usize, stop: &AtomicBool) -> bool {
        let mut order: Vec<&CycleEntry> = self
            .catalogue
            .cycles
            .values()
            .filter(|c| !c.closest_deal.is_empty())
            .collect();
        order.sort_by(|a, b| {
            (a.closest, a.visits, &a.cycle_id).cmp(&(b.closest, b.visits, &b.cycle_id))
        });
        let chosen: Vec<(CycleId, Cards)> = order
            .iter()
            .take(self.config.walkers)
            .map(|c| {
                let p = Position::parse(&c.closest_deal, Player(0)).expect("a deal we wrote");
                (c.cycle_id, Cards::of(&p).expect("player 1 leads"))
            })
            .collect();
        let mut batch = Vec::new();
        for (w, (_, start)) in chosen.iter().enumerate() {
            let mut rng = crate::climb::rng(self.config.seed, w, self.catalogue.round);
            for _ in 0..self.config.neighbours {
                let mut c = start.clone();
                moves::apply(&mut c, &self.config.moves, false, &mut rng);
                if c.sizes.iter().all(|&s| s > 0) {
                    batch.push(c);
                }
            }
        }
        let games = self.evaluator.evaluate(&batch, threads);
        // Distinct endless edits, in batch order.
        let mut seen = BTreeSet::new();
        let mut endless: Vec<(CycleId, Position, Span)> = Vec::new();
        for (cards, game) in batch.iter().zip(&games) {
            if let Game::Endless { preperiod, id, .. } = game
                && seen.insert(cards.clone())
            {
                endless.push((*id, cards.position(), *preperiod));
            }
        }
        // New cycles: their entries (a basin search each) in parallel, filed in batch order.
        let mut new: Vec<(CycleId, Position)> = Vec::new();
        for (id, p, _) in &endless {
            if !self.catalogue.cycles.contains_key(id) && !new.iter().any(|(n, _)| n == id) {
                new.push((*id, p.clone()));
            }
        }
        let entries = self.entries(&new, threads, stop);
        if stop.load(Ordering::Relaxed) {
            return false;
        }
        for (id, _) in &chosen {
            if let Some(c) = self.catalogue.cycles.get_mut(id) {
                c.visits += 1;
            }
        }
        self.catalogue.evals += batch.len() as u64;
        self.catalogue.endless += endless.len() as u64;
        for ((id, _), entry) in new.iter().zip(entries) {
            if let Some(entry) = entry {
                self.catalogue.cycles.insert(*id, entry);
            }
        }
        for (id, p, pre) in &endless {
            self.meet(*id, p, *pre);
        }
        self.catalogue.round += 1;
        true
    }

    /// The entries of new cycles, each from a position that reaches it, on `threads` threads
    /// (`None` for a game that ends, or a basin the stop cut).
    fn entries(
        &self,
        new: &[(CycleId, Position)],
        threads: usize,
        stop: &AtomicBool,
    ) -> Vec<Option<CycleEntry>> {
        bmn_job::in_parallel(new, threads, |part| {
            part.iter()
                .map(|(_, p)| match play_out(&self.config.rules, p) {
                    Outcome::Cycle(c) => {
                        self.entry(&c.start, c.period, c.id, &c.representative, stop)
                    }
                    Outcome::Finished { .. } => None,
                })
                .collect()
        })
    }
}
