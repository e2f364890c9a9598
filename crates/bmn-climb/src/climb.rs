//! Climbing toward long games: walkers that edit deals and keep the edits that play longer.
//!
//! The search runs in rounds. In a round every walker draws `neighbours` edits of its current
//! deal (moves of [`crate::moves`]), all walkers' neighbours are played together in one batch
//! (the kernels' lanes stay full), and each walker then applies its acceptance rule:
//!
//! - `hill`: the best neighbour replaces the current deal if it plays at least as long (ties
//!   let a walker drift along plateaus); after `restart_after` rounds without a new best of its
//!   own the walker restarts from a fresh random deal;
//! - `anneal`: simulated annealing (Kirkpatrick, Gelatt, Vecchi 1983) on the best neighbour:
//!   a shorter game is accepted with probability `exp(-loss / T)`, `T` falling geometrically
//!   each round and rising again at a restart;
//! - `population`: the walkers are one population; each round the best `walkers` distinct deals
//!   among the walkers and all their neighbours survive (a (μ + λ) evolution strategy, mutation
//!   only).
//!
//! The randomness of walker `w` in round `r` comes from bmn-deals' stream at seed
//! `seed ^ w * C`, index `r`, and a round's batch is played in order whatever the threads, so a
//! climb is a function of its configuration and the number of rounds alone.

use std::collections::BTreeSet;

use bmn_deals::{Xoshiro256PlusPlus, deal_rng};
use bmn_search::DealSource;
use serde::{Deserialize, Serialize};

use crate::cards::Cards;
use crate::eval::{Evaluator, Game};
use crate::moves::{self, MoveSet};

/// The acceptance rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Accept {
    Hill,
    Anneal,
    Population,
}

impl Accept {
    pub fn parse(text: &str) -> Option<Accept> {
        match text {
            "hill" => Some(Accept::Hill),
            "anneal" => Some(Accept::Anneal),
            "population" => Some(Accept::Population),
            _ => None,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Accept::Hill => "hill",
            Accept::Anneal => "anneal",
            Accept::Population => "population",
        }
    }
}

/// What a long game is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Objective {
    Cards,
    Tricks,
}

impl Objective {
    pub fn parse(text: &str) -> Option<Objective> {
        match text {
            "cards" => Some(Objective::Cards),
            "tricks" => Some(Objective::Tricks),
            _ => None,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Objective::Cards => "cards",
            Objective::Tricks => "tricks",
        }
    }

    /// A game's length by this objective: 0 for a game that does not finish.
    pub fn score(self, game: &Game) -> u64 {
        match (self, game) {
            (Objective::Cards, Game::Finished { cards, .. }) => *cards,
            (Objective::Tricks, Game::Finished { tricks, .. }) => *tricks,
            _ => 0,
        }
    }
}

/// How to climb.
#[derive(Clone, Debug)]
pub struct ClimbConfig {
    pub seed: u64,
    pub walkers: usize,
    pub neighbours: usize,
    pub moves: MoveSet,
    pub accept: Accept,
    pub objective: Objective,
    /// Random starts (and restarts) are balanced deals, and edits keep every hand's kinds.
    pub balanced: bool,
    /// Rounds without a new best of its own before a walker restarts (hill, anneal).
    pub restart_after: u32,
    /// Annealing's starting temperature, in the objective's units, and its factor per round.
    pub temperature: f64,
    pub cooling: f64,
    /// How many of the longest games to keep.
    pub top: usize,
    /// Deals to start from, given to the walkers in turn; random deals for the rest.
    pub starts: Vec<Cards>,
    /// Where random starts come from (two players, the table's deck).
    pub source: DealSource,
}

/// One climber.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Walker {
    pub current: Cards,
    pub score: u64,
    /// Its best since its last (re)start.
    pub best: u64,
    pub stale: u32,
    pub temperature: f64,
    /// Restarts so far: the index of its next random start in its stream.
    pub restarts: u64,
}

/// A game found: the deal, its length and winner, and the evaluation that found it.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
pub struct BestGame {
    pub deal: String,
    pub cards: u64,
    pub tricks: u64,
    pub winner: usize,
    pub eval: u64,
}

/// `{"deal","leader","cards","tricks","winner","eval"}`: a climb's deals are led by player 1,
/// which the key says as every report's games do (a saved state read back ignores it).
impl Serialize for BestGame {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        bmn_core::serialize_fields!(serializer, "BestGame", {
            "deal" => self.deal,
            "leader" => 1,
            "cards" => self.cards,
            "tricks" => self.tricks,
            "winner" => self.winner,
            "eval" => self.eval,
        })
    }
}

