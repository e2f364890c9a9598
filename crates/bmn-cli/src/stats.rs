//! `bmn stats`: the length distribution, its exponential tail and the wins by seat over many
//! random deals of any table, with a log-scale plot of uniform against balanced deals.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use anyhow::Result;
use bmn_core::Rules;
use bmn_search::stats::{quantile, wilson};
use bmn_search::{DealSource, Engine, SearchConfig, Stats, TailFit, stream};
use serde::Serialize;

use crate::cli::StatsArgs;
use crate::input::{self, BadInput};
use crate::output;
use crate::progress;

/// Set by Ctrl-C: the run stops at the next unit and reports the games of the units finished.
static STOP: AtomicBool = AtomicBool::new(false);

/// The percentiles reported, in percent.
const PERCENTILES: [f64; 9] = [1.0, 5.0, 10.0, 25.0, 50.0, 75.0, 90.0, 95.0, 99.0];

/// `bmn stats --json` (the keys named in the issue are a contract; others are extras).
#[derive(Serialize)]
struct StatsJson {
    games: u64,
    finished: u64,
    seed: u64,
    players: usize,
    deck: String,
    balanced: bool,
    penalties: String,
    on_empty: String,
    /// The kernel's name, or `reference`.
    engine: &'static str,
    threads: usize,
    elapsed_seconds: f64,
    games_per_second: f64,
    interrupted: bool,
    mean_cards: f64,
    median_cards: Option<u64>,
    mean_tricks: f64,
    median_tricks: Option<u64>,
    cards: LengthJson,
    tricks: LengthJson,
    /// The exponential tail of the tricks distribution; null with too few games.
    tail: Option<TailJson>,
    /// Share of the finished games won by each seat, player 1 first.
    win_share_by_seat: Vec<f64>,
    /// 95% Wilson intervals of those shares.
    win_share_ci95: Vec<[f64; 2]>,
    wins_by_seat: Vec<u64>,
    cycling_games: u64,
    /// Share of all games that never end.
    never_end_share: f64,
    distinct_cycles: usize,
    /// Games the reference engine gave up on after --give-up tricks without an end or a repeat.
    unresolved_games: u64,
    /// The figure written with --plot, and the other kind of deal played for it.
    plot: Option<String>,
    compared: Option<ComparedJson>,
}

/// One length (cards or tricks): summary figures and the exact distribution.
#[derive(Serialize)]
struct LengthJson {
    mean: f64,
    median: Option<u64>,
    max: Option<u64>,
    /// `"p1"`, `"p5"`, ... `"p99"`: the least length with at least that share of games at or
    /// below it.
    percentiles: BTreeMap<String, u64>,
    /// `histogram[n]` finished games of length exactly n.
    histogram: Vec<u64>,
}

#[derive(Serialize)]
struct TailJson {
    from_tricks: u64,
    games: u64,
    rate_per_trick: f64,
    half_life_tricks: f64,
}

/// The other kind of deal (balanced if the run was uniform, or the reverse), played for the
/// plot with the same seed and count.
#[derive(Serialize)]
struct ComparedJson {
    balanced: bool,
    games: u64,
    mean_cards: f64,
    mean_tricks: f64,
    tail: Option<TailJson>,
}

pub fn run(args: &StatsArgs) -> Result<()> {
    if args.games == 0 {
        return Err(BadInput("bad --games: must be at least 1".into()).into());
    }
    let source = input::source(&args.table, args.balanced)?;
    let rules = input::rules(&args.rules)?;
    let threads = input::threads(args.threads)?;
    let engine = input::engine(
        args.engine.kernel.as_deref(),
        rules,
        source.players(),
        source.len(),
        args.engine.give_up,
    )?;
    if let Some(path) = &args.plot {
        input::plot_path(path)?;
    }
    let _ = ctrlc::set_handler(|| STOP.store(true, Ordering::Relaxed));

    let started = Instant::now();
    let stats = play(args, source.clone(), engine, threads, "games")?;
    let elapsed = started.elapsed().as_secs_f64();
    let interrupted = STOP.load(Ordering::Relaxed);

    // The plot compares uniform with balanced deals (Casella et al. 2024, Figure 1): play the
    // other kind too, if the deck can be shared out equally.
    let mut compared = None;
    if let Some(path) = &args.plot {
        let other = input::source(&args.table, !args.balanced).ok();
        let other_stats = match other {
            Some(other) if !interrupted => Some(play(
                args,
                other,
                engine,
                threads,
                "games (other kind, for the plot)",
            )?),
            _ => None,
        };
        let label = |balanced: bool| {
            if balanced {
                "balanced deals"
            } else {
                "uniform deals"
            }
        };
        let mut series = vec![bmn_plot::Histogram {
            label: label(args.balanced).into(),
            counts: stats.tricks.clone(),
        }];
        if let Some(o) = &other_stats {
            series.push(bmn_plot::Histogram {
                label: label(!args.balanced).into(),
                counts: o.tricks.clone(),
            });
        }
        let title = format!(
            "Game length, {} players, {} ({} games each)",
            source.players(),
            source.deck(),
            stats.games
        );
        bmn_plot::length_histogram(path, &title, "tricks", &series)?;
        compared = other_stats.map(|o| ComparedJson {
            balanced: !args.balanced,
            games: o.games,
            mean_cards: o.mean_cards(),
            mean_tricks: o.mean_tricks(),
            tail: o.tail_fit().map(TailJson::from),
        });
    }
    let run = Run {
        args,
        source: &source,
        rules,
        engine,
        threads,
        elapsed,
        interrupted,
    };
    run.report(&stats, compared)
}

