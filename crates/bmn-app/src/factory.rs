//! `pieces factory`: balanced deals that never end, found from scratch: endless games to start
//! from (Casella's construction for the standard two-player table, a random search for cycling
//! deals at any other), then the factory's walks toward balance, and a catalogue of every cycle
//! reached. The pipeline is bmn-climb's (`bmn_climb::factory::run`); here are the request, its
//! validation into a [`FactoryPlan`], and the report.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::time::Duration;

use bmn_climb::RoundLimits;
use bmn_climb::factory::{
    Completion, CompletionFound, FactoryConfig, FactoryError, FactoryRun, KeepPieces, Listed,
    PieceStage, PieceTable, StageKey,
};
use bmn_core::Rules;
use bmn_job::Job;
use bmn_params::message;
use bmn_search::DealSource;
use serde::Serialize;

use crate::error::{Error, Result};
use crate::input::{self, DEFAULT_SEED, TableRules, TimeArg};
use crate::plural;
use crate::seeded::{Run, SeededArgs};
use crate::walk::{Walk, WalkArgs};

/// What to run: `bmn pieces factory`'s parameters.
#[derive(clap::Args, Clone, Debug, Default)]
#[command(
    mut_arg("walkers", |a| a.help(FACTORY_WALKERS)),
    mut_arg("neighbours", |a| a.help("Edits of each per round [default: 64]")),
    mut_arg("moves", |a| a.help("The edits [default: give,transfer,swap,shift]")),
)]
pub struct FactoryRequest {
    #[command(flatten)]
    pub run: SeededArgs,
    #[command(flatten)]
    pub time: TimeArg,
    /// Rounds of walks [default: 200 unless --time].
    #[arg(long, value_name = "N", conflicts_with = "time")]
    pub rounds: Option<u64>,
    #[command(flatten)]
    pub table: TableRules,
    #[command(flatten)]
    pub walk: WalkArgs,
    /// Positions a basin search may visit per cycle [default: 20000].
    #[arg(long, value_name = "M")]
    pub basin_limit: Option<u64>,
    /// Endless games to start from [default: 60 decks of pieces; 200 cycling deals at other
    /// tables].
    #[arg(long, value_name = "N")]
    pub seeds: Option<u64>,
    /// Also start from decks around third pieces searched by their cards: the piece that fills
    /// the test template to the deck (`template`, the default at the standard two-player
    /// table: a search of some minutes), the pieces that complete the deck from any two pool
    /// pieces (`pairs`, the default where the template does not fit, e.g. Camicia: hours on
    /// the standard deck), or none beyond the pool's decks (`none`)
    #[arg(long, value_name = "template|pairs|none")]
    pub complete: Option<String>,
    /// With `--complete pairs`, search only completions of at most L cards
    #[arg(long, value_name = "L")]
    pub complete_max_len: Option<u32>,
    /// Grow pieces from the completion's pieces: search every piece that begins as one of
    /// their forms does up to player 2's high water (the most cards it holds during a pass),
    /// up to L cards longer than that form; 0 turns it off [default: 3]
    #[arg(long, value_name = "L")]
    pub grow: Option<u32>,
    /// Keep the pieces in FILE: the pool, the completion's and the grown pieces, which no seed
    /// changes and which are most of a run's time on the standard deck. A run finding FILE
    /// starts from the pieces in it (refused if they were searched with other settings), and
    /// each search that finishes is added to it, so a stopped run loses only the one under way
    #[arg(long, value_name = "FILE")]
    pub pool: Option<PathBuf>,
}

const FACTORY_WALKERS: &str = "Cycles whose closest positions are edited each round [default: 16]";

/// Rounds when neither `--time` nor `--rounds` is given.
pub const DEFAULT_ROUNDS: u64 = 200;

