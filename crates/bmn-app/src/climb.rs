//! `climb`: local search over standard two-player deals for long games, durable like a search
//! (ledger, `--resume`), reproducible from the seed whatever the thread count.

use std::fmt::Write as _;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use bmn_climb::climb::{Accept, ClimbConfig, ClimbState, Endless, Found, Objective, Point};
use bmn_climb::{Cards, Evaluator, MoveSet};
use bmn_core::{Deck, Rules};
use bmn_run::{LedgerChoice, Recorder, RunFile};
use bmn_search::{DealSource, Summary};
use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};
use crate::input::{self, DEFAULT_SEED};
use crate::observer::Observer;

/// The format of a climb's ledger rows.
pub const FORMAT: &str = "bmn-climb-1";

/// Rounds without a new best before a walker restarts: short climbs from many random deals
/// measured best (docs/results.md, Part 6).
pub const DEFAULT_RESTART: u32 = 5;

/// Evaluations when neither `--evals` nor `--time` is given.
pub const DEFAULT_EVALS: u64 = 10_000_000;

/// What to climb.
#[derive(Clone, Debug, Default)]
pub struct ClimbRequest {
    pub seed: Option<u64>,
    pub time: Option<String>,
    pub evals: Option<u64>,
    pub threads: Option<usize>,
    /// Deals to start from (deal text, or `#K`).
    pub starts: Vec<String>,
    pub top: Option<usize>,
    pub ledger: LedgerChoice,
    pub balanced: bool,
    /// `cards` or `tricks`.
    pub by: Option<String>,
    pub walkers: Option<usize>,
    pub neighbours: Option<usize>,
    pub moves: Option<String>,
    pub accept: Option<String>,
    pub restart: Option<u32>,
    pub temperature: Option<f64>,
    pub cooling: Option<f64>,
}

/// Everything a climb's result depends on (a resumed climb must match it).
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
pub struct ClimbParams {
    pub seed: u64,
    pub balanced: bool,
    pub by: String,
    pub walkers: usize,
    pub neighbours: usize,
    pub moves: String,
    pub accept: String,
    pub restart: u32,
    pub temperature: f64,
    pub cooling: f64,
    pub top: usize,
    pub starts: Vec<String>,
    /// Rounds in the whole climb (0: until the time runs out).
    pub rounds: u64,
}

/// A climb's answer.
#[derive(Serialize, Clone, Debug)]
pub struct ClimbReport {
    /// The longest game found.
    pub best: Option<GameJson>,
    /// The longest games found, best first.
    pub longest: Vec<GameJson>,
    pub evals: u64,
    pub rounds: u64,
    pub evals_per_second: f64,
    pub elapsed_seconds: f64,
    /// Each new best: when it was found and how long it plays.
    pub trajectory: Vec<Point>,
    /// Deprecated: `endless_list`.
    pub endless: Vec<Endless>,
    /// Games found that never end.
    pub endless_list: Vec<Endless>,
    pub seed: u64,
    pub by: String,
    pub accept: String,
    pub moves: String,
    pub walkers: usize,
    pub neighbours: usize,
    /// Deprecated: `balanced_by_kind`.
    pub balanced: bool,
    /// Only deals where every player holds the same number of each kind (`--balanced`).
    pub balanced_by_kind: bool,
    pub threads: usize,
    pub interrupted: bool,
    /// Deprecated: `engine`.
    pub kernel: &'static str,
    /// The kernel that played the evaluations.
    pub engine: &'static str,
}

/// A game: `{"deal","leader","cards","tricks","winner","eval"}`.
#[derive(Serialize, Clone, Debug)]
pub struct GameJson {
    pub deal: String,
    pub leader: usize,
    pub cards: u64,
    pub tricks: u64,
    pub winner: usize,
    /// The evaluation that found it.
    pub eval: u64,
}

impl From<&Found> for GameJson {
    fn from(f: &Found) -> GameJson {
        GameJson {
            deal: f.deal.clone(),
            leader: 1,
            cards: f.cards,
            tricks: f.tricks,
            winner: f.winner,
            eval: f.eval,
        }
    }
}

