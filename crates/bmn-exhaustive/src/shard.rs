//! `Shard`: one of `N` disjoint, contiguous ranges of deal indices (`--shard i/N`).
//!
//! Shard `i` of `N` (1-based, like every number a person reads in bmn) covers ranks
//! `total * (i-1) / N .. total * i / N`: the shards of one `N` tile `0..total` exactly, so
//! their reports merge into the unsplit run's.

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
