//! Walking a game trick by trick: the positions of a trace, every player's stack size, and
//! the positions of a cycle. The same steps as [`Game`], kept for the callers that show them.

use std::collections::HashSet;

use crate::cycle::Span;
use crate::engine::{Game, play_trick};
use crate::position::Position;
use crate::rules::Rules;

/// The positions from `start` through `tricks` tricks (fewer if the game ends), each with the
/// tricks and cards played before it.
pub fn trace(rules: &Rules, start: &Position, tricks: u64) -> Vec<(Position, Span)> {
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

/// Each player's stack size after 0, 1, .. `tricks` tricks (or until the game ends).
pub fn stack_sizes(rules: &Rules, start: &Position, tricks: u64) -> Vec<Vec<u32>> {
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

/// The positions of a cycle: `start` (on the cycle) and the `period - 1` after it.
pub fn cycle_positions(rules: &Rules, start: &Position, period: u64) -> HashSet<Position> {
    let mut set = HashSet::new();
    let mut p = start.clone();
    for _ in 0..period {
        set.insert(p.clone());
        play_trick(rules, &mut p);
    }
    set
}
