//! Prints games/s of every kernel on random standard deals, single-threaded, beside a plain
//! card-by-card loop measured in the same run; wall and CPU time both (the machine is shared).
//!
//! `cargo run -p bmn-kernel --release --example kernel_speed [-- GAMES [SEED]]`

use bmn_deals::{STANDARD_DECK, deal_range};
use bmn_kernel::cardwise::play_cardwise;
use bmn_kernel::{DEFAULT_MAX_TRICKS, Kernel, Played, Shape, play_many};
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
    let mut deals = vec![0u8; games * 52];
    let (w, c) = timed(|| deal_range(seed, 0, &STANDARD_DECK, &mut deals));
    println!(
        "{games} deals of seed {seed}; dealing: {w:.3} s wall, {c:.3} s cpu = {:.2} M deals/s (cpu)",
        games as f64 / c / 1e6
    );

    let mut base = vec![Played::default(); games];
    let (bw, bc) = timed(|| {
        for (d, o) in deals.chunks_exact(52).zip(base.iter_mut()) {
            *o = play_cardwise(&d[..26], &d[26..], 0, DEFAULT_MAX_TRICKS);
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
    let shape = Shape::of_batch(&deals, 52, 26, DEFAULT_MAX_TRICKS);
    for kernel in Kernel::all_available()
        .into_iter()
        .filter(|k| k.takes(&shape))
    {
        let mut out = vec![Played::default(); games];
        let (w, c) = timed(|| play_many(kernel, &deals, 52, 26, DEFAULT_MAX_TRICKS, &mut out));
        assert!(
            out == base,
            "{} disagrees with the card-wise loop",
            kernel.name()
        );
        row(kernel.name(), w, c);
    }
}
