//! `odds`: how long until someone finds a longer standard game, by the order-statistics
//! model of Casella et al. (2024, arXiv:2403.13855) fitted to a `stats`-style run.
//!
//! The model (bmn-search's `odds.rs`) has three numbers: the tail's mean `mu`, where it starts
//! `x0` and the share `p0` of games that get there. They are fitted to the lengths in cards
//! of `fit_games` seeded random deals, whose run also times this machine; the report puts
//! the model's expected records beside the published history of record searches
//! (`records::search_history`).

use bmn_job::Job;
use std::fmt::Write as _;
use std::time::Instant;

use bmn_core::Deck;
use bmn_params::message;
use bmn_search::stats::{TAIL_FROM_QUANTILE, quantile};
use bmn_search::{DealSource, SearchConfig, Stats, TailModel};
use serde::Serialize;

use crate::Message;
use crate::error::{Error, Result};
use crate::input::{self, EngineDefaults};
use crate::records;
use crate::seeded::{Run, SeededArgs};

/// Round numbers of games at which the chance of a new record is always reported.
const ROUND_GAMES: [f64; 2] = [1e12, 1e15];

/// Games of the fit run when not told.
pub const DEFAULT_FIT_GAMES: u64 = 2_000_000;

/// What to model: `bmn odds`'s parameters (the model given instead of fitted: all three of
/// `mu`, `x0`, `p0` or none).
#[derive(clap::Args, Clone, Debug, Default)]
pub struct OddsRequest {
    /// Also report the expected record after N games (e.g. 1e12), besides the published
    /// history (3.2e9, 1e13 and 3.3e15 games).
    #[arg(long, value_name = "N")]
    pub games: Option<f64>,
    /// The length in cards whose chance and expected time to report [default: one card more
    /// than the record].
    #[arg(long, value_name = "C")]
    pub target_cards: Option<u64>,
    /// Games per second for the times [default: this machine's, measured by the fit run].
    #[arg(long, value_name = "R")]
    pub rate: Option<f64>,
    /// Random standard two-player deals played to fit the model and time this machine
    /// [default: 2000000].
    #[arg(long, value_name = "N")]
    pub fit_games: Option<u64>,
    #[command(flatten)]
    pub run: SeededArgs,
    /// Use this tail mean (cards) instead of a fit; needs --x0 and --p0.
    #[arg(long, value_name = "M", requires_all = ["x0", "p0"])]
    pub mu: Option<f64>,
    /// Where the exponential tail starts (cards); with --mu and --p0.
    #[arg(long, value_name = "X", requires_all = ["mu", "p0"])]
    pub x0: Option<f64>,
    /// Share of all games at least --x0 cards long; with --mu and --x0.
    #[arg(long, value_name = "P", requires_all = ["mu", "x0"])]
    pub p0: Option<f64>,
}

/// The odds of a record: what `odds --json` prints (its keys a contract scripts depend on)
/// and what the text is written from.
#[derive(Serialize, Clone, Debug)]
pub struct OddsReport {
    pub mu: f64,
    pub x0: f64,
    pub p0: f64,
    /// Whether mu, x0 and p0 were fitted (else given).
    pub fitted: bool,
    /// The fit run; null when the model and the rate were both given.
    pub fit: Option<FitRun>,
    /// Games per second behind the times.
    pub rate: f64,
    /// Whether `rate` was measured by the fit run (else given).
    pub rate_measured: bool,
    /// Standard deviation of the record of many games (the Gumbel law's mu pi / sqrt 6).
    pub record_spread: f64,
    /// Expected record after each number of games, with the published record where there is one.
    pub expected_records: Vec<ExpectedRecord>,
    pub target_cards: u64,
    /// Chance that one of N games reaches target_cards.
    pub probabilities: Vec<Chance>,
    pub games_for_even_chance: f64,
    pub seconds_for_even_chance: f64,
    pub games_for_expected_record: f64,
    pub seconds_for_expected_record: f64,
    /// Stopped (Ctrl-C) during the fit run: the model is fitted to the games played.
    pub interrupted: bool,
}