/// The factory's answer.
#[derive(Serialize, Clone, Debug)]
pub struct FactoryReport {
    pub seed: u64,
    pub deck: String,
    pub players: usize,
    /// The rules the games were played by (a catalogue's basins and deals hold only under them).
    pub penalties: String,
    pub on_empty: String,
    /// Where the starting endless games came from: `pieces` or `search`.
    pub seeds_from: &'static str,
    pub seeds: u64,
    /// `template`, `pairs` or `none`: which third pieces were searched (`--complete`).
    pub completion_mode: &'static str,
    /// The template's completion, when it was searched (`--complete template`).
    pub completion: Option<CompletionFound>,
    /// Every completion searched that has pieces (with `template`, the template's own even
    /// without), and how many were searched.
    pub completions: Vec<CompletionFound>,
    pub completions_searched: u64,
    /// The prefixes grown from (each completion piece's form up to player 2's high water) and
    /// the new pieces they gave, by card list, with the endless decks built around them.
    pub grow_prefixes: Vec<String>,
    pub grown: Vec<CompletionFound>,
    pub rounds: u64,
    pub evals: u64,
    /// Edits that never end.
    pub endless_count: u64,
    pub elapsed_seconds: f64,
    /// Distinct cycles reached, and those with a balanced deal.
    pub distinct_cycle_count: usize,
    pub balanced_cycles: usize,
    pub balanced_deals: usize,
    /// Every cycle with a balanced deal, most balanced deals first.
    pub catalogue: Vec<Listed>,
    /// Cycles by period in tricks: how many of each.
    pub periods: BTreeMap<u64, usize>,
    /// The least imbalance any cycle's positions reached (0: balanced), round by round.
    pub closest: Vec<usize>,
    /// Cycles by how close their positions (cycle and basin) come to balance: imbalance (the
    /// cards by which the hands' sizes miss a balanced deal's, summed) to the number of cycles.
    pub closeness: BTreeMap<usize, usize>,
    pub interrupted: bool,
}

/// A factory run, validated: what [`run`] plays, made by `TryFrom` (which reads the cores);
/// the pipeline's defaults are `FactoryConfig::default()`'s and [`DEFAULT_ROUNDS`].
#[derive(Clone, Debug)]
pub struct FactoryPlan {
    /// The pipeline: seed, rules, walks, starting games, completion, growing.
    pub config: FactoryConfig,
    pub source: DealSource,
    /// Rounds of walks; `None`: until `time` is up.
    pub rounds: Option<u64>,
    /// Stop when this much time has passed since the start (the starting games' search
    /// included), after whole rounds.
    pub time: Option<Duration>,
    pub threads: usize,
    /// Where the pieces stage is kept (`--pool`), checked when the plan is made.
    pub pool: Option<PathBuf>,
}

impl FactoryPlan {
    /// The pipeline a request that says nothing asks for (before its table's completion).
    pub fn default_config() -> FactoryConfig {
        FactoryConfig {
            seed: DEFAULT_SEED,
            ..FactoryConfig::default()
        }
    }

    /// The factory at `source`'s table under `rules`, with this seed and these threads and
    /// every other setting its default (the table's default completion included): a request
    /// that names only these, built from values already checked.
    pub fn at(source: DealSource, rules: Rules, run: Run) -> FactoryPlan {
        let d = FactoryPlan::default_config();
        let table = PieceTable::of(&source, rules, &d.filter);
        let completion = default_completion(table, None);
        FactoryPlan {
            config: FactoryConfig {
                seed: run.seed,
                rules,
                completion: Some(completion),
                ..d
            },
            source,
            rounds: Some(DEFAULT_ROUNDS),
            time: None,
            threads: run.threads,
            pool: None,
        }
    }
}

impl TryFrom<&FactoryRequest> for FactoryPlan {
    type Error = Error;

    fn try_from(req: &FactoryRequest) -> Result<Self> {
        let rules = req.table.rules.rules()?;
        let source = req.table.source()?;
        let at = FactoryPlan::at(source, rules, req.run.resolve()?);
        let (rounds, time) = req.time.with_count(req.rounds, "rounds", at.rounds)?;
        let d = at.config;
        let walk = req.walk.walk(Walk {
            walkers: d.walkers,
            neighbours: d.neighbours,
            moves: d.moves.clone(),
        })?;
        let completion = completion(req, &at.source, rules, &d.filter)?;
        let config = FactoryConfig {
            walkers: walk.walkers,
            neighbours: walk.neighbours,
            moves: walk.moves,
            basin_limit: input::or_default(req.basin_limit, d.basin_limit, "basin_limit")?,
            seeds: req.seeds.or(d.seeds),
            completion: Some(completion),
            grow: req.grow.unwrap_or(d.grow),
            ..d
        };
        let plan = FactoryPlan {
            config,
            rounds,
            time,
            pool: req.pool.clone(),
            ..at
        };
        if let Some(path) = &plan.pool {
            input::writable(path, "pool")?;
            plan.kept_pieces()?;
        }
        Ok(plan)
    }
}

