//! `search`: random deals on the fast kernels (the reference engine for other tables), durable
//! (ledger, result file, shards), stoppable at any unit boundary.

use std::fmt::Write as _;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use bmn_job::{Job, Worker};
use bmn_params::message;
use bmn_run::Shard;
use bmn_run::{LedgerChoice, RunFile, Workers, differences};
use bmn_search::{
    GAMES_PER_UNIT, HISTOGRAM_BIN, SearchConfig, Summary, Units, play_into, units_of,
};
use serde::{Deserialize, Serialize};

use crate::durable::{self, Recording};
use crate::error::{Error, Result};
use crate::flags::{LedgerArgs, ShardArg, TopArg};
use crate::input;
use crate::json::{CycleClassJson, CyclingDealJson, LongGameJson};
use crate::plural;
use crate::stream::{StreamPlan, StreamRequest};
use bmn_core::serialize_fields;

/// The format of a search's result file (`bmn_run::RunFile`).
pub const FORMAT: &str = "bmn-search-2";

/// Games played when neither `--games` nor `--time` is given.
pub const DEFAULT_GAMES: u64 = 1_000_000;

/// How many of the longest games a search reports when not told.
pub const DEFAULT_TOP: usize = 10;

/// The engine named in the report of a merge (no games were played by it).
pub const MERGED: &str = "merged";

/// What to search: `bmn search`'s parameters, and the web API's and Python's (each front end
/// reads this one declaration: `crate::front`).
#[derive(clap::Args, Clone, Debug, Default)]
pub struct SearchRequest {
    #[command(flatten)]
    pub stream: StreamRequest,
    #[command(flatten)]
    pub top: TopArg,
    #[command(flatten)]
    pub shard: ShardArg,
    /// Write the result to FILE (a self-describing JSON file for `bmn merge`), rewritten every
    /// second; if FILE holds this run's unfinished result, the run resumes from it.
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
    #[command(flatten)]
    pub ledger: LedgerArgs,
}

/// Everything a search's result depends on, besides the range of games: shards merge only
/// if these are equal. (The kernel, threads and trick cap never change a result.)
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, Eq)]
pub struct SearchParams {
    pub deck: String,
    pub players: usize,
    pub balanced: bool,
    pub seed: u64,
    pub penalties: String,
    pub on_empty: String,
    pub give_up: u64,
    pub top: usize,
    /// Games in the whole run (all shards).
    pub games: u64,
    /// The stream of deals (`--stream`); files from before it was recorded dealt stream 1.
    #[serde(default = "stream_1")]
    pub stream: u8,
}

/// What a result file without a `stream` dealt.
fn stream_1() -> u8 {
    1
}

/// A search's answer.
#[derive(Clone, Debug)]
pub struct SearchReport {
    pub params: SearchParams,
    /// `i/N`, or `i,j,k/N` for merged shards.
    pub shard: String,
    /// The kernel's name, `reference`, or [`MERGED`].
    pub engine: String,
    pub threads: usize,
    pub elapsed: f64,
    /// Games per second played by this command (0 for a merge).
    pub rate: f64,
    pub interrupted: bool,
    pub summary: Summary,
}

/// A search, validated: what [`run`] plays, made from a request by `TryFrom`, where every
/// default is filled in (the constants of this module and `input`'s) and the machine is read
/// (the cores for `threads`, the CPU for the kernel): nowhere else, and not before.
#[derive(Clone, Debug)]
pub struct SearchPlan {
    /// The seed's deals, how many or for how long, on which engine.
    pub stream: StreamPlan,
    pub top: usize,
    pub shard: Shard,
    pub out: Option<PathBuf>,
    pub ledger: LedgerChoice,
}

impl TryFrom<&SearchRequest> for SearchPlan {
    type Error = Error;

    fn try_from(req: &SearchRequest) -> Result<Self> {
        let stream = StreamPlan::new(&req.stream, DEFAULT_GAMES)?;
        let shard = req
            .shard
            .shard
            .as_deref()
            .map(Shard::parse_or_auto)
            .transpose()?;
        if stream.time.is_some() && (shard.is_some() || req.out.is_some()) {
            return Err(Error::input(message!(
                "--shard and --out need a run of a known size: give --games, not --time"
            )));
        }
        Ok(SearchPlan {
            stream,
            top: req.top.top.unwrap_or(DEFAULT_TOP),
            shard: shard.unwrap_or(Shard::WHOLE),
            out: input::file_to_write(req.out.as_deref(), "out")?,
            ledger: req.ledger.choice(),
        })
    }
}

/// Runs the search a request asks for (see [`run`]).
pub fn search(req: &SearchRequest, job: &mut Job) -> Result<SearchReport> {
    run(&SearchPlan::try_from(req)?, job)
}

