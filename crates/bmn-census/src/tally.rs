//! The catalogue counted: its cycles and their balanced deals by period and by class
//! (docs/census.md), as a census reports them and `family` reads them back.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::CensusCycle;

/// The catalogue's cycles of one period, and their balanced deals.
#[derive(Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq)]
pub struct PeriodCount {
    pub tricks: u64,
    pub cycles: usize,
    pub deals: usize,
}

/// The catalogue's cycles of one class, and their balanced deals.
#[derive(Serialize, Deserialize, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ClassCount {
    pub cycles: usize,
    pub deals: usize,
    /// The largest `min_hand` among them: some cycle's hands never fall below this many
    /// cards (null where the class is empty).
    pub largest_min_hand: Option<usize>,
}

impl ClassCount {
    fn add(&mut self, c: &CensusCycle) {
        self.cycles += 1;
        self.deals += c.deals.len();
        self.largest_min_hand = self.largest_min_hand.max(Some(c.min_hand));
    }
}

/// The catalogue by class (docs/census.md): every cycle, the anti-periodic ones, those that
/// split at a rest state, and those of neither class.
#[derive(Serialize, Deserialize, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Classes {
    pub all: ClassCount,
    pub anti_periodic: ClassCount,
    pub splits_at_rest_state: ClassCount,
    pub neither: ClassCount,
}

impl Classes {
    pub fn of(catalogue: &[CensusCycle]) -> Classes {
        let mut k = Classes::default();
        for c in catalogue {
            k.all.add(c);
            if c.anti_periodic {
                k.anti_periodic.add(c);
            }
            if c.splits_at_rest_state {
                k.splits_at_rest_state.add(c);
            }
            if !c.anti_periodic && !c.splits_at_rest_state {
                k.neither.add(c);
            }
        }
        k
    }
}

impl PeriodCount {
    /// The catalogue by period, shortest first.
    pub fn of(catalogue: &[CensusCycle]) -> Vec<PeriodCount> {
        let mut by: BTreeMap<u64, PeriodCount> = BTreeMap::new();
        for c in catalogue {
            let row = by.entry(c.period.tricks).or_insert(PeriodCount {
                tricks: c.period.tricks,
                cycles: 0,
                deals: 0,
            });
            row.cycles += 1;
            row.deals += c.deals.len();
        }
        by.into_values().collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bmn_core::{Player, Position, Rules};
    use std::sync::atomic::AtomicBool;

    #[test]
    fn each_cycle_is_counted_in_all_its_period_and_one_of_its_classes() {
        let p = Position::parse("----J--Q--/--K-K-Q-J-", Player(0)).expect("a position");
        let one = crate::describe(&Rules::STANDARD, &p, 100_000, &AtomicBool::new(false))
            .expect("its cycle");
        let mut other = one.clone();
        other.anti_periodic = !one.anti_periodic;
        other.splits_at_rest_state = false;
        other.period.tricks += 1;
        other.min_hand = one.min_hand + 3;
        let catalogue = [one.clone(), other.clone()];
        let k = Classes::of(&catalogue);
        let deals = one.deals.len();
        assert_eq!((k.all.cycles, k.all.deals), (2, 2 * deals));
        assert_eq!(k.all.largest_min_hand, Some(one.min_hand + 3));
        assert_eq!(k.anti_periodic.cycles, 1);
        let neither = usize::from(!one.anti_periodic && !one.splits_at_rest_state)
            + usize::from(!other.anti_periodic);
        assert_eq!(k.neither.cycles, neither);
        assert_eq!(Classes::of(&[]).all.largest_min_hand, None);
        let periods = PeriodCount::of(&catalogue);
        assert_eq!(periods.len(), 2);
        assert!(periods[0].tricks < periods[1].tricks);
        assert_eq!((periods[1].cycles, periods[1].deals), (1, deals));
    }
}
