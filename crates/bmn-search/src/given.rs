//! Given deals played exactly and answered in their order: positions from a file, a list, a
//! paper's appendix, rather than numbered deals of a stream. The fast kernel plays every one it
//! can (two players, the standard penalties, at most 64 cards), a capped game goes to bmn-core's
//! cycle detection, and anything else to the reference engine, as [`crate::play_deals`] does
//! for numbered deals.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, Ordering};

use bmn_core::{Kind, Outcome, Player, Position, Rules, play_out_watched};
use bmn_kernel::{Kernel, KernelBuffers, Played, Shape};

use crate::play::{BATCH, exact};

/// A two-hand deal of at most 64 cards as the kernels take it, the leader's hand first: no
/// allocation, so a file of millions of deals is read as fast as the kernels play it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KernelDeal {
    codes: [u8; bmn_kernel::MAX_CARDS],
    len: u8,
    split: u8,
    leader: Player,
}

impl KernelDeal {
    /// Player 1's and player 2's hands (codes 0 plain .. 5 joker, top card first), `leader`
    /// leading; `None` where they are not a kernel's deal (empty, over 64 cards, a code above
    /// 5, a leader past seat 2).
    pub fn new(first: &[u8], second: &[u8], leader: Player) -> Option<KernelDeal> {
        let len = first.len() + second.len();
        let fits = (1..=bmn_kernel::MAX_CARDS).contains(&len)
            && leader.index() < 2
            && first
                .iter()
                .chain(second)
                .all(|&c| c <= bmn_kernel::MAX_CODE);
        if !fits {
            return None;
        }
        let (lead, other) = if leader.index() == 0 {
            (first, second)
        } else {
            (second, first)
        };
        let mut codes = [0; bmn_kernel::MAX_CARDS];
        codes[..lead.len()].copy_from_slice(lead);
        codes[lead.len()..len].copy_from_slice(other);
        Some(KernelDeal {
            codes,
            len: len as u8,
            split: lead.len() as u8,
            leader,
        })
    }

    /// The leader's hand, then the other's.
    fn codes(&self) -> &[u8] {
        &self.codes[..usize::from(self.len)]
    }

    /// The deal as a position, for the reference engine.
    pub fn position(&self) -> Position {
        let (lead, other) = self.codes().split_at(usize::from(self.split));
        let hand = |codes: &[u8]| codes.iter().map(|&c| Kind::from_code(c)).collect();
        let hands = if self.leader.index() == 0 {
            vec![hand(lead), hand(other)]
        } else {
            vec![hand(other), hand(lead)]
        };
        Position::new(hands, self.leader).expect("two hands, the leader among them")
    }
}

/// A deal given to [`play_given`]: a kernel's, or any position.
#[derive(Clone, Debug)]
pub enum GivenDeal {
    Kernel(KernelDeal),
    Any(Position),
}

impl GivenDeal {
    /// `position` in the kernels' terms where it fits them.
    pub fn of(position: Position) -> GivenDeal {
        let stacks = position.stacks();
        let kernel = (position.players() == 2)
            .then(|| {
                let codes = |s: &bmn_core::Stack| -> Vec<u8> {
                    s.iter().map(|k| k.index() as u8).collect()
                };
                KernelDeal::new(&codes(&stacks[0]), &codes(&stacks[1]), position.leader())
            })
            .flatten();
        kernel.map_or(GivenDeal::Any(position), GivenDeal::Kernel)
    }

    pub fn position(&self) -> Position {
        match self {
            GivenDeal::Kernel(k) => k.position(),
            GivenDeal::Any(p) => p.clone(),
        }
    }
}