/// A search's units for [`durable::run`]: a seed's games, unit by unit.
struct SeededGames<'a> {
    config: &'a SearchConfig,
    units: &'a Units,
    /// An empty tally, cloned for each block.
    fresh: Summary,
    /// The shard's games, as the resume note counts them.
    range: [u128; 2],
    time_limit: Option<Duration>,
    started: Instant,
}

impl durable::DurableWork<SearchParams> for SeededGames<'_> {
    fn play(&self, block: std::ops::Range<u64>, worker: Worker) -> Summary {
        let mut tally = self.fresh.clone();
        let r = self.units.games_of_units(block);
        play_into(self.config, worker, r.start, r.end, &mut tally);
        tally
    }

    fn items_before(&self, next_unit: u64) -> u64 {
        self.units.games_before(next_unit)
    }

    fn message(&self, summary: &Summary) -> Option<String> {
        let best = summary.longest.first()?;
        Some(format!("best {} cards", best.cards))
    }

    fn keep_going(&self) -> bool {
        self.time_limit
            .is_none_or(|limit| self.started.elapsed() < limit)
    }

    fn resumed(&self, file: &RunFile<SearchParams>) -> String {
        format!(
            "resuming at game {} of {} (shard {})",
            u128::from(self.units.games_before(file.next_unit)) + self.range[0],
            self.range[1],
            file.shard
        )
    }
}

/// Runs a search: the job's stop (e.g. Ctrl-C) ends it at the next unit, with the units
/// finished reported and recorded.
pub fn run(plan: &SearchPlan, job: &mut Job) -> Result<SearchReport> {
    let stream = &plan.stream;
    if let Some(note) = &stream.engine.note {
        job.note(note);
    }
    let (source, rules, games, time_limit) =
        (&stream.source, stream.rules, stream.games, stream.time);
    let config = stream.config(source.clone(), plan.top);
    let params = SearchParams {
        deck: source.deck().to_string(),
        players: source.players(),
        balanced: source.balanced(),
        seed: stream.run.seed,
        penalties: rules.penalties.to_string(),
        on_empty: rules.on_empty.to_string(),
        give_up: stream.engine.give_up,
        top: plan.top,
        games: games.unwrap_or(0),
        stream: source.stream().number(),
    };
    let shard = plan.shard;
    let top = plan.top;
    let threads = stream.run.threads;
    let (units, range) = match games {
        Some(g) => {
            let (u, r) = shard.units(units_of(g), GAMES_PER_UNIT, g);
            let units = Units {
                games,
                first: u.start,
                end: Some(u.end),
            };
            (units, [u128::from(r.start), u128::from(r.end)])
        }
        None => (Units::all(None), [0, 0]),
    };
    let template = RunFile {
        format: FORMAT.into(),
        params,
        shard: shard.to_string(),
        range,
        total: u128::from(games.unwrap_or(0)),
        block: None,
        units: [units.first, units.end.unwrap_or(u64::MAX)],
        next_unit: units.first,
        summary: Summary::new(top),
        checksum: String::new(),
    };
    let seeded = SeededGames {
        config: &config,
        units: &units,
        fresh: Summary::new(top),
        range,
        time_limit,
        started: Instant::now(),
    };
    let done = durable::run(
        Recording {
            template,
            ledger: &plan.ledger,
            file: plan.out.as_deref(),
            same_run: &same_run,
            end: units.end,
            workers: Workers {
                threads,
                claims: config.engine.claims(GAMES_PER_UNIT),
            },
            what: "games",
            total: Some((range[1] - range[0]) as u64).filter(|_| games.is_some()),
        },
        job,
        &seeded,
    )?;
    // Only a signal sets the caller's flag; a time limit stops the run through its progress.
    let interrupted = job.interrupted();
    if interrupted && let Some(at) = done.recorder.describe() {
        job.note(&format!(
            "interrupted: recorded as {at}; run the same command with --resume to go on"
        ));
    }
    let played = units.games_before(done.file.next_unit) - units.games_before(done.first_unit);
    Ok(SearchReport {
        params: done.file.params,
        shard: done.file.shard,
        engine: config.engine.name(),
        threads,
        elapsed: done.elapsed,
        rate: played as f64 / done.elapsed.max(1e-9),
        interrupted,
        summary: done.file.summary,
    })
}

/// Refuses to resume from an `--out` file of another run or shard.
fn same_run(
    old: &RunFile<SearchParams>,
    new: &RunFile<SearchParams>,
) -> std::result::Result<(), String> {
    if old.same_run(new) {
        return Ok(());
    }
    let what = if old.params != new.params {
        differences(&old.params, &new.params)
    } else {
        format!("shard {} against {}", old.shard, new.shard)
    };
    Err(format!(
        "the result file holds another run ({what}); remove it or choose another file"
    ))
}

