//! Shared test helpers: the reference engine as the oracle, notation parsing, deck builders.
#![allow(dead_code)]

use bmn_core::{Game, Kind, Player, Position, Rules};
use bmn_kernel::{Kernel, Played, Shape};

/// The yardstick: bmn-core's reference engine, played for at most `max_tricks` tricks and
/// reported in the kernels' terms (a game still going is `Capped`).
pub fn oracle(p1: &[u8], p2: &[u8], leader: u8, max_tricks: u32) -> Played {
    let hand = |h: &[u8]| {
        h.iter()
            .map(|&c| Kind::from_index(c.into()).expect("card code"))
            .collect()
    };
    let start = Position::new(vec![hand(p1), hand(p2)], Player(leader.into())).expect("position");
    let mut game = Game::new(Rules::STANDARD, start);
    game.run(max_tricks.into());
    let (cards, tricks) = (game.cards() as u32, game.tricks() as u32);
    match game.winner() {
        Some(w) => Played::Finished {
            winner: w.index() as u8,
            cards,
            tricks,
        },
        None => Played::Capped { cards, tricks },
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
    /// `n` cards of a random composition: a third penalty cards, codes 1..=5 alike.
    pub fn cards(&mut self, n: usize) -> Vec<u8> {
        (0..n)
            .map(|_| {
                if self.below(3) == 0 {
                    1 + self.below(5) as u8
                } else {
                    0
                }
            })
            .collect()
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

/// Every kernel this CPU runs that takes the batch (`flat`: deals of `n` cards split at
/// `split`, capped at `cap` tricks): what each test plays a batch on.
pub fn kernels_for(flat: &[u8], n: usize, split: usize, cap: u32) -> Vec<Kernel> {
    Kernel::all_for(&Shape::of_batch(flat, n, split, cap))
}

/// Says which kernels this CPU does not run (or `BMN_SIMD` hides), and so leaves untested
/// (`-- --nocapture` shows it).
pub fn say_untested() {
    let unrun: Vec<&str> = Kernel::ALL
        .into_iter()
        .filter(|k| !k.is_available())
        .map(Kernel::name)
        .collect();
    if !unrun.is_empty() {
        eprintln!(
            "kernels this CPU does not run (or BMN_SIMD hides), untested here: {}",
            unrun.join(", ")
        );
    }
}
