//! `bmn bench`: the reference engine and every kernel on the same deals; results must agree.

use std::fmt::Write as _;

use anyhow::{Result, bail};
use bmn_core::Deck;
use bmn_kernel::{DEFAULT_MAX_TRICKS, Kernel};
use bmn_search::DealSource;
use bmn_search::bench::{
    Timing, deal_all, summary_matches, time_kernel, time_reference, time_search,
};
use serde::Serialize;

use crate::cli::BenchArgs;
use crate::input::{self, BadInput};
use crate::output;

#[derive(Serialize)]
struct BenchJson {
    games: usize,
    deck: String,
    threads: usize,
    seed: u64,
    cpu: String,
    reference_games_per_second: f64,
    fast_games_per_second: f64,
    best_kernel: &'static str,
    /// `bmn search` on the same deals with the best kernel, dealing and merging included.
    search_games_per_second: f64,
    kernels: Vec<KernelJson>,
}

#[derive(Serialize)]
struct KernelJson {
    kernel: &'static str,
    games_per_second: f64,
    games_per_second_per_thread: f64,
    seconds: f64,
    ratio_to_reference: f64,
    agrees_with_reference: bool,
}

pub fn run(args: &BenchArgs) -> Result<()> {
    if args.games == 0 {
        return Err(BadInput("bad --games: must be at least 1".into()).into());
    }
    let threads = input::threads(Some(args.threads))?;
    let deck = Deck::parse(&args.deck).map_err(input::bad("bad --deck"))?;
    if deck.len() > bmn_kernel::MAX_CARDS as u32 {
        return Err(BadInput(format!(
            "bad --deck: {deck} has {} cards; the kernels play at most {}",
            deck.len(),
            bmn_kernel::MAX_CARDS
        ))
        .into());
    }
    let source = DealSource::new(deck, false).map_err(input::bad("bad --deck"))?;
    let deals = deal_all(&source, args.seed, args.games);
    let (reference, outcomes) = time_reference(&source, &deals, threads);
    let kernels: Vec<Timing> = Kernel::all_available()
        .into_iter()
        .map(|k| time_kernel(&source, &deals, threads, k, DEFAULT_MAX_TRICKS, &outcomes))
        .collect();
    let best = Kernel::best_available().name();
    let (search_wall, search_summary) = time_search(
        &source,
        args.seed,
        args.games,
        threads,
        Kernel::best_available(),
        DEFAULT_MAX_TRICKS,
    );
    let row = |kernel: &'static str, seconds: f64, agrees: bool| {
        let games_per_second = args.games as f64 / seconds.max(1e-9);
        KernelJson {
            kernel,
            games_per_second,
            games_per_second_per_thread: games_per_second / threads as f64,
            seconds,
            ratio_to_reference: games_per_second / reference.games_per_second(),
            agrees_with_reference: agrees,
        }
    };
    let mut rows: Vec<KernelJson> = std::iter::once(&reference)
        .chain(&kernels)
        .map(|t| row(t.engine, t.wall.as_secs_f64(), t.disagreements == 0))
        .collect();
    // The last row is the search pipeline, dealing included: the figure a record hunter sees.
    rows.push(row(
        "search",
        search_wall.as_secs_f64(),
        summary_matches(&search_summary, &outcomes),
    ));
    let search_rate = rows.last().map_or(0.0, |r| r.games_per_second);
    let fast = rows
        .iter()
        .find(|r| r.kernel == best)
        .map_or(0.0, |r| r.games_per_second);
    let disagree: Vec<_> = rows
        .iter()
        .filter(|r| !r.agrees_with_reference)
        .map(|r| r.kernel)
        .collect();
    if args.json {
        output::print_json(&BenchJson {
            games: args.games,
            deck: deck.to_string(),
            threads,
            seed: args.seed,
            cpu: cpu_name(),
            reference_games_per_second: reference.games_per_second(),
            fast_games_per_second: fast,
            best_kernel: best,
            search_games_per_second: search_rate,
            kernels: rows,
        })?;
    } else {
        let mut t = String::new();
        writeln!(
            t,
            "{} random deals of {}, {} thread(s), seed {}, {}",
            args.games,
            deck,
            threads,
            args.seed,
            cpu_name()
        )?;
        writeln!(
            t,
            "{:<10} {:>14} {:>10} {:>9}  agrees",
            "engine", "games/s", "seconds", "ratio"
        )?;
        for r in &rows {
            writeln!(
                t,
                "{:<10} {:>14.0} {:>10.3} {:>8.2}x  {}",
                r.kernel,
                r.games_per_second,
                r.seconds,
                r.ratio_to_reference,
                if r.agrees_with_reference { "yes" } else { "NO" }
            )?;
        }
        writeln!(
            t,
            "(search: `bmn search` with the {best} kernel on the same deals, dealing included)"
        )?;
        output::print(&t)?;
    }
    if !disagree.is_empty() {
        bail!(
            "kernels disagree with the reference engine: {}",
            disagree.join(", ")
        );
    }
    Ok(())
}

/// The CPU's model name (Linux), for the record.
fn cpu_name() -> String {
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
