//! What a newcomer hit in the second hour (issue 64): arguments that are not UTF-8, output
//! files refused only after the work, placeholder numbers in reports, refusals naming another
//! flag, an empty file taken for a database, a table out of order.

use std::os::unix::ffi::OsStrExt;
use std::path::Path;
use std::process::Stdio;
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::common::{bad, command, json, ok, scratch};

fn p(path: &Path) -> &str {
    path.to_str().unwrap()
}

#[test]
fn arguments_that_are_not_utf8_are_refused_in_one_line() {
    let cases: [&[&[u8]]; 4] = [
        &[b"play", b"--K-/--J-\xff"],
        &[b"search", b"--games", b"1\xff0"],
        &[b"--\xff"],
        &[b"pieces", b"factory", b"--seed", b"\xfe"],
    ];
    for args in cases {
        let args: Vec<&std::ffi::OsStr> = args
            .iter()
            .map(|a| std::ffi::OsStr::from_bytes(a))
            .collect();
        let out = command(&[])
            .args(&args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
        assert!(stderr.starts_with("bmn: error: argument "), "{stderr}");
        assert!(stderr.contains("is not UTF-8"), "{stderr}");
        assert!(!stderr.contains("panicked"), "{stderr}");
    }
}

/// Every file a command writes is checked before any work: a folder that is not there, a
/// folder where a file is expected. Each refusal is exit 2 naming the flag, at once.
#[test]
fn output_files_are_checked_before_the_work() {
    let dir = scratch("output-files");
    let folder = p(&dir);
    let missing = "/nonexistent-bmn-folder/x.png";
    let record = "---AJ--Q---------QAKQJJ-QK/-----A----KJ-K--------A---";
    let started = Instant::now();
    // 10^9 games would take minutes: refused before the first.
    bad(
        &["stats", "--games", "1e9", "--plot", missing],
        "bad --plot '/nonexistent-bmn-folder/x.png': the folder /nonexistent-bmn-folder does not exist",
    );
    bad(&["play", record, "--plot", missing], "bad --plot");
    bad(&["records", "--plot", missing], "bad --plot");
    let x_svg = dir.join("x.svg");
    std::fs::create_dir(&x_svg).unwrap();
    bad(&["play", record, "--plot", p(&x_svg)], "is a folder");
    bad(&["play", record, "--dot", folder], "bad --dot");
    bad(&["play", record, "--dot", folder], "is a folder");
    bad(
        &[
            "basin",
            "---K---Q-KQAJ-----AAJ--J--/----------Q----KQ-J-----KA",
            "--dot",
            folder,
        ],
        "bad --dot",
    );
    bad(
        &["search", "--games", "1e9", "--out", folder, "--no-db"],
        "bad --out",
    );
    bad(
        &[
            "exhaustive",
            "--deck",
            "2J,2Q,2K,2A,20-",
            "--checkpoint",
            folder,
            "--no-db",
        ],
        "bad --checkpoint",
    );
    bad(
        &["search", "--games", "1e9", "--db", folder],
        "is a folder; name a file (in it, say) (give another --db, or --no-db)",
    );
    bad(
        &["climb", "--start", folder, "--evals", "10"],
        "bad --start",
    );
    bad(
        &["climb", "--start", folder, "--evals", "10"],
        "is a folder",
    );
    assert!(
        started.elapsed() < Duration::from_secs(60),
        "refused before the work: {:?}",
        started.elapsed()
    );
    // Nothing was left behind by the checks.
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 1);
}

/// An existing empty file is not taken for a run database unless it is named as one.
#[test]
fn an_empty_text_file_is_not_made_a_database() {
    let dir = scratch("empty-db");
    let text = dir.join("empty.txt");
    std::fs::write(&text, b"").unwrap();
    bad(
        &["search", "--games", "10", "--db", p(&text)],
        "is an empty file, not a run database",
    );
    bad(
        &["search", "--games", "10", "--db", p(&text)],
        "(give another --db, or --no-db)",
    );
    assert_eq!(std::fs::read(&text).unwrap(), b"", "left as it was");
    // Named as a database (as `mktemp --suffix .sqlite` makes one), it becomes one.
    let named = dir.join("runs.sqlite");
    std::fs::write(&named, b"").unwrap();
    ok(&["search", "--games", "10", "--db", p(&named)]);
    assert!(std::fs::metadata(&named).unwrap().len() > 0);
}

