//! The one loader of the golden fixtures in `data/`: published figures bmn must reproduce.
//!
//! The fixtures live in this crate (`crates/bmn-golden/data/*.txt`) and are compiled into it, so
//! no test reads a path at run time. Each case names its source (paper, table, page where
//! known); the rules they assume are `docs/rules.md`. Their figures are golden tests and are never
//! loosened: when code and fixture disagree, the code is wrong.

#![forbid(unsafe_code)]

mod blocks;

use blocks::{Block, parse_word};

/// `TRICKS CARDS`: a stretch of play.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Span {
    pub tricks: u64,
    pub cards: u64,
}

/// A position: deal text and leader (1-based).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct At {
    pub deal: String,
    pub leader: usize,
}

/// A published record game: deal, leader (1-based) and its exact length.
#[derive(Debug, Clone)]
pub struct Record {
    pub id: String,
    pub name: String,
    pub source: String,
    pub deal: String,
    pub leader: usize,
    pub cards: u64,
    pub tricks: u64,
    pub winner: usize,
}

/// A published game that never ends.
#[derive(Debug, Clone)]
pub struct CycleCase {
    pub id: String,
    pub name: String,
    pub source: String,
    pub deal: String,
    pub leader: usize,
    pub preperiod: Span,
    pub period: Span,
    pub first_cycle_position: Option<At>,
    pub cycle_id: Option<String>,
    /// Published count of balanced (26/26) deals, player 1 leading, that reach the cycle.
    pub balanced_deals: Option<usize>,
}

/// One row of Paulhus's Table 1 (2 J, 2 Q, 2 K, 2 A and `plain` plain cards).
#[derive(Debug, Clone)]
pub struct PaulhusRow {
    pub id: String,
    pub source: String,
    pub plain: u32,
    pub deals: u64,
    pub cycling_deals: u64,
    /// As printed (rounded); not reproduced exactly by the rules (see the fixture's header).
    pub published_p_second_wins: f64,
}

impl PaulhusRow {
    /// The deck spec of this row, e.g. `2J,2Q,2K,2A,16-`.
    pub fn deck(&self) -> String {
        format!("2J,2Q,2K,2A,{}-", self.plain)
    }
}

/// A cycling deal of an enumeration: its rank, deal (player 1 leads) and preperiod.
#[derive(Debug, Clone)]
pub struct CyclingDeal {
    pub index: u64,
    pub deal: String,
    pub preperiod: Span,
}

/// Paulhus's Table 2: every cycling deal of the n = 16 deck, all on one cycle.
#[derive(Debug, Clone)]
pub struct Table2 {
    pub source: String,
    pub deck: String,
    pub cycling_deals: u64,
    pub period: Span,
    pub cycle_id: String,
    pub representative: At,
    pub deals: Vec<CyclingDeal>,
}

/// The longest finite game of an enumeration.
#[derive(Debug, Clone)]
pub struct Longest {
    pub cards: u64,
    pub tricks: u64,
    pub deal: String,
}

/// A distinct cycle of an enumeration and how many deals reach it.
#[derive(Debug, Clone)]
pub struct CycleCount {
    pub cycle_id: String,
    pub period: Span,
    pub deals: u64,
}

/// A whole enumeration's report (player 1 leads).
#[derive(Debug, Clone)]
pub struct EnumerationRow {
    pub id: String,
    pub source: String,
    pub deck: String,
    pub deals: u64,
    pub first_player_wins: u64,
    pub second_player_wins: u64,
    pub cycling_deals: u64,
    pub distinct_cycles: u64,
    pub longest: Longest,
    pub cycles: Vec<CycleCount>,
}

/// A row of an enumeration's endless deals grouped by period: cycles of that period and the
/// deals that reach them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PeriodRow {
    pub period: Span,
    pub cycles: u64,
    pub deals: u64,
}

/// A published enumeration too big to replay in a test: its counts by period.
#[derive(Debug, Clone)]
pub struct PublishedEnumeration {
    pub id: String,
    pub source: String,
    pub deck: String,
    pub deals: u64,
    pub cycling_deals: u64,
    pub rows: Vec<PeriodRow>,
}