/// Plays every deal to its end or its cycle, the results in the deals' order: `None` where
/// neither came within `give_up` tricks (as bmn-core's `play_out_within` says). Kernel games
/// past `max_tricks` tricks are handed to bmn-core, so every result is the reference
/// engine's. Each run of deals of one shape plays on the fastest kernel this CPU runs for it.
/// Games on the reference engine (which may run millions of tricks) look at `stop`
/// every few dozen tricks: `None` if it was raised, no result kept.
pub fn play_given(
    deals: &[GivenDeal],
    rules: &Rules,
    max_tricks: u32,
    give_up: u64,
    stop: &AtomicBool,
) -> Option<Vec<Option<Outcome>>> {
    let engine = |p: &Position| {
        play_out_watched(rules, p, give_up, &mut |_, _| !stop.load(Ordering::Relaxed)).ok()
    };
    let mut results: Vec<Option<Option<Outcome>>> = vec![None; deals.len()];
    // The kernel takes a batch of deals of one shape (cards, and the leader's first): a file
    // of one deck is one shape, and a mixed one a few.
    let mut shapes: BTreeMap<(u8, u8), Vec<usize>> = BTreeMap::new();
    let standard = rules.penalties.is_standard();
    for (i, d) in deals.iter().enumerate() {
        match d {
            GivenDeal::Kernel(k) if standard => {
                shapes.entry((k.len, k.split)).or_default().push(i);
            }
            other => results[i] = Some(engine(&other.position())?),
        }
    }
    // A kernel game that has not ended by the give-up is the engine's to decide (a cycle
    // found within it, or nothing), exactly as if the engine had played it all.
    let cap = u32::try_from(give_up).map_or(max_tricks, |g| g.min(max_tricks));
    let mut codes = Vec::new();
    let mut played = Vec::new();
    let mut buffers = KernelBuffers::default();
    for ((len, split), members) in shapes {
        for batch in members.chunks(BATCH) {
            codes.clear();
            let kernel_deal = |i: usize| match &deals[i] {
                GivenDeal::Kernel(k) => k,
                GivenDeal::Any(_) => unreachable!("grouped as a kernel's"),
            };
            for &i in batch {
                codes.extend_from_slice(kernel_deal(i).codes());
            }
            played.clear();
            played.resize(batch.len(), Played::default());
            let (len, split) = (usize::from(len), usize::from(split));
            let kernel = Kernel::fastest(&Shape::of_batch(&codes, len, split, cap));
            buffers.play(kernel, &codes, len, split, cap, &mut played);
            for (&i, &game) in batch.iter().zip(&played) {
                let k = kernel_deal(i);
                results[i] = Some(match game {
                    Played::Capped { .. } => engine(&k.position())?,
                    finished => Some(exact(finished, k.leader, || k.position())),
                });
            }
        }
    }
    Some(
        results
            .into_iter()
            .map(|r| r.expect("every deal played"))
            .collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::DealSource;
    use bmn_core::{Deck, PenaltyTable, play_out_within};

    /// Random deals of several shapes, leaders and tables, against the reference engine.
    #[test]
    fn given_deals_play_as_the_reference_engine_plays_them() {
        let mut positions = Vec::new();
        for (deck, players) in [("standard", 2), ("2J,2Q,6-", 2), ("2J,2Q,2K,2A,8-", 3)] {
            let source =
                DealSource::with_players(Deck::parse(deck).unwrap(), players, false).unwrap();
            let mut codes = vec![0; source.len()];
            for index in 0..3000 {
                source.deal(11, index, &mut codes);
                let p = source.position(&codes);
                // Every other deal led by the last seat.
                let p = if index % 2 == 1 {
                    Position::new(
                        p.stacks()
                            .iter()
                            .map(|s| s.iter().copied().collect())
                            .collect(),
                        Player(players - 1),
                    )
                    .unwrap()
                } else {
                    p
                };
                positions.push(p);
            }
        }
        // Casella's endless game, and one that runs past a small cap.
        positions.push(
            Position::parse_deal(
                "---K---Q-KQAJ-----AAJ--J--/----------Q----KQ-J-----KA",
                Player(0),
            )
            .unwrap(),
        );
        let deals: Vec<GivenDeal> = positions.iter().cloned().map(GivenDeal::of).collect();
        assert!(deals.iter().any(|d| matches!(d, GivenDeal::Kernel(_))));
        assert!(deals.iter().any(|d| matches!(d, GivenDeal::Any(_))));
        for (d, p) in deals.iter().zip(&positions) {
            assert_eq!(d.position(), *p);
        }
        let rules = Rules::STANDARD;
        for (cap, give_up) in [
            (bmn_kernel::DEFAULT_MAX_TRICKS, 100_000),
            (20, 100_000),
            (5000, 30),
        ] {
            let got = play_given(&deals, &rules, cap, give_up, &AtomicBool::new(false)).unwrap();
            for (p, g) in positions.iter().zip(&got) {
                assert_eq!(*g, play_out_within(&rules, p, give_up), "{}", p.deal_text());
            }
        }
        // Another penalty table: the reference engine's alone.
        let rules = Rules {
            penalties: PenaltyTable::parse("K3,J2,Q1,A0").unwrap(),
            ..Rules::STANDARD
        };
        let got = play_given(&deals[..50], &rules, 5000, 100_000, &AtomicBool::new(false)).unwrap();
        // Raised, the flag stops the engine's games: no result (Casella's endless game, past
        // a kernel cap of 20 tricks, goes to the engine).
        let casella = &deals[deals.len() - 1..];
        let stop = AtomicBool::new(true);
        assert!(play_given(casella, &Rules::STANDARD, 20, 100_000, &stop).is_none());
        for (p, g) in positions.iter().zip(&got) {
            assert_eq!(*g, play_out_within(&rules, p, 100_000));
        }
    }
}
