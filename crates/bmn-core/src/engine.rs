//! The reference engine: plays one trick at a time, card by card, exactly as docs/rules.md says.
//!
//! Clarity beats speed here: this is the yardstick every fast kernel is tested against. It handles
//! 2..=10 players, any deck, any penalty table (including 0-penalty cards) and both running-out
//! variants.

use crate::kind::Kind;
use crate::player::Player;
use crate::position::Position;
use crate::rules::{OnEmpty, Rules};

/// What one trick did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Trick {
    /// Cards laid on the pile during the trick.
    pub cards: u64,
    /// Who took the pile (and leads next, unless the game is over).
    pub taker: Player,
    /// Whether the taker now holds every card.
    pub game_over: bool,
}

/// One card laid in a trick, as [`play_trick_observed`] reports it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CardLaid {
    /// Who laid it.
    pub player: Player,
    pub kind: Kind,
    /// After it: the player with the claim on the pile and the cards the next payer still
    /// owes them (`None` while no penalty card is down; `Some((p, 0))` when the pile is theirs).
    pub claim: Option<(Player, u8)>,
}

/// Plays one trick from `position` (which must not be finished: at least two players hold
/// cards) and leaves the next position in place.
///
/// # Panics
/// If `position.winner()` is already `Some`: a finished game has no next trick.
pub fn play_trick(rules: &Rules, position: &mut Position) -> Trick {
    play_trick_observed(rules, position, |_| {})
}

/// [`play_trick`], telling `on_card` about every card as it is laid (a replay shows them one
/// at a time). The same code plays both, so what is shown is the reference engine's game.
///
/// # Panics
/// If `position.winner()` is already `Some`.
pub fn play_trick_observed(
    rules: &Rules,
    position: &mut Position,
    mut on_card: impl FnMut(CardLaid),
) -> Trick {
    assert!(position.winner().is_none(), "play_trick on a finished game");
    let (stacks, leader) = position.parts_mut();
    let players = stacks.len();
    // A player with no cards at a trick boundary can never win a pile again (that needs a card
    // laid), so treating them as out from the start is the same as finding them out when asked.
    let mut out: Vec<bool> = stacks.iter().map(|s| s.is_empty()).collect();
    let next_in = |out: &[bool], from: usize| {
        (1..=players)
            .map(|d| (from + d) % players)
            .find(|&p| !out[p])
            .unwrap_or(from)
    };

    let mut pile: Vec<Kind> = Vec::new();
    let mut turn = leader.index();
    // The debt in force: (player with the claim, cards still owed, whether any were paid yet).
    let mut debt: Option<(usize, u8, bool)> = None;
    let taker = loop {
        let still_in = out.iter().filter(|&&o| !o).count();
        if still_in == 1 {
            // Everyone else is out: the last player in takes the pile; with two players this is
            // the spec's "the other player takes the pile and the game is over".
            break out.iter().position(|&o| !o).expect("one player is in");
        }
        let Some(card) = stacks[turn].pop_front() else {
            // Must play (lead, follow or pay) with no cards: out for the rest of the game.
            out[turn] = true;
            if let (Some((claim, _, true)), OnEmpty::Collect) = (debt, rules.on_empty) {
                break claim; // `collect`: running out part-way through paying ends the debt
            }
            // `pass` (and a payer who had nothing to pay with): play, and any debt, passes on.
            turn = next_in(&out, turn);
            continue;
        };
        pile.push(card);
        let laid_by = turn;
        let taker = match (rules.penalties.value(card), debt) {
            (Some(0), _) => Some(turn), // a 0-penalty card: its owner takes the pile at once
            (Some(v), _) => {
                debt = Some((turn, v, false));
                turn = next_in(&out, turn);
                None
            }
            (None, Some((claim, 1, _))) => Some(claim),
            (None, Some((claim, owed, _))) => {
                debt = Some((claim, owed - 1, true));
                None
            }
            (None, None) => {
                turn = next_in(&out, turn);
                None
            }
        };
        on_card(CardLaid {
            player: Player(laid_by),
            kind: card,
            claim: match taker {
                Some(t) => Some((Player(t), 0)),
                None => debt.map(|(claim, owed, _)| (Player(claim), owed)),
            },
        });
        if let Some(t) = taker {
            break t;
        }
    };
    let cards = pile.len() as u64;
    stacks[taker].extend(pile);
    *leader = Player(taker);
    let game_over = position.winner().is_some();
    Trick {
        cards,
        taker: Player(taker),
        game_over,
    }
}

/// A game in progress with its running totals; plays forward one trick at a time.
#[derive(Clone, Debug)]
pub struct Game {
    rules: Rules,
    position: Position,
    cards: u64,
    tricks: u64,
}

impl Game {
    pub fn new(rules: Rules, position: Position) -> Game {
        Game {
            rules,
            position,
            cards: 0,
            tricks: 0,
        }
    }

