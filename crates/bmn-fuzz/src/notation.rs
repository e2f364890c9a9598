//! Deal notation (stacks, deals, positions), deck specs and penalty tables: whatever parses
//! prints back to text that parses to the same value, and bad text is an error, never a panic.

use bmn_core::notation::{format_deal, format_stack, parse_deal, parse_stack};
use bmn_core::{Deck, PenaltyTable, Player, Position};

use crate::{check_message, text};

/// Deal text is at most a few hundred characters in practice; longer inputs only slow the
/// fuzzer down without reaching new code.
const MAX_DEAL_BYTES: usize = 4096;

/// `--deal`/`deal=` text in every form: one stack, a deal, a position and a starting deal,
/// with leaders 1 and 2 and the one the first byte names (which may be out of range).
pub fn deal_notation(data: &[u8]) {
    let Some((&first, rest)) = data.split_first() else {
        return;
    };
    if rest.len() > MAX_DEAL_BYTES {
        return;
    }
    let text = text(rest);

    match parse_stack(&text) {
        Ok(cards) => {
            let printed = format_stack(&cards);
            assert_eq!(parse_stack(&printed).as_ref(), Ok(&cards), "{text:?}");
        }
        Err(e) => check_message(&e.to_string(), "parse_stack"),
    }

    let hands = match parse_deal(&text) {
        Ok(hands) => {
            assert!(
                (2..=bmn_core::MAX_PLAYERS).contains(&hands.len()),
                "{text:?}: {} hands",
                hands.len()
            );
            let printed = format_deal(&hands);
            assert_eq!(parse_deal(&printed).as_ref(), Ok(&hands), "{text:?}");
            Some(hands)
        }
        Err(e) => {
            check_message(&e.to_string(), "parse_deal");
            None
        }
    };

    for leader in [Player(0), Player(1), Player(usize::from(first % 12))] {
        for starting in [false, true] {
            let parsed = if starting {
                Position::parse_deal(&text, leader)
            } else {
                Position::parse(&text, leader)
            };
            let position = match parsed {
                Ok(p) => p,
                Err(e) => {
                    check_message(&e.to_string(), "Position::parse");
                    // The notation parsed: only the position's own rules may refuse it.
                    if let Some(hands) = &hands {
                        let in_range = leader.index() < hands.len();
                        let empty = starting && hands.iter().any(Vec::is_empty);
                        assert!(!in_range || empty, "{text:?}: refused: {e}");
                    }
                    continue;
                }
            };
            let hands = hands
                .as_ref()
                .expect("a position's notation parses as a deal");
            assert_eq!(position.players(), hands.len());
            assert_eq!(position.leader(), leader);
            assert_eq!(
                position.card_count(),
                hands.iter().map(Vec::len).sum::<usize>()
            );
            if starting {
                assert!(position.stacks().iter().all(|s| !s.is_empty()));
            }
            // The printed deal, and the printed position (`H1/H2 (leader N)`), say the same.
            let deal_text = position.deal_text();
            let again = if starting {
                Position::parse_deal(&deal_text, leader)
            } else {
                Position::parse(&deal_text, leader)
            };
            assert_eq!(
                again.as_ref(),
                Ok(&position),
                "{text:?} printed as {deal_text:?}"
            );
            assert_eq!(
                position.to_string(),
                format!("{deal_text} (leader {})", leader.number())
            );
            // A position's deck holds its cards, and it checks against itself.
            assert_eq!(position.deck().len() as usize, position.card_count());
            assert_eq!(position.check_deck(&position.deck()), Ok(()));
            assert_eq!(
                position.rotated_to_leader().card_count(),
                position.card_count()
            );
        }
    }
}

/// `--deck` specs: a deck that parses prints as a composition list that parses to it.
pub fn deck_spec(data: &[u8]) {
    if data.len() > MAX_DEAL_BYTES {
        return;
    }
    let text = text(data);
    match Deck::parse(&text) {
        Ok(deck) => {
            assert!(!deck.is_empty(), "{text:?}: an empty deck parsed");
            let total: u64 = deck.counts().iter().map(|&c| u64::from(c)).sum();
            assert_eq!(u64::from(deck.len()), total, "{text:?}");
            let printed = deck.to_string();
            assert_eq!(
                Deck::parse(&printed),
                Ok(deck),
                "{text:?} printed as {printed:?}"
            );
        }
        Err(e) => check_message(&e.to_string(), "Deck::parse"),
    }
}

/// `--penalties` tables: a table that parses prints (every face kind named) as a table that
/// parses to it.
pub fn penalty_spec(data: &[u8]) {
    if data.len() > MAX_DEAL_BYTES {
        return;
    }
    let text = text(data);
    match PenaltyTable::parse(&text) {
        Ok(table) => {
            let printed = table.to_string();
            assert_eq!(
                PenaltyTable::parse(&printed),
                Ok(table),
                "{text:?} printed as {printed:?}"
            );
            assert_eq!(table.is_standard(), table == PenaltyTable::STANDARD);
        }
        Err(e) => check_message(&e.to_string(), "PenaltyTable::parse"),
    }
}
