//! `bmn exhaustive`: every deal of a deck, sharded, checkpointed, resumable and mergeable.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use bmn_core::{Deck, Player};
use bmn_exhaustive::{AllDeals, Enumeration, MAX_TRICKS, Progress, Shard};
use bmn_search::Summary;
use serde::{Deserialize, Serialize};

use crate::cli::ExhaustiveArgs;
use crate::input::{self, BadInput, bad};
use crate::output::{self, CycleClassJson, CyclingDealJson, FoundJson};
use crate::progress;

/// Set by Ctrl-C: the run stops at the next unit, saves its checkpoint and reports.
static STOP: AtomicBool = AtomicBool::new(false);

/// How often a running enumeration rewrites its checkpoint.
const CHECKPOINT_EVERY: Duration = Duration::from_secs(5);

/// Names the version of the checkpoint format, so an old file is refused, not misread.
const FORMAT: &str = "bmn-exhaustive-1";

/// What a checkpoint is of: a run resumes only from a checkpoint of the same run.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq, Eq)]
struct RunId {
    format: String,
    deck: String,
    leader: usize,
    shard: String,
    list_cycles: bool,
    /// Deal indices of the shard: `[start, end)`.
    range: [u64; 2],
    /// The penalty table (`--penalties`); absent in checkpoints written before it could be
    /// set, which were all of the standard table.
    #[serde(default = "standard_penalties")]
    penalties: String,
}

fn standard_penalties() -> String {
    bmn_core::PenaltyTable::STANDARD.to_string()
}

/// A checkpoint as written (borrowing the summary, so saving copies nothing). Not flattened:
/// serde's flatten buffers values and cannot carry the summary's `u128` totals.
#[derive(Serialize)]
struct SavedRef<'a> {
    run: &'a RunId,
    next_unit: u64,
    summary: &'a Summary,
}

/// A checkpoint as read.
#[derive(Deserialize)]
struct Saved {
    run: RunId,
    next_unit: u64,
    summary: Summary,
}

pub fn run(args: &ExhaustiveArgs) -> Result<()> {
    if !args.merge.is_empty() {
        return merge(args);
    }
    let deck_text = args
        .deck
        .as_deref()
        .expect("clap requires --deck without --merge");
    let deck = Deck::parse(deck_text).map_err(bad("bad --deck"))?;
    let rules = input::rules(&args.rules)?;
    let leader = Player(args.leader as usize - 1);
    let deals = AllDeals::new(deck, leader).map_err(|e| BadInput(format!("bad --deck: {e}")))?;
    let shard = match &args.shard {
        Some(text) => Shard::parse(text).map_err(bad("bad --shard"))?,
        None => Shard::WHOLE,
    };
    let range = shard.range(u128::from(deals.count()));
    let (start, end) = (range.start as u64, range.end as u64);
    let enumeration = Enumeration {
        deals,
        range: start..end,
        engine: input::engine(
            args.kernel.as_deref(),
            rules,
            2,
            deck.len() as usize,
            bmn_search::DEFAULT_GIVE_UP,
        )?,
        max_tricks: MAX_TRICKS,
        list_cycles: args.list_cycles,
    };
    let threads = input::threads(args.threads)?;
    let id = RunId {
        format: FORMAT.to_string(),
        deck: deck.to_string(),
        leader: leader.number(),
        shard: shard.to_string(),
        list_cycles: args.list_cycles,
        range: [start, end],
        penalties: rules.penalties.to_string(),
    };
    let mut progress = match &args.checkpoint {
        Some(path) if path.exists() => resume(path, &id)?,
        _ => enumeration.start(),
    };
    let _ = ctrlc::set_handler(|| STOP.store(true, Ordering::Relaxed));

    let total = end - start;
    let bar = progress::bar(Some(total), "deals");
    let done_before = enumeration.deals_done(progress.next_unit);
    bar.set_position(done_before);
    bar.reset_eta();
    let started = Instant::now();
    let mut saved_at = Instant::now();
    let mut save_error = None;
    enumeration.run(&mut progress, threads, &STOP, |summary, next_unit| {
        bar.set_position(enumeration.deals_done(next_unit));
        if let Some(path) = &args.checkpoint
            && saved_at.elapsed() >= CHECKPOINT_EVERY
        {
            saved_at = Instant::now();
            if let Err(e) = save(path, &id, next_unit, summary) {
                save_error = Some(e);
                return false;
            }
        }
        true
    });
    bar.finish_and_clear();
    if let Some(e) = save_error {
        return Err(e);
    }
    if let Some(path) = &args.checkpoint {
        save(path, &id, progress.next_unit, &progress.summary)?;
    }
    let elapsed = started.elapsed().as_secs_f64();
    let played = enumeration.deals_done(progress.next_unit) - done_before;
    let report = Report {
        deck,
        leader,
        shards: shard.to_string(),
        deals_in_range: total,
        range_done: enumeration.is_complete(&progress),
        all_shards: shard == Shard::WHOLE,
        list_cycles: args.list_cycles,
        kernel: enumeration.engine.name(),
        threads,
        elapsed,
        deals_per_second: played as f64 / elapsed.max(1e-9),
    };
    if !report.range_done {
        let resume = match &args.checkpoint {
            Some(p) => format!("resume with --checkpoint {}", p.display()),
            None => "use --checkpoint FILE to keep progress across runs".to_string(),
        };
        eprintln!(
            "interrupted: {} of {} deals done; {resume}",
            progress.summary.games, total
        );
    }
    report.print(&progress.summary, args.json)
}

