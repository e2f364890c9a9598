//! Basins and trees against the forward map: a basin found backward is exactly the set of
//! positions that play forward into the same cycle or final position (small decks).

mod common;

use bmn_backward::{BasinConfig, BasinTarget, TreesConfig, basin, is_balanced, trees, trees_all};
use std::sync::atomic::AtomicBool;

use bmn_core::{Deck, Position, Rules};
use bmn_job::Job;
use common::{Fate, all_positions, arrangements, fate, fates, pos, rules, sorted};

fn keep_all() -> BasinConfig {
    BasinConfig {
        limit: u64::MAX,
        keep_members: true,
    }
}

/// For every cycle of the deck and its `max_finals` most reached final positions, the basin
/// of one member equals the whole class of positions with that fate, and its balanced deals
/// are the class's balanced deals. Returns how many cycles were checked.
#[track_caller]
fn check_basins(rules: &Rules, deck: &str, players: usize, max_finals: usize) -> usize {
    let all = all_positions(deck, players);
    let classes = fates(rules, &all);
    let mut keys: Vec<&Fate> = classes.keys().collect();
    // Cycles first, then the largest trees, then a fixed order.
    keys.sort_by_key(|f| {
        let tree = matches!(f, Fate::Final(_));
        (tree, std::cmp::Reverse(classes[*f].len()), format!("{f:?}"))
    });
    let cycles = keys.iter().filter(|f| matches!(f, Fate::Cycle(_))).count();
    for f in keys.into_iter().take(cycles + max_finals) {
        let class = &classes[f];
        let b = basin(
            rules,
            &class[0],
            &keep_all(),
            &mut Job::quiet(&AtomicBool::new(false)),
        )
        .unwrap();
        assert!(b.complete);
        assert_eq!(b.positions as usize, class.len(), "{f:?}");
        assert_eq!(sorted(b.members.as_ref().unwrap()), sorted(class), "{f:?}");
        let balanced: Vec<Position> = class.iter().filter(|p| is_balanced(p)).cloned().collect();
        let found: Vec<Position> = b.balanced.iter().map(|d| d.deal.clone()).collect();
        assert_eq!(sorted(&found), sorted(&balanced), "{f:?}");
        match (&b.target, f) {
            (BasinTarget::Cycle { id, .. }, Fate::Cycle(want)) => assert_eq!(id, want),
            (BasinTarget::Final { position }, Fate::Final(want)) => assert_eq!(position, want),
            other => panic!("{other:?}"),
        }
    }
    cycles
}

#[test]
fn basins_equal_forward_classes_two_players() {
    // 2 J, 2 Q and 6 plain cards hold the 10-card cycle --Q-J-/Q-J- (golden fixtures).
    let cycles = check_basins(&Rules::STANDARD, "2J,2Q,6-", 2, 12);
    assert!(cycles > 0, "the deck has cycles");
}

#[test]
fn basins_equal_forward_classes_small_decks() {
    check_basins(&Rules::STANDARD, "1J,1Q,1K,1A,4-", 2, 6);
    check_basins(&rules("K3,J2,Q1,A0", "pass"), "1J,1Q,1K,1A,3-", 2, 6);
}

#[test]
fn basins_equal_forward_classes_three_players() {
    for on_empty in ["pass", "collect"] {
        check_basins(&rules("J1", on_empty), "2J,2Q,3-", 3, 6);
    }
}

#[test]
fn ten_card_cycle_basin() {
    let b = basin(
        &Rules::STANDARD,
        &pos("--Q-J-/Q-J-", 1),
        &keep_all(),
        &mut Job::quiet(&AtomicBool::new(false)),
    )
    .unwrap();
    let BasinTarget::Cycle { period, .. } = b.target else {
        panic!("{:?}", b.target)
    };
    assert_eq!((period.tricks, period.cards), (3, 15));
    let members = b.members.unwrap();
    assert!(members.contains(&pos("--Q-J-/Q-J-", 1)));
    assert!(
        members.contains(&pos("Q-J-/--Q-J-", 2)),
        "the cycle with players renamed"
    );
    assert!(b.balanced.iter().all(|d| d.length.tricks > 0));
}

#[test]
fn limit_cuts_short_and_says_so() {
    let config = BasinConfig {
        limit: 20,
        keep_members: false,
    };
    let b = basin(
        &Rules::STANDARD,
        &pos("--Q-J-/Q-J-", 1),
        &config,
        &mut Job::quiet(&AtomicBool::new(false)),
    )
    .unwrap();
    assert_eq!((b.positions, b.complete), (20, false));
}

/// Paulhus's identity: summed over every final position, the trees count every position that
/// finishes; `trees_all` turns the shortfall into the number of positions that cycle.
#[track_caller]
fn check_trees(rules: &Rules, deck: &str, players: usize) {
    let all = all_positions(deck, players);
    let unfinished: Vec<&Position> = all.iter().filter(|p| p.winner().is_none()).collect();
    let cycling = unfinished
        .iter()
        .filter(|p| matches!(fate(rules, p), Fate::Cycle(_)))
        .count() as u128;
    let t = trees_all(
        rules,
        &Deck::parse(deck).unwrap(),
        players,
        u64::MAX,
        &mut Job::quiet(&AtomicBool::new(false)),
    )
    .unwrap();
    assert_eq!(t.samples as usize, arrangements(deck).len());
    assert_eq!(t.capped, 0);
    assert_eq!(
        t.cycling_positions,
        Some(cycling),
        "{deck}, {players} players"
    );
    // Sampling agrees with the exhaustive mean within a few standard errors.
    let config = TreesConfig {
        samples: 2000,
        seed: 7,
        cap: u64::MAX,
        players,
    };
    let s = trees(
        rules,
        &Deck::parse(deck).unwrap(),
        &config,
        &mut Job::quiet(&AtomicBool::new(false)),
    )
    .unwrap();
    assert!(
        (s.mean - t.mean).abs() < 5.0 * s.std_error,
        "{s:?} vs {t:?}"
    );
}

#[test]
fn trees_count_every_finishing_position() {
    // 2J,2Q,6- has cycles (the 10-card one among them): the mean falls short of 10.
    check_trees(&Rules::STANDARD, "2J,2Q,6-", 2);
    check_trees(&Rules::STANDARD, "1J,1Q,1K,1A,3-", 2);
    check_trees(&rules("J1", "pass"), "1J,1Q,1K,1A,2-", 3);
    check_trees(&rules("J1", "collect"), "2J,1Q,3-", 3);
    let t = trees_all(
        &Rules::STANDARD,
        &Deck::parse("2J,2Q,6-").unwrap(),
        2,
        1000,
        &mut Job::quiet(&AtomicBool::new(false)),
    );
    let t = t.unwrap();
    assert!(
        t.mean < t.no_cycle_mean && t.cycling_positions > Some(0),
        "{t:?}"
    );
}
