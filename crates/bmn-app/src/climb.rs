//! `climb`: local search over standard two-player deals for long games, durable like a search
//! (ledger, `--resume`), reproducible from the seed whatever the thread count.

use std::fmt::Write as _;
use std::time::{Duration, Instant};

use bmn_climb::climb::{Accept, BestGame, ClimbConfig, ClimbState, Endless, Objective, Point};
use bmn_climb::{Cards, Evaluator, MoveSet, RoundLimits, Rounds, run_rounds};
use bmn_core::{Deck, Rules};
use bmn_job::Job;
use bmn_kernel::{Choice, Kernel};
use bmn_params::message;
use bmn_run::{LedgerChoice, Recorder, RunFile};
use bmn_search::{DealSource, Engine};
use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};
use crate::flags::{LedgerArgs, TopArg};
use crate::input::{self, DEFAULT_SEED, TimeArg};
use crate::seeded::SeededArgs;
use crate::walk::{Walk, WalkArgs};

/// The format of a climb's ledger rows: a `RunFile` whose `summary` is the climb's state
/// (`bmn-climb-1` rows kept it in a `state` field beside a search's empty summary, and are
/// refused).
pub const FORMAT: &str = "bmn-climb-2";

/// Rounds without a new best before a walker restarts: short climbs from many random deals
/// measured best (docs/results.md, Part 6).
pub const DEFAULT_RESTART: u32 = 5;

/// Evaluations when neither `--evals` nor `--time` is given.
pub const DEFAULT_EVALS: u64 = 10_000_000;

/// What to climb: `bmn climb`'s parameters.
#[derive(clap::Args, Clone, Debug, Default)]
#[command(
    mut_arg("walkers", |a| a.help("Walkers climbing at once [default: 16]")),
    mut_arg("neighbours", |a| a.help("Neighbours each walker plays per round [default: 32]")),
    mut_arg("moves", |a| a.help(CLIMB_MOVES)),
)]
pub struct ClimbRequest {
    #[command(flatten)]
    pub run: SeededArgs,
    #[command(flatten)]
    pub time: TimeArg,
    /// Evaluations (games played) in all, whole rounds [default: 10000000 unless --time].
    #[arg(long, value_name = "N", conflicts_with = "time")]
    pub evals: Option<u64>,
    /// Start from these deals (deal text, #K) or from the deals in FILE (one per line, or a
    /// `bmn search --json` report, whose longest games are taken); random deals otherwise.
    /// Repeat it for several.
    #[arg(long, value_name = "FILE|DEAL", allow_hyphen_values = true)]
    pub start: Vec<String>,
    #[command(flatten)]
    pub top: TopArg,
    #[command(flatten)]
    pub ledger: LedgerArgs,
    /// Balanced deals: both hands hold the same kinds, and edits keep them so.
    #[arg(long)]
    pub balanced: bool,
    /// What a long game is: cards (default) or tricks.
    #[arg(long, value_name = "cards|tricks")]
    pub by: Option<String>,
    #[command(flatten)]
    pub walk: WalkArgs,
    /// The acceptance rule: hill (with restarts), anneal or population [default: hill].
    #[arg(long, value_name = "RULE")]
    pub accept: Option<String>,
    /// Rounds without a new best of its own before a walker restarts [default: 5].
    #[arg(long, value_name = "R")]
    pub restart: Option<u32>,
    /// Annealing's starting temperature, in the objective's units [default: 200].
    #[arg(long, value_name = "T")]
    pub temperature: Option<f64>,
    /// Annealing's cooling factor per round [default: 0.995].
    #[arg(long, value_name = "C")]
    pub cooling: Option<f64>,
}

