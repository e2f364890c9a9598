//! What a newcomer tripped on (issue 31): long runs that said nothing without a terminal or
//! left nothing when `timeout` stopped them, help texts that told another command's truth,
//! lines that read wrong, and files written without a word.

use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::common::{bmn, command, json, ok, recorded, scratch, wait_until};

/// `bmn args` with stderr piped (not a terminal); the output and how long it ran.
fn timed(args: &[&str]) -> (Output, Duration) {
    let started = Instant::now();
    let out = bmn(args, None);
    (out, started.elapsed())
}

/// The progress lines a run wrote on stderr in place of the terminal's bar.
fn log_lines(stderr: &str) -> Vec<&str> {
    stderr
        .lines()
        .filter(|l| l.starts_with("bmn: "))
        .filter(|l| !l.starts_with("bmn: error") && !l.starts_with("bmn: warning"))
        .collect()
}

#[test]
fn a_long_run_without_a_terminal_writes_a_progress_line_every_five_seconds() {
    // `--time` bounds the run whatever the machine's speed: about 7 s, one line (at 5 s).
    let args = [
        "pieces",
        "factory",
        "--deck",
        "2J,2Q,2K,2A,6-",
        "--time",
        "7s",
        "--json",
    ];
    let (out, took) = timed(&args);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    let report: Value = serde_json::from_slice(&out.stdout).expect("stdout holds the JSON alone");
    assert!(
        report["distinct_cycle_count"].as_u64().is_some(),
        "{report}"
    );
    let lines = log_lines(&stderr);
    assert!(!lines.is_empty(), "no progress line in {took:?}: {stderr}");
    // Not more often than every 5 s.
    assert!(
        lines.len() as u64 <= took.as_secs() / 5,
        "{} lines in {took:?}: {stderr}",
        lines.len()
    );
    for line in &lines {
        // What it counts, how fast, and for how long: "bmn: 1,097,728 of 100,000,000 games
        // (1.1%), 219,070 games/s, 5 s, 210 cycling deals".
        assert!(line.contains(" s"), "{line}");
        assert!(line.chars().nth(5).unwrap().is_ascii_digit(), "{line}");
    }

    // A run shorter than that writes none.
    let out = bmn(&["search", "--games", "20000", "--no-db", "--json"], None);
    assert!(out.status.success());
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Starts a search too long to finish, sends it `signal` once its run database holds a unit
/// done (not after a fixed time, which a slow machine may not have saved anything by), and
/// returns its output.
fn signalled_search(signal: &str, seed: &str) -> Output {
    let dir = scratch(&format!("signalled{signal}"));
    let db = dir.join("runs.sqlite");
    let db_text = db.to_str().unwrap();
    let args = [
        "search",
        "--games",
        "100000000000",
        "--seed",
        seed,
        "--db",
        db_text,
        "--json",
    ];
    let child = command(&args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("bmn runs");
    let child = wait_until(child, "the search", "a unit recorded", || recorded(&db));
    let sent = Command::new("kill")
        .args([signal, &child.id().to_string()])
        .status()
        .expect("kill runs");
    assert!(sent.success(), "kill {signal}");
    child.wait_with_output().unwrap()
}

/// What a stopped search reports, less its timing and its size (which depend on when the
/// signal came).
fn stopped_report(out: &Output) -> Value {
    let stderr = String::from_utf8_lossy(&out.stderr);
    let mut report: Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("no report on stdout ({e}): {stderr}"));
    assert!(
        stderr.contains("interrupted: recorded as run "),
        "no word on how to resume: {stderr}"
    );
    let games = report["games"].as_u64().unwrap();
    assert_eq!(games % 16384, 0, "whole units only: {games}");
    let map = report.as_object_mut().unwrap();
    for key in [
        "games",
        "elapsed_seconds",
        "games_per_second",
        "mean_cards",
        "mean_tricks",
        "wins_by_seat",
        "histogram",
        "longest",
        "cycling_games",
        "unresolved_games",
        "cycling_deal_list",
        "distinct_cycle_list",
    ] {
        assert!(map.remove(key).is_some(), "{key} missing");
    }
    report
}

#[test]
fn sigterm_stops_a_long_run_as_ctrl_c_does() {
    // `timeout`, `kill` and batch schedulers send SIGTERM: the run stops at the next unit,
    // records where it got to, reports the units it finished and exits as after Ctrl-C: 130,
    // not 0, so a script can tell it from a run that finished.
    let interrupted = signalled_search("-INT", "31");
    let terminated = signalled_search("-TERM", "31");
    assert_eq!(interrupted.status.code(), Some(130), "{interrupted:?}");
    assert_eq!(terminated.status.code(), interrupted.status.code());
    let (a, b) = (stopped_report(&interrupted), stopped_report(&terminated));
    assert_eq!(a["interrupted"], true, "{a}");
    assert_eq!(a, b);
}

/// The help text of `flag` in `bmn COMMAND --help`: its line and the lines that go on it.
fn flag_help(command: &[&str], flag: &str) -> String {
    let help = ok(&[command, &["--help"]].concat());
    let mut lines = help.lines().skip_while(|l| {
        !l.trim_start()
            .strip_prefix(flag)
            .is_some_and(|rest| rest.starts_with(' '))
    });
    let mut text = lines
        .next()
        .unwrap_or_else(|| panic!("{flag}: {help}"))
        .to_string();
    for l in lines.take_while(|l| !l.trim_start().starts_with('-') && !l.trim().is_empty()) {
        text.push(' ');
        text.push_str(l.trim());
    }
    text
}

/// Every command's caveats that used to show in every command's help.
const OTHERS_CAVEATS: [&str; 7] = [
    "for `play`",
    "for bench",
    "`deal` draws",
    "for exhaustive",
    "for play",
    "for pieces",
    "of search, stats and exhaustive",
];

#[test]
fn each_command_s_help_tells_its_own_truth() {
    for command in [
        &["exhaustive"][..],
        &["play"],
        &["deal"],
        &["bench"],
        &["search"],
        &["stats"],
        &["pieces", "search"],
    ] {
        let help = ok(&[command, &["--help"]].concat());
        for caveat in OTHERS_CAVEATS {
            assert!(!help.contains(caveat), "{command:?}: {caveat:?} in {help}");
        }
    }
    // exhaustive: --deck is required (unless --merge), so it has no default.
    let deck = flag_help(&["exhaustive"], "--deck");
    assert!(!deck.contains("default"), "{deck}");
    assert!(deck.contains("required unless --merge"), "{deck}");
    assert!(flag_help(&["exhaustive"], "--max-tricks").contains("[default: 1000]"));
    // play: --deck and --players check the deal; unchecked unless given.
    let deck = flag_help(&["play"], "--deck");
    assert!(
        deck.contains("Check that the hands hold exactly this deck"),
        "{deck}"
    );
    assert!(!deck.contains("[default"), "{deck}");
    let players = flag_help(&["play"], "--players");
    assert!(
        players.contains("Check that the deal has this many hands"),
        "{players}"
    );
    assert!(!players.contains("[default"), "{players}");
    assert!(flag_help(&["play"], "--give-up").contains("[default: 10000000]"));
    // deal: its seed comes from the clock; the others' is 1.
    let seed = flag_help(&["deal"], "--seed");
    assert!(seed.contains("drawn from the clock"), "{seed}");
    assert!(!seed.contains("[default: 1"), "{seed}");
    assert!(flag_help(&["search"], "--seed").contains("[default: 1]"));
    assert!(!flag_help(&["search"], "--seed").contains("clock"));
    // bench: one thread unless told; the others every core.
    let threads = flag_help(&["bench"], "--threads");
    assert!(threads.contains("[default: 1]"), "{threads}");
    assert!(!threads.contains("every core"), "{threads}");
    let threads = flag_help(&["search"], "--threads");
    assert!(threads.contains("[default: every core]"), "{threads}");
    // and the deck the others deal from is standard unless told.
    assert!(flag_help(&["search"], "--deck").contains("[default: standard]"));
    assert!(flag_help(&["deal"], "--deck").contains("[default: standard]"));
}

#[test]
fn trees_gives_its_estimate_with_its_error() {
    // A deck where nothing cycles: a sample's estimate can come out above 1.
    let args = [
        "trees",
        "--samples",
        "100",
        "--seed",
        "1",
        "--deck",
        "2J,2Q,2K,2A,2-",
    ];
    let report = json(&[&args[..], &["--json"]].concat());
    let share = report["finishing_share"].as_f64().unwrap();
    assert!(share > 1.0, "the case needs an estimate above 1: {report}");
    let text = ok(&args);
    let line = text
        .lines()
        .find(|l| l.starts_with("share of unfinished positions that finish"))
        .unwrap_or_else(|| panic!("{text}"));
    assert!(line.contains(&format!("{share:.4} ± ")), "{line}");
    assert!(line.contains("sampling error"), "{line}");
    // Measured over every final position, it is exact: no error to give.
    let text = ok(&["trees", "--all", "--deck", "2J,2Q,2K,2A,1-"]);
    assert!(
        text.contains("share of unfinished positions that finish: 1.0000\n"),
        "{text}"
    );
}

#[test]
fn basin_says_what_each_count_counts() {
    let n16 = "--A-KJ-/--A----Q----KQ-J-";
    let text = ok(&["basin", n16]);
    for line in text.lines() {
        assert!(line.matches("player 1 lead").count() <= 1, "{line}");
    }
    assert!(
        text.contains("balanced starting deals: 36 with player 1 leading (72 with either leader)"),
        "{text}"
    );
    assert!(
        text.contains(
            "without renaming the players: 17 with player 1 leading (36 with either leader)"
        ),
        "{text}"
    );
    // The JSON keys stay as they were.
    let report = json(&["basin", n16, "--json"]);
    let counts = &report["balanced_counts"];
    assert_eq!(
        (
            &counts["leader_1"],
            &counts["all"],
            &counts["leader_1_exact"],
            &counts["exact"]
        ),
        (&36.into(), &72.into(), &17.into(), &36.into())
    );
    assert_eq!(report["balanced_deals_count"], 36);
}

#[test]
fn one_trick_is_one_trick() {
    let text = ok(&["play", "--J/--", "--tricks", "1"]);
    assert_eq!(text, "player 1 wins after 5 cards and 1 trick\n");
    let text = ok(&["play", "J--K---A----AA/-J-", "--tricks", "1"]);
    assert!(text.starts_with("stopped after 1 trick ("), "{text}");
    let text = ok(&["basin", "----/"]);
    assert!(text.contains("deepest: 1 trick before"), "{text}");
    let text = ok(&["backward", "J-/--"]);
    assert!(text.contains("1 predecessor of"), "{text}");
    for text in [
        ok(&["play", "--J/--", "--tricks", "1", "--trace"]),
        ok(&["basin", "J-/--", "--balanced"]),
    ] {
        for word in ["tricks", "cards", "positions"] {
            assert!(!text.contains(&format!(" 1 {word}")), "{text}");
        }
    }
}

#[test]
fn one_trick_is_one_trick_in_search_and_exhaustive_lists() {
    let text = ok(&[
        "exhaustive",
        "--deck",
        "2J,2Q,2K,2A,6-",
        "--list-cycles",
        "--no-db",
    ]);
    assert!(text.contains(" preperiod 1 trick (3 cards), "), "{text}");
    assert!(!text.contains(" 1 tricks"), "{text}");
    let text = ok(&[
        "search",
        "--deck",
        "2J,2Q,2K,2A,8-",
        "--games",
        "20000",
        "--no-db",
    ]);
    assert!(text.contains(" preperiod 1 trick, "), "{text}");
    assert!(!text.contains(" 1 tricks"), "{text}");
}

#[test]
fn resuming_a_finished_run_says_so_instead_of_a_speed_of_zero() {
    let dir = scratch("newcomer-resume");
    let db = dir.join("runs.sqlite");
    let db = db.to_str().unwrap();
    let args = ["search", "--games", "20000", "--seed", "31", "--db", db];
    ok(&args);
    let text = ok(&[&args[..], &["--resume"]].concat());
    assert!(!text.contains("0.000 M games/s"), "{text}");
    assert!(text.contains("already finished"), "{text}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn play_and_basin_name_the_files_they_write() {
    let dir = scratch("newcomer-files");
    let (plot, dot) = (dir.join("record.svg"), dir.join("n16-cycle.dot"));
    let (plot, dot) = (plot.to_str().unwrap(), dot.to_str().unwrap());
    let n16 = "--A-KJ-/--A----Q----KQ-J-";
    let text = ok(&["play", n16, "--plot", plot, "--dot", dot]);
    assert!(
        text.ends_with(&format!("plot: {plot}\ngraph: {dot}\n")),
        "{text}"
    );
    assert!(std::path::Path::new(plot).is_file() && std::path::Path::new(dot).is_file());
    let basin = dir.join("n16.dot");
    let basin = basin.to_str().unwrap();
    let text = ok(&["basin", n16, "--dot", basin]);
    assert!(text.ends_with(&format!("graph: {basin}\n")), "{text}");
    // As `stats` and `records` do: the text names the file, the JSON is the report's own.
    let text = ok(&["records", "--plot", plot]);
    assert!(text.ends_with(&format!("plot: {plot}\n")), "{text}");
    let report = json(&["play", n16, "--dot", dot, "--json"]);
    assert_eq!(report["outcome"], "cycle");
    assert!(report.get("graph").is_none() && report.get("dot").is_none());
    let _ = std::fs::remove_dir_all(&dir);
}

/// The defaults live in the library (each plan's `Default` and its constants); the CLI's flags
/// are `None` unless given and only say the default in their help. So the help must say the
/// library's value.
#[test]
fn the_defaults_the_help_states_are_the_librarys() {
    use bmn_app::{odds, pieces, search, stats};
    let (search_cmd, pieces_search, construct): (&[&str], &[&str], &[&str]) =
        (&["search"], &["pieces", "search"], &["pieces", "construct"]);
    let defaults: [(&[&str], &str, &dyn std::fmt::Display); 11] = [
        (search_cmd, "--games", &search::DEFAULT_GAMES),
        (search_cmd, "--top", &search::DEFAULT_TOP),
        (&["stats"], "--games", &stats::DEFAULT_STATS_GAMES),
        (&["odds"], "--fit-games", &odds::DEFAULT_FIT_GAMES),
        (search_cmd, "--on-empty", &bmn_app::input::DEFAULT_ON_EMPTY),
        (pieces_search, "--filter", &pieces::DEFAULT_FILTER),
        (pieces_search, "--max-len", &pieces::DEFAULT_SEARCH_MAX_LEN),
        (construct, "--max-len", &pieces::DEFAULT_POOL_MAX_LEN),
        (construct, "--sparse-len", &pieces::DEFAULT_SPARSE_LEN),
        (construct, "--budget", &pieces::DEFAULT_BUDGET),
        (construct, "--basin-limit", &pieces::DEFAULT_BASIN_LIMIT),
    ];
    for (command, flag, value) in defaults {
        let help = flag_help(command, flag);
        assert!(
            help.contains(&format!("[default: {value}]"))
                || help.contains(&format!("[default: {value} unless")),
            "{command:?} {flag}: {help}"
        );
    }
}

/// A run that records its progress in a run database (made unasked, by default under the home
/// directory) says where, on stderr.
#[test]
fn a_run_says_where_it_records_its_progress() {
    let out = bmn(&["search", "--games", "20000", "--json"], None);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    let db = crate::common::test_db().display().to_string();
    assert!(
        stderr.contains("recording progress as run ") && stderr.contains(&db),
        "{stderr}"
    );
    let out = bmn(&["search", "--games", "20000", "--no-db", "--json"], None);
    assert!(out.stderr.is_empty(), "{out:?}");
}
