//! `play`: one deal to its end, its cycle, or a trick limit; its trace, its stack sizes as a
//! plot, its positions as a graph.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use bmn_core::{Game, Outcome, Position, Rules, Span};
use bmn_params::message;
use serde::Serialize;

use crate::dot;
use crate::error::{Error, Result};
use crate::flags::{DotArg, GiveUpArg, LeaderArg, PlotArg, ThreadsArg};
use crate::input::{self, TableRules};
use crate::numbers::whole;
use crate::plural;

/// Tricks after which `play` gives up on a game that neither ends nor repeats: some penalty
/// tables make games millions of tricks long, and one game may take that long.
pub const PLAY_GIVE_UP: u64 = 10_000_000;

const PLAY_DECK: &str = concat!(
    "Check that the hands hold exactly this deck: ",
    bmn_params::decks!(),
    ". Unchecked unless given (the hands hold any cards); with DEAL \"#K\" or --rank K, deal K \
     is one of this deck (standard unless given)"
);

const PLAY_PLAYERS: &str = "Check that the deal has this many hands (2 to 10); unchecked \
    unless given (as many players as the deal has hands). With DEAL \"#K\" or --rank K, deal K \
    is dealt among this many players (2 unless given)";

const PLAY_GIVE_UP_HELP: &str = "Give up on a game that has neither ended nor repeated a position \
    after this many tricks, with an error that says so (some penalty tables make games \
    millions of tricks long; --tricks K shows where it got to) [default: 10000000]";

const PLAY_THREADS: &str = "Worker threads for --deals [default: every core]. The results \
    and their order do not depend on it";

const PLAY_PLOT: &str = "Draw every player's stack size, trick by trick, into FILE (.svg or .png)";

const PLAY_DOT: &str = "Write the game's positions as a Graphviz DOT graph to FILE (render: \
    `dot -Tsvg FILE > out.svg`): one node per position, one edge per trick, the cycle in red, \
    the start outlined twice";

/// What to play: `bmn play`'s parameters (one deal, or with `deals` a file of them, which
/// `given.rs` plays).
#[derive(clap::Args, Clone, Debug, Default)]
#[command(
    mut_arg("deck", |a| a.help(PLAY_DECK)),
    mut_arg("players", |a| a.help(PLAY_PLAYERS)),
    mut_arg("give_up", |a| a.help(PLAY_GIVE_UP_HELP)),
    mut_arg("plot", |a| a.help(PLAY_PLOT)),
    mut_arg("dot", |a| a.help(PLAY_DOT)),
    mut_arg("threads", |a| a.help(PLAY_THREADS)),
)]
pub struct PlayRequest {
    /// The deal, hands separated by '/', top card first: e.g. "--K---A----AAJ-/J-". Symbols
    /// (-JQKAX), Paulhus digits 0-5, or real cards ("9C JH 10s Q♠"); "#K" is deal K of the
    /// deck (`bmn unrank`). "-" reads it from stdin.
    #[arg(allow_hyphen_values = true, required_unless_present_any = ["rank", "deals"])]
    pub deal: Option<String>,
    /// Play every deal of FILE ("-": stdin) instead, one a line in any notation DEAL takes
    /// (blank lines and # comments skipped), on the fast kernels and --threads: a table in
    /// the file's order, or with --json one JSON object a line. A file is of one deck (every
    /// deal checked against --deck, or else the first deal's cards); a bad line stops the run
    /// there, naming its line.
    #[arg(
        long,
        value_name = "FILE",
        conflicts_with_all = ["deal", "rank", "trace", "tricks", "plot", "dot"]
    )]
    pub deals: Option<PathBuf>,
    #[command(flatten)]
    pub threads: ThreadsArg,
    /// Play deal K of --deck (standard unless given) instead: the same as DEAL "#K".
    #[arg(long, value_name = "K", conflicts_with = "deal", value_parser = whole, allow_negative_numbers = true)]
    pub rank: Option<String>,
    #[command(flatten)]
    pub leader: LeaderArg,
    /// Print every position, trick by trick: `1. <stack> 2. <stack> (leader N)`.
    #[arg(long)]
    pub trace: bool,
    /// Stop after K tricks (or earlier if the game ends) and print the position reached.
    #[arg(long, value_name = "K")]
    pub tricks: Option<u64>,
    #[command(flatten)]
    pub table: TableRules,
    #[command(flatten)]
    pub plot: PlotArg,
    #[command(flatten)]
    pub dot: DotArg,
    #[command(flatten)]
    pub give_up: GiveUpArg,
}

