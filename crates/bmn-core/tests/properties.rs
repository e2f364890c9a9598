//! Property tests: conservation, trace consistency, Brent vs a visited set, notation round-trips.

use std::collections::HashMap;

use bmn_core::{
    Game, Kind, OnEmpty, Outcome, PenaltyTable, Player, Position, Rules, Span, notation, play_out,
    play_out_within,
};
use proptest::prelude::*;

fn kind() -> impl Strategy<Value = Kind> {
    // Plain cards are the common case, as in real decks.
    prop_oneof![4 => Just(Kind::Plain), 1 => (1usize..=5).prop_map(|i| Kind::from_index(i).unwrap())]
}

fn hands(
    players: std::ops::RangeInclusive<usize>,
    max_len: usize,
) -> impl Strategy<Value = Vec<Vec<Kind>>> {
    prop::collection::vec(prop::collection::vec(kind(), 1..=max_len), players)
}

fn rules() -> impl Strategy<Value = Rules> {
    let value = prop_oneof![6 => (0u8..=5).prop_map(Some), 1 => Just(None)];
    (prop::array::uniform5(value), any::<bool>()).prop_map(|(v, collect)| {
        let text: Vec<String> = Kind::FACES
            .iter()
            .zip(v)
            .map(|(k, v)| {
                format!(
                    "{}{}",
                    k.symbol(),
                    v.map_or("-".to_string(), |v| v.to_string())
                )
            })
            .collect();
        Rules {
            penalties: PenaltyTable::parse(&text.join(",")).unwrap(),
            on_empty: if collect {
                OnEmpty::Collect
            } else {
                OnEmpty::Pass
            },
        }
    })
}

