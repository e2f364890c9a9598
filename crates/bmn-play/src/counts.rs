//! Counts by length (histograms, wins by seat) as growing vectors, added up entry by entry.

/// `counts[at] += n`, growing `counts` as needed: histograms and per-seat counts.
pub fn add_at(counts: &mut Vec<u64>, at: usize, n: u64) {
    if counts.len() <= at {
        counts.resize(at + 1, 0);
    }
    counts[at] += n;
}

/// Adds `theirs` into `mine` element-wise, growing `mine` as needed.
pub fn add_counts(mine: &mut Vec<u64>, theirs: &[u64]) {
    if mine.len() < theirs.len() {
        mine.resize(theirs.len(), 0);
    }
    for (m, t) in mine.iter_mut().zip(theirs) {
        *m += t;
    }
}
