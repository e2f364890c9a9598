//! `bmn exhaustive` end to end: the JSON contract, cycles that replay in `bmn play`, shards
//! with checkpoints merged into the unsplit run, resuming, and bad input.

use crate::common::{bad, enumeration_result as result, json};
use serde_json::Value;

#[test]
fn json_contract_and_cycles_that_replay() {
    // 2 J, 2 Q, 6 plain: 1260 deals, among them the golden 10-card cycle.
    let v = json(&[
        "exhaustive",
        "--deck",
        "2J,2Q,6-",
        "--list-cycles",
        "--json",
    ]);
    assert_eq!(v["deals"], 1260);
    assert_eq!(v["complete"], true);
    let (finished, cycling) = (
        v["finished"].as_u64().unwrap(),
        v["cycling_deals"].as_u64().unwrap(),
    );
    assert_eq!(finished + cycling, 1260);
    assert!(cycling > 0);
    let wins = v["wins_by_seat"].as_array().unwrap();
    assert_eq!(
        wins[0].as_u64().unwrap() + wins[1].as_u64().unwrap(),
        finished
    );
    assert!(v["mean_cards"].as_f64().unwrap() > 0.0);
    // The longest game replays exactly.
    let longest = &v["longest"];
    let replay = json(&["play", longest["deal"].as_str().unwrap(), "--json"]);
    assert_eq!(replay["cards"], longest["cards"]);
    assert_eq!(replay["tricks"], longest["tricks"]);
    assert_eq!(replay["winner"], longest["winner"]);
    // Every cycle class adds up, and every cycling deal replays into its cycle.
    let classes = v["distinct_cycle_list"].as_array().unwrap();
    let reached: u64 = classes.iter().map(|c| c["deals"].as_u64().unwrap()).sum();
    assert_eq!(reached, cycling);
    let list = v["cycling_deal_list"].as_array().unwrap();
    assert_eq!(list.len() as u64, cycling);
    // the golden 10-card cycle (a 6/4 deal) is the only cycle of the 5/5 deals.
    let golden = json(&["play", "--Q-J-/Q-J-", "--json"]);
    assert_eq!(classes.len(), 1);
    assert_eq!(classes[0]["cycle_id"], golden["cycle_id"]);
    assert_eq!(classes[0]["period"], golden["period"]);
    for c in list {
        let replay = json(&["play", c["deal"].as_str().unwrap(), "--json"]);
        assert_eq!(replay["outcome"], "cycle");
        assert_eq!(replay["cycle_id"], c["cycle_id"]);
        assert_eq!(replay["preperiod"], c["preperiod"]);
        assert_eq!(replay["period"], c["period"]);
        let class = classes
            .iter()
            .find(|k| k["cycle_id"] == c["cycle_id"])
            .unwrap();
        assert_eq!(class["period"], c["period"]);
        let rep = &class["representative"];
        let rep_leader = rep["leader"].to_string();
        let from_rep = json(&[
            "play",
            rep["deal"].as_str().unwrap(),
            "--leader",
            &rep_leader,
            "--json",
        ]);
        assert_eq!(from_rep["cycle_id"], c["cycle_id"]);
        assert_eq!(
            from_rep["preperiod"]["tricks"], 0,
            "the representative is on the cycle"
        );
    }
}

#[test]
fn shards_with_checkpoints_merge_into_the_unsplit_run() {
    let dir = crate::common::scratch("enumeration-merge");
    let deck = "2J,2Q,2K,2A,4-";
    let whole = json(&["exhaustive", "--deck", deck, "--leader", "2", "--json"]);
    let mut files = Vec::new();
    for i in 1..=3 {
        let file = dir.join(format!("shard{i}.json"));
        let f = file.to_str().unwrap().to_string();
        let shard = format!("{i}/3");
        let run = |extra: &[&str]| {
            let args = [
                "exhaustive",
                "--deck",
                deck,
                "--leader",
                "2",
                "--shard",
                &shard,
                "--checkpoint",
                &f,
                "--json",
            ];
            json(&[&args[..], extra].concat())
        };
        let part = run(&["--threads", "1"]);
        assert_eq!(part["complete"], false, "one shard is not every deal");
        // Run again: the finished checkpoint is resumed, nothing is played twice.
        let again = run(&[]);
        assert_eq!(result(again), result(part));
        files.push(f);
    }
    let mut args = vec!["exhaustive", "--json", "--merge"];
    args.extend(files.iter().map(String::as_str));
    let merged = json(&args);
    assert_eq!(merged["shards"], "1,2,3/3");
    assert_eq!(result(merged), result(whole.clone()));
    // Merging the same shard twice, or shards of another run, is refused.
    bad(
        &["exhaustive", "--merge", &files[0], &files[0]],
        "a shard is given twice",
    );
    let other = dir.join("other.json");
    let o = other.to_str().unwrap();
    json(&[
        "exhaustive",
        "--deck",
        "2J,2Q,6-",
        "--shard",
        "2/3",
        "--checkpoint",
        o,
        "--json",
    ]);
    bad(
        &["exhaustive", "--merge", &files[0], o],
        "not a shard of the same run",
    );
    // A checkpoint of another run is not resumed.
    bad(
        &[
            "exhaustive",
            "--deck",
            deck,
            "--shard",
            "1/3",
            "--checkpoint",
            o,
        ],
        "is of deck 2J,2Q,6- leader 1 shard 2/3",
    );
    // A checkpoint edited by hand is refused (its checksum), as is one that is not JSON.
    let text = std::fs::read_to_string(&files[1]).unwrap();
    let mut state: Value = serde_json::from_str(&text).unwrap();
    state["next_unit"] = 0.into();
    let edited = dir.join("edited.json");
    std::fs::write(&edited, state.to_string()).unwrap();
    bad(
        &["exhaustive", "--merge", &files[0], edited.to_str().unwrap()],
        "corrupt: its checksum does not match",
    );
    std::fs::write(&edited, "{not json").unwrap();
    bad(
        &["exhaustive", "--merge", edited.to_str().unwrap()],
        "not a bmn result file",
    );
    // bmn merge takes the same files.
    let mut args = vec!["merge", "--json"];
    args.extend(files.iter().map(String::as_str));
    assert_eq!(result(json(&args)), result(whole.clone()));
}

#[test]
fn exhaustive_bad_input() {
    for (args, expected) in [
        (
            &["exhaustive", "--deck", "standard"][..],
            "653534134886878245000 deals, more than one run plays",
        ),
        (&["exhaustive", "--deck", "1J"], "has 1 cards"),
        (
            &["exhaustive", "--deck", "2J,2Q,6-", "--shard", "0/3"],
            "i must be from 1 to 3",
        ),
        (
            &["exhaustive", "--deck", "2J,2Q,6-", "--shard", "x"],
            "not of the form i/N",
        ),
        (
            &["exhaustive", "--deck", "2J,2Q,6-", "--leader", "3"],
            "bad --leader: 3, but an enumeration deals to 2 players",
        ),
        (&["exhaustive", "--deck", "2J,2Q,6Z"], "bad --deck"),
        (&["exhaustive"], "--deck"),
    ] {
        bad(args, expected);
    }
}
