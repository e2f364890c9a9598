//! `bmn search`: random deals on the fast kernels (the reference engine for other tables), with a
//! progress bar and Ctrl-C that reports.

use std::fmt::Write as _;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use anyhow::Result;
use bmn_search::{
    GAMES_PER_UNIT, HISTOGRAM_BIN, SearchConfig, Shard, Summary, Units, stream_units, units_of,
};
use serde::{Deserialize, Serialize};

use crate::cli::SearchArgs;
use crate::input::{self, BadInput};
use crate::output::{self, CycleClassJson, CyclingDealJson, FoundJson};
use crate::progress;
use crate::runfile::{RunFile, differences, shard_units};
use crate::store::Recorder;

/// The format of a search's result file (see `runfile.rs`).
pub const FORMAT: &str = "bmn-search-2";

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
}

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
    /// `i/N` when this is one shard of a run (`--shard`), or a merge of shards.
    shard: String,
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
            return Err(BadInput("bad --games: must be at least 1".into()).into());
        }
        (Some(n), _) => Some(n),
        (None, Some(_)) => None,
        (None, None) => Some(1_000_000),
    };
    let shard = args.shard.as_deref().map(input::shard).transpose()?;
    if time_limit.is_some() && (shard.is_some() || args.out.is_some()) {
        return Err(BadInput(
            "--shard and --out need a run of a known size: give --games, not --time".into(),
        )
        .into());
    }
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
    let params = SearchParams {
        deck: source.deck().to_string(),
        players: source.players(),
        balanced: source.balanced(),
        seed: args.seed,
        penalties: rules.penalties.to_string(),
        on_empty: rules.on_empty.to_string(),
        give_up: args.engine.give_up,
        top: args.top,
        games: games.unwrap_or(0),
    };
    let shard = shard.unwrap_or(Shard::WHOLE);
    let (units, range) = match games {
        Some(g) => {
            let (u, r) = shard_units(shard, units_of(g), GAMES_PER_UNIT, g);
            let units = Units {
                games,
                first: u.start,
                end: Some(u.end),
            };
            (units, [r.start, r.end])
        }
        None => (Units::all(None), [0, 0]),
    };
    let mut file = RunFile {
        format: FORMAT.into(),
        params,
        shard: shard.to_string(),
        range,
        total: games.unwrap_or(0),
        units: [units.first, units.end.unwrap_or(u64::MAX)],
        next_unit: units.first,
        summary: Summary::new(args.top),
        checksum: String::new(),
    };
    let (mut recorder, start) =
        Recorder::open(file.clone(), &args.db, args.out.as_deref(), same_run)?;
    file = start;
    if file.next_unit > units.first {
        eprintln!(
            "resuming at game {} of {} (shard {})",
            units.games_before(file.next_unit) + range[0],
            range[1],
            file.shard
        );
    }
    // A second Ctrl-C while the handler is installed does nothing more; the run ends at the
    // next unit (milliseconds) anyway.
    let _ = ctrlc::set_handler(|| STOP.store(true, Ordering::Relaxed));

    let bar = progress::bar(
        Some(range[1] - range[0]).filter(|_| games.is_some()),
        "games",
    );
    let done_before = units.games_before(file.next_unit);
    bar.set_position(done_before);
    bar.reset_eta();
    let started = Instant::now();
    let mut save_error = None;
    let fresh = Summary::new(args.top);
    let todo = Units {
        first: file.next_unit,
        ..units
    };
    let mut summary = std::mem::replace(&mut file.summary, fresh.clone());
    let next = stream_units(
        &config,
        todo,
        threads,
        &STOP,
        &mut summary,
        &fresh,
        |s, next| {
            bar.set_position(units.games_before(next));
            if let Some(best) = s.longest.first() {
                bar.set_message(format!("best {} cards", best.cards));
            }
            if let Err(e) = recorder.tick(s, next) {
                save_error = Some(e);
                return false;
            }
            time_limit.is_none_or(|limit| started.elapsed() < limit)
        },
    );
    bar.finish_and_clear();
    if let Some(e) = save_error {
        return Err(e);
    }
    recorder.save(&summary, next)?;
    let interrupted = STOP.load(Ordering::Relaxed) && time_limit.is_none();
    if interrupted && let Some(at) = recorder.describe() {
        eprintln!("interrupted: recorded as {at}; run the same command with --resume to go on");
    }
    let elapsed = started.elapsed().as_secs_f64();
    let played = units.games_before(next) - done_before;
    Report {
        params: &file.params,
        shard: &file.shard,
        engine: config.engine.name(),
        threads,
        elapsed,
        rate: played as f64 / elapsed.max(1e-9),
        interrupted,
        json: args.json,
    }
    .print(&summary)
}

