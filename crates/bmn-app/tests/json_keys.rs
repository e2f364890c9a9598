//! The `--json` keys (docs/json.md): one key per value (the names a value had before the
//! first release are gone), and every key of every report documented in its command's section
//! of docs/json.md (or, for the shared words and shapes, in its glossary).

use std::collections::BTreeSet;
use std::sync::atomic::AtomicBool;

use bmn_app::Report;
use bmn_app::census::CensusRequest;
use bmn_app::climb::ClimbRequest;
use bmn_app::exhaustive::ExhaustiveRequest;
use bmn_app::factory::FactoryRequest;
use bmn_app::input::TableInput;
use bmn_app::odds::OddsRequest;
use bmn_app::search::SearchRequest;
use bmn_app::stats::StatsRequest;
use bmn_job::Job;
use serde_json::Value;

const DOC: &str = include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/json.md"));

/// Paulhus's deck with 6 plain cards: small, and its games cycle often enough.
const PAULHUS_6: &str = "2J,2Q,2K,2A,6-";
/// 73,440 deals, 14 of them cycling.
const SMALL: &str = "1J,1Q,1K,1A,14-";

/// Keys whose value is a map keyed by data (lengths, periods, method names), not by names.
const DATA_MAPS: &[&str] = &["percentiles", "periods", "closeness", "recall"];

fn table(deck: &str) -> TableInput {
    TableInput {
        deck: Some(deck.into()),
        players: None,
        balanced: false,
        stream: None,
    }
}

fn value(report: &impl Report) -> Value {
    serde_json::from_str(&report.json()).expect("a report is JSON")
}

fn no_stop() -> AtomicBool {
    AtomicBool::new(false)
}

/// The text of the section of docs/json.md whose heading names `command` (`` `bmn search` ``).
fn section(command: &str) -> &'static str {
    let heading = format!("`bmn {command}`");
    let start = DOC
        .split("\n## ")
        .find(|s| s.lines().next().is_some_and(|h| h.contains(&heading)));
    start.unwrap_or_else(|| panic!("docs/json.md has no section headed {heading}"))
}

/// The glossary: the words and shapes every section shares.
fn glossary() -> &'static str {
    DOC.split("\n## ")
        .find(|s| s.starts_with("Glossary"))
        .expect("docs/json.md has a glossary")
}

/// Every key of `v`, at any depth, that `text` does not name as `` `key` ``.
fn undocumented(v: &Value, text: &str, missing: &mut BTreeSet<String>) {
    match v {
        Value::Object(map) => {
            for (key, x) in map {
                if !text.contains(&format!("`{key}`")) {
                    missing.insert(key.clone());
                }
                match x {
                    Value::Object(inner) if DATA_MAPS.contains(&key.as_str()) => {
                        inner.values().for_each(|y| undocumented(y, text, missing));
                    }
                    _ => undocumented(x, text, missing),
                }
            }
        }
        Value::Array(items) => items.iter().for_each(|x| undocumented(x, text, missing)),
        _ => {}
    }
}

/// `v`'s keys are documented: its own in `command`'s section, the nested ones there or in
/// the glossary.
fn documented(command: &str, v: &Value) {
    let text = section(command);
    let own: Vec<&String> = v
        .as_object()
        .expect("a report is an object")
        .keys()
        .filter(|k| !text.contains(&format!("`{k}`")))
        .collect();
    assert!(
        own.is_empty(),
        "bmn {command}: keys missing from its section of docs/json.md: {own:?}"
    );
    let mut missing = BTreeSet::new();
    undocumented(v, &format!("{text}\n{}", glossary()), &mut missing);
    assert!(
        missing.is_empty(),
        "bmn {command}: nested keys missing from its section of docs/json.md and its glossary: \
         {missing:?}"
    );
}

/// The value has its one key, `new`, and not the name `old` it had before the first release.
fn clear(v: &Value, old: &str, new: &str) {
    assert!(v.get(new).is_some(), "no {new} in {v}");
    assert!(v.get(old).is_none(), "{old} is back beside {new} in {v}");
}