/// A piece and its forms, each with the cycle id the test template reaches with it.
#[derive(Debug, Clone)]
pub struct Piece {
    pub source: String,
    pub forms: Vec<(String, String)>,
    pub template_period: Span,
}

/// Balanced deals in a basin, counted the four ways of docs/rules.md, section 9.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BalancedCounts {
    pub leader_1: usize,
    pub all: usize,
    pub exact: usize,
    pub leader_1_exact: usize,
}

/// A cycle of Casella's family: a balanced deal on it (player 1 leads) and its basin.
#[derive(Debug, Clone)]
pub struct FamilyCycle {
    pub id: String,
    pub source: String,
    pub deal: String,
    pub preperiod: Span,
    pub period: Span,
    pub cycle_id: String,
    pub basin_positions: u64,
    pub balanced: BalancedCounts,
}

/// The cycles built from Casella's three pieces.
#[derive(Debug, Clone)]
pub struct CasellaFamily {
    pub piece: Piece,
    pub cycles: Vec<FamilyCycle>,
}

/// Every fixture, typed.
#[derive(Debug, Clone)]
pub struct Golden {
    pub records: Vec<Record>,
    pub cycles: Vec<CycleCase>,
    pub paulhus_table1: Vec<PaulhusRow>,
    pub paulhus_table2: Table2,
    pub camicia_half_deck: EnumerationRow,
    pub casella_family: CasellaFamily,
    /// Every Camicia deal played (the 162 that never end, by period).
    pub camicia_deals: PublishedEnumeration,
}

macro_rules! fixture {
    ($name:literal) => {
        blocks::parse(
            concat!("crates/bmn-golden/data/", $name),
            include_str!(concat!("../data/", $name)),
        )
    };
}

fn span(b: &Block, key: &str) -> Span {
    span_of(b, key, &b.words(key))
}

fn span_of(b: &Block, key: &str, words: &[&str]) -> Span {
    match words {
        [t, c] => match (parse_word(t), parse_word(c)) {
            (Some(tricks), Some(cards)) => Span { tricks, cards },
            _ => b.bad(key, "want TRICKS CARDS"),
        },
        _ => b.bad(key, "want TRICKS CARDS"),
    }
}

fn at(b: &Block, key: &str) -> At {
    match b.words(key)[..] {
        [deal, leader] => At {
            deal: deal.to_string(),
            leader: parse_word(leader).unwrap_or_else(|| b.bad(key, "want DEAL LEADER")),
        },
        _ => b.bad(key, "want DEAL LEADER"),
    }
}

fn record(b: &Block) -> Record {
    b.only(&["name", "deal", "leader", "cards", "tricks", "winner"]);
    Record {
        id: b.id(),
        name: b.one("name").into(),
        source: b.source(),
        deal: b.one("deal").into(),
        leader: b.num("leader"),
        cards: b.num("cards"),
        tricks: b.num("tricks"),
        winner: b.num("winner"),
    }
}

fn cycle_case(b: &Block) -> CycleCase {
    b.only(&[
        "name",
        "deal",
        "leader",
        "preperiod",
        "period",
        "first_cycle_position",
        "cycle_id",
        "balanced_deals",
    ]);
    CycleCase {
        id: b.id(),
        name: b.one("name").into(),
        source: b.source(),
        deal: b.one("deal").into(),
        leader: b.num("leader"),
        preperiod: span(b, "preperiod"),
        period: span(b, "period"),
        first_cycle_position: b
            .maybe("first_cycle_position")
            .map(|_| at(b, "first_cycle_position")),
        cycle_id: b.maybe("cycle_id").map(String::from),
        balanced_deals: b.maybe("balanced_deals").map(|_| b.num("balanced_deals")),
    }
}

fn paulhus_row(b: &Block) -> PaulhusRow {
    b.only(&["plain", "deals", "cycling_deals", "published_p_second_wins"]);
    PaulhusRow {
        id: b.id(),
        source: b.source(),
        plain: b.num("plain"),
        deals: b.num("deals"),
        cycling_deals: b.num("cycling_deals"),
        published_p_second_wins: b.num("published_p_second_wins"),
    }
}

