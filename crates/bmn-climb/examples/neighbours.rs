//! How long the neighbours of a deal play, against the deal itself: the correlation a climb
//! could use. `cargo run --release -p bmn-climb --example neighbours`.

use bmn_climb::{Cards, Evaluator, Game, MoveSet, moves};
use bmn_core::{Deck, Rules};
use bmn_deals::deal_rng;
use bmn_search::DealSource;

fn main() {
    let source = DealSource::new(Deck::STANDARD, false).unwrap();
    let evaluator = Evaluator::new(Rules::STANDARD);
    // 400000 random deals; keep the finished ones, longest first.
    let mut parents: Vec<(u64, Cards)> = Vec::new();
    let n = 400_000;
    let mut batch = Vec::with_capacity(n);
    for k in 0..n as u64 {
        let mut codes = vec![0u8; 52];
        source.deal(99, k, &mut codes);
        batch.push(Cards {
            codes,
            sizes: vec![26, 26],
        });
    }
    let games = evaluator.evaluate(&batch, 2);
    for (c, g) in batch.into_iter().zip(games) {
        if let Game::Finished { cards, .. } = g {
            parents.push((cards, c));
        }
    }
    parents.sort_by_key(|p| std::cmp::Reverse(p.0));
    // Deep swaps: two cards of different kinds among the last D of one hand.
    for depth in [3usize, 6, 10] {
        let picks = &parents[..50];
        let mut kids = Vec::new();
        for (i, (_, p)) in picks.iter().enumerate() {
            let mut rng = deal_rng(11, i as u64);
            for _ in 0..200 {
                let mut c = p.clone();
                let hand = rng.below(2) as usize;
                let base = hand * 26 + 26 - depth;
                for _ in 0..16 {
                    let (a, b) = (
                        base + rng.below(depth as u32) as usize,
                        base + rng.below(depth as u32) as usize,
                    );
                    if c.codes[a] != c.codes[b] {
                        c.codes.swap(a, b);
                        break;
                    }
                }
                kids.push(c);
            }
        }
        let r = Neighbours::of(&evaluator, picks, &kids);
        println!(
            "deep swap (last {depth}) top 50: neighbours mean {:6.0}, longer {:.4}, same length {:.4}",
            r.mean, r.longer, r.same
        );
    }
    let mid = parents.len() / 2;
    for moves_name in ["swap", "shift", "cut", "exchange"] {
        let set = MoveSet::parse(moves_name).unwrap();
        for (band, picks) in [
            ("top 50", &parents[..50]),
            ("median", &parents[mid - 25..mid + 25]),
        ] {
            let mut kids = Vec::new();
            for (i, (_, p)) in picks.iter().enumerate() {
                let mut rng = deal_rng(7, i as u64);
                for _ in 0..200 {
                    let mut c = p.clone();
                    moves::apply(&mut c, &set, false, &mut rng);
                    kids.push(c);
                }
            }
            let r = Neighbours::of(&evaluator, picks, &kids);
            println!(
                "{moves_name:>8} {band:>7}: parents {:7.0}, neighbours mean {:6.0}, at least as long {:.4}",
                r.parent_mean,
                r.mean,
                r.longer + r.same
            );
        }
    }
}

/// How 200 neighbours of each parent played, against their parent.
struct Neighbours {
    parent_mean: f64,
    /// Mean length in cards (an endless game counts 0).
    mean: f64,
    /// Share strictly longer than their parent.
    longer: f64,
    /// Share exactly as long.
    same: f64,
}

impl Neighbours {
    fn of(evaluator: &Evaluator, parents: &[(u64, Cards)], kids: &[Cards]) -> Neighbours {
        let games = evaluator.evaluate(kids, 2);
        let lengths: Vec<Option<u64>> = games
            .iter()
            .map(|g| match g {
                Game::Finished { cards, .. } => Some(*cards),
                _ => None,
            })
            .collect();
        let parent_of = parents.iter().flat_map(|p| std::iter::repeat_n(p.0, 200));
        let (mut longer, mut same) = (0usize, 0usize);
        for (l, parent) in lengths.iter().zip(parent_of) {
            match l {
                Some(l) if *l > parent => longer += 1,
                Some(l) if *l == parent => same += 1,
                _ => {}
            }
        }
        let n = lengths.len() as f64;
        Neighbours {
            parent_mean: parents.iter().map(|p| p.0 as f64).sum::<f64>() / parents.len() as f64,
            mean: lengths.iter().map(|l| l.unwrap_or(0) as f64).sum::<f64>() / n,
            longer: longer as f64 / n,
            same: same as f64 / n,
        }
    }
}