impl FactoryPlan {
    /// The pieces kept in `--pool`'s file, if it is there, checked against this run's piece
    /// settings.
    fn kept_pieces(&self) -> Result<Option<PieceStage>> {
        let Some(path) = &self.pool else {
            return Ok(None);
        };
        let config = &self.config;
        let Some(table) = PieceTable::of(&self.source, config.rules, &config.filter) else {
            return Err(Error::bad_with(
                "pool",
                message!(
                    ": this table's starting games come from a random search, not from \
                     pieces ({} with {} players)",
                    self.source.deck(),
                    self.source.players()
                ),
            ));
        };
        let text = match std::fs::read_to_string(path) {
            Ok(text) => text,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(e) => {
                let why = message!("cannot read --pool '{}': {}", path.display(), e);
                return Err(Error::failed(why).caused_by(e));
            }
        };
        let stage: PieceStage = serde_json::from_str(&text).map_err(|e| {
            Error::bad_with(
                "pool",
                format!(" '{}': not a factory's pieces file ({e})", path.display()),
            )
        })?;
        let completion = config.completion.unwrap_or(Completion::None);
        let key = StageKey::of(config, table.target, completion);
        if let Some(d) = key.difference(&stage.key) {
            return Err(Error::bad_with(
                "pool",
                format!(
                    " '{}': its pieces were searched with other settings (this run's {d}, \
                     the file's in brackets)",
                    path.display()
                ),
            ));
        }
        Ok(Some(stage))
    }
}

/// `--pool`'s file as the factory keeps its pieces in it: read once when the run starts,
/// written whole after each search.
struct PoolFile<'a> {
    path: &'a Path,
    kept: Option<PieceStage>,
}

impl KeepPieces for PoolFile<'_> {
    fn load(&mut self, _: &StageKey) -> std::result::Result<Option<PieceStage>, String> {
        Ok(self.kept.take())
    }

    fn save(&mut self, stage: &PieceStage) -> std::result::Result<(), String> {
        let text = serde_json::to_string(stage).map_err(|e| e.to_string())?;
        bmn_run::write_atomically(self.path, text.as_bytes()).map_err(|e| e.to_string())
    }
}

/// The third pieces searched when `--complete` is not given: the template where it fits the
/// deck (the standard deck), else every pair (of at most `max_len` cards); none where pieces
/// do not fill the deck.
fn default_completion(table: Option<PieceTable>, max_len: Option<u32>) -> Completion {
    match table {
        None => Completion::None,
        Some(t) => match t.template {
            Some(cards) => Completion::Template(cards),
            None => Completion::Pairs(max_len.unwrap_or(u32::MAX)),
        },
    }
}

