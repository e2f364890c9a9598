//! Predecessors: every position exactly one trick before a given one (docs/rules.md, Backward play).
//!
//! Generate and test. The pile of the last trick is a suffix of the winner's stack (the winner
//! is the leader of the position). For each suffix length and each leader of the earlier
//! position, the trick is replayed card by card with the reference engine's turn rules to
//! find who laid each card; where a player could either lay the next card or have run out,
//! both are tried. Each candidate is then rebuilt and played forward one trick with
//! `bmn_core::play_trick`, and only those that land exactly on the position are kept, so
//! the generator may over-generate but never lets a wrong predecessor through. Completeness
//! (no predecessor missed) is checked by tests that invert the forward map on small decks.

use bmn_core::{Kind, MAX_PLAYERS, OnEmpty, Player, Position, Rules, play_trick};

/// Every position from which one trick leads to `position`, each once, ordered by the length
/// of the last trick's pile, then by the leader of the predecessor.
///
/// Works for any number of players, any penalty table (0-penalty cards included) and both
/// running-out rules. A finished position (one player holds every card) has as predecessors
/// the positions whose last trick ended the game, including by the loser running out.
pub fn predecessors(rules: &Rules, position: &Position) -> Vec<Position> {
    let mut found = Vec::new();
    for_each_predecessor(rules, position, |p| {
        found.push(p);
        true
    });
    found
}

/// [`predecessors`] as a visitor: calls `visit` once per predecessor, in the same order, until
/// it returns false (a position of many players has millions of predecessors: the caller may
/// have to stop part-way).
pub fn for_each_predecessor(
    rules: &Rules,
    position: &Position,
    visit: impl FnMut(Position) -> bool,
) {
    for_each_predecessor_until(rules, position, &mut || true, visit);
}

/// [`for_each_predecessor`], also calling `keep_going` every few hundred microseconds of the
/// search (a position of many players can search for seconds between two predecessors): false
/// stops it as `visit` returning false does.
pub(crate) fn for_each_predecessor_until(
    rules: &Rules,
    position: &Position,
    keep_going: &mut dyn FnMut() -> bool,
    mut visit: impl FnMut(Position) -> bool,
) {
    let players = position.players();
    let winner = position.leader().index();
    let winner_stack = position.stack(position.leader());
    // A set, not a list: a final position of many players has thousands of predecessors
    // per pile length, and a list's `contains` made a one-position basin take seconds (found
    // by fuzzing the page's `/api/basin`). Visits keep their order; the set only filters.
    let mut seen: std::collections::HashSet<Position> = std::collections::HashSet::new();
    let done = std::cell::Cell::new(false);
    for pile_len in 1..=winner_stack.len() {
        let keep = winner_stack.len() - pile_len;
        let pile: Vec<Kind> = winner_stack.iter().skip(keep).copied().collect();
        // After the trick, who holds nothing besides (for the winner) the pile just taken.
        let mut rest_empty = [false; MAX_PLAYERS];
        for (p, empty) in rest_empty.iter_mut().enumerate().take(players) {
            *empty = if p == winner {
                keep == 0
            } else {
                position.stacks()[p].is_empty()
            };
        }
        // Players who may have been out before the trick began: they hold nothing now and
        // are not the winner (who must have laid a card or been the last one in).
        let may_be_out: Vec<usize> = (0..players)
            .filter(|&p| p != winner && rest_empty[p])
            .collect();
        let mut ctx = Ctx {
            rules,
            pile: &pile,
            winner,
            players,
            rest_empty,
            owner: vec![0; pile.len()],
            done: &done,
            keep_going: &mut *keep_going,
            steps: 0,
        };
        for leader in 0..players {
            for subset in 0u32..(1 << may_be_out.len()) {
                let mut out = [false; MAX_PLAYERS];
                for (bit, &p) in may_be_out.iter().enumerate() {
                    out[p] = subset >> bit & 1 == 1;
                }
                let start = Sim {
                    turn: leader,
                    debt: None,
                    out,
                    laid: [0; MAX_PLAYERS],
                    next: 0,
                };
                explore(&mut ctx, start, &mut |owner| {
                    let candidate = rebuild(position, keep, &pile, owner, Player(leader));
                    if verify(rules, &candidate, position)
                        && seen.insert(candidate.clone())
                        && !visit(candidate)
                    {
                        done.set(true);
                    }
                });
                if done.get() {
                    return;
                }
            }
        }
        seen.clear(); // predecessors with different pile lengths always differ
    }
}

