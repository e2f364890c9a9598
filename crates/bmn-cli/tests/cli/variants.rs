//! Every table: `--players`, `--deck`, `--penalties`, `--on-empty` on the commands that play;
//! `bmn deal`; `bmn stats` and the plots. Full games below were worked by hand from docs/rules.md.

use crate::common::{bad, json, ok, words};
use serde_json::Value;

/// `(winner, cards, tricks)` of `bmn play --json` with extra flags.
#[track_caller]
fn played(deal: &str, flags: &[&str]) -> (u64, u64, u64) {
    let mut args = vec!["play", deal, "--json"];
    args.extend(flags);
    let v = json(&args);
    assert_eq!(v["outcome"], "finished", "{v}");
    let n = |k: &str| v[k].as_u64().unwrap();
    (n("winner"), n("cards"), n("tricks"))
}

/// The deals of a `--trace` as text, leader included.
fn trace(deal: &str, flags: &[&str]) -> Vec<String> {
    let mut args = vec!["play", deal, "--json", "--trace"];
    args.extend(flags);
    json(&args)["trace"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| format!("{} ({})", p["deal"].as_str().unwrap(), p["leader"]))
        .collect()
}

#[test]
fn three_and_four_players_by_hand() {
    // 1 -, 2 -, 3 -, 1 J; 2 pays -: 1 takes all 5 cards in one trick.
    assert_eq!(played("-J/--/-", &["--players", "3"]), (1, 5, 1));
    // 1 -, 2 -, 3 -, 4 A; 1 is out; 2 pays - and is out; 3 pays - and is out: 4 takes all.
    assert_eq!(played("-/--/--/A", &[]), (4, 6, 1));
    // A joker owes five: 2 pays five plain cards.
    assert_eq!(played("X/-----", &["--deck", "1X,5-"]), (1, 6, 1));
}

#[test]
fn a_zero_penalty_card_takes_the_pile_at_once() {
    // Knocking Dolly (K3 J2 Q1 A0). Trick 1: 1 lays A and takes it. Trick 2: 1 -, 2 -, 1 A:
    // 1 takes - - A. Trick 3: 1 -, 2 - (its last), 1 -, 2 cannot play: 1 takes the pile.
    let dolly = ["--penalties", "K3,J2,Q1,A0"];
    assert_eq!(played("A-/--", &dolly), (1, 7, 3));
    assert_eq!(
        trace("A-/--", &dolly),
        ["A-/-- (1)", "-A/-- (1)", "--A/- (1)", "A---/ (1)"]
    );
    // Under the standard table the same deal is a different game.
    assert_ne!(played("A-/--", &[]), (1, 7, 3));
}

#[test]
fn running_out_while_paying_under_both_rules() {
    // Trick 1: 1 lays K; 2 pays - and runs out.
    // pass: the 2 cards still owed pass to 3, who pays - -; 1 takes K - - -.
    // collect: 1 takes K - at once.
    assert_eq!(
        trace("K/-/---", &["--on-empty", "pass"]),
        ["K/-/--- (1)", "K---//- (1)", "---K-// (1)"]
    );
    assert_eq!(
        trace("K/-/---", &["--on-empty", "collect"]),
        ["K/-/--- (1)", "K-//--- (1)", "-K---// (1)"]
    );
    // Two players: the rule does not matter.
    for rule in ["pass", "collect"] {
        assert_eq!(played("K-/--", &["--on-empty", rule]), (1, 3, 1));
    }
}

#[test]
fn deal_is_round_robin_reproducible_and_playable() {
    let v = json(&["deal", "--players", "3", "--seed", "9", "--json"]);
    assert_eq!(v["hand_sizes"], serde_json::json!([18, 17, 17]));
    assert_eq!(v["leader"], 1);
    let deal = v["deal"].as_str().unwrap();
    // The same seed deals the same; the text alone on stdout plays as it is.
    assert_eq!(ok(&["deal", "--players", "3", "--seed", "9"]).trim(), deal);
    ok(&["play", deal, "--deck", "standard", "--players", "3"]);
    // Balanced with four players: one of each face per hand.
    let v = json(&words("deal --players 4 --balanced --seed 2 --json"));
    for hand in v["deal"].as_str().unwrap().split('/') {
        assert_eq!(hand.len(), 13);
        for face in ['J', 'Q', 'K', 'A'] {
            assert_eq!(hand.matches(face).count(), 1, "{hand}");
        }
    }
    // Camicia: 40 cards, 20 each.
    let v = json(&["deal", "--deck", "camicia", "--seed", "1", "--json"]);
    assert_eq!(v["hand_sizes"], serde_json::json!([20, 20]));
    // Two decks for six players.
    let v = json(&words("deal --deck 2xstandard --players 6 --seed 1 --json"));
    assert_eq!(v["hand_sizes"], serde_json::json!([18, 18, 17, 17, 17, 17]));
}

