//! Golden tests: every record and cycle in `shared/data/golden.json`, through the reference engine.

use bmn_core::{Outcome, Player, Position, Rules, Span, play_out};
use serde_json::Value;

/// The one loader of the golden file (shared/ sits beside the checkout).
fn golden() -> Value {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../../shared/data/golden.json"
    );
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("reading {path}: {e}"));
    serde_json::from_str(&text).expect("golden.json parses")
}

fn deal(case: &Value) -> Position {
    let leader = case["leader"].as_u64().unwrap() as usize;
    Position::parse_deal(case["deal"].as_str().unwrap(), Player(leader - 1)).unwrap()
}

fn span(v: &Value) -> Span {
    Span {
        tricks: v["tricks"].as_u64().unwrap(),
        cards: v["cards"].as_u64().unwrap(),
    }
}

#[test]
fn records() {
    let golden = golden();
    let mut failures = Vec::new();
    let records = golden["records"].as_array().unwrap();
    assert_eq!(records.len(), 9);
    for r in records {
        let got = play_out(&Rules::STANDARD, &deal(r));
        let want = Outcome::Finished {
            winner: Player(r["winner"].as_u64().unwrap() as usize - 1),
            cards: r["cards"].as_u64().unwrap(),
            tricks: r["tricks"].as_u64().unwrap(),
        };
        if got != want {
            failures.push(format!("{}: got {got:?}, want {want:?}", r["name"]));
        }
    }
    assert!(failures.is_empty(), "\n{}", failures.join("\n"));
}

#[test]
fn cycles() {
    let golden = golden();
    let mut failures = Vec::new();
    for c in golden["cycles"].as_array().unwrap() {
        let name = &c["name"];
        let Outcome::Cycle(got) = play_out(&Rules::STANDARD, &deal(c)) else {
            failures.push(format!("{name}: finished, want a cycle"));
            continue;
        };
        let (pre, per) = (span(&c["preperiod"]), span(&c["period"]));
        if (got.preperiod, got.period) != (pre, per) {
            failures.push(format!(
                "{name}: got {:?} {:?}, want {pre:?} {per:?}",
                got.preperiod, got.period
            ));
        }
        if let Some(first) = c.get("first_cycle_position") {
            let want = deal(first);
            if got.start != want {
                failures.push(format!(
                    "{name}: cycle starts at {}, want {want}",
                    got.start
                ));
            }
        }
    }
    assert!(failures.is_empty(), "\n{}", failures.join("\n"));
}
