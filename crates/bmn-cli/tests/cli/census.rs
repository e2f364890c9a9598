//! `bmn census` at any scale: the census from the result files of a sharded enumeration
//! (`--enumeration`), each cycle's class checked against a direct play of the cycle, the
//! shards' files it refuses, and the dry run (`--plan`).

use std::path::Path;

use bmn_core::{Player, Position, Rules, play_trick};
use serde_json::Value;

use crate::common::{bad, checkpointed, json, kill_when, ok, scratch, without};

/// `bmn exhaustive --list-cycles` in `shards` shards, each into its own result file.
fn shards(dir: &Path, deck: &str, leader: &str, shards: usize, tag: &str) -> Vec<String> {
    (1..=shards)
        .map(|i| {
            let file = dir.join(format!("{tag}-{i}.json"));
            let f = file.to_str().unwrap().to_string();
            let shard = format!("{i}/{shards}");
            ok(&[
                "exhaustive",
                "--deck",
                deck,
                "--leader",
                leader,
                "--list-cycles",
                "--shard",
                &shard,
                "--checkpoint",
                &f,
                "--no-db",
            ]);
            f
        })
        .collect()
}

/// A census report without what depends on the machine or on where the deals came from.
fn census_result(v: &Value) -> Value {
    let mut v = without(v.clone(), &["elapsed_seconds", "completeness"]);
    for run in ["deals", "deals_run"] {
        v[run] = without(v[run].clone(), &["elapsed_seconds", "enumeration_files"]);
    }
    // The longest game as the enumeration dealt it: with player 2 leading, the same game's
    // deal with the hands swapped (or another of its length), so only its length is compared.
    let longest = &v["deals_run"]["longest"];
    v["deals_run"]["longest"] = serde_json::json!([longest["cards"], longest["tricks"]]);
    v
}

/// On three enumerable decks (one of them with an anti-periodic cycle, one whose cycles all
/// split at rest states), the census from a 4-shard enumeration is the census's own `deals`
/// run, deal for deal; a run with player 2 leading gives the same census.
#[test]
fn a_sharded_enumeration_gives_the_census_of_every_deal() {
    let dir = scratch("census-shards");
    for (deck, leader) in [
        ("2J,2Q,2K,14-", "1"),
        ("3J,3Q,3K,8-", "2"),
        ("1J,1Q,1K,1A,14-", "1"),
    ] {
        let files = shards(&dir, deck, leader, 4, &deck.replace(',', ""));
        let mut args = vec!["census", "--methods", "deals", "--json", "--enumeration"];
        args.extend(files.iter().map(String::as_str));
        let sharded = json(&args);
        let own = json(&["census", "--deck", deck, "--methods", "deals", "--json"]);
        assert_eq!(census_result(&sharded), census_result(&own), "{deck}");
        assert_eq!(
            sharded["deals_run"]["enumeration_files"],
            serde_json::json!(files)
        );
        assert_eq!(own["deals_run"]["enumeration_files"], serde_json::json!([]));
        let completeness = sharded["completeness"].as_str().unwrap();
        assert!(
            completeness.starts_with("exact") && completeness.contains("4 shard file(s)"),
            "{completeness}"
        );
        assert!(!sharded["catalogue"].as_array().unwrap().is_empty());
    }
}

/// Each cycle's class, against a direct play of its representative: `min_hand` is the
/// smallest hand over one period; `anti_periodic` holds exactly where the period is even and
/// half of it swaps the hands. The counts are those measured on every cycle of the decks
/// (docs/census.md): Paulhus n = 8 has 20 anti-periodic cycles of 168 and 116 that split at
/// rest states; the one cycle of `2J,2Q,2K,14-` is anti-periodic and does not split.
#[test]
fn each_cycle_s_class_agrees_with_a_direct_play_of_the_cycle() {
    for (deck, cycles, anti, splits) in [
        ("2J,2Q,2K,2A,8-", 168, 20, 116),
        ("2J,2Q,2K,14-", 1, 1, 0),
        ("3J,3Q,3K,8-", 6, 0, 6),
    ] {
        let v = json(&["census", "--deck", deck, "--methods", "deals", "--json"]);
        let catalogue = v["catalogue"].as_array().unwrap();
        assert_eq!(catalogue.len(), cycles, "{deck}");
        let count = |key: &str| catalogue.iter().filter(|c| c[key] == true).count();
        assert_eq!(count("anti_periodic"), anti, "{deck}");
        assert_eq!(count("splits_at_rest_state"), splits, "{deck}");
        for c in catalogue {
            let rep = &c["representative"];
            let (deal, leader) = (
                rep["deal"].as_str().unwrap(),
                rep["leader"].as_u64().unwrap(),
            );
            let start = Position::parse(deal, Player(leader as usize - 1)).unwrap();
            let period = c["period"]["tricks"].as_u64().unwrap();
            let mut p = start.clone();
            let mut smallest = usize::MAX;
            let mut half = None;
            for t in 0..period {
                if 2 * t == period {
                    half = Some(p.clone());
                }
                smallest = smallest.min(p.stacks().iter().map(|s| s.len()).min().unwrap());
                play_trick(&Rules::STANDARD, &mut p);
            }
            assert_eq!(p, start, "{deck}: one period returns to the start");
            let (one, two) = deal.split_once('/').unwrap();
            let swapped =
                Position::parse(&format!("{two}/{one}"), Player(2 - leader as usize)).unwrap();
            assert_eq!(
                c["anti_periodic"],
                half.as_ref() == Some(&swapped),
                "{deck}: {deal}"
            );
            assert_eq!(c["min_hand"], smallest, "{deck}: {deal}");
            if c["splits_at_rest_state"] == true {
                // A rest state lies on the cycle: a player holding only `J-`, the other to lead.
                let mut p = start.clone();
                let rest = (0..period).any(|_| {
                    let at_rest = p.stacks().iter().enumerate().any(|(i, s)| {
                        i != p.leader().index() && s.iter().map(|k| k.symbol()).eq(['J', '-'])
                    });
                    play_trick(&Rules::STANDARD, &mut p);
                    at_rest
                });
                assert!(rest, "{deck}: {deal}");
            }
        }
    }
}