/// A new best, for the trajectory.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Point {
    pub evals: u64,
    pub round: u64,
    pub seconds: f64,
    pub cards: u64,
    pub tricks: u64,
}

/// A game found that never ends.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Endless {
    pub deal: String,
    pub cycle_id: String,
    pub period_tricks: u64,
    pub eval: u64,
}

/// Everything a climb has to go on from where it stopped.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ClimbState {
    pub round: u64,
    pub evals: u64,
    /// Seconds spent in earlier sessions of this climb (a resumed run adds its own).
    pub seconds: f64,
    pub walkers: Vec<Walker>,
    /// The longest games, best first (distinct deals).
    pub best: Vec<BestGame>,
    pub trajectory: Vec<Point>,
    /// The first games found that never end (at most [`MAX_ENDLESS`]).
    pub endless: Vec<Endless>,
}

/// How many endless games a climb keeps.
pub const MAX_ENDLESS: usize = 100;

/// A constant to spread the walkers' seeds (the 64-bit golden ratio, odd).
const SPREAD: u64 = 0x9E37_79B9_7F4A_7C15;

/// Walker `w`'s randomness in round `r` (the factory's walkers draw theirs the same way).
pub(crate) fn rng(seed: u64, walker: usize, round: u64) -> Xoshiro256PlusPlus {
    deal_rng(
        seed ^ (walker as u64).wrapping_add(1).wrapping_mul(SPREAD),
        round,
    )
}

/// A random start for walker `w` (its `k`-th).
fn random_start(config: &ClimbConfig, walker: usize, k: u64) -> Cards {
    let mut codes = vec![0u8; config.source.len()];
    // The stream of starts: seed offset so starts never coincide with a search's deals.
    let seed = config.seed.wrapping_add(SPREAD) ^ (walker as u64).wrapping_mul(SPREAD);
    config.source.deal(seed, k, &mut codes);
    let half = codes.len().div_ceil(2);
    Cards {
        sizes: vec![half, codes.len() - half],
        codes,
    }
}

/// Summary of a round's outcome for the caller.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RoundReport {
    /// Whether the best game improved.
    pub improved: bool,
}

/// Why a climb cannot go on.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ClimbError {
    #[error(
        "the reference engine disagrees with the kernel on {deal}: kernel {kernel:?}, reference {reference:?}"
    )]
    Disagreement {
        deal: String,
        kernel: Game,
        reference: Game,
    },
}

impl ClimbState {
    /// The walkers at their starts, nothing evaluated yet.
    pub fn new(config: &ClimbConfig) -> ClimbState {
        let walkers = (0..config.walkers)
            .map(|w| Walker {
                current: config
                    .starts
                    .get(w % config.starts.len().max(1))
                    .filter(|_| !config.starts.is_empty())
                    .cloned()
                    .unwrap_or_else(|| random_start(config, w, 0)),
                score: 0,
                best: 0,
                stale: 0,
                temperature: config.temperature,
                restarts: 0,
            })
            .collect();
        ClimbState {
            round: 0,
            evals: 0,
            seconds: 0.0,
            walkers,
            best: Vec::new(),
            trajectory: Vec::new(),
            endless: Vec::new(),
        }
    }

    /// Evaluations after `rounds` rounds of `config`: every walker's start and neighbours in
    /// the first round, its neighbours in each later one (`None` past `u64`).
    fn evals_after(config: &ClimbConfig, rounds: u64) -> Option<u64> {
        let walkers = config.walkers as u64;
        let k = config.neighbours.max(1) as u64;
        match rounds {
            0 => Some(0),
            r => walkers
                .checked_mul(k + 1)?
                .checked_add(walkers.checked_mul(k)?.checked_mul(r - 1)?),
        }
    }

