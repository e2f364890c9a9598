//! `Shard`: one of `N` disjoint, contiguous ranges of a run (`--shard i/N`), and the check
//! that a set of finished ranges tiles the whole run before their results are merged.
//!
//! Shard `i` of `N` (1-based, like every number a person reads in bmn) covers indices
//! `total * (i-1) / N .. total * i / N`: the shards of one `N` tile `0..total` exactly, so
//! their reports merge into the unsplit run's. Searches shard their units of games,
//! enumerations their deal indices.

use std::fmt;
use std::ops::Range;

/// Why a `--shard` value is not one.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ShardError {
    #[error("'{0}' is not of the form i/N (e.g. 3/8)")]
    Form(String),
    #[error("'{text}': {part} is not a whole number")]
    Number { text: String, part: String },
    #[error("'{0}': N must be at least 1")]
    NoShards(String),
    #[error("'{text}': i must be from 1 to {count}")]
    OutOfRange { text: String, count: u64 },
}

/// Shard `index` of `count`, 1-based.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Shard {
    pub index: u64,
    pub count: u64,
}

impl Shard {
    /// The whole range in one piece.
    pub const WHOLE: Shard = Shard { index: 1, count: 1 };

    /// Parses `i/N`.
    pub fn parse(text: &str) -> Result<Shard, ShardError> {
        let (i, n) = text
            .split_once('/')
            .ok_or_else(|| ShardError::Form(text.to_string()))?;
        let number = |part: &str| {
            part.trim().parse::<u64>().map_err(|_| ShardError::Number {
                text: text.to_string(),
                part: part.to_string(),
            })
        };
        let (index, count) = (number(i)?, number(n)?);
        if count == 0 {
            return Err(ShardError::NoShards(text.to_string()));
        }
        if !(1..=count).contains(&index) {
            return Err(ShardError::OutOfRange {
                text: text.to_string(),
                count,
            });
        }
        Ok(Shard { index, count })
    }

    /// The ranks this shard covers out of `0..total`.
    pub fn range(&self, total: u128) -> Range<u128> {
        let at = |k: u64| {
            // total * k / count without overflow: total < 2^128 and k <= count.
            let (q, r) = (
                total / u128::from(self.count),
                total % u128::from(self.count),
            );
            q * u128::from(k) + r * u128::from(k) / u128::from(self.count)
        };
        at(self.index - 1)..at(self.index)
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

/// How a set of ranges fails to tile a run's range exactly. Ranges are named by their
/// position in the list given (0-based).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CoverError {
    #[error("nothing covers {start}..{end} of {from}..{to}")]
    Gap {
        start: u128,
        end: u128,
        from: u128,
        to: u128,
    },
    #[error("ranges {first} and {second} both cover {start}..{end}")]
    Overlap {
        first: usize,
        second: usize,
        start: u128,
        end: u128,
    },
    #[error("range {which} ({start}..{end}) lies outside {from}..{to}")]
    Outside {
        which: usize,
        start: u128,
        end: u128,
        from: u128,
        to: u128,
    },
}

/// Checks that `ranges` tile `whole` with no gap and no overlap (in any order).
pub fn check_cover(ranges: &[Range<u128>], whole: Range<u128>) -> Result<(), CoverError> {
    let (from, to) = (whole.start, whole.end);
    let mut order: Vec<usize> = (0..ranges.len()).collect();
    order.sort_by_key(|&i| (ranges[i].start, ranges[i].end));
    let mut covered = from;
    let mut last: Option<usize> = None;
    for &i in &order {
        let r = &ranges[i];
        if r.start > r.end || r.start < from || r.end > to {
            return Err(CoverError::Outside {
                which: i,
                start: r.start,
                end: r.end,
                from,
                to,
            });
        }
        if r.start > covered {
            return Err(CoverError::Gap {
                start: covered,
                end: r.start,
                from,
                to,
            });
        }
        if r.start < covered {
            return Err(CoverError::Overlap {
                first: last.expect("something covered the overlap"),
                second: i,
                start: r.start,
                end: covered.min(r.end),
            });
        }
        covered = r.end;
        last = Some(i);
    }
    if covered < to {
        return Err(CoverError::Gap {
            start: covered,
            end: to,
            from,
            to,
        });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_tile_the_range() {
        for total in [0u128, 1, 7, 2520, 1_853_386_920, u128::MAX / 3] {
            for count in [1u64, 2, 3, 7, 64] {
                let mut next = 0;
                for index in 1..=count {
                    let r = Shard { index, count }.range(total);
                    assert_eq!(r.start, next, "{index}/{count} of {total}");
                    assert!(r.end >= r.start);
                    next = r.end;
                }
                assert_eq!(next, total);
            }
        }
    }

    #[test]
    fn cover_finds_gaps_and_overlaps_in_any_order() {
        assert_eq!(check_cover(&[5..10, 0..5], 0..10), Ok(()));
        assert_eq!(check_cover(&[], 0..0), Ok(()));
        assert_eq!(
            check_cover(&[0..4, 6..10], 0..10),
            Err(CoverError::Gap {
                start: 4,
                end: 6,
                from: 0,
                to: 10
            })
        );
        assert_eq!(
            check_cover(&[0..4, 4..4], 0..10),
            Err(CoverError::Gap {
                start: 4,
                end: 10,
                from: 0,
                to: 10
            })
        );
        assert_eq!(
            check_cover(&[0..6, 4..10], 0..10),
            Err(CoverError::Overlap {
                first: 0,
                second: 1,
                start: 4,
                end: 6
            })
        );
        assert_eq!(
            check_cover(&[0..5, 5..10, 0..5], 0..10),
            Err(CoverError::Overlap {
                first: 0,
                second: 2,
                start: 0,
                end: 5
            })
        );
        assert!(matches!(
            check_cover(&[0..5, 5..11], 0..10),
            Err(CoverError::Outside { which: 1, .. })
        ));
        // A block of a run: the ranges tile it, not the whole run.
        assert_eq!(check_cover(&[20..25, 25..30], 20..30), Ok(()));
        assert!(matches!(
            check_cover(&[20..25, 25..30], 0..30),
            Err(CoverError::Gap {
                start: 0,
                end: 20,
                ..
            })
        ));
    }

    #[test]
    fn parse_names_what_is_wrong() {
        assert_eq!(Shard::parse("3/8"), Ok(Shard { index: 3, count: 8 }));
        assert_eq!(Shard::parse(" 1 / 1 "), Ok(Shard::WHOLE));
        for (bad, msg) in [
            ("3", "'3' is not of the form i/N (e.g. 3/8)"),
            ("a/8", "'a/8': a is not a whole number"),
            ("1/0", "'1/0': N must be at least 1"),
            ("0/4", "'0/4': i must be from 1 to 4"),
            ("5/4", "'5/4': i must be from 1 to 4"),
        ] {
            assert_eq!(Shard::parse(bad).unwrap_err().to_string(), msg, "{bad}");
        }
    }
}
