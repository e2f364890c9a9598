//! `bmn count` (exact deal counts) and `bmn odds` (the record model): output, JSON keys, bad input.

use crate::common::{bad, json, ok};

#[test]
fn count_prints_the_standard_and_paulhus_counts() {
    let text = ok(&["count", "--deck", "standard"]);
    assert!(text.contains("653,534,134,886,878,245,000"), "{text}");
    assert!(text.contains("6.535e20"), "{text}");
    let text = ok(&["count", "--deck", "2J,2Q,2K,2A,16-"]);
    assert!(text.contains("1,853,386,920"), "{text}");
}

#[test]
fn count_json_gives_decimal_strings() {
    let v = json(&["count", "--deck", "standard", "--players", "2", "--json"]);
    assert_eq!(v["deck"], "4J,4Q,4K,4A,36-");
    assert_eq!(v["deck_cards"], 52);
    assert_eq!(v["players"], 2);
    assert_eq!(v["deals"], "653534134886878245000");
    assert_eq!(v["deals_balanced_by_kind"], "15499441446489000000");
    assert_eq!(v["leaders_times_deals"], "1307068269773756490000");
    // Three players: the same deals (the cut is fixed), none balanced (4 J among 3).
    let v = json(&["count", "--players", "3", "--json"]);
    assert_eq!(v["deals"], "653534134886878245000");
    assert_eq!(v["deals_balanced_by_kind"], "0");
    // 104 and 540 cards, past u128.
    let v = json(&["count", "--deck", "2xstandard", "--json"]);
    assert_eq!(v["deals"], "63638185714705576605564248358021063170085000");
    let v = json(&["count", "--deck", "10xstandard+jokers", "--json"]);
    assert_eq!(v["deck_cards"], 540);
    assert_eq!(v["deals"].as_str().unwrap().len(), 268);
}

#[test]
fn count_refuses_bad_tables() {
    bad(&["count", "--deck", "foo"], "bad --deck");
    bad(&["count", "--players", "1"], "bad --players");
    bad(&["count", "--deck", "1J", "--players", "2"], "bad --deck");
}

#[test]
fn odds_with_a_given_model_plays_nothing() {
    let v = json(&[
        "odds", "--mu", "200", "--x0", "335", "--p0", "0.25", "--rate", "1e6", "--games", "1e12",
        "--json",
    ]);
    for key in [
        "mu",
        "x0",
        "p0",
        "fitted",
        "fit",
        "rate",
        "rate_measured",
        "record_spread",
        "expected_records",
        "target_cards",
        "probabilities",
        "games_for_even_chance",
        "seconds_for_even_chance",
        "games_for_expected_record",
        "seconds_for_expected_record",
    ] {
        assert!(v.get(key).is_some(), "{key} missing: {v}");
    }
    assert_eq!(v["fitted"], false);
    assert!(v["fit"].is_null());
    assert_eq!(v["rate_measured"], false);
    assert_eq!(v["target_cards"], 8345);
    let records = v["expected_records"].as_array().unwrap();
    // The published history and --games, by the number of games (issue 64).
    let games: Vec<f64> = records
        .iter()
        .map(|r| r["games"].as_f64().unwrap())
        .collect();
    assert_eq!(games, [3.2e9, 1e12, 1e13, 3.3e15]);
    assert_eq!(records[0]["published_record"], 4791);
    assert!(records[1]["published_record"].is_null());
    assert_eq!(records[2]["published_record"], 7157);
    assert_eq!(records[3]["published_record"], 7959);
    // x0 + mu (gamma + ln(N p0)).
    let expected = 335.0 + 200.0 * (0.577_215_664_901_532_9 + (3.2e9f64 * 0.25).ln());
    let got = records[0]["expected_record"].as_f64().unwrap();
    assert!((got - expected).abs() < 1e-6, "{got} vs {expected}");
    // Chances rise with the games.
    let p: Vec<f64> = v["probabilities"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["probability"].as_f64().unwrap())
        .collect();
    assert!(p.windows(2).all(|w| w[0] <= w[1]), "{p:?}");
    let even = v["games_for_even_chance"].as_f64().unwrap();
    let seconds = v["seconds_for_even_chance"].as_f64().unwrap();
    assert!((seconds * 1e6 / even - 1.0).abs() < 1e-12);
}

#[test]
fn odds_fits_the_model_on_a_short_run() {
    let v = json(&["odds", "--fit-games", "200000", "--threads", "1", "--json"]);
    assert_eq!(v["fitted"], true);
    assert_eq!(v["rate_measured"], true);
    assert_eq!(v["fit"]["games"], 200000);
    // 1e8 games give mu = 205 cards past x0 = 335 (docs/results.md); a short run is close.
    let mu = v["mu"].as_f64().unwrap();
    assert!((180.0..230.0).contains(&mu), "{mu}");
    let p0 = v["p0"].as_f64().unwrap();
    assert!((0.24..0.26).contains(&p0), "{p0}");
    let text = ok(&[
        "odds", "--mu", "205", "--x0", "335", "--p0", "0.25", "--rate", "5e6",
    ]);
    assert!(
        text.contains("Paulhus 1999") && text.contains("8345"),
        "{text}"
    );
}

#[test]
fn odds_refuses_bad_flags() {
    bad(&["odds", "--rate", "0"], "bad --rate");
    bad(
        &["odds", "--mu", "200", "--x0", "335", "--p0", "2"],
        "bad --p0",
    );
    bad(
        &["odds", "--mu=-5", "--x0", "335", "--p0", "0.2"],
        "--mu: -5 is negative",
    );
    bad(&["odds", "--games", "0.5", "--rate", "1"], "bad --games");
    bad(&["odds", "--fit-games", "0"], "bad --fit-games");
    bad(&["odds", "--mu", "200"], "--x0");
}
