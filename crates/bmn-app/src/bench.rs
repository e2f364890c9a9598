//! `bench`: the reference engine and every kernel this CPU runs on the same deals, then the
//! whole search pipeline; every one must agree with the reference engine.

use std::fmt::Write as _;

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use bmn_core::{Deck, Player};
use bmn_exhaustive::{AllDeals, Enumeration, MAX_TRICKS};
use bmn_job::Job;
use bmn_kernel::{Choice, DEFAULT_MAX_TRICKS, Kernel, Shape};

use bmn_search::bench::{
    Timing, deal_all, summary_matches, time_kernel, time_reference, time_search,
};
use bmn_search::{DealSource, Engine, Summary};
use serde::Serialize;

use crate::error::{Error, Result};
use crate::flags::DeckArg;
use crate::input::{self, DEFAULT_DECK};
use crate::seeded::{Run, SeededArgs};

/// Deals played by every engine when not told.
pub const DEFAULT_BENCH_GAMES: usize = 300_000;

/// What to time: `bmn bench`'s parameters.
#[derive(clap::Args, Clone, Debug, Default)]
#[command(mut_arg("threads", |a| a.help(BENCH_THREADS)))]
pub struct BenchRequest {
    /// Random deals played by every engine (the same deals for each) [default: 300000].
    #[arg(long, value_name = "N")]
    pub games: Option<usize>,
    #[command(flatten)]
    pub deck: DeckArg,
    #[command(flatten)]
    pub run: SeededArgs,
}

const BENCH_THREADS: &str = "Worker threads each engine is timed on [default: 1]. Results do \
    not depend on it";

/// `bench --json`.
#[derive(Serialize, Clone, Debug)]
pub struct BenchReport {
    pub games: usize,
    pub deck: String,
    #[serde(flatten)]
    pub run: Run,
    pub cpu: String,
    pub reference_games_per_second: f64,
    pub fast_games_per_second: f64,
    pub best_kernel: &'static str,
    /// `search` on the same deals with the best kernel, dealing and merging included.
    pub search_games_per_second: f64,
    pub kernels: Vec<KernelRow>,
    /// `bmn exhaustive` on a block of `games` deals from the middle of the standard deck,
    /// Camicia's and Paulhus's n = 16: the best CPU kernel, then each GPU.
    pub enumeration: Vec<EnumerationRow>,
    /// Stopped (Ctrl-C) part-way: the rows timed before the stop (each phase takes about a
    /// second at the default size), and with `--instructions` the rows counted before it.
    pub interrupted: bool,
}

/// One engine enumerating one deck's block.
#[derive(Serialize, Clone, Debug)]
pub struct EnumerationRow {
    pub deck: String,
    /// The best CPU kernel, or `gpu:N`.
    pub engine: String,
    /// The GPU adapter's name, on `gpu:N` rows.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub adapter: Option<String>,
    pub deals: u64,
    pub deals_per_second: f64,
    pub seconds: f64,
    /// Whether its summary equals the CPU kernel's, deal for deal.
    pub agrees_with_cpu: bool,
}

/// The decks `bench` enumerates a block of: the standard deck (its starts unranked on the
/// CPU), Camicia's and Paulhus's n = 16 (unranked on the device).
const ENUMERATED: [&str; 3] = ["standard", "camicia", "2J,2Q,2K,2A,16-"];

/// `games` deals from the middle of each of [`ENUMERATED`] on the best CPU kernel and on each
/// GPU, `threads` threads each.
fn time_enumerations(games: usize, threads: usize, stop: &AtomicBool) -> Vec<EnumerationRow> {
    let gpus: Vec<_> = crate::devices::devices()
        .adapters
        .into_iter()
        .filter_map(|a| {
            let device = bmn_params::device::open(Some(a.index)).ok()?;
            Some((format!("gpu:{}", a.index), Some(a.name), device))
        })
        .collect();
    // A block stopped part-way timed fewer deals: no row for it, nor for any after it (a
    // stopped flag ends each block at once).
    let stopped = || stop.load(Ordering::Relaxed);
    let mut rows = Vec::new();
    for deck in ENUMERATED {
        let parsed = Deck::parse(deck).expect("a deck");
        let deals = AllDeals::new(parsed, Player(0)).expect("deals");
        // The fastest kernel for this deck (Paulhus's n = 16 has a narrower one).
        let cpu = Engine::Kernel(fastest_kernel(&parsed, MAX_TRICKS));
        let start = deals.count() / 2;
        let end = (start + games as u128).min(deals.count());
        let run = |engine: Engine| time_block(&deals, start..end, engine, threads, stop);
        let (seconds, want) = run(cpu);
        if stopped() {
            break;
        }
        let n = (end - start) as u64;
        let row = |engine: String, adapter, seconds: f64, agrees| EnumerationRow {
            deck: deck.to_owned(),
            engine,
            adapter,
            deals: n,
            deals_per_second: n as f64 / seconds.max(1e-9),
            seconds,
            agrees_with_cpu: agrees,
        };
        rows.push(row(cpu.name(), None, seconds, true));
        for (name, adapter, device) in &gpus {
            let (seconds, got) = run(cpu.on_device(*device, false));
            if stopped() {
                break;
            }
            rows.push(row(name.clone(), adapter.clone(), seconds, got == want));
        }
    }
    rows
}