    /// Checks a recorded state (a ledger row read back on `--resume`) against the climb it
    /// is to go on with: what [`ClimbState::round`] relies on and a climb always writes.
    /// Without it a corrupt or hand-edited row makes the climb panic part-way (a hand that
    /// is not a slice of the codes, a code that is not a card, a counter at its maximum).
    pub fn check(&self, config: &ClimbConfig) -> Result<(), String> {
        if self.walkers.len() != config.walkers {
            return Err(format!(
                "{} walkers recorded, the climb has {}",
                self.walkers.len(),
                config.walkers
            ));
        }
        // The counts of a climb that ran `round` rounds, with room for one more.
        let evals = ClimbState::evals_after(config, self.round);
        if evals != Some(self.evals)
            || ClimbState::evals_after(config, self.round.saturating_add(1)).is_none()
        {
            return Err(format!(
                "{} evaluations recorded after {} rounds",
                self.evals, self.round
            ));
        }
        let deck = config.source.deck().counts();
        for (w, walker) in self.walkers.iter().enumerate() {
            let cards = &walker.current;
            // Hands cut from the codes, none empty (`give` moves may change their sizes).
            let whole = cards.sizes.len() == config.source.players()
                && cards.sizes.iter().all(|&s| s > 0 && s <= cards.codes.len())
                && cards.sizes.iter().sum::<usize>() == cards.codes.len()
                && cards.codes.len() == config.source.len()
                && cards.codes.iter().all(|&c| usize::from(c) < deck.len());
            let mut counts = [0u32; 6];
            if whole {
                for &c in &cards.codes {
                    counts[usize::from(c)] += 1;
                }
            }
            if !whole || counts != deck {
                return Err(format!(
                    "walker {} holds no deal of the climb's deck",
                    w + 1
                ));
            }
            if walker.stale >= config.restart_after || walker.restarts == u64::MAX {
                return Err(format!("walker {} has impossible counters", w + 1));
            }
        }
        // Longest first, as `note` keeps them: a new best is measured against the first, and
        // one out of order would pass for a new best and fail the reference engine's replay.
        let score = |f: &BestGame| config.objective.score(&finished(f));
        if self.best.windows(2).any(|w| score(&w[0]) < score(&w[1])) {
            return Err("the best games are not longest first".into());
        }
        if let Some(f) = self.best.iter().find(|f| {
            bmn_core::Position::parse_deal(&f.deal, bmn_core::Player(0))
                .map_or(true, |p| p.players() != config.source.players())
        }) {
            return Err(format!("'{}' among the best games is not a deal", f.deal));
        }
        Ok(())
    }

    /// The best game's length by the objective (0 before any).
    pub fn best_score(&self, objective: Objective) -> u64 {
        self.best
            .first()
            .map_or(0, |f| objective.score(&finished(f)))
    }

    /// Plays one round: every walker's neighbours in one batch, then every walker's rule.
    /// `seconds` is the climb's time so far (for the trajectory). A new best is replayed on
    /// the reference engine before it is kept.
    pub fn round(
        &mut self,
        config: &ClimbConfig,
        evaluator: &Evaluator,
        threads: usize,
        seconds: f64,
    ) -> Result<RoundReport, ClimbError> {
        let first_round = self.round == 0;
        let k = config.neighbours.max(1);
        let mut batch = Vec::with_capacity(self.walkers.len() * (k + 1));
        for (w, walker) in self.walkers.iter().enumerate() {
            let mut rng = rng(config.seed, w, self.round);
            if first_round {
                batch.push(walker.current.clone());
            }
            for _ in 0..k {
                let mut c = walker.current.clone();
                moves::apply(&mut c, &config.moves, config.balanced, &mut rng);
                batch.push(c);
            }
        }
        let games = evaluator.evaluate(&batch, threads);
        let before = self.best_score(config.objective);
        // Record every game in batch order (the evaluation count names it).
        for (i, (cards, game)) in batch.iter().zip(&games).enumerate() {
            self.note(config, cards, game, self.evals + i as u64);
        }
        self.evals += batch.len() as u64;
        let per = if first_round { k + 1 } else { k };
        let scores: Vec<u64> = games.iter().map(|g| config.objective.score(g)).collect();
        match config.accept {
            Accept::Population => self.select(&batch, &scores, first_round),
            Accept::Hill | Accept::Anneal => {
                for w in 0..self.walkers.len() {
                    let part = w * per..(w + 1) * per;
                    self.step(config, w, &batch[part.clone()], &scores[part], first_round);
                }
            }
        }
        self.round += 1;
        let improved = self.best_score(config.objective) > before;
        if improved {
            self.check_best(evaluator)?;
            let f = &self.best[0];
            self.trajectory.push(Point {
                evals: f.eval,
                round: self.round,
                seconds: self.seconds + seconds,
                cards: f.cards,
                tricks: f.tricks,
            });
        }
        Ok(RoundReport { improved })
    }