/// Reads a checkpoint, which must be of this very run.
fn resume(path: &Path, id: &RunId) -> Result<Progress> {
    let saved = load(path)?;
    if &saved.run != id {
        return Err(BadInput(format!(
            "checkpoint {} is of deck {} leader {} shard {}{}, not of this run (deck {} leader {} shard {}{})",
            path.display(),
            saved.run.deck,
            saved.run.leader,
            saved.run.shard,
            if saved.run.list_cycles { " with --list-cycles" } else { "" },
            id.deck,
            id.leader,
            id.shard,
            if id.list_cycles { " with --list-cycles" } else { "" },
        ))
        .into());
    }
    Ok(Progress {
        next_unit: saved.next_unit,
        summary: saved.summary,
    })
}

fn load(path: &Path) -> Result<Saved> {
    let text = std::fs::read_to_string(path)
        .with_context(|| format!("reading checkpoint {}", path.display()))?;
    let saved: Saved = serde_json::from_str(&text)
        .map_err(|e| BadInput(format!("checkpoint {} is not one: {e}", path.display())))?;
    if saved.run.format != FORMAT {
        return Err(BadInput(format!(
            "checkpoint {} has format {}, this bmn reads {FORMAT}",
            path.display(),
            saved.run.format
        ))
        .into());
    }
    Ok(saved)
}

/// Writes a checkpoint atomically (a temporary file renamed over it), so an interrupted write
/// never leaves a broken one.
fn save(path: &Path, id: &RunId, next_unit: u64, summary: &Summary) -> Result<()> {
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(".tmp");
    let tmp = PathBuf::from(tmp);
    let text = serde_json::to_string(&SavedRef {
        run: id,
        next_unit,
        summary,
    })?;
    std::fs::write(&tmp, text).with_context(|| format!("writing {}", tmp.display()))?;
    std::fs::rename(&tmp, path).with_context(|| format!("writing {}", path.display()))?;
    Ok(())
}

/// `--merge`: finished shards of one run reported as one.
fn merge(args: &ExhaustiveArgs) -> Result<()> {
    let mut first: Option<RunId> = None;
    let mut seen: Vec<u64> = Vec::new();
    let mut count = 0;
    let mut summary: Option<Summary> = None;
    let mut deals_in_range = 0;
    for path in &args.merge {
        let saved = load(path)?;
        let shard = Shard::parse(&saved.run.shard).map_err(bad("bad shard in checkpoint"))?;
        let [start, end] = saved.run.range;
        let units = bmn_exhaustive::units_for(end - start);
        if saved.next_unit < units {
            bail!(BadInput(format!(
                "{} is not finished ({} of {} units of shard {}): resume it with --checkpoint first",
                path.display(),
                saved.next_unit,
                units,
                shard
            )));
        }
        if let Some(f) = &first {
            let same = RunId {
                shard: f.shard.clone(),
                range: f.range,
                ..saved.run.clone()
            };
            if &same != f || shard.count != count {
                bail!(BadInput(format!(
                    "{} is of deck {} leader {} shard {}, not a shard of the same run as {}",
                    path.display(),
                    saved.run.deck,
                    saved.run.leader,
                    saved.run.shard,
                    args.merge[0].display()
                )));
            }
        } else {
            count = shard.count;
            first = Some(saved.run.clone());
        }
        if seen.contains(&shard.index) {
            bail!(BadInput(format!(
                "shard {shard} is given twice ({})",
                path.display()
            )));
        }
        seen.push(shard.index);
        deals_in_range += end - start;
        match &mut summary {
            Some(s) => s.merge(saved.summary),
            None => summary = Some(saved.summary),
        }
    }
    let run = first.expect("clap requires at least one file");
    let summary = summary.expect("at least one file");
    seen.sort_unstable();
    let deck = Deck::parse(&run.deck).map_err(bad("bad deck in checkpoint"))?;
    let shards = format!(
        "{}/{count}",
        seen.iter()
            .map(u64::to_string)
            .collect::<Vec<_>>()
            .join(",")
    );
    let report = Report {
        deck,
        leader: Player(run.leader - 1),
        shards,
        deals_in_range,
        range_done: true,
        all_shards: seen.len() as u64 == count,
        list_cycles: run.list_cycles,
        kernel: "merged",
        threads: 0,
        elapsed: 0.0,
        deals_per_second: 0.0,
    };
    report.print(&summary, args.json)
}