/// Every number in a report is a measured one: no integer limit stands in for "none".
#[test]
fn no_report_holds_a_placeholder_number() {
    fn walk(v: &Value, at: &str, args: &[&str]) {
        match v {
            Value::Number(n) => {
                let limits = [u64::MAX, i64::MAX as u64, u32::MAX.into(), i32::MAX as u64];
                assert!(
                    !n.as_u64().is_some_and(|n| limits.contains(&n))
                        && !n
                            .as_i64()
                            .is_some_and(|n| n == i64::MIN || n == i64::from(i32::MIN)),
                    "{args:?}: {at} = {n}"
                );
            }
            Value::Array(items) => {
                for (i, item) in items.iter().enumerate() {
                    walk(item, &format!("{at}[{i}]"), args);
                }
            }
            Value::Object(map) => {
                for (k, item) in map {
                    walk(item, &format!("{at}.{k}"), args);
                }
            }
            _ => {}
        }
    }
    let runs: &[&[&str]] = &[
        // Stopped by its time limit while it looks for games to start from: no cycle yet.
        &["pieces", "factory", "--seed", "3", "--time", "1s"],
        &[
            "pieces",
            "factory",
            "--deck",
            "2J,2Q,2K,2A,6-",
            "--rounds",
            "2",
        ],
        &[
            "play",
            "---K---Q-KQAJ-----AAJ--J--/----------Q----KQ-J-----KA",
        ],
        &[
            "play",
            "---AJ--Q---------QAKQJJ-QK/-----A----KJ-K--------A---",
            "--tricks",
            "3",
        ],
        &["search", "--games", "20000", "--no-db"],
        &["stats", "--games", "20000"],
        &[
            "exhaustive",
            "--deck",
            "2J,2Q,6-",
            "--list-cycles",
            "--no-db",
        ],
        &["census", "--deck", "2J,2Q,2K,8-"],
        &["climb", "--evals", "200", "--no-db"],
        &["pieces", "search", "--max-len", "4"],
        &["count", "--deck", "camicia"],
        &["records"],
        &["deal", "--seed", "5"],
        &["odds", "--fit-games", "20000"],
        &[
            "rank",
            "---AJ--Q---------QAKQJJ-QK/-----A----KJ-K--------A---",
        ],
        &["unrank", "5"],
        &[
            "basin",
            "---K---Q-KQAJ-----AAJ--J--/----------Q----KQ-J-----KA",
            "--limit",
            "2000",
        ],
        &["trees", "--samples", "100"],
        &["devices"],
    ];
    for args in runs {
        let report = json(&[args, &["--json"][..]].concat());
        walk(&report, "", args);
    }
}

#[test]
fn refusals_name_the_flag_as_typed() {
    bad(&["pieces", "search", "--max-len", "0"], "bad --max-len:");
    bad(&["pieces", "search", "--max-len", "65"], "bad --max-len:");
}

/// `census --enumeration` given a search's result file says so, whether the search was
/// sharded or not.
#[test]
fn a_search_file_given_to_the_census_is_named_as_one() {
    let dir = scratch("census-search-file");
    let shard = dir.join("shard.json");
    ok(&[
        "search",
        "--games",
        "65536",
        "--shard",
        "1/4",
        "--out",
        p(&shard),
        "--no-db",
    ]);
    bad(
        &["census", "--enumeration", p(&shard), "--deck", "2J,2Q,6-"],
        "is a search's result file",
    );
}

/// `odds` lists its rows by the number of games, the columns aligned however long a count's
/// words are.
#[test]
fn the_odds_table_is_in_order_and_aligned() {
    let text = ok(&["odds", "--fit-games", "20000", "--games", "1e12"]);
    let rows: Vec<&str> = text
        .lines()
        .skip_while(|l| !l.starts_with("records:"))
        .skip(1)
        .take_while(|l| !l.starts_with("target:"))
        .collect();
    assert!(rows.len() >= 4, "{text}");
    let games: Vec<f64> =
        json(&["odds", "--fit-games", "20000", "--games", "1e12", "--json"])["expected_records"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r["games"].as_f64().unwrap())
            .collect();
    assert!(games.windows(2).all(|w| w[0] < w[1]), "{games:?}");
    // The expected record ends at the same column in every row: "3.20 billion  4656 ...".
    let ends: Vec<usize> = rows
        .iter()
        .map(|r| {
            let expected = r.split_whitespace().nth(2).unwrap();
            let at = r.find(&format!(" {expected} ")).unwrap();
            at + 1 + expected.len()
        })
        .collect();
    assert!(ends.windows(2).all(|w| w[0] == w[1]), "{text}");
}