const CLIMB_MOVES: &str =
    "The edits: swap, shift, cut, exchange, mixed, or a list such as swap,cut [default: swap]";

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
    pub best: Option<BestGame>,
    /// The longest games found, best first.
    pub longest: Vec<BestGame>,
    pub evals: u64,
    pub rounds: u64,
    pub evals_per_second: f64,
    pub elapsed_seconds: f64,
    /// Each new best: when it was found and how long it plays.
    pub trajectory: Vec<Point>,
    /// Games found that never end.
    pub endless_list: Vec<Endless>,
    pub seed: u64,
    pub by: String,
    pub accept: String,
    pub moves: String,
    pub walkers: usize,
    pub neighbours: usize,
    /// Only deals where every player holds the same number of each kind (`--balanced`).
    pub balanced_by_kind: bool,
    pub threads: usize,
    pub interrupted: bool,
    /// The kernel that played the evaluations.
    pub engine: &'static str,
}

/// A climb, validated: what [`run`] plays, made by `TryFrom` (which reads the cores);
/// [`ClimbPlan::default_config`] holds the walk's defaults.
#[derive(Clone, Debug)]
pub struct ClimbPlan {
    /// The walkers, their moves and acceptance, the starts.
    pub config: ClimbConfig,
    /// Evaluations in all, in whole rounds; `None`: until `time` is up.
    pub evals: Option<u64>,
    /// Stop when this much time has passed, after whole rounds.
    pub time: Option<Duration>,
    pub threads: usize,
    pub ledger: LedgerChoice,
}

impl ClimbPlan {
    /// The walk a request that says nothing asks for.
    pub fn default_config() -> ClimbConfig {
        ClimbConfig {
            seed: DEFAULT_SEED,
            walkers: 16,
            neighbours: 32,
            moves: MoveSet::parse("swap").expect("a move"),
            accept: Accept::Hill,
            objective: Objective::Cards,
            balanced: false,
            restart_after: DEFAULT_RESTART,
            temperature: 200.0,
            cooling: 0.995,
            top: 10,
            starts: Vec::new(),
            source: DealSource::new(Deck::STANDARD, false).expect("the standard deck deals"),
        }
    }
}

/// `--start FILE|DEAL...`: deals given as they are, or read from a file (one per line, `#`
/// comments; or a `bmn search --json` report, whose longest games are taken).
fn start_deals(values: &[String]) -> Result<Vec<String>> {
    let bad = |v: &str, why: String| Error::bad_with("start", format!(" {v}: {why}"));
    let mut deals = Vec::new();
    for v in values {
        let path = std::path::Path::new(v);
        if !v.starts_with('#') && path.is_file() {
            let text =
                std::fs::read_to_string(path).map_err(|e| bad(v, e.to_string()).caused_by(e))?;
            let before = deals.len();
            if let Ok(report) = serde_json::from_str::<serde_json::Value>(&text)
                && let Some(longest) = report["longest"].as_array()
            {
                deals.extend(
                    longest
                        .iter()
                        .filter_map(|g| g["deal"].as_str().map(String::from)),
                );
            } else {
                deals.extend(
                    text.lines()
                        .map(str::trim)
                        .filter(|l| !l.is_empty() && !l.starts_with('#'))
                        .map(String::from),
                );
            }
            // A file that gives no deal is a mistake, not a request to start at random.
            if deals.len() == before {
                return Err(Error::bad_with(
                    "start",
                    message!(
                        " {}: the file holds no deal (one a line, `#` comments, or the --json of \
                         `bmn search`, whose longest games are taken)",
                        v
                    ),
                ));
            }
        } else if path.is_dir() {
            return Err(bad(v, "is a folder; name a file of deals in it".into()));
        } else if v.starts_with('/')
            || v.starts_with("./")
            || v.ends_with(".json")
            || v.ends_with(".txt")
        {
            // A path, not a deal (no deal starts with an empty first hand or ends so).
            return Err(bad(v, "no such file".into()));
        } else {
            deals.push(v.clone());
        }
    }
    Ok(deals)
}

impl TryFrom<&ClimbRequest> for ClimbPlan {
    type Error = Error;

