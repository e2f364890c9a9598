//! A cycle's class: whether it is anti-periodic and whether it splits at rest states of
//! Casella's kind. With its smallest hand (`min_hand`), the class says which of the census's
//! methods can reach it (docs/census.md).
//!
//! Casella et al. (arXiv 2403.13855) build endless games from *pieces*:
//! player 1 leads `Δ1 J Δ2 J ... Δk J -` against player 2's `J -`, and each piece returns the
//! game to that rest state with its winnings queued behind the other pieces. The census's
//! `pieces` method builds such cycles. A cycle of another kind (docs/results.md, Part 8, on
//! Camicia's 84-, 20- and 36-trick cycles) either never passes through a rest state, or does so
//! with the small hand changing sides, so that no segment of play is independent of the rest.

use std::collections::HashSet;

use bmn_core::{Kind, Player, Position, Rules, play_trick_observed};

/// Whether the cycle through `start`, whose every position is `on_cycle`, is anti-periodic:
/// it passes through `start` with its seats renamed. With two players that happens half-way
/// round, and the second half is the first with the hands swapped.
pub fn anti_periodic(on_cycle: &HashSet<Position>, start: &Position) -> bool {
    (1..start.players()).any(|by| on_cycle.contains(&start.seats_rotated(by)))
}

/// Whether the two-player cycle through `start` (a position on it, `period` tricks round)
/// splits at rest states of Casella's kind, as a deck built from pieces does.
///
/// A rest state: a trick begins with one player (`small`) holding only a jack and then a plain
/// card, `J-`, and the other (`big`) to lead. Walking one period from such a state, the rest
/// states with the same `small` cut the cards `big` lays into segments. They form an aligned
/// decomposition, the condition for building the cycle from pieces, when there are at least
/// two segments, each one lays only cards `big` held when it began (it does not play its own
/// winnings), and every segment's winnings are queued at one fixed offset from where a segment
/// starts (in Casella's template the offset is the trailing `-` behind the last jack).
///
/// Measured on every cycle of the enumerable decks (docs/census.md): 352 of Paulhus's 534
/// cycles (n = 6 to 11) split, every cycle of `3J,3Q,3K,8-` to `10-`, the cycles of 366 of
/// `3J,3Q,3K,11-`'s 1546 deals, and none of the `2J,2Q,2K,n-` family.
pub fn splits_at_rest_state(rules: &Rules, start: &Position, period: u64) -> bool {
    if start.players() != 2 || period == 0 {
        return false;
    }
    [Player(0), Player(1)]
        .into_iter()
        .any(|small| aligned(rules, start, period, small))
}

fn is_rest(p: &Position, small: Player) -> bool {
    let s = p.stack(small);
    p.leader() != small && s.len() == 2 && s[0] == Kind::Jack && s[1] == Kind::Plain
}

/// One period from the first rest state with `small` holding `J-`, if there is one.
fn aligned(rules: &Rules, start: &Position, period: u64, small: Player) -> bool {
    let mut p = start.clone();
    let mut found = false;
    for _ in 0..period {
        if is_rest(&p, small) {
            found = true;
            break;
        }
        play_trick_observed(rules, &mut p, |_| {});
    }
    if !found {
        return false;
    }
    let big = Player(1 - small.index());
    let held = p.stack(big).len() as u64;
    // Per segment: the count of cards `big` had laid and had won when it began.
    let mut segments: Vec<(u64, u64)> = vec![(0, 0)];
    let (mut laid, mut won) = (0u64, 0u64);
    for trick in 0..period {
        if trick > 0 && is_rest(&p, small) {
            segments.push((laid, won));
        }
        let t = play_trick_observed(rules, &mut p, |c| {
            if c.player == big {
                laid += 1;
            }
        });
        if t.taker == big {
            won += t.cards;
        }
    }
    if segments.len() < 2 {
        return false;
    }
    // `big`'s stack is a queue: the card laid k-th (from 0) is the one it held, or the
    // (k - held)-th it won. One period lays as many as it wins, and the play repeats, so
    // positions in the queue are taken modulo that count.
    let per_period = laid.max(1);
    segments.push((laid, won));
    let own = segments.windows(2).all(|w| {
        let ((laid_from, won_from), (laid_to, _)) = (w[0], w[1]);
        // The last card it lays is one it held or had won before the segment began.
        laid_to > laid_from && (laid_to <= held || laid_to - held <= won_from)
    });
    // Each segment's winnings start one fixed offset after a segment's start.
    let starts: HashSet<u64> = segments[..segments.len() - 1]
        .iter()
        .map(|s| s.0 % per_period)
        .collect();
    let wins: Vec<u64> = segments
        .windows(2)
        .filter(|w| w[1].1 > w[0].1)
        .map(|w| (held + w[0].1) % per_period)
        .collect();
    let shifted = |c: u64| {
        wins.iter()
            .all(|w| starts.contains(&((w + per_period - c) % per_period)))
    };
    // The offset lies within what `big` held: its winnings queue behind it.
    own && (wins.is_empty() || (0..held.min(per_period)).any(shifted))
}
