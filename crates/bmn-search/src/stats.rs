//! `Stats`: the distribution of game lengths and the wins by seat over many games (`bmn stats`).
//!
//! Lengths are kept exactly (one count per length in cards and per length in tricks), so
//! medians and percentiles are exact and merging is plain addition: a run's statistics are
//! the same whatever the thread count or the order units finish in.

use std::collections::BTreeMap;

use bmn_core::{Cycle, CycleId, Player};
use bmn_kernel::Played;
use serde::{Deserialize, Serialize};

use crate::counts::{add_at, add_counts};
use crate::device::{Digest, DigestSpec};
use crate::play::{DealIndex, DigestSink, Tally};
use crate::summary::HISTOGRAM_BIN;

/// The 97.5% point of the standard normal: 95% two-sided intervals.
const Z95: f64 = 1.959_963_984_540_054;

/// Where the exponential tail is fitted from, as a quantile of the tricks distribution:
/// past the bulk of the distribution, where Casella et al. (2024, Figure 1) see a straight
/// line on a log scale, yet with a quarter of the games to fit.
pub const TAIL_FROM_QUANTILE: f64 = 0.75;

/// Totals of a set of games. `merge` is associative and commutative.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Stats {
    /// Games played (finished and cycling).
    pub games: u64,
    /// Finished games won by each seat (`wins[0]`: player 1), as many seats as have won.
    pub wins: Vec<u64>,
    /// Finished games by length: `cards[c]` games laid exactly `c` cards.
    pub cards: Vec<u64>,
    /// Finished games by length: `tricks[t]` games took exactly `t` tricks.
    pub tricks: Vec<u64>,
    /// Games that never end.
    pub cycling: u64,
    /// Every distinct cycle reached, with how many games reach it.
    pub cycles: BTreeMap<CycleId, u64>,
    /// Games the reference engine gave up on (neither ended nor repeated within its limit).
    pub unresolved: u64,
}

/// An exponential (geometric) tail fitted to the tricks distribution.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct TailFit {
    /// The fit covers games of at least this many tricks.
    pub from_tricks: u64,
    /// How many games that is.
    pub games: u64,
    /// Fitted decay per trick: P(T >= t + 1 | T >= t) = exp(-rate).
    #[serde(rename = "rate_per_trick")]
    pub rate: f64,
    /// Tricks over which the tail halves: ln 2 / rate.
    #[serde(rename = "half_life_tricks")]
    pub half_life: f64,
}

impl Tally for Stats {
    fn record_finished(
        &mut self,
        _index: DealIndex,
        cards: u64,
        tricks: u64,
        winner: usize,
        _deal: impl FnOnce() -> String,
    ) {
        self.games += 1;
        add_at(&mut self.wins, winner - 1, 1);
        add_at(&mut self.cards, cards as usize, 1);
        add_at(&mut self.tricks, tricks as usize, 1);
    }

    fn record_cycle(&mut self, _index: DealIndex, cycle: &Cycle, _deal: impl FnOnce() -> String) {
        self.games += 1;
        self.cycling += 1;
        *self.cycles.entry(cycle.id).or_default() += 1;
    }

    fn record_unresolved(&mut self, _index: DealIndex, _deal: impl FnOnce() -> String) {
        self.games += 1;
        self.unresolved += 1;
    }

    fn merge(&mut self, other: Stats) {
        // The inherent method (inherent methods take precedence over the trait's).
        Stats::merge(self, other);
    }

    fn digest_sink(&mut self) -> Option<&mut dyn DigestSink> {
        Some(self)
    }
}

/// A device counts the finished games by exact length itself; only capped games (for the
/// exact hand-over) and games past its counts come back one by one.
impl DigestSink for Stats {
    fn digest_spec(&self) -> DigestSpec {
        DigestSpec {
            bin: HISTOGRAM_BIN as u32,
            keep_cards: u32::MAX,
            lengths: true,
        }
    }

