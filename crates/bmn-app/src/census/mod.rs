//! `census`: every cycle with balanced deals that the methods reach on a table, every balanced
//! deal on each with its rank, each cycle's class, and how complete the count is.
//!
//! Methods (`--methods`, all that apply by default):
//! - `pieces`: the endless-game factory (Casella's construction where the deck has four jacks,
//!   else random cycling deals; then walks toward balance);
//! - `hands`: every position in which one player holds at most `--hands M` cards (bmn-census),
//!   to the end where the subspace is small enough, else for `--hands-time`;
//! - `deals`: every deal (bmn-exhaustive), the truth, where the deck has at most `--deals-max`
//!   deals, or the merged result files of a sharded `bmn exhaustive --list-cycles` run
//!   (`--enumeration`, [`shards`]): then each other method's recall is measured against it.
//!
//! Every cycle reached is played to its cycle by the reference engine and its basin searched
//! backward; the balanced deals (player 1 leading) of its basin are the census's deals, and
//! where the enumeration listed every cycling deal, the two lists must agree. [`cost`] is the
//! dry run (`--plan`).

pub mod cost;
pub mod report;
pub mod shards;

use bmn_job::Job;
use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use bmn_census::{CensusCycle, HandsConfig, Method};
use bmn_core::{CycleId, Player, Position, Rules};
use bmn_params::message;
use bmn_search::DealSource;

use crate::error::{Error, Result};
use crate::exhaustive::{self, ExhaustivePlan};
use crate::factory::FactoryPlan;
use crate::input::{self, TableInput, TableRules};
use crate::seeded::{Run, SeededArgs};

pub use report::{CensusReport, DealsRun, HandsRun, PiecesRun};
use shards::Enumerated;

/// What to run: `bmn census`'s parameters.
#[derive(clap::Args, Clone, Debug, Default)]
pub struct CensusRequest {
    #[command(flatten)]
    pub run: SeededArgs,
    #[command(flatten)]
    pub table: TableRules,
    /// Methods, comma-separated: `pieces` (the factory: Casella's construction, walks),
    /// `hands` (every position where a player holds at most --hands cards), `deals` (every
    /// deal, the truth, on decks of at most --deals-max deals) [default: all that apply]
    #[arg(long, value_name = "LIST")]
    pub methods: Option<String>,
    /// The small hand's largest size for `hands` [default: 2]
    #[arg(long, value_name = "M")]
    pub hands: Option<usize>,
    /// How long `hands` runs when its subspace is too big to finish (over 3e9 positions), or
    /// at most when given [default: 60s]
    #[arg(long, value_name = "DURATION", allow_hyphen_values = true)]
    pub hands_time: Option<String>,
    /// `deals` plays decks of at most this many deals [default: 400000000 for two players,
    /// 20000000 at other tables, which the reference engine plays]
    #[arg(long, value_name = "N")]
    pub deals_max: Option<u64>,
    /// Positions a basin search may visit per cycle [default: 1000000]
    #[arg(long, value_name = "M")]
    pub basin_limit: Option<u64>,
    /// Rounds of the factory's walks [default: the factory's, 200]
    #[arg(long, value_name = "N")]
    pub rounds: Option<u64>,
    /// The result files of every shard of one `bmn exhaustive --list-cycles` run (--out or
    /// --checkpoint of each): `deals` reads them instead of playing, on any deck. The deck
    /// and penalties are theirs unless given; files `bmn merge` refuses are refused
    #[arg(long, value_name = "FILE", num_args = 1..)]
    pub enumeration: Vec<PathBuf>,
    /// Play nothing: time a short sample of the deck's deals and print what every deal (the
    /// complete census) would take here, on --cores cores and on a GPU
    #[arg(long)]
    pub plan: bool,
    /// Cores the --plan's cluster line assumes [default: 1000]
    #[arg(long, value_name = "N", requires = "plan")]
    pub cores: Option<usize>,
}

pub const DEFAULT_HANDS: usize = 2;
pub const DEFAULT_HANDS_TIME: Duration = Duration::from_secs(60);
pub const DEFAULT_DEALS_MAX: u64 = 400_000_000;
/// The same for tables the kernels do not play (three players or more: the reference engine).
pub const DEFAULT_DEALS_MAX_REFERENCE: u64 = 20_000_000;
/// `hands` runs to the end by default when its subspace has at most this many positions
/// (about ten minutes on two cores at the rates of docs/results.md, Part 8).
pub const HANDS_TO_THE_END: f64 = 3e9;
/// Positions a basin search may visit per cycle (`--basin-limit`).
pub const DEFAULT_BASIN_LIMIT: u64 = 1_000_000;