impl PlayRequest {
    /// The position the game starts from: the deal (or deal `rank`), its leader, checked
    /// against the deck and player count when given.
    pub fn start(&self) -> Result<Position> {
        input::deal(
            &self.deal_text()?,
            self.leader.leader,
            self.table.deck.deck.as_deref(),
            self.table.players.players,
        )
    }

    /// The deal's text: `deal`, or `#K` for `rank` K.
    pub fn deal_text(&self) -> Result<String> {
        match (&self.deal, &self.rank) {
            (_, Some(k)) => Ok(format!("#{k}")),
            (Some(d), None) => Ok(d.clone()),
            (None, None) => Err(Error::bad("deal", "give one, e.g. --K---A----AAJ-/J-")),
        }
    }
}

/// What `play` found, as `--json` prints it (the keys are a contract).
#[derive(Serialize, Debug, Clone, PartialEq, Eq)]
#[serde(tag = "outcome", rename_all = "lowercase")]
pub enum PlayReport {
    Finished {
        winner: usize,
        cards: u64,
        tricks: u64,
        #[serde(skip_serializing_if = "Option::is_none")]
        trace: Option<Vec<TraceStep>>,
    },
    Cycle {
        preperiod: Span,
        period: Span,
        cycle_start: Position,
        cycle_id: String,
        /// The canonical position that names the cycle (leader rotated to player 1).
        cycle_representative: Position,
        #[serde(skip_serializing_if = "Option::is_none")]
        trace: Option<Vec<TraceStep>>,
    },
    Stopped {
        position: Position,
        cards: u64,
        tricks: u64,
        #[serde(skip_serializing_if = "Option::is_none")]
        trace: Option<Vec<TraceStep>>,
    },
}

/// One position of a trace with the totals played before it:
/// `{"deal","leader","tricks","cards"}`.
#[derive(Serialize, Debug, Clone, PartialEq, Eq)]
pub struct TraceStep {
    #[serde(flatten)]
    pub position: Position,
    #[serde(flatten)]
    pub played: Span,
}

/// One step of a replay: a card laid, or a pile taken.
#[derive(Serialize, Debug, Clone, PartialEq, Eq)]
#[serde(tag = "step", rename_all = "lowercase")]
pub enum EventJson {
    /// `player` laid `card`; after it `claim` has the claim on the pile and the next payer
    /// owes them `owed` cards (`claim` null while no penalty card is down).
    Card {
        player: usize,
        card: char,
        claim: Option<usize>,
        owed: u8,
    },
    /// `player` takes the pile of `cards` cards: the trick is over.
    Take { player: usize, cards: u64 },
}

/// The card-by-card steps of the first `tricks` tricks of `start`'s game (fewer if it ends),
/// played by the reference engine.
pub fn events(rules: &Rules, start: &Position, tricks: u64) -> Vec<EventJson> {
    let mut position = start.clone();
    let mut events = Vec::new();
    for _ in 0..tricks {
        if position.winner().is_some() {
            break;
        }
        let trick = bmn_core::play_trick_observed(rules, &mut position, |c| {
            events.push(EventJson::Card {
                player: c.player.number(),
                card: c.kind.symbol(),
                claim: c.claim.map(|(p, _)| p.number()),
                owed: c.claim.map_or(0, |(_, owed)| owed),
            });
        });
        events.push(EventJson::Take {
            player: trick.taker.number(),
            cards: trick.cards,
        });
    }
    events
}

/// How the game went: played out (to its end or its cycle) or up to a trick limit.
enum HowItWent {
    Out(Outcome),
    Bounded(Game),
}

