//! `census`: every cycle with balanced deals that the methods reach on a table, every balanced
//! deal on each with its rank, and how complete the count is.
//!
//! Methods (`--methods`, all that apply by default):
//! - `pieces`: the endless-game factory (Casella's construction where the deck has four jacks,
//!   else random cycling deals; then walks toward balance);
//! - `hands`: every position in which one player holds at most `--hands M` cards (bmn-census),
//!   to the end where the subspace is small enough, else for `--hands-time`;
//! - `deals`: every deal (bmn-exhaustive), the truth, where the deck has at most `--deals-max`
//!   deals: then each other method's recall is measured against it.
//!
//! Every cycle reached is played to its cycle by the reference engine and its basin searched
//! backward; the balanced deals (player 1 leading) of its basin are the census's deals.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use bmn_census::{CensusCycle, HandsConfig};
use bmn_core::{CycleId, Player, Position, Rules};
use bmn_search::DealSource;
use serde::Serialize;

use crate::error::{Error, Result};
use crate::exhaustive::{self, ExhaustivePlan, ExhaustiveRequest};
use crate::factory::{FactoryPlan, FactoryRequest};
use crate::input::{self, RulesInput, TableInput, TimeInput};
use crate::json::{PositionJson, SpanJson};
use crate::observer::Observer;
use crate::plural;

/// What to run.
#[derive(Clone, Debug, Default)]
pub struct CensusRequest {
    pub table: TableInput,
    pub rules: RulesInput,
    pub seed: Option<u64>,
    pub threads: Option<usize>,
    /// Comma-separated: `pieces`, `hands`, `deals` (all that apply if not told).
    pub methods: Option<String>,
    /// The small hand's largest size for `hands` ([`DEFAULT_HANDS`]).
    pub hands: Option<usize>,
    /// How long `hands` runs when its subspace is too big to finish ([`DEFAULT_HANDS_TIME`]);
    /// given, it bounds the stage whatever the subspace's size.
    pub hands_time: Option<TimeInput>,
    /// `deals` runs only on decks of at most this many deals ([`DEFAULT_DEALS_MAX`]).
    pub deals_max: Option<u64>,
    /// Positions a basin search may visit per cycle.
    pub basin_limit: Option<u64>,
    /// Rounds of the factory's walks (its default if not told).
    pub rounds: Option<u64>,
}

pub const DEFAULT_HANDS: usize = 2;
pub const DEFAULT_HANDS_TIME: Duration = Duration::from_secs(60);
pub const DEFAULT_DEALS_MAX: u64 = 400_000_000;
/// The same for tables the kernels do not play (three players or more: the reference engine).
pub const DEFAULT_DEALS_MAX_REFERENCE: u64 = 20_000_000;
/// `hands` runs to the end by default when its subspace has at most this many positions
/// (about ten minutes on two cores at the rates of docs/results.md, Part 8).
pub const HANDS_TO_THE_END: f64 = 3e9;
const DEFAULT_BASIN_LIMIT: u64 = 1_000_000;
/// Cycles the text lists (the JSON lists all).
const TEXT_CYCLES: usize = 20;

/// `pieces` in a census.
#[derive(Serialize, Clone, Debug)]
pub struct PiecesRun {
    /// Deprecated: `distinct_cycle_count`.
    pub cycles: usize,
    /// Distinct cycles the factory reached.
    pub distinct_cycle_count: usize,
    pub balanced_cycles: usize,
    pub elapsed_seconds: f64,
}

/// `hands` in a census.
#[derive(Serialize, Clone, Debug)]
pub struct HandsRun {
    pub max_hand: usize,
    /// Whether every position of the subspace was decided.
    pub complete: bool,
    pub units: u64,
    pub units_done: u64,
    /// Positions in the subspace, and decided.
    pub positions: f64,
    pub decided: f64,
    /// Deprecated: `distinct_cycle_count`.
    pub cycles: usize,
    /// Distinct cycles reached from the positions decided.
    pub distinct_cycle_count: usize,
    pub balanced_cycles: usize,
    pub elapsed_seconds: f64,
    /// At this run's rate, the seconds the whole subspace would take on these threads: a lower
    /// estimate, since the units a partial run finishes first are the quick ones.
    pub projected_seconds: f64,
}

