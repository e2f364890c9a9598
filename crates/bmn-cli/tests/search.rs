//! `bmn search` and `bmn bench` end to end: the JSON contract, thread-count independence, errors.

mod common;

use common::{bad, json};
use serde_json::Value;

/// The result without the fields that depend on the machine and the thread count.
fn result(mut v: Value) -> Value {
    for key in ["elapsed_seconds", "games_per_second", "threads"] {
        v.as_object_mut().unwrap().remove(key);
    }
    v
}

#[test]
fn search_json_is_the_same_for_one_and_two_threads() {
    let args = [
        "search", "--games", "40000", "--seed", "5", "--top", "5", "--json",
    ];
    let one = json(&[&args[..], &["--threads", "1"]].concat());
    let two = json(&[&args[..], &["--threads", "2"]].concat());
    for key in [
        "games",
        "seed",
        "mean_cards",
        "mean_tricks",
        "games_per_second",
        "histogram",
        "longest",
        "cycles",
    ] {
        assert!(one.get(key).is_some(), "missing {key}");
    }
    assert_eq!(one["games"], 40000);
    assert_eq!(one["longest"].as_array().unwrap().len(), 5);
    let first = &one["longest"][0];
    for key in ["deal", "leader", "cards", "tricks", "winner"] {
        assert!(first.get(key).is_some(), "longest lacks {key}");
    }
    assert_eq!(result(one), result(two));
}

#[test]
fn search_longest_games_replay_exactly_in_bmn_play() {
    let s = json(&[
        "search",
        "--games",
        "20000",
        "--balanced",
        "--top",
        "3",
        "--json",
    ]);
    for f in s["longest"].as_array().unwrap() {
        let p = json(&["play", f["deal"].as_str().unwrap(), "--json"]);
        assert_eq!(
            (&p["cards"], &p["tricks"], &p["winner"]),
            (&f["cards"], &f["tricks"], &f["winner"])
        );
    }
}

#[test]
fn search_finds_cycles_on_a_reduced_deck() {
    let s = json(&[
        "search",
        "--deck",
        "2J,2Q,2K,2A,8-",
        "--games",
        "20000",
        "--json",
    ]);
    let cycles = s["cycles"].as_array().unwrap();
    assert!(!cycles.is_empty());
    for c in cycles.iter().take(5) {
        let p = json(&["play", c["deal"].as_str().unwrap(), "--json"]);
        assert_eq!(p["outcome"], "cycle");
        assert_eq!(
            (&p["period"], &p["cycle_id"]),
            (&c["period"], &c["cycle_id"])
        );
    }
}

#[test]
fn bench_reports_every_kernel_agreeing() {
    let b = json(&["bench", "--games", "2000", "--json"]);
    assert!(b["reference_games_per_second"].as_f64().unwrap() > 0.0);
    assert!(b["fast_games_per_second"].as_f64().unwrap() > 0.0);
    let kernels = b["kernels"].as_array().unwrap();
    assert!(b["search_games_per_second"].as_f64().unwrap() > 0.0);
    assert!(kernels.iter().any(|k| k["kernel"] == "portable"));
    assert!(kernels.iter().any(|k| k["kernel"] == "search"));
    assert!(kernels.iter().all(|k| k["agrees_with_reference"] == true));
}

#[test]
fn bench_on_a_reduced_deck_and_bad_decks() {
    // Paulhus's n = 16 deck runs on the AVX-512 kernel's 32-bit lanes where there are some.
    let b = json(&[
        "bench",
        "--games",
        "3000",
        "--deck",
        "2J,2Q,2K,2A,16-",
        "--json",
    ]);
    assert_eq!(b["deck"], "2J,2Q,2K,2A,16-");
    let kernels = b["kernels"].as_array().unwrap();
    assert!(kernels.iter().all(|k| k["agrees_with_reference"] == true));
    bad(
        &["bench", "--deck", "40J,30-"],
        "has 70 cards; the kernels play at most 64",
    );
    bad(&["bench", "--deck", "2J,2Z"], "bad --deck");
}

#[test]
fn search_bad_input() {
    for (args, expected) in [
        (&["search", "--games", "0"][..], "--games"),
        (&["search", "--time", "ten"], "bad --time 'ten'"),
        (
            &["search", "--deck", "1J"],
            "has 1 cards; 2 players are dealt 2 to 540",
        ),
        (
            &["search", "--deck", "1J,1Q,2-", "--balanced"],
            "its J cards cannot be shared equally among 2 players",
        ),
        (&["search", "--kernel", "gpu"], "bad --kernel 'gpu'"),
        (&["search", "--threads", "0"], "--threads"),
        (
            &["search", "--games", "5", "--time", "1m"],
            "cannot be used with",
        ),
    ] {
        bad(args, expected);
    }
}
