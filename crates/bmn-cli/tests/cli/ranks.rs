//! Every deal has a number: `bmn rank` and `bmn unrank` at any size, `#K` and `--rank K` in
//! place of a deal, and the standard deck enumerated block by block with `--from`/`--count`
//! and `--block`, blocks merged into the one range.

use crate::common::{bad, enumeration_result, json, ok, scratch, without};
use serde_json::Value;

const RECORD: &str = "---AJ--Q---------QAKQJJ-QK/-----A----KJ-K--------A---";
const RECORD_RANK: &str = "206287012603312125944";

#[test]
fn rank_and_unrank_at_any_size() {
    let v = json(&["rank", RECORD, "--json"]);
    assert_eq!(v["rank"], RECORD_RANK);
    assert_eq!(v["deals"], "653534134886878245000");
    assert_eq!(v["deck"], "4J,4Q,4K,4A,36-");
    let v = json(&["unrank", RECORD_RANK, "--json"]);
    assert_eq!(v["deal"], RECORD);
    // Rank 0 is the sorted deal, the last the reversed one.
    let v = json(&["unrank", "0", "--json"]);
    assert_eq!(
        v["deal"],
        "--------------------------/----------JJJJQQQQKKKKAAAA"
    );
    let v = json(&["unrank", "653534134886878244999", "--json"]);
    assert_eq!(
        v["deal"],
        "AAAAKKKKQQQQJJJJ----------/--------------------------"
    );
    // Past 2^128: two decks with jokers among four players, and back.
    let big = "1234567890123456789012345678901234567890123456";
    let v = json(&[
        "unrank",
        big,
        "--deck",
        "2xstandard+jokers",
        "--players",
        "4",
        "--json",
    ]);
    assert_eq!(v["players"], 4);
    let deal = v["deal"].as_str().unwrap().to_string();
    let back = json(&["rank", &deal, "--deck", "2xstandard+jokers", "--json"]);
    assert_eq!(back["rank"], big);
    // With player 2 leading, player 1 gets the short half, as in `bmn exhaustive`.
    let v = json(&[
        "unrank", "5", "--deck", "2J,2Q,3-", "--leader", "2", "--json",
    ]);
    assert_eq!(
        v["deal"].as_str().unwrap().split('/').next().unwrap().len(),
        3
    );
    let text = ok(&["rank", RECORD]);
    assert!(
        text.starts_with("rank 206287012603312125944 of the 653534134886878245000 deals"),
        "{text}"
    );
}

#[test]
fn a_number_plays_where_a_deal_does() {
    let by_rank = json(&["play", &format!("#{RECORD_RANK}"), "--json"]);
    assert_eq!(by_rank, json(&["play", RECORD, "--json"]));
    assert_eq!(json(&["play", "--rank", RECORD_RANK, "--json"]), by_rank);
    let v = json(&["play", "#0", "--deck", "2J,2Q,6-", "--json"]);
    assert!(v["outcome"].is_string());
    let v = json(&[
        "extend",
        &format!("#{RECORD_RANK}"),
        "--depth",
        "2",
        "--json",
    ]);
    assert_eq!(v["original"]["cards"], 8344);
}

#[test]
fn bad_numbers_and_deals_are_refused() {
    bad(&["unrank", "653534134886878245000"], "past the last deal");
    bad(&["unrank", "12x"], "<RANK>: '12x' is not a number");
    bad(&["unrank", "-1"], "<RANK>: -1 is negative");
    bad(&["unrank", "3", "--deck", "3Z"], "bad --deck");
    bad(&["unrank", "3", "--leader", "3"], "bad --leader");
    bad(
        &["rank", "--K/J-", "--deck", "standard"],
        "do not match deck",
    );
    bad(
        &["rank", "--K--/J-"],
        "player 1 holds 5 cards, but a deal of 7 cards",
    );
    bad(&["play", "#99999999999999999999999"], "past the last deal");
    bad(&["play", "#x"], "bad rank 'x'");
    bad(&["play", "--rank", "1", "--Q-/J"], "cannot be used");
}

