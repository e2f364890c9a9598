//! `bmn records`: the longest known games (data in `data/records.json` with their sources),
//! each replayed by the reference engine; `--verify` fails on any disagreement.

use std::fmt::Write as _;

use anyhow::{Result, bail};
use bmn_core::{Outcome, Player, Position, Rules, play_out};
use serde::{Deserialize, Serialize};

use crate::cli::RecordsArgs;
use crate::input;
use crate::output;

/// The record table, compiled in (kept as data so it can be read and cited on its own).
const DATA: &str = include_str!("../data/records.json");

#[derive(Deserialize)]
struct Data {
    about: String,
    records: Vec<Record>,
}

#[derive(Deserialize, Serialize, Clone)]
struct Record {
    name: String,
    finder: String,
    year: u32,
    deal: String,
    leader: usize,
    cards: u64,
    tricks: u64,
    winner: usize,
}

/// A record with what the engine found when it replayed the deal.
#[derive(Serialize)]
struct Checked {
    #[serde(flatten)]
    record: Record,
    replayed: Replayed,
    verified: bool,
}

#[derive(Serialize)]
struct Replayed {
    cards: u64,
    tricks: u64,
    winner: Option<usize>,
}

#[derive(Serialize)]
struct RecordsJson {
    about: String,
    records: Vec<Checked>,
    all_verified: bool,
}

pub fn run(args: &RecordsArgs) -> Result<()> {
    if let Some(path) = &args.plot {
        input::plot_path(path)?;
    }
    let data: Data = serde_json::from_str(DATA).expect("the compiled-in record table parses");
    let checked: Vec<Checked> = data.records.into_iter().map(replay).collect();
    let all_verified = checked.iter().all(|c| c.verified);
    let disagreements: Vec<String> = checked
        .iter()
        .filter(|c| !c.verified)
        .map(|c| {
            format!(
                "{}: published {} cards, {} tricks, winner {}; replayed {} cards, {} tricks, winner {:?}",
                c.record.name,
                c.record.cards,
                c.record.tricks,
                c.record.winner,
                c.replayed.cards,
                c.replayed.tricks,
                c.replayed.winner
            )
        })
        .collect();
    if let Some(path) = &args.plot {
        let points: Vec<bmn_plot::Record> = checked
            .iter()
            .map(|c| bmn_plot::Record {
                year: f64::from(c.record.year),
                cards: c.replayed.cards,
                tricks: c.replayed.tricks,
                label: c.record.finder.clone(),
            })
            .collect();
        bmn_plot::records(path, "Longest known games of Beggar-My-Neighbour", &points)?;
    }
    if args.json {
        output::print_json(&RecordsJson {
            about: data.about,
            records: checked,
            all_verified,
        })?;
    } else {
        let mut t = String::new();
        writeln!(
            t,
            "year  cards  tricks  winner  finder            deal (player 1 leads)"
        )?;
        for c in &checked {
            let r = &c.record;
            let mark = if c.verified { "" } else { "  <- DISAGREES" };
            writeln!(
                t,
                "{}  {:>5}  {:>6}  {:>6}  {:<16}  {}{mark}",
                r.year, r.cards, r.tricks, r.winner, r.finder, r.deal
            )?;
        }
        writeln!(
            t,
            "{} records, {}",
            checked.len(),
            if all_verified {
                "every one replayed by the reference engine to the published cards, tricks and winner"
            } else {
                "SOME DISAGREE with the reference engine"
            }
        )?;
        if let Some(path) = &args.plot {
            writeln!(t, "plot: {}", path.display())?;
        }
        output::print(&t)?;
    }
    if args.verify && !all_verified {
        bail!(
            "--verify: {} record(s) disagree: {}",
            disagreements.len(),
            disagreements.join("; ")
        );
    }
    Ok(())
}

/// Replays one record with the reference engine.
fn replay(record: Record) -> Checked {
    let start = Position::parse_deal(&record.deal, Player(record.leader - 1))
        .expect("the compiled-in record deals parse");
    let replayed = match play_out(&Rules::STANDARD, &start) {
        Outcome::Finished {
            winner,
            cards,
            tricks,
        } => Replayed {
            cards,
            tricks,
            winner: Some(winner.number()),
        },
        Outcome::Cycle(c) => Replayed {
            cards: c.preperiod.cards + c.period.cards,
            tricks: c.preperiod.tricks + c.period.tricks,
            winner: None,
        },
    };
    let verified = (replayed.cards, replayed.tricks, replayed.winner)
        == (record.cards, record.tricks, Some(record.winner));
    Checked {
        record,
        replayed,
        verified,
    }
}