fn config(req: &ClimbRequest) -> Result<(ClimbConfig, ClimbParams)> {
    let source = DealSource::new(Deck::STANDARD, req.balanced)
        .map_err(|e| Error::bad("bad --balanced", e))?;
    let mut starts = Vec::new();
    for text in &req.starts {
        let position = input::deal(text, 1, Some("standard"), Some(2))
            .map_err(|e| Error::input(format!("bad --start: {e}")))?;
        let cards = Cards::of(&position).expect("player 1 leads");
        if cards.sizes != [26, 26] {
            return Err(Error::input(format!(
                "bad --start {text}: a climb starts from 26/26 deals"
            )));
        }
        if req.balanced && cards.kinds()[0] != cards.kinds()[1] {
            return Err(Error::input(format!(
                "bad --start {text}: with --balanced both hands hold the same kinds"
            )));
        }
        starts.push(cards);
    }
    let moves_text = req.moves.clone().unwrap_or_else(|| "swap".into());
    let moves = MoveSet::parse(&moves_text).map_err(|e| Error::bad("bad --moves", e))?;
    if moves.0.contains(&bmn_climb::Move::Transfer) {
        return Err(Error::input(
            "bad --moves: a climb keeps 26/26 deals; transfer changes the hands' sizes",
        ));
    }
    let accept_text = req.accept.clone().unwrap_or_else(|| "hill".into());
    let accept = Accept::parse(&accept_text).ok_or_else(|| {
        Error::input(format!(
            "bad --accept '{accept_text}': hill, anneal or population"
        ))
    })?;
    let by_text = req.by.clone().unwrap_or_else(|| "cards".into());
    let objective = Objective::parse(&by_text)
        .ok_or_else(|| Error::input(format!("bad --by '{by_text}': cards or tricks")))?;
    let walkers = req.walkers.unwrap_or(16);
    let neighbours = req.neighbours.unwrap_or(32);
    if walkers == 0 || neighbours == 0 {
        return Err(Error::input(
            "bad --walkers or --neighbours: at least 1 each",
        ));
    }
    let temperature = req.temperature.unwrap_or(200.0);
    let cooling = req.cooling.unwrap_or(0.995);
    if !(temperature > 0.0 && cooling > 0.0 && cooling <= 1.0) {
        return Err(Error::input(
            "bad --temperature or --cooling: a positive temperature, a cooling factor in (0, 1]",
        ));
    }
    let c = ClimbConfig {
        seed: req.seed.unwrap_or(DEFAULT_SEED),
        walkers,
        neighbours,
        moves,
        accept,
        objective,
        balanced: req.balanced,
        restart_after: req.restart.unwrap_or(DEFAULT_RESTART).max(1),
        temperature,
        cooling,
        top: req.top.unwrap_or(10).max(1),
        starts,
        source,
    };
    let params = ClimbParams {
        seed: c.seed,
        balanced: c.balanced,
        by: by_text,
        walkers,
        neighbours,
        moves: c.moves.to_string(),
        accept: accept_text,
        restart: c.restart_after,
        temperature,
        cooling,
        top: c.top,
        starts: c.starts.iter().map(Cards::text).collect(),
        rounds: 0,
    };
    Ok((c, params))
}

/// The state a climb recorded (a ledger row's `state`), read back for `--resume` and checked
/// against the climb it goes on with: a corrupt or edited row is an error, not a panic later.
pub fn read_state(saved: &serde_json::Value, config: &ClimbConfig) -> Result<ClimbState> {
    let state: ClimbState = serde_json::from_value(saved.clone())
        .map_err(|e| Error::Failed(format!("the recorded climb cannot be read: {e}")))?;
    state
        .check(config)
        .map_err(|e| Error::Failed(format!("the recorded climb cannot be resumed: {e}")))?;
    Ok(state)
}

