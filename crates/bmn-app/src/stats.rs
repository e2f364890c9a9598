//! `stats`: the length distribution, its exponential tail and the wins by seat over many
//! random deals of any table, with a log-scale plot of uniform against balanced deals.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use bmn_core::Rules;
use bmn_job::Job;
use bmn_search::stats::{quantile, wilson};
use bmn_search::{DealSource, SearchConfig, Stats, TailFit, stream};
use serde::Serialize;

use crate::error::{Error, Result};
use crate::flags::PlotArg;
use crate::input::{self, TableInput};
use crate::seeded::Run;
use crate::stream::{StreamPlan, StreamRequest};

/// Games played when not told.
pub const DEFAULT_STATS_GAMES: u64 = 1_000_000;

/// What to measure: `bmn stats`'s parameters (every front end reads this declaration).
#[derive(clap::Args, Clone, Debug, Default)]
#[command(mut_arg("plot", |a| a.help(STATS_PLOT)))]
pub struct StatsRequest {
    #[command(flatten)]
    pub stream: StreamRequest,
    #[command(flatten)]
    pub plot: PlotArg,
}

const STATS_PLOT: &str = "Draw the length distribution on a log scale, uniform against balanced \
    deals, into FILE (.svg or .png)";

/// The percentiles reported, in percent.
const PERCENTILES: [f64; 9] = [1.0, 5.0, 10.0, 25.0, 50.0, 75.0, 90.0, 95.0, 99.0];

/// The statistics of a run, with how it was made: what `stats --json` prints, its keys a
/// contract that scripts depend on, and what the text is written from.
#[derive(Serialize, Clone, Debug)]
pub struct StatsReport {
    pub games: u64,
    pub finished: u64,
    #[serde(flatten)]
    pub run: Run,
    /// The stream of deals the seed names (`--stream`).
    pub stream: u8,
    pub players: usize,
    pub deck: String,
    /// Every player was dealt the same number of each kind (`--balanced`).
    pub balanced_by_kind: bool,
    pub penalties: String,
    pub on_empty: String,
    /// The kernel's name, or `reference`.
    pub engine: String,
    pub elapsed_seconds: f64,
    pub games_per_second: f64,
    pub interrupted: bool,
    pub mean_cards: f64,
    pub median_cards: Option<u64>,
    pub mean_tricks: f64,
    pub median_tricks: Option<u64>,
    pub cards: Lengths,
    pub tricks: Lengths,
    /// The exponential tail of the tricks distribution; null with too few games.
    pub tail: Option<TailFit>,
    /// Share of the finished games won by each seat, player 1 first.
    pub win_share_by_seat: Vec<f64>,
    /// 95% Wilson intervals of those shares.
    pub win_share_ci95: Vec<[f64; 2]>,
    pub wins_by_seat: Vec<u64>,
    pub cycling_games: u64,
    /// Share of all games that never end.
    pub never_end_share: f64,
    pub distinct_cycle_count: usize,
    /// Games the reference engine gave up on after --give-up tricks without an end or a repeat.
    pub unresolved_games: u64,
    /// The figure written with --plot, and the other kind of deal played for it.
    pub plot: Option<String>,
    pub compared: Option<Compared>,
    /// Cards in the deck.
    #[serde(skip)]
    pub deck_cards: usize,
    #[serde(skip)]
    pub rules: Rules,
    #[serde(skip)]
    pub give_up: u64,
}

/// One length (cards or tricks): summary figures and the exact distribution.
#[derive(Serialize, Clone, Debug)]
pub struct Lengths {
    pub mean: f64,
    pub median: Option<u64>,
    pub max: Option<u64>,
    /// `"p1"`, `"p5"`, ... `"p99"`: the least length with at least that share of games at or
    /// below it.
    pub percentiles: BTreeMap<String, u64>,
    /// `histogram[n]` finished games of length exactly n.
    pub histogram: Vec<u64>,
}

/// The other kind of deal (balanced if the run was uniform, or the reverse), played for the
/// plot with the same seed and count.
#[derive(Serialize, Clone, Debug)]
pub struct Compared {
    pub balanced_by_kind: bool,
    pub games: u64,
    pub mean_cards: f64,
    pub mean_tricks: f64,
    pub tail: Option<TailFit>,
}

