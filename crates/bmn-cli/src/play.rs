//! `bmn play`: play one deal to its end, its cycle, or a trick limit; text, trace and JSON.

use std::fmt::Write as _;

use anyhow::Result;
use bmn_core::{Game, Outcome, Position, Rules, Span, play_out_within};
use serde::Serialize;

use crate::cli::PlayArgs;
use crate::input;
use crate::output::{self, PositionJson, SpanJson};

/// What `bmn play` found, as printed by `--json` (the keys are a contract).
#[derive(Serialize, Debug)]
#[serde(tag = "outcome", rename_all = "lowercase")]
enum PlayJson {
    Finished {
        winner: usize,
        cards: u64,
        tricks: u64,
        #[serde(skip_serializing_if = "Option::is_none")]
        trace: Option<Vec<TraceJson>>,
    },
    Cycle {
        preperiod: SpanJson,
        period: SpanJson,
        cycle_start: PositionJson,
        cycle_id: String,
        /// The canonical position that names the cycle (leader rotated to player 1).
        cycle_representative: PositionJson,
        #[serde(skip_serializing_if = "Option::is_none")]
        trace: Option<Vec<TraceJson>>,
    },
    Stopped {
        position: PositionJson,
        cards: u64,
        tricks: u64,
        #[serde(skip_serializing_if = "Option::is_none")]
        trace: Option<Vec<TraceJson>>,
    },
}

/// One position of a trace with the totals played before it.
#[derive(Serialize, Debug)]
struct TraceJson {
    deal: String,
    leader: usize,
    tricks: u64,
    cards: u64,
}

pub fn run(args: &PlayArgs) -> Result<()> {
    let rules = input::rules(&args.rules)?;
    let start = input::deal(&args.deal, args.leader, args.deck.as_deref())?;
    if let Some(players) = args.players
        && players != start.players()
    {
        return Err(input::BadInput(format!(
            "bad deal: it has {} hands, but --players {players}",
            start.players()
        ))
        .into());
    }
    if let Some(path) = &args.plot {
        input::plot_path(path)?;
    }

    // The result decides how long the trace is, so play first, then replay for the trace.
    let (result, trace_len) = match args.tricks {
        Some(limit) => {
            let mut game = Game::new(rules, start.clone());
            game.run(limit);
            let tricks = game.tricks();
            (Played::Bounded(game), tricks)
        }
        None => match play_out_within(&rules, &start, args.give_up).ok_or_else(|| {
            anyhow::anyhow!(
                "gave up: the game neither ended nor repeated a position within {} tricks \
                 (--give-up); `--tricks K` shows where it got to",
                args.give_up
            )
        })? {
            Outcome::Finished {
                winner,
                cards,
                tricks,
            } => (
                Played::Out(Outcome::Finished {
                    winner,
                    cards,
                    tricks,
                }),
                tricks,
            ),
            Outcome::Cycle(c) => {
                let len = c.preperiod.tricks + c.period.tricks;
                (Played::Out(Outcome::Cycle(c)), len)
            }
        },
    };
    let trace = args.trace.then(|| trace(&rules, &start, trace_len));
    if let Some(path) = &args.dot {
        write_dot(path, &rules, &start, &result, trace_len)?;
    }
    if let Some(path) = &args.plot {
        let title = format!("Stacks trick by trick: {}", short(&start.deal_text()));
        bmn_plot::stack_sizes(path, &title, &stack_sizes(&rules, &start, trace_len))?;
    }

    if args.json {
        return output::print_json(&to_json(result, trace));
    }
    let mut text = String::new();
    for p in trace.iter().flatten() {
        writeln!(text, "{}", trace_line(p))?;
    }
    match result {
        Played::Out(Outcome::Finished {
            winner,
            cards,
            tricks,
        }) => {
            writeln!(
                text,
                "player {winner} wins after {cards} cards and {tricks} tricks"
            )?;
        }
        Played::Out(Outcome::Cycle(c)) => {
            let (pre, per) = (c.preperiod, c.period);
            writeln!(text, "the game never ends")?;
            writeln!(
                text,
                "preperiod: {} tricks ({} cards)",
                pre.tricks, pre.cards
            )?;
            writeln!(
                text,
                "period:    {} tricks ({} cards)",
                per.tricks, per.cards
            )?;
            writeln!(text, "cycle starts at: {}", c.start)?;
            writeln!(text, "cycle id: {}", c.id)?;
        }
        Played::Bounded(game) => match game.winner() {
            Some(w) => writeln!(
                text,
                "player {w} wins after {} cards and {} tricks",
                game.cards(),
                game.tricks()
            )?,
            None => writeln!(
                text,
                "stopped after {} tricks ({} cards) at: {}",
                game.tricks(),
                game.cards(),
                game.position()
            )?,
        },
    }
    Ok(output::print(&text)?)
}

