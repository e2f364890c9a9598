//! A climb's recorded state (the `summary` of a `bmn-climb-2` ledger row), read back as
//! `bmn climb --resume` reads it: a bad state is an error, never a panic, and a state that is
//! accepted plays a round and is still accepted after it.

use bmn_app::climb::{ClimbParams, FORMAT, read_state};
use bmn_climb::climb::{Accept, ClimbConfig, ClimbState, Objective};
use bmn_climb::{Evaluator, MoveSet};
use bmn_core::{Deck, Rules};
use bmn_run::RunFile;
use bmn_search::DealSource;

use crate::{check_message, text};

/// A state holds a few walkers and a top ten: a few KiB.
const MAX_BYTES: usize = 32 * 1024;

/// Walkers played in the round after an accepted state (each plays its neighbours: a round
/// of 8 walkers with 2 neighbours is 16 to 24 games).
const MAX_WALKERS: usize = 8;

/// The first byte picks the climb the state is resumed into (bits 0-1: hill, anneal,
/// population; bit 2: balanced; bit 3: `mixed` moves rather than `swap`; bits 4-5: 1 to 4
/// neighbours; bit 6: by tricks); the rest is a whole ledger row (a result file of the
/// climb's format, whose `summary` is read) or the state's JSON alone.
pub fn climb_state(data: &[u8]) {
    let Some((&flags, rest)) = data.split_first() else {
        return;
    };
    if rest.len() > MAX_BYTES {
        return;
    }
    let text = text(rest);
    let saved = match RunFile::<ClimbParams, ClimbState>::from_text(&text, FORMAT) {
        Ok(file) => serde_json::to_value(&file.summary).expect("a climb's state serializes"),
        Err(_) => match serde_json::from_str::<serde_json::Value>(&text) {
            Ok(value) => value,
            Err(_) => return,
        },
    };
    // The climb resumed has as many walkers as the state says (a state of another climb is
    // refused by the ledger's parameters before it is read); capped so a round stays fast.
    let walkers = saved
        .get("walkers")
        .and_then(|w| w.as_array())
        .map_or(1, Vec::len)
        .clamp(1, MAX_WALKERS);
    let config = config(flags, walkers);
    let mut state = match read_state(&saved, &config) {
        Ok(s) => s,
        Err(e) => return check_message(&e.to_string(), "read_state"),
    };
    let evaluator = Evaluator::new(Rules::STANDARD);
    state
        .round(&config, &evaluator, 1, 0.0)
        .unwrap_or_else(|e| panic!("a round from an accepted state failed: {e}"));
    // What the climb records next is accepted in its turn.
    let value = serde_json::to_value(&state).expect("a climb's state serializes");
    let again = read_state(&value, &config)
        .unwrap_or_else(|e| panic!("the state after a round is refused: {e}"));
    assert_eq!(again, state);
}

/// The climb a state is resumed into (what `bmn climb`'s flags would make of it).
fn config(flags: u8, walkers: usize) -> ClimbConfig {
    let balanced = flags & 4 != 0;
    ClimbConfig {
        seed: 1,
        walkers,
        neighbours: usize::from((flags >> 4) & 3) + 1,
        moves: MoveSet::parse(if flags & 8 != 0 { "mixed" } else { "swap" }).expect("a move set"),
        accept: [
            Accept::Hill,
            Accept::Anneal,
            Accept::Population,
            Accept::Hill,
        ][usize::from(flags & 3)],
        objective: if flags & 64 != 0 {
            Objective::Tricks
        } else {
            Objective::Cards
        },
        balanced,
        restart_after: 5,
        temperature: 200.0,
        cooling: 0.995,
        top: 10,
        starts: Vec::new(),
        source: DealSource::new(Deck::STANDARD, balanced).expect("the standard deck deals"),
    }
}

/// A state the climb itself starts from is accepted (the check refuses no real climb).
#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fresh_states_are_accepted() {
        for flags in [0u8, 5, 10, 0x3e, 0x7f] {
            for walkers in [1, 3, 8] {
                let config = config(flags, walkers);
                let state = ClimbState::new(&config);
                let value = serde_json::to_value(&state).unwrap();
                assert_eq!(read_state(&value, &config).unwrap(), state);
            }
        }
    }
}