/// A `stats` run, validated: what [`run`] plays; `TryFrom` fills in every default and reads the
/// machine (cores, CPU).
#[derive(Clone, Debug)]
pub struct StatsPlan {
    /// The seed's deals, how many or for how long, on which engine.
    pub stream: StreamPlan,
    /// The plot's file, and the other kind of deal it compares with (none where the deck
    /// cannot be shared out equally).
    pub plot: Option<(PathBuf, Option<DealSource>)>,
}

impl TryFrom<&StatsRequest> for StatsPlan {
    type Error = Error;

    fn try_from(req: &StatsRequest) -> Result<Self> {
        let stream = StreamPlan::new(&req.stream, DEFAULT_STATS_GAMES)?;
        let table = &req.stream.table;
        let plot = match &req.plot.plot {
            Some(path) => {
                input::plot_path(path)?;
                let other = TableInput {
                    balanced: !table.balanced,
                    ..table.clone()
                };
                Some((path.clone(), other.source().ok()))
            }
            None => None,
        };
        Ok(StatsPlan { stream, plot })
    }
}

/// Plays the request's deals (see [`run`]).
pub fn stats(req: &StatsRequest, job: &mut Job) -> Result<StatsReport> {
    run(&StatsPlan::try_from(req)?, job)
}

/// Plays the plan's deals (and, for a plot, as many of the other kind); the job's stop keeps
/// the units done.
pub fn run(plan: &StatsPlan, job: &mut Job) -> Result<StatsReport> {
    let stream = &plan.stream;
    if let Some(note) = &stream.engine.note {
        job.note(note);
    }
    let (source, rules, games, threads) = (
        stream.source.clone(),
        stream.rules,
        stream.games,
        stream.run.threads,
    );
    let engine = stream.engine.engine;
    let config = |source: DealSource| stream.config(source, 0);
    let started = Instant::now();
    let stats = play_stats(
        &config(source.clone()),
        games,
        stream.time,
        threads,
        job,
        "games",
    );
    let elapsed = started.elapsed().as_secs_f64();
    let interrupted = job.interrupted();

    // The plot compares uniform with balanced deals (Casella et al. 2024, Figure 1): play the
    // other kind too, if the deck can be shared out equally.
    let mut compared = None;
    if let Some((path, other)) = &plan.plot {
        let other_stats = match other.clone() {
            Some(other) if !interrupted => Some(play_stats(
                &config(other),
                Some(stats.games),
                None,
                threads,
                job,
                "games (other kind, for the plot)",
            )),
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
            label: label(source.balanced()).into(),
            counts: stats.tricks.clone(),
        }];
        if let Some(o) = &other_stats {
            series.push(bmn_plot::Histogram {
                label: label(!source.balanced()).into(),
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
        compared = other_stats.map(|o| Compared {
            balanced_by_kind: !source.balanced(),
            games: o.games,
            mean_cards: o.mean_cards(),
            mean_tricks: o.mean_tricks(),
            tail: o.tail_fit(),
        });
    }
    let seats = seats(&stats, source.players());
    Ok(StatsReport {
        games: stats.games,
        finished: stats.finished(),
        run: stream.run,
        stream: source.stream().number(),
        players: source.players(),
        deck: source.deck().to_string(),
        balanced_by_kind: source.balanced(),
        penalties: rules.penalties.to_string(),
        on_empty: rules.on_empty.to_string(),
        engine: engine.name(),
        elapsed_seconds: elapsed,
        games_per_second: stats.games as f64 / elapsed.max(1e-9),
        interrupted,
        mean_cards: stats.mean_cards(),
        median_cards: quantile(&stats.cards, 0.5),
        mean_tricks: stats.mean_tricks(),
        median_tricks: quantile(&stats.tricks, 0.5),
        cards: Lengths::new(&stats.cards),
        tricks: Lengths::new(&stats.tricks),
        tail: stats.tail_fit(),
        win_share_by_seat: seats.iter().map(|x| x.1).collect(),
        win_share_ci95: seats.iter().map(|x| x.2).collect(),
        wins_by_seat: seats.iter().map(|x| x.0).collect(),
        cycling_games: stats.cycling,
        never_end_share: stats.cycling_share(),
        distinct_cycle_count: stats.cycles.len(),
        unresolved_games: stats.unresolved,
        plot: plan
            .plot
            .as_ref()
            .map(|(path, _)| path.display().to_string()),
        compared,
        deck_cards: source.len(),
        rules,
        give_up: stream.engine.give_up,
    })
}

/// Each seat's wins, share of the finished games and 95% Wilson interval.
fn seats(stats: &Stats, players: usize) -> Vec<(u64, f64, [f64; 2])> {
    (0..players)
        .map(|seat| {
            let wins = stats.wins.get(seat).copied().unwrap_or(0);
            let (share, ci) = wilson(wins, stats.finished());
            (wins, share, ci)
        })
        .collect()
}

/// `games` deals of `config`'s stream into `Stats` (`None`: until `time` is up), the job
/// counting `what`; its stop, or the time, keeps the units done. Shared by `stats` and
/// `odds`'s fit run.
pub fn play_stats(
    config: &SearchConfig,
    games: Option<u64>,
    time: Option<Duration>,
    threads: usize,
    job: &mut Job,
    what: &str,
) -> Stats {
    let started = Instant::now();
    job.start(games, 0, what);
    let stats = stream(config, games, threads, job, &Stats::default(), |job, s| {
        job.progress(s.games, None) && time.is_none_or(|t| started.elapsed() < t)
    });
    job.finish();
    stats
}

impl crate::Report for StatsReport {
    fn text(&self) -> String {
        let mut t = String::new();
        if self.interrupted {
            let _ = writeln!(
                t,
                "interrupted: the {} games of the units that finished",
                self.games
            );
        }
        let _ = writeln!(
            t,
            "table:     {} ({} cards), {} players, {} deals, {}",
            self.deck,
            self.deck_cards,
            self.players,
            if self.balanced_by_kind {
                "balanced"
            } else {
                "uniform"
            },
            rules_text(&self.rules, self.players),
        );
        let _ = writeln!(
            t,
            "games:     {}, seed {}; {} engine, {} thread(s): {:.3} M games/s ({:.2} s)",
            self.games,
            self.run.seed,
            self.engine,
            self.run.threads,
            self.games_per_second / 1e6,
            self.elapsed_seconds
        );
        for (name, h) in [("cards", &self.cards), ("tricks", &self.tricks)] {
            let _ = writeln!(
                t,
                "{:<10} {}",
                format!("{name}:"),
                length_line(&h.histogram)
            );
        }
        let _ = match &self.tail {
            Some(f) => writeln!(
                t,
                "tail:      exponential past {} tricks ({} games): half-life {:.1} tricks",
                f.from_tricks, f.games, f.half_life
            ),
            None => writeln!(t, "tail:      too few long games to fit"),
        };
        let wins: Vec<String> = self
            .win_share_by_seat
            .iter()
            .zip(&self.win_share_ci95)
            .enumerate()
            .map(|(i, (share, [lo, hi]))| format!("{} {:.4} [{:.4}, {:.4}]", i + 1, share, lo, hi))
            .collect();
        let _ = writeln!(t, "wins:      by seat, share [95% interval]");
        for chunk in wins.chunks(3) {
            let _ = writeln!(t, "           {}", chunk.join("   "));
        }
        let _ = match self.cycling_games {
            0 => writeln!(t, "never end: none"),
            n => writeln!(
                t,
                "never end: {n} games ({:.2e} of all), {} distinct cycle(s)",
                self.never_end_share, self.distinct_cycle_count
            ),
        };
        if self.unresolved_games > 0 {
            let _ = writeln!(
                t,
                "unresolved: {} games neither ended nor repeated within {} tricks (--give-up)",
                self.unresolved_games, self.give_up
            );
        }
        let _ = histogram_text(&mut t, &self.cards.histogram);
        if let Some(path) = &self.plot {
            let what = match &self.compared {
                Some(c) => format!(
                    "with {} {} deals (mean {:.2} cards{})",
                    c.games,
                    if c.balanced_by_kind {
                        "balanced"
                    } else {
                        "uniform"
                    },
                    c.mean_cards,
                    c.tail
                        .as_ref()
                        .map(|f| format!(", half-life {:.1} tricks", f.half_life))
                        .unwrap_or_default()
                ),
                None => "this run only: the deck cannot be dealt the other way".into(),
            };
            let _ = writeln!(t, "plot:      {path} ({what})");
        }
        t
    }
}

impl Lengths {
    pub fn new(histogram: &[u64]) -> Lengths {
        Lengths {
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