/// A game to play, validated: the start, the rules, how far to play and what to write.
#[derive(Clone, Debug)]
pub struct PlayPlan {
    pub start: Position,
    pub rules: Rules,
    /// Stop after this many tricks; `None`: play to the end or the cycle, giving up after
    /// `give_up` tricks.
    pub tricks: Option<u64>,
    pub give_up: u64,
    pub trace: bool,
    pub plot: Option<PathBuf>,
    pub dot: Option<PathBuf>,
}

impl TryFrom<&PlayRequest> for PlayPlan {
    type Error = Error;

    fn try_from(req: &PlayRequest) -> Result<Self> {
        let rules = req.table.rules.rules()?;
        let start = req.start()?;
        if let Some(players) = req.table.players.players
            && players != start.players()
        {
            return Err(Error::input(message!(
                "bad deal: it has {} hands, but --players {}",
                start.players(),
                players
            )));
        }
        if let Some(path) = &req.plot.plot {
            input::plot_path(path)?;
        }
        if let Some(path) = &req.dot.dot {
            input::writable(path, "dot")?;
        }
        let give_up = input::at_least_one(req.give_up.give_up.unwrap_or(PLAY_GIVE_UP), "give_up")?;
        Ok(PlayPlan {
            start,
            rules,
            tricks: req.tricks,
            give_up,
            trace: req.trace,
            plot: req.plot.plot.clone(),
            dot: req.dot.dot.clone(),
        })
    }
}

/// Plays the request's deal (see [`run`]).
pub fn play(req: &PlayRequest) -> Result<PlayReport> {
    run(&PlayPlan::try_from(req)?)
}

/// Plays the plan's deal; writes its plot and graph if asked.
pub fn run(plan: &PlayPlan) -> Result<PlayReport> {
    match run_watched(plan, &mut |_, _| true)? {
        PlayRun::Done(report) => Ok(report),
        PlayRun::Stopped { .. } => unreachable!("a watch that never stops"),
    }
}

/// How a watched play ended.
#[derive(Debug, Clone)]
pub enum PlayRun {
    Done(PlayReport),
    /// The watch stopped it: where the game had got to (a `stopped` report), and its period
    /// where its cycle had been found (and was being measured).
    Stopped {
        report: PlayReport,
        period: Option<u64>,
    },
}

/// [`run`], showing `go` every [`bmn_core::WATCH_EVERY`] tricks the tricks played so far and
/// the game furthest ahead; `go` returning false stops it (a game of millions of tricks runs
/// for minutes: a long job).
pub fn run_watched(plan: &PlayPlan, go: &mut dyn FnMut(u64, &Game) -> bool) -> Result<PlayRun> {
    let (rules, start, give_up) = (plan.rules, &plan.start, plan.give_up);
    let stopped = |game: &Game, period| PlayRun::Stopped {
        report: report(HowItWent::Bounded(game.clone()), None),
        period,
    };
    // The result decides how long the trace is, so play first, then replay for the trace.
    let (result, trace_len) = match plan.tricks {
        Some(limit) => {
            let mut game = Game::new(rules, start.clone());
            while game.tricks() < limit && game.winner().is_none() {
                game.run(bmn_core::WATCH_EVERY.min(limit - game.tricks()));
                if !go(game.tricks(), &game) {
                    return Ok(stopped(&game, None));
                }
            }
            let tricks = game.tricks();
            (HowItWent::Bounded(game), tricks)
        }
        None => {
            let outcome = match bmn_core::play_out_watched(&rules, start, give_up, go) {
                Err(s) => return Ok(stopped(&s.game, s.period)),
                Ok(outcome) => outcome,
            };
            let outcome = outcome.ok_or_else(|| {
                Error::failed(message!(
                    "gave up: the game neither ended nor repeated a position within {} tricks \
                     (--give-up); `--tricks K` shows where it got to",
                    give_up
                ))
            })?;
            played_out(outcome)
        }
    };
    let trace = plan
        .trace
        .then(|| bmn_core::trace(&rules, start, trace_len));
    if let Some(path) = &plan.dot {
        game_graph(path, &rules, start, &result, trace_len)?;
    }
    if let Some(path) = &plan.plot {
        let title = format!("Stacks trick by trick: {}", dot::short(&start.deal_text()));
        bmn_plot::stack_sizes(
            path,
            &title,
            &bmn_core::stack_sizes(&rules, start, trace_len),
        )?;
    }
    Ok(PlayRun::Done(report(result, trace)))
}

