//! The fast path: one pass of a piece through the jack template, card by card.
//!
//! In the construction of Casella et al. (arXiv 2403.13855, 2024; Amer. Math. Monthly 2025)
//! player 1 holds pieces separated by jacks, `Δ1 J Δ2 J Δ3 J -`, and player 2 holds `J -`,
//! player 1 leading. Playing the first piece against player 2's `J -` (one *pass*) ends,
//! when the piece is a piece, in the same shape with the first piece turned into another
//! piece of the same cards at the back: `Δ2 J Δ3 J Δ1' J - / J -`. The rest of player 1's
//! stack is never touched during the pass, which is why pieces behave independently.
//!
//! This module plays one pass without bmn-core's `Position` (no allocation per card: the two
//! stacks are packed [`PackedStack`]s) so that the search can try millions of candidates and share
//! work between candidates with a common prefix: the state when player 1 is about to lay its
//! next card of the piece ([`PassKey`]) decides everything that follows. A kernel cannot: it
//! plays whole deals to their end, where a search lays one card, keeps the state, and tries
//! the next card from it. Every piece the
//! search reports is then checked with bmn-core's reference engine ([`crate::template`]):
//! this path only proposes.

use bmn_core::{Kind, PenaltyTable};

use crate::piece::Piece;
use crate::stack::PackedStack;

/// The construction is played with the standard penalties (docs/rules.md): bmn-core's table,
/// not a copy of it, so the pass and the reference engine that checks it cannot disagree.
fn penalty(kind: Kind) -> Option<u8> {
    PenaltyTable::STANDARD.value(kind)
}

/// Everything about a pass in progress that decides its future, taken when player 1 must
/// lay its next card: player 2's stack, the pile, and the debt in force.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct PassKey {
    p2: PackedStack,
    pile: PackedStack,
    /// (player with the claim, 0 for player 1 or 1 for player 2; cards still owed).
    debt: Option<(u8, u8)>,
}

impl PassKey {
    pub(crate) fn p2_len(&self) -> usize {
        self.p2.len()
    }
}

/// A pass in progress, waiting for player 1's next card.
#[derive(Clone, Debug)]
pub(crate) struct Pass {
    pub(crate) key: PassKey,
    /// The piles player 1 has taken, in order: they go under the rest of its stack.
    gained: Vec<Kind>,
}

/// Where a pass stood: [`Pass::undo`] returns to it (the search tries each card from one
/// state without copying the gains).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Mark {
    key: PassKey,
    gained: usize,
}

impl Pass {
    /// Player 1 leads a piece against player 2's `J -`.
    pub(crate) fn start() -> Pass {
        Pass {
            key: PassKey {
                p2: PackedStack::of(&[Kind::Jack, Kind::Plain]),
                pile: PackedStack::default(),
                debt: None,
            },
            gained: Vec::new(),
        }
    }

    pub(crate) fn mark(&self) -> Mark {
        Mark {
            key: self.key,
            gained: self.gained.len(),
        }
    }

    pub(crate) fn undo(&mut self, mark: Mark) {
        self.key = mark.key;
        self.gained.truncate(mark.gained);
    }

    /// Player 1 lays `card`; play goes on until player 1 must lay again. `false` if the game
    /// ended on the way (player 2 ran out), which no continuation can undo.
    pub(crate) fn lay(&mut self, card: Kind) -> bool {
        let mut turn = 0u8;
        let mut next = Some(card);
        loop {
            let card = if turn == 0 {
                match next.take() {
                    Some(c) => c,
                    None => return true, // player 1 must lay again
                }
            } else {
                match self.key.p2.pop_front() {
                    Some(c) => c,
                    None => return false, // player 2 is out: player 1 holds every card
                }
            };
            self.key.pile.push(card);
            match (penalty(card), self.key.debt) {
                (Some(v), _) => {
                    self.key.debt = Some((turn, v));
                    turn ^= 1;
                }
                (None, Some((claim, 1))) => {
                    if claim == 0 {
                        self.gained.extend(self.key.pile.iter());
                        self.key.pile = PackedStack::default();
                    } else {
                        self.key.p2.append(&mut self.key.pile);
                    }
                    self.key.debt = None;
                    turn = claim;
                }
                (None, Some((claim, owed))) => self.key.debt = Some((claim, owed - 1)),
                (None, None) => turn ^= 1,
            }
        }
    }