/// `deals` in a census.
#[derive(Serialize, Clone, Debug)]
pub struct DealsRun {
    pub deals: u64,
    pub cycling_deals: u64,
    /// Deprecated: `distinct_cycle_count`.
    pub cycles: usize,
    /// Distinct cycles the deals reach.
    pub distinct_cycle_count: usize,
    pub elapsed_seconds: f64,
}

/// A balanced deal of the catalogue.
#[derive(Serialize, Clone, Debug)]
pub struct CensusDealJson {
    pub deal: String,
    /// Its number among the deck's deals (`bmn unrank`, `#K`), a decimal string.
    pub rank: String,
    pub preperiod: SpanJson,
    /// It reaches the cycle only with the players renamed.
    pub renamed: bool,
}

/// A cycle of the catalogue.
#[derive(Serialize, Clone, Debug)]
pub struct CensusCycleJson {
    pub cycle_id: String,
    pub period: SpanJson,
    pub representative: PositionJson,
    pub basin_positions: u64,
    pub basin_complete: bool,
    /// The fewest cards a player holds at a position of the cycle.
    pub min_hand: usize,
    /// Player 1's stack split at its jacks, for a cycle with a position of Casella's form.
    pub pieces: Option<Vec<String>>,
    /// The methods that reached it.
    pub found_by: Vec<String>,
    /// How many balanced deals (player 1 leading) reach it, and every one of them by rank.
    pub balanced_deals: usize,
    /// Deprecated: `balanced_deal_list`.
    pub deals: Vec<CensusDealJson>,
    pub balanced_deal_list: Vec<CensusDealJson>,
}

/// Recall of one method against the enumeration of every deal.
#[derive(Serialize, Clone, Copy, Debug)]
pub struct RecallJson {
    pub cycles_found: usize,
    /// Deprecated: `enumerated_cycles`.
    pub cycles: usize,
    /// The cycles the enumeration reached (of which the method found `cycles_found`).
    pub enumerated_cycles: usize,
    pub deals_found: u64,
    /// Deprecated: `enumerated_deals`.
    pub deals: u64,
    /// The deals (player 1 leading) reaching those cycles (`deals_found` on cycles found).
    pub enumerated_deals: u64,
}

/// Chapman's capture-recapture estimate of the balanced cycles from `pieces` and `hands`.
#[derive(Serialize, Clone, Copy, Debug)]
pub struct EstimateJson {
    pub pieces: usize,
    pub hands: usize,
    pub both: usize,
    /// Deprecated: `estimated_cycles`.
    pub cycles: f64,
    /// Chapman's estimate of the balanced cycles, between `low` and `high` (95%).
    pub estimated_cycles: f64,
    pub low: f64,
    pub high: f64,
}

/// The census's answer.
#[derive(Serialize, Clone, Debug)]
pub struct CensusReport {
    pub deck: String,
    pub players: usize,
    /// The rules the games were played by (a catalogue's basins and deals hold only under them).
    pub penalties: String,
    pub on_empty: String,
    pub seed: u64,
    pub methods: Vec<String>,
    /// Deprecated: `pieces_run`.
    pub pieces: Option<PiecesRun>,
    /// What each method did (null when it did not run).
    pub pieces_run: Option<PiecesRun>,
    /// Deprecated: `hands_run`.
    pub hands: Option<HandsRun>,
    pub hands_run: Option<HandsRun>,
    /// Deprecated: `deals_run`.
    pub deals: Option<DealsRun>,
    pub deals_run: Option<DealsRun>,
    /// Distinct cycles reached by any method, with or without balanced deals.
    pub cycles_found: usize,
    pub balanced_cycles: usize,
    pub balanced_deals: usize,
    /// Every cycle with balanced deals, most deals first (then by id).
    pub catalogue: Vec<CensusCycleJson>,
    /// Per method, against `deals` (when it ran to the end).
    pub recall: Option<BTreeMap<String, RecallJson>>,
    /// Null unless both `pieces` and `hands` reached balanced cycles.
    pub estimate: Option<EstimateJson>,
    /// How complete the census is, in words.
    pub completeness: String,
    pub interrupted: bool,
    pub elapsed_seconds: f64,
}

