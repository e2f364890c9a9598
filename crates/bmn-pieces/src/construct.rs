//! `bmn pieces construct`: standard-deck games from found pieces, then balanced deals.
//!
//! Casella et al. (arXiv 2403.13855, 2024) put pieces, each followed by a jack, into player
//! 1's stack: `Δ1 J Δ2 J Δ3 J - / J -` holds a standard deck when the three pieces hold
//! 4 Q, 4 K, 4 A and 34 plain cards between them. Deck `k` of a seed draws an ordered
//! triple of pieces (any form of each) uniformly among the triples of the pool that fill
//! the deck, from xoshiro256++ seeded for `(seed, k)` (bmn_deals); the reference
//! engine plays it, and every distinct cycle reached is then searched backward
//! (bmn_backward::basin) for balanced 26/26 starting deals, as the paper did.
//!
//! Decks are numbered units merged in order (bmn_job::run_units) and basins are searched
//! in the order their cycles were first reached, so the result depends only on the pool,
//! the seed and the budget, never on the thread count.

use std::collections::{BTreeMap, HashSet};

use bmn_backward::{BasinConfig, BasinTarget, basin};
use bmn_core::{CycleId, Outcome, Position, Rules, Span};
use bmn_deals::{Xoshiro256PlusPlus, deal_rng};
use bmn_job::Job;

use crate::error::PiecesError;
use crate::piece::{Composition, Piece};
use crate::search::FoundPiece;
use crate::template::{jack_position, play};

/// How many decks to try and how hard to look backward.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ConstructConfig {
    pub seed: u64,
    /// Decks to draw and play (the budget of the run).
    pub decks: u64,
    /// Tricks after which a deck's game is given up on.
    pub give_up: u64,
    /// Positions a basin search may visit per cycle (bmn_backward::BasinConfig::limit).
    pub basin_limit: u64,
    /// The cards the three pieces hold between them: [`Composition::STANDARD_PIECES`] for
    /// the standard deck, [`Composition::pieces_of`] any deck of four jacks (Camicia).
    pub target: Composition,
    /// Only decks with a piece of this composition: a rare long piece (Casella's 31-card
    /// piece) is in a vanishing share of all the pool's triples, so a uniform draw would
    /// almost never try it.
    pub around: Option<Composition>,
}

/// A non-terminating standard-deck game the construction found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EndlessGame {
    pub deal: Position,
    /// 26/26 (bmn_backward::is_balanced).
    pub balanced: bool,
    /// Play before the cycle.
    pub preperiod: Span,
    pub period: Span,
    pub cycle_id: CycleId,
    /// For a deck of the construction: its pieces and its number in the seed's stream.
    /// `None` for a balanced deal found backward.
    pub deck: Option<([Piece; 3], u64)>,
}

/// `{"deal","leader","balanced_by_size","preperiod","period","cycle_id","pieces","deck_index"}`.
impl serde::Serialize for EndlessGame {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        bmn_core::serialize_fields!(serializer, "EndlessGame", {
            "deal" => self.deal.deal_text(),
            "leader" => self.deal.leader(),
            "balanced_by_size" => self.balanced,
            "preperiod" => self.preperiod,
            "period" => self.period,
            "cycle_id" => self.cycle_id.to_string(),
            "pieces" => self.deck.as_ref().map(|(p, _)| p),
            "deck_index" => self.deck.as_ref().map(|(_, k)| k),
        })
    }
}

/// One distinct cycle reached by the decks, with what the backward search found (serialized
/// with its balanced deals counted: the report lists them among its games).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct ReachedCycle {
    #[serde(rename = "cycle_id", serialize_with = "bmn_core::as_text")]
    pub id: CycleId,
    pub period: Span,
    pub representative: Position,
    /// Decks (of those drawn, repeats included) whose game runs into it.
    pub decks: u64,
    /// Positions in its basin (both orientations), and whether the search was exhaustive.
    pub basin_positions: u64,
    pub basin_complete: bool,
    /// Balanced deals whose game runs into it, player 1 or 2 leading, longest first.
    #[serde(rename = "balanced_deals", serialize_with = "count")]
    pub balanced: Vec<EndlessGame>,
}

fn count<S: serde::Serializer>(games: &[EndlessGame], serializer: S) -> Result<S::Ok, S::Error> {
    serializer.serialize_u64(games.len() as u64)
}