#[derive(Serialize, Clone, Debug)]
pub struct FitRun {
    pub games: u64,
    #[serde(flatten)]
    pub run: Run,
    pub engine: String,
    pub elapsed_seconds: f64,
    pub games_per_second: f64,
    pub mean_cards: f64,
    pub median_cards: Option<u64>,
    pub max_cards: Option<u64>,
    /// Games at least x0 cards long.
    pub tail_games: u64,
}

#[derive(Serialize, Clone, Debug)]
pub struct ExpectedRecord {
    pub games: f64,
    pub expected_record: f64,
    pub published_record: Option<u64>,
    pub source: Option<String>,
    /// The model's chance that the record of that many games is below the published one.
    pub model_probability_below: Option<f64>,
}

#[derive(Serialize, Clone, Debug)]
pub struct Chance {
    pub games: f64,
    pub probability: f64,
}

/// The fit run: what was played and how fast.
struct Fit {
    stats: Stats,
    engine: String,
    elapsed: f64,
}

/// An `odds` question, validated: the model given (or `None`: fit it), and the fit run's
/// games, seed and threads; `TryFrom` fills in every default and reads the cores.
#[derive(Clone, Debug)]
pub struct OddsPlan {
    /// Also report the expected record after this many games.
    pub games: Option<f64>,
    /// The length whose chance to report.
    pub target_cards: u64,
    /// Games per second for the times (`None`: measured by the fit run).
    pub rate: Option<f64>,
    /// The model given instead of fitted.
    pub model: Option<TailModel>,
    pub fit_games: u64,
    pub run: Run,
}

impl TryFrom<&OddsRequest> for OddsPlan {
    type Error = Error;

    fn try_from(req: &OddsRequest) -> Result<Self> {
        let model = given_model(req)?;
        if let Some(games) = req.games {
            at_least_one_game(positive(games, "games")?, "games")?;
        }
        let rate = req.rate.map(|r| positive(r, "rate")).transpose()?;
        let fit_games =
            input::at_least_one(req.fit_games.unwrap_or(DEFAULT_FIT_GAMES), "fit_games")?;
        Ok(OddsPlan {
            games: req.games,
            target_cards: req.target_cards.unwrap_or(records::longest().cards + 1),
            rate,
            model,
            fit_games,
            run: req.run.resolve()?,
        })
    }
}

/// The model and its report (see [`run`]).
pub fn odds(req: &OddsRequest, job: &mut Job) -> Result<OddsReport> {
    run(&OddsPlan::try_from(req)?, job)
}

/// The model and its report; the fit run (if one is needed) is observed.
pub fn run(plan: &OddsPlan, job: &mut Job) -> Result<OddsReport> {
    // The fit run also times the machine, so it is skipped only when nothing needs it.
    let (model, rate, fit) = match (plan.model, plan.rate) {
        (Some(model), Some(rate)) => (model, rate, None),
        (given, rate) => {
            let fit = fit_run(plan.fit_games, plan.run, job)?;
            let model = match given {
                Some(model) => model,
                None => TailModel::fit(&fit.stats.cards, fit.stats.games, TAIL_FROM_QUANTILE)
                    .ok_or_else(|| match job.interrupted() {
                        true => Error::failed(format!(
                            "interrupted: the fit run stopped after {} games, too few to fit",
                            fit.stats.games
                        )),
                        false => Error::bad_with(
                            "fit_games",
                            format!(
                                ": {} games leave too few in the tail to fit; play more",
                                plan.fit_games
                            ),
                        ),
                    })?,
            };
            let measured = fit.stats.games as f64 / fit.elapsed.max(1e-9);
            (model, rate.unwrap_or(measured), Some(fit))
        }
    };
    let mut json = report(plan, &model, fit.as_ref(), rate);
    json.interrupted = fit.is_some_and(|f| f.stats.games < plan.fit_games);
    Ok(json)
}

