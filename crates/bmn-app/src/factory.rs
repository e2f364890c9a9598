//! `pieces factory`: balanced deals that never end, found from scratch: endless games to start
//! from (Casella's construction for the standard two-player table, a random search for cycling
//! deals at any other), then the factory's walks toward balance (bmn-climb's `factory`), and a
//! catalogue of every cycle reached.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use bmn_climb::factory::{CycleEntry, Factory, FactoryConfig};
use bmn_climb::{Evaluator, MoveSet};
use bmn_core::{Position, Rules};
use bmn_pieces::{ConstructConfig, PoolConfig};
use bmn_search::{SearchConfig, Summary};
use serde::Serialize;

use crate::error::{Error, Result};
use crate::input::{self, DEFAULT_SEED, RulesInput, TableInput};
use crate::json::{PositionJson, SpanJson};
use crate::observer::Observer;
use crate::plural;

/// What to run.
#[derive(Clone, Debug, Default)]
pub struct FactoryRequest {
    pub seed: Option<u64>,
    /// How long (`30m`), or how many rounds; 200 rounds if neither.
    pub time: Option<String>,
    pub rounds: Option<u64>,
    pub table: TableInput,
    pub rules: RulesInput,
    pub threads: Option<usize>,
    /// Cycles edited per round, edits of each, the moves.
    pub walkers: Option<usize>,
    pub neighbours: Option<usize>,
    pub moves: Option<String>,
    /// Positions a basin search may visit per cycle.
    pub basin_limit: Option<u64>,
    /// Endless games to start from: decks drawn from the pieces, or cycling deals sought.
    pub seeds: Option<u64>,
    /// `template` (default at the standard two-player table): also start from decks around
    /// the piece that fills the test template to a standard deck; `none`: only the pool.
    pub complete: Option<String>,
    /// With `pairs`, only completions of at most this many cards.
    pub complete_max_len: Option<u32>,
    /// Grow pieces from the completion's pieces: search the pieces that begin as one of their
    /// forms does up to player 2's high water, up to this many cards longer (3 if not told;
    /// 0: none).
    pub grow: Option<u32>,
}

/// Rounds when neither `--time` nor `--rounds` is given.
pub const DEFAULT_ROUNDS: u64 = 200;

/// The factory's answer.
#[derive(Serialize, Clone, Debug)]
pub struct FactoryReport {
    pub seed: u64,
    pub deck: String,
    pub players: usize,
    /// Where the starting endless games came from: `pieces` or `search`.
    pub seeds_from: &'static str,
    pub seeds: u64,
    /// Deprecated: `completion_mode`.
    pub complete: &'static str,
    /// `template`, `pairs` or `none`: which third pieces were searched (`--complete`).
    pub completion_mode: &'static str,
    /// The template's completion, when it was searched (`--complete template`).
    pub completion: Option<CompletionJson>,
    /// Every completion searched that has pieces (with `template`, the template's own even
    /// without), and how many were searched.
    pub completions: Vec<CompletionJson>,
    pub completions_searched: u64,
    /// The prefixes grown from (each completion piece's form up to player 2's high water) and
    /// the new pieces they gave, by card list, with the endless decks built around them.
    pub grow_prefixes: Vec<String>,
    pub grown: Vec<CompletionJson>,
    pub rounds: u64,
    pub evals: u64,
    /// Deprecated: `endless_count`.
    pub endless: u64,
    /// Edits that never end.
    pub endless_count: u64,
    pub elapsed_seconds: f64,
    /// Deprecated: `distinct_cycle_count`.
    pub cycles: usize,
    /// Distinct cycles reached, and those with a balanced deal.
    pub distinct_cycle_count: usize,
    pub balanced_cycles: usize,
    pub balanced_deals: usize,
    /// Every cycle with a balanced deal, most balanced deals first.
    pub catalogue: Vec<CatalogueJson>,
    /// Cycles by period in tricks: how many of each.
    pub periods: BTreeMap<u64, usize>,
    /// The least imbalance any cycle's positions reached (0: balanced), round by round.
    pub closest: Vec<usize>,
    /// Cycles by how close their positions (cycle and basin) come to balance: imbalance (the
    /// cards by which the hands' sizes miss a balanced deal's, summed) to the number of cycles.
    pub closeness: BTreeMap<usize, usize>,
    pub interrupted: bool,
}

