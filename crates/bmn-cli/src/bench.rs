//! `bmn bench`: the reference engine and every kernel on the same deals; results must agree.

use std::fmt::Write as _;

use anyhow::{Result, bail};
use bmn_core::Deck;
use bmn_kernel::{DEFAULT_MAX_TRICKS, Kernel};
use bmn_search::DealSource;
use bmn_search::bench::{Timing, deal_all, time_kernel, time_reference};
use serde::Serialize;

use crate::cli::BenchArgs;
use crate::input::{self, BadInput};
use crate::output;

#[derive(Serialize)]
struct BenchJson {
    games: usize,
    threads: usize,
    seed: u64,
    cpu: String,
    reference_games_per_second: f64,
    fast_games_per_second: f64,
    best_kernel: &'static str,
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
    let source = DealSource::new(Deck::STANDARD, false)?;
    let deals = deal_all(&source, args.seed, args.games);
    let reference = time_reference(&source, &deals, threads);
    let kernels: Vec<Timing> = Kernel::all_available()
        .into_iter()
        .map(|k| time_kernel(&source, &deals, threads, k, DEFAULT_MAX_TRICKS))
        .collect();
    let best = Kernel::best_available().name();
    let rows: Vec<KernelJson> = std::iter::once(&reference)
        .chain(&kernels)
        .map(|t| KernelJson {
            kernel: t.engine,
            games_per_second: t.games_per_second(),
            games_per_second_per_thread: t.games_per_second() / threads as f64,
            seconds: t.wall.as_secs_f64(),
            ratio_to_reference: t.games_per_second() / reference.games_per_second(),
            agrees_with_reference: t.outcomes == reference.outcomes,
        })
        .collect();
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
            threads,
            seed: args.seed,
            cpu: cpu_name(),
            reference_games_per_second: reference.games_per_second(),
            fast_games_per_second: fast,
            best_kernel: best,
            kernels: rows,
        })?;
    } else {
        let mut t = String::new();
        writeln!(
            t,
            "{} random standard deals, {} thread(s), seed {}, {}",
            args.games,
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
