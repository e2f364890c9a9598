//! The last row of the exit-code table, walked: every long command, stopped by each of
//! Ctrl-C, SIGTERM and SIGHUP at an early moment, exits 130 within seconds and prints a report
//! that parses and says it was interrupted. (`bmn serve`, which prints no report, has its own
//! walk in `play.rs`.)

use std::io::Read;
use std::process::{Child, Output, Stdio};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use serde_json::Value;

use crate::common::{command, scratch};

/// A final position of six players: its tree of predecessors is far larger than a second's
/// search (Paulhus's mean tree size grows as C(n + k - 1, k - 1)).
const FINAL: &str = "JQKA---------------------------------------/-/-/-/-/-";
/// A game of six players that finishes at once, in that tree's neighbourhood.
const SHORT: &str = "-JQKA--------------------------------------/-/-/-/-/-";

/// How long a stopped command may take to exit: it stops within a second; a loaded CI
/// machine gets room.
const EXIT_WITHIN: Duration = Duration::from_secs(3);

/// Whether process `pid` has a handler for SIGINT (Linux's /proc/PID/status, `SigCgt`), so
/// a signal sent now stops the run rather than killing it before it has begun.
fn catches_sigint(pid: u32) -> bool {
    let Ok(status) = std::fs::read_to_string(format!("/proc/{pid}/status")) else {
        return false;
    };
    status
        .lines()
        .find_map(|l| l.strip_prefix("SigCgt:"))
        .and_then(|mask| u64::from_str_radix(mask.trim(), 16).ok())
        .is_some_and(|mask| mask & (1 << (2 - 1)) != 0)
}

/// Starts `bmn args`, sends it `signal` once it listens for one and `settle` has passed, and
/// returns its output and how long it took to exit after the signal.
fn signalled(args: &[&str], signal: &str, settle: Duration) -> (Output, Duration) {
    signalled_when(args, signal, |_| std::thread::sleep(settle))
}

/// [`signalled_when`] with `stdin` its standard input.
fn signalled_with(
    args: &[&str],
    stdin: Stdio,
    signal: &str,
    ready: impl Fn(u32),
) -> (Output, Duration) {
    signalled_from(command(args).stdin(stdin), args, signal, ready)
}

/// [`signalled`], the signal sent once it listens for one and `ready(pid)` has returned.
fn signalled_when(args: &[&str], signal: &str, ready: impl Fn(u32)) -> (Output, Duration) {
    signalled_with(args, Stdio::null(), signal, ready)
}

fn signalled_from(
    command: &mut std::process::Command,
    args: &[&str],
    signal: &str,
    ready: impl Fn(u32),
) -> (Output, Duration) {
    let mut child: Child = command
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let started = Instant::now();
    while !catches_sigint(child.id()) {
        assert!(
            started.elapsed() < Duration::from_secs(180),
            "{args:?} never listened for a signal"
        );
        std::thread::sleep(Duration::from_millis(5));
    }
    ready(child.id());
    if let Some(status) = child.try_wait().unwrap() {
        panic!("{args:?} ended ({status}) before {signal}: make it longer");
    }
    let sent = std::process::Command::new("kill")
        .args([signal, &child.id().to_string()])
        .status()
        .unwrap();
    assert!(sent.success());
    let asked = Instant::now();
    // Read both pipes on threads so that a full pipe never holds the command up.
    let mut stdout = child.stdout.take().unwrap();
    let mut stderr = child.stderr.take().unwrap();
    let out = std::thread::spawn(move || {
        let mut text = Vec::new();
        stdout.read_to_end(&mut text).map(|_| text)
    });
    let err = std::thread::spawn(move || {
        let mut text = Vec::new();
        stderr.read_to_end(&mut text).map(|_| text)
    });
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if asked.elapsed() > Duration::from_secs(120) {
            child.kill().unwrap();
            break child.wait().unwrap();
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    let took = asked.elapsed();
    let output = Output {
        status,
        stdout: out.join().unwrap().unwrap(),
        stderr: err.join().unwrap().unwrap(),
    };
    (output, took)
}

/// A moment early in a run, different from run to run (the clock's nanoseconds): 100 to
/// 900 ms after the command listens for signals.
fn early_moment(salt: usize) -> Duration {
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap()
        .subsec_nanos() as usize;
    Duration::from_millis(100 + ((nanos / 1000 + salt * 7919) % 800) as u64)
}

/// A run a signal stopped: exit 130 within [`EXIT_WITHIN`], and its report and stderr.
fn stopped_report((out, took): (Output, Duration), at: &str) -> (Value, String) {
    let stderr = String::from_utf8_lossy(&out.stderr).to_string();
    assert_eq!(out.status.code(), Some(130), "{at}: {stderr}");
    assert!(took < EXIT_WITHIN, "{at}: exited {took:?} after it");
    let report: Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{at}: no report ({e}): {stderr}"));
    (report, stderr)
}

#[test]
fn every_long_command_stops_on_each_signal_with_exit_130_and_a_report() {
    let dir = scratch("signals");
    let checkpoint = dir.join("enumeration.json");
    let checkpoint = checkpoint.to_str().unwrap();
    // Each command, and the key of its report that says it stopped early (`range_done`
    // false for an enumeration, `interrupted` true elsewhere).
    let runs: &[(&[&str], &str)] = &[
        (&["search", "--games", "1e12", "--no-db"], "interrupted"),
        (&["stats", "--games", "1e12"], "interrupted"),
        (&["odds", "--fit-games", "1e12"], "interrupted"),
        (&["climb", "--evals", "1e12", "--no-db"], "interrupted"),
        (
            &[
                "exhaustive",
                "--deck",
                "4J,4Q,4K,4A,12-",
                "--no-db",
                "--checkpoint",
                checkpoint,
            ],
            "range_done",
        ),
        (
            &[
                "census",
                "--deck",
                "camicia",
                "--methods",
                "hands",
                "--hands",
                "8",
            ],
            "interrupted",
        ),
        (&["pieces", "search", "--max-len", "40"], "interrupted"),
        (&["pieces", "construct"], "interrupted"),
        (&["pieces", "factory", "--seed", "3"], "interrupted"),
        (&["basin", FINAL, "--limit", "1e9"], "interrupted"),
        (
            &["extend", SHORT, "--depth", "1000", "--limit", "1e9"],
            "interrupted",
        ),
        (&["trees", "--samples", "1e9"], "interrupted"),
        (&["bench", "--games", "2e6"], "interrupted"),
    ];
    let mut salt = 0;
    for &(args, key) in runs {
        for signal in ["-INT", "-TERM", "-HUP"] {
            salt += 1;
            let _ = std::fs::remove_file(checkpoint);
            let args = [args, &["--json"]].concat();
            let moment = early_moment(salt);
            let at = format!("{args:?} {signal} at {moment:?}");
            let (report, stderr) = stopped_report(signalled(&args, signal, moment), &at);
            let stopped = report[key] == Value::Bool(key == "interrupted");
            assert!(stopped, "{at}: {key} in {report}");
            assert!(!stderr.contains("bmn: error"), "{at}: {stderr}");
        }
    }
}

/// Whether process `pid` has a child (Linux's /proc: a process whose parent it is).
fn has_child(pid: u32) -> bool {
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return false;
    };
    entries.flatten().any(|e| {
        std::fs::read_to_string(e.path().join("stat")).is_ok_and(|stat| {
            // `pid (comm) state ppid ...`: the fields after the command's closing paren.
            stat.rsplit_once(')')
                .and_then(|(_, rest)| rest.split_whitespace().nth(1))
                .is_some_and(|ppid| ppid == pid.to_string())
        })
    })
}