#[test]
fn search_names_its_lists_engine_and_wins_clearly() {
    let req = SearchRequest {
        stream: bmn_app::stream::StreamRequest {
            games: bmn_app::stream::GamesArg::games(60_000),
            run: bmn_app::seeded::SeededArgs::of(Some(3), Some(2)),
            table: table(PAULHUS_6),
            ..Default::default()
        },
        top: bmn_app::flags::TopArg { top: Some(3) },
        ledger: bmn_app::flags::LedgerArgs::NONE,
        ..SearchRequest::default()
    };
    let v = value(&bmn_app::search::search(&req, &mut Job::quiet(&no_stop())).unwrap());
    clear(&v, "cycles", "cycling_deal_list");
    clear(&v, "distinct_cycles", "distinct_cycle_list");
    clear(&v, "kernel", "engine");
    clear(&v, "wins", "wins_by_seat");
    clear(&v, "balanced", "balanced_by_kind");
    assert!(
        !v["cycling_deal_list"].as_array().unwrap().is_empty(),
        "{v}"
    );
    assert_eq!(
        v["cycling_deal_list"].as_array().unwrap().len() as u64,
        v["cycling_games"].as_u64().unwrap()
    );
    assert!(!v["distinct_cycle_list"].as_array().unwrap().is_empty());
    documented("search", &v);
}

#[test]
fn exhaustive_names_its_counts_lists_engine_and_wins_clearly() {
    let req = ExhaustiveRequest {
        deck: SMALL.into(),
        leader: bmn_app::flags::LeaderArg { leader: None },
        list_cycles: true,
        threads: bmn_app::flags::ThreadsArg { threads: Some(2) },
        ledger: bmn_app::flags::LedgerArgs::NONE,
        ..ExhaustiveRequest::default()
    };
    let v = value(&bmn_app::exhaustive::exhaustive(&req, &mut Job::quiet(&no_stop())).unwrap());
    clear(&v, "cards", "deck_cards");
    clear(&v, "distinct_cycles", "distinct_cycle_count");
    clear(&v, "cycles", "distinct_cycle_list");
    clear(&v, "kernel", "engine");
    clear(&v, "first_player_wins", "wins_by_seat");
    clear(&v, "second_player_wins", "wins_by_seat");
    assert_eq!(v["cycling_deals"], 14);
    assert_eq!(v["cycling_deal_list"].as_array().unwrap().len(), 14);
    assert_eq!(
        v["distinct_cycle_list"].as_array().unwrap().len() as u64,
        v["distinct_cycle_count"].as_u64().unwrap()
    );
    documented("exhaustive", &v);
}