/// What `bmn merge` refuses, `--enumeration` refuses, in one line: a missing shard, a shard of
/// another run or deck, a cut file, an unfinished shard; and so are a run without
/// `--list-cycles`, a search's file, and a table or method that contradicts the files.
#[test]
fn shards_the_census_cannot_use_are_refused_in_one_line() {
    let dir = scratch("census-bad-shards");
    let deck = "2J,2Q,2K,14-";
    let files = shards(&dir, deck, "1", 3, "good");
    let f: Vec<&str> = files.iter().map(String::as_str).collect();
    fn census<'a>(extra: &[&'a str]) -> Vec<&'a str> {
        [&["census", "--methods", "deals", "--enumeration"], extra].concat()
    }
    bad(&census(&[f[0], f[2]]), "a shard is missing");
    bad(&census(&[f[0], f[1]]), "a shard is missing");
    let other_leader = shards(&dir, deck, "2", 3, "leader2");
    bad(
        &census(&[f[0], f[1], &other_leader[2]]),
        "not a shard of the same run",
    );
    let other_deck = shards(&dir, "2J,2Q,2K,13-", "1", 3, "deck13");
    bad(
        &census(&[f[0], f[1], &other_deck[2]]),
        "not a shard of the same run",
    );
    let cut = dir.join("cut.json");
    let text = std::fs::read_to_string(f[2]).unwrap();
    std::fs::write(&cut, &text[..text.len() / 2]).unwrap();
    bad(&census(&[f[0], f[1], cut.to_str().unwrap()]), "truncated");
    let plain = dir.join("plain.json");
    ok(&[
        "exhaustive",
        "--deck",
        deck,
        "--checkpoint",
        plain.to_str().unwrap(),
        "--no-db",
    ]);
    bad(&census(&[plain.to_str().unwrap()]), "without --list-cycles");
    let search = dir.join("search.json");
    ok(&[
        "search",
        "--games",
        "1000",
        "--out",
        search.to_str().unwrap(),
        "--no-db",
    ]);
    bad(
        &census(&[search.to_str().unwrap()]),
        "a search's result file",
    );
    bad(
        &[&census(&f)[..], &["--deck", "camicia"]].concat(),
        "the enumeration files are of deck 2J,2Q,2K,14-",
    );
    bad(
        &[&census(&f)[..], &["--players", "3"]].concat(),
        "the enumeration files are of two players",
    );
    bad(
        &[&["census", "--methods", "hands", "--enumeration"], &f[..]].concat(),
        "--enumeration is the deals method",
    );
    // A shard killed part-way: a valid file, not finished.
    let slow = dir.join("slow-1.json");
    let s = slow.to_str().unwrap();
    let slow_args = [
        "exhaustive",
        "--deck",
        "2J,2Q,2K,2A,10-",
        "--list-cycles",
        "--shard",
        "1/2",
        "--threads",
        "1",
        "--checkpoint",
        s,
        "--no-db",
    ];
    kill_when(&slow_args, "a checkpoint", || checkpointed(&slow));
    bad(&census(&[s]), "is not finished");
}

/// The dry run times a sample and projects every deal: here, on N cores, and on a GPU (the
/// figure recorded for Camicia where no GPU is here; lavapipe is not a GPU).
#[test]
fn the_plan_prices_a_complete_census_before_anything_long_starts() {
    let v = json(&[
        "census", "--deck", "camicia", "--plan", "--cores", "500", "--json",
    ]);
    assert_eq!(v["deck_deals"], "193584473082000");
    assert_eq!(v["cores"], 500);
    let rate = v["deals_per_second"].as_f64().unwrap();
    let seconds = v["seconds"].as_f64().unwrap();
    assert!((seconds * rate / 193_584_473_082_000.0 - 1.0).abs() < 1e-9);
    let gpus = v["gpus"].as_array().unwrap();
    assert!(!gpus.is_empty(), "{v}");
    let text = ok(&["census", "--deck", "camicia", "--plan"]);
    assert!(text.contains("193584473082000 deals"), "{text}");
    assert!(text.contains("on 1000 such cores"), "{text}");
    assert!(text.contains("GPU:"), "{text}");
    bad(&["census", "--cores", "8"], "--plan");
    bad(
        &[
            "census",
            "--deck",
            "2J,1Q,1K,6-",
            "--players",
            "3",
            "--plan",
        ],
        "two-player enumeration",
    );
}
