//! `census --plan`: what a complete census of a deck would cost (every deal played, the one
//! method complete for every class of cycle), from a short sample measured here, before
//! anything long starts: on this machine's threads, on N cores, and on each GPU here or, where
//! none is, the figure recorded on one.

use std::fmt::Write as _;

use bmn_core::{Deck, Player};
use bmn_exhaustive::AllDeals;
use bmn_search::Engine;
use serde::Serialize;

use super::CensusRequest;
use crate::error::{Error, Result};
use crate::input;

/// Cores the cluster line assumes when not told.
pub const DEFAULT_CORES: usize = 1000;
/// A sample is long enough when it takes this long.
const SAMPLE_SECONDS: f64 = 0.5;
/// The first sample's deals (each next one four times as many).
const FIRST_SAMPLE: u64 = 1 << 16;

/// Deals per second measured on a GPU and recorded in BENCHMARKS.md ("GPU"), for a plan made
/// where there is none: `(deck, deals/s, device, when and how)`.
const RECORDED_GPU: &[(&str, f64, &str, &str)] = &[
    (
        "4J,4Q,4K,28-",
        216.8e6,
        "NVIDIA H200",
        "bmn exhaustive --kernel gpu on 2^32 deals, 2026-11-26 (BENCHMARKS.md)",
    ),
    (
        "2J,2Q,2K,2A,16-",
        447.7e6,
        "NVIDIA H200",
        "bmn exhaustive --kernel gpu on the whole deck, 2026-11-26 (BENCHMARKS.md)",
    ),
];

/// One GPU's line of the plan.
#[derive(Serialize, Clone, Debug)]
pub struct GpuCost {
    /// `gpu:N` for an adapter here; `recorded` for a figure from BENCHMARKS.md.
    pub engine: String,
    pub adapter: String,
    /// Measured here on a sample (true), or recorded on another machine (false).
    pub measured: bool,
    /// Where a recorded figure comes from.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
    pub deals_per_second: f64,
    pub seconds: f64,
    pub seconds_per_billion_deals: f64,
}

/// `census --plan --json`.
#[derive(Serialize, Clone, Debug)]
pub struct CostReport {
    pub deck: String,
    /// Every deal of the deck, a decimal string (it may pass 2^64).
    pub deck_deals: String,
    pub cpu: String,
    pub engine: String,
    pub threads: usize,
    /// The sample timed here: deals from the middle of the deck's ranks.
    pub sample_deals: u64,
    pub sample_seconds: f64,
    pub deals_per_second: f64,
    /// Every deal on this machine's threads.
    pub seconds: f64,
    pub seconds_per_billion_deals: f64,
    pub per_core_deals_per_second: f64,
    pub cores: usize,
    /// Every deal on `cores` cores like these (sharded; the merge costs nothing beside it).
    pub seconds_on_cores: f64,
    /// Each GPU here, measured; where none is, the figure recorded for this deck, if any.
    pub gpus: Vec<GpuCost>,
}

/// Measures a sample of `req`'s deck and projects every deal of it.
pub fn cost(req: &CensusRequest) -> Result<CostReport> {
    let cores = req.cores;
    let source = req.table.source()?;
    if source.players() != 2 {
        return Err(Error::bad_with(
            "plan",
            format!(
                ": it times the two-player enumeration; at {} players the census plays \
             every deal on the reference engine",
                source.players()
            ),
        ));
    }
    let rules = req.table.rules.rules()?;
    let threads = req.run.resolve()?.threads;
    let cores = input::at_least_one(cores.unwrap_or(DEFAULT_CORES) as u128, "cores")? as usize;
    let deck = *source.deck();
    let deals = AllDeals::new(deck, Player(0)).map_err(|e| Error::bad("deck", e))?;
    let total = deals.count() as f64;
    let engine = input::EngineInput::default()
        .plan(rules, 2, &deck, &crate::exhaustive::ENGINE)?
        .engine;
    let (sample_deals, sample_seconds) = sample(&deals, engine, threads);
    let rate = sample_deals as f64 / sample_seconds.max(1e-9);
    let per_core = rate / threads as f64;
    let gpus = gpus(&deals, engine, threads, &deck, total);
    Ok(CostReport {
        deck: deck.to_string(),
        deck_deals: deals.count().to_string(),
        cpu: crate::bench::cpu_name(),
        engine: engine.name(),
        threads,
        sample_deals,
        sample_seconds,
        deals_per_second: rate,
        seconds: total / rate,
        seconds_per_billion_deals: 1e9 / rate,
        per_core_deals_per_second: per_core,
        cores,
        seconds_on_cores: total / (per_core * cores as f64),
        gpus,
    })
}

