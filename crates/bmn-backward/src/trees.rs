//! Paulhus's statistic: the mean size of the tree of positions that end in a final position.
//!
//! Paulhus ("Beggar My Neighbour", Amer. Math. Monthly 106(2), 1999) turned the question "are
//! there cycles?" into a count. The game is a function on positions, so every position either
//! finishes, in exactly one final position, or falls into a cycle. The tree of a final
//! position `f` is every position that ends in `f`, `f` included. Summed over all reachable
//! final positions (one player holds every card and leads), the tree sizes count every
//! position that finishes. With `n` cards and `k` players there are `M * k` reachable final
//! positions (`M` the arrangements of the deck) and `M * k * (C(n+k-1, k-1) - k)` positions
//! that are not finished (any composition of `n` into `k` stacks with two or more non-empty,
//! any leader). So if no position cycled, the mean tree size would be exactly
//! [`no_cycle_mean`] `= C(n+k-1, k-1) - k + 1` (`n` for two players); a sampled mean below it
//! measures the share of positions that cycle: `f = (mean - 1) / (no_cycle_mean - 1)` is the
//! share of unfinished positions that finish.
//!
//! Sampling: final positions with player 1 holding the cards, uniformly random (rotating the
//! seats maps them onto the other players' final positions, whose trees are the same size).
//! The arrangement of sample `i` is `bmn_deals::deal_for(seed, i)`, so results depend
//! only on (deck, rules, players, seed, samples, cap). Trees can be huge (their sizes are
//! heavy-tailed); each search stops at `cap` and the result says how many were cut, in which
//! case the mean is a lower bound.

use bmn_core::{Deck, Kind, MAX_PLAYERS, Player, Position, Rules};
use bmn_deals::next_arrangement;
use bmn_job::Job;

use crate::bfs::backward_bfs;
use crate::error::BackwardError;

/// What to sample.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TreesConfig {
    /// Final positions to sample.
    pub samples: u64,
    /// Seed of the arrangements.
    pub seed: u64,
    /// Stop counting a tree at this many positions.
    pub cap: u64,
    /// Players at the table.
    pub players: usize,
}

impl Default for TreesConfig {
    fn default() -> Self {
        TreesConfig {
            samples: 1000,
            seed: 1,
            cap: 1_000_000,
            players: 2,
        }
    }
}

/// Tree sizes, sampled or over every final position, and what they say.
#[derive(Clone, Debug, PartialEq)]
pub struct Trees {
    pub cards: u32,
    pub players: usize,
    /// Final positions measured (player 1 holding the cards).
    pub samples: u64,
    /// Whether every final position was measured ([`trees_all`]) rather than a sample.
    pub exhaustive: bool,
    /// Whether the caller stopped the run (through the job): the figures cover the trees
    /// measured before (for [`trees_all`], a prefix in lexicographic order, not exhaustive).
    pub interrupted: bool,
    /// Mean tree size (capped trees count as `cap`: then a lower bound).
    pub mean: f64,
    /// Standard error of the mean (sample standard deviation / sqrt(samples)); 0 when
    /// exhaustive.
    pub std_error: f64,
    /// Trees that reached the cap.
    pub capped: u64,
    /// The largest tree seen (at most `cap`).
    pub max: u64,
    /// Trees of exactly one position (nothing precedes the final position).
    pub singletons: u64,
    /// The mean if no position cycled, [`no_cycle_mean`].
    pub no_cycle_mean: f64,
    /// Sum of the sizes (over player 1's final positions).
    pub total: u128,
    /// When exhaustive and nothing was capped: how many unfinished positions (all seats'
    /// final positions counted) never finish, `k * (M * (no_cycle_mean - 1) - total + M)`.
    pub cycling_positions: Option<u128>,
}

impl Trees {
    /// The estimated share of unfinished positions that finish, `(mean - 1) / (no_cycle_mean
    /// - 1)`: 1 if nothing cycles. A lower bound if any tree was capped.
    pub fn finishing_share(&self) -> f64 {
        if self.no_cycle_mean > 1.0 {
            (self.mean - 1.0) / (self.no_cycle_mean - 1.0)
        } else {
            1.0
        }
    }
}