/// Which methods, checked against the table.
fn methods(req: &CensusRequest, players: usize, cards: u32) -> Result<Vec<&'static str>> {
    let all = ["pieces", "hands", "deals"];
    let applies = |m: &str| m != "hands" || (players == 2 && cards as usize <= 64);
    let Some(text) = &req.methods else {
        return Ok(all.into_iter().filter(|m| applies(m)).collect());
    };
    let mut chosen = Vec::new();
    for word in text.split(',').map(str::trim) {
        let Some(&m) = all.iter().find(|&&m| m == word) else {
            return Err(Error::input(format!(
                "bad --methods: unknown method '{word}' (expected pieces, hands or deals)"
            )));
        };
        if !applies(m) {
            return Err(Error::input(format!(
                "bad --methods: hands plays two-player tables of at most 64 cards, not \
                 {players} players with {cards} cards"
            )));
        }
        if !chosen.contains(&m) {
            chosen.push(m);
        }
    }
    Ok(chosen)
}

/// A census, validated: the table, the methods that run, each one's limits, and the plans of
/// the enumeration for `deals` and the factory for `pieces` (checked before anything is
/// played).
#[derive(Clone, Debug)]
pub struct CensusPlan {
    pub source: DealSource,
    pub rules: Rules,
    pub seed: u64,
    pub threads: usize,
    pub methods: Vec<&'static str>,
    pub max_hand: usize,
    /// Given: `hands` stops at this time whatever its subspace's size; `None`: it runs to
    /// the end where the subspace is small enough, else [`DEFAULT_HANDS_TIME`].
    pub hands_time: Option<Duration>,
    pub deals_max: u64,
    pub basin_limit: u64,
    /// The factory run of `pieces` (when chosen).
    pub factory: Option<FactoryPlan>,
    /// The enumeration of `deals` at a two-player table of at most `deals_max` deals (at
    /// other tables `deals` plays every deal through the reference engine).
    pub enumeration: Option<ExhaustivePlan>,
}

impl TryFrom<&CensusRequest> for CensusPlan {
    type Error = Error;

    fn try_from(req: &CensusRequest) -> Result<Self> {
        let rules = req.rules.rules()?;
        let source = req.table.source()?;
        let players = source.players();
        let threads = input::threads(req.threads)?;
        let seed = req.seed.unwrap_or(input::DEFAULT_SEED);
        let methods = methods(req, players, source.deck().len())?;
        let hands_time = req
            .hands_time
            .as_ref()
            .map(|t| t.duration("--hands-time"))
            .transpose()?;
        let factory = if methods.contains(&"pieces") {
            Some(FactoryPlan::try_from(&FactoryRequest {
                seed: Some(seed),
                rounds: req.rounds,
                table: req.table.clone(),
                rules: req.rules.clone(),
                threads: Some(threads),
                ..FactoryRequest::default()
            })?)
        } else {
            None
        };
        let deals_max = req.deals_max.unwrap_or(if players == 2 {
            DEFAULT_DEALS_MAX
        } else {
            DEFAULT_DEALS_MAX_REFERENCE
        });
        let enumeration =
            if methods.contains(&"deals") && players == 2 && enumerable(&source, deals_max) {
                Some(ExhaustivePlan::try_from(&ExhaustiveRequest {
                    deck: source.deck().to_string(),
                    leader: 1,
                    rules: req.rules.clone(),
                    ledger: crate::LedgerChoice::NONE,
                    threads: Some(threads),
                    ..ExhaustiveRequest::default()
                })?)
            } else {
                None
            };
        Ok(CensusPlan {
            rules,
            seed,
            threads,
            methods,
            max_hand: req.hands.unwrap_or(DEFAULT_HANDS),
            hands_time,
            deals_max,
            basin_limit: req.basin_limit.unwrap_or(DEFAULT_BASIN_LIMIT).max(1),
            factory,
            enumeration,
            source,
        })
    }
}