/// Whether one trick from `candidate` leads exactly to `target`.
fn verify(rules: &Rules, candidate: &Position, target: &Position) -> bool {
    if candidate.winner().is_some() {
        return false; // a finished game has no next trick
    }
    let mut next = candidate.clone();
    play_trick(rules, &mut next);
    next == *target
}

/// The position before the trick: each player's laid cards (in the order laid) go back on
/// top of what they hold after it; the winner first gives up the pile.
fn rebuild(
    position: &Position,
    keep: usize,
    pile: &[Kind],
    owner: &[u8],
    leader: Player,
) -> Position {
    let winner = position.leader().index();
    let hands: Vec<Vec<Kind>> = position
        .stacks()
        .iter()
        .enumerate()
        .map(|(p, stack)| {
            let laid = pile
                .iter()
                .zip(owner)
                .filter(|&(_, &o)| usize::from(o) == p)
                .map(|(&k, _)| k);
            let rest = stack
                .iter()
                .take(if p == winner { keep } else { stack.len() });
            laid.chain(rest.copied()).collect()
        })
        .collect();
    Position::new(hands, leader).expect("same players and leader range as the position")
}

/// What the replay needs besides its state: the rules, the pile read as the cards laid, and a
/// scratch record of who laid each card.
struct Ctx<'a> {
    rules: &'a Rules,
    pile: &'a [Kind],
    winner: usize,
    players: usize,
    rest_empty: [bool; MAX_PLAYERS],
    /// `owner[i]`: the player who laid `pile[i]` on the path being explored.
    owner: Vec<u8>,
    /// The visitor asked to stop: every branch returns.
    done: &'a std::cell::Cell<bool>,
    /// Asked every [`HEARTBEAT`] steps whether to go on.
    keep_going: &'a mut dyn FnMut() -> bool,
    steps: u32,
}

/// Steps of the replay between two calls of `keep_going`: a fraction of a millisecond.
const HEARTBEAT: u32 = 1 << 14;

/// The replay's state, mirroring `bmn_core::play_trick`'s locals. Small and `Copy`, so a
/// branch is a copy.
#[derive(Clone, Copy)]
struct Sim {
    turn: usize,
    /// (player with the claim, cards still owed, whether any were paid yet), as in the engine.
    debt: Option<(usize, u8, bool)>,
    out: [bool; MAX_PLAYERS],
    /// Cards each player has laid in this trick so far.
    laid: [u32; MAX_PLAYERS],
    /// Index in the pile of the next card to be laid.
    next: usize,
}

enum Step {
    Go(Sim),
    /// The trick ended with this taker.
    End(Sim, usize),
}

fn next_in(out: &[bool], players: usize, from: usize) -> usize {
    (1..=players)
        .map(|d| (from + d) % players)
        .find(|&p| !out[p])
        .unwrap_or(from)
}

/// The player to play has no card: out, and play (or the debt) passes on, or `collect` ends it.
fn empty_step(ctx: &Ctx, mut s: Sim) -> Step {
    let p = s.turn;
    s.out[p] = true;
    if let (Some((claim, _, true)), OnEmpty::Collect) = (s.debt, ctx.rules.on_empty) {
        return Step::End(s, claim);
    }
    s.turn = next_in(&s.out, ctx.players, p);
    Step::Go(s)
}

/// The player to play lays the next card of the pile.
fn lay_step(ctx: &mut Ctx, mut s: Sim) -> Step {
    let p = s.turn;
    let card = ctx.pile[s.next];
    ctx.owner[s.next] = p as u8; // p < MAX_PLAYERS = 10
    s.next += 1;
    s.laid[p] += 1;
    match (ctx.rules.penalties.value(card), s.debt) {
        (Some(0), _) => Step::End(s, p),
        (Some(v), _) => {
            s.debt = Some((p, v, false));
            s.turn = next_in(&s.out, ctx.players, p);
            Step::Go(s)
        }
        (None, Some((claim, owed, _))) => {
            if owed == 1 {
                Step::End(s, claim)
            } else {
                s.debt = Some((claim, owed - 1, true));
                Step::Go(s)
            }
        }
        (None, None) => {
            s.turn = next_in(&s.out, ctx.players, p);
            Step::Go(s)
        }
    }
}

