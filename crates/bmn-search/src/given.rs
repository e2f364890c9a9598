//! Given deals played exactly and answered in their order: positions from a file, a list, a
//! paper's appendix, rather than numbered deals of a stream. The fast kernel plays every one it
//! can (two players, the standard penalties, at most 64 cards), a capped game goes to bmn-core's
//! cycle detection, and anything else to the reference engine, as [`crate::play_deals`] does
//! for numbered deals.

use std::collections::BTreeMap;

use bmn_core::{Outcome, Player, Position, Rules, play_out_within};
use bmn_kernel::{Kernel, Played};

use crate::play::{BATCH, exact};

/// Whether `kernel` plays `position` under `rules`: the kernels hard-wire two seats, the
/// standard penalties (a card's code is its penalty) and at most 64 cards.
pub fn kernel_plays(position: &Position, rules: &Rules) -> bool {
    position.players() == 2
        && rules.penalties.is_standard()
        && (1..=bmn_kernel::MAX_CARDS).contains(&position.card_count())
}

/// Plays every position to its end or its cycle, the results in the positions' order: `None`
/// where neither came within `give_up` tricks (as bmn-core's `play_out_within` says). Kernel
/// games past `max_tricks` tricks are handed to bmn-core, so every result is the reference
/// engine's.
pub fn play_given(
    positions: &[Position],
    rules: &Rules,
    kernel: Kernel,
    max_tricks: u32,
    give_up: u64,
) -> Vec<Option<Outcome>> {
    let mut results: Vec<Option<Option<Outcome>>> = vec![None; positions.len()];
    // The kernel takes a batch of deals of one shape (cards, and the leader's first): a file
    // of one deck is one shape, and a mixed one a few.
    let mut shapes: BTreeMap<(usize, usize), Vec<usize>> = BTreeMap::new();
    for (i, p) in positions.iter().enumerate() {
        if kernel_plays(p, rules) {
            let shape = (p.card_count(), p.stack(p.leader()).len());
            shapes.entry(shape).or_default().push(i);
        } else {
            results[i] = Some(play_out_within(rules, p, give_up));
        }
    }
    // A kernel game that has not ended by the give-up is the engine's to decide (a cycle
    // found within it, or nothing), exactly as if the engine had played it all.
    let cap = u32::try_from(give_up).map_or(max_tricks, |g| g.min(max_tricks));
    let mut codes = Vec::new();
    let mut played = Vec::new();
    for ((len, split), members) in shapes {
        for batch in members.chunks(BATCH) {
            codes.clear();
            for &i in batch {
                let p = &positions[i];
                let leader = p.leader();
                let other = Player(1 - leader.index());
                for seat in [leader, other] {
                    codes.extend(p.stack(seat).iter().map(|k| k.index() as u8));
                }
            }
            played.clear();
            played.resize(batch.len(), Played::default());
            bmn_kernel::play_many(kernel, &codes, len, split, cap, &mut played);
            for (&i, &game) in batch.iter().zip(&played) {
                let p = &positions[i];
                results[i] = Some(match game {
                    Played::Capped { .. } => play_out_within(rules, p, give_up),
                    finished => Some(exact(finished, p.leader(), || p.clone())),
                });
            }
        }
    }
    results
        .into_iter()
        .map(|r| r.expect("every position played"))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::DealSource;
    use bmn_core::{Deck, PenaltyTable};

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
        let rules = Rules::STANDARD;
        let kernel = Kernel::best_available();
        for (cap, give_up) in [
            (bmn_kernel::DEFAULT_MAX_TRICKS, 100_000),
            (20, 100_000),
            (5000, 30),
        ] {
            let got = play_given(&positions, &rules, kernel, cap, give_up);
            for (p, g) in positions.iter().zip(&got) {
                assert_eq!(*g, play_out_within(&rules, p, give_up), "{}", p.deal_text());
            }
        }
        // Another penalty table: the reference engine's alone.
        let rules = Rules {
            penalties: PenaltyTable::parse("K3,J2,Q1,A0").unwrap(),
            ..Rules::STANDARD
        };
        let got = play_given(&positions[..50], &rules, kernel, 5000, 100_000);
        for (p, g) in positions.iter().zip(&got) {
            assert_eq!(*g, play_out_within(&rules, p, 100_000));
        }
    }
}
