//! `predecessors` against the forward map: sound (every one plays into the position) and
//! complete (inverting one trick forward over every position of small decks gives the same).

mod common;

use std::collections::HashMap;

use bmn_backward::predecessors;
use bmn_core::{Position, Rules, play_trick};
use common::{all_positions, pos, rules, sorted};

/// Plays one trick from every position of the deck, inverts the map, and compares it with
/// `predecessors` for every position (finished ones included).
#[track_caller]
fn check_complete(rules: &Rules, deck: &str, players: usize) {
    let all = all_positions(deck, players);
    let mut inverse: HashMap<Position, Vec<Position>> = HashMap::new();
    for p in &all {
        if p.winner().is_none() {
            let mut next = p.clone();
            play_trick(rules, &mut next);
            inverse.entry(next).or_default().push(p.clone());
        }
    }
    let unfinished = all.iter().filter(|p| p.winner().is_none()).count();
    let mut edges = 0;
    for p in &all {
        let got = predecessors(rules, p);
        let want = inverse.remove(p).unwrap_or_default();
        assert_eq!(sorted(&got), sorted(&want), "predecessors of {p}");
        assert_eq!(got.len(), sorted(&got).len(), "{p}: no duplicates");
        edges += got.len();
    }
    assert!(
        inverse.is_empty(),
        "every successor is a position of the deck"
    );
    // Each unfinished position is the predecessor of exactly one position.
    assert_eq!(edges, unfinished, "{deck}, {players} players");
}

#[test]
fn complete_two_players_standard_penalties() {
    check_complete(&Rules::STANDARD, "1J,1Q,1K,1A,3-", 2);
    check_complete(&Rules::STANDARD, "2J,2Q,4-", 2);
}

#[test]
fn complete_two_players_zero_penalty_cards() {
    // Knocking Dolly: K3 J2 Q1 A0, the A takes the pile at once.
    check_complete(&rules("K3,J2,Q1,A0", "pass"), "1J,1Q,1K,1A,3-", 2);
    check_complete(&rules("J0,Q-", "pass"), "2J,2Q,3-", 2);
}

#[test]
fn complete_three_players_both_running_out_rules() {
    for on_empty in ["pass", "collect"] {
        check_complete(&rules("J1", on_empty), "1J,1Q,1K,1A,3-", 3);
        check_complete(&rules("K3,J2,Q1,A0", on_empty), "1J,1Q,1K,1A,2-", 3);
    }
}

#[test]
fn complete_four_players() {
    for on_empty in ["pass", "collect"] {
        check_complete(&rules("J1", on_empty), "1J,1Q,1K,1A,1-", 4);
    }
}

#[test]
fn every_predecessor_plays_into_the_position() {
    // Soundness on a standard-deck position with many candidates (the spec's cycle).
    let target = pos("--K---A----AAJ-/J-", 1);
    let preds = predecessors(&Rules::STANDARD, &target);
    assert!(preds.contains(&pos("J--K---A----AA/-J-", 1)), "{preds:?}");
    for p in preds {
        let mut next = p.clone();
        play_trick(&Rules::STANDARD, &mut next);
        assert_eq!(next, target, "from {p}");
    }
}