/// Which methods, checked against the table: the request's words parsed, in the order given
/// (repeats dropped), or every method that applies.
fn methods(
    req: &CensusRequest,
    players: usize,
    cards: u32,
    from_files: bool,
) -> Result<Vec<Method>> {
    let applies = |m: Method| m != Method::Hands || (players == 2 && cards as usize <= 64);
    let Some(text) = &req.methods else {
        return Ok(Method::ALL.into_iter().filter(|&m| applies(m)).collect());
    };
    let mut chosen = Vec::new();
    for word in text.split(',').map(str::trim) {
        let Some(m) = Method::parse(word) else {
            return Err(Error::bad_with(
                "methods",
                format!(": unknown method '{word}' (expected pieces, hands or deals)"),
            ));
        };
        if !applies(m) {
            return Err(Error::bad_with(
                "methods",
                format!(
                    ": hands plays two-player tables of at most 64 cards, not \
                 {players} players with {cards} cards"
                ),
            ));
        }
        if !chosen.contains(&m) {
            chosen.push(m);
        }
    }
    if from_files && !chosen.contains(&Method::Deals) {
        return Err(Error::bad_with(
            "methods",
            message!(": --enumeration is the deals method, which --methods leaves out"),
        ));
    }
    Ok(chosen)
}

/// Where `deals` gets every deal's outcome.
#[derive(Clone, Debug)]
pub enum DealsSource {
    /// The enumeration, played here (two players).
    Play(Box<ExhaustivePlan>),
    /// Every deal on the reference engine (three players or more).
    Reference,
    /// The merged result files of a sharded enumeration, read when the plan was made.
    Files(Box<shards::Sharded>),
}

/// A census, validated: the table, the methods that run, each one's limits, and the plans of
/// the enumeration for `deals` and the factory for `pieces` (checked, and the enumeration's
/// files read and merged, before anything is played).
#[derive(Clone, Debug)]
pub struct CensusPlan {
    pub source: DealSource,
    pub rules: Rules,
    pub run: Run,
    pub methods: Vec<Method>,
    /// The small-hand enumeration of `hands` (when chosen), checked.
    pub hands: Option<HandsConfig>,
    /// Given: `hands` stops at this time whatever its subspace's size; `None`: it runs to
    /// the end where the subspace is small enough, else [`DEFAULT_HANDS_TIME`].
    pub hands_time: Option<Duration>,
    pub deals_max: u64,
    pub basin_limit: u64,
    /// The factory run of `pieces` (when chosen).
    pub factory: Option<FactoryPlan>,
    /// How `deals` runs (when chosen, and the deck has at most `deals_max` deals or the
    /// enumeration was given as files).
    pub deals: Option<DealsSource>,
}

impl TryFrom<&CensusRequest> for CensusPlan {
    type Error = Error;

    fn try_from(req: &CensusRequest) -> Result<Self> {
        let (files, source, rules) = table(req)?;
        let players = source.players();
        let run = req.run.resolve()?;
        let methods = methods(req, players, source.deck().len(), files.is_some())?;
        let hands_time = req
            .hands_time
            .as_deref()
            .map(|t| input::duration(t, "hands_time"))
            .transpose()?;
        let hands = methods
            .contains(&Method::Hands)
            .then(|| hands_config(req, &source, rules))
            .transpose()?;
        let factory = methods
            .contains(&Method::Pieces)
            .then(|| {
                let plan = FactoryPlan::at(source.clone(), rules, run);
                let rounds = req.rounds.map(|n| input::at_least_one(n, "rounds"));
                Ok::<_, Error>(FactoryPlan {
                    rounds: rounds.transpose()?.or(plan.rounds),
                    ..plan
                })
            })
            .transpose()?;
        let deals_max = req.deals_max.unwrap_or(if players == 2 {
            DEFAULT_DEALS_MAX
        } else {
            DEFAULT_DEALS_MAX_REFERENCE
        });
        let deals = match files {
            Some(f) => Some(DealsSource::Files(Box::new(f))),
            None if !methods.contains(&Method::Deals) || !enumerable(&source, deals_max) => None,
            None if players != 2 => Some(DealsSource::Reference),
            None => Some(DealsSource::Play(Box::new(enumeration(
                &source,
                rules,
                run.threads,
            )?))),
        };
        Ok(CensusPlan {
            rules,
            run,
            methods,
            hands,
            hands_time,
            deals_max,
            basin_limit: input::or_default(req.basin_limit, DEFAULT_BASIN_LIMIT, "basin_limit")?,
            factory,
            deals,
            source,
        })
    }
}