/// The third pieces `--complete` (and `--complete-max-len`) ask for at this table: the
/// template where it fits the deck, else every pair; none where pieces do not fill the deck.
fn completion(
    req: &FactoryRequest,
    source: &DealSource,
    rules: Rules,
    filter: &bmn_pieces::Piece,
) -> Result<Completion> {
    let table = PieceTable::of(source, rules, filter);
    let (target, template_cards) = (table.map(|t| t.target), table.and_then(|t| t.template));
    let max_len = req.complete_max_len.unwrap_or(u32::MAX);
    let asked = match req.complete.as_deref() {
        None | Some("template" | "pairs" | "none") => req.complete.as_deref(),
        Some(other) => {
            return Err(Error::bad_with(
                "complete",
                format!(" '{other}': expected template, pairs or none"),
            ));
        }
    };
    let complete = match (asked, target, template_cards) {
        (None, _, _) => default_completion(table, req.complete_max_len),
        (Some("none"), _, _) => Completion::None,
        (Some(mode), None, _) => {
            return Err(Error::bad_with(
                "complete",
                message!(
                    " {}: pieces fill two-player decks of four jacks played with the standard \
                     penalties, not {} with {} players; use --complete none",
                    mode,
                    source.deck(),
                    source.players()
                ),
            ));
        }
        (Some("template"), Some(_), Some(cards)) => Completion::Template(cards),
        (Some("pairs"), Some(_), _) => Completion::Pairs(max_len),
        (Some(_), Some(_), _) => {
            return Err(Error::bad_with(
                "complete",
                message!(
                    " template: the test template (`--J {} J TEST J- / J-`) does not fit in \
                     the deck {}; use --complete pairs or none",
                    bmn_pieces::DEFAULT_FILTER,
                    source.deck()
                ),
            ));
        }
    };
    if req.complete_max_len.is_some() && !matches!(complete, Completion::Pairs(_)) {
        return Err(Error::bad_with(
            "complete_max_len",
            message!(
                ": it bounds --complete pairs, and this run completes with {}",
                complete.name()
            ),
        ));
    }
    Ok(complete)
}

/// Runs the factory a request asks for (see [`run`]).
pub fn factory(req: &FactoryRequest, job: &mut Job) -> Result<FactoryReport> {
    run(&FactoryPlan::try_from(req)?, job)
}

/// Runs the factory: `stop` (e.g. set by Ctrl-C) ends it after the round under way, with what
/// it found reported as interrupted.
pub fn run(plan: &FactoryPlan, job: &mut Job) -> Result<FactoryReport> {
    Ok(report(plan, &play(plan, job)?))
}

/// [`run`] less the report: what the factory found, as values (the census reads its cycles).
pub(crate) fn play(plan: &FactoryPlan, job: &mut Job) -> Result<FactoryRun> {
    let limits = RoundLimits {
        rounds: plan.rounds,
        time: plan.time,
    };
    let source = &plan.source;
    let mut file;
    let keep: &mut dyn KeepPieces = match &plan.pool {
        Some(path) => {
            file = PoolFile {
                path,
                kept: plan.kept_pieces()?,
            };
            &mut file
        }
        None => &mut (),
    };
    let found = bmn_climb::factory::run(&plan.config, source, limits, plan.threads, keep, job);
    found.map_err(|e| match e {
        FactoryError::NoSeeds => Error::failed(message!(
            "no game that never ends was found at this table to start from ({} {} players); \
             try more --seeds",
            source.deck(),
            source.players()
        )),
        FactoryError::Pieces(e) => Error::failed_from(e),
        FactoryError::Keep(why) => {
            Error::failed(message!("cannot keep the pieces (--pool): {}", why))
        }
    })
}

fn report(plan: &FactoryPlan, found: &FactoryRun) -> FactoryReport {
    let c = &found.catalogue;
    let catalogue = c.listing();
    let completed = &found.completed;
    let mode = found.completion.name();
    let template = matches!(found.completion, Completion::Template(_));
    let completions: Vec<CompletionFound> = completed.completions.clone();
    FactoryReport {
        seed: plan.config.seed,
        deck: plan.source.deck().to_string(),
        players: plan.source.players(),
        penalties: plan.config.rules.penalties.to_string(),
        on_empty: plan.config.rules.on_empty.to_string(),
        seeds_from: found.seeds_from.name(),
        seeds: found.seeds,
        completion_mode: mode,
        completion: completions.first().filter(|_| template).cloned(),
        completions,
        completions_searched: completed.searched,
        grow_prefixes: completed.grow_prefixes.clone(),
        grown: completed.grown.clone(),
        rounds: c.round,
        evals: c.evals,
        endless_count: c.endless,
        elapsed_seconds: found.elapsed.as_secs_f64(),
        distinct_cycle_count: c.cycles.len(),
        balanced_cycles: catalogue.len(),
        balanced_deals: catalogue.iter().map(|l| l.entry.balanced_count).sum(),
        catalogue,
        periods: c.periods(),
        closeness: c.closeness(),
        closest: found.closest.clone(),
        interrupted: found.interrupted,
    }
}

