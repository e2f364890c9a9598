//! How far a small-hand enumeration has got: what its progress callback sees, and the tally
//! its walks report their decided positions to while they run.

use std::sync::atomic::{AtomicU64, Ordering};

/// How far an enumeration has got, for a progress display: the units merged so far and the
/// positions they decided (what the result counts, if it stops now), and the positions decided
/// by units still running or waiting to merge (so that a display moves while a long unit runs;
/// a stop drops them).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct HandsProgress {
    pub units_done: u64,
    pub units: u64,
    pub decided: f64,
    pub under_way: f64,
    pub positions: f64,
}

/// Positions decided by the units at work, summed as they report in batches: an `f64` in an
/// atomic's bits, since a unit's count can pass `u64` on big decks.
#[derive(Default)]
pub(crate) struct DecidedSum(AtomicU64);

impl DecidedSum {
    pub(crate) fn add(&self, decided: f64) {
        let _ = self
            .0
            .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |bits| {
                Some((f64::from_bits(bits) + decided).to_bits())
            });
    }

    pub(crate) fn get(&self) -> f64 {
        f64::from_bits(self.0.load(Ordering::Relaxed))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Batches from several threads all count, fractions and counts past `u64` included.
    #[test]
    fn the_tally_sums_every_batch() {
        let tally = DecidedSum::default();
        std::thread::scope(|s| {
            for _ in 0..4 {
                s.spawn(|| (0..1000).for_each(|_| tally.add(0.5)));
            }
        });
        assert_eq!(tally.get(), 2000.0);
        tally.add(1e20);
        assert_eq!(tally.get(), 1e20 + 2000.0);
    }
}