/// Climbs until `--evals` are spent (whole rounds), `--time` is up, or `stop` is set; the
/// state is recorded every second and at the end, and `--resume` goes on from it.
pub fn climb(
    req: &ClimbRequest,
    observer: &mut dyn Observer,
    stop: &AtomicBool,
) -> Result<ClimbReport> {
    let (config, mut params) = config(req)?;
    let time_limit = req.time.as_deref().map(input::duration).transpose()?;
    let threads = input::threads(req.threads)?;
    let per_round = (config.walkers * config.neighbours) as u64;
    let rounds = match (req.evals, time_limit) {
        (Some(0), _) => return Err(Error::input("bad --evals: must be at least 1")),
        (Some(n), _) => Some(n.div_ceil(per_round)),
        (None, Some(_)) => None,
        (None, None) => Some(DEFAULT_EVALS.div_ceil(per_round)),
    };
    params.rounds = rounds.unwrap_or(0);
    let template = RunFile {
        format: FORMAT.into(),
        params,
        shard: "1/1".into(),
        range: [0, 0],
        total: 0,
        block: None,
        units: [0, rounds.unwrap_or(u64::MAX)],
        next_unit: 0,
        summary: Summary::new(0),
        state: None,
        checksum: String::new(),
    };
    let opened = Recorder::open(template, &req.ledger, None, |old, new| {
        if old.same_run(new) {
            Ok(())
        } else {
            Err("another climb".into())
        }
    })?;
    if let Some(w) = &opened.warning {
        observer.warning(w);
    }
    let mut recorder = opened.recorder;
    let mut state = match opened.start.state.as_ref() {
        Some(saved) => {
            let s = read_state(saved, &config)?;
            observer.note(&format!(
                "resuming at round {} ({} evaluations done)",
                s.round, s.evals
            ));
            s
        }
        None => ClimbState::new(&config),
    };
    let evaluator = Evaluator::new(Rules::STANDARD);
    let started = Instant::now();
    let first_evals = state.evals;
    observer.start(rounds.map(|r| r * per_round), state.evals, "evaluations");
    let save = |recorder: &mut Recorder<ClimbParams>, state: &ClimbState, seconds: f64| {
        let mut s = state.clone();
        s.seconds += seconds;
        let value = serde_json::to_value(&s).expect("a climb's state serializes");
        recorder.save_state(&Summary::new(0), s.round, Some(value))
    };
    let mut interrupted = false;
    while rounds.is_none_or(|r| state.round < r) {
        if stop.load(Ordering::Relaxed) {
            interrupted = true;
            break;
        }
        if time_limit.is_some_and(|t| started.elapsed() >= t) {
            break;
        }
        let seconds = started.elapsed().as_secs_f64();
        state
            .round(&config, &evaluator, threads, seconds)
            .map_err(|e| Error::Failed(e.to_string()))?;
        let message = state
            .best
            .first()
            .map(|b| format!("best {} cards, {} tricks", b.cards, b.tricks));
        if !observer.progress(state.evals, message.as_deref()) {
            interrupted = true;
            break;
        }
        if recorder.due() {
            save(&mut recorder, &state, started.elapsed().as_secs_f64())?;
        }
    }
    observer.finish();
    let elapsed = started.elapsed().as_secs_f64();
    save(&mut recorder, &state, elapsed)?;
    if interrupted && let Some(at) = recorder.describe() {
        observer.note(&format!(
            "interrupted: recorded as {at}; run the same command with --resume to go on"
        ));
    }
    Ok(ClimbReport {
        best: state.best.first().map(GameJson::from),
        longest: state.best.iter().map(GameJson::from).collect(),
        evals: state.evals,
        rounds: state.round,
        evals_per_second: (state.evals - first_evals) as f64 / elapsed.max(1e-9),
        elapsed_seconds: state.seconds + elapsed,
        trajectory: state.trajectory.clone(),
        endless: state.endless.clone(),
        endless_list: state.endless.clone(),
        seed: config.seed,
        by: config.objective.name().into(),
        accept: config.accept.name().into(),
        moves: config.moves.to_string(),
        walkers: config.walkers,
        neighbours: config.neighbours,
        balanced: config.balanced,
        balanced_by_kind: config.balanced,
        threads,
        interrupted,
        kernel: evaluator.kernel.name(),
        engine: evaluator.kernel.name(),
    })
}

impl crate::Report for ClimbReport {
    fn text(&self) -> String {
        let mut t = String::new();
        let _ = writeln!(
            t,
            "climb:   {} evaluations in {} rounds ({} walkers x {} neighbours, {} moves, {} acceptance{}), seed {}",
            self.evals,
            self.rounds,
            self.walkers,
            self.neighbours,
            self.moves,
            self.accept,
            if self.balanced {
                ", balanced deals"
            } else {
                ""
            },
            self.seed
        );
        if self.evals_per_second == 0.0 && !self.interrupted {
            let _ = writeln!(t, "speed:   {}", crate::ALREADY_FINISHED);
        } else {
            let _ = writeln!(
                t,
                "speed:   {:.3} M evaluations/s ({:.2} s, {} thread(s), {} kernel)",
                self.evals_per_second / 1e6,
                self.elapsed_seconds,
                self.threads,
                self.kernel
            );
        }
        if self.interrupted {
            let _ = writeln!(t, "interrupted: the rounds that finished are reported");
        }
        match &self.best {
            Some(b) => {
                let _ = writeln!(
                    t,
                    "best:    {} cards, {} tricks, player {} wins: {} (evaluation {})",
                    b.cards, b.tricks, b.winner, b.deal, b.eval
                );
            }
            None => {
                let _ = writeln!(t, "best:    none yet");
            }
        }
        if !self.endless.is_empty() {
            let _ = writeln!(
                t,
                "endless: {} game(s) that never end, the first {}",
                self.endless.len(),
                self.endless[0].deal
            );
        }
        for (i, g) in self.longest.iter().enumerate().skip(1) {
            let _ = writeln!(
                t,
                "  {:>2}. {} cards, {} tricks, player {} wins: {}",
                i + 1,
                g.cards,
                g.tricks,
                g.winner,
                g.deal
            );
        }
        t
    }
}