/// Running totals of tree sizes.
#[derive(Default)]
struct SizeTotals {
    count: u64,
    sum: u128,
    sum_sq: u128,
    capped: u64,
    max: u64,
    singletons: u64,
}

impl SizeTotals {
    fn add(&mut self, size: u64, capped: bool) {
        self.count += 1;
        self.sum += u128::from(size);
        self.sum_sq += u128::from(size) * u128::from(size);
        self.capped += u64::from(capped);
        self.max = self.max.max(size);
        self.singletons += u64::from(size == 1);
    }

    /// The figures of a run stopped part-way: a sample of what was measured.
    fn stopped(self, cards: u32, players: usize) -> Trees {
        Trees {
            interrupted: true,
            ..self.finish(cards, players, false)
        }
    }

    fn finish(self, cards: u32, players: usize, exhaustive: bool) -> Trees {
        let n = self.count.max(1) as f64;
        let mean = self.sum as f64 / n;
        let variance = if exhaustive || self.count < 2 {
            0.0
        } else {
            ((self.sum_sq as f64 - n * mean * mean) / (n - 1.0)).max(0.0)
        };
        let no_cycle = no_cycle_mean(cards, players);
        let cycling = (exhaustive && self.capped == 0).then(|| {
            // Unfinished positions per final position of player 1's: no_cycle_mean - 1, exact.
            let per_final = no_cycle as u128 - 1;
            let m = u128::from(self.count);
            (m * per_final + m - self.sum) * players as u128
        });
        Trees {
            cards,
            players,
            samples: self.count,
            exhaustive,
            interrupted: false,
            mean,
            std_error: (variance / n).sqrt(),
            capped: self.capped,
            max: self.max,
            singletons: self.singletons,
            no_cycle_mean: no_cycle,
            total: self.sum,
            cycling_positions: cycling,
        }
    }
}

/// `C(n+k-1, k-1) - k + 1`: the mean tree size over all reachable final positions of `n`
/// cards and `k` players if no position cycled (module documentation). `n` for `k = 2`.
pub fn no_cycle_mean(cards: u32, players: usize) -> f64 {
    let (n, k) = (f64::from(cards), players as f64);
    // C(n+k-1, k-1) as a product; exact in f64 for every deck and table bmn accepts.
    let compositions = (1..players).fold(1.0, |c, i| c * (n + i as f64) / i as f64);
    compositions - k + 1.0
}

/// The final position where player 1 holds `cards` (top first) and leads, the others empty.
pub fn final_position(cards: Vec<Kind>, players: usize) -> Result<Position, BackwardError> {
    if !(2..=MAX_PLAYERS).contains(&players) {
        return Err(BackwardError::PlayerCount { found: players });
    }
    let mut hands = vec![Vec::new(); players];
    hands[0] = cards;
    Ok(Position::new(hands, Player(0)).expect("player count checked"))
}

/// The size of the tree of `final_position` (itself included), and whether it reached `cap`.
pub fn tree_size(
    rules: &Rules,
    final_position: &Position,
    cap: u64,
) -> Result<(u64, bool), BackwardError> {
    tree_size_until(rules, final_position, cap, &mut |_| true).map(|t| t.expect("never stopped"))
}

/// [`tree_size`], `None` if `progress` (called every few milliseconds) stopped it.
fn tree_size_until(
    rules: &Rules,
    final_position: &Position,
    cap: u64,
    progress: &mut dyn FnMut(u64) -> bool,
) -> Result<Option<(u64, bool)>, BackwardError> {
    let end = backward_bfs(
        rules,
        std::slice::from_ref(final_position),
        cap,
        None,
        |_, _| {},
        progress,
    )?;
    Ok((!end.stopped).then_some((end.positions, end.cut_by_limit)))
}

