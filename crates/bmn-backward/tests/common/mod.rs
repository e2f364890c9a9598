//! Test helpers: every position of a small deck, and the forward map as the oracle.
#![allow(dead_code)]

use bmn_deals::next_arrangement;
use std::collections::HashMap;

use bmn_core::{Deck, Game, Kind, Outcome, Player, Position, Rules, play_out};

pub fn pos(text: &str, leader: usize) -> Position {
    Position::parse(text, Player(leader - 1)).unwrap()
}

pub fn rules(penalties: &str, on_empty: &str) -> Rules {
    Rules {
        penalties: bmn_core::PenaltyTable::parse(penalties).unwrap(),
        on_empty: on_empty.parse().unwrap(),
    }
}

/// Every arrangement of the deck, in lexicographic order.
pub fn arrangements(deck: &str) -> Vec<Vec<Kind>> {
    let mut cards = Deck::parse(deck).unwrap().cards(); // sorted by kind
    let mut all = vec![cards.clone()];
    while next_arrangement(&mut cards) {
        all.push(cards.clone());
    }
    all
}

/// Every way to cut `n` cards into `players` stacks in seat order (empty stacks allowed).
fn compositions(n: usize, players: usize) -> Vec<Vec<usize>> {
    if players == 1 {
        return vec![vec![n]];
    }
    (0..=n)
        .flat_map(|first| {
            compositions(n - first, players - 1)
                .into_iter()
                .map(move |mut rest| {
                    rest.insert(0, first);
                    rest
                })
        })
        .collect()
}

/// Every position of the deck with `players` players: each arrangement cut every way, each
/// leader (finished positions and empty-handed leaders included).
pub fn all_positions(deck: &str, players: usize) -> Vec<Position> {
    let cuts = compositions(Deck::parse(deck).unwrap().len() as usize, players);
    let mut all = Vec::new();
    for cards in arrangements(deck) {
        for cut in &cuts {
            let mut rest = &cards[..];
            let hands: Vec<Vec<Kind>> = cut
                .iter()
                .map(|&len| {
                    let (hand, tail) = rest.split_at(len);
                    rest = tail;
                    hand.to_vec()
                })
                .collect();
            for leader in 0..players {
                all.push(Position::new(hands.clone(), Player(leader)).unwrap());
            }
        }
    }
    all
}

/// Where a position's play ends up, by the reference engine.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Fate {
    Cycle(bmn_core::CycleId),
    Final(Position),
}

pub fn fate(rules: &Rules, p: &Position) -> Fate {
    match play_out(rules, p) {
        Outcome::Cycle(c) => Fate::Cycle(c.id),
        Outcome::Finished { .. } => {
            let mut g = Game::new(*rules, p.clone());
            g.run(u64::MAX);
            Fate::Final(g.into_position())
        }
    }
}

/// Every position grouped by its fate.
pub fn fates(rules: &Rules, all: &[Position]) -> HashMap<Fate, Vec<Position>> {
    let mut by_fate: HashMap<Fate, Vec<Position>> = HashMap::new();
    for p in all {
        by_fate.entry(fate(rules, p)).or_default().push(p.clone());
    }
    by_fate
}

/// Positions as sorted text, for comparing sets with readable failures.
pub fn sorted(positions: &[Position]) -> Vec<String> {
    let mut v: Vec<String> = positions.iter().map(ToString::to_string).collect();
    v.sort();
    v
}