/// Replays the trick from `s`, calling `emit` with the owners of the pile's cards for every
/// way of laying the whole pile that ends with the winner taking it at its last card.
fn explore(ctx: &mut Ctx, mut s: Sim, emit: &mut dyn FnMut(&[u8])) {
    loop {
        ctx.steps = ctx.steps.wrapping_add(1);
        if ctx.steps.is_multiple_of(HEARTBEAT) && !(ctx.keep_going)() {
            ctx.done.set(true);
        }
        if ctx.done.get() {
            return;
        }
        let mut still_in = (0..ctx.players).filter(|&p| !s.out[p]);
        if let (Some(last), None) = (still_in.next(), still_in.next()) {
            return finish(ctx, &s, last, emit);
        }
        let p = s.turn;
        let can_lay = !s.out[p] && s.next < ctx.pile.len();
        // No card to play: the player was out before the trick (only a leader can be asked
        // then), or holds nothing after it and has already laid a card in it (a player who
        // laid none and holds nothing was out from the start, a separate branch).
        let can_be_empty = s.out[p] || (ctx.rest_empty[p] && s.laid[p] > 0);
        let step = match (can_lay, can_be_empty) {
            (true, true) => {
                match empty_step(ctx, s) {
                    Step::Go(t) => explore(ctx, t, emit),
                    Step::End(t, taker) => finish(ctx, &t, taker, emit),
                }
                lay_step(ctx, s)
            }
            (true, false) => lay_step(ctx, s),
            (false, true) => empty_step(ctx, s),
            (false, false) => return,
        };
        match step {
            Step::Go(t) => s = t,
            Step::End(t, taker) => return finish(ctx, &t, taker, emit),
        }
    }
}

fn finish(ctx: &Ctx, s: &Sim, taker: usize, emit: &mut dyn FnMut(&[u8])) {
    if taker == ctx.winner && s.next == ctx.pile.len() {
        emit(&ctx.owner);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pos(text: &str, leader: usize) -> Position {
        Position::parse(text, Player(leader - 1)).unwrap()
    }

    #[track_caller]
    fn check(rules: &Rules, text: &str, leader: usize, expected: &[(&str, usize)]) {
        let got: Vec<String> = predecessors(rules, &pos(text, leader))
            .iter()
            .map(ToString::to_string)
            .collect();
        let want: Vec<String> = expected
            .iter()
            .map(|&(t, l)| pos(t, l).to_string())
            .collect();
        assert_eq!(got, want, "predecessors of {text} (leader {leader})");
    }

    #[test]
    fn spec_case_is_found() {
        // docs/rules.md, Backward play.
        let target = pos("--K---A----AAJ-/J-", 1);
        let preds = predecessors(&Rules::STANDARD, &target);
        assert!(preds.contains(&pos("J--K---A----AA/-J-", 1)), "{preds:?}");
    }

    #[test]
    fn worked_by_hand() {
        // Pile "J-": 2 led J, 1 paid -. Pile "-J-": 1 led -, 2 laid J, 1 paid -.
        check(&Rules::STANDARD, "-/-J-", 2, &[("--/J-", 2), ("---/J", 1)]);
        // A finished position: the loser ran out while following or while paying.
        check(
            &Rules::STANDARD,
            "-K--/",
            1,
            &[("--K/-", 2), ("K-/--", 1), ("K/---", 2)],
        );
        // Nothing precedes a position whose leader holds no card.
        check(&Rules::STANDARD, "/--", 1, &[]);
    }

    #[test]
    fn zero_penalty_card() {
        // Knocking Dolly (A0): an A takes the pile the moment it is laid.
        let dolly = Rules {
            penalties: bmn_core::PenaltyTable::parse("K3,J2,Q1,A0").unwrap(),
            on_empty: OnEmpty::Pass,
        };
        let preds = predecessors(&dolly, &pos("---A/-", 1));
        assert!(preds.contains(&pos("-A-/--", 1)), "{preds:?}");
    }
}