#[test]
fn bench_stops_while_callgrind_counts() {
    let valgrind = std::process::Command::new("valgrind")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !valgrind {
        eprintln!("skipped: valgrind is not installed");
        return;
    }
    // The timing takes a moment; then a child bmn runs under valgrind for seconds per engine.
    let args = [
        "bench",
        "--games",
        "20000",
        "--deck",
        "2J,2Q,2K,2A,16-",
        "--instructions",
        "--json",
    ];
    let (out, took) = signalled_when(&args, "-INT", |pid| {
        let started = Instant::now();
        while !has_child(pid) {
            assert!(
                started.elapsed() < Duration::from_secs(180),
                "never counted"
            );
            std::thread::sleep(Duration::from_millis(5));
        }
    });
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(130), "{stderr}");
    assert!(took < EXIT_WITHIN, "exited {took:?} after the signal");
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["interrupted"], true, "{report}");
}

/// `play` is a long job too (issue 62): a game played to a trick limit it never reaches, and a
/// game of 400,001 cards (hands of `-` x n then `J` against `J-`, whose games grow as n^2
/// cards) stop within a second of each signal, printing where the game got to; and a file of
/// deals stops after its chunk under way with every finished line written.
#[test]
fn a_long_game_and_a_file_of_deals_stop_on_each_signal() {
    let dir = scratch("signals-play");
    let long = dir.join("long.txt");
    std::fs::write(&long, format!("{}J/J-\n", "-".repeat(400_000))).unwrap();
    let casella = "---K---Q-KQAJ-----AAJ--J--/----------Q----KQ-J-----KA";
    for (salt, signal) in ["-INT", "-TERM", "-HUP"].into_iter().enumerate() {
        for (args, stdin) in [
            (vec!["play", casella, "--tricks", "1e15", "--json"], None),
            (vec!["play", "-", "--json"], Some(&long)),
        ] {
            let stdin = stdin.map_or_else(Stdio::null, |f| std::fs::File::open(f).unwrap().into());
            let moment = early_moment(salt);
            let at = format!("{args:?} {signal} at {moment:?}");
            let run = signalled_with(&args, stdin, signal, |_| std::thread::sleep(moment));
            let (report, _) = stopped_report(run, &at);
            assert_eq!(report["outcome"], "stopped", "{at}: {report}");
            assert!(report["tricks"].as_u64().unwrap() > 0, "{at}: {report}");
            assert!(report["position"]["deal"].is_string(), "{at}: {report}");
        }
    }
    // Three-player deals go to the reference engine: a file of them takes many seconds.
    let deals = dir.join("deals.txt");
    let deal = "-A--K--Q----JJ-/--A--K---Q--J-/---A-K--Q--J--";
    std::fs::write(&deals, format!("{deal}\n").repeat(3_000_000)).unwrap();
    let args = ["play", "--deals", deals.to_str().unwrap(), "--json"];
    let (out, took) = signalled(&args, "-INT", early_moment(7));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(130), "{stderr}");
    assert!(took < EXIT_WITHIN, "exited {took:?} after it");
    assert!(stderr.contains("every one of them is written"), "{stderr}");
    let lines: Vec<Value> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    for (i, line) in lines.iter().enumerate() {
        assert_eq!(line["line"], i as u64 + 1);
    }
    assert!(lines.len() < 3_000_000);
}