#[test]
fn stats_names_its_counts_and_balance_clearly() {
    let dir = std::env::temp_dir().join(format!("bmn-app-json-keys-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let req = StatsRequest {
        stream: bmn_app::stream::StreamRequest {
            games: bmn_app::stream::GamesArg::games(20_000),
            run: bmn_app::seeded::SeededArgs::of(Some(2), Some(2)),
            table: table(PAULHUS_6),
            ..Default::default()
        },
        plot: bmn_app::flags::PlotArg {
            plot: Some(dir.join("stats.svg")),
        },
    };
    let v = value(&bmn_app::stats::stats(&req, &mut Job::quiet(&no_stop())).unwrap());
    let _ = std::fs::remove_dir_all(&dir);
    clear(&v, "balanced", "balanced_by_kind");
    clear(&v, "distinct_cycles", "distinct_cycle_count");
    clear(&v["compared"], "balanced", "balanced_by_kind");
    assert_eq!(v["compared"]["balanced_by_kind"], true);
    assert!(v["wins_by_seat"].is_array() && v["engine"].is_string());
    documented("stats", &v);
}

#[test]
fn the_factory_names_its_counts_mode_and_representatives_clearly() {
    let req = FactoryRequest {
        table: bmn_app::input::TableRules {
            deck: PAULHUS_6.into(),
            ..Default::default()
        },
        run: bmn_app::seeded::SeededArgs::of(Some(1), Some(2)),
        rounds: Some(1),
        seeds: Some(3),
        walk: bmn_app::walk::WalkArgs {
            walkers: Some(2),
            neighbours: Some(2),
            moves: None,
        },
        ..FactoryRequest::default()
    };
    let v = value(&bmn_app::factory::factory(&req, &mut Job::quiet(&no_stop())).unwrap());
    clear(&v, "cycles", "distinct_cycle_count");
    clear(&v, "endless", "endless_count");
    clear(&v, "complete", "completion_mode");
    let catalogue = v["catalogue"].as_array().unwrap();
    assert!(!catalogue.is_empty(), "{v}");
    for c in catalogue {
        assert!(c["representative"]["deal"].is_string(), "{c}");
        assert!(c.get("representative_leader").is_none(), "{c}");
        assert!(c.get("representative_position").is_none(), "{c}");
    }
    documented("pieces factory", &v);
}

#[test]
fn the_census_names_its_runs_lists_and_counts_clearly() {
    let req = CensusRequest {
        table: bmn_app::input::TableRules {
            deck: SMALL.into(),
            ..Default::default()
        },
        run: bmn_app::seeded::SeededArgs::of(Some(1), Some(2)),
        methods: Some("pieces,hands,deals".into()),
        hands: Some(1),
        rounds: Some(1),
        ..CensusRequest::default()
    };
    let v = value(&bmn_app::census::census(&req, &mut Job::quiet(&no_stop())).unwrap());
    for run in ["pieces", "hands", "deals"] {
        let key = format!("{run}_run");
        clear(&v, run, &key);
        clear(&v[&key], "cycles", "distinct_cycle_count");
    }
    let catalogue = v["catalogue"].as_array().unwrap();
    assert!(!catalogue.is_empty(), "{v}");
    for c in catalogue {
        clear(c, "deals", "balanced_deal_list");
    }
    for r in v["recall"]
        .as_object()
        .expect("deals ran to the end")
        .values()
    {
        clear(r, "cycles", "enumerated_cycles");
        clear(r, "deals", "enumerated_deals");
    }
    if !v["estimate"].is_null() {
        clear(&v["estimate"], "cycles", "estimated_cycles");
    }
    documented("census", &v);
}

#[test]
fn the_census_plan_names_its_costs() {
    let req = CensusRequest {
        table: bmn_app::input::TableRules {
            deck: SMALL.into(),
            ..Default::default()
        },
        run: bmn_app::seeded::SeededArgs::of(None, Some(2)),
        ..CensusRequest::default()
    };
    let v = value(
        &bmn_app::census::cost::cost(&CensusRequest {
            cores: Some(64),
            ..req
        })
        .unwrap(),
    );
    assert_eq!(v["deck_deals"], "73440");
    assert_eq!(v["cores"], 64);
    assert!(v["seconds"].as_f64().unwrap() > 0.0);
    documented("census --plan", &v);
}

#[test]
fn construct_names_its_cycles_and_balance_clearly() {
    let req = bmn_app::pieces::ConstructRequest {
        run: bmn_app::seeded::SeededArgs::of(Some(3), Some(2)),
        budget: Some(4),
        max_len: Some(12),
        sparse_len: Some(20),
        faces: vec!["Q2,K2,A2,-8".into()],
        ..Default::default()
    };
    let v = value(&bmn_app::pieces::construct(&req, &mut Job::quiet(&no_stop())).unwrap());
    clear(&v, "cycles", "distinct_cycle_list");
    let games = v["games"].as_array().unwrap();
    assert!(!games.is_empty(), "{v}");
    for g in games {
        clear(g, "balanced", "balanced_by_size");
    }
    documented("pieces construct", &v);
}

#[test]
fn climb_names_its_engine_endless_games_and_balance_clearly() {
    let req = ClimbRequest {
        run: bmn_app::seeded::SeededArgs::of(Some(4), Some(2)),
        evals: Some(64),
        walk: bmn_app::walk::WalkArgs {
            walkers: Some(4),
            neighbours: Some(4),
            moves: None,
        },
        ledger: bmn_app::flags::LedgerArgs::NONE,
        ..ClimbRequest::default()
    };
    let v = value(&bmn_app::climb::climb(&req, &mut Job::quiet(&no_stop())).unwrap());
    clear(&v, "kernel", "engine");
    clear(&v, "endless", "endless_list");
    clear(&v, "balanced", "balanced_by_kind");
    documented("climb", &v);
}

#[test]
fn count_deal_and_odds_name_their_keys_clearly() {
    let v = value(
        &bmn_app::count::count(&bmn_app::count::CountRequest {
            deck: PAULHUS_6.into(),
            ..Default::default()
        })
        .unwrap(),
    );
    clear(&v, "cards", "deck_cards");
    clear(&v, "balanced_deals", "deals_balanced_by_kind");
    assert_eq!(v["deck_cards"], 14);
    documented("count", &v);

    let req = bmn_app::deal::DealRequest {
        table: TableInput {
            balanced: true,
            ..table(PAULHUS_6)
        },
        seed: bmn_app::flags::SeedArg { seed: Some(1) },
        index: Some(2),
        count: None,
    };
    let v = value(&bmn_app::deal::deal(&req).unwrap());
    clear(&v, "balanced", "balanced_by_kind");
    assert_eq!(v["balanced_by_kind"], true);
    documented("deal", &v);

    let req = OddsRequest {
        mu: Some(300.0),
        x0: Some(2000.0),
        p0: Some(0.01),
        rate: Some(1e6),
        ..OddsRequest::default()
    };
    let v = value(&bmn_app::odds::odds(&req, &mut Job::quiet(&no_stop())).unwrap());
    clear(&v, "records", "expected_records");
    documented("odds", &v);
}

#[test]
fn bench_names_each_rows_engine() {
    let req = bmn_app::bench::BenchRequest {
        games: Some(500),
        deck: bmn_app::flags::DeckArg {
            deck: Some(PAULHUS_6.into()),
        },
        run: bmn_app::seeded::SeededArgs::of(Some(1), Some(1)),
    };
    let v = value(&bmn_app::bench::bench(&req, &mut Job::quiet(&no_stop())).unwrap());
    for row in v["kernels"].as_array().unwrap() {
        clear(row, "kernel", "engine");
    }
    documented("bench", &v);
}

#[test]
fn every_other_report_is_documented() {
    use bmn_app::play::{PlayRequest, play};
    let deal = |text: &str, tricks: Option<u64>| PlayRequest {
        deal: Some(text.into()),
        leader: bmn_app::flags::LeaderArg { leader: None },
        tricks,
        trace: true,
        ..PlayRequest::default()
    };
    for req in [
        deal("--Q-J-/Q-J-", None),
        deal("J--K---A----AA/-J-", None),
        deal("J--K---A----AA/-J-", Some(1)),
    ] {
        documented("play", &value(&play(&req).unwrap()));
    }
    let v = value(
        &bmn_app::backward::backward(&bmn_app::backward::BackwardRequest {
            position: "--K---A----AAJ-/J-".into(),
            ..Default::default()
        })
        .unwrap(),
    );
    documented("backward", &v);
    let req = bmn_app::backward::BasinRequest {
        position: "--K---A----AAJ-/J-".into(),
        leader: bmn_app::flags::LeaderArg { leader: None },
        graph: Some(5),
        ..Default::default()
    };
    let v = value(&bmn_app::backward::basin(&req, &mut Job::quiet(&no_stop())).unwrap());
    documented("basin", &v);
    clear(&v, "balanced_deals", "balanced_deal_list");
    let req = bmn_app::backward::ExtendRequest {
        deal: "-Q--J-/--K-A-".into(),
        leader: bmn_app::flags::LeaderArg { leader: None },
        depth: Some(3),
        ..Default::default()
    };
    documented(
        "extend",
        &value(&bmn_app::backward::extend(&req, &mut Job::quiet(&no_stop())).unwrap()),
    );
    let req = bmn_app::backward::TreesRequest {
        samples: Some(20),
        deck: bmn_app::flags::DeckArg {
            deck: Some("1J,1Q,6-".into()),
        },
        seed: bmn_app::flags::SeedArg { seed: Some(1) },
        ..Default::default()
    };
    documented(
        "trees",
        &value(&bmn_app::backward::trees(&req, &mut Job::quiet(&no_stop())).unwrap()),
    );
    let v = value(
        &bmn_app::rank::rank(&bmn_app::rank::RankRequest {
            deal: "--Q-J/Q-J-".into(),
            ..Default::default()
        })
        .unwrap(),
    );
    documented("rank", &v);
    let v = value(
        &bmn_app::rank::unrank(&bmn_app::rank::UnrankRequest {
            rank: "5".into(),
            deck: PAULHUS_6.into(),
            ..Default::default()
        })
        .unwrap(),
    );
    documented("unrank", &v);
    documented(
        "records",
        &value(&bmn_app::records::records(&Default::default()).unwrap()),
    );
    let req = bmn_app::pieces::PieceSearchRequest {
        max_len: Some(5),
        threads: bmn_app::flags::ThreadsArg { threads: Some(2) },
        ..Default::default()
    };
    documented(
        "pieces search",
        &value(&bmn_app::pieces::search(&req, &mut Job::quiet(&no_stop())).unwrap()),
    );
    documented("devices", &value(&bmn_app::devices::devices()));
}

/// `play --deals`: a finished game, a cycle and a game given up on, each line's keys documented.
#[test]
fn given_deals_document_their_keys() {
    use bmn_app::given::{Given, GivenGame, deal_lines};
    use bmn_app::play::PlayRequest;
    let text = "---AJ--Q---------QAKQJJ-QK/-----A----KJ-K--------A---\n\
                ---K---Q-KQAJ-----AAJ--J--/----------Q----KQ-J-----KA\n";
    for give_up in [None, Some(100)] {
        let mut given = Given::try_from(&PlayRequest {
            give_up: bmn_app::flags::GiveUpArg { give_up },
            threads: bmn_app::flags::ThreadsArg { threads: Some(1) },
            ..PlayRequest::default()
        })
        .unwrap();
        let lines: Vec<_> = deal_lines(text, 1).collect();
        let stop = AtomicBool::new(false);
        let (parts, early) = given.play(&lines, &stop, |v: &mut Vec<GivenGame>, g| {
            v.push(g.into_owned())
        });
        assert!(early.is_none());
        for game in parts.into_iter().flatten() {
            let v = serde_json::to_value(&game).unwrap();
            documented("play --deals", &v);
        }
    }
}