    /// Nothing here depends on which games came back: every one is recorded.
    fn covered(&self, _keep_cards: u32, _kept: &[(usize, Played)]) -> bool {
        true
    }

    fn add_digest(&mut self, digest: &Digest, leader: Player) {
        self.games += digest.finished;
        digest.add_wins(&mut self.wins, leader);
        add_counts(&mut self.cards, &digest.by_cards);
        add_counts(&mut self.tricks, &digest.by_tricks);
    }
}

impl Stats {
    /// Adds `other`'s games to these.
    pub fn merge(&mut self, other: Stats) {
        self.games += other.games;
        add_counts(&mut self.wins, &other.wins);
        add_counts(&mut self.cards, &other.cards);
        add_counts(&mut self.tricks, &other.tricks);
        self.cycling += other.cycling;
        self.unresolved += other.unresolved;
        for (id, n) in other.cycles {
            *self.cycles.entry(id).or_default() += n;
        }
    }

    /// Games that ended.
    pub fn finished(&self) -> u64 {
        self.wins.iter().sum()
    }

    pub fn mean_cards(&self) -> f64 {
        mean(&self.cards)
    }

    pub fn mean_tricks(&self) -> f64 {
        mean(&self.tricks)
    }

    /// Share of the finished games won by `seat` (0-based) and its 95% Wilson score interval.
    pub fn win_share(&self, seat: usize) -> (f64, [f64; 2]) {
        let wins = self.wins.get(seat).copied().unwrap_or(0);
        wilson(wins, self.finished())
    }

    /// Share of all games that never end.
    pub fn cycling_share(&self) -> f64 {
        self.cycling as f64 / self.games.max(1) as f64
    }

    /// The exponential tail of the tricks distribution from its [`TAIL_FROM_QUANTILE`]
    /// quantile on ([`geometric_tail`]). `None` with fewer than 10 games in the tail.
    pub fn tail_fit(&self) -> Option<TailFit> {
        let fit = geometric_tail(&self.tricks, TAIL_FROM_QUANTILE)?;
        Some(TailFit {
            from_tricks: fit.from,
            games: fit.games,
            rate: fit.rate,
            half_life: std::f64::consts::LN_2 / fit.rate,
        })
    }
}

/// A geometric tail fitted to a histogram of lengths (in cards or in tricks).
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct GeometricTail {
    /// The fit covers lengths of at least this.
    pub from: u64,
    /// How many games that is.
    pub games: u64,
    /// Fitted decay per unit of length: P(L >= l + 1 | L >= l) = exp(-rate) for l >= from.
    pub rate: f64,
}

/// The geometric tail of `histogram` from its `from_quantile` quantile `l0` on, by maximum
/// likelihood: with `n` games of length at least `l0` whose excess over `l0` sums to `s`,
/// the chance of going on one more unit is `s / (n + s)`. `None` with fewer than 10 games in
/// the tail or no excess at all.
pub fn geometric_tail(histogram: &[u64], from_quantile: f64) -> Option<GeometricTail> {
    let from = quantile(histogram, from_quantile)?;
    let (mut n, mut excess) = (0u64, 0u128);
    for (len, &count) in histogram.iter().enumerate().skip(from as usize) {
        n += count;
        excess += u128::from(count) * (len as u128 - u128::from(from));
    }
    if n < 10 || excess == 0 {
        return None;
    }
    let go_on = excess as f64 / (n as f64 + excess as f64);
    Some(GeometricTail {
        from,
        games: n,
        rate: -go_on.ln(),
    })
}

/// The mean length of a histogram of lengths.
pub fn mean(histogram: &[u64]) -> f64 {
    let (n, sum) = histogram
        .iter()
        .enumerate()
        .fold((0u64, 0u128), |(n, s), (len, &c)| {
            (n + c, s + len as u128 * u128::from(c))
        });
    sum as f64 / n.max(1) as f64
}

