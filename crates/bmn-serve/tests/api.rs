//! The JSON API end to end: every endpoint with the CLI's keys, every error as HTTP 400 with
//! the CLI's message, the caps named, the server serving on after each bad request, and 200
//! concurrent replays of the record all answered correctly.

mod common;

use common::{bad, enc, get, get_text, ok};
use serde_json::Value;

const CASELLA: &str = "---K---Q-KQAJ-----AAJ--J--/----------Q----KQ-J-----KA";

#[test]
fn play_gives_the_clis_keys_trace_and_card_events() {
    for record in bmn_golden::load().records {
        let v = ok(&format!(
            "/api/play?deal={}&leader={}",
            enc(&record.deal),
            record.leader
        ));
        assert_eq!(v["outcome"], "finished", "{}", record.name);
        assert_eq!(
            (v["cards"].as_u64(), v["tricks"].as_u64()),
            (Some(record.cards), Some(record.tricks))
        );
        assert_eq!(v["winner"], record.winner);
        assert!(v.get("trace").is_none() && v.get("events").is_none());
    }
    let v = ok(&format!(
        "/api/play?deal={}&trace=true&events=true",
        enc(CASELLA)
    ));
    assert_eq!(v["outcome"], "cycle");
    assert_eq!(v["preperiod"]["tricks"], 4);
    assert_eq!(v["period"]["cards"], 440);
    assert_eq!(v["cycle_id"], "e161ff9fa3c2be50");
    assert_eq!(v["start"]["deal"], CASELLA);
    assert_eq!(v["trace"].as_array().unwrap().len(), 4 + 62 + 1);
    // The events replay the game: the cards laid add up, the takes are the tricks, and the
    // stacks they give at each trick's end are the trace's positions.
    let events = v["events"].as_array().unwrap();
    let cards = events.iter().filter(|e| e["step"] == "card").count();
    let takes: Vec<&Value> = events.iter().filter(|e| e["step"] == "take").collect();
    assert_eq!((cards, takes.len()), (34 + 440, 66));
    let mut stacks: Vec<String> = CASELLA.split('/').map(String::from).collect();
    let mut pile = String::new();
    let mut trick = 0;
    for e in events {
        let p = e["player"].as_u64().unwrap() as usize - 1;
        if e["step"] == "card" {
            let card = stacks[p].remove(0);
            assert_eq!(e["card"].as_str().unwrap(), card.to_string());
            pile.push(card);
        } else {
            assert_eq!(e["cards"].as_u64().unwrap() as usize, pile.len());
            stacks[p].push_str(&pile);
            pile.clear();
            trick += 1;
            assert_eq!(
                stacks.join("/"),
                v["trace"][trick]["deal"].as_str().unwrap()
            );
        }
    }
    // The same JSON as the library gives the CLI.
    let cli = bmn_app::play::play(&bmn_app::play::PlayRequest {
        deal: Some(CASELLA.into()),
        leader: bmn_app::flags::LeaderArg { leader: Some(1) },
        ..Default::default()
    })
    .unwrap();
    let cli: Value = serde_json::from_str(&bmn_app::Report::json(&cli)).unwrap();
    for key in [
        "outcome",
        "preperiod",
        "period",
        "cycle_start",
        "cycle_id",
        "cycle_representative",
    ] {
        assert_eq!(v[key], cli[key], "{key}");
    }
    // Keys in the CLI's order.
    let (_, text) = get_text(&format!("/api/play?deal={}", enc(CASELLA)));
    assert!(
        text.starts_with(r#"{"outcome":"cycle","preperiod":"#),
        "{text}"
    );
    // Three players, a penalty table, a trick limit.
    let v = ok("/api/play?deal=-A-/--/J-&penalties=K3,J2,Q1,A0&on_empty=collect");
    assert_eq!(v["outcome"], "finished");
    let v = ok("/api/play?deal=J--K---A----AA/-J-&tricks=1");
    assert_eq!(v["outcome"], "stopped");
    assert_eq!(v["position"]["deal"], "--K---A----AAJ-/J-");
}

#[test]
fn every_bad_request_gets_400_and_the_clis_message() {
    bad(
        "/api/play?deal=--Z-/J-",
        "bad deal: unexpected character 'Z' at position 3 (hand 1)",
    );
    bad("/api/play", "bad deal: give one");
    bad("/api/play?deal=--/J-&leader=3", "leader");
    bad(
        "/api/play?deal=--/J-&leader=0",
        "bad leader: 0: players are numbered from 1",
    );
    bad(
        "/api/play?deal=--/J-&leader=x",
        "bad leader: 'x' is not a number: give digits, e.g. 1000000, 1_000_000 or 1e6",
    );
    bad("/api/play?deal=--K/J-&deck=standard", "bad deal");
    bad("/api/play?deal=--/J-&deck=3Z", "bad deck");
    bad("/api/play?deal=--/J-&players=3", "but players 3");
    bad("/api/play?deal=--/J-&penalties=Z3", "bad penalties");
    bad("/api/play?deal=--/J-&on_empty=keep", "bad on_empty");
    bad(
        "/api/play?deal=--/J-&trace=maybe",
        "bad trace: 'maybe' is not true or false",
    );
    bad(
        "/api/play?deal=--/J-&colour=red",
        "unknown parameter 'colour'",
    );
    bad("/api/basin?deal=--Z", "bad position");
    bad("/api/basin?deal=--/J-&limit=0", "bad limit");
    bad("/api/search?seconds=0", "bad seconds");
    let _turn = SEARCHES.lock().unwrap_or_else(|e| e.into_inner());
    bad("/api/search?seconds=1&deck=1J", "bad deck");
    bad("/api/search?seconds=1&players=11", "bad players");
    bad("/api/search?seconds=1&top=1000", "bad top");
    let (status, v) = get("/api/nowhere");
    assert_eq!(status, 404);
    assert!(
        v["error"]
            .as_str()
            .unwrap()
            .contains("no such page: /api/nowhere")
    );
    // Still serving.
    ok("/api/play?deal=--Q-J-/Q-J-");
}

#[test]
fn the_caps_are_named() {
    let big = format!("/api/play?deal={}", "-".repeat(20_000));
    bad(
        &big,
        "request too large: 20005 bytes of parameters, at most 16384",
    );
    bad(
        &format!("/api/basin?deal={}&limit=50000", enc(CASELLA)),
        "past this server's cap of 20000",
    );
    bad(
        "/api/search?seconds=61",
        "a search here runs 1 to 60 seconds",
    );
    // A replay longer than the cap: the cap is named.
    bad(
        &format!("/api/play?deal={}&tricks=200000&events=true", enc(CASELLA)),
        "the game lasts 200000 tricks to replay, past the cap of 100000 tricks",
    );
}

#[test]
fn records_presets_and_the_page() {
    let v = ok("/api/records");
    assert_eq!(v["all_verified"], true);
    assert_eq!(v["records"].as_array().unwrap().len(), 9);
    let v = ok("/api/presets");
    assert_eq!(v["records"].as_array().unwrap().len(), 9);
    assert!(v.get("cycles").is_none(), "one key per value: {v}");
    assert!(
        v["endless_list"]
            .as_array()
            .unwrap()
            .iter()
            .any(|c| c["deal"] == CASELLA)
    );
    let (status, html) = get_text("/");
    assert_eq!(status, 200);
    assert!(html.contains("<script type=\"module\" src=\"/app.js\">"));
    // The icon browsers ask for, so the console shows no failed request.
    let (status, icon) = get_text("/favicon.ico");
    assert_eq!(status, 200);
    assert!(icon.starts_with("<svg"), "{icon}");
    assert!(html.contains("<link rel=\"icon\" href=\"/favicon.ico\""));
    for asset in ["/app.js", "/style.css"] {
        let (status, body) = get_text(asset);
        assert_eq!(status, 200, "{asset}");
        assert!(body.len() > 1000);
        // Nothing is fetched from elsewhere.
        assert!(
            !body.contains("http://") && !body.contains("https://"),
            "{asset}"
        );
    }
}

#[test]
fn basin_gives_the_clis_keys_and_a_graph() {
    let v = ok(&format!("/api/basin?deal={}&graph=true", enc(CASELLA)));
    assert_eq!(v["positions"], 5340);
    assert_eq!(v["balanced_deals_count"], 30);
    assert_eq!(v["complete"], true);
    let graph = &v["graph"];
    assert_eq!(graph["nodes"].as_array().unwrap().len(), 5340);
    assert_eq!(graph["truncated"], false);
    let balanced = graph["nodes"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|n| n["mark"] == "balanced")
        .count();
    assert_eq!(
        balanced,
        60 - 1,
        "every balanced deal but the one given (marked start)"
    );
    let cycle = graph["nodes"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|n| n["mark"] == "cycle")
        .count();
    assert!(cycle >= 62, "the cycle's positions come first: {cycle}");
    // Every position but the cycle's last in each renaming has its trick inside the basin.
    assert!(graph["edges"].as_array().unwrap().len() >= 5340 - 2);
    // A small cap cuts the graph and says so.
    let v = ok(&format!(
        "/api/basin?deal={}&graph=true&limit=1000",
        enc(CASELLA)
    ));
    assert_eq!(v["complete"], false);
    assert_eq!(v["graph"]["nodes"].as_array().unwrap().len(), 1000);
}

/// The test server runs one search at a time; the tests that search take turns.
static SEARCHES: std::sync::Mutex<()> = std::sync::Mutex::new(());

#[test]
fn search_runs_for_its_time_and_streams_its_progress() {
    let _turn = SEARCHES.lock().unwrap_or_else(|e| e.into_inner());
    let v = ok("/api/search?seconds=1&seed=3&top=3");
    assert!(v["games"].as_u64().unwrap() > 0);
    assert_eq!(v["seed"], 3);
    assert_eq!(v["longest"].as_array().unwrap().len(), 3);
    // The result equals a --games run of the same count (whole units), as on the CLI.
    let games = v["games"].as_u64().unwrap();
    let again = ok(&format!(
        "/api/search?seconds=60&games={games}&seed=3&top=3"
    ));
    assert_eq!(again["longest"], v["longest"]);
    // Numbers read as the command line reads them: 1.6384e4 games is one unit.
    let unit = ok("/api/search?seconds=60&games=1.6384e4&seed=3&top=3");
    assert_eq!(unit["games"], 16384);
    let (status, stream) = get_text("/api/search?seconds=1&stream=true");
    assert_eq!(status, 200);
    assert!(stream.contains("event: progress"), "{stream}");
    let result = stream
        .split("event: result\ndata: ")
        .nth(1)
        .and_then(|r| r.lines().next())
        .expect("a result event");
    let v: Value = serde_json::from_str(result).unwrap();
    assert!(v["games"].as_u64().unwrap() > 0);
    // While one search runs, a second is refused, naming the cap.
    let running = std::thread::spawn(|| get_text("/api/search?seconds=2&stream=true"));
    std::thread::sleep(std::time::Duration::from_millis(500));
    bad(
        "/api/search?seconds=1",
        "too many searches at once: this server runs at most 1",
    );
    assert_eq!(running.join().unwrap().0, 200);
}

/// 200 replays of the record at once: every answer right. The latencies are printed (no
/// timed assertion: this machine is shared).
#[test]
fn two_hundred_concurrent_replays_of_the_record() {
    let record = bmn_golden::load()
        .records
        .into_iter()
        .max_by_key(|r| r.cards)
        .unwrap();
    let path = format!("/api/play?deal={}", enc(&record.deal));
    ok(&path);
    let started = std::time::Instant::now();
    let handles: Vec<_> = (0..200)
        .map(|_| {
            let path = path.clone();
            std::thread::spawn(move || {
                let t = std::time::Instant::now();
                let (status, v) = get(&path);
                (
                    status,
                    v["cards"].as_u64(),
                    v["tricks"].as_u64(),
                    t.elapsed(),
                )
            })
        })
        .collect();
    let mut latencies = Vec::new();
    for h in handles {
        let (status, cards, tricks, took) = h.join().unwrap();
        assert_eq!(
            (status, cards, tricks),
            (200, Some(record.cards), Some(record.tricks))
        );
        latencies.push(took);
    }
    latencies.sort();
    eprintln!(
        "200 concurrent /api/play of the {}-card record: p50 {:?}, p99 {:?}, all in {:?}",
        record.cards,
        latencies[100],
        latencies[197],
        started.elapsed()
    );
}

/// `/api/catalogue` lists the compiled-in catalogues and hands out each file byte for byte;
/// each catalogue's every deal replays, by its rank, into its cycle.
#[test]
fn catalogue_lists_the_tables_and_hands_out_each_file() {
    let list = ok("/api/catalogue");
    let tables = list["tables"].as_array().unwrap();
    let names: Vec<&str> = tables
        .iter()
        .map(|t| t["table"].as_str().unwrap())
        .collect();
    assert_eq!(names[0], "census-camicia");
    let folder = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/catalogue");
    let mut files = 0;
    // The catalogues, and the road to Camicia's rows in their folder.
    let paths = std::fs::read_dir(&folder)
        .unwrap()
        .chain(std::fs::read_dir(folder.join("road")).unwrap());
    for entry in paths {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "json") {
            files += 1;
            let name = path.file_stem().unwrap().to_str().unwrap();
            assert!(names.contains(&name), "{name} is not offered");
            let (status, text) = get_text(&format!("/api/catalogue?table={name}"));
            assert_eq!(status, 200);
            assert_eq!(text, std::fs::read_to_string(&path).unwrap(), "{name}");
        }
    }
    assert_eq!(names.len(), files);
    let camicia = &tables[0];
    assert_eq!(camicia["made_by"], "census");
    assert_eq!(
        (
            camicia["cycles"].as_u64(),
            camicia["balanced_deals"].as_u64()
        ),
        (Some(6), Some(18))
    );
    assert_eq!(camicia["published"]["cycling_deals"], 162);
    let paulhus = tables.iter().find(|t| t["table"] == "paulhus-8").unwrap();
    assert_eq!(paulhus["made_by"], "factory");
    assert_eq!(paulhus["balanced_deals"], 11_928); // Paulhus, Table 1
    assert!(paulhus["published"].is_null());

    // Camicia's deals by their ranks: each reaches its cycle with its preperiod.
    let file = ok("/api/catalogue?table=census-camicia");
    for cycle in file["catalogue"].as_array().unwrap() {
        for d in cycle["balanced_deal_list"].as_array().unwrap() {
            let rank = d["rank"].as_str().unwrap();
            let v = ok(&format!("/api/play?deal=%23{rank}&deck=camicia"));
            assert_eq!(v["cycle_id"], cycle["cycle_id"]);
            assert_eq!(v["start"]["deal"], d["deal"]);
            assert_eq!(v["preperiod"], d["preperiod"]);
            assert_eq!(v["rank"], d["rank"]);
            assert_eq!(v["deck"], "4J,4Q,4K,28-");
        }
    }
    bad(
        "/api/catalogue?table=nope",
        "bad table: no catalogue named 'nope' (this server has census-camicia, ",
    );
    bad(
        "/api/catalogue?deck=camicia",
        "unknown parameter 'deck' (this endpoint takes table)",
    );
}

