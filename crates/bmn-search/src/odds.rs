//! The odds of a new record: an order-statistics model of the longest of many games
//! (Casella et al. 2024, arXiv:2403.13855), fitted to an exponential tail of game lengths.
//!
//! Past some length `x0` game lengths (in cards) have an exponential tail of mean `mu`, with
//! a share `p0` of all games reaching `x0`: `P(L >= x) = p0 * exp(-(x - x0) / mu)` for
//! `x >= x0`. Of `n` games, about `n * p0` reach the tail, and the largest of `m` exponential
//! samples has mean `mu * H_m` (Rényi's representation: the gaps between consecutive order
//! statistics are independent exponentials of means `mu / m, mu / (m - 1), ...`), with
//! `H_m = gamma + ln m + O(1/m)`; so the expected record of `n` games is
//! `x0 + mu * (gamma + ln(n * p0))`, and its spread is the Gumbel law's, standard deviation
//! `mu * pi / sqrt 6`. The chance that `n` games beat `c` cards is
//! `1 - (1 - P(L >= c))^n`. Nothing here prints or plays a game: `bmn odds` fits the model
//! on a `Stats` run and reports it.

use serde::Serialize;

use crate::stats::geometric_tail;

/// The Euler-Mascheroni constant: `H_n - ln n` tends to it.
pub const EULER_GAMMA: f64 = 0.577_215_664_901_532_9;

/// An exponential tail of game lengths: `P(L >= x) = p0 * exp(-(x - x0) / mu)` for `x >= x0`.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct TailModel {
    /// Mean excess of a game past `x0` (cards): the tail's scale.
    pub mu: f64,
    /// Where the tail starts (cards).
    pub x0: f64,
    /// Share of all games that reach `x0`.
    pub p0: f64,
}

impl TailModel {
    /// The tail of a histogram of lengths (`histogram[l]` finished games of length `l`) out
    /// of `games` games in all (cycling ones included: they are deals played too), fitted by
    /// maximum likelihood past its `from_quantile` quantile ([`geometric_tail`]). A geometric
    /// law with continuation `exp(-rate)` is the exponential of mean `1 / rate` read at whole
    /// lengths, so `mu = 1 / rate`. `None` with too few games in the tail.
    pub fn fit(histogram: &[u64], games: u64, from_quantile: f64) -> Option<TailModel> {
        let tail = geometric_tail(histogram, from_quantile)?;
        Some(TailModel {
            mu: 1.0 / tail.rate,
            x0: tail.from as f64,
            p0: tail.games as f64 / games.max(tail.games) as f64,
        })
    }

    /// `P(L >= length)` for one game; 1 where the model says more than 1 (short lengths,
    /// which the tail model does not describe).
    pub fn survival(&self, length: f64) -> f64 {
        (self.p0 * (-(length - self.x0) / self.mu).exp()).min(1.0)
    }

    /// The expected longest of `games` games: `x0 + mu * (gamma + ln(games * p0))`. Meant for
    /// `games * p0` well above 1 (the asymptotic `H_m ~ gamma + ln m`).
    pub fn expected_max(&self, games: f64) -> f64 {
        self.x0 + self.mu * (EULER_GAMMA + (games * self.p0).ln())
    }

    /// The standard deviation of the longest game of many: the Gumbel law's `mu * pi / sqrt 6`.
    pub fn max_spread(&self) -> f64 {
        self.mu * std::f64::consts::PI / 6f64.sqrt()
    }

    /// The chance that at least one of `games` games reaches `length`:
    /// `1 - (1 - P(L >= length))^games`, computed as `-expm1(games * ln_1p(-p))` because `p`
    /// is far below the spacing of doubles near 1 for record lengths.
    pub fn probability(&self, games: f64, length: f64) -> f64 {
        let p = self.survival(length);
        if p >= 1.0 {
            return 1.0;
        }
        -(games * (-p).ln_1p()).exp_m1()
    }

    /// How many games give a chance `probability` (in (0, 1)) that one reaches `length`:
    /// `ln(1 - probability) / ln(1 - P(L >= length))`.
    pub fn games_for_probability(&self, length: f64, probability: f64) -> f64 {
        (-probability).ln_1p() / (-self.survival(length)).ln_1p()
    }

    /// How many games make the expected record `length`: the inverse of [`Self::expected_max`].
    pub fn games_for_expected_max(&self, length: f64) -> f64 {
        ((length - self.x0) / self.mu - EULER_GAMMA).exp() / self.p0
    }

    /// The chance that the record of `games` games is below `length` (the published record's
    /// place in the model's distribution of records): `(1 - P(L >= length))^games`.
    pub fn record_below(&self, games: f64, length: f64) -> f64 {
        1.0 - self.probability(games, length)
    }
}

/// The harmonic number `H_n = 1 + 1/2 + ... + 1/n`: the expected largest of `n` exponential
/// samples of mean 1. Summed exactly up to a million terms, beyond that by its asymptotic
/// expansion `ln n + gamma + 1/(2n) - 1/(12 n^2)` (error below `1/(120 n^4)`).
pub fn harmonic(n: u64) -> f64 {
    if n <= 1_000_000 {
        // Smallest terms first, so the rounding errors stay at the last place.
        return (1..=n).rev().map(|k| 1.0 / k as f64).sum();
    }
    let x = n as f64;
    x.ln() + EULER_GAMMA + 1.0 / (2.0 * x) - 1.0 / (12.0 * x * x)
}