/// Deals from the middle of the deck, four times more each try until one takes
/// [`SAMPLE_SECONDS`] (or is every deal): deals and seconds of the last.
fn sample(deals: &AllDeals, engine: Engine, threads: usize) -> (u64, f64) {
    let mut n = FIRST_SAMPLE;
    loop {
        let start = deals.count() / 2;
        let end = (start + u128::from(n)).min(deals.count());
        let start = end.saturating_sub(u128::from(n));
        // A sample of about a second: not worth a stop.
        let never = std::sync::atomic::AtomicBool::new(false);
        let (seconds, _) = crate::bench::time_block(deals, start..end, engine, threads, &never);
        let played = (end - start) as u64;
        if seconds >= SAMPLE_SECONDS || end - start == deals.count() {
            return (played, seconds);
        }
        n = n.saturating_mul(4);
    }
}

/// Each GPU here (lavapipe and other CPU adapters left out: they are not what a plan for a
/// GPU means), timed after a first sample that compiles its kernel; else the recorded figure.
fn gpus(deals: &AllDeals, cpu: Engine, threads: usize, deck: &Deck, total: f64) -> Vec<GpuCost> {
    let line = |engine, adapter, measured, source, rate: f64| GpuCost {
        engine,
        adapter,
        measured,
        source,
        deals_per_second: rate,
        seconds: total / rate,
        seconds_per_billion_deals: 1e9 / rate,
    };
    let mut out = Vec::new();
    for a in crate::devices::devices().adapters {
        if a.kind == "cpu" {
            continue;
        }
        let Ok(device) = bmn_params::device::open(Some(a.index)) else {
            continue;
        };
        let engine = cpu.on_device(device, false);
        sample(deals, engine, threads);
        let (n, seconds) = sample(deals, engine, threads);
        let rate = n as f64 / seconds.max(1e-9);
        out.push(line(format!("gpu:{}", a.index), a.name, true, None, rate));
    }
    if out.is_empty() {
        for (d, rate, device, source) in RECORDED_GPU {
            if Deck::parse(d).is_ok_and(|d| &d == deck) {
                out.push(line(
                    "recorded".into(),
                    (*device).into(),
                    false,
                    Some((*source).into()),
                    *rate,
                ));
            }
        }
    }
    out
}

impl crate::Report for CostReport {
    fn text(&self) -> String {
        let mut t = String::new();
        let _ = writeln!(
            t,
            "census:   every deal of {}: {} deals ({}), the one method complete for every \
             class of cycle",
            self.deck,
            self.deck_deals,
            crate::words::count(self.deck_deals.parse::<f64>().unwrap_or(f64::NAN))
        );
        let _ = writeln!(
            t,
            "here:     {:.2} M deals/s ({} kernel, {} thread(s), {}; a sample of {} deals in \
             {:.2} s): {}, {} per billion deals",
            self.deals_per_second / 1e6,
            self.engine,
            self.threads,
            self.cpu,
            self.sample_deals,
            self.sample_seconds,
            crate::words::duration(self.seconds),
            crate::words::duration(self.seconds_per_billion_deals)
        );
        let _ = writeln!(
            t,
            "cores:    {:.2} M deals/s per core: on {} such cores {} (--cores N), sharded as \
             docs/census.md shows",
            self.per_core_deals_per_second / 1e6,
            self.cores,
            crate::words::duration(self.seconds_on_cores)
        );
        if self.gpus.is_empty() {
            let _ = writeln!(
                t,
                "GPU:      none here, and none recorded for this deck (`bmn bench` on a GPU \
                 machine measures one)"
            );
        }
        for g in &self.gpus {
            let how = match &g.source {
                Some(s) => format!("recorded: {s}"),
                None => format!("measured here, {}", g.engine),
            };
            let _ = writeln!(
                t,
                "GPU:      {} {:.1} M deals/s ({how}): {}, {} per billion deals",
                g.adapter,
                g.deals_per_second / 1e6,
                crate::words::duration(g.seconds),
                crate::words::duration(g.seconds_per_billion_deals)
            );
        }
        let _ = writeln!(
            t,
            "then:     a basin search per cycle found (seconds each on the decks measured) and \
             the report"
        );
        t
    }
}
