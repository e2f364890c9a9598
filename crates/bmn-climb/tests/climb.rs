//! The climbers against the reference engine and themselves: moves keep a legal deal, a climb
//! is reproducible whatever the thread count, every best replays to its figures, and the
//! factory's balanced endless deals never end.

use std::sync::atomic::AtomicBool;

use bmn_climb::climb::{Accept, ClimbConfig, ClimbState, Objective};
use bmn_climb::factory::{Factory, FactoryConfig};
use bmn_climb::{Cards, Evaluator, Game, MoveSet, moves};
use bmn_core::{Deck, Outcome, Player, Position, Rules, play_out};
use bmn_deals::{STANDARD_DECK, deal_for, deal_rng};
use bmn_search::DealSource;
use proptest::prelude::*;

fn config(accept: Accept, moves: &str, seed: u64) -> ClimbConfig {
    ClimbConfig {
        seed,
        walkers: 6,
        neighbours: 10,
        moves: MoveSet::parse(moves).unwrap(),
        accept,
        objective: Objective::Cards,
        balanced: false,
        restart_after: 4,
        temperature: 100.0,
        cooling: 0.99,
        top: 5,
        starts: Vec::new(),
        source: DealSource::new(Deck::STANDARD, false).unwrap(),
    }
}

fn climb(c: &ClimbConfig, rounds: u64, threads: usize) -> ClimbState {
    let evaluator = Evaluator::new(Rules::STANDARD);
    let mut s = ClimbState::new(c);
    for _ in 0..rounds {
        s.round(c, &evaluator, threads, 0.0).unwrap();
    }
    s
}

proptest! {
    #[test]
    fn moves_keep_a_legal_deal(seed in any::<u64>(), steps in 1usize..60, which in 0usize..6, kinds in any::<bool>()) {
        let mut codes = vec![0u8; 52];
        deal_for(seed, 0, &STANDARD_DECK, &mut codes);
        let mut c = Cards { codes, sizes: vec![26, 26] };
        let before = c.kinds();
        let set = MoveSet::parse(["swap", "shift", "cut", "exchange", "mixed", "transfer,swap"][which]).unwrap();
        let mut rng = deal_rng(seed, 1);
        for _ in 0..steps {
            moves::apply(&mut c, &set, kinds, &mut rng);
        }
        // The same 52 cards, in hands that add up, every hand holding a card.
        let mut sorted = c.codes.clone();
        sorted.sort_unstable();
        let mut deck = STANDARD_DECK.to_vec();
        deck.sort_unstable();
        prop_assert_eq!(sorted, deck);
        prop_assert_eq!(c.sizes.iter().sum::<usize>(), 52);
        prop_assert!(c.sizes.iter().all(|&s| s > 0));
        if kinds && which != 5 {
            prop_assert_eq!(c.kinds(), before, "kinds kept per hand");
        }
        if which != 5 {
            prop_assert_eq!(&c.sizes, &vec![26, 26]);
        }
        prop_assert!(Position::parse_deal(&c.text(), Player(0)).is_ok());
    }
}

#[test]
fn a_climb_does_not_depend_on_the_threads() {
    for accept in [Accept::Hill, Accept::Anneal, Accept::Population] {
        let c = config(accept, "mixed", 7);
        let one = climb(&c, 12, 1);
        let three = climb(&c, 12, 3);
        assert_eq!(one, three, "{accept:?}");
        assert_eq!(one.evals, 12 * 60 + 6);
    }
}

#[test]
fn every_best_replays_to_its_figures() {
    let c = config(Accept::Hill, "swap", 3);
    let s = climb(&c, 30, 2);
    assert!(!s.best.is_empty());
    for f in &s.best {
        let p = Position::parse_deal(&f.deal, Player(0)).unwrap();
        let Outcome::Finished {
            winner,
            cards,
            tricks,
        } = play_out(&Rules::STANDARD, &p)
        else {
            panic!("{} finishes", f.deal)
        };
        assert_eq!(
            (cards, tricks, winner.number()),
            (f.cards, f.tricks, f.winner),
            "{}",
            f.deal
        );
    }
    // Longest first, and the trajectory only goes up.
    assert!(s.best.windows(2).all(|w| w[0].cards >= w[1].cards));
    assert!(s.trajectory.windows(2).all(|w| w[0].cards < w[1].cards));
    assert_eq!(s.trajectory.last().unwrap().cards, s.best[0].cards);
}