/// `search --json`: the keys are a contract that scripts depend on (docs/json.md).
impl Serialize for SearchReport {
    fn serialize<S: serde::Serializer>(
        &self,
        serializer: S,
    ) -> std::result::Result<S::Ok, S::Error> {
        let (p, s) = (&self.params, &self.summary);
        serialize_fields!(serializer, "SearchReport", {
            "games" => s.games,
            "seed" => p.seed,
            "stream" => p.stream,
            "deck" => p.deck,
            "balanced_by_kind" => p.balanced,
            "players" => p.players,
            "penalties" => p.penalties,
            "on_empty" => p.on_empty,
            "engine" => self.engine,
            "threads" => self.threads,
            "elapsed_seconds" => self.elapsed,
            "games_per_second" => self.rate,
            "interrupted" => self.interrupted,
            "shard" => self.shard,
            "mean_cards" => s.mean_cards(),
            "mean_tricks" => s.mean_tricks(),
            "wins_by_seat" => (1..=p.players).map(|i| s.wins_of(i)).collect::<Vec<_>>(),
            "histogram" => serde_json::json!({"bin_width": HISTOGRAM_BIN, "counts": s.histogram}),
            "longest" => s.longest.iter().map(|f| LongGameJson::new(f, 1)).collect::<Vec<_>>(),
            "cycling_games" => s.cycling,
            "unresolved_games" => s.unresolved,
            "cycling_deal_list" => s
                .cycles
                .iter()
                .map(|c| CyclingDealJson::new(c, 1))
                .collect::<Vec<_>>(),
            "distinct_cycle_list" => CycleClassJson::list(s),
        })
    }
}

impl crate::Report for SearchReport {
    fn text(&self) -> String {
        let (p, s) = (&self.params, &self.summary);
        let mut t = String::new();
        if self.interrupted {
            let _ = writeln!(
                t,
                "interrupted: reporting the {} games of the units that finished",
                s.games
            );
        }
        let balanced = if p.balanced { ", balanced" } else { "" };
        if self.engine == MERGED {
            let _ = writeln!(
                t,
                "games:   {} ({}, {} players{balanced}, seed {}, shards {} merged)",
                s.games, p.deck, p.players, p.seed, self.shard
            );
        } else {
            let shard = if self.shard == "1/1" {
                String::new()
            } else {
                format!(", shard {}", self.shard)
            };
            let _ = writeln!(
                t,
                "games:   {} ({}, {} players{balanced}, seed {}{shard}, {} thread(s), {} engine)",
                s.games, p.deck, p.players, p.seed, self.threads, self.engine
            );
            if self.rate == 0.0 && !self.interrupted {
                let _ = writeln!(t, "speed:   {}", crate::ALREADY_FINISHED);
            } else {
                let _ = writeln!(
                    t,
                    "speed:   {:.3} M games/s ({:.2} s)",
                    self.rate / 1e6,
                    self.elapsed
                );
            }
        }
        let _ = writeln!(
            t,
            "mean:    {:.2} cards, {:.2} tricks per finished game",
            s.mean_cards(),
            s.mean_tricks()
        );
        let fin = s.finished().max(1) as f64;
        let shares: Vec<String> = (1..=p.players)
            .map(|p| format!("player {p} {:.4}", s.wins_of(p) as f64 / fin))
            .collect();
        let _ = writeln!(t, "wins:    {}", shares.join(", "));
        let _ = writeln!(
            t,
            "cycles:  {} game(s) never end, {} distinct cycle(s)",
            s.cycling,
            s.classes.len()
        );
        if let Some((index, deal)) = &s.first_unresolved {
            let _ = writeln!(
                t,
                "unresolved: {} game(s) neither ended nor repeated within {} tricks (first: #{index} {deal})",
                s.unresolved, p.give_up
            );
        }
        for c in s.cycles.iter().take(10) {
            let _ = writeln!(
                t,
                "  {} preperiod {}, period {} ({}), cycle {}",
                c.deal,
                plural(c.preperiod.tricks, "trick"),
                plural(c.period.tricks, "trick"),
                plural(c.period.cards, "card"),
                c.cycle_id
            );
        }
        if s.cycles.len() > 10 {
            let _ = writeln!(t, "  ({} more; --json lists them all)", s.cycles.len() - 10);
        }
        if !s.longest.is_empty() {
            let _ = writeln!(t, "longest:");
        }
        for (i, f) in s.longest.iter().enumerate() {
            let _ = writeln!(
                t,
                "  {:>2}. {} cards, {} tricks, player {} wins: {}",
                i + 1,
                f.cards,
                f.tricks,
                f.winner,
                f.deal
            );
        }
        t
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_result_file_without_a_stream_dealt_stream_1() {
        let old = r#"{"deck":"standard","players":2,"balanced":false,"seed":7,
            "penalties":"standard","on_empty":"stop","give_up":100000,"top":10,"games":5}"#;
        let p: SearchParams = serde_json::from_str(old).unwrap();
        assert_eq!(p.stream, 1);
        let again: SearchParams =
            serde_json::from_str(&serde_json::to_string(&p).unwrap()).unwrap();
        assert_eq!(again, p);
    }
}
