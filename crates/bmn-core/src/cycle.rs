//! Playing a game out exactly: finish, or find the cycle with Brent's algorithm and name it.
//!
//! Brent, "An improved Monte Carlo factorization algorithm", BIT 20 (1980): the cycle-finding
//! part needs one saved position and compares at most ~2(μ+λ) times; no visited set, so memory
//! stays at two positions however long the game.

use std::cmp::Ordering;
use std::fmt;

use crate::engine::Game;
use crate::player::Player;
use crate::position::Position;
use crate::rules::Rules;

/// A stretch of play: tricks and cards laid in it.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize,
)]
pub struct Span {
    pub tricks: u64,
    pub cards: u64,
}

/// The canonical name of a cycle: FNV-1a 64 of its representative's deal text (see
/// `CycleId::of_cycle`). The same for every position of the cycle, with players renamed or not.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, serde::Deserialize,
)]
pub struct CycleId(pub u64);

impl fmt::Display for CycleId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:016x}", self.0)
    }
}

/// FNV-1a, 64-bit (Fowler, Noll, Vo): tiny, specified, and stable across versions and platforms,
/// which std's hasher is not.
pub fn fnv1a64(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// A game that never ends.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cycle {
    /// Play before the first position that lies on the cycle.
    pub preperiod: Span,
    /// One turn round the cycle.
    pub period: Span,
    /// The first position of the game that lies on the cycle.
    pub start: Position,
    /// The cycle's canonical representative: the least position of the cycle in
    /// `Position::canonical_cmp` order after renaming seats so that the leader is player 1.
    pub representative: Position,
    pub id: CycleId,
}

/// How a game played out.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    Finished {
        winner: Player,
        cards: u64,
        tricks: u64,
    },
    Cycle(Cycle),
}

/// Plays `start` until it ends or provably never does.
pub fn play_out(rules: &Rules, start: &Position) -> Outcome {
    play_out_within(rules, start, u64::MAX).expect("no trick limit")
}

/// [`play_out`], giving up (`None`) when the game has neither ended nor shown its cycle within
/// `limit` tricks. Some tables make games whose cycles are astronomically long (Knocking
/// Dolly's 0-penalty aces with three players: millions of tricks without a repeat), and a run
/// over many deals must not hang on one. The limit bounds the search phase; once the cycle is
/// found, measuring it costs at most twice as much again.
pub fn play_out_within(rules: &Rules, start: &Position, limit: u64) -> Option<Outcome> {
    match play_out_watched(rules, start, limit, &mut |_, _| true) {
        Ok(outcome) => outcome,
        Err(_) => unreachable!("a watch that never stops"),
    }
}

/// Tricks between two looks of a watch ([`play_out_watched`]): microseconds of the reference
/// engine on a standard deck, and still well under a second on hands of 10^5 cards, where a
/// comparison of two positions reads them whole.
pub const WATCH_EVERY: u64 = 64;

/// A game played out under a watch that stopped it: the game as far as it got (the fast
/// pointer of the search for its cycle), and the period where the cycle had been found.
#[derive(Clone, Debug)]
pub struct Stopped {
    pub game: Game,
    pub period: Option<u64>,
}

/// [`play_out_within`], shown every [`WATCH_EVERY`] tricks the tricks played so far (the
/// search's and the measuring's together) and the game furthest ahead; it stops with
/// [`Stopped`] when `go` says so. A game of millions of tricks is a long job of its own.
pub fn play_out_watched(
    rules: &Rules,
    start: &Position,
    limit: u64,
    go: &mut dyn FnMut(u64, &Game) -> bool,
) -> Result<Option<Outcome>, Stopped> {
    // Phase 1 (Brent): the hare runs ahead; the tortoise jumps to it at each power of two.
    // When they meet, `lambda` is the period in tricks.
    let mut hare = Game::new(*rules, start.clone());
    let mut tortoise = start.clone();
    let mut power = 1u64;
    let mut lambda = 0u64;
    loop {
        if let Some(winner) = hare.winner() {
            return Ok(Some(Outcome::Finished {
                winner,
                cards: hare.cards(),
                tricks: hare.tricks(),
            }));
        }
        if hare.tricks() >= limit {
            return Ok(None);
        }
        if hare.tricks().is_multiple_of(WATCH_EVERY)
            && hare.tricks() > 0
            && !go(hare.tricks(), &hare)
        {
            return Err(Stopped {
                game: hare,
                period: None,
            });
        }
        hare.step();
        lambda += 1;
        if *hare.position() == tortoise {
            break;
        }
        if lambda == power {
            tortoise = hare.position().clone();
            power *= 2;
            lambda = 0;
        }
    }
    let searched = hare.tricks();
    let mut stopped = |done: u64| -> Option<Stopped> {
        (done.is_multiple_of(WATCH_EVERY) && !go(searched + done, &hare)).then(|| Stopped {
            game: hare.clone(),
            period: Some(lambda),
        })
    };
    // Phase 2: a second hare `lambda` tricks ahead of a second tortoise, both from the start;
    // they first meet at the first position on the cycle, after `mu` tricks.
    let mut slow = Game::new(*rules, start.clone());
    let mut fast = Game::new(*rules, start.clone());
    for done in 1..=lambda {
        if let Some(s) = stopped(done) {
            return Err(s);
        }
        fast.step();
    }
    while slow.position() != fast.position() {
        if let Some(s) = stopped(lambda + slow.tricks() + 1) {
            return Err(s);
        }
        slow.step();
        fast.step();
    }
    let preperiod = Span {
        tricks: slow.tricks(),
        cards: slow.cards(),
    };
    let period = Span {
        tricks: lambda,
        cards: fast.cards() - slow.cards(),
    };
    let measured = lambda + preperiod.tricks;
    let Some((representative, id)) = canonical_watched(rules, slow.position(), lambda, &mut |d| {
        stopped(measured + d).is_none()
    }) else {
        return Err(Stopped {
            game: hare.clone(),
            period: Some(lambda),
        });
    };
    Ok(Some(Outcome::Cycle(Cycle {
        preperiod,
        period,
        start: slow.into_position(),
        representative,
        id,
    })))
}

