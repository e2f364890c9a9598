//! Where the game graphs of `play --dot` and `basin --dot` (bmn-backward's [`Graph`]) are
//! written, and the titles they carry.

use std::path::Path;

pub use bmn_backward::graph::{Graph, Marks};
use bmn_core::{Position, Rules};

use crate::error::{Error, Result};

/// Writes the graph of `positions` under `title` to `path` as DOT.
pub fn write(
    path: &Path,
    title: &str,
    rules: &Rules,
    positions: &[Position],
    marks: &Marks,
) -> Result<()> {
    let dot = Graph::of(rules, positions, marks, usize::MAX).dot(title);
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
