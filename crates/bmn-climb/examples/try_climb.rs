//! Tries a climb configuration for a while and prints its best game as it goes:
//! `cargo run --release -p bmn-climb --example try_climb -- ACCEPT MOVES WALKERS NEIGHBOURS SECONDS SEED`.

use std::time::Instant;

use bmn_climb::climb::{Accept, ClimbConfig, ClimbState, Objective};
use bmn_climb::{Evaluator, MoveSet};
use bmn_core::{Deck, Rules};
use bmn_search::DealSource;

fn main() {
    let a: Vec<String> = std::env::args().collect();
    let arg = |i: usize, d: &str| a.get(i).cloned().unwrap_or_else(|| d.to_string());
    let config = ClimbConfig {
        seed: arg(6, "1").parse().unwrap(),
        walkers: arg(3, "16").parse().unwrap(),
        neighbours: arg(4, "32").parse().unwrap(),
        moves: MoveSet::parse(&arg(2, "mixed")).unwrap(),
        accept: Accept::parse(&arg(1, "hill")).unwrap(),
        objective: Objective::Cards,
        balanced: false,
        restart_after: arg(7, "30").parse().unwrap(),
        temperature: arg(8, "300").parse().unwrap(),
        cooling: arg(9, "0.995").parse().unwrap(),
        top: 5,
        starts: vec![],
        source: DealSource::new(Deck::STANDARD, false).unwrap(),
    };
    let seconds: f64 = arg(5, "20").parse().unwrap();
    let evaluator = Evaluator::new(Rules::STANDARD);
    let mut state = ClimbState::new(&config);
    let started = Instant::now();
    while started.elapsed().as_secs_f64() < seconds {
        let r = state
            .round(&config, &evaluator, 2, started.elapsed().as_secs_f64())
            .unwrap();
        if r.improved {
            let f = &state.best[0];
            println!(
                "{:7.1}s {:>10} evals: {} cards {} tricks",
                started.elapsed().as_secs_f64(),
                state.evals,
                f.cards,
                f.tricks
            );
        }
    }
    let e = started.elapsed().as_secs_f64();
    println!(
        "done: {} evals in {:.1}s ({:.0}/s), best {} cards: {}",
        state.evals,
        e,
        state.evals as f64 / e,
        state.best[0].cards,
        state.best[0].deal
    );
}
