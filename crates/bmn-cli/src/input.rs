//! Turning what the user typed into validated bmn-core values; failures become `BadInput` (exit 2).

use std::fmt;
use std::io::Read;

use anyhow::Result;
use bmn_core::{Deck, OnEmpty, PenaltyTable, Player, Position, Rules};
use bmn_search::{DealSource, Engine, SearchError};

use crate::cli::{DbArgs, RulesArgs, TableArgs};

/// An error in what the user typed: reported in one line, exit code 2.
#[derive(Debug)]
pub struct BadInput(pub String);

impl fmt::Display for BadInput {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for BadInput {}

/// Wraps any error in what the user typed as `BadInput`, prefixed with what it was.
pub fn bad<E: fmt::Display>(what: &str) -> impl FnOnce(E) -> anyhow::Error + '_ {
    move |e| BadInput(format!("{what}: {e}")).into()
}

/// Reads the deal argument; `-` means standard input.
pub fn deal_text(arg: &str) -> Result<String> {
    if arg != "-" {
        return Ok(arg.to_string());
    }
    let mut text = String::new();
    std::io::stdin()
        .read_to_string(&mut text)
        .map_err(bad("reading the deal from stdin"))?;
    Ok(text.trim().to_string())
}

/// A starting deal with its leader (1-based on the command line), checked against `deck` if given.
pub fn deal(arg: &str, leader: u64, deck: Option<&str>) -> Result<Position> {
    let text = deal_text(arg)?;
    // clap guarantees leader >= 1; the range check against the deal is Position's.
    let leader = Player(usize::try_from(leader - 1).unwrap_or(usize::MAX - 1));
    let position = Position::parse_deal(&text, leader).map_err(bad("bad deal"))?;
    if let Some(spec) = deck {
        let deck = Deck::parse(spec).map_err(bad("bad --deck"))?;
        position.check_deck(&deck).map_err(bad("bad deal"))?;
    }
    Ok(position)
}

/// The rules given by `--penalties` and `--on-empty`.
pub fn rules(args: &RulesArgs) -> Result<Rules> {
    let penalties = match &args.penalties {
        Some(text) => PenaltyTable::parse(text).map_err(bad("bad --penalties"))?,
        None => PenaltyTable::STANDARD,
    };
    let on_empty: OnEmpty = args.on_empty.parse().map_err(bad("bad --on-empty"))?;
    Ok(Rules {
        penalties,
        on_empty,
    })
}

/// The random deals of `--players`, `--deck` and `--balanced`.
pub fn source(table: &TableArgs, balanced: bool) -> Result<DealSource> {
    let deck = Deck::parse(&table.deck).map_err(bad("bad --deck"))?;
    DealSource::with_players(deck, table.players, balanced).map_err(|e| {
        let flag = match e {
            SearchError::Players(_) => "--players",
            SearchError::DeckSize { .. } => "--deck",
            SearchError::Unbalanceable { .. } => "--balanced",
        };
        BadInput(format!("bad {flag}: {e}")).into()
    })
}

/// The named kernel (or the fastest) where a kernel plays games of `players` players and
/// `cards` cards under `rules`, else the reference engine giving up after `give_up` tricks.
pub fn engine(
    kernel_name: Option<&str>,
    rules: Rules,
    players: usize,
    cards: usize,
    give_up: u64,
) -> Result<Engine> {
    if give_up == 0 {
        return Err(BadInput("bad --give-up: must be at least 1".into()).into());
    }
    Ok(Engine::choose(
        kernel(kernel_name)?,
        rules,
        players,
        cards,
        give_up,
    ))
}

/// A plot file the back ends can write: .svg or .png, checked before any game is played.
pub fn plot_path(path: &std::path::Path) -> Result<()> {
    bmn_plot::Format::of(path).map(drop).map_err(|_| {
        BadInput(format!(
            "bad --plot '{}': name the file .svg or .png",
            path.display()
        ))
        .into()
    })
}

/// The run database of `--db`/`--no-db` (see `store.rs` for the default).
pub fn db(args: &DbArgs) -> Result<Option<std::path::PathBuf>> {
    if args.no_db {
        return Ok(None);
    }
    match &args.db {
        Some(path) => Ok(Some(path.clone())),
        None => crate::store::default_path().map(Some).ok_or_else(|| {
            BadInput(
                "no place for the run database: set HOME or BMN_DB, give --db, or --no-db".into(),
            )
            .into()
        }),
    }
}

