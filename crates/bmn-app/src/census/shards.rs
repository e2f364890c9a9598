//! The census's `deals` from every deal's outcome: an enumeration played here, or the result
//! files of every shard of one `bmn exhaustive --list-cycles` run (`--enumeration`), merged
//! exactly as `bmn merge` merges them and refused as it refuses them.
//!
//! Where every cycling deal is listed, the census checks its catalogue against the list: the
//! balanced deals a complete basin search finds on a cycle are the enumeration's deals of that
//! cycle, with player 1 leading (a run with player 2 leading lists each with its hands
//! swapped: renaming the players keeps the cycle's id, docs/rules.md).

use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;
use std::time::Instant;

use bmn_census::CensusCycle;
use bmn_core::{CycleId, Deck, Player, Position, Rules};
use bmn_params::message;
use bmn_search::{DealSource, Summary};

use crate::Message;
use crate::error::{Error, Input, Result};
use crate::exhaustive::ExhaustiveReport;
use crate::json::LongGameJson;
use crate::merge::{MergeReport, merge};

/// The shards' files, read and merged.
#[derive(Clone, Debug)]
pub struct Sharded {
    pub files: Vec<PathBuf>,
    pub deck: Deck,
    /// The penalties the enumeration was played with.
    pub penalties: String,
    pub report: ExhaustiveReport,
    /// Reading and merging them.
    pub elapsed_seconds: f64,
}

impl Sharded {
    /// Reads and merges `files`. Refused in one line, naming the file where one is at fault:
    /// whatever `bmn merge` refuses (a file of another run or deck, cut or edited, a shard
    /// missing from the middle or given twice, an unfinished one), a search's file, a run
    /// without `--list-cycles`, and shards that do not cover the whole deck.
    pub fn read(files: &[PathBuf]) -> Result<Sharded> {
        let t = Instant::now();
        let bad = |e: Error| match e {
            Error::Input(m) => Error::Input(Input {
                parameter: Some("enumeration"),
                detail: Message::text(": ").then(m.message()),
                ..m
            }),
            Error::Failed(m, cause) => Error::Failed(message!("--enumeration: ").then(m), cause),
        };
        let search_file = |file: &PathBuf| {
            Error::bad_with(
                "enumeration",
                format!(
                    ": {} is a search's result file; the census reads the \
                     files of `bmn exhaustive --list-cycles`",
                    file.display()
                ),
            )
        };
        // Said before merging: a search's shards would otherwise be refused for what they
        // lack as shards (a gap) rather than for what they are.
        if let Some(file) = files
            .iter()
            .find(|f| bmn_run::format_of(f).is_ok_and(|format| format == crate::search::FORMAT))
        {
            return Err(search_file(file));
        }
        let report = match merge(files).map_err(bad)? {
            MergeReport::Exhaustive(r) => r,
            MergeReport::Search(_) => return Err(search_file(&files[0])),
        };
        if !report.list_cycles {
            return Err(Error::bad_with(
                "enumeration",
                message!(
                    ": the files are of a `bmn exhaustive` run without --list-cycles; the census \
                     checks every cycling deal against its basins, so run the shards with \
                     --list-cycles"
                ),
            ));
        }
        if !report.all_shards {
            return Err(Error::bad_with(
                "enumeration",
                format!(
                    ": the files hold shard(s) {}, ranks {}..{} of the deck's {} \
                 deals; the census needs every shard",
                    report.shards, report.ranks[0], report.ranks[1], report.deck_deals
                ),
            ));
        }
        Ok(Sharded {
            files: files.to_vec(),
            deck: report.deck,
            penalties: report.penalties.clone(),
            report,
            elapsed_seconds: t.elapsed().as_secs_f64(),
        })
    }

    /// Refuses a table or rules other than the enumeration's.
    pub fn matches(&self, source: &DealSource, rules: &Rules) -> Result<()> {
        if source.players() != 2 {
            return Err(Error::bad_with(
                "players",
                format!(
                    ": the enumeration files are of two players, not {}",
                    source.players()
                ),
            ));
        }
        if source.deck() != &self.deck {
            return Err(Error::bad_with(
                "deck",
                format!(
                    ": the enumeration files are of deck {}, not {}",
                    self.deck,
                    source.deck()
                ),
            ));
        }
        if rules.penalties.to_string() != self.penalties {
            return Err(Error::bad_with(
                "penalties",
                format!(
                    ": the enumeration files were played with penalties {}, not {}",
                    self.penalties, rules.penalties
                ),
            ));
        }
        Ok(())
    }
}

/// What `deals` found: every deal's outcome, by cycle.
#[derive(Clone, Debug)]
pub struct Enumerated {
    pub deals: u64,
    pub cycling: u64,
    /// Each cycle reached: a position reaching it and how many deals do.
    pub classes: BTreeMap<CycleId, (Position, u64)>,
    /// Every deal of the deck was played.
    pub complete: bool,
    /// Every cycling deal by cycle, as dealt with player 1 leading, where the run listed
    /// them all.
    pub listed: Option<BTreeMap<CycleId, BTreeSet<String>>>,
    /// How the games that end went, where the fast kernels played them (two players).
    pub outcomes: Option<Outcomes>,
}