/// What a construction run found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Construction {
    /// Ordered triples of pool pieces that fill a standard deck (the space drawn from).
    pub triples: u128,
    pub decks_tried: u64,
    /// Distinct decks among those drawn.
    pub distinct_decks: u64,
    pub non_terminating: u64,
    pub finishing: u64,
    pub unresolved: u64,
    /// Every distinct non-terminating deck, in the order first drawn.
    pub decks: Vec<EndlessGame>,
    /// Every distinct cycle, in the order first reached.
    pub cycles: Vec<ReachedCycle>,
}

/// The pool grouped by composition: every form of every piece is a piece.
struct Pool {
    /// (composition, its pieces), in composition order.
    groups: Vec<(Composition, Vec<Piece>)>,
    /// Ordered triples of group indices that fill the deck, with their piece counts'
    /// running total (for drawing a triple uniformly).
    triples: Vec<([usize; 3], u128)>,
    total: u128,
}

impl Pool {
    /// The pool of `pieces`; with `around`, only the triples with a piece of that
    /// composition.
    fn new(pieces: &[FoundPiece], target: Composition, around: Option<Composition>) -> Pool {
        let mut by: BTreeMap<Composition, Vec<Piece>> = BTreeMap::new();
        for p in pieces {
            for f in &p.forms {
                by.entry(f.composition()).or_default().push(f.clone());
            }
        }
        for v in by.values_mut() {
            v.sort();
            v.dedup();
        }
        let groups: Vec<(Composition, Vec<Piece>)> = by.into_iter().collect();
        let index: BTreeMap<Composition, usize> = groups
            .iter()
            .enumerate()
            .map(|(i, (c, _))| (*c, i))
            .collect();
        let mut triples = Vec::new();
        let mut total = 0u128;
        for (a, (ca, pa)) in groups.iter().enumerate() {
            for (b, (cb, pb)) in groups.iter().enumerate() {
                let Some(rest) = target.checked_sub(ca).and_then(|r| r.checked_sub(cb)) else {
                    continue;
                };
                if let Some(&c) = index.get(&rest) {
                    if around.is_some_and(|x| ![*ca, *cb, rest].contains(&x)) {
                        continue;
                    }
                    total += (pa.len() * pb.len() * groups[c].1.len()) as u128;
                    triples.push(([a, b, c], total));
                }
            }
        }
        Pool {
            groups,
            triples,
            total,
        }
    }

    /// Triple number `r` (< total).
    fn triple(&self, r: u128) -> [Piece; 3] {
        let t = self.triples.partition_point(|(_, end)| *end <= r);
        let (g, end) = self.triples[t];
        let start = if t == 0 { 0 } else { self.triples[t - 1].1 };
        let mut r = r - start;
        debug_assert!(r < end - start);
        g.map(|gi| {
            let pieces = &self.groups[gi].1;
            let n = pieces.len() as u128;
            let p = pieces[(r % n) as usize].clone();
            r /= n;
            p
        })
    }
}

/// Uniform in `0..bound` (`bound >= 1`) by rejection on 128-bit draws.
fn below_u128(rng: &mut Xoshiro256PlusPlus, bound: u128) -> u128 {
    let zone = u128::MAX - (u128::MAX % bound + 1) % bound;
    loop {
        let x = (u128::from(rng.next_u64()) << 64) | u128::from(rng.next_u64());
        if x <= zone {
            return x % bound;
        }
    }
}

/// The deck of number `k`: an ordered triple of pool pieces.
fn draw(pool: &Pool, seed: u64, k: u64) -> [Piece; 3] {
    let mut rng = deal_rng(seed, k);
    pool.triple(below_u128(&mut rng, pool.total))
}

/// One deck drawn from the pool (draw `k`) and how it played.
struct DrawnDeck {
    k: u64,
    pieces: [Piece; 3],
    outcome: Option<Outcome>,
}