/// Which third pieces the factory searches beyond the pool (`--complete`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Complete {
    /// Only the pool.
    None,
    /// The cards that fill the test template to the deck.
    Template(bmn_pieces::Composition),
    /// The cards that complete the deck from every pair of pool pieces
    /// (bmn_pieces::pair_completions), up to a number of cards.
    Pairs(u32),
}

impl Complete {
    fn name(self) -> &'static str {
        match self {
            Complete::None => "none",
            Complete::Template(_) => "template",
            Complete::Pairs(_) => "pairs",
        }
    }
}

/// The piece that fills the test template (`--J FILTER J TEST J- / J-`) to a standard deck:
/// its cards, the pieces of those cards the search found, and the endless decks built around
/// them that the factory started from.
#[derive(Serialize, Clone, Debug)]
pub struct CompletionJson {
    pub composition: String,
    pub pieces: Vec<String>,
    pub decks: u64,
}

/// A cycle of the catalogue.
#[derive(Serialize, Clone, Debug)]
pub struct CatalogueJson {
    pub cycle_id: String,
    pub period: SpanJson,
    /// Deprecated: `representative_position` (this is its deal text alone).
    pub representative: String,
    /// Deprecated: `representative_position`.
    pub representative_leader: usize,
    /// The cycle's canonical position, `{deal, leader}`.
    pub representative_position: PositionJson,
    pub balanced_deals: usize,
    /// One balanced deal (player 1 leads) and its preperiod.
    pub example: String,
    pub preperiod: SpanJson,
    /// Player 1's stack split at the jacks, for a cycle with a position of Casella's form.
    pub pieces: Option<Vec<String>>,
    /// `relative` (the same pieces' cards as an earlier cycle of the catalogue, in another
    /// order or form), `new` (pieces not seen before), or `other` (no position of that form).
    pub kind: &'static str,
    pub relative_of: Option<String>,
    pub basin_positions: u64,
    pub basin_complete: bool,
    pub round: u64,
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

/// Runs the factory.
pub fn factory(
    req: &FactoryRequest,
    observer: &mut dyn Observer,
    stop: &AtomicBool,
) -> Result<FactoryReport> {
    let rules = req.rules.rules()?;
    let source = req.table.source()?;
    let threads = input::threads(req.threads)?;
    let seed = req.seed.unwrap_or(DEFAULT_SEED);
    let time_limit = req.time.as_deref().map(input::duration).transpose()?;
    let rounds = match (req.rounds, time_limit) {
        (Some(0), _) => return Err(Error::input("bad --rounds: must be at least 1")),
        (Some(r), _) => Some(r),
        (None, Some(_)) => None,
        (None, None) => Some(DEFAULT_ROUNDS),
    };
    let moves_text = req
        .moves
        .clone()
        .unwrap_or_else(|| "give,transfer,swap,shift".into());
    let moves = MoveSet::parse(&moves_text).map_err(|e| Error::bad("bad --moves", e))?;
    let config = FactoryConfig {
        seed,
        rules,
        walkers: req.walkers.unwrap_or(16).max(1),
        neighbours: req.neighbours.unwrap_or(64).max(1),
        moves,
        basin_limit: req.basin_limit.unwrap_or(20_000).max(1),
        keep_balanced: 5,
    };
    let mut evaluator = Evaluator::new(rules);
    // Cycles of these games are short: hand capped games to exact detection sooner.
    evaluator.max_tricks = 1_000;
    let started = Instant::now();
    // Casella's construction fills any two-player deck of four jacks played with the standard
    // penalties (the standard deck, Camicia): those tables start from decks of pieces.
    let target = (source.players() == 2 && rules == Rules::STANDARD && !source.balanced())
        .then(|| bmn_pieces::Composition::pieces_of(source.deck()))
        .flatten();
    let filter = bmn_pieces::Piece::parse(bmn_pieces::DEFAULT_FILTER).expect("the filter");
    let template_cards = target.and_then(|t| bmn_pieces::template_completion_of(&t, &filter));
    let seeds_wanted = req.seeds.unwrap_or(if target.is_some() { 60 } else { 200 });
    let max_len = req.complete_max_len.unwrap_or(u32::MAX);
    let asked = match req.complete.as_deref() {
        None | Some("template" | "pairs" | "none") => req.complete.as_deref(),
        Some(other) => {
            return Err(Error::input(format!(
                "bad --complete '{other}': expected template, pairs or none"
            )));
        }
    };
    let complete = match (asked, target, template_cards) {
        (Some("none"), _, _) | (None, None, _) => Complete::None,
        (Some(mode), None, _) => {
            return Err(Error::input(format!(
                "bad --complete {mode}: pieces fill two-player decks of four jacks played with \
                 the standard penalties, not {} with {} players; use --complete none",
                source.deck(),
                source.players()
            )));
        }
        // The template where it fits the deck (the standard deck), else every pair.
        (None | Some("template"), Some(_), Some(cards)) => Complete::Template(cards),
        (None | Some("pairs"), Some(_), _) => Complete::Pairs(max_len),
        (Some(_), Some(_), _) => {
            return Err(Error::input(format!(
                "bad --complete template: the test template (`--J {} J TEST J- / J-`) does not \
                 fit in the deck {}; use --complete pairs or none",
                bmn_pieces::DEFAULT_FILTER,
                source.deck()
            )));
        }
    };
    if req.complete_max_len.is_some() && !matches!(complete, Complete::Pairs(_)) {
        return Err(Error::input(format!(
            "bad --complete-max-len: it bounds --complete pairs, and this run completes with {}",
            complete.name()
        )));
    }
    observer.start(None, 0, "seed games");
    let template = matches!(complete, Complete::Template(_));
    let grow = req.grow.unwrap_or(3);
    let (seeds, completed) = if let Some(target) = target {
        let plan = SeedPlan {
            seed,
            decks: seeds_wanted,
            target,
            filter,
            completion: complete,
            grow,
        };
        pieces_seeds(&plan, threads, stop, observer)?
    } else {
        let found = search_seeds(seed, seeds_wanted, &source, rules, threads, stop, observer);
        (found, Completed::default())
    };
    observer.finish();
    if seeds.is_empty() {
        return Err(Error::Failed(format!(
            "no game that never ends was found at this table to start from ({} {} players); \
             try more --seeds",
            source.deck(),
            source.players()
        )));
    }
    let mut f = Factory::new(config, &evaluator);
    for p in &seeds {
        f.add(p);
    }
    observer.start(rounds, 0, "rounds");
    let mut interrupted = false;
    let mut closest = vec![f.catalogue.closest()];
    while rounds.is_none_or(|r| f.catalogue.round < r) {
        if stop.load(Ordering::Relaxed) {
            interrupted = true;
            break;
        }
        if time_limit.is_some_and(|t| started.elapsed() >= t) {
            break;
        }
        f.round(threads);
        closest.push(f.catalogue.closest());
        let message = format!(
            "{} cycles, {} with balanced deals, closest {}",
            f.catalogue.cycles.len(),
            f.catalogue.balanced_cycles(),
            f.catalogue.closest()
        );
        if !observer.progress(f.catalogue.round, Some(&message)) {
            interrupted = true;
            break;
        }
    }
    observer.finish();
    let mut r = report(
        seed,
        &source,
        target.is_some(),
        seeds.len() as u64,
        &f,
        started.elapsed().as_secs_f64(),
        interrupted,
    );
    r.closest = closest;
    r.complete = complete.name();
    r.completion_mode = complete.name();
    r.completion = completed.completions.first().filter(|_| template).cloned();
    r.completions = completed.completions;
    r.completions_searched = completed.searched;
    r.grow_prefixes = completed.grow_prefixes;
    r.grown = completed.grown;
    Ok(r)
}

/// Endless decks of Casella's construction (Δ1 J Δ2 J Δ3 J - / J -) whose pieces hold
/// `target` (the deck less its jacks and two plain cards), from a pool of pieces up to 14
/// cards and sparse pieces up to 30 (`bmn pieces construct`'s default pool). With
/// `completion`, also the decks around the pieces of those cards, the ones that fill the test
/// template to the deck (bmn_pieces::template_completion): the pool's decks start 50/2 on
/// cycles whose basins never reach 26/26, and a long piece is what brings a cycle near
/// balance (docs/results.md, Part 7).
fn pieces_seeds(
    plan: &SeedPlan,
    threads: usize,
    stop: &AtomicBool,
    observer: &mut dyn Observer,
) -> Result<(Vec<Position>, Completed)> {
    let SeedPlan {
        seed,
        decks,
        target,
        ref filter,
        completion,
        grow,
    } = *plan;
    let pool_config = PoolConfig {
        filter: filter.clone(),
        max_len: 14,
        sparse_len: 30,
        faces: Vec::new(),
        give_up: bmn_pieces::DEFAULT_GIVE_UP,
    };
    let mut pool = bmn_pieces::build_pool(&pool_config, threads, |_, done, _| {
        observer.progress(done, Some("searching pieces"));
    })
    .map_err(failed)?;
    let construct = |pool: &[bmn_pieces::FoundPiece], around, observer: &mut dyn Observer| {
        let config = ConstructConfig {
            seed,
            decks,
            give_up: bmn_pieces::DEFAULT_GIVE_UP,
            basin_limit: 1,
            target,
            around,
        };
        bmn_pieces::construct(pool, &config, threads, |_, done, _| {
            observer.progress(done, Some("playing decks"));
        })
        .map(|c| {
            c.decks
                .into_iter()
                .map(|g| g.deal)
                .collect::<Vec<Position>>()
        })
        .map_err(failed)
    };
    let mut seeds = construct(&pool, None, observer)?;
    let mut done = Completed::default();
    let wanted = match completion {
        Complete::None => return Ok((seeds, done)),
        Complete::Template(cards) => vec![cards],
        Complete::Pairs(max_len) => {
            let mut all = bmn_pieces::pair_completions(&pool, &pool_config, &target);
            all.retain(|c| c.len() <= max_len);
            all
        }
    };
    let mut grow_from: Vec<bmn_pieces::Piece> = Vec::new();
    for (i, &cards) in wanted.iter().enumerate() {
        let (faces, plain) = cards.faces_and_plain();
        let search = bmn_pieces::PieceSearchConfig {
            filter: filter.clone(),
            max_len: cards.len(),
            faces: Some((faces, Some(plain))),
            give_up: bmn_pieces::DEFAULT_GIVE_UP,
            prefix: bmn_pieces::Piece::default(),
        };
        let message = format!(
            "searching pieces of {cards} (completion {} of {})",
            i + 1,
            wanted.len()
        );
        let Some(found) = search_pieces(&search, &message, threads, stop, observer)? else {
            done.searched = i as u64;
            return Ok((seeds, done));
        };
        grow_from.extend(found.pieces.iter().flat_map(|p| p.forms.iter().cloned()));
        if found.pieces.is_empty() && !matches!(completion, Complete::Template(_)) {
            continue;
        }
        let pieces: Vec<String> = found.pieces.iter().map(|p| p.piece.to_string()).collect();
        pool.extend(found.pieces);
        let around = if pieces.is_empty() {
            Vec::new()
        } else {
            construct(&pool, Some(cards), observer)?
        };
        done.completions.push(CompletionJson {
            composition: cards.to_string(),
            pieces,
            decks: around.len() as u64,
        });
        seeds.extend(around);
    }
    done.searched = wanted.len() as u64;
    if grow == 0 {
        return Ok((seeds, done));
    }
    // Growing: every form's first cards up to player 2's high water, searched as a prefix of
    // pieces up to `grow` cards longer than the form.
    let mut prefixes: BTreeMap<bmn_pieces::Piece, u32> = BTreeMap::new();
    for form in &grow_from {
        if let Some((at, _)) = bmn_pieces::high_water(form).filter(|&(at, _)| at > 0) {
            let prefix = bmn_pieces::Piece::new(form.cards()[..at].to_vec()).expect("a piece");
            let len = form.len() as u32 + grow;
            let e = prefixes.entry(prefix).or_insert(len);
            *e = (*e).max(len);
        }
    }
    done.grow_prefixes = prefixes.keys().map(|p| p.to_string()).collect();
    let mut new: BTreeMap<bmn_pieces::Composition, Vec<String>> = BTreeMap::new();
    for (i, (prefix, &max_len)) in prefixes.iter().enumerate() {
        let search = bmn_pieces::PieceSearchConfig {
            filter: filter.clone(),
            max_len: max_len.min(64),
            faces: None,
            give_up: bmn_pieces::DEFAULT_GIVE_UP,
            prefix: prefix.clone(),
        };
        let message = format!(
            "growing pieces from {prefix} (prefix {} of {})",
            i + 1,
            prefixes.len()
        );
        let Some(found) = search_pieces(&search, &message, threads, stop, observer)? else {
            return Ok((seeds, done));
        };
        for p in found.pieces {
            let cards = p.piece.composition();
            if target.checked_sub(&cards).is_none() || pool.iter().any(|q| q.piece == p.piece) {
                continue; // more of a kind than the deck holds, or known already
            }
            new.entry(cards).or_default().push(p.piece.to_string());
            pool.push(p);
        }
    }
    for (cards, pieces) in new {
        let around = construct(&pool, Some(cards), observer)?;
        done.grown.push(CompletionJson {
            composition: cards.to_string(),
            pieces,
            decks: around.len() as u64,
        });
        seeds.extend(around);
    }
    Ok((seeds, done))
}

/// One piece search with progress; `None` if it was interrupted (the factory then reports
/// what it has, flagged as interrupted).
fn search_pieces(
    search: &bmn_pieces::PieceSearchConfig,
    message: &str,
    threads: usize,
    stop: &AtomicBool,
    observer: &mut dyn Observer,
) -> Result<Option<bmn_pieces::PieceSearchResult>> {
    let found = bmn_pieces::search_until(search, threads, stop, |done, _| {
        observer.progress(done, Some(message));
    })
    .map_err(failed)?;
    Ok((found.units_done == found.units).then_some(found))
}

/// A piece search or construction that failed on inputs the factory chose itself.
fn failed(e: bmn_pieces::PiecesError) -> Error {
    Error::Failed(e.to_string())
}

/// What the factory's starting decks are drawn from at a table of Casella's construction.
struct SeedPlan {
    seed: u64,
    /// Decks drawn from the pool, and around each searched card list.
    decks: u64,
    /// The cards of the three pieces.
    target: bmn_pieces::Composition,
    /// The test template's filter (also the filter the pieces are checked behind).
    filter: bmn_pieces::Piece,
    completion: Complete,
    /// Cards longer than its source a grown piece may be (0: no growing).
    grow: u32,
}

/// The third pieces searched and grown, for the report.
#[derive(Default)]
struct Completed {
    completions: Vec<CompletionJson>,
    searched: u64,
    grow_prefixes: Vec<String>,
    grown: Vec<CompletionJson>,
}

/// Cycling deals of the table, from a seeded random search.
fn search_seeds(
    seed: u64,
    wanted: u64,
    source: &bmn_search::DealSource,
    rules: Rules,
    threads: usize,
    stop: &AtomicBool,
    observer: &mut dyn Observer,
) -> Vec<Position> {
    let engine = bmn_search::Engine::choose(
        bmn_kernel::Kernel::best_available(),
        rules,
        source.players(),
        source.len(),
        bmn_search::DEFAULT_GIVE_UP,
    );
    let config = SearchConfig {
        seed,
        source: source.clone(),
        top: 0,
        engine,
        max_tricks: 1_000,
    };
    // At most 10^8 games: tables whose games never cycle give none.
    let fresh = Summary::keeping(0, wanted as usize);
    // The stream raises its stop flag when we have enough seeds; that must not read as the
    // caller's interrupt, so it gets a flag of its own that also watches the caller's.
    let enough = AtomicBool::new(false);
    let s = bmn_search::stream(&config, Some(100_000_000), threads, &enough, &fresh, |s| {
        observer.progress(s.games, Some(&format!("{} cycling deals", s.cycling)))
            && s.cycling < wanted
            && !stop.load(Ordering::Relaxed)
    });
    s.cycles
        .iter()
        .filter_map(|c| Position::parse_deal(&c.deal, bmn_core::Player(0)).ok())
        .collect()
}

fn report(
    seed: u64,
    source: &bmn_search::DealSource,
    from_pieces: bool,
    seeds: u64,
    f: &Factory,
    elapsed: f64,
    interrupted: bool,
) -> FactoryReport {
    let mut balanced: Vec<&CycleEntry> = f
        .catalogue
        .cycles
        .values()
        .filter(|c| c.balanced_count > 0)
        .collect();
    balanced.sort_by(|a, b| (a.round, &a.cycle_id).cmp(&(b.round, &b.cycle_id)));
    let mut first_of: BTreeMap<Vec<String>, String> = BTreeMap::new();
    let mut catalogue: Vec<CatalogueJson> = balanced
        .iter()
        .map(|c| {
            let (kind, relative_of) = match &c.pieces {
                Some(p) => match first_of.get(&signature(p)) {
                    Some(first) => ("relative", Some(first.clone())),
                    None => {
                        first_of.insert(signature(p), c.cycle_id.clone());
                        ("new", None)
                    }
                },
                None => ("other", None),
            };
            let (example, preperiod) = c.balanced[0].clone();
            CatalogueJson {
                cycle_id: c.cycle_id.clone(),
                period: c.period.into(),
                representative: c.representative.0.clone(),
                representative_leader: c.representative.1,
                representative_position: PositionJson {
                    deal: c.representative.0.clone(),
                    leader: c.representative.1,
                },
                balanced_deals: c.balanced_count,
                example,
                preperiod: preperiod.into(),
                pieces: c.pieces.clone(),
                kind,
                relative_of,
                basin_positions: c.basin_positions,
                basin_complete: c.basin_complete,
                round: c.round,
            }
        })
        .collect();
    catalogue.sort_by(|a, b| {
        b.balanced_deals
            .cmp(&a.balanced_deals)
            .then(a.cycle_id.cmp(&b.cycle_id))
    });
    let mut periods = BTreeMap::new();
    let mut closeness = BTreeMap::new();
    for c in f.catalogue.cycles.values() {
        *periods.entry(c.period.tricks).or_insert(0) += 1;
        *closeness.entry(c.closest).or_insert(0) += 1;
    }
    FactoryReport {
        seed,
        deck: source.deck().to_string(),
        players: source.players(),
        seeds_from: if from_pieces { "pieces" } else { "search" },
        seeds,
        complete: "none",
        completion_mode: "none",
        completion: None,
        completions: Vec::new(),
        completions_searched: 0,
        grow_prefixes: Vec::new(),
        grown: Vec::new(),
        rounds: f.catalogue.round,
        evals: f.catalogue.evals,
        endless: f.catalogue.endless,
        endless_count: f.catalogue.endless,
        elapsed_seconds: elapsed,
        cycles: f.catalogue.cycles.len(),
        distinct_cycle_count: f.catalogue.cycles.len(),
        balanced_cycles: catalogue.len(),
        balanced_deals: catalogue.iter().map(|c| c.balanced_deals).sum(),
        catalogue,
        periods,
        closeness,
        closest: Vec::new(),
        interrupted,
    }
}

impl crate::Report for FactoryReport {
    fn text(&self) -> String {
        let mut t = String::new();
        let _ = writeln!(
            t,
            "table:   {}, {} players; {} endless games to start from ({}), seed {}",
            self.deck, self.players, self.seeds, self.seeds_from, self.seed
        );
        if let Some(c) = &self.completion {
            let _ = writeln!(
                t,
                "filled:  the template's completion {}: {} piece(s) {}, {} endless deck(s)",
                c.composition,
                c.pieces.len(),
                c.pieces.join(" "),
                c.decks
            );
        } else if self.complete == "pairs" {
            let found: Vec<String> = self
                .completions
                .iter()
                .map(|c| format!("{} ({} decks)", c.pieces.join(" "), c.decks))
                .collect();
            let _ = writeln!(
                t,
                "filled:  {} completion(s) of pairs of pieces searched, {} with pieces{}{}",
                self.completions_searched,
                self.completions.len(),
                if found.is_empty() { "" } else { ": " },
                found.join(", ")
            );
        }
        let _ = writeln!(
            t,
            "walks:   {} rounds, {} edits played, {} never end ({:.1} s)",
            self.rounds, self.evals, self.endless, self.elapsed_seconds
        );
        let _ = writeln!(
            t,
            "cycles:  {} distinct; {} with balanced deals ({} balanced deals, player 1 leading); \
             closest to balance: {} card(s) away",
            self.cycles,
            self.balanced_cycles,
            self.balanced_deals,
            self.closest.last().copied().unwrap_or(usize::MAX)
        );
        for c in &self.catalogue {
            let _ = writeln!(
                t,
                "  cycle {}: period {} ({} cards), {} balanced, {}{}: {} (preperiod {})",
                c.cycle_id,
                plural(c.period.tricks, "trick"),
                c.period.cards,
                c.balanced_deals,
                c.kind,
                c.relative_of
                    .as_ref()
                    .map(|r| format!(" of {r}"))
                    .unwrap_or_default(),
                c.example,
                plural(c.preperiod.tricks, "trick")
            );
        }
        t
    }
}
