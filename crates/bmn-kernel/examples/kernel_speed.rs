//! Prints games/s of every kernel that takes the deck on random deals (standard unless a DECK
//! is given, split in the middle), single-threaded, in batches of 4096 as a search plays them,
//! beside a plain card-by-card loop measured in the same run; wall and CPU time both (the
//! machine is shared).
//!
//! `cargo run -p bmn-kernel --release --example kernel_speed [-- GAMES [SEED [DECK]]]`

use bmn_deals::{STANDARD_DECK, deal_range};
use bmn_kernel::cardwise::play_cardwise;
use bmn_kernel::{DEFAULT_MAX_TRICKS, Kernel, KernelBuffers, Played, Shape};
use std::time::Instant;

/// CPU time of this thread in seconds (Linux `/proc/thread-self/schedstat`, nanoseconds).
fn cpu_seconds() -> Option<f64> {
    let s = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let ns: f64 = s.split_whitespace().next()?.parse().ok()?;
    Some(ns * 1e-9)
}

/// Runs `f`, returning (wall s, cpu s).
fn timed(f: impl FnOnce()) -> (f64, f64) {
    let c0 = cpu_seconds();
    let t0 = Instant::now();
    f();
    let wall = t0.elapsed().as_secs_f64();
    let cpu = match (c0, cpu_seconds()) {
        (Some(a), Some(b)) => b - a,
        _ => f64::NAN,
    };
    (wall, cpu)
}

fn summary(out: &[Played]) -> (u64, u64, u64) {
    let cards = out.iter().map(|o| u64::from(o.cards())).sum();
    let tricks = out.iter().map(|o| u64::from(o.tricks())).sum();
    let p2 = out
        .iter()
        .filter(|o| matches!(o, Played::Finished { winner: 1, .. }))
        .count() as u64;
    (cards, tricks, p2)
}

fn main() {
    let mut args = std::env::args().skip(1);
    let games: usize = args.next().map_or(2_000_000, |a| a.parse().expect("GAMES"));
    let seed: u64 = args.next().map_or(2026, |a| a.parse().expect("SEED"));
    let cards: Vec<u8> = match args.next() {
        None => STANDARD_DECK.to_vec(),
        Some(spec) => {
            let deck = bmn_core::Deck::parse(&spec).expect("DECK");
            deck.cards().iter().map(|k| k.index() as u8).collect()
        }
    };
    let (n, split) = (cards.len(), cards.len() / 2);
    let mut deals = vec![0u8; games * n];
    let (w, c) = timed(|| deal_range(seed, 0, &cards, &mut deals));
    println!(
        "{games} deals of {n} cards, seed {seed}; dealing: {w:.3} s wall, {c:.3} s cpu = {:.2} M deals/s (cpu)",
        games as f64 / c / 1e6
    );

    let mut base = vec![Played::default(); games];
    let (bw, bc) = timed(|| {
        for (d, o) in deals.chunks_exact(n).zip(base.iter_mut()) {
            *o = play_cardwise(&d[..split], &d[split..], 0, DEFAULT_MAX_TRICKS);
        }
    });
    let (cards, tricks, p2) = summary(&base);
    println!(
        "mean {:.2} cards, {:.2} tricks per game; player 2 wins {:.4}",
        cards as f64 / games as f64,
        tricks as f64 / games as f64,
        p2 as f64 / games as f64
    );
    println!(
        "{:<20} {:>9} {:>9} {:>12} {:>12} {:>10} {:>10}",
        "kernel", "wall s", "cpu s", "M games/s", "(wall)", "x cardwise", "M cards/s"
    );
    let row = |name: &str, w: f64, c: f64| {
        println!(
            "{name:<20} {w:>9.3} {c:>9.3} {:>12.3} {:>12.3} {:>10.2} {:>10.1}",
            games as f64 / c / 1e6,
            games as f64 / w / 1e6,
            bc / c,
            cards as f64 / c / 1e6
        );
    };
    row("cardwise", bw, bc);
    for kernel in Kernel::all_for(&Shape::of_batch(&deals, n, split, DEFAULT_MAX_TRICKS)) {
        let mut out = vec![Played::default(); games];
        let mut buffers = KernelBuffers::default();
        let (w, c) = timed(|| {
            for (d, o) in deals.chunks(4096 * n).zip(out.chunks_mut(4096)) {
                buffers.play(kernel, d, n, split, DEFAULT_MAX_TRICKS, o);
            }
        });
        assert!(
            out == base,
            "{} disagrees with the card-wise loop",
            kernel.name()
        );
        row(kernel.name(), w, c);
    }
}