/// `--mu`, `--x0`, `--p0`, checked: all three or none, on every front end.
fn given_model(req: &OddsRequest) -> Result<Option<TailModel>> {
    let (mu, x0, p0) = match (req.mu, req.x0, req.p0) {
        (None, None, None) => return Ok(None),
        (Some(mu), Some(x0), Some(p0)) => (mu, x0, p0),
        given => {
            let missing = [
                ("mu", given.0.is_none()),
                ("x0", given.1.is_none()),
                ("p0", given.2.is_none()),
            ]
            .into_iter()
            .filter(|&(_, missing)| missing)
            .enumerate()
            .fold(Message::default(), |m, (i, (name, _))| {
                let and = if i > 0 { " and " } else { "" };
                m.then(Message::text(and)).then(Message::parameter(name))
            });
            return Err(Error::input(
                message!("bad --mu/--x0/--p0: a model given needs all three (missing ")
                    .then(missing)
                    .then(Message::text(")")),
            ));
        }
    };
    let mu = positive(mu, "mu")?;
    if !(x0.is_finite() && x0 >= 0.0) {
        return Err(Error::bad_with(
            "x0",
            format!(" {x0}: must be a length in cards, >= 0"),
        ));
    }
    if !(p0 > 0.0 && p0 <= 1.0) {
        return Err(Error::bad_with(
            "p0",
            format!(" {p0}: must be a share in (0, 1]"),
        ));
    }
    Ok(Some(TailModel { mu, x0, p0 }))
}

fn positive(x: f64, flag: &'static str) -> Result<f64> {
    if x.is_finite() && x > 0.0 {
        Ok(x)
    } else {
        Err(Error::bad_with(
            flag,
            format!(" {x}: must be a positive number"),
        ))
    }
}

fn at_least_one_game(x: f64, flag: &'static str) -> Result<f64> {
    if x >= 1.0 {
        Ok(x)
    } else {
        Err(Error::bad_with(
            flag,
            format!(" {x}: must be at least 1 game"),
        ))
    }
}

/// `fit_games` standard deals, played as `stats` plays them (same seed, same games).
fn fit_run(fit_games: u64, Run { seed, threads }: Run, job: &mut Job) -> Result<Fit> {
    let source = DealSource::new(Deck::STANDARD, false).map_err(|e| Error::bad("deck", e))?;
    let plan = EngineDefaults::DEALS.fastest();
    let engine = plan.engine;
    let config = SearchConfig {
        seed,
        source,
        top: 0,
        engine,
        max_tricks: plan.max_tricks,
    };
    let started = Instant::now();
    let stats =
        crate::stats::play_stats(&config, Some(fit_games), None, threads, job, "games (fit)");
    let elapsed = started.elapsed().as_secs_f64();
    Ok(Fit {
        stats,
        engine: engine.name(),
        elapsed,
    })
}

fn report(plan: &OddsPlan, m: &TailModel, fit: Option<&Fit>, rate: f64) -> OddsReport {
    let target_cards = plan.target_cards;
    let target = target_cards as f64;
    let history = records::search_history();
    let mut games_list: Vec<f64> = history.iter().map(|h| h.games).collect();
    games_list.extend(plan.games);
    // One table by the number of games, the asked-for rows among the published ones.
    games_list.sort_by(f64::total_cmp);
    games_list.dedup();
    let records: Vec<ExpectedRecord> = games_list
        .iter()
        .map(|&games| {
            let published = history.iter().find(|h| h.games == games);
            ExpectedRecord {
                games,
                expected_record: m.expected_max(games),
                published_record: published.map(|h| h.cards),
                source: published.map(|h| h.who.clone()),
                model_probability_below: published.map(|h| m.record_below(games, h.cards as f64)),
            }
        })
        .collect();
    let mut prob_games: Vec<f64> = games_list.iter().copied().chain(ROUND_GAMES).collect();
    prob_games.sort_by(f64::total_cmp);
    prob_games.dedup();
    let probabilities: Vec<Chance> = prob_games
        .iter()
        .map(|&games| Chance {
            games,
            probability: m.probability(games, target),
        })
        .collect();
    let even = m.games_for_probability(target, 0.5);
    let expected = m.games_for_expected_max(target);
    OddsReport {
        mu: m.mu,
        x0: m.x0,
        p0: m.p0,
        fitted: plan.model.is_none(),
        fit: fit.map(|f| FitRun {
            games: f.stats.games,
            run: plan.run,
            engine: f.engine.clone(),
            elapsed_seconds: f.elapsed,
            games_per_second: f.stats.games as f64 / f.elapsed.max(1e-9),
            mean_cards: f.stats.mean_cards(),
            median_cards: quantile(&f.stats.cards, 0.5),
            max_cards: f.stats.cards.iter().rposition(|&c| c > 0).map(|c| c as u64),
            tail_games: (m.p0 * f.stats.games as f64).round() as u64,
        }),
        rate,
        rate_measured: plan.rate.is_none(),
        record_spread: m.max_spread(),
        expected_records: records,
        target_cards,
        probabilities,
        games_for_even_chance: even,
        seconds_for_even_chance: even / rate,
        games_for_expected_record: expected,
        seconds_for_expected_record: expected / rate,
        interrupted: false,
    }
}

