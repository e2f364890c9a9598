//! A card-by-card two-player loop, written the way the fast public simulators are (ring
//! buffers, one branch per card): the baseline the trick-level kernels are measured against.
//! Exact, so it doubles as a second reference in the tests.

use crate::Played;

/// Ring buffer of at most 64 cards (the kernels' limit), indices wrap with a mask.
struct Ring {
    buf: [u8; 64],
    head: u32,
    len: u32,
}

impl Ring {
    fn new(cards: &[u8]) -> Self {
        let mut buf = [0u8; 64];
        buf[..cards.len()].copy_from_slice(cards);
        Ring {
            buf,
            head: 0,
            len: cards.len() as u32,
        }
    }

    #[inline(always)]
    fn pop(&mut self) -> Option<u8> {
        if self.len == 0 {
            return None;
        }
        let c = self.buf[(self.head & 63) as usize];
        self.head = self.head.wrapping_add(1);
        self.len -= 1;
        Some(c)
    }

    #[inline(always)]
    fn extend(&mut self, pile: &[u8]) {
        for &c in pile {
            self.buf[(self.head.wrapping_add(self.len) & 63) as usize] = c;
            self.len += 1;
        }
    }
}

/// Plays one game card by card; same contract as [`crate::play`].
///
/// # Panics
/// If the stacks hold more than 64 cards together or `leader > 1`.
pub fn play_cardwise(p1: &[u8], p2: &[u8], leader: u8, max_tricks: u32) -> Played {
    assert!(leader <= 1 && p1.len() + p2.len() <= 64);
    if p1.is_empty() || p2.is_empty() {
        let winner = if p1.is_empty() && !p2.is_empty() {
            1
        } else if !p1.is_empty() {
            0
        } else {
            leader
        };
        return Played::Finished {
            winner,
            cards: 0,
            tricks: 0,
        };
    }
    let mut hands = [Ring::new(p1), Ring::new(p2)];
    let mut pile = [0u8; 64];
    let mut lead = leader as usize;
    let (mut cards, mut tricks) = (0u32, 0u32);
    loop {
        if tricks >= max_tricks {
            return Played::Capped { cards, tricks };
        }
        let mut m = 0usize;
        let mut turn = lead;
        let mut debt = 0u8; // 0: no penalty card down yet
        loop {
            let Some(c) = hands[turn].pop() else {
                return Played::Finished {
                    winner: (turn ^ 1) as u8,
                    cards: cards + m as u32,
                    tricks: tricks + 1,
                };
            };
            pile[m] = c;
            m += 1;
            if c != 0 {
                debt = c;
                turn ^= 1;
            } else if debt == 0 {
                turn ^= 1;
            } else {
                debt -= 1;
                if debt == 0 {
                    let claim = turn ^ 1;
                    hands[claim].extend(&pile[..m]);
                    cards += m as u32;
                    tricks += 1;
                    if hands[turn].len == 0 {
                        return Played::Finished {
                            winner: claim as u8,
                            cards,
                            tricks,
                        };
                    }
                    lead = claim;
                    break;
                }
            }
        }
    }
}