/// The fastest kernel this CPU runs for deals of `deck` (of at most 64 cards, as a bench's)
/// capped at `max_tricks` tricks.
fn fastest_kernel(deck: &Deck, max_tricks: u32) -> Kernel {
    let kernel = Engine::kernel_for(Choice::Fastest, deck, max_tricks);
    kernel.expect("a kernel for every deck of at most 64 cards")
}

/// Enumerates ranks `range` of `deals` on `engine` with `threads` threads: its seconds and
/// summary (`bench`'s enumeration rows, `census --plan`'s sample).
pub(crate) fn time_block(
    deals: &AllDeals,
    range: std::ops::Range<u128>,
    engine: Engine,
    threads: usize,
    stop: &AtomicBool,
) -> (f64, Summary) {
    let e = Enumeration {
        deals: deals.clone(),
        range,
        engine,
        max_tricks: MAX_TRICKS,
        list_cycles: false,
    };
    let mut p = e.start();
    let started = Instant::now();
    e.run(&mut p, threads, &mut Job::quiet(stop), |_, _, _| true);
    (started.elapsed().as_secs_f64(), p.summary)
}

/// One engine's timing.
#[derive(Serialize, Clone, Debug)]
pub struct KernelRow {
    /// A CPU kernel, `reference`, `search` (the pipeline with the best CPU kernel) or `gpu:N`
    /// (the same pipeline on GPU adapter N, dealing on the device).
    pub engine: String,
    /// The GPU adapter's name, on `gpu:N` rows.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub adapter: Option<String>,
    pub games_per_second: f64,
    pub games_per_second_per_thread: f64,
    pub seconds: f64,
    pub ratio_to_reference: f64,
    pub agrees_with_reference: bool,
    /// Instructions a game, counted by callgrind (`bmn bench --instructions`), on the rows
    /// it can run: not AVX-512 (which valgrind does not emulate), the search or a GPU.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub instructions_per_game: Option<f64>,
}

/// A benchmark, validated: the same `games` deals of `seed` for every engine.
#[derive(Clone, Debug)]
pub struct BenchPlan {
    pub games: usize,
    /// One thread unless told: a per-core rate is what compares engines.
    pub run: Run,
    pub source: DealSource,
}

impl TryFrom<&BenchRequest> for BenchPlan {
    type Error = Error;

    fn try_from(req: &BenchRequest) -> Result<Self> {
        let games = input::at_least_one(req.games.unwrap_or(DEFAULT_BENCH_GAMES), "games")?;
        let run = req.run.resolve_or(Some(1))?;
        let deck = input::deck(req.deck.deck.as_deref().unwrap_or(DEFAULT_DECK))?;
        if deck.len() > bmn_kernel::MAX_CARDS as u32 {
            return Err(Error::bad_with(
                "deck",
                format!(
                    ": {deck} has {} cards; the kernels play at most {}",
                    deck.len(),
                    bmn_kernel::MAX_CARDS
                ),
            ));
        }
        Ok(BenchPlan {
            games,
            run,
            // The search row deals as `bmn search` does.
            source: DealSource::new(deck, false)
                .map_err(|e| Error::bad("deck", e))?
                .with_stream(input::DEFAULT_STREAM),
        })
    }
}