/// How the deals' finished games went: the figures of Paulhus's Table 1 beside the cycles.
#[derive(Clone, Debug)]
pub struct Outcomes {
    /// Deals the player who does not lead wins, over every deal (cycling ones included).
    pub p_second_wins: f64,
    /// The longest finished game, as the enumeration dealt it (its `leader` led).
    pub longest: Option<LongGameJson>,
    /// Over the finished games.
    pub mean_cards: f64,
}

impl Enumerated {
    /// From an enumeration's summary (`leader` led every deal).
    pub fn of_summary(summary: &Summary, leader: Player, complete: bool) -> Result<Enumerated> {
        let mut classes = BTreeMap::new();
        for (id, c) in &summary.classes {
            let p = representative(&c.representative, c.representative_leader)?;
            classes.insert(*id, (p, c.deals));
        }
        let listed = (summary.cycles.len() as u64 == summary.cycling).then(|| {
            let mut by_cycle: BTreeMap<CycleId, BTreeSet<String>> = BTreeMap::new();
            for c in &summary.cycles {
                let deal = match (leader, c.deal.split_once('/')) {
                    (Player(1), Some((one, two))) => format!("{two}/{one}"),
                    _ => c.deal.clone(),
                };
                by_cycle.entry(c.cycle_id).or_default().insert(deal);
            }
            by_cycle
        });
        // The player who does not lead: player 2, or player 1 in an enumeration led by
        // player 2 (the same deals with the hands swapped, so the same odds).
        let follows = if leader == Player(0) { 1 } else { 0 };
        // As the enumeration dealt it: its `leader` and `index` are that run's.
        let longest = summary
            .longest
            .first()
            .map(|f| LongGameJson::new(f, leader.number()));
        let outcomes = Outcomes {
            p_second_wins: summary.wins.get(follows).copied().unwrap_or(0) as f64
                / summary.games.max(1) as f64,
            longest,
            mean_cards: summary.mean_cards(),
        };
        Ok(Enumerated {
            deals: summary.games,
            cycling: summary.cycling,
            classes,
            complete,
            listed,
            outcomes: Some(outcomes),
        })
    }

    /// Checks every cycle of `catalogue` whose basin was searched to its end against the
    /// enumeration's list: the same deals, or the census has a bug (reported, never printed
    /// as an answer).
    pub fn agrees_with(&self, catalogue: &[CensusCycle]) -> Result<()> {
        let Some(listed) = &self.listed else {
            return Ok(());
        };
        let none = BTreeSet::new();
        for c in catalogue.iter().filter(|c| c.basin_complete) {
            let found: BTreeSet<String> = c.deals.iter().map(|d| d.deal.clone()).collect();
            let want = listed.get(&c.id).unwrap_or(&none);
            if &found != want {
                return Err(Error::failed(format!(
                    "cycle {}: its basin holds {} balanced deals and the enumeration lists {} \
                     ({} in common); this is a bug in bmn, please report it",
                    c.id,
                    found.len(),
                    want.len(),
                    found.intersection(want).count()
                )));
            }
        }
        Ok(())
    }
}

// A cycle's representative as an enumeration's summary holds it (deal text and 1-based
// leader, as its result files store it): bmn wrote it, so one that does not read back is a
// failure, not the user's input.
fn representative(deal: &str, leader: usize) -> Result<Position> {
    Position::parse(deal, Player(leader.saturating_sub(1)))
        .map_err(|e| Error::failed(format!("a cycle's representative '{deal}': {e}")))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::AtomicBool;

    /// The one cycle of `2J,2Q,2K,14-`, described with its 16 balanced deals.
    fn half_camicia() -> CensusCycle {
        let p = Position::parse("----J--Q--/--K-K-Q-J-", Player(0)).unwrap();
        bmn_census::describe(&Rules::STANDARD, &p, 100_000, &AtomicBool::new(false)).unwrap()
    }

    fn listing(c: &CensusCycle, deals: impl Iterator<Item = String>) -> Enumerated {
        Enumerated {
            deals: 0,
            cycling: 0,
            classes: BTreeMap::new(),
            complete: true,
            listed: Some([(c.id, deals.collect())].into_iter().collect()),
            outcomes: None,
        }
    }

    #[test]
    fn the_basins_deals_must_be_the_enumerations() {
        let c = half_camicia();
        assert_eq!(c.deals.len(), 16);
        let all = || c.deals.iter().map(|d| d.deal.clone());
        assert!(
            listing(&c, all())
                .agrees_with(std::slice::from_ref(&c))
                .is_ok()
        );
        let e = listing(&c, all().skip(1))
            .agrees_with(std::slice::from_ref(&c))
            .unwrap_err();
        assert!(
            e.to_string()
                .contains("its basin holds 16 balanced deals and the enumeration lists 15"),
            "{e}"
        );
        // An enumeration that did not list every cycling deal checks nothing.
        let unlisted = Enumerated {
            listed: None,
            ..listing(&c, all())
        };
        assert!(unlisted.agrees_with(&[c]).is_ok());
    }
}