/// Whether every deal of the table is few enough (at most `deals_max`) to play them all.
fn enumerable(source: &DealSource, deals_max: u64) -> bool {
    bmn_deals::rank::count(&source.deck().counts()) <= bmn_deals::BigUint::from(deals_max)
}

/// Runs the census a request asks for (see [`run`]).
pub fn census(
    req: &CensusRequest,
    observer: &mut dyn Observer,
    stop: &AtomicBool,
) -> Result<CensusReport> {
    run(&CensusPlan::try_from(req)?, observer, stop)
}

/// Runs the census.
pub fn run(
    plan: &CensusPlan,
    observer: &mut dyn Observer,
    stop: &AtomicBool,
) -> Result<CensusReport> {
    let started = Instant::now();
    let (rules, source, threads, seed) = (plan.rules, &plan.source, plan.threads, plan.seed);
    let deck = *source.deck();
    let players = source.players();
    let chosen = &plan.methods;
    let (max_hand, deals_max, basin_limit) = (plan.max_hand, plan.deals_max, plan.basin_limit);
    let hands_time = plan.hands_time.unwrap_or(DEFAULT_HANDS_TIME);
    // Every cycle reached: a position reaching it, and who reached it.
    let mut reached: BTreeMap<CycleId, (Position, BTreeSet<String>)> = BTreeMap::new();
    let mut note = |id: CycleId, p: &Position, method: &str| {
        reached
            .entry(id)
            .or_insert_with(|| (p.clone(), BTreeSet::new()))
            .1
            .insert(method.to_string());
    };

    let mut pieces = None;
    if let Some(factory) = &plan.factory {
        let t = Instant::now();
        let r = crate::factory::run(factory, observer, stop)?;
        for c in &r.catalogue {
            let p = representative(&c.representative, c.representative_leader)?;
            note(cycle_id(&c.cycle_id)?, &p, "pieces");
        }
        pieces = Some(PiecesRun {
            cycles: r.distinct_cycle_count,
            distinct_cycle_count: r.distinct_cycle_count,
            balanced_cycles: 0,
            elapsed_seconds: t.elapsed().as_secs_f64(),
        });
    }

    let mut hands = None;
    if chosen.contains(&"hands") && !stop.load(Ordering::Relaxed) {
        let config = HandsConfig {
            deck,
            rules,
            max_hand,
        };
        let positions = config.positions();
        let limited = positions > HANDS_TO_THE_END || plan.hands_time.is_some();
        let t = Instant::now();
        let mut started_bar = false;
        // The time limit stops this stage only: the caller's flag means Ctrl-C.
        let stop_hands = AtomicBool::new(false);
        let result = bmn_census::hands(&config, threads, &stop_hands, |done, total| {
            if !started_bar {
                observer.start(Some(total), 0, "hand units");
                started_bar = true;
            }
            let go = observer.progress(done, None) && !stop.load(Ordering::Relaxed);
            go && !(limited && t.elapsed() >= hands_time)
        })
        .map_err(|e| Error::bad("bad --hands", e))?;
        observer.finish();
        for (id, c) in &result.cycles {
            note(*id, &c.first, "hands");
        }
        let elapsed = t.elapsed().as_secs_f64();
        hands = Some(HandsRun {
            max_hand,
            complete: result.units_done == result.units,
            units: result.units,
            units_done: result.units_done,
            positions: result.positions,
            decided: result.decided,
            cycles: result.cycles.len(),
            distinct_cycle_count: result.cycles.len(),
            balanced_cycles: 0,
            elapsed_seconds: elapsed,
            projected_seconds: if result.decided > 0.0 {
                elapsed * result.positions / result.decided
            } else {
                f64::INFINITY
            },
        });
    }

    let mut deals = None;
    let mut truth: Option<BTreeMap<CycleId, u64>> = None;
    let enumerable = enumerable(source, deals_max);
    if chosen.contains(&"deals") && enumerable && !stop.load(Ordering::Relaxed) {
        let t = Instant::now();
        let (played, cycling, classes, done) = if let Some(enumeration) = &plan.enumeration {
            let r = exhaustive::run(enumeration, observer, stop)?;
            let mut classes = BTreeMap::new();
            for (id, c) in &r.summary.classes {
                let p = representative(&c.representative, c.representative_leader)?;
                classes.insert(*id, (p, c.deals));
            }
            (r.summary.games, r.summary.cycling, classes, r.range_done)
        } else {
            observer.start(None, 0, "deals (reference engine)");
            let r = bmn_census::every_deal(source, &rules, threads, stop)
                .map_err(|e| Error::bad("bad --deck", e))?;
            observer.finish();
            let cycling = r.cycles.values().map(|c| c.1).sum();
            (r.deals, cycling, r.cycles, r.complete)
        };
        if done {
            for (id, (p, _)) in &classes {
                note(*id, p, "deals");
            }
            truth = Some(classes.iter().map(|(id, c)| (*id, c.1)).collect());
        }
        deals = Some(DealsRun {
            deals: played,
            cycling_deals: cycling,
            cycles: classes.len(),
            distinct_cycle_count: classes.len(),
            elapsed_seconds: t.elapsed().as_secs_f64(),
        });
    }

    // Every cycle's entry: its basin searched backward, its balanced deals ranked.
    let ids: Vec<CycleId> = reached.keys().copied().collect();
    let starts: Vec<Position> = reached.values().map(|(p, _)| p.clone()).collect();
    observer.start(Some(starts.len() as u64), 0, "basins");
    let entries = bmn_census::describe_all(&rules, &starts, basin_limit, threads);
    observer.finish();
    let mut catalogue: Vec<CensusCycle> = Vec::new();
    for (id, entry) in ids.iter().zip(entries) {
        let Some(mut c) = entry else { continue };
        c.found_by = reached[id].1.clone();
        if !c.deals.is_empty() {
            catalogue.push(c);
        }
    }
    catalogue.sort_by(|a, b| b.deals.len().cmp(&a.deals.len()).then(a.id.cmp(&b.id)));
    let by = |m: &str| -> BTreeSet<CycleId> {
        catalogue
            .iter()
            .filter(|c| c.found_by.contains(m))
            .map(|c| c.id)
            .collect()
    };
    if let Some(p) = &mut pieces {
        p.balanced_cycles = by("pieces").len();
    }
    if let Some(h) = &mut hands {
        h.balanced_cycles = by("hands").len();
    }
    let recall = truth.as_ref().map(|truth| {
        ["pieces", "hands"]
            .into_iter()
            .filter(|m| chosen.contains(m))
            .map(|m| {
                let r = bmn_census::recall(&by(m), truth);
                (
                    m.to_string(),
                    RecallJson {
                        cycles_found: r.cycles_found,
                        cycles: r.cycles,
                        enumerated_cycles: r.cycles,
                        deals_found: r.deals_found,
                        deals: r.deals,
                        enumerated_deals: r.deals,
                    },
                )
            })
            .collect()
    });
    // Two catches say something about what neither caught only if both caught something.
    let (caught_p, caught_h) = (by("pieces"), by("hands"));
    let estimate = (!caught_p.is_empty() && !caught_h.is_empty()).then(|| {
        let e = bmn_census::chapman(&caught_p, &caught_h);
        EstimateJson {
            pieces: e.first,
            hands: e.second,
            both: e.both,
            cycles: e.estimate,
            estimated_cycles: e.estimate,
            low: e.low,
            high: e.high,
        }
    });
    let completeness = completeness(truth.is_some(), hands.as_ref(), deals.is_some(), enumerable);
    let balanced_deals = catalogue.iter().map(|c| c.deals.len()).sum();
    Ok(CensusReport {
        deck: deck.to_string(),
        players,
        penalties: rules.penalties.to_string(),
        on_empty: rules.on_empty.to_string(),
        seed,
        methods: chosen.iter().map(|m| m.to_string()).collect(),
        pieces_run: pieces.clone(),
        pieces,
        hands_run: hands.clone(),
        hands,
        deals_run: deals.clone(),
        deals,
        cycles_found: reached.len(),
        balanced_cycles: catalogue.len(),
        balanced_deals,
        catalogue: catalogue.iter().map(cycle_json).collect(),
        recall,
        estimate,
        completeness,
        interrupted: stop.load(Ordering::Relaxed),
        elapsed_seconds: started.elapsed().as_secs_f64(),
    })
}

