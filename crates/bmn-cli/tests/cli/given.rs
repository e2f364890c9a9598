//! Given deals (issue 62): `bmn deal --count N` writes a seed's stream a deal a line, and `bmn
//! play --deals FILE` plays a file of deals on the fast kernels, in its order, exactly as `play`
//! plays each one.

use std::collections::BTreeMap;

use serde_json::Value;

use crate::common::{bad, bmn, json, ok, scratch};

/// The world record (Nessler 2022) and the first endless game (Casella et al. 2024).
const RECORD: &str = "---AJ--Q---------QAKQJJ-QK/-----A----KJ-K--------A---";
const CASELLA: &str = "---K---Q-KQAJ-----AAJ--J--/----------Q----KQ-J-----KA";

fn json_lines(text: &str) -> Vec<Value> {
    text.lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect()
}

#[test]
fn deal_count_writes_the_deals_search_and_stats_play() {
    let lines = ok(&["deal", "--seed", "7", "--index", "3", "--count", "5"]);
    let deals: Vec<&str> = lines.lines().collect();
    assert_eq!(deals.len(), 5);
    for (k, deal) in deals.iter().enumerate() {
        let one = ok(&["deal", "--seed", "7", "--index", &(3 + k).to_string()]);
        assert_eq!(one.trim(), *deal, "deal {}", 3 + k);
    }
    // JSON lines: `bmn deal --json` for each.
    let objects = json_lines(&ok(&[
        "deal",
        "--seed",
        "7",
        "--count",
        "4",
        "--balanced",
        "--deck",
        "camicia",
        "--json",
    ]));
    for (k, v) in objects.iter().enumerate() {
        let one = json(&[
            "deal",
            "--seed",
            "7",
            "--index",
            &k.to_string(),
            "--balanced",
            "--deck",
            "camicia",
            "--json",
        ]);
        assert_eq!(*v, one);
    }
    bad(&["deal", "--count", "0"], "bad --count");
    bad(
        &["deal", "--index", "18446744073709551615", "--count", "2"],
        "bad --count",
    );
}

/// `bmn deal --seed S --count N | bmn play --deals - --json` is the seed's games, game for
/// game: the same totals as `bmn stats`, the same longest games as `bmn search`.
#[test]
fn the_stream_played_as_a_file_is_the_search_of_its_seed() {
    let n = 20_000;
    let deals = ok(&["deal", "--seed", "4", "--count", &n.to_string()]);
    let out = bmn(
        &["play", "--deals", "-", "--json", "--threads", "2"],
        Some(&deals),
    );
    assert!(out.status.success(), "{out:?}");
    let games = json_lines(&String::from_utf8(out.stdout).unwrap());
    assert_eq!(games.len(), n);
    let stats = json(&["stats", "--games", &n.to_string(), "--seed", "4", "--json"]);
    let cards: Vec<u64> = games.iter().map(|g| g["cards"].as_u64().unwrap()).collect();
    let mean = cards.iter().sum::<u64>() as f64 / n as f64;
    assert!((mean - stats["mean_cards"].as_f64().unwrap()).abs() < 1e-9);
    assert_eq!(
        Some(*cards.iter().max().unwrap()),
        stats["cards"]["max"].as_u64()
    );
    let mut wins = [0u64; 2];
    for g in &games {
        assert_eq!(g["outcome"], "finished");
        wins[g["winner"].as_u64().unwrap() as usize - 1] += 1;
    }
    assert_eq!(serde_json::json!(wins), stats["wins_by_seat"]);
    let mut by_cards = BTreeMap::new();
    for c in &cards {
        *by_cards.entry(*c as usize).or_insert(0u64) += 1;
    }
    for (c, count) in stats["cards"]["histogram"]
        .as_array()
        .unwrap()
        .iter()
        .enumerate()
    {
        assert_eq!(
            count.as_u64().unwrap(),
            by_cards.get(&c).copied().unwrap_or(0),
            "games of {c} cards"
        );
    }
    let search = json(&[
        "search",
        "--games",
        &n.to_string(),
        "--seed",
        "4",
        "--json",
        "--no-db",
    ]);
    for long in search["longest"].as_array().unwrap() {
        let game = &games[long["index"].as_u64().unwrap() as usize];
        assert_eq!(game["deal"], long["deal"]);
        assert_eq!(game["line"], long["index"].as_u64().unwrap() + 1);
        assert_eq!(game["cards"], long["cards"]);
        assert_eq!(game["tricks"], long["tricks"]);
    }
}

