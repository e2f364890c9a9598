//! `bmn bench --instructions`: each engine's instructions per game, counted by callgrind in a
//! child `bmn` that plays only that engine's batches.
//!
//! Why a child: valgrind runs a whole process, and emulates no AVX-512; so the parent times
//! every engine natively, then reruns itself under `valgrind --tool=callgrind` once per engine
//! valgrind can run, with collection on only inside bmn-search's `counted_*` functions (the
//! batch an engine plays, neither the dealing nor the checks around it).

use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use anyhow::{Context, Result, bail};
use bmn_app::bench::{BenchReport, BenchRequest};

/// Most games counted per engine: callgrind runs the reference engine about 50 times slower
/// than the CPU does, and the count per game is steady well before this.
const MAX_COUNTED_GAMES: usize = 20_000;

/// Engines callgrind can count: the reference engine and the kernels but AVX-512's (valgrind
/// does not run it); not the search pipeline (threads, dealing) or a GPU.
fn countable(engine: &str) -> bool {
    !(engine.starts_with("avx512") || engine.starts_with("gpu") || engine == "search")
}

/// Refuses `--instructions` up front when valgrind is not installed.
pub fn check_available() -> Result<()> {
    let found = Command::new("valgrind")
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if !found {
        bail!(bmn_app::error::Error::bad_with(
            "instructions",
            ": valgrind is not installed (it counts the instructions; Debian: apt-get install \
             valgrind)"
        ));
    }
    Ok(())
}

/// How often a count under way looks at the stop (Ctrl-C): a child under valgrind runs for
/// seconds.
const POLL: Duration = Duration::from_millis(50);

/// Fills `instructions_per_game` of every row callgrind can count, on the first games of the
/// bench's own deals. Once `stop` is raised the child under way is killed, the rows not yet
/// counted stay without a count, and the report says it was interrupted.
pub fn count_rows(req: &BenchRequest, report: &mut BenchReport, stop: &AtomicBool) -> Result<()> {
    let games = report.games.min(MAX_COUNTED_GAMES);
    let exe = std::env::current_exe().context("finding the bmn binary to run under callgrind")?;
    for row in report.kernels.iter_mut().filter(|r| countable(&r.engine)) {
        let out = std::env::temp_dir().join(format!(
            "bmn-callgrind-{}-{}.out",
            std::process::id(),
            row.engine
        ));
        let mut child = Command::new("valgrind");
        child
            .arg("--tool=callgrind")
            .arg(format!("--callgrind-out-file={}", out.display()))
            .arg("--collect-atstart=no")
            .arg("--toggle-collect=bmn_search::bench::counted_*")
            .arg(&exe)
            .args(["bench", "--count-only", &row.engine])
            .args(["--games", &games.to_string()])
            .args(["--seed", &report.run.seed.to_string()]);
        if let Some(deck) = &req.deck.deck {
            child.args(["--deck", deck]);
        }
        let mut running = child
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .context("running valgrind")?;
        let status = loop {
            if let Some(status) = running.try_wait().context("running valgrind")? {
                break status;
            }
            if stop.load(Ordering::Relaxed) {
                let _ = running.kill();
                let _ = running.wait();
                let _ = std::fs::remove_file(&out);
                report.interrupted = true;
                return Ok(());
            }
            std::thread::sleep(POLL);
        };
        let total = read_total(&out);
        let _ = std::fs::remove_file(&out);
        if !status.success() {
            bail!(
                "valgrind failed counting the {} engine ({status})",
                row.engine
            );
        }
        row.instructions_per_game = Some(total? as f64 / games as f64);
    }
    Ok(())
}

/// The instructions a callgrind output file counts (its `totals:` or `summary:` line).
fn read_total(path: &Path) -> Result<u64> {
    let text = std::fs::read_to_string(path)
        .with_context(|| format!("reading callgrind's output {}", path.display()))?;
    parse_total(&text).with_context(|| format!("no instruction count in {}", path.display()))
}

fn parse_total(text: &str) -> Option<u64> {
    text.lines()
        .find_map(|l| {
            l.strip_prefix("totals:")
                .or_else(|| l.strip_prefix("summary:"))
        })
        .and_then(|rest| rest.split_whitespace().next())
        .and_then(|n| n.parse().ok())
}

#[cfg(test)]
mod tests {
    use super::parse_total;

    #[test]
    fn reads_the_total_of_a_callgrind_file() {
        let text = "version: 1\ncreator: callgrind-3.19.0\nevents: Ir\nfn=(1) f\n5 10\n\
                    totals: 123456\n";
        assert_eq!(parse_total(text), Some(123_456));
        assert_eq!(parse_total("summary: 42\n"), Some(42));
        assert_eq!(parse_total("events: Ir\n"), None);
    }
}