/// The table and rules: the request's, where `--enumeration` gives files completed by theirs
/// (they name their deck and rules; the request may repeat them, not contradict them), and the
/// files read and merged.
fn table(req: &CensusRequest) -> Result<(Option<shards::Sharded>, DealSource, Rules)> {
    let files = (!req.enumeration.is_empty())
        .then(|| shards::Sharded::read(&req.enumeration))
        .transpose()?;
    let mut table = TableInput::of(&req.table.deck, &req.table.players);
    let mut rules_in = req.table.rules.clone();
    if let Some(f) = &files {
        table.deck.get_or_insert_with(|| f.deck.to_string());
        rules_in
            .penalties
            .get_or_insert_with(|| f.penalties.clone());
    }
    let rules = rules_in.rules()?;
    let source = table.source()?;
    if let Some(f) = &files {
        f.matches(&source, &rules)?;
    }
    Ok((files, source, rules))
}

/// The small-hand enumeration of `hands`, checked (`--hands`) before anything runs.
fn hands_config(req: &CensusRequest, source: &DealSource, rules: Rules) -> Result<HandsConfig> {
    let config = HandsConfig {
        deck: *source.deck(),
        rules,
        max_hand: req.hands.unwrap_or(DEFAULT_HANDS),
    };
    config.check().map_err(|e| Error::bad("hands", e))?;
    Ok(config)
}

/// The enumeration `deals` plays: every deal, player 1 leading, under the census's rules,
/// listing every cycling deal (to check the basins' deals against), recorded in no ledger.
fn enumeration(source: &DealSource, rules: Rules, threads: usize) -> Result<ExhaustivePlan> {
    let every = ExhaustivePlan::of_deck(*source.deck(), Player(0), threads)
        .map_err(|e| Error::bad("deck", e))?
        .under(rules)?;
    let mut enumeration = every.enumeration;
    enumeration.list_cycles = true;
    Ok(ExhaustivePlan {
        enumeration,
        ledger: crate::LedgerChoice::NONE,
        ..every
    })
}

/// Whether every deal of the table is few enough (at most `deals_max`) to play them all.
fn enumerable(source: &DealSource, deals_max: u64) -> bool {
    bmn_deals::rank::count(&source.deck().counts()) <= bmn_deals::BigUint::from(deals_max)
}

/// Runs the census a request asks for (see [`run`]).
pub fn census(req: &CensusRequest, job: &mut Job) -> Result<CensusReport> {
    run(&CensusPlan::try_from(req)?, job)
}

/// Every cycle reached: a position reaching it, and the methods that reached it.
#[derive(Default)]
struct Reached(BTreeMap<CycleId, (Position, BTreeSet<Method>)>);

impl Reached {
    fn note(&mut self, id: CycleId, p: &Position, method: Method) {
        self.0
            .entry(id)
            .or_insert_with(|| (p.clone(), BTreeSet::new()))
            .1
            .insert(method);
    }
}

/// Runs the census: each method that applies, then every cycle reached described, then the
/// report.
pub fn run(plan: &CensusPlan, job: &mut Job) -> Result<CensusReport> {
    let started = Instant::now();
    let mut reached = Reached::default();
    let mut pieces = None;
    if let Some(factory) = &plan.factory {
        pieces = Some(pieces_stage(factory, &mut reached, job)?);
    }
    let mut hands = None;
    if let Some(config) = &plan.hands
        && !job.interrupted()
    {
        hands = Some(hands_stage(plan, config, &mut reached, job)?);
    }
    let (mut deals, mut enumerated) = (None, None);
    if let Some(source) = &plan.deals
        && !job.interrupted()
    {
        let (run, e) = deals_stage(plan, source, &mut reached, job)?;
        (deals, enumerated) = (Some(run), Some(e));
    }
    let catalogue = catalogue_stage(plan, &reached, job);
    // A catalogue cut short by a stop lacks cycles: no check against the truth then.
    let truth = enumerated
        .as_ref()
        .filter(|e| e.complete && !job.interrupted());
    if let Some(e) = truth {
        e.agrees_with(&catalogue)?;
    }
    Ok(report::assemble(
        plan,
        report::Runs {
            pieces,
            hands,
            deals,
        },
        reached.0.len(),
        catalogue,
        truth.map(|e| e.classes.iter().map(|(id, c)| (*id, c.1)).collect()),
        job.interrupted(),
        started.elapsed().as_secs_f64(),
    ))
}