// A cycle's id and representative as another command reported them: bmn wrote them, so one
// that does not read back is a failure, not the user's input.
fn cycle_id(text: &str) -> Result<CycleId> {
    u64::from_str_radix(text, 16)
        .map(CycleId)
        .map_err(|e| Error::Failed(format!("a cycle id '{text}': {e}")))
}

fn representative(deal: &str, leader: usize) -> Result<Position> {
    Position::parse(deal, Player(leader.saturating_sub(1)))
        .map_err(|e| Error::Failed(format!("a cycle's representative '{deal}': {e}")))
}

fn completeness(
    exact: bool,
    hands: Option<&HandsRun>,
    deals_asked: bool,
    enumerable: bool,
) -> String {
    if exact {
        return "exact: every deal of the deck was played".into();
    }
    let mut why = String::new();
    if !deals_asked && enumerable {
        why.push_str("every deal could be played (--methods deals) but was not; ");
    }
    match hands {
        Some(h) if h.complete => format!(
            "{why}complete for the cycles whose basins hold a position where a player has at \
             most {} card(s): every such position was played; cycles whose basins never reach \
             one are counted only if another method met them",
            h.max_hand
        ),
        Some(h) => format!(
            "{why}a floor: the small-hand enumeration (at most {} card(s)) decided {:.3e} of \
             its {:.3e} positions ({:.2e} of the subspace) and would take at least about {} on \
             these threads; the counts are what the methods reached",
            h.max_hand,
            h.decided,
            h.positions,
            h.decided / h.positions,
            human_seconds(h.projected_seconds)
        ),
        None => format!("{why}a floor: the counts are what the methods reached"),
    }
}

