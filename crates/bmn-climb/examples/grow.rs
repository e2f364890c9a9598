//! The factory from given endless decks (one deal per line): how far walks carry a family of
//! cycles, round by round, and every cycle reached. docs/results.md, Part 7, "Walking the
//! family": `cargo run --release -p bmn-climb --example grow -- FILE [MOVES] [ROUNDS] [WALKERS]`.

use bmn_climb::factory::{Factory, FactoryConfig};
use bmn_climb::{Evaluator, MoveSet};
use bmn_core::{Player, Position, Rules};

fn main() {
    let mut args = std::env::args().skip(1);
    let file = args.next().unwrap();
    let moves = args.next().unwrap_or("give,transfer,swap,shift".into());
    let rounds: u64 = args.next().map_or(30, |s| s.parse().unwrap());
    let walkers: usize = args.next().map_or(16, |s| s.parse().unwrap());
    let evaluator = Evaluator::new(Rules::STANDARD);
    let mut f = Factory::new(
        FactoryConfig {
            seed: 1,
            rules: Rules::STANDARD,
            walkers,
            neighbours: 64,
            moves: MoveSet::parse(&moves).unwrap(),
            basin_limit: 20000,
            keep_balanced: 3,
            ..FactoryConfig::default()
        },
        &evaluator,
    );
    let t = std::time::Instant::now();
    for line in std::fs::read_to_string(file).unwrap().lines() {
        f.add(
            &Position::parse_deal(line, Player(0)).unwrap(),
            &std::sync::atomic::AtomicBool::new(false),
        );
    }
    println!(
        "seeds: {} cycles, {} balanced, {:.1}s",
        f.catalogue.cycles.len(),
        f.catalogue.balanced_cycles(),
        t.elapsed().as_secs_f64()
    );
    for r in 0..rounds {
        f.round(2, &std::sync::atomic::AtomicBool::new(false));
        let mut periods = std::collections::BTreeMap::new();
        for c in f.catalogue.cycles.values().filter(|c| c.balanced_count > 0) {
            *periods.entry(c.period.tricks).or_insert(0) += 1;
        }
        println!(
            "round {r}: {} cycles, {} balanced {:?}, closest {:?}, endless {}/{} {:.1}s",
            f.catalogue.cycles.len(),
            f.catalogue.balanced_cycles(),
            periods,
            f.catalogue.closest(),
            f.catalogue.endless,
            f.catalogue.evals,
            t.elapsed().as_secs_f64()
        );
    }
    for c in f.catalogue.cycles.values() {
        println!(
            "{} period {} closest {} basin {} {} balanced {} round {} pieces {:?}",
            c.cycle_id,
            c.period.tricks,
            c.closest,
            c.basin_positions,
            c.basin_complete,
            c.balanced_count,
            c.round,
            c.pieces
        );
    }
}