/// `pieces`: the factory's catalogue, each cycle with balanced deals noted.
fn pieces_stage(factory: &FactoryPlan, reached: &mut Reached, job: &mut Job) -> Result<PiecesRun> {
    let t = Instant::now();
    let found = crate::factory::play(factory, job)?;
    // The cycles with balanced deals, as the factory's listing has them (without its clones).
    for c in found.catalogue.cycles.values() {
        if c.balanced_count > 0 {
            reached.note(c.cycle_id, &c.representative, Method::Pieces);
        }
    }
    Ok(PiecesRun {
        distinct_cycle_count: found.catalogue.cycles.len(),
        balanced_cycles: 0,
        elapsed_seconds: t.elapsed().as_secs_f64(),
    })
}

/// `hands`: every small-hand position, to the end or for the time allowed.
fn hands_stage(
    plan: &CensusPlan,
    config: &HandsConfig,
    reached: &mut Reached,
    job: &mut Job,
) -> Result<HandsRun> {
    let positions = config.positions();
    let limited = positions > HANDS_TO_THE_END || plan.hands_time.is_some();
    let hands_time = plan.hands_time.unwrap_or(DEFAULT_HANDS_TIME);
    let t = Instant::now();
    // The time limit stops this stage only: the caller's flag means Ctrl-C. The stage's own
    // flag is raised on either, for the units under way (a unit runs for minutes) to see.
    let ctrl_c = job.stop_flag();
    let stop_hands = AtomicBool::new(false);
    // Counted in positions, not units: a unit of a big deck takes tens of seconds, and its walk
    // reports the positions it decides as it goes.
    job.start(Some(positions as u64), 0, "positions decided");
    // The count shown is the merged units' alone, what the report will count (a stop drops
    // the units under way); what those have decided so far is said apart, in the message.
    let result = bmn_census::hands(
        config,
        plan.run.threads,
        &mut job.stage(&stop_hands),
        |job, p| {
            let units = format!(
                "{} of {} hand units; {} more in units under way",
                p.units_done,
                p.units,
                crate::words::count(p.under_way)
            );
            let go =
                job.progress(p.decided as u64, Some(&units)) && !ctrl_c.load(Ordering::Relaxed);
            let go = go && !(limited && t.elapsed() >= hands_time);
            if !go {
                stop_hands.store(true, Ordering::Relaxed);
            }
            go
        },
    )
    // The plan checked the configuration: a refusal here is bmn's fault.
    .map_err(|e| Error::failed(format!("the small-hand enumeration: {e}")))?;
    let merged = format!("{} of {} hand units", result.units_done, result.units);
    job.progress(result.decided as u64, Some(&merged));
    job.finish();
    for (id, c) in &result.cycles {
        reached.note(*id, &c.first, Method::Hands);
    }
    let elapsed = t.elapsed().as_secs_f64();
    Ok(HandsRun {
        max_hand: config.max_hand,
        // No unit at all: the stop came while they were planned.
        complete: result.units > 0 && result.units_done == result.units,
        units: result.units,
        units_done: result.units_done,
        positions: result.positions,
        decided: result.decided,
        distinct_cycle_count: result.cycles.len(),
        balanced_cycles: 0,
        elapsed_seconds: elapsed,
        projected_seconds: if result.decided > 0.0 {
            elapsed * result.positions / result.decided
        } else {
            f64::INFINITY
        },
    })
}

/// `deals`: every deal's outcome, played here or read from the shards' files; every cycle
/// noted where every deal was.
fn deals_stage(
    plan: &CensusPlan,
    source: &DealsSource,
    reached: &mut Reached,
    job: &mut Job,
) -> Result<(DealsRun, Enumerated)> {
    let t = Instant::now();
    let e = every_deal(plan, source, job)?;
    if e.complete {
        for (id, (p, _)) in &e.classes {
            reached.note(*id, p, Method::Deals);
        }
    }
    let run = DealsRun {
        deals: e.deals,
        cycling_deals: e.cycling,
        distinct_cycle_count: e.classes.len(),
        p_second_wins: e.outcomes.as_ref().map(|o| o.p_second_wins),
        longest: e.outcomes.as_ref().and_then(|o| o.longest.clone()),
        mean_cards: e.outcomes.as_ref().map(|o| o.mean_cards),
        enumeration_files: match source {
            DealsSource::Files(f) => f.files.iter().map(|p| p.display().to_string()).collect(),
            _ => Vec::new(),
        },
        elapsed_seconds: match source {
            DealsSource::Files(f) => f.elapsed_seconds,
            _ => t.elapsed().as_secs_f64(),
        },
    };
    Ok((run, e))
}