/// What a report says besides the summary.
struct Report {
    deck: Deck,
    leader: Player,
    /// `i/N`, or `i,j,k/N` for merged shards.
    shards: String,
    deals_in_range: u64,
    /// Every deal of the range (shard, or merged shards) was played.
    range_done: bool,
    /// The range is the whole deck (shard 1/1, or every shard merged).
    all_shards: bool,
    list_cycles: bool,
    kernel: &'static str,
    threads: usize,
    elapsed: f64,
    deals_per_second: f64,
}

/// `bmn exhaustive --json` (the keys the issue names are a contract; others are extras).
#[derive(Serialize)]
struct ExhaustiveJson {
    deck: String,
    cards: u32,
    leader: usize,
    shards: String,
    /// Every deal of the deck is in this report.
    complete: bool,
    /// Every deal of the shard (or merged shards) is in this report.
    range_done: bool,
    deals: u64,
    finished: u64,
    first_player_wins: u64,
    second_player_wins: u64,
    /// second_player_wins / deals.
    p_second_wins: f64,
    cycling_deals: u64,
    distinct_cycles: usize,
    longest: Option<FoundJson>,
    mean_cards: f64,
    mean_tricks: f64,
    cycles: Vec<CycleClassJson>,
    #[serde(skip_serializing_if = "Option::is_none")]
    cycling_deal_list: Option<Vec<CyclingDealJson>>,
    kernel: &'static str,
    threads: usize,
    elapsed_seconds: f64,
    deals_per_second: f64,
}

impl Report {
    fn print(&self, s: &Summary, json: bool) -> Result<()> {
        let leader = self.leader.number();
        let longest = s.longest.first();
        if json {
            return output::print_json(&ExhaustiveJson {
                deck: self.deck.to_string(),
                cards: self.deck.len(),
                leader,
                shards: self.shards.clone(),
                complete: self.range_done && self.all_shards,
                range_done: self.range_done,
                deals: s.games,
                finished: s.finished(),
                first_player_wins: s.wins[0],
                second_player_wins: s.wins[1],
                p_second_wins: s.wins[1] as f64 / s.games.max(1) as f64,
                cycling_deals: s.cycling,
                distinct_cycles: s.classes.len(),
                longest: longest.map(|f| FoundJson::new(f, leader)),
                mean_cards: s.mean_cards(),
                mean_tricks: s.mean_tricks(),
                cycles: CycleClassJson::list(s),
                cycling_deal_list: self.list_cycles.then(|| {
                    s.cycles
                        .iter()
                        .map(|c| CyclingDealJson::new(c, leader))
                        .collect()
                }),
                kernel: self.kernel,
                threads: self.threads,
                elapsed_seconds: self.elapsed,
                deals_per_second: self.deals_per_second,
            });
        }
        let mut t = String::new();
        let scope = match (self.all_shards, self.range_done) {
            (true, true) => "every deal".to_string(),
            (false, true) => format!("shard {}, all of its deals", self.shards),
            (_, false) => format!(
                "shard {}, {} of its {} deals",
                self.shards, s.games, self.deals_in_range
            ),
        };
        writeln!(
            t,
            "deck:     {} ({} cards), player {leader} leads: {} deals ({scope})",
            self.deck,
            self.deck.len(),
            s.games
        )?;
        if self.threads > 0 {
            writeln!(
                t,
                "speed:    {:.2} M deals/s ({:.1} s, {} thread(s), {} kernel)",
                self.deals_per_second / 1e6,
                self.elapsed,
                self.threads,
                self.kernel
            )?;
        }
        writeln!(
            t,
            "finished: {} (player 1 wins {}, player 2 wins {}; P(second player wins) = {:.6})",
            s.finished(),
            s.wins[0],
            s.wins[1],
            s.wins[1] as f64 / s.games.max(1) as f64
        )?;
        writeln!(
            t,
            "cycling:  {} deal(s), {} distinct cycle(s)",
            s.cycling,
            s.classes.len()
        )?;
        for c in CycleClassJson::list(s).iter().take(20) {
            writeln!(
                t,
                "  cycle {}: period {} tricks ({} cards), reached by {} deal(s); representative {} (leader {})",
                c.cycle_id,
                c.period.tricks,
                c.period.cards,
                c.deals,
                c.representative.deal,
                c.representative.leader
            )?;
        }
        if s.classes.len() > 20 {
            writeln!(
                t,
                "  ... ({} more; --json lists them all)",
                s.classes.len() - 20
            )?;
        }
        if let Some(f) = longest {
            writeln!(
                t,
                "longest:  {} cards, {} tricks, player {} wins: {} (deal {})",
                f.cards, f.tricks, f.winner, f.deal, f.index
            )?;
        }
        writeln!(
            t,
            "mean:     {:.4} cards, {:.4} tricks per finished game",
            s.mean_cards(),
            s.mean_tricks()
        )?;
        if self.list_cycles && !s.cycles.is_empty() {
            writeln!(t, "cycling deals (deal index, deal, preperiod, cycle):")?;
            for c in &s.cycles {
                writeln!(
                    t,
                    "  {:>12} {} preperiod {} tricks ({} cards), cycle {}",
                    c.index, c.deal, c.preperiod.tricks, c.preperiod.cards, c.cycle_id
                )?;
            }
        }
        Ok(output::print(&t)?)
    }
}