impl crate::Report for OddsReport {
    fn text(&self) -> String {
        let mut t = String::new();
        if self.interrupted {
            t.push_str("interrupted: the model is fitted to the games the fit run played\n");
        }
        if let Some(f) = &self.fit {
            let _ = writeln!(
                t,
                "fit run:   {} standard deals, seed {}; {} engine, {} thread(s): {:.2} M games/s ({:.2} s); mean {:.1} cards, longest {}",
                f.games,
                f.run.seed,
                f.engine,
                f.run.threads,
                f.games_per_second / 1e6,
                f.elapsed_seconds,
                f.mean_cards,
                f.max_cards.unwrap_or(0),
            );
        }
        let _ = writeln!(
            t,
            "model:     {} tail past x0 = {:.0} cards, reached by p0 = {:.4} of games, mean mu = {:.1} cards",
            if self.fitted { "fitted" } else { "given" },
            self.x0,
            self.p0,
            self.mu
        );
        let _ = writeln!(
            t,
            "           record of N games ~ x0 + mu (gamma + ln(N p0)), sd {:.0} cards (Casella et al. 2024)",
            self.record_spread
        );
        // The counts' column as wide as its widest ("3.30 quadrillion").
        let width = self
            .expected_records
            .iter()
            .map(|r| r.games)
            .chain(self.probabilities.iter().map(|p| p.games))
            .map(|games| crate::words::count(games).chars().count())
            .max()
            .unwrap_or(0)
            .max(9);
        let _ = writeln!(
            t,
            "records:   {:>width$}  {:>9}  published",
            "games", "expected"
        );
        for r in &self.expected_records {
            let published = match (r.published_record, &r.source, r.model_probability_below) {
                (Some(c), Some(who), Some(below)) => format!(
                    "{c} ({who}); the model puts {:.0}% of records below it",
                    100.0 * below
                ),
                _ => "-".into(),
            };
            let _ = writeln!(
                t,
                "           {:>width$}  {:>9.0}  {published}",
                crate::words::count(r.games),
                r.expected_record
            );
        }
        let record = records::longest();
        let _ = writeln!(
            t,
            "target:    a game of at least {} cards{}",
            self.target_cards,
            if self.target_cards == record.cards + 1 {
                format!(" (beating the record {}, {})", record.cards, record.name)
            } else {
                String::new()
            }
        );
        for p in &self.probabilities {
            let _ = writeln!(
                t,
                "           {:>width$} games: chance {:.3e}",
                crate::words::count(p.games),
                p.probability
            );
        }
        let _ = writeln!(
            t,
            "           even chance after {} games: {} at {:.2} M games/s{}",
            crate::words::count(self.games_for_even_chance),
            crate::words::duration(self.seconds_for_even_chance),
            self.rate / 1e6,
            if self.rate_measured {
                " (this machine)"
            } else {
                ""
            }
        );
        let _ = writeln!(
            t,
            "           expected record reaches it after {} games: {}",
            crate::words::count(self.games_for_expected_record),
            crate::words::duration(self.seconds_for_expected_record)
        );
        t
    }
}
