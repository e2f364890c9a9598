//! Moves: small edits of a deal that keep it a legal deal of the same cards.
//!
//! Why these: a game reads each hand from the top, so an edit deep in a hand changes the game
//! only from the trick that reaches it; the earlier play, and often most of a long game's
//! structure, survives. Swaps and shifts edit one or two cards; cuts and segment exchanges
//! move whole runs of cards, which keeps the order within them. Transfers move a card from one
//! hand to another and so change the hands' sizes (the walk toward balanced deals uses them).

use std::fmt;

use bmn_deals::Xoshiro256PlusPlus;

use crate::cards::Cards;

/// One kind of edit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Move {
    /// Swap two cards (of one hand, if the kinds per hand must stay).
    Swap,
    /// Take a card out and put it back elsewhere in its hand.
    Shift,
    /// Cut one hand: rotate it.
    Cut,
    /// Swap two segments of the same length, one in each of two hands.
    Exchange,
    /// Move a card from one hand to another (the sizes change).
    Transfer,
    /// Move a card from the biggest hand to the smallest: a step toward balanced sizes.
    Give,
}

impl Move {
    pub fn name(self) -> &'static str {
        match self {
            Move::Swap => "swap",
            Move::Shift => "shift",
            Move::Cut => "cut",
            Move::Exchange => "exchange",
            Move::Transfer => "transfer",
            Move::Give => "give",
        }
    }
}

/// The moves a climber draws from, uniformly.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveSet(pub Vec<Move>);

/// Why a move set's name is not one.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "'{0}' is not a move set (swap, shift, cut, exchange, transfer, give, mixed, or a list such as swap,cut)"
)]
pub struct MoveSetError(pub String);

impl MoveSet {
    /// `swap`, `shift`, `cut`, `exchange`, `transfer`, `mixed` (the first four), or a list.
    pub fn parse(text: &str) -> Result<MoveSet, MoveSetError> {
        let mut moves = Vec::new();
        for name in text.split(',').map(str::trim) {
            match name {
                "swap" => moves.push(Move::Swap),
                "shift" => moves.push(Move::Shift),
                "cut" => moves.push(Move::Cut),
                "exchange" => moves.push(Move::Exchange),
                "transfer" => moves.push(Move::Transfer),
                "give" => moves.push(Move::Give),
                "mixed" => moves.extend([Move::Swap, Move::Shift, Move::Cut, Move::Exchange]),
                _ => return Err(MoveSetError(text.to_string())),
            }
        }
        moves.dedup();
        Ok(MoveSet(moves))
    }
}

impl fmt::Display for MoveSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names: Vec<&str> = self.0.iter().map(|m| m.name()).collect();
        f.write_str(&names.join(","))
    }
}

/// A random index below `n` (at least 1).
fn below(rng: &mut Xoshiro256PlusPlus, n: usize) -> usize {
    rng.below(n as u32) as usize
}

/// Applies one random move of `set` to `cards`. With `keep_kinds` every hand keeps how many
/// cards of each kind it holds (balanced deals stay balanced); moves that could not keep
/// them act within one hand. A move that finds nothing to do leaves the deal as it was.
pub fn apply(cards: &mut Cards, set: &MoveSet, keep_kinds: bool, rng: &mut Xoshiro256PlusPlus) {
    let players = cards.sizes.len();
    let m = set.0[below(rng, set.0.len())];
    match m {
        Move::Swap => {
            // Two cards of different kinds: swapping alike cards changes nothing (and with 36
            // plain cards of 52 that would be half the swaps).
            let range = if keep_kinds {
                let p = below(rng, players);
                (cards.start(p), cards.sizes[p])
            } else {
                (0, cards.codes.len())
            };
            let (at, n) = range;
            for _ in 0..16 {
                let (i, j) = (at + below(rng, n), at + below(rng, n));
                if cards.codes[i] != cards.codes[j] {
                    cards.codes.swap(i, j);
                    return;
                }
            }
        }
        Move::Shift => {
            let p = below(rng, players);
            let (at, n) = (cards.start(p), cards.sizes[p]);
            let card = cards.codes.remove(at + below(rng, n));
            cards.codes.insert(at + below(rng, n), card);
        }
        Move::Exchange if !keep_kinds && players > 1 => {
            let a = below(rng, players);
            let b = (a + 1 + below(rng, players - 1)) % players;
            let longest = cards.sizes[a].min(cards.sizes[b]).min(8);
            let len = 1 + below(rng, longest);
            let i = cards.start(a) + below(rng, cards.sizes[a] - len + 1);
            let j = cards.start(b) + below(rng, cards.sizes[b] - len + 1);
            for k in 0..len {
                cards.codes.swap(i + k, j + k);
            }
        }
        // Keeping the kinds (or with one hand), an exchange is a cut of one hand.
        Move::Cut | Move::Exchange => {
            let p = below(rng, players);
            let (at, n) = (cards.start(p), cards.sizes[p]);
            let k = below(rng, n);
            cards.codes[at..at + n].rotate_left(k);
        }
        Move::Transfer | Move::Give => {
            if players < 2 {
                return;
            }
            let (from, to) = if m == Move::Give {
                let biggest = (0..players)
                    .max_by_key(|&p| (cards.sizes[p], p))
                    .unwrap_or(0);
                let smallest = (0..players)
                    .min_by_key(|&p| (cards.sizes[p], p))
                    .unwrap_or(0);
                (biggest, smallest)
            } else {
                let from = below(rng, players);
                (from, (from + 1 + below(rng, players - 1)) % players)
            };
            if cards.sizes[from] < 2 || from == to {
                return;
            }
            let card = cards
                .codes
                .remove(cards.start(from) + below(rng, cards.sizes[from]));
            cards.sizes[from] -= 1;
            let at = cards.start(to) + below(rng, cards.sizes[to] + 1);
            cards.codes.insert(at, card);
            cards.sizes[to] += 1;
        }
    }
}