/// The ranks of `bmn exhaustive`'s small decks are `bmn rank`'s.
#[test]
fn enumeration_indices_are_ranks() {
    let v = json(&[
        "exhaustive",
        "--deck",
        "2J,2Q,6-",
        "--list-cycles",
        "--no-db",
        "--json",
    ]);
    for c in v["cycling_deal_list"].as_array().unwrap().iter().take(20) {
        let r = json(&["rank", c["deal"].as_str().unwrap(), "--json"]);
        assert_eq!(r["rank"], c["index"].to_string());
    }
    let v = json(&[
        "exhaustive",
        "--deck",
        "2J,2Q,6-",
        "--leader",
        "2",
        "--no-db",
        "--json",
    ]);
    let longest = &v["longest"];
    let r = json(&[
        "rank",
        longest["deal"].as_str().unwrap(),
        "--leader",
        "2",
        "--json",
    ]);
    assert_eq!(r["rank"], longest["index"].to_string());
}

/// An enumeration's result, less how much of the whole range a block did.
fn result(v: Value) -> Value {
    without(enumeration_result(v), &["range_done"])
}

#[test]
fn blocks_of_the_standard_deck_merge_into_the_one_range() {
    let dir = scratch("blocks");
    let (a, b, c) = (dir.join("a.json"), dir.join("b.json"), dir.join("c.json"));
    let p = |f: &std::path::Path| f.to_str().unwrap().to_string();
    let run = |from: &str, count: &str, file: &str| {
        json(&[
            "exhaustive",
            "--deck",
            "standard",
            "--from",
            from,
            "--count",
            count,
            "--checkpoint",
            file,
            "--no-db",
            "--json",
        ])
    };
    let first = "206287012603312000000";
    let one = json(&[
        "exhaustive",
        "--deck",
        "standard",
        "--from",
        first,
        "--count",
        "200000",
        "--list-cycles",
        "--no-db",
        "--json",
    ]);
    let v = run(first, "100000", &p(&a));
    assert_eq!(
        (v["first_rank"].as_str(), v["end_rank"].as_str()),
        (Some(first), Some("206287012603312100000"))
    );
    assert_eq!(v["complete"], false);
    run("206287012603312100000", "100000", &p(&b));
    run("206287012603312300000", "100000", &p(&c));
    let merged = json(&["merge", &p(&b), &p(&a), "--json"]);
    assert_eq!(merged["first_rank"], first);
    assert_eq!(merged["end_rank"], "206287012603312200000");
    assert_eq!(merged["deals"], 200000);
    let one = without(one, &["cycling_deal_list"]);
    assert_eq!(result(merged), result(one.clone()));
    assert_eq!(one["longest"]["cards"], 8344);
    // A missing block is a gap.
    bad(&["merge", &p(&a), &p(&c)], "leave a gap");
    // `--block` names ranks B*M..(B+1)*M.
    let v = json(&[
        "exhaustive",
        "--deck",
        "standard",
        "--block",
        "2",
        "--block-size",
        "50000",
        "--no-db",
        "--json",
    ]);
    assert_eq!(
        (v["first_rank"].as_str(), v["end_rank"].as_str()),
        (Some("100000"), Some("150000"))
    );
    bad(
        &["exhaustive", "--deck", "standard", "--no-db"],
        "more than one run plays",
    );
    bad(
        &["exhaustive", "--deck", "standard", "--from", "x", "--no-db"],
        "--from: 'x' is not a number",
    );
    bad(
        &[
            "exhaustive",
            "--deck",
            "2J,2Q,6-",
            "--from",
            "1260",
            "--no-db",
        ],
        "past the last deal",
    );
    bad(
        &[
            "exhaustive",
            "--deck",
            "2J,2Q,6-",
            "--count",
            "2000",
            "--no-db",
        ],
        "hold only 1260 deals",
    );
    bad(
        &[
            "exhaustive",
            "--deck",
            "2J,2Q,6-",
            "--count",
            "0",
            "--no-db",
        ],
        "bad --count",
    );
    bad(
        &[
            "exhaustive",
            "--deck",
            "standard",
            "--block",
            "1",
            "--from",
            "3",
            "--no-db",
        ],
        "cannot be used",
    );
    bad(
        &[
            "exhaustive",
            "--deck",
            "2J,2Q,6-",
            "--block",
            "2",
            "--block-size",
            "1000",
            "--no-db",
        ],
        "blocks of 1000 deals end at block 1",
    );
}