/// A replay and a basin's deals carry their ranks; a position in mid-game has none.
#[test]
fn replays_and_basins_name_each_deal_by_its_rank() {
    let v = ok(&format!("/api/play?deal={}", enc(CASELLA)));
    let rank = v["rank"].as_str().unwrap().to_string();
    assert_eq!(v["deck"], "4J,4Q,4K,4A,36-");
    let again = ok(&format!("/api/play?deal=%23{rank}"));
    assert_eq!(again["start"]["deal"], CASELLA);
    let uneven = ok("/api/play?deal=--Q-J-/Q-");
    assert!(uneven["rank"].is_null(), "{uneven}");
    let b = ok(&format!("/api/basin?deal={}", enc(CASELLA)));
    let deals = b["balanced_deal_list"].as_array().unwrap();
    assert_eq!(deals.len(), 30);
    for d in deals {
        let v = ok(&format!(
            "/api/play?deal=%23{}",
            d["rank"].as_str().unwrap()
        ));
        assert_eq!(v["start"]["deal"], d["deal"]);
    }
}

/// Every endpoint reads its parameters by the same rules: no unknown name (the message lists
/// the names there are), no name twice, at most 16 KiB of them; a blank value is absent.
#[test]
fn every_endpoint_refuses_unknown_repeated_and_oversized_parameters() {
    for (path, takes) in [
        ("/api/records", "no parameters"),
        ("/api/presets", "no parameters"),
        (
            "/api/play",
            "deal, leader, players, deck, penalties, on_empty, tricks, trace, events",
        ),
        (
            "/api/basin",
            "deal, leader, limit, graph, penalties, on_empty",
        ),
        (
            "/api/search",
            "seconds, games, seed, balanced, top, deck, players, penalties, on_empty, stream, deal_stream",
        ),
        ("/api/catalogue", "table"),
    ] {
        bad(
            &format!("{path}?colour=red"),
            &format!("unknown parameter 'colour' (this endpoint takes {takes})"),
        );
        bad(
            &format!("{path}?colour="),
            &format!("unknown parameter 'colour' (this endpoint takes {takes})"),
        );
        bad(
            &format!("{path}?x={}", "-".repeat(20_000)),
            "request too large: 20002 bytes of parameters, at most 16384",
        );
        bad(
            &format!("{path}?deal=--Q-J-/Q-J-&deal=-"),
            "repeated parameter 'deal': give each parameter once",
        );
        bad(
            &format!("{path}?deal=&deal="),
            "repeated parameter 'deal': give each parameter once",
        );
    }
    bad(
        "/api/play?deal=--/J-&l%0Aeader=1&l%0Aeader=2",
        "repeated parameter 'l\\neader'",
    );
    // Blank values are absent, as they always were; an empty query is no query.
    let v = ok("/api/play?deal=--Q-J-/Q-J-&leader=&tricks=%20&trace=&deck=");
    assert_eq!(v["outcome"], "cycle");
    assert!(v.get("trace").is_none());
    ok("/api/records?");
    ok("/api/presets?&&");
}
