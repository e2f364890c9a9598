//! `Shard`: one of `N` disjoint, contiguous ranges of a run, everything about it (`i/N` read
//! from text or from a batch scheduler's task index, the units a shard covers), and the check
//! that a set of finished ranges tiles the whole run before their results are merged.
//!
//! Shard `i` of `N` (1-based, like every number a person reads in bmn) covers indices
//! `total * (i-1) / N .. total * i / N`: the shards of one `N` tile `0..total` exactly, so
//! their reports merge into the unsplit run's. Searches shard their units of games,
//! enumerations their deal indices.
//!
//! A scheduler's index (Slurm, Kubernetes) is read by [`Shard::from_scheduler`] through a
//! lookup it is given, so the rules are tested without touching the process's environment;
//! only [`Shard::parse_or_auto`] reads the environment itself, in one line. Messages say what
//! is wrong in this crate's words; a front end names its own flag (`--shard`) around them.

use std::fmt;
use std::ops::Range;

/// Why a shard's text (`i/N`, or `auto`) names no shard.
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
    /// `auto`, where the scheduler's variables give no shard.
    #[error("auto: {0}")]
    Scheduler(SchedulerError),
}

/// Why a batch scheduler's variables give no shard ([`Shard::from_scheduler`]).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SchedulerError {
    #[error("{name}={value} is not a whole number")]
    Number { name: String, value: String },
    #[error("SLURM_ARRAY_TASK_ID is set but not SLURM_ARRAY_TASK_COUNT or SLURM_ARRAY_TASK_MAX")]
    SlurmCount,
    #[error("JOB_COMPLETION_INDEX is set but not BMN_SHARDS (the Job's completions)")]
    KubernetesCount,
    #[error("no scheduler index found (SLURM_ARRAY_TASK_ID or JOB_COMPLETION_INDEX)")]
    NoIndex,
    #[error("the task index is outside the {count} tasks of the array")]
    Outside { count: u64 },
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

    /// `i/N`, or `auto`: the shard the batch scheduler running this process gives its task
    /// ([`Self::from_scheduler`] on the process's environment).
    pub fn parse_or_auto(text: &str) -> Result<Shard, ShardError> {
        if text == "auto" {
            return Shard::from_scheduler(|name| std::env::var(name).ok())
                .map_err(ShardError::Scheduler);
        }
        Shard::parse(text)
    }

    /// The shard of a Slurm array task (its index counted from the array's first,
    /// `SLURM_ARRAY_TASK_MIN`, so `--array=0-7` and `--array=1-8` both give 1/8 .. 8/8) or of
    /// a Kubernetes Indexed Job (`JOB_COMPLETION_INDEX` from 0, the count in `BMN_SHARDS`,
    /// which Kubernetes does not pass), `var` looking up each variable.
    pub fn from_scheduler(var: impl Fn(&str) -> Option<String>) -> Result<Shard, SchedulerError> {
        let number = |name: &str| -> Result<Option<u64>, SchedulerError> {
            var(name)
                .map(|value| {
                    value
                        .trim()
                        .parse::<u64>()
                        .map_err(|_| SchedulerError::Number {
                            name: name.to_string(),
                            value,
                        })
                })
                .transpose()
        };
        let (index0, count) = if let Some(id) = number("SLURM_ARRAY_TASK_ID")? {
            let min = number("SLURM_ARRAY_TASK_MIN")?.unwrap_or(0);
            let count = match (
                number("SLURM_ARRAY_TASK_COUNT")?,
                number("SLURM_ARRAY_TASK_MAX")?,
            ) {
                (Some(c), _) => c,
                (None, Some(max)) => max.saturating_sub(min) + 1,
                (None, None) => return Err(SchedulerError::SlurmCount),
            };
            (id.checked_sub(min), count)
        } else if let Some(index) = number("JOB_COMPLETION_INDEX")? {
            let count = number("BMN_SHARDS")?.ok_or(SchedulerError::KubernetesCount)?;
            (Some(index), count)
        } else {
            return Err(SchedulerError::NoIndex);
        };
        match index0 {
            Some(i) if i < count => Ok(Shard {
                index: i + 1,
                count,
            }),
            _ => Err(SchedulerError::Outside { count }),
        }
    }

    /// What this shard covers of a run of `units` units of `unit` indices each (the last unit
    /// short when `items` is not a multiple): `(units, indices)`.
    pub fn units(&self, units: u64, unit: u64, items: u64) -> (Range<u64>, Range<u64>) {
        let r = self.range(u128::from(units));
        // Within 0..units, which is a u64.
        let (first, end) = (r.start as u64, r.end as u64);
        (
            first..end,
            (first * unit).min(items)..(end * unit).min(items),
        )
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

    fn env<'a>(vars: &'a [(&'a str, &'a str)]) -> impl Fn(&str) -> Option<String> + 'a {
        move |k| {
            vars.iter()
                .find(|(n, _)| *n == k)
                .map(|(_, v)| v.to_string())
        }
    }

    #[test]
    fn shard_auto_reads_slurm_and_kubernetes() {
        let s = |vars: &[(&str, &str)]| Shard::from_scheduler(env(vars)).map(|s| s.to_string());
        // Slurm arrays from 0 or from 1 give the same shards.
        let zero = [
            ("SLURM_ARRAY_TASK_ID", "0"),
            ("SLURM_ARRAY_TASK_MIN", "0"),
            ("SLURM_ARRAY_TASK_COUNT", "4"),
        ];
        assert_eq!(s(&zero).unwrap(), "1/4");
        let one = [
            ("SLURM_ARRAY_TASK_ID", "4"),
            ("SLURM_ARRAY_TASK_MIN", "1"),
            ("SLURM_ARRAY_TASK_MAX", "4"),
        ];
        assert_eq!(s(&one).unwrap(), "4/4");
        assert_eq!(
            s(&[("JOB_COMPLETION_INDEX", "2"), ("BMN_SHARDS", "3")]).unwrap(),
            "3/3"
        );
        assert_eq!(
            s(&[("JOB_COMPLETION_INDEX", "3"), ("BMN_SHARDS", "3")]),
            Err(SchedulerError::Outside { count: 3 })
        );
        assert_eq!(
            s(&[("JOB_COMPLETION_INDEX", "1")]),
            Err(SchedulerError::KubernetesCount)
        );
        assert_eq!(
            s(&[("SLURM_ARRAY_TASK_ID", "1")]),
            Err(SchedulerError::SlurmCount)
        );
        assert_eq!(
            s(&[
                ("SLURM_ARRAY_TASK_ID", "x"),
                ("SLURM_ARRAY_TASK_COUNT", "2")
            ]),
            Err(SchedulerError::Number {
                name: "SLURM_ARRAY_TASK_ID".into(),
                value: "x".into()
            })
        );
        assert_eq!(s(&[]), Err(SchedulerError::NoIndex));
    }

    #[test]
    fn shard_units_cover_the_run() {
        let total = 10 * 7 + 3;
        let mut covered = 0;
        for index in 1..=4 {
            let (_, items) = Shard { index, count: 4 }.units(11, 7, total);
            assert_eq!(items.start, covered);
            covered = items.end;
        }
        assert_eq!(covered, total);
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
