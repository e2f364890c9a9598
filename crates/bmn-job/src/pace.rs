//! How many units a worker claims at once, and on which engine it plays them: one unit at a
//! time on the CPU; on a device, claims sized by the rates measured as the run goes.
//!
//! Why measured: a device's speed is unknown until it plays (a data-centre GPU plays 10^9
//! standard games a second, a laptop's integrated one or a CPU adapter a thousandth of
//! that). A fixed batch of 2^24 games is milliseconds on the first and a minute on the
//! last, during which progress sits still, a stop waits, and (with `--kernel all`) the CPU
//! workers run dry while the device holds the end of the job. So a device claim starts at one
//! unit, at most doubles, takes about [`TARGET_SECONDS`] at the device's last measured rate,
//! and is never more than the device's share of what is left at the measured rates of every
//! worker: device and CPU finish together, so sharing is never slower than its faster part.

use std::sync::atomic::{AtomicU64, Ordering};

/// Which engine a claim is played on: a device worker plays its units on the run's device,
/// a CPU worker on its kernel (bmn-search's `Engine::on`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Worker {
    Device,
    Cpu,
}

/// How workers claim units.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Claims {
    /// Every worker plays this many consecutive units at a time on the CPU.
    Each(u64),
    /// Workers feed a device, claims paced by measured rates, at most `max` units (the
    /// device's batch). With `shared` (`--kernel all`) the first worker alone feeds the device
    /// and the others play one unit at a time on the CPU kernels.
    Paced { max: u64, shared: bool },
}

impl Claims {
    /// Units worker `worker` claims next, of `threads` in all: one on the CPU, a paced claim
    /// ([`device_claim`]) on a device, from its `last` claim, the `left` units not yet claimed
    /// and the `rates` the CPU workers measured.
    pub(crate) fn next_size(
        self,
        worker: Worker,
        last: Option<(u64, f64)>,
        left: Option<u64>,
        rates: &Rates,
        threads: usize,
    ) -> u64 {
        let (max, shared) = match (self, worker) {
            (Claims::Each(n), _) => return n.max(1),
            (Claims::Paced { .. }, Worker::Cpu) => return 1,
            (Claims::Paced { max, shared }, Worker::Device) => (max, shared),
        };
        let others = (threads - 1) as f64;
        let others = if threads == 1 {
            Some(0.0)
        } else if shared {
            Some(rates.cpu() * others).filter(|&r| r > 0.0)
        } else {
            last.map(|(u, s)| u as f64 / s.max(1e-9) * others)
        };
        device_claim(Outlook {
            max: max.max(1),
            last,
            left,
            others,
        })
    }

    /// The engine worker `index` of a run plays on.
    pub fn worker(self, index: usize) -> Worker {
        match self {
            Claims::Each(_) => Worker::Cpu,
            Claims::Paced { shared: true, .. } if index > 0 => Worker::Cpu,
            Claims::Paced { .. } => Worker::Device,
        }
    }
}

/// Seconds a device claim aims to take: progress moves and a stop lands within a second.
const TARGET_SECONDS: f64 = 0.5;

/// Rates shared by a run's workers, measured from each claim they finish.
#[derive(Debug, Default)]
pub(crate) struct Rates {
    /// Units a second of one CPU worker (f64 bits; 0: none measured yet).
    cpu: AtomicU64,
}

impl Rates {
    pub fn cpu(&self) -> f64 {
        f64::from_bits(self.cpu.load(Ordering::Relaxed))
    }

    pub fn set_cpu(&self, units: u64, seconds: f64) {
        let rate = units as f64 / seconds.max(1e-9);
        self.cpu.store(rate.to_bits(), Ordering::Relaxed);
    }
}

/// What a device worker knows when it claims: its own last claim, what is left of the run,
/// and who else plays.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Outlook {
    /// The largest claim (the device's batch, in units).
    pub max: u64,
    /// Units and seconds of this worker's last claim (`None` before its first).
    pub last: Option<(u64, f64)>,
    /// Units not yet claimed by anyone (`None`: the run has no end).
    pub left: Option<u64>,
    /// Units a second of the run's other workers together: measured CPU workers, or other
    /// device workers (taken to go as fast as this one), 0 where there are none; `None` where
    /// they have not yet finished a claim, when they count as fast as this worker.
    pub others: Option<f64>,
}

/// Units a device worker claims next (at least one).
pub(crate) fn device_claim(o: Outlook) -> u64 {
    let Some((units, seconds)) = o.last else {
        return 1;
    };
    let rate = units as f64 / seconds.max(1e-9);
    let mut n = (rate * TARGET_SECONDS) as u64;
    n = n.min(units.saturating_mul(2)).min(o.max);
    // Alone (no other worker), it takes what the pace allows.
    if let Some(left) = o.left
        && o.others != Some(0.0)
    {
        let others = o.others.unwrap_or(rate);
        let share = left as f64 * rate / (rate + others);
        n = n.min(share.ceil() as u64);
    }
    n.max(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn outlook(last: Option<(u64, f64)>, left: Option<u64>, others: Option<f64>) -> Outlook {
        Outlook {
            max: 1024,
            last,
            left,
            others,
        }
    }

    #[test]
    fn a_device_starts_at_one_unit_and_at_most_doubles() {
        assert_eq!(device_claim(outlook(None, None, None)), 1);
        // Fast: 1000 units a second, but the last claim was 8.
        assert_eq!(device_claim(outlook(Some((8, 0.008)), None, None)), 16);
        // Never past the device's batch.
        assert_eq!(device_claim(outlook(Some((1024, 0.01)), None, None)), 1024);
    }

    #[test]
    fn a_slow_device_takes_half_a_second_of_work() {
        // 20 units a second: 10 units, however large the last claim was.
        assert_eq!(device_claim(outlook(Some((40, 2.0)), None, None)), 10);
        assert_eq!(device_claim(outlook(Some((1, 10.0)), None, None)), 1);
    }

    #[test]
    fn a_device_takes_no_more_than_its_share_of_what_is_left() {
        // Device 100 units/s, the CPU workers 300: a quarter of the 40 units left.
        assert_eq!(
            device_claim(outlook(Some((50, 0.5)), Some(40), Some(300.0))),
            10
        );
        // Unmeasured others count as fast as the device: half.
        assert_eq!(device_claim(outlook(Some((50, 0.5)), Some(40), None)), 20);
        // Alone (no other worker), it takes what the pace allows.
        let alone = outlook(Some((50, 0.5)), Some(40), Some(0.0));
        assert_eq!(device_claim(alone), 50);
        // Nothing left still claims one unit (the claim then finds the run's end).
        assert_eq!(device_claim(outlook(Some((50, 0.5)), Some(0), None)), 1);
    }

    #[test]
    fn shared_claims_put_the_first_worker_on_the_device() {
        let shared = Claims::Paced {
            max: 8,
            shared: true,
        };
        assert_eq!(shared.worker(0), Worker::Device);
        assert_eq!(shared.worker(1), Worker::Cpu);
        let alone = Claims::Paced {
            max: 8,
            shared: false,
        };
        assert_eq!(alone.worker(3), Worker::Device);
        assert_eq!(Claims::Each(1).worker(0), Worker::Cpu);
    }
}
