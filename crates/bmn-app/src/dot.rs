//! Graphviz DOT of game graphs: positions as nodes labelled in deal notation, one edge per
//! trick (a position to the one its trick leads to), the cycle highlighted, the starting
//! position and balanced starting deals marked. Render with `dot -Tsvg FILE.dot > FILE.svg`
//! (or `sfdp` for large basins).

use std::collections::{HashMap, HashSet};
use std::fmt::Write as _;
use std::path::Path;

use bmn_core::{Position, Rules, play_trick};

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

/// The graph of `positions` under one trick: an edge from each position to its successor when
/// that is among them too, each node styled by `marks`.
pub fn graph(rules: &Rules, title: &str, positions: &[Position], marks: &Marks) -> String {
    let index: HashMap<&Position, usize> =
        positions.iter().enumerate().map(|(i, p)| (p, i)).collect();
    let mut out = String::new();
    let _ = writeln!(out, "digraph bmn {{");
    let _ = writeln!(out, "  label={};", quote(title));
    let _ = writeln!(out, "  labelloc=t;");
    let _ = writeln!(
        out,
        "  node [shape=box, fontname=\"DejaVu Sans Mono\", fontsize=10];"
    );
    for (i, p) in positions.iter().enumerate() {
        let style = match marks.of(p) {
            Mark::Plain => "",
            Mark::Cycle => ", color=red, penwidth=2",
            Mark::Balanced => ", style=filled, fillcolor=palegreen",
            Mark::Start => ", peripheries=2",
            Mark::Final => ", style=filled, fillcolor=lightgrey",
        };
        let label = format!("{} ({})", p.deal_text(), p.leader().number());
        let _ = writeln!(out, "  n{i} [label={}{style}];", quote(&label));
    }
    for (i, p) in positions.iter().enumerate() {
        if p.winner().is_some() {
            continue;
        }
        let mut next = p.clone();
        let trick = play_trick(rules, &mut next);
        if let Some(&j) = index.get(&next) {
            let _ = writeln!(out, "  n{i} -> n{j} [label=\"{}\"];", trick.cards);
        }
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
        Error::Failed(format!(
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