/// `--shard i/N`, or `auto`: the index and count a batch scheduler gives the task.
pub fn shard(text: &str) -> Result<bmn_search::Shard> {
    if text == "auto" {
        return shard_from_env(|k| std::env::var(k).ok());
    }
    bmn_search::Shard::parse(text).map_err(bad("bad --shard"))
}

/// The shard of a Slurm array task (its index counted from the array's first,
/// `SLURM_ARRAY_TASK_MIN`, so `--array=0-7` and `--array=1-8` both give 1/8 .. 8/8) or of a
/// Kubernetes Indexed Job (`JOB_COMPLETION_INDEX` from 0, the count in `BMN_SHARDS`, which
/// Kubernetes does not pass).
pub fn shard_from_env(var: impl Fn(&str) -> Option<String>) -> Result<bmn_search::Shard> {
    let number = |name: &str| -> Result<Option<u64>> {
        var(name)
            .map(|v| {
                v.trim().parse::<u64>().map_err(|_| {
                    BadInput(format!("--shard auto: {name}={v} is not a whole number")).into()
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
            (None, None) => {
                return Err(BadInput(
                    "--shard auto: SLURM_ARRAY_TASK_ID is set but not SLURM_ARRAY_TASK_COUNT \
                     or SLURM_ARRAY_TASK_MAX"
                        .into(),
                )
                .into());
            }
        };
        (id.checked_sub(min), count)
    } else if let Some(index) = number("JOB_COMPLETION_INDEX")? {
        let Some(count) = number("BMN_SHARDS")? else {
            return Err(BadInput(
                "--shard auto: JOB_COMPLETION_INDEX is set but not BMN_SHARDS (the Job's \
                 completions)"
                    .into(),
            )
            .into());
        };
        (Some(index), count)
    } else {
        return Err(BadInput(
            "--shard auto: no scheduler index found (SLURM_ARRAY_TASK_ID or \
             JOB_COMPLETION_INDEX); give --shard i/N"
                .into(),
        )
        .into());
    };
    match index0 {
        Some(i) if i < count => Ok(bmn_search::Shard {
            index: i + 1,
            count,
        }),
        _ => Err(BadInput(format!(
            "--shard auto: the task index is outside the {count} tasks of the array"
        ))
        .into()),
    }
}

/// `90s`, `10m`, `2h`, `1d` or plain seconds.
pub fn duration(text: &str) -> Result<std::time::Duration> {
    let t = text.trim();
    let (number, unit) = t.split_at(
        t.find(|c: char| !c.is_ascii_digit() && c != '.')
            .unwrap_or(t.len()),
    );
    let scale = match unit {
        "" | "s" => 1.0,
        "m" => 60.0,
        "h" => 3600.0,
        "d" => 86400.0,
        _ => {
            return Err(BadInput(format!(
                "bad --time '{text}': use a number with s, m, h or d, e.g. 10m"
            ))
            .into());
        }
    };
    match number.parse::<f64>() {
        Ok(n) if n > 0.0 && (n * scale).is_finite() => {
            Ok(std::time::Duration::from_secs_f64(n * scale))
        }
        _ => Err(BadInput(format!(
            "bad --time '{text}': use a positive number with s, m, h or d, e.g. 10m"
        ))
        .into()),
    }
}

/// A kernel by name, which this CPU must be able to run; `None` picks the fastest.
pub fn kernel(name: Option<&str>) -> Result<bmn_kernel::Kernel> {
    let all = bmn_kernel::Kernel::all_available();
    match name {
        None => Ok(bmn_kernel::Kernel::best_available()),
        Some(name) => all.into_iter().find(|k| k.name() == name).ok_or_else(|| {
            let names: Vec<_> = bmn_kernel::Kernel::all_available()
                .iter()
                .map(|k| k.name())
                .collect();
            BadInput(format!(
                "bad --kernel '{name}': this CPU runs {}",
                names.join(", ")
            ))
            .into()
        }),
    }
}

/// Worker threads: the given count, or every core.
pub fn threads(given: Option<usize>) -> Result<usize> {
    match given {
        Some(0) => Err(BadInput("bad --threads: must be at least 1".into()).into()),
        Some(t) => Ok(t),
        None => Ok(std::thread::available_parallelism().map_or(1, |n| n.get())),
    }
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
}
