//! `--walkers`, `--neighbours` and `--moves`: the walk of a local search over deals (`climb`,
//! the pieces factory), one family, each command re-describing it with its own defaults.

use bmn_climb::MoveSet;

use crate::error::{Error, Result};
use crate::input;

/// The walk's parameters; the help is the command's (`mut_arg` where it flattens them).
#[derive(clap::Args, Debug, Clone, Default, PartialEq, Eq)]
pub struct WalkArgs {
    /// Walkers at once.
    #[arg(long, value_name = "W")]
    pub walkers: Option<usize>,
    /// Neighbours each walker tries per round.
    #[arg(long, value_name = "K")]
    pub neighbours: Option<usize>,
    /// The edits.
    #[arg(long, value_name = "MOVES")]
    pub moves: Option<String>,
}

/// A walk, checked: walkers and neighbours at least 1, the moves parsed.
#[derive(Clone, Debug, PartialEq)]
pub struct Walk {
    pub walkers: usize,
    pub neighbours: usize,
    pub moves: MoveSet,
}

impl WalkArgs {
    /// The walk asked for, `defaults` for what is not given.
    pub fn walk(&self, defaults: Walk) -> Result<Walk> {
        Ok(Walk {
            walkers: input::or_default(self.walkers, defaults.walkers, "walkers")?,
            neighbours: input::or_default(self.neighbours, defaults.neighbours, "neighbours")?,
            moves: match &self.moves {
                Some(text) => MoveSet::parse(text).map_err(|e| Error::bad("moves", e))?,
                None => defaults.moves,
            },
        })
    }
}