/// The `q`-quantile (0 <= q <= 1) of a histogram of lengths: the least length with at least
/// a share `q` of the games at or below it (`q = 0.5`: the median). `None` if it is empty.
pub fn quantile(histogram: &[u64], q: f64) -> Option<u64> {
    let total: u64 = histogram.iter().sum();
    if total == 0 {
        return None;
    }
    // The rank of the wanted game, 1-based; at least the first.
    let rank = ((q.clamp(0.0, 1.0) * total as f64).ceil() as u64).max(1);
    let mut seen = 0;
    histogram.iter().enumerate().find_map(|(len, &c)| {
        seen += c;
        (seen >= rank).then_some(len as u64)
    })
}

/// A share `k / n` with its 95% Wilson score interval (Wilson 1927), which stays inside
/// [0, 1] and behaves for shares near 0 or 1, where the normal approximation does not.
pub fn wilson(k: u64, n: u64) -> (f64, [f64; 2]) {
    if n == 0 {
        return (0.0, [0.0, 1.0]);
    }
    let (k, n) = (k as f64, n as f64);
    let p = k / n;
    let z2 = Z95 * Z95;
    let centre = (p + z2 / (2.0 * n)) / (1.0 + z2 / n);
    let half = Z95 * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt() / (1.0 + z2 / n);
    (p, [(centre - half).max(0.0), (centre + half).min(1.0)])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quantiles_are_exact() {
        // Lengths 1, 2, 2, 3, 10.
        let mut h = vec![0; 11];
        for len in [1, 2, 2, 3, 10] {
            h[len] += 1;
        }
        assert_eq!(quantile(&h, 0.5), Some(2));
        assert_eq!(quantile(&h, 0.0), Some(1));
        assert_eq!(quantile(&h, 0.8), Some(3));
        assert_eq!(quantile(&h, 0.81), Some(10));
        assert_eq!(quantile(&h, 1.0), Some(10));
        assert_eq!(quantile(&[0, 0], 0.5), None);
        assert!((mean(&h) - 3.6).abs() < 1e-12);
    }

    #[test]
    fn wilson_matches_a_worked_case() {
        // 50 of 100: 0.5 with the interval 0.4038..0.5962 (Wilson, z = 1.96).
        let (p, [lo, hi]) = wilson(50, 100);
        assert_eq!(p, 0.5);
        assert!((lo - 0.403_8).abs() < 1e-4 && (hi - 0.596_2).abs() < 1e-4);
        let (_, [lo, hi]) = wilson(0, 10);
        assert_eq!(lo, 0.0);
        assert!((hi - 0.277_5).abs() < 1e-4);
    }

    #[test]
    fn the_tail_fit_recovers_a_geometric_law() {
        // Exactly geometric lengths: count(t) = 2^20 * (1/2)^(t / 10), a half-life of 10.
        let mut s = Stats::default();
        for t in 0..400usize {
            let count = (f64::from(1 << 20) * 0.5f64.powf(t as f64 / 10.0)).round() as u64;
            add_at(&mut s.tricks, t, count);
            add_at(&mut s.wins, 0, count);
        }
        let fit = s.tail_fit().unwrap();
        assert!((fit.half_life - 10.0).abs() < 0.2, "{fit:?}");
    }

    #[test]
    fn merge_is_addition() {
        let mut a = Stats::default();
        let mut b = Stats::default();
        let mut whole = Stats::default();
        for i in 0..50u64 {
            let (cards, tricks, winner) = (i * 7 % 31, i % 9, 1 + (i % 3) as usize);
            whole.record_finished(i.into(), cards, tricks, winner, String::new);
            if i % 2 == 0 { &mut a } else { &mut b }.record_finished(
                i.into(),
                cards,
                tricks,
                winner,
                String::new,
            );
        }
        a.merge(b);
        assert_eq!(a, whole);
        assert_eq!(whole.finished(), 50);
    }
}