impl crate::Report for FactoryReport {
    fn text(&self) -> String {
        let mut t = String::new();
        let _ = writeln!(
            t,
            "table:   {}, {} players; {} endless games to start from ({}), seed {}",
            self.deck, self.players, self.seeds, self.seeds_from, self.seed
        );
        if let Some(c) = &self.completion {
            let _ = writeln!(
                t,
                "filled:  the template's completion {}: {} piece(s) {}, {} endless deck(s)",
                c.composition,
                c.pieces.len(),
                c.pieces.join(" "),
                c.decks
            );
        } else if self.completion_mode == "pairs" {
            let found: Vec<String> = self
                .completions
                .iter()
                .map(|c| format!("{} ({} decks)", c.pieces.join(" "), c.decks))
                .collect();
            let _ = writeln!(
                t,
                "filled:  {} completion(s) of pairs of pieces searched, {} with pieces{}{}",
                self.completions_searched,
                self.completions.len(),
                if found.is_empty() { "" } else { ": " },
                found.join(", ")
            );
        }
        let _ = writeln!(
            t,
            "walks:   {} rounds, {} edits played, {} never end ({:.1} s)",
            self.rounds, self.evals, self.endless_count, self.elapsed_seconds
        );
        let _ = writeln!(
            t,
            "cycles:  {} distinct; {} with balanced deals ({} balanced deals, player 1 leading); \
             closest to balance: {}",
            self.distinct_cycle_count,
            self.balanced_cycles,
            self.balanced_deals,
            self.closest.last().map_or_else(
                || "none yet (no cycle catalogued)".to_string(),
                |n| format!("{n} card(s) away")
            )
        );
        for Listed {
            entry: c,
            kinship,
            relative_of,
        } in &self.catalogue
        {
            let (example, preperiod) = &c.balanced[0];
            let _ = writeln!(
                t,
                "  cycle {}: period {} ({} cards), {} balanced, {}{}: {example} (preperiod {})",
                c.cycle_id,
                plural(c.period.tricks, "trick"),
                c.period.cards,
                c.balanced_count,
                kinship.name(),
                relative_of.map(|r| format!(" of {r}")).unwrap_or_default(),
                plural(preperiod.tricks, "trick")
            );
        }
        t
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A request that says nothing asks for the default plan: 200 rounds of the pipeline's
    /// defaults, the template's completion at the standard table.
    #[test]
    fn an_empty_request_is_the_default_plan() {
        let plan = FactoryPlan::try_from(&FactoryRequest::default()).unwrap();
        assert_eq!((plan.rounds, plan.time), (Some(DEFAULT_ROUNDS), None));
        let (c, d) = (&plan.config, FactoryConfig::default());
        assert_eq!(
            (c.seed, c.walkers, c.neighbours),
            (DEFAULT_SEED, d.walkers, d.neighbours)
        );
        assert_eq!(
            (c.basin_limit, c.seeds, c.grow),
            (d.basin_limit, d.seeds, d.grow)
        );
        assert!(matches!(c.completion, Some(Completion::Template(_))));
        // At a table pieces do not fill, nothing to complete.
        let req = FactoryRequest {
            table: crate::input::TableRules {
                players: crate::flags::PlayersArg { players: Some(3) },
                ..Default::default()
            },
            time: TimeArg::of("2"),
            ..FactoryRequest::default()
        };
        let plan = FactoryPlan::try_from(&req).unwrap();
        assert_eq!(plan.config.completion, Some(Completion::None));
        assert_eq!(
            (plan.rounds, plan.time),
            (None, Some(Duration::from_secs(2)))
        );
        let zero = FactoryRequest {
            walk: WalkArgs {
                walkers: Some(0),
                ..WalkArgs::default()
            },
            ..req
        };
        assert_eq!(
            FactoryPlan::try_from(&zero).unwrap_err().to_string(),
            "bad --walkers: must be at least 1"
        );
    }
}