/// The plain answer: remember every position and its totals until one repeats. `None` if the
/// game runs past `limit` tricks (too long to be worth checking in the test run).
fn visited_set(rules: &Rules, start: &Position, limit: usize) -> Option<Outcome> {
    let mut seen: HashMap<Position, Span> = HashMap::new();
    let mut game = Game::new(*rules, start.clone());
    loop {
        let here = Span {
            tricks: game.tricks(),
            cards: game.cards(),
        };
        if let Some(first) = seen.get(game.position()) {
            let (representative, id) =
                bmn_core::canonical(rules, game.position(), here.tricks - first.tricks);
            return Some(Outcome::Cycle(bmn_core::Cycle {
                preperiod: *first,
                period: Span {
                    tricks: here.tricks - first.tricks,
                    cards: here.cards - first.cards,
                },
                start: game.position().clone(),
                representative,
                id,
            }));
        }
        if seen.len() >= limit {
            return None;
        }
        seen.insert(game.position().clone(), here);
        if game.step().is_none() {
            let winner = game.winner().unwrap();
            return Some(Outcome::Finished {
                winner,
                cards: game.cards(),
                tricks: game.tricks(),
            });
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    #[test]
    fn cards_conserved_and_totals_match_the_trace(hands in hands(2..=6, 10), rules in rules(), lead in 0usize..6) {
        let leader = Player(lead % hands.len());
        let start = Position::new_deal(hands, leader).unwrap();
        let deck = start.deck();
        let mut game = Game::new(rules, start);
        let (mut cards, mut tricks) = (0, 0);
        for _ in 0..300 {
            let Some(trick) = game.step() else { break };
            cards += trick.cards;
            tricks += 1;
            prop_assert_eq!(game.position().deck(), deck);
            prop_assert_eq!(game.position().leader(), trick.taker);
            prop_assert!(!game.position().stack(trick.taker).is_empty());
            prop_assert_eq!(trick.game_over, game.winner().is_some());
            prop_assert!(trick.cards >= 1);
        }
        prop_assert_eq!((cards, tricks), (game.cards(), game.tricks()));
    }

    #[test]
    fn brent_agrees_with_a_visited_set(hands in hands(2..=4, 5), rules in rules(), lead in 0usize..4) {
        let leader = Player(lead % hands.len());
        let start = Position::new_deal(hands, leader).unwrap();
        let Some(expected) = visited_set(&rules, &start, 5_000) else { return Ok(()) };
        prop_assert_eq!(play_out(&rules, &start), expected);
    }

    #[test]
    fn a_limited_play_out_gives_up_or_agrees(hands in hands(2..=4, 5), rules in rules(), lead in 0usize..4, limit in 0u64..40) {
        let leader = Player(lead % hands.len());
        let start = Position::new_deal(hands, leader).unwrap();
        let full = play_out(&rules, &start);
        match play_out_within(&rules, &start, limit) {
            Some(outcome) => prop_assert_eq!(outcome, full),
            // Giving up is allowed only before the game ends, or before Brent's search can
            // have met the cycle: it needs fewer than 2 max(mu, lambda) + lambda tricks.
            None => {
                let needed = match &full {
                    Outcome::Finished { tricks, .. } => *tricks,
                    Outcome::Cycle(c) => 3 * (c.preperiod.tricks + c.period.tricks),
                };
                prop_assert!(needed > limit, "gave up at {} on a game decided by {}", limit, needed);
            }
        }
    }

    #[test]
    fn deal_text_round_trips(hands in hands(2..=10, 30)) {
        let text = notation::format_deal(&hands);
        prop_assert_eq!(notation::parse_deal(&text).unwrap(), hands);
    }

    #[test]
    fn paulhus_digits_and_real_cards_mean_the_same(stack in prop::collection::vec(kind(), 1..40)) {
        let digits: String = stack.iter().map(|k| char::from(b'0' + k.index() as u8)).collect();
        prop_assert_eq!(&notation::parse_stack(&digits).unwrap(), &stack);
        let real: Vec<String> = stack.iter().enumerate().map(|(i, k)| match k {
            Kind::Plain => ["9C", "10h", "2♠", "Td"][i % 4].to_string(),
            Kind::Joker => "X".to_string(),
            k => format!("{}{}", k.symbol(), ["S", "♥", "d", "C"][i % 4]),
        }).collect();
        prop_assert_eq!(notation::parse_stack(&real.join(" ")).unwrap(), stack);
    }

    #[test]
    fn parser_never_panics(text in "[-JQKAXjqkax0-9CDHS♠/ ,.Z]{0,40}") {
        let _ = notation::parse_deal(&text);
    }
}

/// Every distinct arrangement of `cards` (in lexicographic order of kind indices).
fn arrangements(mut cards: Vec<Kind>) -> Vec<Vec<Kind>> {
    cards.sort();
    let mut all = vec![cards.clone()];
    while bmn_deals::next_arrangement(&mut cards) {
        all.push(cards.clone());
    }
    all
}

/// Exhaustive, deterministic: every deal of the 10-card cycle deck (2 J, 2 Q, 6 plain), every
/// split and both leaders; Brent must agree with the visited set, and cycles must occur.
#[test]
fn brent_agrees_with_a_visited_set_on_every_small_deal() {
    let deck = bmn_core::Deck::parse("2J,2Q,6-").unwrap();
    let (mut cycles, mut total) = (0, 0);
    for cards in arrangements(deck.cards()) {
        for split in 1..cards.len() {
            for leader in [Player(0), Player(1)] {
                let hands = vec![cards[..split].to_vec(), cards[split..].to_vec()];
                let start = Position::new_deal(hands, leader).unwrap();
                let expected = visited_set(&Rules::STANDARD, &start, usize::MAX).unwrap();
                cycles += usize::from(matches!(expected, Outcome::Cycle(_)));
                total += 1;
                assert_eq!(play_out(&Rules::STANDARD, &start), expected, "{start}");
            }
        }
    }
    assert_eq!(total, 1260 * 9 * 2);
    assert!(cycles > 0, "the 10-card deck has cycles (golden fixtures)");
}
