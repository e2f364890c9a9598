//! `family`: exact census reports of decks that differ only in their number of plain cards
//! (`3J,3Q,3K,n-` for n = 1, 2, ...), one row each: deals, endless deals, cycles by period and
//! by class, the longest game, the second player's odds, and where each kind of cycle first
//! appears. The tables and plots of docs/results.md, Part 9, are this command's output.
//!
//! It reads the `--json` of `bmn census` whose deals were all played (here or from
//! `--enumeration` files): a row is the deck's truth, never a floor.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use bmn_params::message;
use serde::{Deserialize, Serialize};

use crate::Message;
use crate::error::{Error, Result};
use crate::json::LongGameJson;
use crate::thousands;
use bmn_census::{ClassCount, Classes, PeriodCount};

/// What `bmn family` is asked: its parameters.
#[derive(clap::Args, Clone, Debug, Default)]
pub struct FamilyRequest {
    /// Census reports (`bmn census --methods deals --json`, or with --enumeration) of decks
    /// alike but for their plain cards, in any order: refused if a census did not play every
    /// deal or was interrupted.
    #[arg(required = true, value_name = "FILE")]
    pub files: Vec<PathBuf>,
    /// Print the tables in Markdown (docs/results.md's) instead of text.
    #[arg(long)]
    pub markdown: bool,
    /// Draw the endless deals and the cycles of each class against n into FILE (.svg or
    /// .png; the files must hold one family).
    #[arg(long, value_name = "FILE")]
    pub plot: Option<PathBuf>,
}

/// `family --json`: the families the files hold, each row in order of n.
#[derive(Serialize, Clone, Debug)]
pub struct FamilyReport {
    pub families: Vec<Family>,
    #[serde(skip)]
    markdown: bool,
}

/// Decks alike but for their plain cards, at one table under one set of rules.
#[derive(Serialize, Clone, Debug)]
pub struct Family {
    /// The decks with their plain count as `n`: `3J,3Q,3K,n-`.
    pub family: String,
    pub players: usize,
    pub penalties: String,
    pub on_empty: String,
    pub rows: Vec<FamilyRow>,
    /// The smallest n with a cycle (null: none has one).
    pub first_cycle: Option<u32>,
    /// The smallest n with an anti-periodic cycle.
    pub first_anti_periodic: Option<u32>,
    /// For each k from 2 (a cycle's hands always hold a card) to the largest `min_hand` seen,
    /// the smallest n with a cycle whose hands never fall below k cards.
    pub first_min_hand: Vec<FirstAt>,
}

/// Where something first appears along a family.
#[derive(Serialize, Clone, Copy, Debug, PartialEq, Eq)]
pub struct FirstAt {
    pub cards: usize,
    pub n: u32,
}

/// One deck of a family, from one census report.
#[derive(Serialize, Clone, Debug)]
pub struct FamilyRow {
    /// Its plain cards.
    pub n: u32,
    pub deck: String,
    /// The report it was read from.
    pub file: String,
    pub deals: u64,
    pub endless_deals: u64,
    pub cycles: usize,
    pub by_period: Vec<PeriodCount>,
    pub by_class: Classes,
    pub p_second_wins: Option<f64>,
    pub longest: Option<LongGameJson>,
    pub mean_cards: Option<f64>,
}

/// What `family` reads of a census report; the rest is ignored.
#[derive(Deserialize)]
struct CensusFile {
    deck: String,
    players: usize,
    penalties: String,
    on_empty: String,
    exact: bool,
    interrupted: bool,
    deals_run: Option<DealsFile>,
    by_period: Vec<PeriodCount>,
    by_class: Classes,
}

#[derive(Deserialize)]
struct DealsFile {
    deals: u64,
    cycling_deals: u64,
    distinct_cycle_count: usize,
    p_second_wins: Option<f64>,
    longest: Option<LongGameJson>,
    mean_cards: Option<f64>,
}

/// Reads every file, groups the rows by family, and draws the plot if asked.
pub fn family(req: &FamilyRequest) -> Result<FamilyReport> {
    if req.files.is_empty() {
        return Err(Error::input(
            "no census reports given: name the files of a family's census reports (one per deck)",
        ));
    }
    if let Some(p) = &req.plot {
        crate::input::plot_path(p)?;
    }
    type Key = (String, usize, String, String);
    let mut groups: BTreeMap<Key, Vec<FamilyRow>> = BTreeMap::new();
    for path in &req.files {
        let (key, row) = read_row(path)?;
        let rows = groups.entry(key.clone()).or_default();
        if let Some(twin) = rows.iter().find(|r| r.n == row.n) {
            return Err(Error::input(format!(
                "{} and {} are both {} (family {}): give each deck once",
                twin.file, row.file, row.deck, key.0
            )));
        }
        rows.push(row);
    }
    let families: Vec<Family> = groups
        .into_iter()
        .map(|((family, players, penalties, on_empty), mut rows)| {
            rows.sort_by_key(|r| r.n);
            firsts(Family {
                family,
                players,
                penalties,
                on_empty,
                rows,
                first_cycle: None,
                first_anti_periodic: None,
                first_min_hand: Vec::new(),
            })
        })
        .collect();
    if let Some(path) = &req.plot {
        plot(path, &families)?;
    }
    Ok(FamilyReport {
        families,
        markdown: req.markdown,
    })
}