    fn try_from(req: &ClimbRequest) -> Result<Self> {
        let d = ClimbPlan::default_config();
        let source =
            DealSource::new(Deck::STANDARD, req.balanced).map_err(|e| Error::bad("balanced", e))?;
        let mut starts = Vec::new();
        for text in &start_deals(&req.start)? {
            let position = input::deal(text, None, Some("standard"), Some(2))
                .map_err(|e| Error::bad_with("start", format!(": {e}")))?;
            let cards = Cards::of(&position).expect("player 1 leads");
            if cards.sizes != [26, 26] {
                return Err(Error::bad_with(
                    "start",
                    format!(" {text}: a climb starts from 26/26 deals"),
                ));
            }
            if req.balanced && cards.kinds()[0] != cards.kinds()[1] {
                return Err(Error::bad_with(
                    "start",
                    message!(" {}: with --balanced both hands hold the same kinds", text),
                ));
            }
            starts.push(cards);
        }
        let Walk {
            walkers,
            neighbours,
            moves,
        } = req.walk.walk(Walk {
            walkers: d.walkers,
            neighbours: d.neighbours,
            moves: d.moves.clone(),
        })?;
        if moves.0.contains(&bmn_climb::Move::Transfer) {
            return Err(Error::bad_with(
                "moves",
                ": a climb keeps 26/26 deals; transfer changes the hands' sizes",
            ));
        }
        let accept = match &req.accept {
            Some(text) => Accept::parse(text).ok_or_else(|| {
                Error::bad_with("accept", format!(" '{text}': hill, anneal or population"))
            })?,
            None => d.accept,
        };
        let objective = match &req.by {
            Some(text) => Objective::parse(text)
                .ok_or_else(|| Error::bad_with("by", format!(" '{text}': cards or tricks")))?,
            None => d.objective,
        };
        let temperature = req.temperature.unwrap_or(d.temperature);
        let cooling = req.cooling.unwrap_or(d.cooling);
        if !(temperature > 0.0 && cooling > 0.0 && cooling <= 1.0) {
            return Err(Error::input(message!(
                "bad --temperature or --cooling: a positive temperature, a cooling factor in (0, 1]"
            )));
        }
        let (evals, time) = req
            .time
            .with_count(req.evals, "evals", Some(DEFAULT_EVALS))?;
        let run = req.run.resolve()?;
        Ok(ClimbPlan {
            config: ClimbConfig {
                seed: run.seed,
                walkers,
                neighbours,
                moves,
                accept,
                objective,
                balanced: req.balanced,
                restart_after: input::or_default(req.restart, d.restart_after, "restart")?,
                temperature,
                cooling,
                top: input::or_default(req.top.top, d.top, "top")?,
                starts,
                source,
            },
            evals,
            time,
            threads: run.threads,
            ledger: req.ledger.choice(),
        })
    }
}

impl ClimbPlan {
    /// Rounds in the whole climb, enough for its evaluations (`None`: until the time is up).
    pub fn rounds(&self) -> Option<u64> {
        self.evals.map(|n| n.div_ceil(self.evals_per_round()))
    }

    /// Evaluations in one round: every walker tries each of its neighbours.
    pub fn evals_per_round(&self) -> u64 {
        (self.config.walkers * self.config.neighbours) as u64
    }

    /// What the climb's result depends on, as its ledger row keeps it.
    pub fn params(&self) -> ClimbParams {
        let c = &self.config;
        ClimbParams {
            seed: c.seed,
            balanced: c.balanced,
            by: c.objective.name().into(),
            walkers: c.walkers,
            neighbours: c.neighbours,
            moves: c.moves.to_string(),
            accept: c.accept.name().into(),
            restart: c.restart_after,
            temperature: c.temperature,
            cooling: c.cooling,
            top: c.top,
            starts: c.starts.iter().map(Cards::text).collect(),
            rounds: self.rounds().unwrap_or(0),
        }
    }
}

/// A recorded state (a ledger row's `summary`, read back for `--resume`) checked against the
/// climb it goes on with: a corrupt or edited row is an error, not a panic later.
pub fn check_state(state: ClimbState, config: &ClimbConfig) -> Result<ClimbState> {
    state
        .check(config)
        .map_err(|e| Error::failed(format!("the recorded climb cannot be resumed: {e}")))?;
    Ok(state)
}