/// A game for a replay: the report (the same keys as `play`), the start, and every card laid.
#[derive(Serialize, Debug, Clone, PartialEq, Eq)]
pub struct Replay {
    #[serde(flatten)]
    pub report: PlayReport,
    pub start: Position,
    pub players: usize,
    /// The start's cards as a deck spec, and the start's rank among that deck's deals (null
    /// when its hands are not the sizes a deal gives): `#rank` with `deck` replays it.
    pub deck: String,
    pub rank: Option<String>,
    /// Every card laid and every pile taken, in order (with `events`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub events: Option<Vec<EventJson>>,
}

/// The request's game for a replay, with its card-by-card events if `events`; refused when
/// what would be replayed (the whole game, or up to the repeat of an endless one) is longer
/// than `replay_tricks` tricks (the server's cap; `max_tricks` is the kernels' hand-over).
pub fn replay(req: &PlayRequest, events: bool, replay_tricks: u64) -> Result<Replay> {
    let report = play(&PlayRequest {
        trace: false,
        ..req.clone()
    })?;
    let tricks = report.tricks_shown();
    if tricks > replay_tricks && (req.trace || events) {
        return Err(Error::input(format!(
            "the game lasts {tricks} tricks to replay, past the cap of {replay_tricks} tricks; \
             ask for fewer (tricks=K)"
        )));
    }
    let rules = req.table.rules.rules()?;
    let start = req.start()?;
    let report = match (report, req.trace) {
        (report, false) => report,
        (report, true) => report.with_trace(trace_steps(&bmn_core::trace(&rules, &start, tricks))),
    };
    Ok(Replay {
        report,
        start: start.clone(),
        players: start.players(),
        deck: bmn_core::Deck::of_cards(start.stacks().iter().flatten()).to_string(),
        rank: bmn_backward::rank_of(&start).map(|k| k.to_string()),
        events: events.then(|| self::events(&rules, &start, tricks)),
    })
}

impl PlayReport {
    /// The same report with `trace` in it.
    fn with_trace(self, t: Vec<TraceStep>) -> PlayReport {
        match self {
            PlayReport::Finished {
                winner,
                cards,
                tricks,
                ..
            } => PlayReport::Finished {
                winner,
                cards,
                tricks,
                trace: Some(t),
            },
            PlayReport::Cycle {
                preperiod,
                period,
                cycle_start,
                cycle_id,
                cycle_representative,
                ..
            } => PlayReport::Cycle {
                preperiod,
                period,
                cycle_start,
                cycle_id,
                cycle_representative,
                trace: Some(t),
            },
            PlayReport::Stopped {
                position,
                cards,
                tricks,
                ..
            } => PlayReport::Stopped {
                position,
                cards,
                tricks,
                trace: Some(t),
            },
        }
    }

    /// Tricks the report covers: the whole game, up to the repeat of an endless one, or up to
    /// the trick limit.
    pub fn tricks_shown(&self) -> u64 {
        match self {
            PlayReport::Finished { tricks, .. } | PlayReport::Stopped { tricks, .. } => *tricks,
            PlayReport::Cycle {
                preperiod, period, ..
            } => preperiod.tricks + period.tricks,
        }
    }
}

/// Writes the game's positions as DOT to `path`: a path from the start, the cycle (if any) in
/// red.
fn game_graph(
    path: &Path,
    rules: &Rules,
    start: &Position,
    result: &HowItWent,
    tricks: u64,
) -> Result<()> {
    let mut positions: Vec<Position> = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for (p, _) in bmn_core::trace(rules, start, tricks) {
        if seen.insert(p.clone()) {
            positions.push(p);
        }
    }
    let (cycle, title) = match result {
        HowItWent::Out(Outcome::Cycle(c)) => (
            bmn_core::cycle_positions(rules, &c.start, c.period.tricks),
            format!(
                "{}: preperiod {} tricks, period {} tricks",
                dot::short(&start.deal_text()),
                c.preperiod.tricks,
                c.period.tricks
            ),
        ),
        _ => (
            std::collections::HashSet::new(),
            format!(
                "{}: {} tricks",
                dot::short(&start.deal_text()),
                positions.len() - 1
            ),
        ),
    };
    let marks = dot::Marks {
        start,
        cycle: &cycle,
        balanced: false,
    };
    dot::write(path, &title, rules, &positions, &marks)
}

