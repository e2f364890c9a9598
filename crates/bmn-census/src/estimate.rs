//! How complete a census is: recall against an enumeration where one exists, and Chapman's
//! capture-recapture estimate from two methods where none does.
//!
//! Capture-recapture (Lincoln-Petersen, with Chapman's 1951 correction for small samples)
//! assumes the two methods catch each cycle independently; methods that share a blind spot
//! (both miss the cycles whose basins never reach a small hand, say) make the estimate too low.
//! It is reported beside the methods' own statements of what they cover, never instead of
//! them, and recall on the decks that can be enumerated is what measures each method.

use std::collections::{BTreeMap, BTreeSet};

use bmn_core::CycleId;

/// What a census found against the truth: cycles and the balanced deals on them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct Recall {
    pub cycles_found: usize,
    /// The cycles the enumeration reached (of which the method found `cycles_found`).
    #[serde(rename = "enumerated_cycles")]
    pub cycles: usize,
    pub deals_found: u64,
    /// The deals (player 1 leading) reaching those cycles (`deals_found` on cycles found).
    #[serde(rename = "enumerated_deals")]
    pub deals: u64,
}

/// Recall of `found` against `truth` (each cycle with its balanced deals).
pub fn recall(found: &BTreeSet<CycleId>, truth: &BTreeMap<CycleId, u64>) -> Recall {
    let hit = truth.iter().filter(|(id, _)| found.contains(id));
    Recall {
        cycles_found: hit.clone().count(),
        cycles: truth.len(),
        deals_found: hit.map(|(_, d)| d).sum(),
        deals: truth.values().sum(),
    }
}

/// Chapman's estimate of the number of cycles from two methods' catches (serialized with the
/// census's names for its two methods: `pieces` first, `hands` second).
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct Chapman {
    #[serde(rename = "pieces")]
    pub first: usize,
    #[serde(rename = "hands")]
    pub second: usize,
    pub both: usize,
    /// Between `low` and `high`.
    #[serde(rename = "estimated_cycles")]
    pub estimate: f64,
    /// A 95% interval (normal approximation), its low end no less than the cycles seen.
    pub low: f64,
    pub high: f64,
}

/// `N = (n1 + 1)(n2 + 1)/(m + 1) - 1`, variance `(n1+1)(n2+1)(n1-m)(n2-m)/((m+1)^2 (m+2))`.
pub fn chapman(first: &BTreeSet<CycleId>, second: &BTreeSet<CycleId>) -> Chapman {
    let (n1, n2) = (first.len() as f64, second.len() as f64);
    let both = first.intersection(second).count();
    let m = both as f64;
    let estimate = (n1 + 1.0) * (n2 + 1.0) / (m + 1.0) - 1.0;
    let var = (n1 + 1.0) * (n2 + 1.0) * (n1 - m) * (n2 - m) / ((m + 1.0).powi(2) * (m + 2.0));
    let seen = n1 + n2 - m;
    let half = 1.96 * var.sqrt();
    Chapman {
        first: first.len(),
        second: second.len(),
        both,
        estimate,
        low: (estimate - half).max(seen),
        high: (estimate + half).max(seen),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ids(v: &[u64]) -> BTreeSet<CycleId> {
        v.iter().map(|&x| CycleId(x)).collect()
    }

    #[test]
    fn recall_counts_cycles_and_deals() {
        let truth: BTreeMap<CycleId, u64> = [(CycleId(1), 90), (CycleId(2), 28), (CycleId(3), 4)]
            .into_iter()
            .collect();
        let r = recall(&ids(&[3, 9]), &truth);
        assert_eq!(
            r,
            Recall {
                cycles_found: 1,
                cycles: 3,
                deals_found: 4,
                deals: 122
            }
        );
    }

    #[test]
    fn chapman_of_identical_catches_is_the_catch() {
        let c = chapman(&ids(&[1, 2, 3, 4]), &ids(&[1, 2, 3, 4]));
        assert!((c.estimate - 4.0).abs() < 1e-9);
        assert_eq!((c.low, c.high), (4.0, 4.0));
        // Half overlap: (5 * 5) / 3 - 1 = 7.33.
        let c = chapman(&ids(&[1, 2, 3, 4]), &ids(&[3, 4, 5, 6]));
        assert!((c.estimate - 22.0 / 3.0).abs() < 1e-9);
        assert!(c.low >= 6.0 && c.high > c.estimate);
    }
}
