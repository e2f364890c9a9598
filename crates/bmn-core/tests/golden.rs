//! Golden tests: every record and cycle in `shared/data/golden.json`, through the reference engine.

use bmn_core::{Outcome, Player, Position, Rules, Span, play_out};

fn deal(text: &str, leader: usize) -> Position {
    Position::parse_deal(text, Player(leader - 1)).unwrap()
}

fn span(s: bmn_golden::Span) -> Span {
    Span {
        tricks: s.tricks,
        cards: s.cards,
    }
}

#[test]
fn records() {
    let golden = bmn_golden::load();
    assert_eq!(golden.records.len(), 9);
    let failures: Vec<String> = golden
        .records
        .iter()
        .filter_map(|r| {
            let got = play_out(&Rules::STANDARD, &deal(&r.deal, r.leader));
            let want = Outcome::Finished {
                winner: Player(r.winner - 1),
                cards: r.cards,
                tricks: r.tricks,
            };
            (got != want).then(|| format!("{}: got {got:?}, want {want:?}", r.name))
        })
        .collect();
    assert!(failures.is_empty(), "\n{}", failures.join("\n"));
}

#[test]
fn cycles() {
    let mut failures = Vec::new();
    for c in bmn_golden::load().cycles {
        let Outcome::Cycle(got) = play_out(&Rules::STANDARD, &deal(&c.deal, c.leader)) else {
            failures.push(format!("{}: finished, want a cycle", c.name));
            continue;
        };
        let (pre, per) = (span(c.preperiod), span(c.period));
        if (got.preperiod, got.period) != (pre, per) {
            failures.push(format!(
                "{}: got {:?} {:?}, want {pre:?} {per:?}",
                c.name, got.preperiod, got.period
            ));
        }
        if let Some(first) = &c.first_cycle_position {
            let want = Position::parse(&first.deal, Player(first.leader - 1)).unwrap();
            if got.start != want {
                failures.push(format!(
                    "{}: cycle starts at {}, want {want}",
                    c.name, got.start
                ));
            }
        }
    }
    assert!(failures.is_empty(), "\n{}", failures.join("\n"));
}
