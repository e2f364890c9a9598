//! `bmn odds`: how long until someone finds a longer standard game, by the order-statistics
//! model of Casella et al. (2024, arXiv:2403.13855) fitted to a `bmn stats`-style run.
//!
//! The model (bmn-search's `odds.rs`) has three numbers: the tail's mean `mu`, where it starts
//! `x0` and the share `p0` of games that get there. They are fitted to the lengths in cards
//! of `--fit-games` seeded random deals, whose run also times this machine; the report puts
//! the model's expected records beside the published history of record searches.

use std::fmt::Write as _;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use anyhow::Result;
use bmn_core::{Deck, Rules};
use bmn_search::stats::{TAIL_FROM_QUANTILE, quantile};
use bmn_search::{DealSource, SearchConfig, Stats, TailModel};
use clap::Args;
use serde::Serialize;

use crate::input::{self, BadInput};
use crate::output;

/// Never set: the fit run is short, and an interrupted fit would be a worse fit.
static STOP: AtomicBool = AtomicBool::new(false);

/// The published history of random searches: games played and the longest game found.
/// The game counts are the searchers' own estimates, so only their order of magnitude counts.
const HISTORY: [(f64, u64, &str); 3] = [
    (3.2e9, 4791, "Paulhus 1999"),
    (1e13, 7157, "Mann & Wu 2007"),
    (3.3e15, 7959, "Rucklidge 2014"),
];

/// Round numbers of games at which the chance of a new record is always reported.
const ROUND_GAMES: [f64; 2] = [1e12, 1e15];

/// The longest standard game known (Nessler 2022, data/records.json), which `--target-cards`
/// beats by one card by default.
const RECORD_CARDS: u64 = 8344;

#[derive(Args, Debug)]
pub struct OddsArgs {
    /// Also report the expected record after N games (e.g. 1e12), besides the published
    /// history (3.2e9, 1e13 and 3.3e15 games).
    #[arg(long, value_name = "N")]
    pub games: Option<f64>,
    /// The length in cards whose chance and expected time to report.
    #[arg(long, default_value_t = RECORD_CARDS + 1, value_name = "C")]
    pub target_cards: u64,
    /// Games per second for the times [default: this machine's, measured by the fit run].
    #[arg(long, value_name = "R")]
    pub rate: Option<f64>,
    /// Random standard two-player deals played to fit the model and time this machine.
    #[arg(long, default_value_t = 2_000_000, value_name = "N")]
    pub fit_games: u64,
    /// Seed of the fit run's deals.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Worker threads of the fit run (default: every core).
    #[arg(long, value_name = "T")]
    pub threads: Option<usize>,
    /// Use this tail mean (cards) instead of a fit; needs --x0 and --p0.
    #[arg(long, value_name = "M", requires_all = ["x0", "p0"])]
    pub mu: Option<f64>,
    /// Where the exponential tail starts (cards); with --mu and --p0.
    #[arg(long, value_name = "X", requires_all = ["mu", "p0"])]
    pub x0: Option<f64>,
    /// Share of all games at least --x0 cards long; with --mu and --x0.
    #[arg(long, value_name = "P", requires_all = ["mu", "x0"])]
    pub p0: Option<f64>,
    /// Print one JSON object instead of text.
    #[arg(long)]
    pub json: bool,
}

/// `bmn odds --json`.
#[derive(Serialize)]
struct OddsJson {
    mu: f64,
    x0: f64,
    p0: f64,
    /// Whether mu, x0 and p0 were fitted (else given).
    fitted: bool,
    /// The fit run; null when the model and the rate were both given.
    fit: Option<FitJson>,
    /// Games per second behind the times.
    rate: f64,
    /// Whether `rate` was measured by the fit run (else given).
    rate_measured: bool,
    /// Standard deviation of the record of many games (the Gumbel law's mu pi / sqrt 6).
    record_spread: f64,
    /// Expected record after each number of games, with the published record where there is one.
    records: Vec<RecordJson>,
    target_cards: u64,
    /// Chance that one of N games reaches target_cards.
    probabilities: Vec<ProbabilityJson>,
    games_for_even_chance: f64,
    seconds_for_even_chance: f64,
    games_for_expected_record: f64,
    seconds_for_expected_record: f64,
}

#[derive(Serialize)]
struct FitJson {
    games: u64,
    seed: u64,
    engine: &'static str,
    threads: usize,
    elapsed_seconds: f64,
    games_per_second: f64,
    mean_cards: f64,
    median_cards: Option<u64>,
    max_cards: Option<u64>,
    /// Games at least x0 cards long.
    tail_games: u64,
}

#[derive(Serialize)]
struct RecordJson {
    games: f64,
    expected_record: f64,
    published_record: Option<u64>,
    source: Option<&'static str>,
    /// The model's chance that the record of that many games is below the published one.
    model_probability_below: Option<f64>,
}

#[derive(Serialize)]
struct ProbabilityJson {
    games: f64,
    probability: f64,
}

