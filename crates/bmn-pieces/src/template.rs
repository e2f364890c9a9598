//! The exact path: the Ansatz's positions played by bmn-core's reference engine.
//!
//! docs/rules.md, "Casella's Ansatz": the test template gives player 1 `--J` + FILTER + `J` +
//! TEST + `J-` and player 2 `J-`, player 1 leading; TEST is a piece if that game never ends.
//! A standard-deck game of the construction gives player 1 `Δ1 J Δ2 J Δ3 J -` and player 2
//! `J -` (Casella et al., arXiv 2403.13855, 2024). Everything this crate reports has been
//! played here; the fast pass ([`crate::turn`]) only proposes candidates.

use bmn_core::{Kind, Outcome, Player, Position, Rules, play_out_within};

use crate::error::PiecesError;
use crate::piece::{Composition, Piece};

/// The filter of docs/rules.md: `--K---A----AA` (1 K, 3 A, 9 plain).
pub const DEFAULT_FILTER: &str = "--K---A----AA";

/// Tricks after which a game that has neither ended nor repeated is given up on. Template
/// and construction games cycle within a few thousand tricks (Casella's: 4 + 62), so a
/// million is generous and still bounds the time spent on any one game.
pub const DEFAULT_GIVE_UP: u64 = 1_000_000;

/// Player 1 holds `pieces[0] J pieces[1] J ... J -`, player 2 `J -`, player 1 leads.
pub fn jack_position(pieces: &[&Piece]) -> Position {
    let mut hand = Vec::new();
    for p in pieces {
        hand.extend_from_slice(p.cards());
        hand.push(Kind::Jack);
    }
    hand.push(Kind::Plain);
    Position::new(vec![hand, vec![Kind::Jack, Kind::Plain]], Player(0))
        .expect("two players, player 1 leads")
}

/// The test template: player 1 `--J` FILTER `J` TEST `J-`, player 2 `J-`, player 1 leads.
pub fn template(filter: &Piece, test: &Piece) -> Position {
    jack_position(&[&lead(), filter, test])
}

/// The template's lead, `--`.
fn lead() -> Piece {
    Piece::parse("--").expect("a piece")
}

/// The cards that make the test template a standard deck: what `Δ1 J Δ2 J Δ3 J - / J -`
/// leaves for the third piece when the first two are the template's lead `--` and `filter`.
/// A piece of exactly these cards, put in the template's TEST slot, is a standard deal of
/// the construction. For the default filter this is 4 Q, 3 K, 1 A and 23 plain cards, the
/// cards of Casella et al.'s 31-card piece: their deal is the template, filled. `None` when
/// the filter holds more than the deck leaves.
pub fn template_completion(filter: &Piece) -> Option<Composition> {
    template_completion_of(&Composition::STANDARD_PIECES, filter)
}

/// [`template_completion`] for a deck whose pieces hold `target` ([`Composition::pieces_of`]):
/// what is left of it after the lead `--` and `filter`. The default filter holds aces, so a
/// deck without them (Camicia) has no completion with it.
pub fn template_completion_of(target: &Composition, filter: &Piece) -> Option<Composition> {
    target
        .checked_sub(&lead().composition())?
        .checked_sub(&filter.composition())
}

/// Plays `position` with the standard rules on the reference engine, giving up (`None`)
/// after `give_up` tricks.
pub fn play(position: &Position, give_up: u64) -> Option<Outcome> {
    play_out_within(&Rules::STANDARD, position, give_up)
}

/// Checks that `filter` is a piece by the spec's own test: the template with TEST = `--`
/// (itself a piece) never ends.
pub fn check_filter(filter: &Piece, give_up: u64) -> Result<(), PiecesError> {
    let dashes = Piece::parse("--").expect("a piece");
    let why = match play(&template(filter, &dashes), give_up) {
        Some(Outcome::Cycle(_)) => return Ok(()),
        Some(Outcome::Finished { tricks, .. }) => {
            format!("with TEST = -- the game ends after {tricks} tricks")
        }
        None => format!("with TEST = -- the game has not repeated after {give_up} tricks"),
    };
    Err(PiecesError::Filter {
        filter: filter.to_string(),
        why,
    })
}

/// Player 1's stack split at its jacks, if `position` has Casella's template form: player 1
/// leads with `Δ1 J Δ2 J ... Δk J -` against player 2's `J -` (seats renamed if need be).
pub fn template_pieces(position: &Position) -> Option<Vec<String>> {
    let p = position.rotated_to_leader();
    if p.players() != 2 {
        return None;
    }
    let text = p.deal_text();
    let (one, two) = text.split_once('/')?;
    if two != "J-" {
        return None;
    }
    let body = one.strip_suffix("J-")?;
    let pieces: Vec<String> = body.split('J').map(String::from).collect();
    (pieces.len() >= 2 && pieces.iter().all(|s| !s.is_empty())).then_some(pieces)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_template_completes_with_casella_s_cards() {
        let filter = Piece::parse(DEFAULT_FILTER).unwrap();
        let c = template_completion(&filter).unwrap();
        assert_eq!(c.to_string(), "Q4,K3,A1,-23");
        let (faces, plain) = Composition::parse_faces("Q4,K3,A1,-23").unwrap();
        assert_eq!(c.faces_and_plain(), (faces, plain.unwrap()));
        // Casella et al.'s piece has those cards, and filling the template with it gives a
        // full standard deck.
        let casella = Piece::parse("--------K---------Q-Q-K---Q-KAQ").unwrap();
        assert_eq!(casella.composition(), c);
        assert_eq!(template(&filter, &casella).card_count(), 52);
        let greedy = Piece::parse(&"A".repeat(5)).unwrap();
        assert_eq!(template_completion(&greedy), None);
    }
}