    pub fn position(&self) -> &Position {
        &self.position
    }

    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// Cards laid so far.
    pub fn cards(&self) -> u64 {
        self.cards
    }

    /// Tricks taken so far.
    pub fn tricks(&self) -> u64 {
        self.tricks
    }

    /// The winner, once one player holds every card.
    pub fn winner(&self) -> Option<Player> {
        self.position.winner()
    }

    /// Plays one trick; `None` if the game was already over.
    pub fn step(&mut self) -> Option<Trick> {
        if self.winner().is_some() {
            return None;
        }
        let trick = play_trick(&self.rules, &mut self.position);
        self.cards += trick.cards;
        self.tricks += 1;
        Some(trick)
    }

    /// Plays until the game ends or `max_tricks` more tricks have been played.
    pub fn run(&mut self, max_tricks: u64) {
        for _ in 0..max_tricks {
            if self.step().is_none() {
                break;
            }
        }
    }

    /// Takes the game apart into its position and totals.
    pub fn into_position(self) -> Position {
        self.position
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::penalty::PenaltyTable;

    fn rules(penalties: &str, on_empty: OnEmpty) -> Rules {
        Rules {
            penalties: PenaltyTable::parse(penalties).unwrap(),
            on_empty,
        }
    }

    /// Plays one trick from `deal` (leader 1-based) and checks the next position, the cards laid
    /// and whether the game is over. Every case below was worked by hand from docs/rules.md.
    #[track_caller]
    fn check(rules: &Rules, deal: &str, leader: usize, next: &str, cards: u64, over: bool) {
        let mut p = Position::parse(deal, Player(leader - 1)).unwrap();
        let t = play_trick(rules, &mut p);
        let got = (p.to_string(), t.cards, t.game_over);
        assert_eq!(got, (next.to_string(), cards, over), "from {deal}");
    }

    const STD: Rules = Rules::STANDARD;

    #[test]
    fn two_players() {
        // 1 -, 2 J, 1 pays -: 2 takes "-J-".
        check(&STD, "--K/J-", 1, "K/--J- (leader 2)", 3, false);
        // A penalty card among a payment moves the debt: 1 K, 2 - Q, 1 - -.
        check(&STD, "K--/-Q-", 1, "/-K-Q-- (leader 2)", 5, true);
        // The J after an A costs only 1.
        check(&STD, "A--/J--", 1, "-/--AJ- (leader 2)", 3, false);
        // 2 has no card to follow with: 1 takes the pile and the game is over.
        check(&STD, "---/-", 1, "----/ (leader 1)", 3, true);
        // 2 runs out while paying: 1 takes the pile.
        check(&STD, "K-/--", 1, "-K--/ (leader 1)", 3, true);
    }

    #[test]
    fn zero_penalty_card_takes_at_once() {
        // Knocking Dolly (K3 J2 Q1 A0): an A takes the pile the moment it is laid.
        let dolly = rules("K3,J2,Q1,A0", OnEmpty::Pass);
        check(&dolly, "-A-/--", 1, "---A/- (leader 1)", 3, false);
        check(&dolly, "J--/---", 1, "--J--/- (leader 1)", 3, false);
    }

    #[test]
    fn three_players() {
        // 1 -, 2 -, 3 Q, 1 pays - -: 3 takes everything.
        check(&STD, "---/-/Q-", 1, "//---Q-- (leader 3)", 5, true);
        // 2 is out from the start: the J's debt falls on 3.
        check(&STD, "J-//--", 1, "-J-//- (leader 1)", 2, false);
    }

    #[test]
    fn running_out_while_paying() {
        // 1 K; 2 pays one plain and runs out.
        // pass: the 2 cards still owed pass to 3, who pays them; 1 takes K - - -.
        check(
            &rules("J1", OnEmpty::Pass),
            "K/-/---",
            1,
            "K---//- (leader 1)",
            4,
            false,
        );
        // collect: 1 takes K - at once.
        check(
            &rules("J1", OnEmpty::Collect),
            "K/-/---",
            1,
            "K-//--- (leader 1)",
            2,
            false,
        );
        // A payer with nothing to pay with at all is out and the whole debt passes on, under
        // both rules (docs/rules.md: "collect" is about running out in the middle of paying).
        check(
            &rules("J1", OnEmpty::Collect),
            "-K/-/---",
            1,
            "---K--// (leader 1)",
            6,
            true,
        );
    }

    #[test]
    fn four_players_last_player_in_takes_the_pile() {
        // 1 -, 2 -, 3 -, 4 A; 1 is out; 2 pays - and is out; 3 pays - and is out: 4 takes all.
        check(&STD, "-/--/--/A", 1, "///---A-- (leader 4)", 6, true);
    }

    #[test]
    fn game_totals() {
        let p = Position::parse_deal("--K/J-", Player(0)).unwrap();
        let mut g = Game::new(STD, p);
        g.run(u64::MAX);
        assert!(g.winner().is_some());
        assert_eq!(g.step(), None);
    }
}
