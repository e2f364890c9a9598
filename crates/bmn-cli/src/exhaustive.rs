//! `bmn exhaustive`: every deal of a deck, sharded, checkpointed, resumable and mergeable.

use std::fmt::Write as _;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use anyhow::Result;
use bmn_core::{Deck, Player};
use bmn_exhaustive::{AllDeals, Enumeration, MAX_TRICKS, Progress, Shard};
use bmn_search::Summary;
use serde::{Deserialize, Serialize};

use crate::cli::ExhaustiveArgs;
use crate::input::{self, BadInput, bad};
use crate::output::{self, CycleClassJson, CyclingDealJson, FoundJson};
use crate::progress;
use crate::runfile::{RunFile, merge_files};
use crate::store::Recorder;

/// Set by Ctrl-C: the run stops at the next unit, saves its checkpoint and reports.
static STOP: AtomicBool = AtomicBool::new(false);

/// The format of an enumeration's checkpoint and result file (see `runfile.rs`); version 1
/// files (before shards and searches shared one format) are refused, not misread.
pub const FORMAT: &str = "bmn-exhaustive-2";

/// Everything an enumeration's result depends on, besides its range of deals.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq, Eq)]
pub struct ExhaustiveParams {
    pub deck: String,
    pub leader: usize,
    pub list_cycles: bool,
    pub penalties: String,
}

pub fn run(args: &ExhaustiveArgs) -> Result<()> {
    if !args.merge.is_empty() {
        return merge(&args.merge, args.json);
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
    let id = RunFile {
        format: FORMAT.into(),
        params: ExhaustiveParams {
            deck: deck.to_string(),
            leader: leader.number(),
            list_cycles: args.list_cycles,
            penalties: rules.penalties.to_string(),
        },
        shard: shard.to_string(),
        range: [start, end],
        total: enumeration.deals.count(),
        units: [0, enumeration.units()],
        next_unit: 0,
        summary: enumeration.start().summary,
        checksum: String::new(),
    };
    let (mut recorder, start_from) =
        Recorder::open(id, &args.db, args.checkpoint.as_deref(), same_run)?;
    let mut progress = Progress {
        next_unit: start_from.next_unit,
        summary: start_from.summary,
    };
    if progress.next_unit > 0 {
        eprintln!(
            "resuming at deal {} of {}",
            enumeration.deals_done(progress.next_unit),
            end - start
        );
    }
    let _ = ctrlc::set_handler(|| STOP.store(true, Ordering::Relaxed));

    let total = end - start;
    let bar = progress::bar(Some(total), "deals");
    let done_before = enumeration.deals_done(progress.next_unit);
    bar.set_position(done_before);
    bar.reset_eta();
    let started = Instant::now();
    let mut save_error = None;
    enumeration.run(&mut progress, threads, &STOP, |summary, next_unit| {
        bar.set_position(enumeration.deals_done(next_unit));
        if let Err(e) = recorder.tick(summary, next_unit) {
            save_error = Some(e);
            return false;
        }
        true
    });
    bar.finish_and_clear();
    if let Some(e) = save_error {
        return Err(e);
    }
    recorder.save(&progress.summary, progress.next_unit)?;
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
        let resume = match (&args.checkpoint, recorder.describe()) {
            (Some(p), _) => format!("resume with --checkpoint {}", p.display()),
            (None, Some(at)) => format!("recorded as {at}: run the same command with --resume"),
            (None, None) => "use --checkpoint FILE to keep progress across runs".to_string(),
        };
        eprintln!(
            "interrupted: {} of {} deals done; {resume}",
            progress.summary.games, total
        );
    }
    report.print(&progress.summary, args.json)
}

/// Refuses to resume from a checkpoint of another run.
fn same_run(saved: &RunFile<ExhaustiveParams>, id: &RunFile<ExhaustiveParams>) -> Result<()> {
    if !saved.same_run(id) {
        let describe = |f: &RunFile<ExhaustiveParams>| {
            format!(
                "deck {} leader {} shard {}{}",
                f.params.deck,
                f.params.leader,
                f.shard,
                if f.params.list_cycles {
                    " with --list-cycles"
                } else {
                    ""
                }
            )
        };
        return Err(BadInput(format!(
            "the checkpoint is of {}, not of this run ({})",
            describe(saved),
            describe(id)
        ))
        .into());
    }
    Ok(())
}

/// `--merge` and `bmn merge`: the finished shards of one run, checked to cover every deal
/// exactly once, reported as one run.
pub fn merge(paths: &[PathBuf], json: bool) -> Result<()> {
    let files = paths
        .iter()
        .map(|p| RunFile::<ExhaustiveParams>::load(p, FORMAT))
        .collect::<Result<Vec<_>>>()?;
    let mut shards: Vec<Shard> = files
        .iter()
        .filter_map(|f| Shard::parse(&f.shard).ok())
        .collect();
    shards.sort_by_key(|s| s.index);
    let (run, summary) = merge_files(paths, files)?;
    // `1,2,3/3`, as the merged shards have always been written.
    let shards = format!(
        "{}/{}",
        shards
            .iter()
            .map(|s| s.index.to_string())
            .collect::<Vec<_>>()
            .join(","),
        shards.first().map_or(1, |s| s.count)
    );
    let deck = Deck::parse(&run.params.deck).map_err(bad("bad deck in checkpoint"))?;
    let report = Report {
        deck,
        leader: Player(run.params.leader - 1),
        shards,
        deals_in_range: run.total,
        range_done: true,
        all_shards: true,
        list_cycles: run.params.list_cycles,
        kernel: "merged",
        threads: 0,
        elapsed: 0.0,
        deals_per_second: 0.0,
    };
    report.print(&summary, json)
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
