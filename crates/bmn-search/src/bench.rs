//! Timing the reference engine and each kernel on the same deals (no printing: callers report).

use std::time::{Duration, Instant};

use bmn_core::{Outcome as Exact, Rules, play_out};
use bmn_kernel::{Kernel, Outcome};

use crate::deals::DealSource;
use crate::run::{exact_outcome, position};

/// One engine's run over the bench deals.
#[derive(Clone, Debug)]
pub struct Timing {
    pub engine: &'static str,
    pub games: usize,
    pub wall: Duration,
    /// Exact outcomes, to check the engines agree.
    pub outcomes: Vec<Exact>,
}

impl Timing {
    pub fn games_per_second(&self) -> f64 {
        self.games as f64 / self.wall.as_secs_f64().max(1e-9)
    }
}

/// Deals `games` deals of `seed` into one buffer.
pub fn deal_all(source: &DealSource, seed: u64, games: usize) -> Vec<u8> {
    let mut deals = vec![0u8; games * source.len()];
    for (i, d) in deals.chunks_exact_mut(source.len()).enumerate() {
        source.deal(seed, i as u64, d);
    }
    deals
}

/// Splits `deals` into `threads` contiguous parts and runs `f` on each in parallel.
fn parallel<F>(deals: &[u8], len: usize, threads: usize, f: F) -> Vec<Exact>
where
    F: Fn(&[u8]) -> Vec<Exact> + Sync,
{
    let games = deals.len() / len;
    let per = games.div_ceil(threads.max(1)).max(1);
    std::thread::scope(|scope| {
        let handles: Vec<_> = deals
            .chunks(per * len)
            .map(|part| scope.spawn(|| f(part)))
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().expect("bench thread"))
            .collect()
    })
}

/// The reference engine (bmn-core, card by card with Brent's cycle detection) on every deal.
pub fn time_reference(source: &DealSource, deals: &[u8], threads: usize) -> Timing {
    let len = source.len();
    let started = Instant::now();
    let outcomes = parallel(deals, len, threads, |part| {
        part.chunks_exact(len)
            .map(|d| play_out(&Rules::STANDARD, &position(source, d)))
            .collect()
    });
    Timing {
        engine: "reference",
        games: deals.len() / len,
        wall: started.elapsed(),
        outcomes,
    }
}

/// A kernel on every deal, capped games handed to exact cycle detection (as the search does).
pub fn time_kernel(
    source: &DealSource,
    deals: &[u8],
    threads: usize,
    kernel: Kernel,
    max_tricks: u32,
) -> Timing {
    let len = source.len();
    let started = Instant::now();
    let outcomes = parallel(deals, len, threads, |part| {
        let mut out = vec![Outcome::default(); part.len() / len];
        bmn_kernel::play_many(kernel, part, len, source.split(), max_tricks, &mut out);
        part.chunks_exact(len)
            .zip(out)
            .map(|(d, o)| exact_outcome(o, || position(source, d)))
            .collect()
    });
    Timing {
        engine: kernel.name(),
        games: deals.len() / len,
        wall: started.elapsed(),
        outcomes,
    }
}