#[cfg(test)]
mod tests {
    use super::*;
    use bmn_deals::{SplitMix64, Xoshiro256PlusPlus};

    /// A uniform double in (0, 1]: 53 random bits, never 0 (its logarithm is taken).
    fn uniform(rng: &mut Xoshiro256PlusPlus) -> f64 {
        ((rng.next_u64() >> 11) + 1) as f64 * (1.0 / (1u64 << 53) as f64)
    }

    /// The mean, over `trials`, of the largest of `n` samples drawn by `sample`.
    fn mean_of_maxima(
        seed: u64,
        n: usize,
        trials: usize,
        mut sample: impl FnMut(&mut Xoshiro256PlusPlus) -> f64,
    ) -> f64 {
        let mut rng = Xoshiro256PlusPlus::from_splitmix(&mut SplitMix64::new(seed));
        let total: f64 = (0..trials)
            .map(|_| {
                (0..n)
                    .map(|_| sample(&mut rng))
                    .fold(f64::NEG_INFINITY, f64::max)
            })
            .sum();
        total / trials as f64
    }

    #[test]
    fn the_expected_maximum_of_exponentials_is_mu_h_n() {
        // 2000 maxima of 1000 samples: the maximum's spread is 1.28 mu, so the mean's is
        // 0.03 mu, 0.4% of mu H_1000 = 7.49 mu; 2% is five of those.
        let mu = 100.0;
        let simulated = mean_of_maxima(1, 1000, 2000, |r| -mu * uniform(r).ln());
        let exact = mu * harmonic(1000);
        assert!(
            (simulated / exact - 1.0).abs() < 0.02,
            "{simulated} vs {exact}"
        );
        // The model's gamma + ln n is H_n less 1/(2n).
        let pure = TailModel {
            mu,
            x0: 0.0,
            p0: 1.0,
        };
        let model = pure.expected_max(1000.0);
        assert!(
            (exact - model - mu / 2000.0).abs() < 1e-3,
            "{exact} vs {model}"
        );
        assert!((harmonic(1000) - (EULER_GAMMA + 1000f64.ln())).abs() < 6e-4);
        // The asymptotic form joins the exact sum.
        let (sum, asym) = (harmonic(1_000_000), {
            let x = 1e6f64;
            x.ln() + EULER_GAMMA + 0.5 / x - 1.0 / (12.0 * x * x)
        });
        assert!((sum - asym).abs() < 1e-12);
        assert!(harmonic(1_000_001) > harmonic(1_000_000));
    }

    #[test]
    fn the_tail_model_predicts_the_maximum_of_a_mixture() {
        // A quarter of the games reach x0 = 300 and go on exponentially (mu = 80); the rest
        // are shorter. Of 1000 games about 250 reach the tail.
        let m = TailModel {
            mu: 80.0,
            x0: 300.0,
            p0: 0.25,
        };
        let simulated = mean_of_maxima(7, 1000, 2000, |r| {
            if uniform(r) <= m.p0 {
                m.x0 - m.mu * uniform(r).ln()
            } else {
                m.x0 * uniform(r)
            }
        });
        let predicted = m.expected_max(1000.0);
        assert!(
            (simulated / predicted - 1.0).abs() < 0.02,
            "{simulated} vs {predicted}"
        );
    }

    #[test]
    fn probabilities_are_monotone_and_inverted_exactly() {
        let m = TailModel {
            mu: 150.0,
            x0: 400.0,
            p0: 0.25,
        };
        let c = 8345.0;
        let mut last = 0.0;
        for games in [1e9, 1e12, 1e15, 1e18, 1e21, 1e24, 1e27] {
            let p = m.probability(games, c);
            assert!((0.0..=1.0).contains(&p) && p >= last, "{games}: {p}");
            assert!(m.probability(games, c + 100.0) <= p);
            last = p;
        }
        let half = m.games_for_probability(c, 0.5);
        assert!((m.probability(half, c) - 0.5).abs() < 1e-9);
        assert!(m.probability(half / 2.0, c) < 0.5 && m.probability(half * 2.0, c) > 0.5);
        let n = m.games_for_expected_max(c);
        assert!((m.expected_max(n) - c).abs() < 1e-6 * c);
        // The median record is below the expected one (the Gumbel law leans right): more
        // games are needed for an even chance than for the expectation.
        assert!(half > n);
        // Below x0 the tail model says nothing; one game "reaches" length 0 for sure.
        assert_eq!(m.probability(1.0, 0.0), 1.0);
        assert!((m.record_below(half, c) - 0.5).abs() < 1e-9);
    }

    #[test]
    fn the_fit_recovers_a_geometric_tail_and_its_share() {
        // Lengths 0..100 uniform (100 games each), then 10000 * 0.99^k at 100 + k.
        let mut h = vec![100u64; 100];
        h.extend((0..3000).map(|k| (1e4 * 0.99f64.powi(k)).round() as u64));
        let games: u64 = h.iter().sum();
        let m = TailModel::fit(&h, games, 0.75).unwrap();
        // Past the 75th percentile the tail is geometric with mu = -1 / ln 0.99 = 99.5.
        assert!((m.mu - 99.5).abs() < 1.0, "{m:?}");
        assert!((m.p0 - 0.25).abs() < 0.01, "{m:?}");
        assert!(m.x0 > 100.0);
        // The fitted survival at x0 is the share of games that far.
        let at_x0: u64 = h.iter().skip(m.x0 as usize).sum();
        assert!((m.survival(m.x0) - at_x0 as f64 / games as f64).abs() < 1e-12);
    }
}
