//! Golden tests: every record and cycle in the golden fixtures (`crates/bmn-golden/data/`), through the reference engine.

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
        if let Some(id) = &c.cycle_id
            && got.id.to_string() != *id
        {
            failures.push(format!("{}: cycle {}, want {id}", c.name, got.id));
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

/// Every game reaching the cycle: its preperiod, the period and the cycle's name.
fn check_cycle(
    deal_text: &str,
    pre: bmn_golden::Span,
    per: bmn_golden::Span,
    id: &str,
) -> Option<String> {
    match play_out(&Rules::STANDARD, &deal(deal_text, 1)) {
        Outcome::Cycle(c)
            if (c.preperiod, c.period, c.id.to_string())
                == (span(pre), span(per), id.to_string()) =>
        {
            None
        }
        other => Some(format!(
            "{deal_text}: got {other:?}, want {pre:?} {per:?} {id}"
        )),
    }
}

/// Paulhus's Table 2: the 36 cycling deals of the n = 16 deck, each with its preperiod, all on
/// the one cycle of period 11 tricks.
#[test]
fn paulhus_table_2() {
    let t = bmn_golden::load().paulhus_table2;
    let failures: Vec<String> = t
        .deals
        .iter()
        .filter_map(|d| check_cycle(&d.deal, d.preperiod, t.period, &t.cycle_id))
        .collect();
    assert!(failures.is_empty(), "\n{}", failures.join("\n"));
    let zero = bmn_golden::Span {
        tricks: 0,
        cards: 0,
    };
    let rep = &t.representative;
    let Outcome::Cycle(c) = play_out(&Rules::STANDARD, &deal(&rep.deal, rep.leader)) else {
        panic!("the representative cycles")
    };
    assert_eq!(c.representative, deal(&rep.deal, rep.leader));
    assert_eq!((span(zero), c.id.to_string()), (c.preperiod, t.cycle_id));
}

/// Casella's family: a balanced deal on each of the four 62-trick cycles.
#[test]
fn casella_family() {
    let family = bmn_golden::load().casella_family;
    let failures: Vec<String> = family
        .cycles
        .iter()
        .filter_map(|c| check_cycle(&c.deal, c.preperiod, c.period, &c.cycle_id))
        .collect();
    assert!(failures.is_empty(), "\n{}", failures.join("\n"));
}
