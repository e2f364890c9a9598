//! Prints the cost of a deal on each stream and dealer (stream 2 laid out as codes, and as the
//! streaming kernels take it, by its marked cards), single-threaded, in calls of 4096 as a
//! search deals them, wall and CPU time (the machine is shared), several rounds alternating.
//!
//! `cargo run -p bmn-kernel --release --example deal_speed [-- DEALS [DECK [ROUNDS]]]`

use bmn_deals::{STANDARD_DECK, Stream, deal_range};
use bmn_kernel::dealer::Dealer;
use std::time::Instant;

/// CPU time of this thread in seconds (Linux `/proc/thread-self/schedstat`, nanoseconds).
fn cpu_seconds() -> f64 {
    let s = std::fs::read_to_string("/proc/thread-self/schedstat").unwrap_or_default();
    s.split_whitespace()
        .next()
        .and_then(|w| w.parse::<f64>().ok())
        .map_or(f64::NAN, |ns| ns * 1e-9)
}

fn main() {
    let mut args = std::env::args().skip(1);
    let deals: usize = args.next().map_or(2_000_000, |a| a.parse().expect("DEALS"));
    let cards: Vec<u8> = match args.next().filter(|a| a != "standard") {
        None => STANDARD_DECK.to_vec(),
        Some(spec) => {
            let deck = bmn_core::Deck::parse(&spec).expect("DECK");
            deck.cards().iter().map(|k| k.index() as u8).collect()
        }
    };
    let rounds: usize = args.next().map_or(3, |a| a.parse().expect("ROUNDS"));
    let n = cards.len();
    let mut out = vec![0u8; 4096 * n];
    type DealFn<'a> = dyn Fn(u64, &mut [u8]) + 'a;
    let dealers: Vec<(&str, Box<DealFn>)> = vec![
        (
            "stream 1, one at a time",
            Box::new(|first, out: &mut [u8]| deal_range(2026, first, &cards, out)),
        ),
        ("stream 1, batch", {
            let d = Dealer::new(Stream::V1, &cards);
            Box::new(move |first, out: &mut [u8]| d.batch(2026, first, out))
        }),
        ("stream 2, batch", {
            let d = Dealer::new(Stream::V2, &cards);
            Box::new(move |first, out: &mut [u8]| d.batch(2026, first, out))
        }),
        // As the streaming kernels take them: marked places and codes, nothing laid out.
        ("stream 2, marked", {
            let d = Dealer::new(Stream::V2, &cards);
            let marked = std::cell::RefCell::new(bmn_kernel::Marked::with_len(4096));
            Box::new(move |first, _: &mut [u8]| {
                assert!(d.batch_marked(2026, first, &mut marked.borrow_mut()));
            })
        }),
    ];
    println!("{deals} deals of {n} cards a round, calls of 4096, 1 thread");
    println!("{:<26} {:>10} {:>10}", "dealer", "ns (cpu)", "ns (wall)");
    for round in 0..rounds {
        for (name, deal) in &dealers {
            let (c0, t0) = (cpu_seconds(), Instant::now());
            let mut first = 0u64;
            while (first as usize) < deals {
                deal(first, &mut out);
                first += 4096;
            }
            let (c, w) = (cpu_seconds() - c0, t0.elapsed().as_secs_f64());
            let per = |s: f64| s * 1e9 / first as f64;
            println!(
                "{:<26} {:>10.2} {:>10.2}  (round {})",
                name,
                per(c),
                per(w),
                round + 1
            );
        }
    }
}