/// The fit run: what was played and how fast.
struct Fit {
    stats: Stats,
    engine: &'static str,
    threads: usize,
    elapsed: f64,
}

pub fn run(args: &OddsArgs) -> Result<()> {
    let given = given_model(args)?;
    if let Some(games) = args.games {
        at_least_one(positive(games, "--games")?, "--games")?;
    }
    let rate = args.rate.map(|r| positive(r, "--rate")).transpose()?;
    if args.fit_games == 0 {
        return Err(BadInput("bad --fit-games: must be at least 1".into()).into());
    }
    let threads = input::threads(args.threads)?;

    // The fit run also times the machine, so it is skipped only when nothing needs it.
    let (model, rate, fit) = match (given, rate) {
        (Some(model), Some(rate)) => (model, rate, None),
        (given, rate) => {
            let fit = fit_run(args, threads)?;
            let model = match given {
                Some(model) => model,
                None => TailModel::fit(&fit.stats.cards, fit.stats.games, TAIL_FROM_QUANTILE)
                    .ok_or_else(|| {
                        BadInput(format!(
                            "bad --fit-games: {} games leave too few in the tail to fit; \
                             play more",
                            args.fit_games
                        ))
                    })?,
            };
            let measured = fit.stats.games as f64 / fit.elapsed.max(1e-9);
            (model, rate.unwrap_or(measured), Some(fit))
        }
    };
    report(args, &model, fit.as_ref(), rate)
}

/// `--mu`, `--x0`, `--p0` (clap makes them come together), checked.
fn given_model(args: &OddsArgs) -> Result<Option<TailModel>> {
    let (Some(mu), Some(x0), Some(p0)) = (args.mu, args.x0, args.p0) else {
        return Ok(None);
    };
    let mu = positive(mu, "--mu")?;
    if !(x0.is_finite() && x0 >= 0.0) {
        return Err(BadInput(format!("bad --x0 {x0}: must be a length in cards, >= 0")).into());
    }
    if !(p0 > 0.0 && p0 <= 1.0) {
        return Err(BadInput(format!("bad --p0 {p0}: must be a share in (0, 1]")).into());
    }
    Ok(Some(TailModel { mu, x0, p0 }))
}

fn positive(x: f64, flag: &str) -> Result<f64> {
    if x.is_finite() && x > 0.0 {
        Ok(x)
    } else {
        Err(BadInput(format!("bad {flag} {x}: must be a positive number")).into())
    }
}

fn at_least_one(x: f64, flag: &str) -> Result<f64> {
    if x >= 1.0 {
        Ok(x)
    } else {
        Err(BadInput(format!("bad {flag} {x}: must be at least 1 game")).into())
    }
}

/// `--fit-games` standard deals, played as `bmn stats` plays them (same seed, same games).
fn fit_run(args: &OddsArgs, threads: usize) -> Result<Fit> {
    let source = DealSource::new(Deck::STANDARD, false)?;
    let engine = input::engine(None, Rules::STANDARD, 2, 52, bmn_search::DEFAULT_GIVE_UP)?;
    let config = SearchConfig {
        seed: args.seed,
        source,
        top: 0,
        engine,
        max_tricks: bmn_kernel::DEFAULT_MAX_TRICKS,
    };
    let started = Instant::now();
    let stats = crate::stats::play_stats(&config, args.fit_games, threads, &STOP, "games (fit)");
    let elapsed = started.elapsed().as_secs_f64();
    Ok(Fit {
        stats,
        engine: engine.name(),
        threads,
        elapsed,
    })
}

