//! `bmn backward`, `basin`, `extend`, `trees` end to end: the spec's case, JSON keys, bad input.

use crate::common::{bad, json, ok};
use serde_json::Value;

fn positions(list: &Value) -> Vec<(String, u64)> {
    list.as_array()
        .unwrap()
        .iter()
        .map(|p| {
            (
                p["deal"].as_str().unwrap().to_string(),
                p["leader"].as_u64().unwrap(),
            )
        })
        .collect()
}

#[test]
fn backward_finds_the_spec_case() {
    // docs/rules.md, Backward play: J--K---A----AA/-J- (1 leads) plays into --K---A----AAJ-/J-.
    let got = json(&["backward", "--K---A----AAJ-/J-", "--json"]);
    let preds = positions(&got["predecessors"]);
    assert!(
        preds.contains(&("J--K---A----AA/-J-".to_string(), 1)),
        "{got}"
    );
    // Each one plays forward into the position in one trick.
    for (deal, leader) in preds {
        let next = json(&[
            "play",
            &deal,
            "--leader",
            &leader.to_string(),
            "--tricks",
            "1",
            "--json",
        ]);
        assert_eq!(next["position"]["deal"], "--K---A----AAJ-/J-", "{deal}");
        assert_eq!(next["position"]["leader"], 1, "{deal}");
    }
    let text = ok(&["backward", "--K---A----AAJ-/J-"]);
    assert!(text.contains("J--K---A----AA/-J- (leader 1)"), "{text}");
}

#[test]
fn backward_of_a_finished_position_and_other_rules() {
    // The loser ran out while following or paying (engine tests, reversed).
    let got = json(&["backward", "-K--/", "--json"]);
    assert_eq!(
        positions(&got["predecessors"]),
        [
            ("--K/-".into(), 2),
            ("K-/--".into(), 1),
            ("K/---".into(), 2)
        ]
    );
    // Knocking Dolly: the A takes the pile at once.
    let got = json(&["backward", "---A/-", "--penalties", "K3,J2,Q1,A0", "--json"]);
    assert!(
        positions(&got["predecessors"]).contains(&("-A-/--".into(), 1)),
        "{got}"
    );
    // Three players.
    let got = json(&["backward", "K---//-", "--on-empty", "collect", "--json"]);
    assert!(got["predecessors"].is_array());
}

#[test]
fn basin_of_the_ten_card_cycle() {
    let got = json(&["basin", "--Q-J-/Q-J-", "--json"]);
    for key in [
        "positions",
        "balanced_deals_count",
        "balanced_deal_list",
        "cycle_id",
        "complete",
    ] {
        assert!(got.get(key).is_some(), "{key} missing: {got}");
    }
    assert_eq!(got["positions"], 86);
    assert_eq!(got["complete"], true);
    assert_eq!(got["period"]["tricks"], 3);
    let deals = got["balanced_deal_list"].as_array().unwrap();
    assert_eq!(
        got["balanced_deals_count"].as_u64(),
        Some(deals.len() as u64)
    );
    assert!(
        deals
            .iter()
            .all(|d| d["tricks"].is_u64() && d["cards"].is_u64())
    );
    let cycle = json(&["play", "--Q-J-/Q-J-", "--json"]);
    assert_eq!(got["cycle_id"], cycle["cycle_id"]);

    let text = ok(&["basin", "--Q-J-/Q-J-", "--balanced"]);
    assert!(text.contains("positions: 86 (complete)"), "{text}");
    assert!(text.contains("preperiod"), "{text}");
}

#[test]
fn basin_limit_says_it_cut_short() {
    let got = json(&["basin", "--Q-J-/Q-J-", "--limit", "10", "--json"]);
    assert_eq!(
        (got["positions"].as_u64(), got["complete"].as_bool()),
        (Some(10), Some(false))
    );
    let text = ok(&["basin", "--Q-J-/Q-J-", "--limit", "10"]);
    assert!(text.contains("cut short by --limit 10"), "{text}");
}

#[test]
fn basin_of_a_finishing_game() {
    let got = json(&["basin", "--K/J-", "--json"]);
    assert_eq!(got["target"], "final");
    assert_eq!(got["cycle_id"], Value::Null);
    assert_eq!(got["final_position"]["deal"], "/--K-J");
    let first = &got["balanced_deal_list"][0];
    assert_eq!(
        (first["deal"].as_str(), first["cards"].as_u64()),
        (Some("--K/J-"), Some(7))
    );
}

#[test]
fn extend_a_small_game() {
    let got = json(&["extend", "--K/J-", "--depth", "5", "--json"]);
    for key in [
        "original",
        "best",
        "balanced_found",
        "longer",
        "complete",
        "exhausted",
    ] {
        assert!(got.get(key).is_some(), "{key} missing: {got}");
    }
    assert_eq!(got["original"]["cards"], 7);
    let text = ok(&["extend", "--K/J-"]);
    assert!(
        text.starts_with("original: --K/J- (leader 1) (7 cards, 2 tricks"),
        "{text}"
    );
}

#[test]
fn trees_sampled_and_exhaustive() {
    let got = json(&["trees", "--samples", "50", "--deck", "2J,2Q,6-", "--json"]);
    for key in [
        "mean",
        "no_cycle_mean",
        "samples",
        "capped",
        "finishing_share",
    ] {
        assert!(got.get(key).is_some(), "{key} missing: {got}");
    }
    assert_eq!(got["samples"], 50);
    assert_eq!(got["no_cycle_mean"], 10.0);
    let again = json(&["trees", "--samples", "50", "--deck", "2J,2Q,6-", "--json"]);
    assert_eq!(got, again, "results depend only on the seed");
    // Every final position: the 10-card cycle's basin (86 positions) is all that cycles.
    let all = json(&["trees", "--all", "--deck", "2J,2Q,6-", "--json"]);
    assert_eq!(all["cycling_positions"], "86");
    assert!(all["mean"].as_f64().unwrap() < 10.0);
}

#[test]
fn bad_input_exits_2() {
    bad(
        &["backward", "--K-Z/J-"],
        "unexpected character 'Z' at position 5",
    );
    bad(
        &["backward", "--K/J-", "--leader", "3"],
        "leader 3 is out of range",
    );
    bad(
        &["backward", "--K/J-", "--penalties", "Z1"],
        "bad --penalties",
    );
    bad(&["basin", "--K/J-", "--limit", "0"], "bad --limit");
    bad(&["basin", &format!("{}/-", "-".repeat(60))], "too large");
    bad(&["extend", "--K---A----AAJ-/J-"], "never ends");
    bad(&["extend", "--K/"], "hand 2 is empty");
    bad(&["trees", "--samples", "0"], "bad --samples");
    bad(
        &["trees", "--samples", "5", "--deck", "bogus"],
        "bad --deck",
    );
    bad(
        &["trees", "--samples", "5", "--players", "11"],
        "2 to 10 players",
    );
    bad(
        &["trees", "--all", "--deck", "standard"],
        "too many final positions",
    );
}
