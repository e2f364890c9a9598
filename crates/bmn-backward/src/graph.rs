//! Game graphs: a set of positions under one trick (a position to the one its trick leads to),
//! each node marked (the cycle, the position given, balanced starting deals, finished games),
//! as a value to serialize or as Graphviz DOT (render with `dot -Tsvg FILE.dot > FILE.svg`, or
//! `sfdp` for large basins).

use std::collections::{HashMap, HashSet};
use std::fmt::Write as _;

use bmn_core::{Position, Rules, play_trick};
use serde::Serialize;

use crate::is_balanced;

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
        } else if self.balanced && is_balanced(p) {
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

    /// The graph as Graphviz DOT under `title`.
    pub fn dot(&self, title: &str) -> String {
        let mut out = String::new();
        let _ = writeln!(out, "digraph bmn {{");
        let _ = writeln!(out, "  label={};", quote(title));
        let _ = writeln!(out, "  labelloc=t;");
        let _ = writeln!(
            out,
            "  node [shape=box, fontname=\"DejaVu Sans Mono\", fontsize=10];"
        );
        for (i, n) in self.nodes.iter().enumerate() {
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
        for [i, j, cards] in &self.edges {
            let _ = writeln!(out, "  n{i} -> n{j} [label=\"{cards}\"];");
        }
        out.push_str("}\n");
        out
    }
}

/// A DOT string literal.
fn quote(text: &str) -> String {
    format!("\"{}\"", text.replace('\\', "\\\\").replace('"', "\\\""))
}

#[cfg(test)]
mod tests {
    use super::*;
    use bmn_core::Player;

    #[test]
    fn a_finished_game_is_a_path_of_marked_nodes_and_quoted_dot() {
        let rules = Rules::default();
        let start = Position::parse_deal("K-/--", Player(0)).expect("a deal");
        let positions: Vec<Position> = bmn_core::trace(&rules, &start, 10)
            .into_iter()
            .map(|(p, _)| p)
            .collect();
        let none = HashSet::new();
        let marks = Marks {
            start: &start,
            cycle: &none,
            balanced: false,
        };
        let g = Graph::of(&rules, &positions, &marks, usize::MAX);
        assert_eq!(g.nodes.len(), positions.len());
        assert_eq!(g.edges.len(), positions.len() - 1);
        assert_eq!(g.nodes[0].mark, "start");
        assert_eq!(g.nodes.last().expect("a node").mark, "final");
        let cut = Graph::of(&rules, &positions, &marks, 1);
        assert!(cut.truncated && cut.edges.is_empty());
        let dot = g.dot("a \"short\" game");
        assert!(dot.starts_with("digraph bmn {\n  label=\"a \\\"short\\\" game\";"));
        assert!(dot.contains("n0 -> n1 [label="));
    }
}