/// Times every engine on the same deals, reporting nothing while it times. Once the job
/// stops, the phases not yet begun are left out (`interrupted`).
pub fn bench(req: &BenchRequest, job: &mut Job) -> Result<BenchReport> {
    // Each phase is timed on a job that reports to no one: progress would cost what it times.
    let stop = job.stop_flag();
    let quiet = || Job::quiet(stop);
    let BenchPlan { games, run, source } = BenchPlan::try_from(req)?;
    let Run { seed, threads } = run;
    let deck = *source.deck();
    let deals = deal_all(&source, seed, games);
    let stopped_report = || BenchReport {
        games,
        deck: deck.to_string(),
        run,
        cpu: cpu_name(),
        reference_games_per_second: 0.0,
        fast_games_per_second: 0.0,
        best_kernel: fastest_kernel(&deck, DEFAULT_MAX_TRICKS).name(),
        search_games_per_second: 0.0,
        kernels: Vec::new(),
        enumeration: Vec::new(),
        interrupted: true,
    };
    // The reference engine is timed first, and every other row is checked against it: stopped
    // during it, nothing is timed.
    let Some((reference, outcomes)) = time_reference(&source, &deals, threads, &mut quiet()) else {
        return Ok(stopped_report());
    };
    let stopped = || stop.load(Ordering::Relaxed);
    // Every kernel this CPU runs that takes the deck's deals.
    let shape = Shape::of_batch(&deals, source.len(), source.split(), DEFAULT_MAX_TRICKS);
    let kernels: Vec<Timing> = Kernel::all_for(&shape)
        .into_iter()
        .map_while(|k| {
            time_kernel(
                &source,
                &deals,
                threads,
                k,
                DEFAULT_MAX_TRICKS,
                &outcomes,
                &mut quiet(),
            )
        })
        .collect();
    let best = fastest_kernel(&deck, DEFAULT_MAX_TRICKS).name();
    let (search_wall, search_summary) = time_search(
        &source,
        seed,
        games,
        threads,
        Engine::Kernel(fastest_kernel(&deck, DEFAULT_MAX_TRICKS)),
        DEFAULT_MAX_TRICKS,
        &mut quiet(),
    );
    // Every GPU through the same pipeline: it deals on the device, the CPU tallies.
    let gpus: Vec<(String, String, Duration, Summary)> = crate::devices::devices()
        .adapters
        .into_iter()
        .take_while(|_| !stopped())
        .filter_map(|a| {
            let device = bmn_params::device::open(Some(a.index)).ok()?;
            let engine =
                Engine::Kernel(fastest_kernel(&deck, DEFAULT_MAX_TRICKS)).on_device(device, false);
            let (wall, summary) = time_search(
                &source,
                seed,
                games,
                threads,
                engine,
                DEFAULT_MAX_TRICKS,
                &mut quiet(),
            );
            let whole = summary.games == games as u64;
            whole.then(|| (format!("gpu:{}", a.index), a.name, wall, summary))
        })
        .collect();
    let row = |kernel: &str, seconds: f64, agrees: bool| {
        let games_per_second = games as f64 / seconds.max(1e-9);
        KernelRow {
            engine: kernel.to_owned(),
            adapter: None,
            games_per_second,
            games_per_second_per_thread: games_per_second / threads as f64,
            seconds,
            ratio_to_reference: games_per_second / reference.games_per_second(),
            agrees_with_reference: agrees,
            instructions_per_game: None,
        }
    };
    let mut rows: Vec<KernelRow> = std::iter::once(&reference)
        .chain(&kernels)
        .map(|t| row(t.engine, t.wall.as_secs_f64(), t.disagreements == 0))
        .collect();
    // The last row is the search pipeline, dealing included: the figure a record hunter sees.
    // (A search stopped part-way timed fewer games: its row is left out.)
    if search_summary.games == games as u64 {
        rows.push(row(
            "search",
            search_wall.as_secs_f64(),
            summary_matches(&search_summary, &outcomes),
        ));
    }
    let search_rate = rows
        .iter()
        .find(|r| r.engine == "search")
        .map_or(0.0, |r| r.games_per_second);
    for (name, adapter, wall, summary) in &gpus {
        rows.push(KernelRow {
            adapter: Some(adapter.clone()),
            ..row(
                name,
                wall.as_secs_f64(),
                summary_matches(summary, &outcomes),
            )
        });
    }
    let fast = rows
        .iter()
        .find(|r| r.engine == best)
        .map_or(0.0, |r| r.games_per_second);
    Ok(BenchReport {
        games,
        deck: deck.to_string(),
        run,
        cpu: cpu_name(),
        reference_games_per_second: reference.games_per_second(),
        fast_games_per_second: fast,
        best_kernel: best,
        search_games_per_second: search_rate,
        kernels: rows,
        enumeration: time_enumerations(games, threads, stop),
        interrupted: stopped(),
    })
}

