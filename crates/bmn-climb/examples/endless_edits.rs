//! How often an edit of an endless position is endless, by move: what the factory's walk can
//! use. `cargo run --release -p bmn-climb --example endless_edits -- DEAL`.

use bmn_climb::{Cards, Evaluator, Game, MoveSet, moves};
use bmn_core::{Player, Position, Rules};
use bmn_deals::deal_rng;

fn main() {
    let deal = std::env::args()
        .nth(1)
        .unwrap_or("---K---Q-KQAJ-----AAJ--J--/----------Q----KQ-J-----KA".into());
    let start = Cards::of(&Position::parse_deal(&deal, Player(0)).unwrap()).unwrap();
    let evaluator = Evaluator::new(Rules::STANDARD);
    println!("start {} imbalance {}", start.text(), start.imbalance());
    for m in ["give", "transfer", "swap", "shift", "cut", "exchange"] {
        let set = MoveSet::parse(m).unwrap();
        let mut rng = deal_rng(3, 0);
        let batch: Vec<Cards> = (0..4000)
            .map(|_| {
                let mut c = start.clone();
                moves::apply(&mut c, &set, false, &mut rng);
                c
            })
            .collect();
        let games = evaluator.evaluate(&batch, 2);
        let endless: Vec<&Cards> = batch
            .iter()
            .zip(&games)
            .filter(|(_, g)| matches!(g, Game::Endless { .. }))
            .map(|(c, _)| c)
            .collect();
        let ids: std::collections::BTreeSet<String> = games
            .iter()
            .filter_map(|g| {
                if let Game::Endless { id, .. } = g {
                    Some(id.to_string())
                } else {
                    None
                }
            })
            .collect();
        let better = endless
            .iter()
            .filter(|c| c.imbalance() < start.imbalance())
            .count();
        println!(
            "{m:>9}: endless {:.4}, {} cycles, closer to balance {}",
            endless.len() as f64 / 4000.0,
            ids.len(),
            better
        );
    }
}
