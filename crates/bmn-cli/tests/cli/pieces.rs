//! `bmn pieces search` and `bmn pieces construct`: JSON contract, reproducibility, bad input.

use serde_json::Value;

#[test]
fn search_finds_the_dash_piece_and_is_thread_independent() {
    let one = crate::common::json(&[
        "pieces",
        "search",
        "--max-len",
        "8",
        "--threads",
        "1",
        "--json",
    ]);
    let two = crate::common::json(&[
        "pieces",
        "search",
        "--max-len",
        "8",
        "--threads",
        "2",
        "--json",
    ]);
    assert_eq!(one, two);
    let pieces = one["pieces"].as_array().unwrap();
    assert_eq!(pieces[0]["piece"], "--");
    assert_eq!(one["rejected"], 0);
    assert_eq!(one["filter"], "--K---A----AA");
    let text = crate::common::ok(&["pieces", "search", "--max-len", "5"]);
    assert!(text.starts_with("--  (2 cards"), "{text}");
}

#[test]
fn search_by_faces() {
    let v = crate::common::json(&["pieces", "search", "--faces", "K1,A3,-9", "--json"]);
    let p = &v["pieces"].as_array().unwrap()[0];
    assert_eq!(p["piece"], "--------A-KAA");
    assert_eq!(p["forms"][1], "--K---A----AA");
}

#[test]
fn construct_reports_checked_games() {
    let args = [
        "pieces",
        "construct",
        "--budget",
        "4",
        "--max-len",
        "12",
        "--sparse-len",
        "20",
        "--faces",
        "Q2,K2,A2,-8",
        "--seed",
        "3",
        "--json",
    ];
    let v = crate::common::json(&args);
    let games = v["games"].as_array().unwrap();
    assert!(!games.is_empty());
    for g in games {
        for key in ["deal", "leader", "balanced_by_size", "period", "cycle_id"] {
            assert!(g.get(key).is_some(), "{key} missing: {g}");
        }
        // The reference engine, through `bmn play`, agrees on the cycle.
        let deal = g["deal"].as_str().unwrap();
        let leader = g["leader"].to_string();
        let played: Value = crate::common::json(&[
            "play", deal, "--leader", &leader, "--deck", "standard", "--json",
        ]);
        assert_eq!(played["cycle_id"], g["cycle_id"], "{deal}");
        assert_eq!(played["period"]["tricks"], g["period"]["tricks"]);
    }
    let mut threads = args.to_vec();
    threads.extend(["--threads", "1"]);
    assert_eq!(crate::common::json(&threads), v);
}

#[test]
fn bad_input() {
    crate::common::bad(&["pieces", "search", "--filter", "--J"], "bad --filter");
    crate::common::bad(
        &["pieces", "search", "--filter", "--K"],
        "does not keep the template",
    );
    crate::common::bad(&["pieces", "search", "--faces", "Q4,Z1"], "bad --faces");
    crate::common::bad(&["pieces", "search", "--max-len", "0"], "at least 1");
    crate::common::bad(&["pieces", "search", "--threads", "0"], "bad --threads");
    crate::common::bad(
        &["pieces", "construct", "--basin-limit", "0"],
        "bad --basin-limit",
    );
    crate::common::bad(&["pieces", "construct", "--faces", "J2"], "bad --faces");
}
