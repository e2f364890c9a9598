//! `bmn search`: random deals on the fast kernels (the reference engine for other tables), with a
//! progress bar and Ctrl-C that reports.

use std::fmt::Write as _;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use anyhow::Result;
use bmn_search::{HISTOGRAM_BIN, SearchConfig, Summary, search};
use serde::Serialize;

use crate::cli::SearchArgs;
use crate::input;
use crate::output::{self, CycleClassJson, CyclingDealJson, FoundJson};
use crate::progress;

/// Set by Ctrl-C: the search stops at the next unit boundary and reports what it found.
static STOP: AtomicBool = AtomicBool::new(false);

/// `bmn search --json` (the keys named in the issue are a contract; others are extras).
#[derive(Serialize)]
struct SearchJson {
    games: u64,
    seed: u64,
    deck: String,
    balanced: bool,
    players: usize,
    penalties: String,
    on_empty: String,
    /// The kernel's name, or `reference` where no kernel plays the table.
    kernel: &'static str,
    threads: usize,
    elapsed_seconds: f64,
    games_per_second: f64,
    interrupted: bool,
    mean_cards: f64,
    mean_tricks: f64,
    /// Finished games won by each player, player 1 first.
    wins: Vec<u64>,
    histogram: HistogramJson,
    longest: Vec<FoundJson>,
    cycling_games: u64,
    /// Games the reference engine gave up on after --give-up tricks without an end or a repeat.
    unresolved_games: u64,
    cycles: Vec<CyclingDealJson>,
    /// Every distinct cycle reached (players renamed or not), with how many deals reach it.
    distinct_cycles: Vec<CycleClassJson>,
}

#[derive(Serialize)]
struct HistogramJson {
    bin_width: u64,
    counts: Vec<u64>,
}

pub fn run(args: &SearchArgs) -> Result<()> {
    let source = input::source(&args.table, args.balanced)?;
    let rules = input::rules(&args.rules)?;
    let time_limit = args.time.as_deref().map(input::duration).transpose()?;
    let games = match (args.games, time_limit) {
        (Some(0), _) => {
            return Err(input::BadInput("bad --games: must be at least 1".into()).into());
        }
        (Some(n), _) => Some(n),
        (None, Some(_)) => None,
        (None, None) => Some(1_000_000),
    };
    let threads = input::threads(args.threads)?;
    let config = SearchConfig {
        seed: args.seed,
        source: source.clone(),
        top: args.top,
        engine: input::engine(
            args.engine.kernel.as_deref(),
            rules,
            source.players(),
            source.len(),
            args.engine.give_up,
        )?,
        max_tricks: args.engine.max_tricks.max(1),
    };
    // A second Ctrl-C while the handler is installed does nothing more; the run ends at the
    // next unit (milliseconds) anyway.
    let _ = ctrlc::set_handler(|| STOP.store(true, Ordering::Relaxed));

    let bar = progress::bar(games, "games");
    let started = Instant::now();
    let summary = search(&config, games, threads, &STOP, |s| {
        bar.set_position(s.games);
        if let Some(best) = s.longest.first() {
            bar.set_message(format!("best {} cards", best.cards));
        }
        time_limit.is_none_or(|limit| started.elapsed() < limit)
    });
    bar.finish_and_clear();
    let elapsed = started.elapsed().as_secs_f64();
    let interrupted = STOP.load(Ordering::Relaxed) && time_limit.is_none();
    report(
        args,
        &config,
        &rules,
        threads,
        &summary,
        elapsed,
        interrupted,
    )
}

fn report(
    args: &SearchArgs,
    config: &SearchConfig,
    rules: &bmn_core::Rules,
    threads: usize,
    s: &Summary,
    elapsed: f64,
    interrupted: bool,
) -> Result<()> {
    let rate = s.games as f64 / elapsed.max(1e-9);
    if args.json {
        return output::print_json(&SearchJson {
            games: s.games,
            seed: config.seed,
            deck: config.source.deck().to_string(),
            balanced: config.source.balanced(),
            players: config.source.players(),
            penalties: rules.penalties.to_string(),
            on_empty: rules.on_empty.to_string(),
            kernel: config.engine.name(),
            threads,
            elapsed_seconds: elapsed,
            games_per_second: rate,
            interrupted,
            mean_cards: s.mean_cards(),
            mean_tricks: s.mean_tricks(),
            wins: (1..=config.source.players())
                .map(|p| s.wins_of(p))
                .collect(),
            histogram: HistogramJson {
                bin_width: HISTOGRAM_BIN,
                counts: s.histogram.clone(),
            },
            longest: s.longest.iter().map(|f| FoundJson::new(f, 1)).collect(),
            cycling_games: s.cycling,
            unresolved_games: s.unresolved,
            cycles: s
                .cycles
                .iter()
                .map(|c| CyclingDealJson::new(c, 1))
                .collect(),
            distinct_cycles: CycleClassJson::list(s),
        });
    }
    let mut t = String::new();
    if interrupted {
        writeln!(
            t,
            "interrupted: reporting the {} games of the units that finished",
            s.games
        )?;
    }
    let balanced = if config.source.balanced() {
        ", balanced"
    } else {
        ""
    };
    writeln!(
        t,
        "games:   {} ({}, {} players{balanced}, seed {}, {} thread(s), {} engine)",
        s.games,
        config.source.deck(),
        config.source.players(),
        config.seed,
        threads,
        config.engine.name()
    )?;
    writeln!(t, "speed:   {:.3} M games/s ({elapsed:.2} s)", rate / 1e6)?;
    writeln!(
        t,
        "mean:    {:.2} cards, {:.2} tricks per finished game",
        s.mean_cards(),
        s.mean_tricks()
    )?;
    let fin = s.finished().max(1) as f64;
    let shares: Vec<String> = (1..=config.source.players())
        .map(|p| format!("player {p} {:.4}", s.wins_of(p) as f64 / fin))
        .collect();
    writeln!(t, "wins:    {}", shares.join(", "))?;
    writeln!(
        t,
        "cycles:  {} game(s) never end, {} distinct cycle(s)",
        s.cycling,
        s.classes.len()
    )?;
    if let Some((index, deal)) = &s.first_unresolved {
        writeln!(
            t,
            "unresolved: {} game(s) neither ended nor repeated within {} tricks (first: #{index} {deal})",
            s.unresolved, args.engine.give_up
        )?;
    }
    for c in s.cycles.iter().take(10) {
        writeln!(
            t,
            "  {} preperiod {} tricks, period {} tricks ({} cards), cycle {}",
            c.deal, c.preperiod.tricks, c.period.tricks, c.period.cards, c.cycle_id
        )?;
    }
    if !s.longest.is_empty() {
        writeln!(t, "longest:")?;
    }
    for (i, f) in s.longest.iter().enumerate() {
        writeln!(
            t,
            "  {:>2}. {} cards, {} tricks, player {} wins: {}",
            i + 1,
            f.cards,
            f.tricks,
            f.winner,
            f.deal
        )?;
    }
    Ok(output::print(&t)?)
}
