//! `bmn climb` and `bmn pieces factory` from the outside: results that are a function of the
//! seed whatever the threads, a killed climb resumed to the same result, starts from deals and
//! files, the factory against the exhaustive enumeration, and bad input named.

use std::collections::BTreeMap;
use std::path::Path;

use crate::common::{bad, bmn, json, kill_when, recorded, without, words};
use serde_json::Value;

fn p(path: &Path) -> &str {
    path.to_str().unwrap()
}

/// A climb report without what depends on the machine or the way it was run (the trajectory's
/// `seconds` included).
fn result(v: Value) -> Value {
    let mut v = without(
        v,
        &[
            "elapsed_seconds",
            "evals_per_second",
            "threads",
            "kernel",
            "engine",
            "interrupted",
        ],
    );
    for point in v["trajectory"].as_array_mut().unwrap() {
        point.as_object_mut().unwrap().remove("seconds");
    }
    v
}

/// The record deal of the fixtures (8344 cards, 1164 tricks).
const RECORD: &str = "---AJ--Q---------QAKQJJ-QK/-----A----KJ-K--------A---";

#[test]
fn a_climb_is_a_function_of_its_seed_whatever_the_threads() {
    let run = |threads: &str| {
        json(&[
            "climb",
            "--evals",
            "300000",
            "--seed",
            "5",
            "--threads",
            threads,
            "--no-db",
            "--json",
        ])
    };
    let one = run("1");
    let two = run("2");
    assert_eq!(result(one.clone()), result(two));
    // Whole rounds of 16 walkers x 32 neighbours, after the walkers' 16 starting deals.
    assert_eq!(one["rounds"], 300000u64.div_ceil(512));
    assert_eq!(one["evals"], 16 + 512 * 300000u64.div_ceil(512));
    // The best game is what `bmn play` (the reference engine) says of its deal.
    let best = &one["best"];
    let played = json(&["play", best["deal"].as_str().unwrap(), "--json"]);
    assert_eq!(played["cards"], best["cards"]);
    assert_eq!(played["tricks"], best["tricks"]);
    // The longest games are distinct and longest first, the best among them.
    let longest: Vec<u64> = one["longest"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["cards"].as_u64().unwrap())
        .collect();
    assert_eq!(longest.len(), 10);
    assert!(longest.windows(2).all(|w| w[0] >= w[1]));
    assert_eq!(longest[0], best["cards"].as_u64().unwrap());
    // Each new best is longer than the last.
    let trajectory: Vec<u64> = one["trajectory"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["cards"].as_u64().unwrap())
        .collect();
    assert!(trajectory.windows(2).all(|w| w[0] < w[1]));
    assert_eq!(*trajectory.last().unwrap(), longest[0]);
    // Another seed climbs elsewhere.
    let other = json(&[
        "climb", "--evals", "300000", "--seed", "6", "--no-db", "--json",
    ]);
    assert_ne!(other["best"]["deal"], one["best"]["deal"]);
}