fn check_table(deck: &Deck, players: usize) -> Result<(), BackwardError> {
    if deck.is_empty() {
        return Err(BackwardError::EmptyDeck);
    }
    if !(2..=MAX_PLAYERS).contains(&players) {
        return Err(BackwardError::PlayerCount { found: players });
    }
    Ok(())
}

/// Samples `config.samples` final positions of `deck` and measures their trees. The job hears
/// the number of samples done, at least every few milliseconds; its stop ends the run with the
/// trees measured so far.
pub fn trees(
    rules: &Rules,
    deck: &Deck,
    config: &TreesConfig,
    job: &mut Job,
) -> Result<Trees, BackwardError> {
    check_table(deck, config.players)?;
    let codes: Vec<u8> = deck.cards().iter().map(|k| k.index() as u8).collect();
    let mut arrangement = vec![0u8; codes.len()];
    let mut tally = SizeTotals::default();
    for i in 0..config.samples {
        bmn_deals::deal_for(config.seed, i, &codes, &mut arrangement);
        let cards = arrangement.iter().map(|&c| Kind::from_code(c)).collect();
        let at = final_position(cards, config.players)?;
        let Some((size, cut)) =
            tree_size_until(rules, &at, config.cap, &mut |_| job.progress(i, None))?
        else {
            return Ok(tally.stopped(deck.len(), config.players));
        };
        tally.add(size, cut);
        if !job.progress(i + 1, None) {
            return Ok(tally.stopped(deck.len(), config.players));
        }
    }
    Ok(tally.finish(deck.len(), config.players, false))
}

/// The most final positions [`trees_all`] will measure.
pub const MAX_ALL_FINALS: u128 = 100_000_000;

/// How many arrangements `deck` has, if at most [`MAX_ALL_FINALS`].
pub fn arrangements(deck: &Deck) -> Option<u128> {
    let mut total: u128 = 1;
    let mut n: u128 = 0;
    for c in deck.counts() {
        for i in 1..=u128::from(c) {
            n += 1;
            total = total.checked_mul(n)? / i; // C(n, i) steps stay exact
            if total > MAX_ALL_FINALS {
                return None; // the running product never decreases
            }
        }
    }
    Some(total)
}

/// Measures the tree of every final position of `deck` with player 1 holding the cards (the
/// others are rotations of these): the exact mean, and with no tree capped, the exact count
/// of positions that never finish. The job hears the number done, at least every few
/// milliseconds; its stop ends the run with the trees measured so far.
pub fn trees_all(
    rules: &Rules,
    deck: &Deck,
    players: usize,
    cap: u64,
    job: &mut Job,
) -> Result<Trees, BackwardError> {
    check_table(deck, players)?;
    if arrangements(deck).is_none() {
        return Err(BackwardError::TooManyFinals {
            max: MAX_ALL_FINALS,
        });
    }
    let mut cards = deck.cards(); // sorted: the first arrangement in lexicographic order
    let mut tally = SizeTotals::default();
    loop {
        let at = final_position(cards.clone(), players)?;
        let count = tally.count;
        let Some((size, cut)) =
            tree_size_until(rules, &at, cap, &mut |_| job.progress(count, None))?
        else {
            return Ok(tally.stopped(deck.len(), players));
        };
        tally.add(size, cut);
        if tally.count.is_multiple_of(1 << 8) && !job.progress(tally.count, None) {
            return Ok(tally.stopped(deck.len(), players));
        }
        if !next_arrangement(&mut cards) {
            break;
        }
    }
    job.progress(tally.count, None);
    Ok(tally.finish(deck.len(), players, true))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_cycle_means() {
        assert_eq!(no_cycle_mean(52, 2), 52.0);
        // Three players, 4 cards: C(6,2) = 15 compositions, 3 with one stack: 15 - 3 + 1.
        assert_eq!(no_cycle_mean(4, 3), 13.0);
    }

    #[test]
    fn arrangement_counts() {
        assert_eq!(arrangements(&Deck::parse("2J,2Q,6-").unwrap()), Some(1260));
        assert_eq!(arrangements(&Deck::STANDARD), None);
    }
}