/// A climb's state as JSON, read and checked (see [`check_state`]).
pub fn read_state(saved: &serde_json::Value, config: &ClimbConfig) -> Result<ClimbState> {
    let state: ClimbState = serde_json::from_value(saved.clone())
        .map_err(|e| Error::failed(format!("the recorded climb cannot be read: {e}")))?;
    check_state(state, config)
}

/// Climbs as a request asks (see [`run`]).
pub fn climb(req: &ClimbRequest, job: &mut Job) -> Result<ClimbReport> {
    run(&ClimbPlan::try_from(req)?, job)
}

/// Where a climb records itself.
type ClimbRecorder = Recorder<ClimbParams, ClimbState>;

/// Records `state` with the seconds of this session (`seconds`) added to those before.
fn save(recorder: &mut ClimbRecorder, state: &ClimbState, seconds: f64) -> Result<()> {
    let mut s = state.clone();
    s.seconds += seconds;
    Ok(recorder.save(&s, s.round)?)
}

/// A climb's rounds, as the round driver plays them: a round, then progress and a save
/// every second.
struct Climbing<'a> {
    config: &'a ClimbConfig,
    evaluator: &'a Evaluator,
    threads: usize,
    state: ClimbState,
    recorder: ClimbRecorder,
    started: Instant,
}

impl Rounds for Climbing<'_> {
    type Error = Error;

    fn done(&self) -> u64 {
        self.state.round
    }

    fn play(&mut self, elapsed: Duration, _: &mut Job) -> Result<()> {
        self.state
            .round(
                self.config,
                self.evaluator,
                self.threads,
                elapsed.as_secs_f64(),
            )
            .map_err(Error::failed_from)?;
        Ok(())
    }

    fn played(&mut self, job: &mut Job) -> Result<bool> {
        let message = self
            .state
            .best
            .first()
            .map(|b| format!("best {} cards, {} tricks", b.cards, b.tricks));
        if !job.progress(self.state.evals, message.as_deref()) {
            return Ok(false);
        }
        if self.recorder.due() {
            let seconds = self.started.elapsed().as_secs_f64();
            save(&mut self.recorder, &self.state, seconds)?;
        }
        Ok(true)
    }
}