/// Seconds in the largest unit that keeps the number readable.
fn human_seconds(s: f64) -> String {
    const YEAR: f64 = 365.25 * 86_400.0;
    match s {
        s if !s.is_finite() => "forever (nothing was decided)".into(),
        s if s >= YEAR => format!("{:.3e} years", s / YEAR),
        s if s >= 86_400.0 => format!("{:.1} days", s / 86_400.0),
        s if s >= 3_600.0 => format!("{:.1} hours", s / 3_600.0),
        s => format!("{s:.0} s"),
    }
}

fn cycle_json(c: &CensusCycle) -> CensusCycleJson {
    let deals: Vec<CensusDealJson> = c
        .deals
        .iter()
        .map(|d| CensusDealJson {
            deal: d.deal.clone(),
            rank: d.rank.to_string(),
            preperiod: d.preperiod.into(),
            renamed: d.renamed,
        })
        .collect();
    CensusCycleJson {
        cycle_id: c.id.to_string(),
        period: c.period.into(),
        representative: (&c.representative).into(),
        basin_positions: c.basin_positions,
        basin_complete: c.basin_complete,
        min_hand: c.min_hand,
        pieces: c.pieces.clone(),
        found_by: c.found_by.iter().cloned().collect(),
        balanced_deals: c.deals.len(),
        deals: deals.clone(),
        balanced_deal_list: deals,
    }
}