#[test]
fn a_killed_climb_resumes_from_the_database_to_the_same_result() {
    let dir = crate::common::scratch("climb-kill");
    let db = dir.join("runs.sqlite");
    let args = words("climb --evals 4000000 --seed 3 --walkers 8 --json");
    let killed = [&args[..], &["--threads", "1", "--db", p(&db)]].concat();
    kill_when(&killed, "a recorded round", || recorded(&db));
    let resume = [&args[..], &["--threads", "2", "--db", p(&db), "--resume"]].concat();
    let out = bmn(&resume, None);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(stderr.contains("resuming at round "), "{stderr}");
    assert!(!stderr.contains("resuming at round 0 "), "{stderr}");
    let resumed: Value = serde_json::from_slice(&out.stdout).unwrap();
    let whole = json(&[&args[..], &["--no-db"]].concat());
    assert_eq!(result(resumed), result(whole));
    bad(
        &["climb", "--evals", "777", "--db", p(&db), "--resume"],
        "holds no run with these parameters",
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A climb recorded by an older bmn (a `bmn-climb-1` row: its state beside a search's empty
/// summary) is refused by name on `--resume`, not misread nor said not to exist.
#[test]
fn a_climb_of_an_older_format_is_refused_on_resume() {
    let dir = crate::common::scratch("climb-old-format");
    let db = dir.join("runs.sqlite");
    let args = words("climb --evals 64 --walkers 2 --neighbours 2");
    let first = bmn(&[&args[..], &["--db", p(&db)]].concat(), None);
    assert!(first.status.success());
    let conn = rusqlite::Connection::open(&db).unwrap();
    let file: String = conn
        .query_row("SELECT file FROM runs", [], |r| r.get(0))
        .unwrap();
    assert!(file.starts_with(r#"{"format":"bmn-climb-2""#), "{file}");
    conn.execute(
        "UPDATE runs SET format = 'bmn-climb-1', file = replace(file, 'bmn-climb-2', 'bmn-climb-1')",
        [],
    )
    .unwrap();
    drop(conn);
    bad(
        &[&args[..], &["--db", p(&db), "--resume"]].concat(),
        ": a bmn-climb-1 file, not bmn-climb-2",
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_climb_starts_from_given_deals_files_and_search_reports() {
    // From the record: nothing shorter can be the best.
    let v = json(&[
        "climb",
        "--start",
        RECORD,
        "--evals",
        "2000",
        "--walkers",
        "2",
        "--no-db",
        "--json",
    ]);
    assert!(
        v["best"]["cards"].as_u64().unwrap() >= 8344,
        "{}",
        v["best"]
    );
    // From a file of deals and from a search report (its longest games).
    let dir = crate::common::scratch("climb-start");
    let list = dir.join("deals.txt");
    std::fs::write(&list, format!("# the record\n{RECORD}\n")).unwrap();
    let v = json(&[
        "climb",
        "--start",
        p(&list),
        "--evals",
        "2000",
        "--no-db",
        "--json",
    ]);
    assert!(v["best"]["cards"].as_u64().unwrap() >= 8344);
    let report = dir.join("search.json");
    let search = bmn(
        &["search", "--games", "20000", "--seed", "4", "--json"],
        None,
    );
    std::fs::write(&report, &search.stdout).unwrap();
    let found: Value = serde_json::from_slice(&search.stdout).unwrap();
    let v = json(&[
        "climb",
        "--start",
        p(&report),
        "--evals",
        "2000",
        "--no-db",
        "--json",
    ]);
    assert!(v["best"]["cards"].as_u64().unwrap() >= found["longest"][0]["cards"].as_u64().unwrap());
    // Balanced climbs keep both hands' kinds equal.
    let v = json(&words(
        "climb --balanced --evals 20000 --by tricks --no-db --json",
    ));
    let deal = v["best"]["deal"].as_str().unwrap();
    let (a, b) = deal.split_once('/').unwrap();
    let kinds = |h: &str| {
        let mut c: Vec<char> = h.chars().collect();
        c.sort_unstable();
        c
    };
    assert_eq!(kinds(a), kinds(b), "{deal}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_climb_names_bad_input() {
    for (args, why) in [
        ("--moves transfer", "transfer changes the hands' sizes"),
        ("--moves jump", "bad --moves"),
        ("--accept greedy", "bad --accept 'greedy'"),
        ("--by time", "bad --by 'time'"),
        ("--evals 0", "bad --evals"),
        ("--walkers 0", "bad --walkers: must be at least 1"),
        ("--cooling 1.5", "cooling factor"),
        ("--start AAAAA/", "hand 2 is empty"),
        ("--start ./nothing.txt", "no such file"),
        ("--start JQKA/JQKA", "the cards do not match"),
    ] {
        bad(&[&["climb"], &words(args)[..], &["--no-db"]].concat(), why);
    }
    // A 25/27 deal of the standard deck is a deal, but not one a climb keeps.
    let short = &RECORD.replacen("/-", "-/", 1);
    bad(&["climb", "--start", short, "--no-db"], "26/26");
    bad(
        &["climb", "--balanced", "--start", RECORD, "--no-db"],
        "both hands hold the same kinds",
    );
}

/// Cycle id -> number of deals, from an enumeration's or the factory's JSON.
fn cycle_deals(list: &Value, count_key: &str) -> BTreeMap<String, u64> {
    list.as_array()
        .unwrap()
        .iter()
        .map(|c| {
            (
                c["cycle_id"].as_str().unwrap().to_string(),
                c[count_key].as_u64().unwrap(),
            )
        })
        .collect()
}

#[test]
fn the_factory_finds_every_cycle_the_enumeration_finds() {
    // Paulhus's deck with 6 plain cards: 1260 cycling deals on 18 cycles (Table 1). The
    // factory, from a seeded random search and backward play, must reach every one of them and
    // count exactly the enumeration's deals on each, whatever the threads.
    let deck = "2J,2Q,2K,2A,6-";
    let enumeration = json(&["exhaustive", "--deck", deck, "--no-db", "--json"]);
    let run = |threads: &str| {
        json(&[
            "pieces",
            "factory",
            "--deck",
            deck,
            "--rounds",
            "10",
            "--seeds",
            "50",
            "--threads",
            threads,
            "--json",
        ])
    };
    let factory = run("1");
    assert_eq!(factory["seeds_from"], "search");
    assert_eq!(factory["balanced_deals"], 1260);
    assert_eq!(
        factory["balanced_cycles"],
        enumeration["distinct_cycle_count"]
    );
    assert_eq!(
        cycle_deals(&factory["catalogue"], "balanced_deals"),
        cycle_deals(&enumeration["distinct_cycle_list"], "deals")
    );
    for c in factory["catalogue"].as_array().unwrap() {
        assert_eq!(c["basin_complete"], true);
        // Every example never ends, on the reference engine, on its cycle.
        let played = json(&["play", c["example"].as_str().unwrap(), "--json"]);
        assert_eq!(played["outcome"], "cycle", "{played}");
    }
    assert_eq!(
        without(factory, &["elapsed_seconds"]),
        without(run("2"), &["elapsed_seconds"])
    );
}

/// The catalogues in docs/catalogue are what the factory prints, cycle for cycle.
#[test]
#[ignore = "slow (minutes): `cargo test -- --include-ignored` runs it"]
fn the_catalogue_files_are_the_factory_s_output() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/catalogue");
    for (n, rounds, seeds) in [("6", "10", "50"), ("8", "50", "200"), ("10", "50", "200")] {
        let text = std::fs::read_to_string(format!("{dir}/paulhus-{n}.json")).unwrap();
        let file: serde_json::Value = serde_json::from_str(&text).unwrap();
        let deck = format!("2J,2Q,2K,2A,{n}-");
        let run = json(&[
            "pieces", "factory", "--deck", &deck, "--rounds", rounds, "--seeds", seeds, "--json",
        ]);
        let run = without(run, &["elapsed_seconds"]);
        assert_eq!(run, file, "docs/catalogue/paulhus-{n}.json");
    }
    // Camicia, by the default command (about a minute: the pair completions' searches); every
    // balanced deal of the file is replayed on the reference engine.
    let text = std::fs::read_to_string(format!("{dir}/camicia.json")).unwrap();
    let file: serde_json::Value = serde_json::from_str(&text).unwrap();
    let run = json(&["pieces", "factory", "--deck", "camicia", "--json"]);
    assert_eq!(
        without(run, &["elapsed_seconds"]),
        file,
        "docs/catalogue/camicia.json"
    );
    assert_eq!(file["balanced_cycles"], 6);
    for c in file["catalogue"].as_array().unwrap() {
        let deal = c["example"].as_str().unwrap();
        let played = json(&["play", "--deck", "camicia", deal, "--json"]);
        assert_eq!(played["cycle_id"], c["cycle_id"], "{played}");
    }
}

#[test]
fn the_factory_on_the_standard_deck_starts_from_pieces() {
    let v = json(&words(
        "pieces factory --rounds 2 --seeds 4 --walkers 4 --neighbours 8 --complete none --json",
    ));
    assert_eq!(v["seeds_from"], "pieces");
    assert_eq!(v["completion"], serde_json::Value::Null);
    assert_eq!(v["deck"], "4J,4Q,4K,4A,36-");
    assert_eq!(v["rounds"], 2);
    assert!(v["distinct_cycle_count"].as_u64().unwrap() >= 1);
    assert_eq!(v["closest"].as_array().unwrap().len(), 3);
}

/// With no composition given, the factory fills the test template: it derives the cards of
/// the missing piece, finds Casella et al.'s 31-card piece, grows new long pieces from its
/// forms' first cards up to player 2's high water, and reaches balanced deals that never end
/// on twelve 62-trick cycles. The run is `docs/catalogue/standard.json`, and every example is
/// replayed on the reference engine. About two minutes on two cores, most of it the searches.
#[test]
#[ignore = "slow (minutes): `cargo test -- --include-ignored` runs it"]
fn the_factory_fills_the_template_and_reaches_balanced_deals() {
    let v = json(&["pieces", "factory", "--json"]);
    assert_eq!(v["completion"]["composition"], "Q4,K3,A1,-23");
    assert_eq!(
        v["completion"]["pieces"],
        serde_json::json!(["--------K---------Q-Q-K---Q-KAQ"])
    );
    assert!(
        v["grow_prefixes"]
            .as_array()
            .unwrap()
            .contains(&serde_json::json!("--------K---------Q-"))
    );
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/catalogue");
    let text = std::fs::read_to_string(format!("{dir}/standard.json")).unwrap();
    let file: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(
        without(v.clone(), &["elapsed_seconds"]),
        file,
        "docs/catalogue/standard.json"
    );
    assert_eq!(v["balanced_cycles"], 12, "{v}");
    for c in v["catalogue"].as_array().unwrap() {
        assert_eq!(c["period"]["tricks"], 62);
        let deal = c["example"].as_str().unwrap();
        let hands: Vec<usize> = deal.split('/').map(str::len).collect();
        assert_eq!(hands, [26, 26], "{deal}");
        let played = json(&["play", deal, "--json"]);
        assert_eq!(played["outcome"], "cycle", "{played}");
        assert_eq!(played["cycle_id"], c["cycle_id"], "{played}");
    }
}

/// `--pool FILE` keeps the pieces, which no seed changes: a run of another seed from the file
/// is that seed's run, and a file of other settings, of something else, or at a table that
/// starts from a random search, is refused before any work.
#[test]
fn the_factory_keeps_its_pieces_for_any_seed() {
    let dir = crate::common::scratch("factory-pool");
    let pool = dir.join("pool.json");
    let args = |seed: &str, pool: Option<&Path>| {
        let mut a = vec![
            "pieces",
            "factory",
            "--rounds",
            "1",
            "--seeds",
            "4",
            "--walkers",
            "4",
            "--neighbours",
            "8",
            "--complete",
            "none",
            "--seed",
            seed,
            "--json",
        ];
        if let Some(pool) = pool {
            a.extend(["--pool", p(pool)]);
        }
        let run = json(&a);
        without(run, &["elapsed_seconds"])
    };
    let first = args("1", Some(&pool));
    assert!(pool.exists(), "the pieces are kept");
    assert_eq!(first, args("1", None));
    let kept = std::fs::read_to_string(&pool).unwrap();
    assert_eq!(args("2", Some(&pool)), args("2", None));
    assert_eq!(
        std::fs::read_to_string(&pool).unwrap(),
        kept,
        "nothing left to search"
    );
    bad(
        &[
            "pieces",
            "factory",
            "--complete",
            "template",
            "--pool",
            p(&pool),
        ],
        "its pieces were searched with other settings (this run's complete",
    );
    let other = dir.join("other.json");
    std::fs::write(&other, "{}").unwrap();
    bad(
        &["pieces", "factory", "--pool", p(&other)],
        "not a factory's pieces file",
    );
    bad(
        &[
            "pieces",
            "factory",
            "--deck",
            "2J,2Q,2K,2A,6-",
            "--pool",
            p(&pool),
        ],
        "bad --pool: this table's starting games come from a random search",
    );
    bad(&["pieces", "factory", "--pool", p(&dir)], "bad --pool");
}

#[test]
fn the_factory_names_bad_input() {
    bad(&["pieces", "factory", "--rounds", "0"], "bad --rounds");
    bad(&["pieces", "factory", "--moves", "jump"], "bad --moves");
    bad(&["pieces", "factory", "--players", "11"], "--players");
    bad(&["pieces", "factory", "--deck", "5Z"], "bad --deck");
    bad(
        &["pieces", "factory", "--complete", "all"],
        "bad --complete 'all'",
    );
    bad(
        &words("pieces factory --deck 2J,2Q,2K,2A,6- --complete template"),
        "pieces fill two-player decks of four jacks",
    );
    bad(
        &words("pieces factory --deck camicia --complete template"),
        "does not fit in the deck 4J,4Q,4K,28-",
    );
    bad(
        &["pieces", "factory", "--complete-max-len", "20"],
        "bad --complete-max-len",
    );
}

/// `bmn census` on the decks that can be enumerated: every deal played (`deals`) is the truth,
/// and the small-hand enumeration (`hands`) reaches every cycle with balanced deals and every
/// deal on it (at most two cards in hand; three on the one deck measured to need it). Each
/// census's counts equal the published or fixed ones.
#[test]
fn the_census_reaches_every_cycle_of_the_enumerable_decks() {
    let golden = bmn_golden::load();
    let paulhus = |n: u32| {
        golden
            .paulhus_table1
            .iter()
            .find(|r| r.plain == n)
            .map(|r| r.cycling_deals)
            .unwrap()
    };
    let decks: Vec<(String, &str, u64)> = vec![
        ("2J,2Q,2K,2A,6-".into(), "2", paulhus(6)),
        ("2J,2Q,2K,2A,8-".into(), "2", paulhus(8)),
        ("2J,2Q,2K,2A,10-".into(), "2", paulhus(10)),
        (
            golden.camicia_half_deck.deck.clone(),
            "2",
            golden.camicia_half_deck.cycling_deals,
        ),
        ("1J,1Q,1K,1A,14-".into(), "2", 14),
        ("3J,3Q,3K,8-".into(), "2", 160),
        ("2J,2Q,2K,13-".into(), "3", 27),
    ];
    for (deck, hands, cycling) in &decks {
        let v = json(&[
            "census",
            "--deck",
            deck,
            "--methods",
            "hands,deals",
            "--hands",
            hands,
            "--json",
        ]);
        assert_eq!(v["deals_run"]["cycling_deals"], *cycling, "{deck}");
        assert_eq!(v["balanced_deals"], *cycling, "{deck}");
        let r = &v["recall"]["hands"];
        assert_eq!(r["cycles_found"], r["enumerated_cycles"], "{deck}: {r}");
        assert_eq!(r["deals_found"], *cycling, "{deck}: {r}");
        assert_eq!(v["hands_run"]["complete"], true);
        assert!(v["completeness"].as_str().unwrap().starts_with("exact"));
        for c in v["catalogue"].as_array().unwrap() {
            assert_eq!(
                c["found_by"],
                serde_json::json!(["deals", "hands"]),
                "{deck}"
            );
            assert_eq!(
                c["balanced_deals"],
                c["balanced_deal_list"].as_array().unwrap().len()
            );
        }
    }
    // Three players: every deal on the reference engine, and the factory's random cycling
    // deals and walks reach both cycles.
    let v = json(&words("census --deck 2J,1Q,1K,6- --players 3 --json"));
    assert_eq!(v["methods"], serde_json::json!(["pieces", "deals"]));
    assert_eq!(v["deals_run"]["cycling_deals"], 16);
    assert_eq!(v["balanced_deals"], 16);
    assert_eq!(v["recall"]["pieces"]["cycles_found"], 2);
    assert_eq!(v["recall"]["pieces"]["enumerated_cycles"], 2);
    // One deck where two cards in hand are not enough: hands reaches one cycle of two.
    let v = json(&words(
        "census --deck 2J,2Q,2K,13- --methods hands,deals --json",
    ));
    assert_eq!(v["recall"]["hands"]["cycles_found"], 1);
    assert_eq!(v["recall"]["hands"]["enumerated_cycles"], 2);
}

/// The census of Camicia kept in docs/catalogue: every cycle it lists has a period of the
/// published enumeration's, no more deals than its row, and every deal replays by its rank to
/// its cycle; the file is what the census's `pieces` method gives again.
#[test]
#[ignore = "slow (minutes): `cargo test -- --include-ignored` runs it"]
fn the_census_of_camicia_agrees_with_the_published_enumeration() {
    let golden = bmn_golden::load();
    let rows = &golden.camicia_deals.rows;
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/catalogue");
    let file: Value = serde_json::from_str(
        &std::fs::read_to_string(format!("{dir}/census-camicia.json")).unwrap(),
    )
    .unwrap();
    let mut by_period: BTreeMap<u64, (u64, u64)> = BTreeMap::new();
    for c in file["catalogue"].as_array().unwrap() {
        let tricks = c["period"]["tricks"].as_u64().unwrap();
        let e = by_period.entry(tricks).or_default();
        e.0 += 1;
        e.1 += c["balanced_deals"].as_u64().unwrap();
        for d in c["balanced_deal_list"].as_array().unwrap() {
            let rank = format!("#{}", d["rank"].as_str().unwrap());
            let played = json(&["play", "--deck", "camicia", &rank, "--json"]);
            assert_eq!(played["cycle_id"], c["cycle_id"], "{rank}");
            let ranked = json(&[
                "rank",
                "--deck",
                "camicia",
                d["deal"].as_str().unwrap(),
                "--json",
            ]);
            assert_eq!(ranked["rank"], d["rank"], "{rank}");
        }
    }
    for (tricks, (cycles, deals)) in &by_period {
        let row = rows.iter().find(|r| r.period.tricks == *tricks);
        let row = row.unwrap_or_else(|| panic!("no published cycle of {tricks} tricks"));
        assert!(
            *cycles <= row.cycles && *deals <= row.deals,
            "{tricks}: {cycles} {deals}"
        );
    }
    // Recall against the enumeration, as docs/results.md states it: the 33-trick row whole.
    let found: u64 = by_period.values().map(|v| v.1).sum();
    assert_eq!(found, 18);
    assert_eq!(by_period.get(&33), Some(&(6, 18)));
    let run = json(&words("census --deck camicia --methods pieces --json"));
    assert_eq!(run["catalogue"], file["catalogue"]);
}

#[test]
fn census_bad_input_is_named() {
    bad(&["census", "--methods", "dice"], "unknown method 'dice'");
    bad(
        &words("census --deck 2J,2Q,2K,2A,6- --hands 0 --methods hands"),
        "between 1 and",
    );
    bad(
        &["census", "--players", "3", "--methods", "hands"],
        "two-player tables",
    );
}
