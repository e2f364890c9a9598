//! Published figures through backward play: the Casella cycle's basin and the record games.

mod common;

use bmn_backward::{BasinConfig, BasinTarget, ExtendConfig, basin, extend, predecessors};
use std::sync::atomic::AtomicBool;

use bmn_core::{Outcome, Player, Position, Rules, play_out};
use bmn_job::Job;
use common::pos;

fn golden_position(deal: &str, leader: usize) -> Position {
    Position::parse_deal(deal, Player(leader - 1)).unwrap()
}

#[test]
fn spec_unit_case() {
    // docs/rules.md, Backward play.
    let preds = predecessors(&Rules::STANDARD, &pos("--K---A----AAJ-/J-", 1));
    assert!(preds.contains(&pos("J--K---A----AA/-J-", 1)));
}

/// Casella et al. (arXiv 2403.13855) report 30 balanced starting deals for their cycle. The
/// basin is small enough to search completely; how many balanced deals it holds depends on
/// the definition, and two natural ones give 30 (docs/results.md, Part 3).
#[test]
fn casella_cycle_basin() {
    let golden = bmn_golden::load();
    let case = golden
        .cycles
        .iter()
        .find(|c| c.name.starts_with("Casella"))
        .unwrap();
    let start = golden_position(&case.deal, case.leader);
    let b = basin(
        &Rules::STANDARD,
        &start,
        &BasinConfig::default(),
        &mut Job::quiet(&AtomicBool::new(false)),
    )
    .unwrap();
    let Outcome::Cycle(cycle) = play_out(&Rules::STANDARD, &start) else {
        panic!("the Casella deal cycles")
    };
    let BasinTarget::Cycle { id, period, .. } = b.target else {
        panic!("{:?}", b.target)
    };
    assert_eq!((id, period.tricks, period.cards), (cycle.id, 62, 440));
    assert!(b.complete);
    assert_eq!(b.positions, 5340);
    let count = |f: &dyn Fn(&bmn_backward::BalancedDeal) -> bool| {
        b.balanced.iter().filter(|d| f(d)).count()
    };
    let leader_1 = |d: &bmn_backward::BalancedDeal| d.deal.leader() == Player(0);
    assert_eq!(b.balanced.len(), 60, "any leader, players renamed or not");
    assert_eq!(
        Some(count(&leader_1)),
        case.balanced_deals,
        "player 1 leads, renamed or not: the paper's count"
    );
    assert_eq!(count(&|d| !d.renamed), 30, "any leader, the cycle as given");
    assert_eq!(
        count(&|d| leader_1(d) && !d.renamed),
        18,
        "player 1 leads, as given"
    );
    let own = b.balanced.iter().find(|d| d.deal == start).unwrap();
    assert_eq!((own.length.tricks, own.length.cards), (4, 34));
    assert!(!own.renamed);
}

/// The record games' final positions have small trees: searched completely, Mann and Wu's
/// (2007) holds Anderson's 2013 record with the players swapped, and Nessler's 2022 record
/// is the longest balanced deal of its own.
#[test]
fn extending_records() {
    let golden = bmn_golden::load();
    let record = |name: &str| golden.records.iter().find(|r| r.name == name).unwrap();
    let config = ExtendConfig {
        depth: 1000,
        ..ExtendConfig::default()
    };

    let mann_wu = record("Mann and Wu 2007");
    let anderson = record("Anderson 2013");
    let ext = extend(
        &Rules::STANDARD,
        &golden_position(&mann_wu.deal, mann_wu.leader),
        &config,
        &mut Job::quiet(&AtomicBool::new(false)),
    )
    .unwrap();
    assert!(
        ext.complete && ext.depth < 1000,
        "the whole tree was searched"
    );
    assert_eq!(ext.original.cards, mann_wu.cards);
    let (a1, a2) = anderson.deal.split_once('/').unwrap();
    let swapped = golden_position(&format!("{a2}/{a1}"), 2);
    assert_eq!(ext.best[0].deal, swapped);
    assert_eq!(ext.best[0].cards, anderson.cards);

    let nessler = record("Nessler 2022");
    let ext = extend(
        &Rules::STANDARD,
        &golden_position(&nessler.deal, nessler.leader),
        &config,
        &mut Job::quiet(&AtomicBool::new(false)),
    )
    .unwrap();
    assert!(ext.complete && ext.depth < 1000);
    assert_eq!((ext.positions, ext.longer), (57137, 0));
    assert!(ext.best.iter().all(|d| d.cards < nessler.cards));
}

/// Casella's family: every cycle's complete basin, its size and its balanced deals.
#[test]
fn casella_family_basins() {
    for c in bmn_golden::load().casella_family.cycles {
        let b = basin(
            &Rules::STANDARD,
            &golden_position(&c.deal, 1),
            &BasinConfig::default(),
            &mut Job::quiet(&AtomicBool::new(false)),
        )
        .unwrap();
        let BasinTarget::Cycle { id, .. } = b.target else {
            panic!("{}: {:?}", c.id, b.target)
        };
        assert!(b.complete, "{}", c.id);
        assert_eq!(
            (
                id.to_string(),
                b.positions as u64,
                counts(b.balanced_counts())
            ),
            (c.cycle_id.clone(), c.basin_positions, c.balanced),
            "{}",
            c.id
        );
    }
}

/// Backward play from Paulhus's n = 16 cycle finds exactly the 36 deals of his Table 2 (as
/// balanced 12/12 deals with player 1 leading), with their preperiods: the exhaustive
/// enumeration's answer by another method.
#[test]
fn paulhus_table_2_is_the_cycles_balanced_deals() {
    let t = bmn_golden::load().paulhus_table2;
    let rep = &t.representative;
    let b = basin(
        &Rules::STANDARD,
        &golden_position(&rep.deal, rep.leader),
        &BasinConfig::default(),
        &mut Job::quiet(&AtomicBool::new(false)),
    )
    .unwrap();
    assert!(b.complete);
    let mut found: Vec<(String, u64, u64)> = b
        .balanced
        .iter()
        .filter(|d| d.deal.leader() == Player(0))
        .map(|d| (d.deal.deal_text(), d.length.tricks, d.length.cards))
        .collect();
    let mut want: Vec<(String, u64, u64)> = t
        .deals
        .iter()
        .map(|d| (d.deal.clone(), d.preperiod.tricks, d.preperiod.cards))
        .collect();
    found.sort();
    want.sort();
    assert_eq!(found, want);
}

fn counts(c: bmn_backward::BalancedCounts) -> bmn_golden::BalancedCounts {
    bmn_golden::BalancedCounts {
        leader_1: c.leader_1,
        all: c.all,
        exact: c.exact,
        leader_1_exact: c.leader_1_exact,
    }
}