    /// Lays the jack that closes the piece and says what the piece turned into: `Some` when
    /// the pass ends in the template's shape (player 1 to lead a new trick with the next
    /// piece, player 2 holding `J -` again, player 1's gains ending in `J -` and holding no
    /// other jack); the new piece is a plain card followed by the gains before that `J -`.
    pub(crate) fn close(mut self) -> Option<Piece> {
        self.close_in_place()
    }

    /// [`Self::close`] on this pass, which it leaves closed (or ended): [`Self::undo`] to a
    /// mark taken before returns it to where it was.
    pub(crate) fn close_in_place(&mut self) -> Option<Piece> {
        if !self.lay(Kind::Jack) {
            return None;
        }
        let k = &self.key;
        let shape = k.pile.is_empty()
            && k.debt.is_none()
            && k.p2.len() == 2
            && k.p2.get(0) == Kind::Jack
            && k.p2.get(1) == Kind::Plain;
        let g = &self.gained;
        let n = g.len();
        if !shape || n < 2 || g[n - 2] != Kind::Jack || g[n - 1] != Kind::Plain {
            return None;
        }
        if g[..n - 2].contains(&Kind::Jack) {
            return None;
        }
        let mut cards = Vec::with_capacity(n - 1);
        cards.push(Kind::Plain);
        cards.extend_from_slice(&g[..n - 2]);
        Some(Piece::new(cards).expect("no jack in the gains"))
    }
}

/// What one pass turns `piece` into, if the pass keeps the template's shape.
pub fn turn(piece: &Piece) -> Option<Piece> {
    let mut pass = Pass::start();
    for &card in piece.cards() {
        if !pass.lay(card) {
            return None;
        }
    }
    pass.close()
}

/// Where player 2's stack is largest during a pass of `piece`, counted each time player 1 is
/// to lay: the cards of the piece laid when it first reaches that size, and the size (`None`
/// if the pass ends the game). While player 2 wins the first tricks its stack grows
/// (Casella's piece: it wins 4, 7, 12, then 22 cards, the last after the piece's first 20,
/// and holds 21 when it has led the next trick); the rest of the piece wins them back. This
/// high water is what brings a deck's cycle near balance, and the piece's first cards up to
/// it are what decide it.
pub fn high_water(piece: &Piece) -> Option<(usize, usize)> {
    let mut pass = Pass::start();
    let mut best = (0, pass.key.p2_len());
    for (i, &card) in piece.cards().iter().enumerate() {
        if !pass.lay(card) {
            return None;
        }
        if pass.key.p2_len() > best.1 {
            best = (i + 1, pass.key.p2_len());
        }
    }
    Some(best)
}

/// The forms a piece takes pass after pass, from `piece` until one repeats, if every pass
/// keeps the template's shape (`None` otherwise). A piece must come back to a form it had:
/// passes keep its cards, and there are finitely many arrangements of them.
pub fn orbit(piece: &Piece) -> Option<Vec<Piece>> {
    let mut forms = vec![piece.clone()];
    loop {
        let next = turn(forms.last().expect("not empty"))?;
        if forms.contains(&next) {
            // `next` may not be `piece` itself: a piece can fall into another piece's cycle.
            return Some(forms);
        }
        forms.push(next);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(text: &str) -> Piece {
        Piece::parse(text).unwrap()
    }

    #[test]
    fn the_spec_pieces_turn() {
        assert_eq!(turn(&p("--")), Some(p("--")));
        // The filter alternates between two forms (seen in the template's cycle).
        assert_eq!(turn(&p("--K---A----AA")), Some(p("--------A-KAA")));
        assert_eq!(turn(&p("--------A-KAA")), Some(p("--K---A----AA")));
        assert_eq!(turn(&p("-")), None);
    }

    #[test]
    fn casella_s_piece_runs_player_2_up_to_22_cards() {
        let piece = p("--------K---------Q-Q-K---Q-KAQ");
        assert_eq!(high_water(&piece), Some((20, 21)));
        assert_eq!(high_water(&p("--")), Some((2, 3)));
    }
}