/// Refuses to resume from an `--out` file of another run or shard.
fn same_run(old: &RunFile<SearchParams>, new: &RunFile<SearchParams>) -> Result<()> {
    if !old.same_run(new) {
        let what = if old.params != new.params {
            differences(&old.params, &new.params)?
        } else {
            format!("shard {} against {}", old.shard, new.shard)
        };
        return Err(BadInput(format!(
            "the --out file holds another run ({what}); remove it or choose another file"
        ))
        .into());
    }
    Ok(())
}

/// The engine named in the report of a merge (no games were played by it).
pub const MERGED: &str = "merged";

/// What a report says besides the summary.
pub struct Report<'a> {
    pub params: &'a SearchParams,
    pub shard: &'a str,
    pub engine: &'static str,
    pub threads: usize,
    pub elapsed: f64,
    /// Games per second played by this command (0 for a merge).
    pub rate: f64,
    pub interrupted: bool,
    pub json: bool,
}

impl Report<'_> {
    pub fn print(&self, s: &Summary) -> Result<()> {
        let p = self.params;
        let (rate, elapsed) = (self.rate, self.elapsed);
        if self.json {
            return output::print_json(&SearchJson {
                games: s.games,
                seed: p.seed,
                deck: p.deck.clone(),
                balanced: p.balanced,
                players: p.players,
                penalties: p.penalties.clone(),
                on_empty: p.on_empty.clone(),
                kernel: self.engine,
                threads: self.threads,
                elapsed_seconds: elapsed,
                games_per_second: rate,
                interrupted: self.interrupted,
                shard: self.shard.to_string(),
                mean_cards: s.mean_cards(),
                mean_tricks: s.mean_tricks(),
                wins: (1..=p.players).map(|i| s.wins_of(i)).collect(),
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
        self.text(s)
    }

    fn text(&self, s: &Summary) -> Result<()> {
        let p = self.params;
        let (rate, elapsed, interrupted) = (self.rate, self.elapsed, self.interrupted);
        let mut t = String::new();
        if interrupted {
            writeln!(
                t,
                "interrupted: reporting the {} games of the units that finished",
                s.games
            )?;
        }
        let balanced = if p.balanced { ", balanced" } else { "" };
        if self.engine == MERGED {
            writeln!(
                t,
                "games:   {} ({}, {} players{balanced}, seed {}, {})",
                s.games, p.deck, p.players, p.seed, self.shard
            )?;
        } else {
            let shard = if self.shard == "1/1" {
                String::new()
            } else {
                format!(", shard {}", self.shard)
            };
            writeln!(
                t,
                "games:   {} ({}, {} players{balanced}, seed {}{shard}, {} thread(s), {} engine)",
                s.games, p.deck, p.players, p.seed, self.threads, self.engine
            )?;
            writeln!(t, "speed:   {:.3} M games/s ({elapsed:.2} s)", rate / 1e6)?;
        }
        writeln!(
            t,
            "mean:    {:.2} cards, {:.2} tricks per finished game",
            s.mean_cards(),
            s.mean_tricks()
        )?;
        let fin = s.finished().max(1) as f64;
        let shares: Vec<String> = (1..=p.players)
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
                s.unresolved, p.give_up
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
}