fn read_row(path: &Path) -> Result<((String, usize, String, String), FamilyRow)> {
    let name = path.display().to_string();
    let text =
        std::fs::read_to_string(path).map_err(|e| Error::input(format!("reading {name}: {e}")))?;
    let f: CensusFile = serde_json::from_str(&text).map_err(|e| {
        Error::input(message!(
            "{} is not the --json of `bmn census` (as this version writes it): {}",
            name,
            e
        ))
    })?;
    let refuse = |why: Message| Error::input(message!("{} ({}): ", name, f.deck).then(why));
    if f.interrupted {
        return Err(refuse(Message::text(
            "the census was interrupted, so its counts are partial; run it to the end",
        )));
    }
    let Some(d) = f.deals_run.as_ref().filter(|_| f.exact) else {
        return Err(refuse(message!(
            "not every deal was played, so its counts are a floor, not the deck's; a family \
             row needs `bmn census --methods deals` (or --enumeration)"
        )));
    };
    let (family, n) = split_deck(&f.deck);
    let row = FamilyRow {
        n,
        deck: f.deck.clone(),
        file: name,
        deals: d.deals,
        endless_deals: d.cycling_deals,
        cycles: d.distinct_cycle_count,
        by_period: f.by_period.clone(),
        by_class: f.by_class,
        p_second_wins: d.p_second_wins,
        longest: d.longest.clone(),
        mean_cards: d.mean_cards,
    };
    Ok(((family, f.players, f.penalties, f.on_empty), row))
}

/// A deck's family and plain count: `3J,3Q,3K,12-` is `3J,3Q,3K,n-` and 12; a deck without
/// plain cards is its family's n = 0.
pub fn split_deck(deck: &str) -> (String, u32) {
    let mut n = 0;
    let mut parts: Vec<String> = Vec::new();
    for part in deck.split(',') {
        match part.strip_suffix('-').map(str::parse::<u32>) {
            Some(Ok(k)) => n = k,
            _ => parts.push(part.to_string()),
        }
    }
    parts.push("n-".into());
    (parts.join(","), n)
}

/// The family with its firsts filled in from its rows.
fn firsts(mut f: Family) -> Family {
    let first = |test: &dyn Fn(&FamilyRow) -> bool| f.rows.iter().find(|r| test(r)).map(|r| r.n);
    f.first_cycle = first(&|r| r.cycles > 0);
    f.first_anti_periodic = first(&|r| r.by_class.anti_periodic.cycles > 0);
    let top = f
        .rows
        .iter()
        .filter_map(|r| r.by_class.all.largest_min_hand)
        .max()
        .unwrap_or(0);
    f.first_min_hand = (2..=top)
        .filter_map(|k| {
            first(&|r| r.by_class.all.largest_min_hand >= Some(k)).map(|n| FirstAt { cards: k, n })
        })
        .collect();
    f
}

