//! Extending a finishing game backward: balanced deals whose games run into it and last longer.
//!
//! A deal `Q` that reaches position `t` of a game of `T` tricks after `d` tricks plays
//! `d + T - t` tricks, longer than the game itself when `d > t`. So a long game's opening
//! positions, searched backward a few tricks, may hide balanced deals (26/26 for a standard
//! deck) with longer games. The search runs backward from every position of the game at once,
//! `depth` levels deep; every balanced deal found is played forward with the reference engine
//! for its length (not inferred from the search), and the longest are kept.

use bmn_core::{Game, Outcome, Player, Position, Rules, play_out};
use bmn_job::Job;

use crate::basin::is_balanced;
use crate::bfs::{backward_bfs, while_going};
use crate::error::BackwardError;

/// How far to search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ExtendConfig {
    /// Tricks to go back from each position of the game.
    pub depth: u64,
    /// Stop after visiting this many distinct positions.
    pub limit: u64,
    /// How many of the longest balanced deals to keep.
    pub keep: usize,
}

impl Default for ExtendConfig {
    fn default() -> Self {
        ExtendConfig {
            depth: 20,
            limit: 20_000_000,
            keep: 10,
        }
    }
}

/// A balanced deal found, with its game as the reference engine plays it; serialized as
/// `{"deal","leader","cards","tricks","winner"}` (players 1-based).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct ExtendedDeal {
    #[serde(flatten)]
    pub deal: Position,
    pub cards: u64,
    pub tricks: u64,
    pub winner: Player,
}

/// What the backward search from a game found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Extension {
    /// The game searched from.
    pub original: ExtendedDeal,
    /// Distinct positions visited, the game's own included.
    pub positions: u64,
    /// Levels searched (at most `depth`).
    pub depth: u64,
    /// Whether the search covered every position within `depth` tricks; false when `limit`
    /// cut it short.
    pub complete: bool,
    /// Whether nothing lies further back: every position whose play runs into the game (the
    /// whole tree of its final position) was found, within `depth` and `limit`.
    pub exhausted: bool,
    /// Whether the caller stopped the search (through the job): then neither complete nor
    /// exhausted.
    pub interrupted: bool,
    /// Balanced deals found, the original excluded.
    pub balanced_found: u64,
    /// Of those, how many play longer than the original (in cards).
    pub longer: u64,
    /// The longest balanced deals found (at most `keep`), longest first, then by deal text
    /// and leader.
    pub best: Vec<ExtendedDeal>,
}

/// Searches backward `config.depth` tricks from every position of `deal`'s game (which must
/// finish) for balanced deals, and keeps the longest. The job hears the count of positions
/// visited every few milliseconds; its stop ends the search with what it found.
pub fn extend(
    rules: &Rules,
    deal: &Position,
    config: &ExtendConfig,
    job: &mut Job,
) -> Result<Extension, BackwardError> {
    crate::bfs::pack(deal)?;
    let original = match play_out(rules, deal) {
        Outcome::Cycle(c) => return Err(BackwardError::NotFinishing { id: c.id }),
        Outcome::Finished {
            winner,
            cards,
            tricks,
        } => ExtendedDeal {
            deal: deal.clone(),
            cards,
            tricks,
            winner,
        },
    };
    let mut game_positions = Vec::new();
    let mut game = Game::new(*rules, deal.clone());
    loop {
        game_positions.push(game.position().clone());
        if game.step().is_none() {
            break;
        }
    }
    let mut found = Vec::new();
    let end = backward_bfs(
        rules,
        &game_positions,
        config.limit,
        Some(config.depth),
        |p, _| {
            if is_balanced(p) && p != deal {
                found.push(p.clone());
            }
        },
        &mut |n| job.progress(n, None),
    )?;
    // Millions of deals may have been found (many players): a stop cuts their plays short.
    let mut stopped = end.stopped;
    let mut all: Vec<ExtendedDeal> =
        while_going(found, &mut stopped, || job.progress(end.positions, None))
            .map(|q| match play_out(rules, &q) {
                Outcome::Finished {
                    winner,
                    cards,
                    tricks,
                } => ExtendedDeal {
                    deal: q,
                    cards,
                    tricks,
                    winner,
                },
                // Every position found plays forward into the game, which finishes.
                Outcome::Cycle(_) => unreachable!("a predecessor of a finishing game finishes"),
            })
            .collect();
    all.sort_by(|a, b| {
        b.cards
            .cmp(&a.cards)
            .then_with(|| a.deal.deal_text().cmp(&b.deal.deal_text()))
            .then_with(|| a.deal.leader().cmp(&b.deal.leader()))
    });
    let longer = all.iter().filter(|d| d.cards > original.cards).count() as u64;
    let balanced_found = all.len() as u64;
    all.truncate(config.keep);
    Ok(Extension {
        original,
        positions: end.positions,
        depth: end.depth,
        complete: !end.cut_by_limit && !stopped,
        exhausted: !end.cut_by_limit && !end.cut_by_depth && !stopped,
        interrupted: stopped,
        balanced_found,
        longer,
        best: all,
    })
}