/// Walks the cycle through `on_cycle` (period `lambda` tricks) and returns its canonical
/// representative and id.
pub fn canonical(rules: &Rules, on_cycle: &Position, lambda: u64) -> (Position, CycleId) {
    canonical_watched(rules, on_cycle, lambda, &mut |_| true).expect("never stopped")
}

/// [`canonical`], asking `go` with the tricks walked whether to go on; `None` if it said no.
fn canonical_watched(
    rules: &Rules,
    on_cycle: &Position,
    lambda: u64,
    go: &mut dyn FnMut(u64) -> bool,
) -> Option<(Position, CycleId)> {
    let mut walk = Game::new(*rules, on_cycle.clone());
    let mut best = on_cycle.rotated_to_leader();
    for done in 1..lambda {
        if !go(done) {
            return None;
        }
        walk.step();
        let candidate = walk.position().rotated_to_leader();
        if candidate.canonical_cmp(&best) == Ordering::Less {
            best = candidate;
        }
    }
    let id = CycleId(fnv1a64(best.deal_text().as_bytes()));
    Some((best, id))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn outcome(deal: &str, leader: usize) -> Outcome {
        play_out(
            &Rules::STANDARD,
            &Position::parse_deal(deal, Player(leader - 1)).unwrap(),
        )
    }

    /// A watch sees the game as it goes and stops it where it says, in the search for the
    /// cycle or while measuring it; one that never stops changes nothing.
    #[test]
    fn a_watch_stops_a_game_where_it_got_to() {
        let casella = "---K---Q-KQAJ-----AAJ--J--/----------Q----KQ-J-----KA";
        let start = Position::parse_deal(casella, Player(0)).unwrap();
        let rules = Rules::STANDARD;
        for stop_at in 1..6u64 {
            let mut calls = 0;
            let mut seen = Vec::new();
            let got = play_out_watched(&rules, &start, u64::MAX, &mut |done, game| {
                calls += 1;
                seen.push((done, game.tricks()));
                calls < stop_at
            });
            match got {
                Err(stopped) => {
                    assert!(stopped.game.tricks() > 0);
                    assert!(stopped.period.is_none_or(|p| p == 62), "{stopped:?}");
                    assert!(seen.windows(2).all(|w| w[0].0 < w[1].0), "{seen:?}");
                }
                Ok(outcome) => assert_eq!(outcome, Some(play_out(&rules, &start))),
            }
        }
        let never = play_out_watched(&rules, &start, u64::MAX, &mut |_, _| true);
        assert_eq!(never.unwrap(), Some(play_out(&rules, &start)));
    }

    fn cycle(deal: &str, leader: usize) -> Cycle {
        match outcome(deal, leader) {
            Outcome::Cycle(c) => c,
            other => panic!("{deal} should cycle, got {other:?}"),
        }
    }

    #[test]
    fn fnv_pinned() {
        // Published FNV-1a 64 test vectors.
        assert_eq!(fnv1a64(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a64(b"a"), 0xaf63_dc4c_8601_ec8c);
    }

    #[test]
    fn ten_card_cycle() {
        let c = cycle("--Q-J-/Q-J-", 1);
        assert_eq!(
            c.preperiod,
            Span {
                tricks: 0,
                cards: 0
            }
        );
        assert_eq!(
            c.period,
            Span {
                tricks: 3,
                cards: 15
            }
        );
    }

    #[test]
    fn same_id_from_every_position_and_with_players_swapped() {
        let c = cycle("--Q-J-/Q-J-", 1);
        let mut g = Game::new(Rules::STANDARD, c.start.clone());
        for _ in 0..c.period.tricks {
            let p = g.position();
            let swapped = Position::parse(
                &format!(
                    "{}/{}",
                    crate::notation::format_stack(p.stack(Player(1))),
                    crate::notation::format_stack(p.stack(Player(0)))
                ),
                Player(1 - p.leader().index()),
            )
            .unwrap();
            for q in [p.clone(), swapped] {
                match play_out(&Rules::STANDARD, &q) {
                    Outcome::Cycle(d) => assert_eq!((d.id, d.period), (c.id, c.period)),
                    other => panic!("{other:?}"),
                }
            }
            g.step();
        }
    }

    #[test]
    fn finishing_game() {
        assert_eq!(
            outcome("--K/J-", 1),
            Outcome::Finished {
                winner: Player(1),
                cards: 7,
                tricks: 2
            }
        );
    }
}