/// The golden records and the endless games, as a file, are what `bmn play` says of each.
#[test]
fn records_and_endless_games_as_a_file_are_their_single_plays() {
    let records = json(&["records", "--json"]);
    let mut deals: Vec<String> = records["records"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| r["leader"].as_u64() == Some(1))
        .map(|r| r["deal"].as_str().unwrap().to_string())
        .collect();
    // Casella's endless game, and its hands swapped (the file is of one deck).
    deals.push(CASELLA.to_string());
    let (a, b) = CASELLA.split_once('/').unwrap();
    deals.push(format!("{b}/{a}"));
    assert!(deals.len() >= 5, "{deals:?}");
    let dir = scratch("given-records");
    let file = dir.join("deals.txt");
    let text = format!(
        "# the records, then endless games\n\n{}\n",
        deals.join("\n")
    );
    std::fs::write(&file, text).unwrap();
    let games = json_lines(&ok(&["play", "--deals", file.to_str().unwrap(), "--json"]));
    assert_eq!(games.len(), deals.len());
    for (i, (game, deal)) in games.iter().zip(&deals).enumerate() {
        assert_eq!(game["line"], i as u64 + 3);
        let mut single = json(&["play", deal, "--json"]);
        let mut game = game.clone();
        for key in ["line", "deal", "leader"] {
            game.as_object_mut().unwrap().remove(key);
        }
        // A cycle's start and representative are `play`'s too.
        single.as_object_mut().unwrap().remove("trace");
        assert_eq!(game, single, "{deal}");
    }
    // The text table: a heading, a line a deal, and the totals.
    let text = ok(&["play", "--deals", file.to_str().unwrap()]);
    assert!(text.starts_with("    line  outcome"), "{text}");
    assert!(
        text.contains("finished       2    8344    1164  ---AJ--Q"),
        "{text}"
    );
    assert!(
        text.contains("cycle          -      34       4  period 62 tricks, 440 cards"),
        "{text}"
    );
    assert!(text.lines().last().unwrap().contains("never end"), "{text}");
}

#[test]
fn a_bad_line_stops_the_file_there_and_names_it() {
    let dir = scratch("given-bad");
    let file = dir.join("deals.txt");
    std::fs::write(&file, format!("{RECORD}\n{CASELLA}\n--Z-/J-\n{RECORD}\n")).unwrap();
    let out = bmn(&["play", "--deals", file.to_str().unwrap(), "--json"], None);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("bad --deals: line 3: "), "{stderr}");
    assert!(stderr.contains("'Z'"), "{stderr}");
    // What came before it is answered; nothing after it.
    let games = json_lines(&String::from_utf8(out.stdout).unwrap());
    assert_eq!(games.len(), 2);

    // A file of two decks, a deal of another deck than --deck: line 1 answered, then the
    // refusal.
    std::fs::write(&file, "--J-/Q---\n--J-/K---\n").unwrap();
    for (extra, says) in [
        (
            &[][..],
            "line 2: the deal holds 1J,1K,6-, the file's first deal 1J,1Q,6-",
        ),
        (&["--deck", "1J,1Q,6-"][..], "bad --deals: line 2: "),
    ] {
        let args = [
            &["play", "--deals", file.to_str().unwrap(), "--json"][..],
            extra,
        ]
        .concat();
        let out = bmn(&args, None);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{stderr}");
        assert!(stderr.contains(says), "{stderr}");
        assert_eq!(json_lines(&String::from_utf8(out.stdout).unwrap()).len(), 1);
    }
    bad(&["play", "--deals", dir.to_str().unwrap()], "is a folder");
    bad(
        &["play", "--deals", "/nonexistent/deals.txt"],
        "bad --deals",
    );
    bad(&["play", RECORD, "--threads", "2"], "--deals");
}

/// `--leader`, `--penalties` (the reference engine's table) and `--give-up` as `play` has them.
#[test]
fn play_options_apply_to_every_deal_of_the_file() {
    let cases: [&[&str]; 3] = [
        &["--leader", "2"],
        &["--penalties", "K3,J2,Q1,A0"],
        &["--give-up", "100"],
    ];
    // A standard deal (the kernels'), and one of three players (the reference engine's).
    for (extra, deal) in cases.iter().flat_map(|e| [(*e, RECORD), (*e, "-A-/--/J-")]) {
        let args = [&["play", "--deals", "-", "--json"][..], extra].concat();
        let out = bmn(&args, Some(&format!("{deal}\n{deal}\n")));
        assert!(out.status.success(), "{out:?}");
        let games = json_lines(&String::from_utf8(out.stdout).unwrap());
        assert_eq!(games.len(), 2);
        for game in &games {
            let single = bmn(&[&["play", deal, "--json"][..], extra].concat(), None);
            if single.status.success() {
                let single: Value = serde_json::from_slice(&single.stdout).unwrap();
                assert_eq!(game["outcome"], single["outcome"], "{extra:?} {deal}");
                assert_eq!(game["cards"], single["cards"], "{extra:?} {deal}");
                assert_eq!(game["winner"], single["winner"], "{extra:?} {deal}");
            } else {
                // `play` gives up with an error; the file says so on the deal's line.
                let stderr = String::from_utf8_lossy(&single.stderr);
                assert!(stderr.contains("gave up"), "{stderr}");
                assert_eq!(game["outcome"], "unresolved", "{extra:?} {deal}");
                let give_up = if extra[0] == "--give-up" {
                    100
                } else {
                    10_000_000
                };
                assert_eq!(game["give_up"], give_up);
            }
        }
    }
}