/// Draws `config.decks` decks from `pool`, plays them, and searches backward from every
/// cycle reached, reporting decks, then basins, through the job. Once the job stops it
/// reports the decks played and the basins searched so far (a basin under way is cut short).
pub fn construct(
    pool: &[FoundPiece],
    config: &ConstructConfig,
    threads: usize,
    job: &mut Job,
) -> Result<Construction, PiecesError> {
    if config.give_up == 0 {
        return Err(PiecesError::TooSmall {
            what: "the give-up limit",
            field: "give_up",
            min: 1,
        });
    }
    if config.basin_limit == 0 {
        return Err(PiecesError::TooSmall {
            what: "the basin limit",
            field: "basin_limit",
            min: 1,
        });
    }
    let pool = Pool::new(pool, config.target, config.around);
    let mut out = Construction {
        triples: pool.total,
        ..Construction::default()
    };
    if pool.total == 0 || config.decks == 0 {
        return Ok(out);
    }
    // Stage 1: play the decks (units of one deck, merged in deck order).
    let mut played: Vec<DrawnDeck> = Vec::new();
    job.start(Some(config.decks), 0, "decks");
    bmn_job::run_units(
        0..config.decks,
        threads,
        job,
        &mut played,
        |all: &mut Vec<DrawnDeck>, mut one: Vec<DrawnDeck>| all.append(&mut one),
        |k| {
            let pieces = draw(&pool, config.seed, k);
            let refs: Vec<&Piece> = pieces.iter().collect();
            let outcome = play(&jack_position(&refs), config.give_up);
            Some(vec![DrawnDeck { k, pieces, outcome }])
        },
        |job, _, next| job.progress(next, Some("playing decks")),
    );
    out.decks_tried = played.len() as u64;
    let mut seen: HashSet<[Piece; 3]> = HashSet::new();
    let mut cycles: Vec<ReachedCycle> = Vec::new();
    let mut starts: Vec<Position> = Vec::new();
    let mut cycle_index: BTreeMap<CycleId, usize> = BTreeMap::new();
    for p in played {
        match &p.outcome {
            Some(Outcome::Cycle(c)) => {
                out.non_terminating += 1;
                let i = *cycle_index.entry(c.id).or_insert_with(|| {
                    cycles.push(ReachedCycle {
                        id: c.id,
                        period: c.period,
                        representative: c.representative.clone(),
                        decks: 0,
                        basin_positions: 0,
                        basin_complete: false,
                        balanced: Vec::new(),
                    });
                    starts.push(c.start.clone());
                    cycles.len() - 1
                });
                cycles[i].decks += 1;
                if seen.insert(p.pieces.clone()) {
                    let refs: Vec<&Piece> = p.pieces.iter().collect();
                    let deal = jack_position(&refs);
                    out.decks.push(EndlessGame {
                        balanced: bmn_backward::is_balanced(&deal),
                        deal,
                        preperiod: c.preperiod,
                        period: c.period,
                        cycle_id: c.id,
                        deck: Some((p.pieces.clone(), p.k)),
                    });
                }
            }
            Some(Outcome::Finished { .. }) => {
                out.finishing += 1;
                seen.insert(p.pieces.clone());
            }
            None => {
                out.unresolved += 1;
                seen.insert(p.pieces.clone());
            }
        }
    }
    out.distinct_decks = seen.len() as u64;
    // Stage 2: every cycle's basin (units of one cycle, merged in order of first reach).
    let total = cycles.len() as u64;
    let basin_config = BasinConfig {
        limit: config.basin_limit,
        keep_members: false,
    };
    let mut basins: Vec<Result<bmn_backward::Basin, bmn_backward::BackwardError>> = Vec::new();
    let stop = job.stop_flag();
    job.start(Some(total), 0, "basins");
    bmn_job::run_units(
        0..total,
        threads,
        job,
        &mut basins,
        |all: &mut Vec<_>, mut one: Vec<_>| all.append(&mut one),
        |i| {
            // On a worker thread: a job of its own that hears only the stop.
            let b = basin(
                &Rules::STANDARD,
                &starts[i as usize],
                &basin_config,
                &mut Job::quiet(stop),
            );
            // A basin the stop cut is abandoned, not kept as if complete.
            (!b.as_ref().is_ok_and(|b| b.interrupted)).then(|| vec![b])
        },
        |job, _, next| job.progress(next, Some("searching basins backward")),
    );
    for (cycle, b) in cycles.iter_mut().zip(basins) {
        // 52-card two-player positions always pack; an error here would be a bug upstream,
        // so the cycle is reported with an empty, incomplete basin rather than a panic.
        let Ok(b) = b else { continue };
        cycle.basin_positions = b.positions;
        cycle.basin_complete = b.complete;
        if let BasinTarget::Cycle { id, period, .. } = b.target {
            debug_assert_eq!(id, cycle.id);
            cycle.balanced = b
                .balanced
                .into_iter()
                .map(|d| EndlessGame {
                    deal: d.deal,
                    balanced: true,
                    preperiod: d.length,
                    period,
                    cycle_id: id,
                    deck: None,
                })
                .collect();
        }
    }
    out.cycles = cycles;
    Ok(out)
}