/// Plays `args.games` deals of `source` with a progress bar; Ctrl-C keeps the units done.
fn play(
    args: &StatsArgs,
    source: DealSource,
    engine: Engine,
    threads: usize,
    what: &str,
) -> Result<Stats> {
    let config = SearchConfig {
        seed: args.seed,
        source,
        top: 0,
        engine,
        max_tricks: args.engine.max_tricks.max(1),
    };
    Ok(play_stats(&config, args.games, threads, &STOP, what))
}

/// `games` deals of `config`'s stream into `Stats`, with a progress bar counting `what`;
/// setting `stop` keeps the units done. Shared by `bmn stats` and `bmn odds`'s fit run.
pub fn play_stats(
    config: &SearchConfig,
    games: u64,
    threads: usize,
    stop: &AtomicBool,
    what: &str,
) -> Stats {
    let bar = progress::bar(Some(games), what);
    let stats = stream(config, Some(games), threads, stop, &Stats::default(), |s| {
        bar.set_position(s.games);
        true
    });
    bar.finish_and_clear();
    stats
}

impl From<TailFit> for TailJson {
    fn from(t: TailFit) -> Self {
        TailJson {
            from_tricks: t.from_tricks,
            games: t.games,
            rate_per_trick: t.rate,
            half_life_tricks: t.half_life,
        }
    }
}

impl LengthJson {
    fn new(histogram: &[u64]) -> LengthJson {
        LengthJson {
            mean: bmn_search::stats::mean(histogram),
            median: quantile(histogram, 0.5),
            max: histogram.iter().rposition(|&c| c > 0).map(|m| m as u64),
            percentiles: PERCENTILES
                .iter()
                .filter_map(|&p| Some((format!("p{p}"), quantile(histogram, p / 100.0)?)))
                .collect(),
            histogram: histogram.to_vec(),
        }
    }
}

/// How a run was made, for its report.
struct Run<'a> {
    args: &'a StatsArgs,
    source: &'a DealSource,
    rules: Rules,
    engine: Engine,
    threads: usize,
    elapsed: f64,
    interrupted: bool,
}