fn table2(b: &Block) -> Table2 {
    b.only(&[
        "deck",
        "cycling_deals",
        "period",
        "cycle_id",
        "representative",
        "deal",
    ]);
    let deals = b
        .many("deal")
        .into_iter()
        .map(
            |line| match line.split_whitespace().collect::<Vec<_>>()[..] {
                [index, deal, t, c] => CyclingDeal {
                    index: parse_word(index).unwrap_or_else(|| b.bad("deal", "bad rank")),
                    deal: deal.to_string(),
                    preperiod: span_of(b, "deal", &[t, c]),
                },
                _ => b.bad("deal", "want RANK DEAL TRICKS CARDS"),
            },
        )
        .collect();
    Table2 {
        source: b.source(),
        deck: b.one("deck").into(),
        cycling_deals: b.num("cycling_deals"),
        period: span(b, "period"),
        cycle_id: b.one("cycle_id").into(),
        representative: at(b, "representative"),
        deals,
    }
}

fn enumeration_row(b: &Block) -> EnumerationRow {
    b.only(&[
        "deck",
        "deals",
        "first_player_wins",
        "second_player_wins",
        "cycling_deals",
        "distinct_cycles",
        "longest",
        "cycle",
    ]);
    let longest = match b.words("longest")[..] {
        [cards, tricks, deal] => Longest {
            cards: parse_word(cards).unwrap_or_else(|| b.bad("longest", "bad cards")),
            tricks: parse_word(tricks).unwrap_or_else(|| b.bad("longest", "bad tricks")),
            deal: deal.to_string(),
        },
        _ => b.bad("longest", "want CARDS TRICKS DEAL"),
    };
    let cycles = b
        .many("cycle")
        .into_iter()
        .map(
            |line| match line.split_whitespace().collect::<Vec<_>>()[..] {
                [id, t, c, deals] => CycleCount {
                    cycle_id: id.to_string(),
                    period: span_of(b, "cycle", &[t, c]),
                    deals: parse_word(deals).unwrap_or_else(|| b.bad("cycle", "bad deal count")),
                },
                _ => b.bad("cycle", "want ID TRICKS CARDS DEALS"),
            },
        )
        .collect();
    EnumerationRow {
        id: b.id(),
        source: b.source(),
        deck: b.one("deck").into(),
        deals: b.num("deals"),
        first_player_wins: b.num("first_player_wins"),
        second_player_wins: b.num("second_player_wins"),
        cycling_deals: b.num("cycling_deals"),
        distinct_cycles: b.num("distinct_cycles"),
        longest,
        cycles,
    }
}

fn piece(b: &Block) -> Piece {
    b.only(&["form", "template_period"]);
    let forms = b
        .many("form")
        .into_iter()
        .map(
            |line| match line.split_whitespace().collect::<Vec<_>>()[..] {
                [form, id] => (form.to_string(), id.to_string()),
                _ => b.bad("form", "want PIECE CYCLE_ID"),
            },
        )
        .collect();
    Piece {
        source: b.source(),
        forms,
        template_period: span(b, "template_period"),
    }
}

fn family_cycle(b: &Block) -> FamilyCycle {
    b.only(&[
        "deal",
        "preperiod",
        "period",
        "cycle_id",
        "basin_positions",
        "balanced",
    ]);
    let counts: Vec<usize> = b
        .words("balanced")
        .iter()
        .map(|w| parse_word(w).unwrap_or_else(|| b.bad("balanced", "not a number")))
        .collect();
    let [leader_1, all, exact, leader_1_exact] = counts[..] else {
        b.bad("balanced", "want LEADER_1 ALL EXACT LEADER_1_EXACT")
    };
    FamilyCycle {
        id: b.id(),
        source: b.source(),
        deal: b.one("deal").into(),
        preperiod: span(b, "preperiod"),
        period: span(b, "period"),
        cycle_id: b.one("cycle_id").into(),
        basin_positions: b.num("basin_positions"),
        balanced: BalancedCounts {
            leader_1,
            all,
            exact,
            leader_1_exact,
        },
    }
}