/// `bench --count-only ENGINE` (what `bench --instructions` runs under callgrind): plays the
/// bench's deals on `engine` alone, through bmn-search's `counted_*` functions.
pub fn play_counted(req: &BenchRequest, engine: &str) -> Result<()> {
    let plan = BenchPlan::try_from(req)?;
    let deals = deal_all(&plan.source, plan.run.seed, plan.games);
    if !bmn_search::bench::play_counted(&plan.source, &deals, engine) {
        return Err(Error::bad_with(
            "count_only",
            format!(": {engine} is not an engine this CPU runs"),
        ));
    }
    Ok(())
}

impl BenchReport {
    /// An error naming every engine that disagrees with the reference engine.
    pub fn check(&self) -> Result<()> {
        let disagree: Vec<_> = self
            .kernels
            .iter()
            .filter(|r| !r.agrees_with_reference)
            .map(|r| r.engine.clone())
            .chain(
                self.enumeration
                    .iter()
                    .filter(|r| !r.agrees_with_cpu)
                    .map(|r| format!("{} on {}", r.engine, r.deck)),
            )
            .collect();
        if disagree.is_empty() {
            return Ok(());
        }
        Err(Error::failed(format!(
            "kernels disagree with the reference engine: {}",
            disagree.join(", ")
        )))
    }
}

impl crate::Report for BenchReport {
    fn text(&self) -> String {
        let mut t = String::new();
        if self.interrupted {
            t.push_str("interrupted: the rows timed before the stop\n");
        }
        let _ = writeln!(
            t,
            "{} random deals of {}, {} thread(s), seed {}, {}",
            self.games, self.deck, self.run.threads, self.run.seed, self.cpu
        );
        // The instructions column only where some row was counted.
        let counted = self
            .kernels
            .iter()
            .any(|r| r.instructions_per_game.is_some());
        // The engine column as wide as its longest name (kernels are named by algorithm and
        // width: `avx512-stream-16x32`).
        let width = (self.kernels.iter().map(|r| r.engine.len()))
            .chain(self.enumeration.iter().map(|r| r.engine.len()))
            .chain(["engine".len()])
            .max()
            .unwrap_or(0);
        let _ = write!(
            t,
            "{:<width$} {:>14} {:>10} {:>9}  agrees",
            "engine", "games/s", "seconds", "ratio"
        );
        t.push_str(if counted { "   instr/game\n" } else { "\n" });
        for r in &self.kernels {
            let _ = write!(
                t,
                "{:<width$} {:>14.0} {:>10.3} {:>8.2}x  {:<6}",
                r.engine,
                r.games_per_second,
                r.seconds,
                r.ratio_to_reference,
                if r.agrees_with_reference { "yes" } else { "NO" }
            );
            match r.instructions_per_game {
                Some(i) if counted => {
                    let _ = write!(t, " {i:>12.0}");
                }
                _ => {}
            }
            t.truncate(t.trim_end().len());
            t.push('\n');
        }
        let _ = writeln!(
            t,
            "(search: `bmn search` with the {} kernel on the same deals, dealing included)",
            self.best_kernel
        );
        for r in &self.kernels {
            if let Some(adapter) = &r.adapter {
                let _ = writeln!(t, "({}: `bmn search --kernel gpu` on {adapter})", r.engine);
            }
        }
        if let Some(first) = self.enumeration.first() {
            let _ = writeln!(
                t,
                "\n{} deals from the middle of each deck, `bmn exhaustive`:",
                first.deals
            );
            let _ = writeln!(
                t,
                "{:<16} {:<width$} {:>14} {:>10}  agrees",
                "deck", "engine", "deals/s", "seconds"
            );
            for r in &self.enumeration {
                let _ = writeln!(
                    t,
                    "{:<16} {:<width$} {:>14.0} {:>10.3}  {}",
                    r.deck,
                    r.engine,
                    r.deals_per_second,
                    r.seconds,
                    if r.agrees_with_cpu { "yes" } else { "NO" }
                );
            }
        }
        t
    }
}

/// The CPU's model name (Linux), for the record.
pub(crate) fn cpu_name() -> String {
    std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("model name"))
                .and_then(|l| l.split(':').nth(1))
                .map(|m| m.trim().to_string())
        })
        .unwrap_or_else(|| std::env::consts::ARCH.to_string())
}