impl Run<'_> {
    fn report(&self, s: &Stats, compared: Option<ComparedJson>) -> Result<()> {
        let players = self.source.players();
        let rate = s.games as f64 / self.elapsed.max(1e-9);
        let seats: Vec<(u64, f64, [f64; 2])> = (0..players)
            .map(|seat| {
                let wins = s.wins.get(seat).copied().unwrap_or(0);
                let (share, ci) = wilson(wins, s.finished());
                (wins, share, ci)
            })
            .collect();
        if self.args.json {
            return output::print_json(&StatsJson {
                games: s.games,
                finished: s.finished(),
                seed: self.args.seed,
                players,
                deck: self.source.deck().to_string(),
                balanced: self.source.balanced(),
                penalties: self.rules.penalties.to_string(),
                on_empty: self.rules.on_empty.to_string(),
                engine: self.engine.name(),
                threads: self.threads,
                elapsed_seconds: self.elapsed,
                games_per_second: rate,
                interrupted: self.interrupted,
                mean_cards: s.mean_cards(),
                median_cards: quantile(&s.cards, 0.5),
                mean_tricks: s.mean_tricks(),
                median_tricks: quantile(&s.tricks, 0.5),
                cards: LengthJson::new(&s.cards),
                tricks: LengthJson::new(&s.tricks),
                tail: s.tail_fit().map(TailJson::from),
                win_share_by_seat: seats.iter().map(|x| x.1).collect(),
                win_share_ci95: seats.iter().map(|x| x.2).collect(),
                wins_by_seat: seats.iter().map(|x| x.0).collect(),
                cycling_games: s.cycling,
                never_end_share: s.cycling_share(),
                distinct_cycles: s.cycles.len(),
                unresolved_games: s.unresolved,
                plot: self.args.plot.as_ref().map(|p| p.display().to_string()),
                compared,
            });
        }
        let mut t = String::new();
        if self.interrupted {
            writeln!(
                t,
                "interrupted: the {} games of the units that finished",
                s.games
            )?;
        }
        writeln!(
            t,
            "table:     {} ({} cards), {} players, {} deals, {}",
            self.source.deck(),
            self.source.len(),
            players,
            if self.source.balanced() {
                "balanced"
            } else {
                "uniform"
            },
            rules_text(&self.rules, players),
        )?;
        writeln!(
            t,
            "games:     {}, seed {}; {} engine, {} thread(s): {:.3} M games/s ({:.2} s)",
            s.games,
            self.args.seed,
            self.engine.name(),
            self.threads,
            rate / 1e6,
            self.elapsed
        )?;
        for (name, h) in [("cards", &s.cards), ("tricks", &s.tricks)] {
            writeln!(t, "{:<10} {}", format!("{name}:"), length_line(h))?;
        }
        match s.tail_fit() {
            Some(f) => writeln!(
                t,
                "tail:      exponential past {} tricks ({} games): half-life {:.1} tricks",
                f.from_tricks, f.games, f.half_life
            )?,
            None => writeln!(t, "tail:      too few long games to fit")?,
        }
        let wins: Vec<String> = seats
            .iter()
            .enumerate()
            .map(|(i, (_, share, [lo, hi]))| {
                format!("{} {:.4} [{:.4}, {:.4}]", i + 1, share, lo, hi)
            })
            .collect();
        writeln!(t, "wins:      by seat, share [95% interval]")?;
        for chunk in wins.chunks(3) {
            writeln!(t, "           {}", chunk.join("   "))?;
        }
        match s.cycling {
            0 => writeln!(t, "never end: none")?,
            n => writeln!(
                t,
                "never end: {n} games ({:.2e} of all), {} distinct cycle(s)",
                s.cycling_share(),
                s.cycles.len()
            )?,
        }
        if s.unresolved > 0 {
            writeln!(
                t,
                "unresolved: {} games neither ended nor repeated within {} tricks (--give-up)",
                s.unresolved, self.args.engine.give_up
            )?;
        }
        histogram_text(&mut t, &s.cards)?;
        if let Some(path) = &self.args.plot {
            let what = match &compared {
                Some(c) => format!(
                    "with {} {} deals (mean {:.2} cards{})",
                    c.games,
                    if c.balanced { "balanced" } else { "uniform" },
                    c.mean_cards,
                    c.tail
                        .as_ref()
                        .map(|f| format!(", half-life {:.1} tricks", f.half_life_tricks))
                        .unwrap_or_default()
                ),
                None => "this run only: the deck cannot be dealt the other way".into(),
            };
            writeln!(t, "plot:      {} ({what})", path.display())?;
        }
        Ok(output::print(&t)?)
    }
}

/// `standard penalties` or the table, and the running-out rule where it matters.
fn rules_text(rules: &Rules, players: usize) -> String {
    let table = if rules.penalties.is_standard() {
        "standard penalties".to_string()
    } else {
        format!("penalties {}", rules.penalties)
    };
    if players > 2 {
        format!("{table}, on-empty {}", rules.on_empty)
    } else {
        table
    }
}

/// `mean 254.55, median 224; 10% 108, ... max 3024`.
fn length_line(h: &[u64]) -> String {
    let q = |p: f64| quantile(h, p).map_or("-".into(), |v| v.to_string());
    format!(
        "mean {:.2}, median {}; 10% {}, 25% {}, 75% {}, 90% {}, 99% {}, max {}",
        bmn_search::stats::mean(h),
        q(0.5),
        q(0.1),
        q(0.25),
        q(0.75),
        q(0.9),
        q(0.99),
        h.iter().rposition(|&c| c > 0).unwrap_or(0)
    )
}

/// A terminal histogram of lengths in cards: about a dozen bins up to the 99th percentile,
/// the rest in one last bin.
fn histogram_text(t: &mut String, cards: &[u64]) -> std::fmt::Result {
    let total: u64 = cards.iter().sum();
    let Some(p99) = quantile(cards, 0.99) else {
        return Ok(());
    };
    let width = [
        1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000, 2000, 5000,
    ]
    .into_iter()
    .find(|&w| p99 / w <= 12)
    .unwrap_or(10_000) as usize;
    let bins = p99 as usize / width + 1;
    let mut counts = vec![0u64; bins + 1];
    for (len, &c) in cards.iter().enumerate() {
        counts[(len / width).min(bins)] += c;
    }
    let top = counts.iter().copied().max().unwrap_or(1).max(1);
    writeln!(t, "histogram: cards, share of finished games")?;
    for (i, &c) in counts.iter().enumerate() {
        if i == bins && c == 0 {
            break;
        }
        let range = if i == bins {
            format!("{:>5}+     ", i * width)
        } else {
            format!("{:>5}-{:<5}", i * width, (i + 1) * width - 1)
        };
        let bar = "#".repeat((c * 40).div_ceil(top) as usize);
        writeln!(
            t,
            "  {range} {bar:<40} {:>6.2}%",
            100.0 * c as f64 / total.max(1) as f64
        )?;
    }
    Ok(())
}
