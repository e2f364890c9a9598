//! Depth-first enumeration of the strings whose pass keeps the template's shape.
//!
//! Candidates sharing a prefix share the pass up to it, and the pass from there on depends
//! only on the [`PassKey`] and on what cards are still to come. A key that led nowhere with
//! a given budget leads nowhere again, so it is remembered and never expanded twice: the
//! search costs about (distinct keys) x (budgets) instead of 4^length.

use std::collections::HashSet;
use std::sync::atomic::{AtomicBool, Ordering};

use bmn_core::Kind;

use crate::pass::{Pass, PassKey};
use crate::piece::{PIECE_KINDS, Piece};

/// Dead states remembered at most (about 120 bytes each).
const MEMO_CAP: usize = 2_000_000;

/// The states that led nowhere, with the budget they had. foldhash rather than std's SipHash:
/// the keys are a few packed words, and hashing them was a third of the search's time.
pub(crate) type Memo = HashSet<(PassKey, Budget), foldhash::fast::RandomState>;

/// What is left to lay: cards in all, and the faces (Q, K, A) still owed if the faces are
/// fixed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Budget {
    pub(crate) len: u32,
    pub(crate) faces: Option<[u32; 3]>,
}

impl Budget {
    fn feasible(&self) -> bool {
        self.faces.is_none_or(|f| f.iter().sum::<u32>() <= self.len)
    }

    fn allows(&self, kind: Kind) -> bool {
        match (self.faces, kind) {
            (None, _) | (Some(_), Kind::Plain) => true,
            (Some(f), k) => f[face_slot(k)] > 0,
        }
    }

    /// The most cards player 2 can still lay before the piece runs out: one after each
    /// plain card of player 1's (its turn), at most the penalty after each face (paying).
    fn p2_can_lay(&self) -> u32 {
        match self.faces {
            None => 4 * self.len,
            Some([q, k, a]) => self.len - q - k - a + 2 * q + 3 * k + 4 * a,
        }
    }

    fn after(&self, kind: Kind) -> Budget {
        let mut b = *self;
        b.len -= 1;
        if let (Some(f), false) = (b.faces.as_mut(), kind == Kind::Plain) {
            f[face_slot(kind)] -= 1;
        }
        b
    }
}

fn face_slot(kind: Kind) -> usize {
    match kind {
        Kind::Queen => 0,
        Kind::King => 1,
        _ => 2,
    }
}

/// Enumerates, in increasing order, every string of `budget.len` cards beginning with
/// `prefix` (and within the budget) whose pass closes in the template's shape; calls
/// `found(string, turned)` with what one pass turns it into. `dead` remembers states that
/// lead nowhere; it may be shared between calls. Returns the number of cards laid (work).
pub(crate) fn enumerate(
    prefix: &[Kind],
    budget: Budget,
    dead: &mut Memo,
    stop: &AtomicBool,
    mut found: impl FnMut(&Piece, Piece),
) -> u64 {
    let mut pass = Pass::start();
    let mut b = budget;
    for &k in prefix {
        if !b.allows(k) || b.len == 0 {
            return 0;
        }
        if !pass.lay(k) {
            return 0;
        }
        b = b.after(k);
    }
    if !b.feasible() {
        return 0;
    }
    let mut cards = prefix.to_vec();
    let mut walk = Walk {
        dead,
        stop,
        work: 0,
    };
    dfs(&mut pass, b, &mut cards, &mut walk, &mut found);
    walk.work
}

/// What a walk of the tree carries down it: the dead ends known, the caller's stop (a large
/// search runs minutes in one unit; a stopped walk returns at once, and its unit is dropped, so
/// the dead ends it marked on the way out never matter) and the nodes visited.
struct Walk<'a> {
    dead: &'a mut Memo,
    stop: &'a AtomicBool,
    work: u64,
}

/// Whether anything was found below this state; `pass` is left as it was.
fn dfs(
    pass: &mut Pass,
    budget: Budget,
    cards: &mut Vec<Kind>,
    walk: &mut Walk,
    found: &mut impl FnMut(&Piece, Piece),
) -> bool {
    if walk.stop.load(Ordering::Relaxed) {
        return false;
    }
    if budget.len == 0 {
        let mark = pass.mark();
        let turned = pass.close_in_place();
        pass.undo(mark);
        let Some(turned) = turned else {
            return false;
        };
        let piece = Piece::new(cards.clone()).expect("piece kinds only");
        found(&piece, turned);
        return true;
    }
    // The pass closes only if player 2 holds `- J -` when the piece runs out (then the
    // closing jack wins the trick and leaves it `J -`): it must be able to lay the excess.
    if pass.key.p2_len().saturating_sub(3) > budget.p2_can_lay() as usize {
        return false;
    }
    let memo = (pass.key, budget);
    if walk.dead.contains(&memo) {
        return false;
    }
    let mut any = false;
    for kind in PIECE_KINDS {
        if !budget.allows(kind) {
            continue;
        }
        let next_budget = budget.after(kind);
        if !next_budget.feasible() {
            continue;
        }
        let mark = pass.mark();
        walk.work += 1;
        if pass.lay(kind) {
            cards.push(kind);
            any |= dfs(pass, next_budget, cards, walk, found);
            cards.pop();
        }
        pass.undo(mark);
    }
    if !any {
        // The memo only prunes, so forgetting it changes the work, never the result; the
        // cap keeps long searches (30+ cards) within a few hundred megabytes.
        if walk.dead.len() >= MEMO_CAP {
            walk.dead.clear();
        }
        walk.dead.insert(memo);
    }
    any
}