#[test]
fn deal_k_is_the_game_search_plays_as_game_k() {
    let s = json(&[
        "search", "--games", "3", "--top", "3", "--seed", "77", "--json",
    ]);
    for found in s["longest"].as_array().unwrap() {
        let index = found["index"].as_u64().unwrap().to_string();
        let d = json(&["deal", "--seed", "77", "--index", &index, "--json"]);
        assert_eq!(d["deal"], found["deal"]);
    }
}

fn stats(flags: &[&str]) -> Value {
    let mut args = vec!["stats", "--json"];
    args.extend(flags);
    json(&args)
}

#[test]
fn stats_reports_every_figure_and_does_not_depend_on_threads() {
    let one = stats(&["--games", "40000", "--threads", "1", "--seed", "5"]);
    let two = stats(&["--games", "40000", "--threads", "2", "--seed", "5"]);
    for key in [
        "mean_cards",
        "median_cards",
        "mean_tricks",
        "cards",
        "tricks",
        "tail",
        "win_share_by_seat",
        "win_share_ci95",
        "never_end_share",
        "cycling_games",
    ] {
        assert_eq!(one[key], two[key], "{key}");
    }
    assert!(one["games_per_second"].as_f64().unwrap() > 0.0);
    assert_eq!(one["games"], 40000);
    let mean = one["mean_cards"].as_f64().unwrap();
    assert!((240.0..270.0).contains(&mean), "{mean}");
    let half_life = one["tail"]["half_life_tricks"].as_f64().unwrap();
    assert!((15.0..25.0).contains(&half_life), "{half_life}");
    let shares = one["win_share_by_seat"].as_array().unwrap();
    assert_eq!(shares.len(), 2);
    let ci = &one["win_share_ci95"][0];
    let share = shares[0].as_f64().unwrap();
    assert!(ci[0].as_f64().unwrap() < share && share < ci[1].as_f64().unwrap());
    let p = &one["cards"]["percentiles"];
    assert!(p["p10"].as_u64() < p["p50"].as_u64() && p["p50"].as_u64() < p["p90"].as_u64());
    assert_eq!(p["p50"], one["median_cards"]);
}

#[test]
fn stats_with_more_players_use_the_reference_engine() {
    let v = stats(&["--games", "3000", "--players", "4", "--seed", "3"]);
    assert_eq!(v["engine"], "reference");
    assert_eq!(v["win_share_by_seat"].as_array().unwrap().len(), 4);
    let mean = v["mean_cards"].as_f64().unwrap();
    assert!((330.0..400.0).contains(&mean), "{mean}");
    let text = ok(&words("stats --games 500 --players 3 --on-empty collect"));
    assert!(text.contains("on-empty collect"), "{text}");
}

#[test]
fn stats_give_up_on_games_that_neither_end_nor_repeat() {
    // Knocking Dolly on a standard deck: most games run on for thousands of tricks.
    let v = stats(&[
        "--games",
        "20",
        "--penalties",
        "K3,J2,Q1,A0",
        "--give-up",
        "2000",
    ]);
    let unresolved = v["unresolved_games"].as_u64().unwrap();
    assert!(unresolved > 0);
    assert_eq!(
        v["finished"].as_u64().unwrap() + v["cycling_games"].as_u64().unwrap() + unresolved,
        20
    );
}

#[test]
fn search_plays_any_table() {
    let v = json(&words(
        "search --games 2000 --players 3 --deck camicia --json",
    ));
    assert_eq!(v["engine"], "reference");
    assert_eq!(v["wins_by_seat"].as_array().unwrap().len(), 3);
    assert_eq!(v["players"], 3);
}

#[test]
fn plots_are_written() {
    let dir = crate::common::scratch("plots");
    let lengths = dir.join("lengths.svg");
    let text = ok(&[
        "stats",
        "--games",
        "20000",
        "--plot",
        lengths.to_str().unwrap(),
    ]);
    assert!(text.contains("balanced"), "{text}");
    let stacks = dir.join("stacks.png");
    ok(&[
        "play",
        "---AJ--Q---------QAKQJJ-QK/-----A----KJ-K--------A---",
        "--plot",
        stacks.to_str().unwrap(),
    ]);
    for f in [&lengths, &stacks] {
        assert!(std::fs::metadata(f).unwrap().len() > 1000, "{f:?}");
    }
}

#[test]
fn bad_tables_are_named() {
    bad(&["deal", "--players", "11"], "--players");
    bad(&["deal", "--players", "1"], "--players");
    bad(&["deal", "--deck", "3Z"], "--deck");
    bad(&["deal", "--players", "3", "--balanced"], "--balanced");
    bad(
        &["stats", "--games", "10", "--plot", "x.gif"],
        ".svg or .png",
    );
    bad(&["stats", "--games", "0"], "--games");
    bad(&["play", "--J/J-", "--players", "3"], "--players 3");
    bad(
        &words("search --games 10 --deck 1J,1Q --players 3"),
        "--deck",
    );
}
