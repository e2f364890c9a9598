//! `records`: the longest known games (`data/records.json`, compiled in, with its sources),
//! each replayed by the reference engine; and the published history of record searches.

use std::fmt::Write as _;
use std::path::PathBuf;

use bmn_core::{Outcome, Player, Position, Rules, play_out};
use bmn_params::message;
use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};
use crate::input;

const DATA: &str = include_str!("../data/records.json");

#[derive(Deserialize)]
struct Data {
    about: String,
    search_history: Vec<Search>,
    records: Vec<Record>,
    cycles: Vec<PublishedCycle>,
}

/// A published game that never ends (or a position on its cycle), for replay pages.
#[derive(Deserialize, Serialize, Clone, Debug, PartialEq, Eq)]
pub struct PublishedCycle {
    pub name: String,
    pub deal: String,
    pub leader: usize,
    pub source: String,
}

/// A published record game.
#[derive(Deserialize, Serialize, Clone, Debug, PartialEq, Eq)]
pub struct Record {
    pub name: String,
    pub finder: String,
    pub year: u32,
    pub deal: String,
    pub leader: usize,
    pub cards: u64,
    pub tricks: u64,
    pub winner: usize,
}

/// A published random search: about how many games it played and the longest it found (the
/// game counts are the searchers' own estimates, so only their order of magnitude counts).
#[derive(Deserialize, Clone, Debug, PartialEq)]
pub struct Search {
    pub games: f64,
    pub cards: u64,
    pub who: String,
}

fn data() -> Data {
    serde_json::from_str(DATA).expect("the compiled-in record table parses")
}

/// The record games, oldest first.
pub fn table() -> Vec<Record> {
    data().records
}

/// Published games that never end.
pub fn cycles() -> Vec<PublishedCycle> {
    data().cycles
}

/// The published record searches, oldest first.
pub fn search_history() -> Vec<Search> {
    data().search_history
}

/// The longest record game (the one a new record must beat).
pub fn longest() -> Record {
    table()
        .into_iter()
        .max_by_key(|r| r.cards)
        .expect("the record table is not empty")
}

/// A record with what the reference engine makes of it.
#[derive(Serialize, Clone, Debug)]
pub struct Checked {
    #[serde(flatten)]
    pub record: Record,
    pub replayed: Replayed,
    pub verified: bool,
}

/// A record's game as the reference engine plays it.
#[derive(Serialize, Clone, Debug)]
pub struct Replayed {
    pub cards: u64,
    pub tricks: u64,
    pub winner: Option<usize>,
}

/// `records --json`.
#[derive(Serialize, Clone, Debug)]
pub struct RecordsReport {
    pub about: String,
    pub records: Vec<Checked>,
    pub all_verified: bool,
    #[serde(skip)]
    pub plot: Option<PathBuf>,
}

const RECORDS_PLOT: &str = "Draw record length against year (cards and tricks) into FILE (.svg \
    or .png)";

/// `bmn records`' parameters.
#[derive(clap::Args, Clone, Debug, Default)]
#[command(mut_arg("plot", |a| a.help(RECORDS_PLOT)))]
pub struct RecordsRequest {
    /// Exit with an error if any record disagrees with the reference engine.
    #[arg(long)]
    pub verify: bool,
    #[command(flatten)]
    pub plot: crate::flags::PlotArg,
}

/// Every record replayed; the plot of record length against year drawn if asked (`verify` is
/// the caller's, with [`RecordsReport::verify`], once the report is shown).
pub fn records(req: &RecordsRequest) -> Result<RecordsReport> {
    let plot = req.plot.plot.as_deref();
    if let Some(path) = plot {
        input::plot_path(path)?;
    }
    let data = data();
    let checked: Vec<Checked> = data.records.into_iter().map(replay).collect();
    if let Some(path) = plot {
        let points: Vec<bmn_plot::RecordPoint> = checked
            .iter()
            .map(|c| bmn_plot::RecordPoint {
                year: f64::from(c.record.year),
                cards: c.replayed.cards,
                tricks: c.replayed.tricks,
                label: c.record.finder.clone(),
            })
            .collect();
        bmn_plot::records(path, "Longest known games of Beggar-My-Neighbour", &points)?;
    }
    Ok(RecordsReport {
        about: data.about,
        all_verified: checked.iter().all(|c| c.verified),
        records: checked,
        plot: plot.map(std::path::Path::to_path_buf),
    })
}

impl RecordsReport {
    /// `--verify`: an error naming every record the engine disagrees with.
    pub fn verify(&self) -> Result<()> {
        let disagreements: Vec<String> = self
            .records
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
        if disagreements.is_empty() {
            return Ok(());
        }
        Err(Error::failed(message!(
            "--verify: {} record(s) disagree: {}",
            disagreements.len(),
            disagreements.join("; ")
        )))
    }
}

impl crate::Report for RecordsReport {
    fn text(&self) -> String {
        let mut t = String::new();
        let _ = writeln!(
            t,
            "year  cards  tricks  winner  finder            deal (player 1 leads)"
        );
        for c in &self.records {
            let r = &c.record;
            let mark = if c.verified { "" } else { "  <- DISAGREES" };
            let _ = writeln!(
                t,
                "{}  {:>5}  {:>6}  {:>6}  {:<16}  {}{mark}",
                r.year, r.cards, r.tricks, r.winner, r.finder, r.deal
            );
        }
        let _ = writeln!(
            t,
            "{} records, {}",
            self.records.len(),
            if self.all_verified {
                "every one replayed by the reference engine to the published cards, tricks and winner"
            } else {
                "SOME DISAGREE with the reference engine"
            }
        );
        if let Some(path) = &self.plot {
            let _ = writeln!(t, "plot: {}", path.display());
        }
        t
    }
}

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