fn plot(path: &Path, families: &[Family]) -> Result<()> {
    let [f] = families else {
        return Err(Error::bad_with(
            "plot",
            format!(
                ": the files hold {} families ({}); plot one at a time",
                families.len(),
                families
                    .iter()
                    .map(|f| f.family.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        ));
    };
    let series = |count: fn(&ClassCount) -> usize| -> Vec<bmn_plot::Series> {
        let class = |label: &str, of: fn(&Classes) -> &ClassCount| bmn_plot::Series {
            label: label.to_string(),
            points: f
                .rows
                .iter()
                .map(|r| (f64::from(r.n), count(of(&r.by_class)) as f64))
                .collect(),
        };
        vec![
            class("every cycle", |k| &k.all),
            class("anti-periodic", |k| &k.anti_periodic),
            class("splits at a rest state", |k| &k.splits_at_rest_state),
            class("neither", |k| &k.neither),
        ]
    };
    bmn_plot::family(
        path,
        &format!(
            "{}: endless games by class, every deal played ({} players)",
            f.family, f.players
        ),
        &series(|k| k.deals),
        &series(|k| k.cycles),
    )?;
    Ok(())
}

/// `a (b)`: a class's cycles and, in brackets, their deals.
fn class_cell(k: &ClassCount) -> String {
    format!("{} ({})", k.cycles, k.deals)
}

/// The periods of a row's cycles, `24x2, 8x1`: tricks times cycles, longest first.
fn periods(r: &FamilyRow) -> String {
    if r.by_period.is_empty() {
        return "-".into();
    }
    r.by_period
        .iter()
        .rev()
        .map(|p| format!("{}x{}", p.tricks, p.cycles))
        .collect::<Vec<_>>()
        .join(", ")
}

fn min_hand(k: &ClassCount) -> String {
    k.largest_min_hand.map_or("-".into(), |m| m.to_string())
}

impl Family {
    /// Where each kind of cycle first appears, in a sentence.
    pub fn firsts_text(&self) -> String {
        let at = |n: Option<u32>| n.map_or("at no n here".to_string(), |n| format!("at n = {n}"));
        let mut t = format!(
            "first cycle {}; first anti-periodic cycle {}",
            at(self.first_cycle),
            at(self.first_anti_periodic)
        );
        if !self.first_min_hand.is_empty() {
            let ks: Vec<String> = self
                .first_min_hand
                .iter()
                .map(|f| format!("{} at {}", f.cards, f.n))
                .collect();
            let _ = write!(t, "; hands never below k cards: k = {}", ks.join(", "));
        }
        t
    }

    fn text(&self, t: &mut String) {
        let _ = writeln!(
            t,
            "family {} ({} players; penalties {}; on empty {}; {} rows)",
            self.family,
            self.players,
            self.penalties,
            self.on_empty,
            self.rows.len()
        );
        let _ = writeln!(
            t,
            "{:>4} {:>15} {:>8} {:>6} {:>14} {:>14} {:>12} {:>8} {:>8} {:>12}",
            "n",
            "deals",
            "endless",
            "cycles",
            "anti-periodic",
            "rest state",
            "neither",
            "min hand",
            "P(2nd)",
            "longest"
        );
        for r in &self.rows {
            let k = &r.by_class;
            let _ = writeln!(
                t,
                "{:>4} {:>15} {:>8} {:>6} {:>14} {:>14} {:>12} {:>8} {:>8} {:>12}",
                r.n,
                r.deals,
                r.endless_deals,
                r.cycles,
                class_cell(&k.anti_periodic),
                class_cell(&k.splits_at_rest_state),
                class_cell(&k.neither),
                min_hand(&k.all),
                r.p_second_wins.map_or("-".into(), |p| format!("{p:.6}")),
                r.longest
                    .as_ref()
                    .map_or("-".into(), |l| format!("{} / {}", l.cards, l.tricks)),
            );
        }
        let _ = writeln!(t, "{}", self.firsts_text());
    }

    fn markdown(&self, t: &mut String) {
        let _ = writeln!(
            t,
            "| n | deals | endless deals | cycles: periods (tricks x cycles) | anti-periodic \
             (deals) | split at a rest state (deals) | neither (deals) | largest min hand \
             (anti-periodic) | P(2nd) | longest finite game: cards / tricks, deal |"
        );
        let _ = writeln!(t, "|---:|---:|---:|---|---:|---:|---:|---:|---:|---|");
        for r in &self.rows {
            let k = &r.by_class;
            let _ = writeln!(
                t,
                "| {} | {} | {} | {}{} | {} | {} | {} | {} ({}) | {} | {} |",
                r.n,
                thousands(&r.deals.to_string()),
                r.endless_deals,
                r.cycles,
                if r.cycles > 0 {
                    format!(": {}", periods(r))
                } else {
                    String::new()
                },
                class_cell(&k.anti_periodic),
                class_cell(&k.splits_at_rest_state),
                class_cell(&k.neither),
                min_hand(&k.all),
                min_hand(&k.anti_periodic),
                r.p_second_wins.map_or("-".into(), |p| format!("{p:.6}")),
                r.longest.as_ref().map_or("-".into(), |l| format!(
                    "{} / {}, `{}`",
                    l.cards, l.tricks, l.deal
                )),
            );
        }
    }
}

impl crate::Report for FamilyReport {
    fn text(&self) -> String {
        let mut t = String::new();
        for (i, f) in self.families.iter().enumerate() {
            if i > 0 {
                t.push('\n');
            }
            if self.markdown {
                f.markdown(&mut t);
            } else {
                f.text(&mut t);
            }
        }
        t
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_deck_splits_into_its_family_and_plain_count() {
        assert_eq!(split_deck("3J,3Q,3K,12-"), ("3J,3Q,3K,n-".into(), 12));
        assert_eq!(split_deck("2J,2Q,2K,2A,28-"), ("2J,2Q,2K,2A,n-".into(), 28));
        assert_eq!(split_deck("2J,2Q,2K"), ("2J,2Q,2K,n-".into(), 0));
    }
}