/// A trace's positions, each with the play before it.
fn trace_steps(t: &[(Position, Span)]) -> Vec<TraceStep> {
    t.iter()
        .map(|(p, s)| TraceStep {
            position: p.clone(),
            played: *s,
        })
        .collect()
}

/// A game played out, and the tricks its trace covers (to the end, or to the cycle's repeat).
fn played_out(outcome: Outcome) -> (HowItWent, u64) {
    let tricks = match &outcome {
        Outcome::Finished { tricks, .. } => *tricks,
        Outcome::Cycle(c) => c.preperiod.tricks + c.period.tricks,
    };
    (HowItWent::Out(outcome), tricks)
}

/// A game played out (to its end or its cycle) as `play --json` reports it, without a trace.
pub fn outcome_report(outcome: Outcome) -> PlayReport {
    report(HowItWent::Out(outcome), None)
}

fn report(result: HowItWent, trace: Option<Vec<(Position, Span)>>) -> PlayReport {
    let trace = trace.map(|t| trace_steps(&t));
    match result {
        HowItWent::Out(Outcome::Finished {
            winner,
            cards,
            tricks,
        }) => PlayReport::Finished {
            winner: winner.number(),
            cards,
            tricks,
            trace,
        },
        HowItWent::Out(Outcome::Cycle(c)) => PlayReport::Cycle {
            preperiod: c.preperiod,
            period: c.period,
            cycle_start: c.start.clone(),
            cycle_id: c.id.to_string(),
            cycle_representative: c.representative.clone(),
            trace,
        },
        HowItWent::Bounded(game) => match game.winner() {
            Some(w) => PlayReport::Finished {
                winner: w.number(),
                cards: game.cards(),
                tricks: game.tricks(),
                trace,
            },
            None => PlayReport::Stopped {
                position: game.position().clone(),
                cards: game.cards(),
                tricks: game.tricks(),
                trace,
            },
        },
    }
}

/// `1. <stack> 2. <stack> (leader N)`, the literature's way of writing a position.
fn trace_line(t: &TraceStep) -> String {
    let mut line = String::new();
    for (i, cards) in t.position.deal_text().split('/').enumerate() {
        let shown = if cards.is_empty() { "(empty)" } else { cards };
        let _ = write!(line, "{}. {} ", i + 1, shown);
    }
    let _ = write!(line, "(leader {})", t.position.leader().number());
    line
}

impl crate::Report for PlayReport {
    fn text(&self) -> String {
        let mut text = String::new();
        let trace = match self {
            PlayReport::Finished { trace, .. }
            | PlayReport::Cycle { trace, .. }
            | PlayReport::Stopped { trace, .. } => trace,
        };
        for t in trace.iter().flatten() {
            let _ = writeln!(text, "{}", trace_line(t));
        }
        let _ = match self {
            PlayReport::Finished {
                winner,
                cards,
                tricks,
                ..
            } => writeln!(
                text,
                "player {winner} wins after {} and {}",
                plural(*cards, "card"),
                plural(*tricks, "trick")
            ),
            PlayReport::Cycle {
                preperiod,
                period,
                cycle_start,
                cycle_id,
                ..
            } => writeln!(
                text,
                "the game never ends\npreperiod: {} ({})\nperiod:    {} ({})\ncycle starts at: {} (leader {})\ncycle id: {cycle_id}",
                plural(preperiod.tricks, "trick"),
                plural(preperiod.cards, "card"),
                plural(period.tricks, "trick"),
                plural(period.cards, "card"),
                cycle_start.deal_text(),
                cycle_start.leader().number()
            ),
            PlayReport::Stopped {
                position,
                cards,
                tricks,
                ..
            } => writeln!(
                text,
                "stopped after {} ({}) at: {} (leader {})",
                plural(*tricks, "trick"),
                plural(*cards, "card"),
                position.deal_text(),
                position.leader().number()
            ),
        };
        text
    }
}