enum Played {
    /// Played to the end or to the cycle.
    Out(Outcome),
    /// Played up to `--tricks`.
    Bounded(Game),
}

/// The positions from the start through `tricks` tricks, with the totals before each.
fn trace(rules: &Rules, start: &Position, tricks: u64) -> Vec<(Position, Span)> {
    let mut game = Game::new(*rules, start.clone());
    let mut positions = vec![(start.clone(), Span::default())];
    for _ in 0..tricks {
        if game.step().is_none() {
            break;
        }
        positions.push((
            game.position().clone(),
            Span {
                tricks: game.tricks(),
                cards: game.cards(),
            },
        ));
    }
    positions
}

/// The game's positions as DOT: a path from the start, the cycle (if any) in red.
fn write_dot(
    path: &std::path::Path,
    rules: &Rules,
    start: &Position,
    result: &Played,
    tricks: u64,
) -> Result<()> {
    let mut positions: Vec<Position> = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for (p, _) in trace(rules, start, tricks) {
        if seen.insert(p.clone()) {
            positions.push(p);
        }
    }
    let (cycle, title) = match result {
        Played::Out(Outcome::Cycle(c)) => (
            crate::dot::cycle_positions(rules, &c.start, c.period.tricks),
            format!(
                "{}: preperiod {} tricks, period {} tricks",
                short(&start.deal_text()),
                c.preperiod.tricks,
                c.period.tricks
            ),
        ),
        _ => (
            std::collections::HashSet::new(),
            format!(
                "{}: {} tricks",
                short(&start.deal_text()),
                positions.len() - 1
            ),
        ),
    };
    let marks = crate::dot::Marks {
        start,
        cycle: &cycle,
        balanced: false,
    };
    let dot = crate::dot::graph(rules, &title, &positions, &marks);
    crate::dot::write(path, &dot)
}

/// Each player's stack size after 0, 1, .. `tricks` tricks (or until the game ends).
fn stack_sizes(rules: &Rules, start: &Position, tricks: u64) -> Vec<Vec<u32>> {
    let mut game = Game::new(*rules, start.clone());
    let mut sizes = vec![Vec::new(); start.players()];
    loop {
        for (s, stack) in sizes.iter_mut().zip(game.position().stacks()) {
            s.push(stack.len() as u32);
        }
        if game.tricks() >= tricks || game.step().is_none() {
            return sizes;
        }
    }
}

/// A deal for a title: whole if short, else its start and end.
fn short(deal: &str) -> String {
    let chars: Vec<char> = deal.chars().collect();
    if chars.len() <= 60 {
        return deal.to_string();
    }
    let head: String = chars[..28].iter().collect();
    let tail: String = chars[chars.len() - 28..].iter().collect();
    format!("{head}...{tail}")
}

/// `1. <stack> 2. <stack> (leader N)`, the literature's way of writing a position.
fn trace_line((position, _): &(Position, Span)) -> String {
    let mut line = String::new();
    for (i, stack) in position.stacks().iter().enumerate() {
        let cards = bmn_core::notation::format_stack(stack);
        let shown = if cards.is_empty() { "(empty)" } else { &cards };
        let _ = write!(line, "{}. {} ", i + 1, shown);
    }
    let _ = write!(line, "(leader {})", position.leader());
    line
}

fn to_json(result: Played, trace: Option<Vec<(Position, Span)>>) -> PlayJson {
    let trace = trace.map(|t| {
        t.iter()
            .map(|(p, s)| TraceJson {
                deal: p.deal_text(),
                leader: p.leader().number(),
                tricks: s.tricks,
                cards: s.cards,
            })
            .collect()
    });
    match result {
        Played::Out(Outcome::Finished {
            winner,
            cards,
            tricks,
        }) => PlayJson::Finished {
            winner: winner.number(),
            cards,
            tricks,
            trace,
        },
        Played::Out(Outcome::Cycle(c)) => PlayJson::Cycle {
            preperiod: c.preperiod.into(),
            period: c.period.into(),
            cycle_start: (&c.start).into(),
            cycle_id: c.id.to_string(),
            cycle_representative: (&c.representative).into(),
            trace,
        },
        Played::Bounded(game) => match game.winner() {
            Some(w) => PlayJson::Finished {
                winner: w.number(),
                cards: game.cards(),
                tricks: game.tricks(),
                trace,
            },
            None => PlayJson::Stopped {
                position: game.position().into(),
                cards: game.cards(),
                tricks: game.tricks(),
                trace,
            },
        },
    }
}