fn report(args: &OddsArgs, m: &TailModel, fit: Option<&Fit>, rate: f64) -> Result<()> {
    let target = args.target_cards as f64;
    let mut games_list: Vec<f64> = HISTORY.iter().map(|h| h.0).collect();
    games_list.extend(args.games);
    let records: Vec<RecordJson> = games_list
        .iter()
        .map(|&games| {
            let published = HISTORY.iter().find(|h| h.0 == games);
            RecordJson {
                games,
                expected_record: m.expected_max(games),
                published_record: published.map(|h| h.1),
                source: published.map(|h| h.2),
                model_probability_below: published.map(|h| m.record_below(games, h.1 as f64)),
            }
        })
        .collect();
    let mut prob_games: Vec<f64> = games_list.iter().copied().chain(ROUND_GAMES).collect();
    prob_games.sort_by(f64::total_cmp);
    prob_games.dedup();
    let probabilities: Vec<ProbabilityJson> = prob_games
        .iter()
        .map(|&games| ProbabilityJson {
            games,
            probability: m.probability(games, target),
        })
        .collect();
    let even = m.games_for_probability(target, 0.5);
    let expected = m.games_for_expected_max(target);

    if args.json {
        return output::print_json(&OddsJson {
            mu: m.mu,
            x0: m.x0,
            p0: m.p0,
            fitted: args.mu.is_none(),
            fit: fit.map(|f| FitJson {
                games: f.stats.games,
                seed: args.seed,
                engine: f.engine,
                threads: f.threads,
                elapsed_seconds: f.elapsed,
                games_per_second: f.stats.games as f64 / f.elapsed.max(1e-9),
                mean_cards: f.stats.mean_cards(),
                median_cards: quantile(&f.stats.cards, 0.5),
                max_cards: f.stats.cards.iter().rposition(|&c| c > 0).map(|c| c as u64),
                tail_games: (m.p0 * f.stats.games as f64).round() as u64,
            }),
            rate,
            rate_measured: args.rate.is_none(),
            record_spread: m.max_spread(),
            records,
            target_cards: args.target_cards,
            probabilities,
            games_for_even_chance: even,
            seconds_for_even_chance: even / rate,
            games_for_expected_record: expected,
            seconds_for_expected_record: expected / rate,
        });
    }

    let mut t = String::new();
    if let Some(f) = fit {
        let max = f.stats.cards.iter().rposition(|&c| c > 0).unwrap_or(0);
        writeln!(
            t,
            "fit run:   {} standard deals, seed {}; {} engine, {} thread(s): {:.2} M games/s ({:.2} s); mean {:.1} cards, longest {max}",
            f.stats.games,
            args.seed,
            f.engine,
            f.threads,
            f.stats.games as f64 / f.elapsed.max(1e-9) / 1e6,
            f.elapsed,
            f.stats.mean_cards(),
        )?;
    }
    writeln!(
        t,
        "model:     {} tail past x0 = {:.0} cards, reached by p0 = {:.4} of games, mean mu = {:.1} cards",
        if args.mu.is_some() { "given" } else { "fitted" },
        m.x0,
        m.p0,
        m.mu
    )?;
    writeln!(
        t,
        "           record of N games ~ x0 + mu (gamma + ln(N p0)), sd {:.0} cards (Casella et al. 2024)",
        m.max_spread()
    )?;
    writeln!(t, "records:   {:>9}  {:>9}  published", "games", "expected")?;
    for r in &records {
        let published = match (r.published_record, r.source, r.model_probability_below) {
            (Some(c), Some(who), Some(below)) => format!(
                "{c} ({who}); the model puts {:.0}% of records below it",
                100.0 * below
            ),
            _ => "-".into(),
        };
        writeln!(
            t,
            "           {:>9}  {:>9.0}  {published}",
            games_text(r.games),
            r.expected_record
        )?;
    }
    writeln!(
        t,
        "target:    a game of at least {} cards{}",
        args.target_cards,
        if args.target_cards == RECORD_CARDS + 1 {
            format!(" (beating the record {RECORD_CARDS}, Nessler 2022)")
        } else {
            String::new()
        }
    )?;
    for p in &probabilities {
        writeln!(
            t,
            "           {:>9} games: chance {:.3e}",
            games_text(p.games),
            p.probability
        )?;
    }
    writeln!(
        t,
        "           even chance after {} games: {} at {:.2} M games/s{}",
        games_text(even),
        duration_text(even / rate),
        rate / 1e6,
        if args.rate.is_none() {
            " (this machine)"
        } else {
            ""
        }
    )?;
    writeln!(
        t,
        "           expected record reaches it after {} games: {}",
        games_text(expected),
        duration_text(expected / rate)
    )?;
    Ok(output::print(&t)?)
}

/// `3.20e9`, or the whole number below a million.
fn games_text(games: f64) -> String {
    if games < 1e6 {
        format!("{games:.0}")
    } else {
        format!("{games:.2e}")
    }
}

/// Seconds in the unit that reads best, up to years (`3.1e5 years`).
fn duration_text(seconds: f64) -> String {
    const YEAR: f64 = 365.25 * 86_400.0;
    match seconds {
        s if !s.is_finite() => "forever".into(),
        s if s < 120.0 => format!("{s:.1} s"),
        s if s < 7200.0 => format!("{:.1} min", s / 60.0),
        s if s < 2.0 * 86_400.0 => format!("{:.1} h", s / 3600.0),
        s if s < YEAR => format!("{:.1} days", s / 86_400.0),
        s if s < 1e4 * YEAR => format!("{:.1} years", s / YEAR),
        s => format!("{:.2e} years", s / YEAR),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_and_counts_read_well() {
        assert_eq!(games_text(3.2e9), "3.20e9");
        assert_eq!(games_text(1000.0), "1000");
        assert_eq!(duration_text(30.0), "30.0 s");
        assert_eq!(duration_text(600.0), "10.0 min");
        assert_eq!(duration_text(86_400.0), "24.0 h");
        assert_eq!(duration_text(10.0 * 86_400.0), "10.0 days");
        assert_eq!(duration_text(3.0 * 365.25 * 86_400.0), "3.0 years");
        assert_eq!(duration_text(1e20), "3.17e12 years");
    }
}
