//! Graphviz DOT of game graphs: positions as nodes labelled in deal notation, one edge per
//! trick (a position to the one its trick leads to), the cycle highlighted, the starting
//! position and balanced starting deals marked. Render with `dot -Tsvg FILE.dot > FILE.svg`
//! (or `sfdp` for large basins).

use std::collections::{HashMap, HashSet};
use std::fmt::Write as _;
use std::path::Path;

use bmn_core::{Position, Rules, play_trick};
use serde::Serialize;

use crate::error::{Error, Result};

/// What a node is, for its style.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mark {
    Plain,
    /// On the cycle (red, bold).
    Cycle,
    /// A balanced starting deal (green, filled).
    Balanced,
    /// The position the command was given (a double outline).
    Start,
    /// One player holds every card.
    Final,
}

/// How the nodes of a graph are marked: the cycle first, then the position given, then (if
/// asked) balanced starting deals, then finished games.
pub struct Marks<'a> {
    pub start: &'a Position,
    pub cycle: &'a HashSet<Position>,
    pub balanced: bool,
}

impl Marks<'_> {
    pub fn of(&self, p: &Position) -> Mark {
        if self.cycle.contains(p) {
            Mark::Cycle
        } else if p == self.start {
            Mark::Start
        } else if self.balanced && bmn_backward::is_balanced(p) {
            Mark::Balanced
        } else if p.winner().is_some() {
            Mark::Final
        } else {
            Mark::Plain
        }
    }
}

/// A set of positions under one trick: nodes with their marks, and an edge from each position
/// to its successor when that is in the set too. The JSON of `/api/basin`'s graph; [`graph`]
/// writes the same as DOT.
#[derive(Serialize, Clone, Debug, PartialEq, Eq)]
pub struct Graph {
    pub nodes: Vec<Node>,
    /// `[from, to, cards]`: node indices and the cards laid in the trick.
    pub edges: Vec<[u64; 3]>,
    /// Whether the positions were cut to a cap (the first ones kept).
    pub truncated: bool,
}

/// A node of a [`Graph`].
#[derive(Serialize, Clone, Debug, PartialEq, Eq)]
pub struct Node {
    pub deal: String,
    pub leader: usize,
    /// `plain`, `cycle`, `balanced`, `start` or `final`.
    pub mark: &'static str,
}

impl Mark {
    fn name(self) -> &'static str {
        match self {
            Mark::Plain => "plain",
            Mark::Cycle => "cycle",
            Mark::Balanced => "balanced",
            Mark::Start => "start",
            Mark::Final => "final",
        }
    }
}

impl Graph {
    /// The graph of `positions` (at most `cap` of them, the first ones) styled by `marks`.
    pub fn of(rules: &Rules, positions: &[Position], marks: &Marks, cap: usize) -> Graph {
        let kept = &positions[..positions.len().min(cap)];
        let index: HashMap<&Position, usize> =
            kept.iter().enumerate().map(|(i, p)| (p, i)).collect();
        let nodes = kept
            .iter()
            .map(|p| Node {
                deal: p.deal_text(),
                leader: p.leader().number(),
                mark: marks.of(p).name(),
            })
            .collect();
        let mut edges = Vec::new();
        for (i, p) in kept.iter().enumerate() {
            if p.winner().is_some() {
                continue;
            }
            let mut next = p.clone();
            let trick = play_trick(rules, &mut next);
            if let Some(&j) = index.get(&next) {
                edges.push([i as u64, j as u64, trick.cards]);
            }
        }
        Graph {
            nodes,
            edges,
            truncated: kept.len() < positions.len(),
        }
    }
}

/// The graph of `positions` under one trick as DOT, each node styled by `marks`.
pub fn graph(rules: &Rules, title: &str, positions: &[Position], marks: &Marks) -> String {
    let g = Graph::of(rules, positions, marks, usize::MAX);
    let mut out = String::new();
    let _ = writeln!(out, "digraph bmn {{");
    let _ = writeln!(out, "  label={};", quote(title));
    let _ = writeln!(out, "  labelloc=t;");
    let _ = writeln!(
        out,
        "  node [shape=box, fontname=\"DejaVu Sans Mono\", fontsize=10];"
    );
    for (i, n) in g.nodes.iter().enumerate() {
        let style = match n.mark {
            "cycle" => ", color=red, penwidth=2",
            "balanced" => ", style=filled, fillcolor=palegreen",
            "start" => ", peripheries=2",
            "final" => ", style=filled, fillcolor=lightgrey",
            _ => "",
        };
        let label = format!("{} ({})", n.deal, n.leader);
        let _ = writeln!(out, "  n{i} [label={}{style}];", quote(&label));
    }
    for [i, j, cards] in &g.edges {
        let _ = writeln!(out, "  n{i} -> n{j} [label=\"{cards}\"];");
    }
    out.push_str("}\n");
    out
}

/// A DOT string literal.
fn quote(text: &str) -> String {
    format!("\"{}\"", text.replace('\\', "\\\\").replace('"', "\\\""))
}

/// Writes `dot` to `path`.
pub fn write(path: &Path, dot: &str) -> Result<()> {
    std::fs::write(path, dot).map_err(|e| {
        Error::failed(format!(
            "writing {}: {}",
            path.display(),
            bmn_run::chain(&e)
        ))
    })
}

/// A deal for a title: whole if short, else its start and end.
pub fn short(deal: &str) -> String {
    let chars: Vec<char> = deal.chars().collect();
    if chars.len() <= 60 {
        return deal.to_string();
    }
    let head: String = chars[..28].iter().collect();
    let tail: String = chars[chars.len() - 28..].iter().collect();
    format!("{head}...{tail}")
}