impl crate::Report for CensusReport {
    fn text(&self) -> String {
        let mut t = String::new();
        let _ = writeln!(
            t,
            "table:    {}, {} players; methods {}; seed {}",
            self.deck,
            self.players,
            self.methods.join(", "),
            self.seed
        );
        if let Some(p) = &self.pieces {
            let _ = writeln!(
                t,
                "pieces:   {}, {} with balanced deals ({:.1} s)",
                plural(p.cycles as u64, "cycle"),
                p.balanced_cycles,
                p.elapsed_seconds
            );
        }
        if let Some(h) = &self.hands {
            let _ = writeln!(
                t,
                "hands:    hands of at most {} card(s): {} of {} units, {:.3e} of {:.3e} \
                 positions decided; {}, {} with balanced deals ({:.1} s{})",
                h.max_hand,
                h.units_done,
                h.units,
                h.decided,
                h.positions,
                plural(h.cycles as u64, "cycle"),
                h.balanced_cycles,
                h.elapsed_seconds,
                if h.complete {
                    String::new()
                } else {
                    format!(
                        "; all of it: at least about {}",
                        human_seconds(h.projected_seconds)
                    )
                }
            );
        }
        if let Some(d) = &self.deals {
            let _ = writeln!(
                t,
                "deals:    {} deals played, {} never end, on {} ({:.1} s)",
                d.deals,
                d.cycling_deals,
                plural(d.cycles as u64, "cycle"),
                d.elapsed_seconds
            );
        }
        let _ = writeln!(
            t,
            "census:   {} balanced deals that never end (player 1 leading) on {}; {} \
             reached in all",
            self.balanced_deals,
            plural(self.balanced_cycles as u64, "cycle"),
            plural(self.cycles_found as u64, "cycle")
        );
        for c in self.catalogue.iter().take(TEXT_CYCLES) {
            let _ = writeln!(
                t,
                "  {}  period {:>4} tricks {:>5} cards  {:>4} deals  basin {:>7}{}  min hand {:>2}  \
                 by {}",
                c.cycle_id,
                c.period.tricks,
                c.period.cards,
                c.balanced_deals,
                c.basin_positions,
                if c.basin_complete { "" } else { "+" },
                c.min_hand,
                c.found_by.join("+")
            );
        }
        if self.catalogue.len() > TEXT_CYCLES {
            let _ = writeln!(
                t,
                "  ... and {} more (--json lists every cycle and every deal)",
                self.catalogue.len() - TEXT_CYCLES
            );
        }
        if let Some(recall) = &self.recall {
            for (m, r) in recall {
                let _ = writeln!(
                    t,
                    "recall:   {m}: {}/{} cycles, {}/{} deals",
                    r.cycles_found, r.cycles, r.deals_found, r.deals
                );
            }
        }
        if let Some(e) = &self.estimate {
            let _ = writeln!(
                t,
                "estimate: {:.1} balanced cycles (95%: {:.1} to {:.1}; Chapman, from {} by pieces, \
                 {} by hands, {} by both)",
                e.cycles, e.low, e.high, e.pieces, e.hands, e.both
            );
        }
        let _ = writeln!(t, "complete: {}", self.completeness);
        if self.interrupted {
            let _ = writeln!(
                t,
                "interrupted: the counts cover the work done before the stop"
            );
        }
        let _ = writeln!(t, "time:     {:.1} s", self.elapsed_seconds);
        t
    }
}