/// Every fixture, parsed and typed. Panics with the file and line of a malformed fixture.
pub fn load() -> Golden {
    let table2_blocks = fixture!("paulhus-table2.txt");
    let camicia = fixture!("camicia-half-deck.txt");
    let family = fixture!("casella-family.txt");
    let (pieces, cycles): (Vec<&Block>, Vec<&Block>) =
        family.iter().partition(|b| !b.many("form").is_empty());
    let [table2_block] = &table2_blocks[..] else {
        panic!("paulhus-table2.txt holds one block")
    };
    let [camicia_block] = &camicia[..] else {
        panic!("camicia-half-deck.txt holds one block")
    };
    let [piece_block] = pieces[..] else {
        panic!("casella-family.txt holds one piece block")
    };
    let camicia_deals = fixture!("camicia-enumeration.txt");
    let [camicia_deals] = &camicia_deals[..] else {
        panic!("camicia-enumeration.txt holds one block")
    };
    Golden {
        records: fixture!("records.txt").iter().map(record).collect(),
        cycles: fixture!("cycles.txt").iter().map(cycle_case).collect(),
        paulhus_table1: fixture!("paulhus-table1.txt")
            .iter()
            .map(paulhus_row)
            .collect(),
        paulhus_table2: table2(table2_block),
        camicia_half_deck: enumeration_row(camicia_block),
        casella_family: CasellaFamily {
            piece: piece(piece_block),
            cycles: cycles.into_iter().map(family_cycle).collect(),
        },
        camicia_deals: published(camicia_deals),
    }
}

fn published(b: &Block) -> PublishedEnumeration {
    b.only(&["id", "source", "deck", "deals", "cycling_deals", "row"]);
    let rows = b
        .many("row")
        .into_iter()
        .map(|r| {
            let w: Vec<&str> = r.split_whitespace().collect();
            match w
                .iter()
                .map(|x| parse_word(x))
                .collect::<Option<Vec<u64>>>()
            {
                Some(v) if v.len() == 4 => PeriodRow {
                    period: Span {
                        tricks: v[0],
                        cards: v[1],
                    },
                    cycles: v[2],
                    deals: v[3],
                },
                _ => b.bad("row", "want TRICKS CARDS CYCLES DEALS"),
            }
        })
        .collect();
    PublishedEnumeration {
        id: b.id(),
        source: b.source(),
        deck: b.one("deck").to_string(),
        deals: b.num("deals"),
        cycling_deals: b.num("cycling_deals"),
        rows,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn factorial(n: u64) -> u128 {
        (1..=u128::from(n)).product()
    }

    #[test]
    fn every_fixture_loads_and_names_its_source() {
        let g = load();
        assert_eq!(g.records.len(), 9);
        assert_eq!(g.cycles.len(), 2);
        assert_eq!(g.paulhus_table1.len(), 10);
        let c = &g.camicia_deals;
        assert_eq!(c.rows.iter().map(|r| r.deals).sum::<u64>(), c.cycling_deals);
        assert_eq!(c.rows.iter().map(|r| r.cycles).sum::<u64>(), 9);
        assert!(!c.source.is_empty());
        assert_eq!(g.paulhus_table2.deals.len(), 36);
        assert_eq!(g.casella_family.piece.forms.len(), 4);
        assert_eq!(g.casella_family.cycles.len(), 4);
        let sources = g
            .records
            .iter()
            .map(|r| &r.source)
            .chain(g.cycles.iter().map(|c| &c.source))
            .chain(g.paulhus_table1.iter().map(|r| &r.source))
            .chain([&g.paulhus_table2.source, &g.camicia_half_deck.source]);
        for s in sources {
            assert!(s.len() > 20, "a source names paper and table: {s:?}");
        }
    }

    /// The deal counts of Table 1 are the multinomial (8 + n)! / (2!^4 n!): a typo in a fixture
    /// would otherwise pass as a figure the enumeration "failed" to reproduce.
    #[test]
    fn table_1_counts_are_the_multinomial() {
        for row in load().paulhus_table1 {
            let n = u64::from(row.plain);
            let want = factorial(8 + n) / (16 * factorial(n));
            assert_eq!(u128::from(row.deals), want, "n = {n}");
        }
    }

    #[test]
    fn table_2_is_36_distinct_sorted_deals() {
        let t = load().paulhus_table2;
        assert_eq!(t.deals.len() as u64, t.cycling_deals);
        assert!(t.deals.windows(2).all(|w| w[0].index < w[1].index));
    }
}
