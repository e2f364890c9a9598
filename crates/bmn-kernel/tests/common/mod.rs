//! Shared test helpers: the plain card-by-card oracle, notation parsing, deck builders.
#![allow(dead_code)]

use bmn_kernel::Outcome;
use std::collections::VecDeque;

/// Obviously correct two-player game, card by card, straight from the rules text.
pub fn oracle(p1: &[u8], p2: &[u8], leader: u8, max_tricks: u32) -> Outcome {
    let mut hands = [VecDeque::from(p1.to_vec()), VecDeque::from(p2.to_vec())];
    // A player already holds every card: the game is over before it starts.
    if hands[0].is_empty() || hands[1].is_empty() {
        let winner = if !hands[0].is_empty() {
            0
        } else if !hands[1].is_empty() {
            1
        } else {
            leader
        };
        return Outcome::Finished {
            winner,
            cards: 0,
            tricks: 0,
        };
    }
    let mut lead = leader as usize;
    let mut cards = 0u32;
    let mut tricks = 0u32;
    loop {
        if tricks == max_tricks {
            return Outcome::Capped { cards, tricks };
        }
        let mut pile: Vec<u8> = Vec::new();
        let mut turn = lead; // who must play next
        let mut dibs: Option<usize> = None; // who laid the last penalty card
        let mut owed = 0u8; // cards still owed to them
        loop {
            let Some(card) = hands[turn].pop_front() else {
                // Must play but has no cards: the other takes the pile, game over.
                tricks += 1;
                return Outcome::Finished {
                    winner: (1 - turn) as u8,
                    cards,
                    tricks,
                };
            };
            cards += 1;
            pile.push(card);
            if card > 0 {
                dibs = Some(turn);
                owed = card;
                turn = 1 - turn;
            } else if let Some(d) = dibs {
                owed -= 1;
                if owed == 0 {
                    hands[d].extend(pile.drain(..));
                    tricks += 1;
                    if hands[1 - d].is_empty() {
                        return Outcome::Finished {
                            winner: d as u8,
                            cards,
                            tricks,
                        };
                    }
                    lead = d;
                    break;
                }
            } else {
                turn = 1 - turn;
            }
        }
    }
}

/// Parses a stack in `-JQKAX` notation (or Paulhus digits) into codes.
pub fn parse_stack(s: &str) -> Vec<u8> {
    s.chars()
        .filter(|c| !c.is_whitespace())
        .map(|c| match c {
            '-' | '0' => 0,
            'J' | '1' => 1,
            'Q' | '2' => 2,
            'K' | '3' => 3,
            'A' | '4' => 4,
            'X' | '5' => 5,
            _ => panic!("bad card {c:?}"),
        })
        .collect()
}

/// Parses `HAND1/HAND2`.
pub fn parse_deal(s: &str) -> (Vec<u8>, Vec<u8>) {
    let (a, b) = s.split_once('/').expect("two hands");
    (parse_stack(a), parse_stack(b))
}

/// A tiny xorshift for test randomness (independent of the crate's dealer).
pub struct TestRng(pub u64);

impl TestRng {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    pub fn shuffle(&mut self, v: &mut [u8]) {
        for i in (1..v.len()).rev() {
            let j = self.below(i + 1);
            v.swap(i, j);
        }
    }
}

/// A deck with `plain` plain cards and `per` cards of each code in `codes`.
pub fn deck(plain: usize, per: usize, codes: &[u8]) -> Vec<u8> {
    let mut d = vec![0u8; plain];
    for &c in codes {
        d.extend(std::iter::repeat_n(c, per));
    }
    d
}