#[test]
fn balanced_climbs_stay_balanced() {
    let mut c = config(Accept::Hill, "swap,shift,cut", 5);
    c.balanced = true;
    c.source = DealSource::new(Deck::STANDARD, true).unwrap();
    let s = climb(&c, 10, 2);
    for w in &s.walkers {
        let k = w.current.kinds();
        assert_eq!(k[0], k[1], "{}", w.current.text());
    }
}

#[test]
fn the_evaluator_agrees_with_the_reference_engine() {
    // Unequal hands, three players and a 0-penalty table: the kernel where it can, else the
    // reference engine, always the reference engine's answer.
    let deals = [
        "--K---A----AAJ-/J-",
        "--Q-J-/Q-J-",
        "---AJ--Q---------QAKQJJ-QK/-----A----KJ-K--------A---",
        "-A-/--/J-",
    ];
    let cards: Vec<Cards> = deals
        .iter()
        .map(|d| Cards::of(&Position::parse_deal(d, Player(0)).unwrap()).unwrap())
        .collect();
    for rules in [Rules::STANDARD] {
        let got = Evaluator::new(rules).evaluate(&cards, 2);
        for (c, g) in cards.iter().zip(got) {
            let want = Game::from(play_out(&rules, &c.position()));
            assert_eq!(g, want, "{}", c.text());
        }
    }
}

/// A few rounds of the factory from Casella's deal: every balanced deal it reports never ends
/// and reaches the cycle it is filed under.
#[test]
fn the_factory_files_balanced_endless_deals_under_their_cycles() {
    let evaluator = Evaluator::new(Rules::STANDARD);
    let mut f = Factory::new(
        FactoryConfig {
            seed: 1,
            rules: Rules::STANDARD,
            walkers: 2,
            neighbours: 32,
            moves: MoveSet::parse("transfer,swap").unwrap(),
            basin_limit: 20_000,
            keep_balanced: 3,
            ..FactoryConfig::default()
        },
        &evaluator,
    );
    let casella = Position::parse_deal(
        "---K---Q-KQAJ-----AAJ--J--/----------Q----KQ-J-----KA",
        Player(0),
    )
    .unwrap();
    let (go, stop) = (AtomicBool::new(false), AtomicBool::new(true));
    // Stopped, a new cycle's basin search ends at once and nothing is filed.
    assert!(f.add(&casella, &stop).is_none());
    assert!(f.catalogue.cycles.is_empty());
    assert!(f.add(&casella, &go).is_some());
    assert!(f.add(&casella, &go).is_none(), "a cycle is filed once");
    let entry = f.catalogue.cycles.values().next().unwrap();
    assert_eq!((entry.period.tricks, entry.balanced_count), (62, 30));
    assert_eq!(entry.closest, 0);
    // A stopped round is dropped whole: no visits, evaluations or round counted.
    assert!(!f.round(2, &stop));
    assert_eq!((f.catalogue.round, f.catalogue.evals), (0, 0));
    assert!(f.catalogue.cycles.values().all(|c| c.visits == 0));
    for _ in 0..3 {
        assert!(f.round(2, &go));
    }
    assert_eq!(f.catalogue.round, 3);
    for c in f.catalogue.cycles.values() {
        for (deal, pre) in &c.balanced {
            let p = Position::parse_deal(deal, Player(0)).unwrap();
            let Outcome::Cycle(cy) = play_out(&Rules::STANDARD, &p) else {
                panic!("{deal} never ends")
            };
            assert_eq!((cy.id, cy.preperiod), (c.cycle_id, *pre), "{deal}");
            assert_eq!(Cards::of(&p).unwrap().imbalance(), 0);
        }
    }
}