    /// Keeps a game among the best (and an endless one among the endless).
    fn note(&mut self, config: &ClimbConfig, cards: &Cards, game: &Game, eval: u64) {
        match *game {
            Game::Finished {
                cards: c,
                tricks,
                winner,
            } => {
                let score = config.objective.score(game);
                let worst = self
                    .best
                    .last()
                    .map_or(0, |f| config.objective.score(&finished(f)));
                if self.best.len() >= config.top && score <= worst {
                    return;
                }
                let deal = cards.text();
                if self.best.iter().any(|f| f.deal == deal) {
                    return;
                }
                self.best.push(BestGame {
                    deal,
                    cards: c,
                    tricks,
                    winner,
                    eval,
                });
                // Longest first; among equals, the earliest found.
                self.best.sort_by(|a, b| {
                    let key = |f: &BestGame| config.objective.score(&finished(f));
                    key(b).cmp(&key(a)).then(a.eval.cmp(&b.eval))
                });
                self.best.truncate(config.top.max(1));
            }
            Game::Endless { period, id, .. } if self.endless.len() < MAX_ENDLESS => {
                let deal = cards.text();
                if !self.endless.iter().any(|e| e.deal == deal) {
                    self.endless.push(Endless {
                        deal,
                        cycle_id: id.to_string(),
                        period_tricks: period.tricks,
                        eval,
                    });
                }
            }
            _ => {}
        }
    }

    /// Hill climbing or annealing for walker `w` over its neighbours' scores.
    fn step(
        &mut self,
        config: &ClimbConfig,
        w: usize,
        batch: &[Cards],
        scores: &[u64],
        first: bool,
    ) {
        let (batch, scores) = if first {
            // The start itself was played first: it is the current score.
            self.walkers[w].score = scores[0];
            self.walkers[w].best = scores[0];
            (&batch[1..], &scores[1..])
        } else {
            (batch, scores)
        };
        let Some(best_i) = (0..scores.len()).max_by_key(|&i| (scores[i], std::cmp::Reverse(i)))
        else {
            return;
        };
        let mut rng = rng(config.seed ^ 0x5EED, w, self.round);
        let walker = &mut self.walkers[w];
        let candidate = scores[best_i];
        let accept = match config.accept {
            Accept::Hill => candidate >= walker.score,
            Accept::Anneal => {
                candidate >= walker.score || {
                    let loss = (walker.score - candidate) as f64;
                    let p = (-loss / walker.temperature.max(1e-9)).exp();
                    f64::from(rng.next_u32()) / f64::from(u32::MAX) < p
                }
            }
            Accept::Population => unreachable!("handled by select"),
        };
        if accept {
            walker.current = batch[best_i].clone();
            walker.score = candidate;
        }
        if walker.score > walker.best {
            walker.best = walker.score;
            walker.stale = 0;
        } else {
            walker.stale += 1;
        }
        walker.temperature *= config.cooling;
        if walker.stale >= config.restart_after {
            walker.restarts += 1;
            walker.current = random_start(config, w, walker.restarts);
            walker.score = 0;
            walker.best = 0;
            walker.stale = 0;
            walker.temperature = config.temperature;
        }
    }

    /// (μ + λ) selection: the best distinct deals among the walkers and their neighbours.
    fn select(&mut self, batch: &[Cards], scores: &[u64], first: bool) {
        let mut pool: Vec<(u64, &Cards)> = Vec::new();
        if !first {
            pool.extend(self.walkers.iter().map(|w| (w.score, &w.current)));
        }
        pool.extend(scores.iter().copied().zip(batch));
        // Longest first, then by the deal (a total order: no dependence on thread timing).
        pool.sort_by(|a, b| b.0.cmp(&a.0).then_with(|| a.1.cmp(b.1)));
        let mut seen = BTreeSet::new();
        let mut next = Vec::with_capacity(self.walkers.len());
        for (score, cards) in pool {
            if next.len() == self.walkers.len() {
                break;
            }
            if seen.insert(cards.clone()) {
                next.push((score, cards.clone()));
            }
        }
        for (walker, (score, cards)) in self.walkers.iter_mut().zip(next) {
            walker.current = cards;
            walker.score = score;
            walker.best = walker.best.max(score);
        }
    }

    /// Replays the best game on the reference engine: it must say the same.
    fn check_best(&self, evaluator: &Evaluator) -> Result<(), ClimbError> {
        let f = &self.best[0];
        let position = bmn_core::Position::parse_deal(&f.deal, bmn_core::Player(0))
            .expect("a deal the climb wrote");
        let reference = Game::from(bmn_core::play_out(&evaluator.rules, &position));
        let kernel = finished(f);
        if reference != kernel {
            return Err(ClimbError::Disagreement {
                deal: f.deal.clone(),
                kernel,
                reference,
            });
        }
        Ok(())
    }
}

fn finished(f: &BestGame) -> Game {
    Game::Finished {
        cards: f.cards,
        tricks: f.tricks,
        winner: f.winner,
    }
}