/// Climbs until the plan's evaluations are spent (whole rounds), its time is up, or the job
/// stops; the state is recorded every second and at the end, and `--resume` goes on from it.
pub fn run(plan: &ClimbPlan, job: &mut Job) -> Result<ClimbReport> {
    let config = &plan.config;
    let threads = plan.threads;
    let rounds = plan.rounds();
    let template = RunFile {
        format: FORMAT.into(),
        params: plan.params(),
        shard: "1/1".into(),
        range: [0, 0],
        total: 0,
        block: None,
        units: [0, rounds.unwrap_or(u64::MAX)],
        next_unit: 0,
        summary: ClimbState::new(config),
        checksum: String::new(),
    };
    let opened = Recorder::open(template, &plan.ledger, None, |old, new| {
        if old.same_run(new) {
            Ok(())
        } else {
            Err("another climb".into())
        }
    })?;
    if let Some(w) = &opened.warning {
        job.warning(&crate::error::not_recording(w));
    }
    // A recorded state is taken only past round 0: otherwise the start is the template's.
    let state = if opened.start.next_unit > 0 {
        let s = check_state(opened.start.summary, config)?;
        job.note(&format!(
            "resuming at round {} ({} evaluations done)",
            s.round, s.evals
        ));
        s
    } else {
        opened.start.summary
    };
    let evaluator = Evaluator::new(Rules::STANDARD);
    let started = Instant::now();
    let first_evals = state.evals;
    job.start(
        rounds.map(|r| r * plan.evals_per_round()),
        state.evals,
        "evaluations",
    );
    let mut climbing = Climbing {
        config,
        evaluator: &evaluator,
        threads,
        state,
        recorder: opened.recorder,
        started,
    };
    let limits = RoundLimits {
        rounds,
        time: plan.time,
    };
    let ended = run_rounds(&mut climbing, limits, started, job)?;
    let Climbing {
        state,
        mut recorder,
        ..
    } = climbing;
    let interrupted = ended.interrupted();
    job.finish();
    let elapsed = started.elapsed().as_secs_f64();
    save(&mut recorder, &state, elapsed)?;
    if interrupted && let Some(at) = recorder.describe() {
        job.note(&format!(
            "interrupted: recorded as {at}; run the same command with --resume to go on"
        ));
    }
    Ok(ClimbReport {
        best: state.best.first().cloned(),
        longest: state.best.clone(),
        evals: state.evals,
        rounds: state.round,
        evals_per_second: (state.evals - first_evals) as f64 / elapsed.max(1e-9),
        elapsed_seconds: state.seconds + elapsed,
        trajectory: state.trajectory.clone(),
        endless_list: state.endless.clone(),
        seed: config.seed,
        by: config.objective.name().into(),
        accept: config.accept.name().into(),
        moves: config.moves.to_string(),
        walkers: config.walkers,
        neighbours: config.neighbours,
        balanced_by_kind: config.balanced,
        threads,
        interrupted,
        engine: Engine::kernel_for(Choice::Fastest, &Deck::STANDARD, evaluator.max_tricks)
            .map_or("reference", Kernel::name),
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
            if self.balanced_by_kind {
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
                self.engine
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
        if !self.endless_list.is_empty() {
            let _ = writeln!(
                t,
                "endless: {} game(s) that never end, the first {}",
                self.endless_list.len(),
                self.endless_list[0].deal
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

#[cfg(test)]
mod tests {
    use super::*;

    /// A request that says nothing is the default plan, and its defaults are the documented
    /// ones (`bmn climb --help`).
    #[test]
    fn an_empty_request_is_the_default_plan() {
        let plan = ClimbPlan::try_from(&ClimbRequest::default()).unwrap();
        let default = ClimbPlan {
            config: ClimbPlan::default_config(),
            evals: Some(DEFAULT_EVALS),
            time: None,
            threads: 1,
            ledger: LedgerChoice::default(),
        };
        assert_eq!(plan.params(), default.params());
        assert_eq!((plan.evals, plan.time), (Some(DEFAULT_EVALS), None));
        let c = &plan.config;
        assert_eq!((c.walkers, c.neighbours, c.top), (16, 32, 10));
        assert_eq!(
            (c.restart_after, c.temperature, c.cooling),
            (5, 200.0, 0.995)
        );
        assert_eq!(plan.rounds(), Some(DEFAULT_EVALS.div_ceil(512)));
    }

    #[test]
    fn a_time_alone_climbs_until_it_is_up_in_seconds_or_text() {
        for time in ["90", "90s"] {
            let req = ClimbRequest {
                time: TimeArg::of(time),
                walk: WalkArgs {
                    walkers: Some(0),
                    ..WalkArgs::default()
                },
                ..ClimbRequest::default()
            };
            assert!(ClimbPlan::try_from(&req).is_err(), "walkers 0 is refused");
            let req = ClimbRequest {
                walk: WalkArgs {
                    walkers: Some(4),
                    ..WalkArgs::default()
                },
                ..req
            };
            let plan = ClimbPlan::try_from(&req).unwrap();
            assert_eq!(plan.time, Some(Duration::from_secs(90)));
            assert_eq!((plan.evals, plan.rounds()), (None, None));
            assert_eq!(plan.params().rounds, 0);
        }
        let bad = ClimbRequest {
            time: TimeArg::of("-1"),
            ..ClimbRequest::default()
        };
        let e = ClimbPlan::try_from(&bad).unwrap_err().to_string();
        assert!(e.starts_with("bad --time"), "{e}");
    }
}