/// Every deal's outcome, played here or read from the shards' files.
fn every_deal(plan: &CensusPlan, source: &DealsSource, job: &mut Job) -> Result<Enumerated> {
    match source {
        DealsSource::Play(enumeration) => {
            let r = exhaustive::run(enumeration, job)?;
            Enumerated::of_summary(&r.summary, r.leader, r.range_done)
        }
        DealsSource::Files(f) => Enumerated::of_summary(&f.report.summary, f.report.leader, true),
        DealsSource::Reference => {
            job.start(None, 0, "deals (reference engine)");
            let r = bmn_census::every_deal(&plan.source, &plan.rules, plan.run.threads, job)
                .map_err(|e| Error::bad("deck", e))?;
            job.finish();
            Ok(Enumerated {
                deals: r.deals,
                cycling: r.cycles.values().map(|c| c.1).sum(),
                classes: r.cycles,
                complete: r.complete,
                listed: None,
                outcomes: None,
            })
        }
    }
}

/// Every cycle reached described (its basin searched backward, its balanced deals ranked,
/// its class), those with balanced deals kept, most deals first (then by id). Once the job
/// stops, the cycles not yet described, and the one whose basin the stop cut, are left out
/// (the report says it was interrupted).
fn catalogue_stage(plan: &CensusPlan, reached: &Reached, job: &mut Job) -> Vec<CensusCycle> {
    let ids: Vec<CycleId> = reached.0.keys().copied().collect();
    let starts: Vec<Position> = reached.0.values().map(|(p, _)| p.clone()).collect();
    job.start(Some(starts.len() as u64), 0, "basins");
    let entries = bmn_census::describe_all(
        &plan.rules,
        &starts,
        plan.basin_limit,
        plan.run.threads,
        job,
    );
    job.finish();
    let mut catalogue: Vec<CensusCycle> = Vec::new();
    for (id, entry) in ids.iter().zip(entries) {
        let Some(mut c) = entry else { continue };
        c.found_by = reached.0[id].1.clone();
        if !c.deals.is_empty() {
            catalogue.push(c);
        }
    }
    catalogue.sort_by(|a, b| b.deals.len().cmp(&a.deals.len()).then(a.id.cmp(&b.id)));
    catalogue
}

#[cfg(test)]
mod tests {
    use super::*;
    use bmn_job::Hooks;

    /// Each progress call's count and message while the hands stage has merged six units.
    #[derive(Default)]
    struct Watch(Vec<(u64, String)>);

    impl Hooks for Watch {
        fn progress(&mut self, done: u64, message: Option<&str>) -> bool {
            if let Some(m) = message.filter(|m| m.starts_with("6 of ")) {
                self.0.push((done, m.to_string()));
            }
            // Seen moving: enough.
            !self.0.windows(2).any(|w| w[1].1 != w[0].1)
        }
    }

    /// The hands stage's progress moves while a long unit runs (on one thread, Camicia's
    /// unit 6, of hands of at most two cards, takes minutes): its message says the positions
    /// the unit under way has decided, while the count stays the merged units' alone, the
    /// report's count (a stop drops the unit under way; issue 64).
    #[test]
    fn the_hands_stage_reports_positions_while_a_unit_runs() {
        let plan = CensusPlan::try_from(&CensusRequest {
            table: crate::input::TableRules {
                deck: "camicia".into(),
                ..Default::default()
            },
            methods: Some("hands".into()),
            run: SeededArgs::of(None, Some(1)),
            hands_time: Some("30".into()),
            ..Default::default()
        })
        .unwrap();
        let mut watch = Watch::default();
        let report = run(&plan, &mut Job::new(&mut watch, &AtomicBool::new(false))).unwrap();
        assert!(
            watch.0.windows(2).any(|w| w[1].1 != w[0].1),
            "progress while unit 6 ran: {:?}",
            watch.0
        );
        let hands = report.hands_run.unwrap();
        assert_eq!((hands.units_done, hands.complete), (6, false));
        for (done, _) in &watch.0 {
            assert_eq!(
                *done, hands.decided as u64,
                "the count shown is the report's"
            );
        }
    }
}
