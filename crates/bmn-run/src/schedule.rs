//! Shards of a run: `--shard i/N` or `auto` (the index a batch scheduler gives the task), and
//! the units and indices a shard covers.

use std::ops::Range;

use bmn_search::Shard;

use crate::error::RunError;

/// `--shard i/N`, or `auto`: the index and count a batch scheduler gives the task.
pub fn parse_shard(text: &str) -> Result<Shard, RunError> {
    if text == "auto" {
        return shard_from_env(|k| std::env::var(k).ok());
    }
    Shard::parse(text).map_err(|e| RunError::Input(format!("bad --shard: {e}")))
}

/// The shard of a Slurm array task (its index counted from the array's first,
/// `SLURM_ARRAY_TASK_MIN`, so `--array=0-7` and `--array=1-8` both give 1/8 .. 8/8) or of a
/// Kubernetes Indexed Job (`JOB_COMPLETION_INDEX` from 0, the count in `BMN_SHARDS`, which
/// Kubernetes does not pass).
pub fn shard_from_env(var: impl Fn(&str) -> Option<String>) -> Result<Shard, RunError> {
    let bad = |text: String| RunError::Input(text);
    let number = |name: &str| -> Result<Option<u64>, RunError> {
        var(name)
            .map(|v| {
                v.trim()
                    .parse::<u64>()
                    .map_err(|_| bad(format!("--shard auto: {name}={v} is not a whole number")))
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
            (None, None) => {
                return Err(bad(
                    "--shard auto: SLURM_ARRAY_TASK_ID is set but not SLURM_ARRAY_TASK_COUNT \
                     or SLURM_ARRAY_TASK_MAX"
                        .into(),
                ));
            }
        };
        (id.checked_sub(min), count)
    } else if let Some(index) = number("JOB_COMPLETION_INDEX")? {
        let Some(count) = number("BMN_SHARDS")? else {
            return Err(bad(
                "--shard auto: JOB_COMPLETION_INDEX is set but not BMN_SHARDS (the Job's \
                 completions)"
                    .into(),
            ));
        };
        (Some(index), count)
    } else {
        return Err(bad(
            "--shard auto: no scheduler index found (SLURM_ARRAY_TASK_ID or \
             JOB_COMPLETION_INDEX); give --shard i/N"
                .into(),
        ));
    };
    match index0 {
        Some(i) if i < count => Ok(Shard {
            index: i + 1,
            count,
        }),
        _ => Err(bad(format!(
            "--shard auto: the task index is outside the {count} tasks of the array"
        ))),
    }
}

/// What shard `shard` covers of a run of `units` units of `unit` indices each (the last unit
/// short when `items` is not a multiple): `(units, indices)`.
pub fn shard_units(shard: Shard, units: u64, unit: u64, items: u64) -> (Range<u64>, Range<u64>) {
    let r = shard.range(u128::from(units));
    let (first, end) = (r.start as u64, r.end as u64);
    (
        first..end,
        (first * unit).min(items)..(end * unit).min(items),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env<'a>(vars: &'a [(&'a str, &'a str)]) -> impl Fn(&str) -> Option<String> + 'a {
        move |k| {
            vars.iter()
                .find(|(n, _)| *n == k)
                .map(|(_, v)| v.to_string())
        }
    }

    #[test]
    fn shard_auto_reads_slurm_and_kubernetes() {
        let s = |vars: &[(&str, &str)]| shard_from_env(env(vars)).map(|s| s.to_string());
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
        assert!(s(&[("JOB_COMPLETION_INDEX", "3"), ("BMN_SHARDS", "3")]).is_err());
        assert!(s(&[("JOB_COMPLETION_INDEX", "1")]).is_err());
        assert!(
            s(&[
                ("SLURM_ARRAY_TASK_ID", "x"),
                ("SLURM_ARRAY_TASK_COUNT", "2")
            ])
            .is_err()
        );
        assert!(s(&[]).is_err());
    }

    #[test]
    fn shard_units_cover_the_run() {
        let total = 10 * 7 + 3;
        let mut covered = 0;
        for index in 1..=4 {
            let (_, items) = shard_units(Shard { index, count: 4 }, 11, 7, total);
            assert_eq!(items.start, covered);
            covered = items.end;
        }
        assert_eq!(covered, total);
    }
}
