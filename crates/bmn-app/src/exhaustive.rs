//! `exhaustive`: every deal of a deck (or a shard of them), durable and resumable.

use std::fmt::Write as _;
use std::path::PathBuf;

use bmn_core::{Deck, Player, Rules};
use bmn_exhaustive::{AllDeals, Enumeration, MAX_TRICKS};
use bmn_job::{Job, Worker};
use bmn_params::message;
use bmn_run::Shard;
use bmn_run::{LedgerChoice, RunFile, Workers};
use bmn_search::Summary;
use serde::{Deserialize, Serialize};

use crate::durable::{self, Recording};
use crate::error::{Error, Result};
use crate::flags::{DeckArg, LeaderArg, LedgerArgs, ShardArg, ThreadsArg};
use crate::input::{self, EngineDefaults, EngineInput, RulesInput};
use crate::json::{CycleClassJson, CyclingDealJson, LongGameJson};
use crate::numbers::whole;
use crate::plural;
use bmn_core::serialize_fields;

/// The format of an enumeration's checkpoint and result file (`bmn_run::RunFile`); version 1
/// files (before shards and searches shared one format) are refused, not misread.
pub const FORMAT: &str = "bmn-exhaustive-2";

const EXHAUSTIVE_DECK: &str = concat!(
    "The deck whose every deal is played: ",
    bmn_params::decks!(),
    " (required unless --merge; a deck of more than 2^64 - 1 deals, such as the standard \
     deck, is played in blocks: --from and --count, or --block)"
);

const EXHAUSTIVE_MAX_TRICKS: &str = "Games still going after this many tricks go to exact cycle \
    detection (any cap gives the same results) [default: 1000]";

/// What to enumerate: `bmn exhaustive`'s parameters (ranks are decimal text: they pass 2^64).
#[derive(clap::Args, Clone, Debug, Default)]
#[command(
    mut_arg("deck", |a| a.required_unless_present("merge").help(EXHAUSTIVE_DECK)),
    mut_arg("max_tricks", |a| a.help(EXHAUSTIVE_MAX_TRICKS)),
)]
pub struct ExhaustiveRequest {
    #[command(flatten)]
    pub deck: DeckArg,
    #[command(flatten)]
    pub leader: LeaderArg,
    #[command(flatten)]
    pub rules: RulesInput,
    /// Also list every cycling deal with its preperiod (Paulhus's Table 2).
    #[arg(long)]
    pub list_cycles: bool,
    #[command(flatten)]
    pub shard: ShardArg,
    /// Play only the deals of ranks K..K+M (with --count M; ranks as `bmn rank` gives them,
    /// of any size): a block of a deck too big to play whole, such as the standard deck.
    #[arg(long, value_name = "K", conflicts_with = "block", value_parser = whole, allow_negative_numbers = true)]
    pub from: Option<String>,
    /// How many deals from --from (0 if --from is not given).
    #[arg(long, value_name = "M", conflicts_with = "block", value_parser = whole, allow_negative_numbers = true)]
    pub count: Option<String>,
    /// Play only block B (from 0) of --block-size deals: ranks B*M..(B+1)*M.
    #[arg(long, value_name = "B", value_parser = whole, allow_negative_numbers = true)]
    pub block: Option<String>,
    /// Deals in a block [default: 1000000000].
    #[arg(long, value_name = "M", requires = "block", value_parser = whole, allow_negative_numbers = true)]
    pub block_size: Option<String>,
    /// Keep the run's state in FILE: resumed from it if it exists (same deck, leader and
    /// shard), rewritten every second and at the end. Interrupt with Ctrl-C at any time.
    #[arg(long, value_name = "FILE")]
    pub checkpoint: Option<PathBuf>,
    #[command(flatten)]
    pub ledger: LedgerArgs,
    /// Merge the checkpoints of finished shards of one run and report them as one run (the
    /// same as `bmn merge FILE...`).
    #[arg(long, value_name = "FILE", num_args = 1.., conflicts_with_all = ["deck", "shard", "checkpoint"])]
    pub merge: Vec<PathBuf>,
    #[command(flatten)]
    pub threads: ThreadsArg,
    #[command(flatten)]
    pub engine: EngineInput,
}

/// Everything an enumeration's result depends on, besides its range of deals.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq, Eq)]
pub struct ExhaustiveParams {
    pub deck: String,
    pub leader: usize,
    pub list_cycles: bool,
    pub penalties: String,
}

/// Deals in a block when `--block` is given without `--block-size`.
pub const DEFAULT_BLOCK_SIZE: u128 = 1_000_000_000;

/// An enumeration's answer.
#[derive(Clone, Debug)]
pub struct ExhaustiveReport {
    pub deck: Deck,
    pub leader: Player,
    /// The penalties the deals were played with (the text of `--penalties`).
    pub penalties: String,
    /// The ranks this report covers, `first..end`.
    pub ranks: [u128; 2],
    /// How many deals the deck has.
    pub deck_deals: u128,
    /// `i/N`, or `i,j,k/N` for merged shards.
    pub shards: String,
    pub deals_in_range: u64,
    /// Every deal of the range (shard, or merged shards) was played.
    pub range_done: bool,
    /// The range is the whole deck (shard 1/1 of it, or every shard merged).
    pub all_shards: bool,
    pub list_cycles: bool,
    pub kernel: String,
    pub threads: usize,
    pub elapsed: f64,
    pub deals_per_second: f64,
    pub summary: Summary,
}

/// An enumeration, validated: the deals of the range, how they are played, where progress
/// is kept. The deck has no default; [`ExhaustivePlan::of_deck`] gives every other default,
/// and validation starts from it.
#[derive(Clone, Debug)]
pub struct ExhaustivePlan {
    /// The deals of this shard's ranks and how they are played.
    pub enumeration: Enumeration,
    pub rules: Rules,
    /// The block of ranks the shards split (all of them if no block was asked for).
    pub block: [u128; 2],
    pub shard: Shard,
    pub threads: usize,
    pub checkpoint: Option<PathBuf>,
    pub ledger: LedgerChoice,
    /// The engine plan's note, said when the run starts ([`EnginePlan::note`]).
    pub engine_note: Option<String>,
}

impl ExhaustivePlan {
    /// Every deal of `deck` with `leader` leading, under the standard rules, on the fastest
    /// kernel and `threads` threads, recorded in the default ledger: the defaults of an
    /// enumeration.
    pub fn of_deck(
        deck: Deck,
        leader: Player,
        threads: usize,
    ) -> std::result::Result<Self, bmn_exhaustive::ExhaustiveError> {
        let deals = AllDeals::new(deck, leader)?;
        let count = deals.count();
        let engine = ENGINE.fastest();
        Ok(ExhaustivePlan {
            enumeration: Enumeration {
                deals,
                range: 0..count,
                engine: engine.engine,
                max_tricks: engine.max_tricks,
                list_cycles: false,
            },
            rules: Rules::STANDARD,
            block: [0, count],
            shard: Shard::WHOLE,
            threads,
            checkpoint: None,
            ledger: LedgerChoice::default(),
            engine_note: None,
        })
    }
}

/// An enumeration's units for [`durable::run`]: ranks, unit by unit.
struct Ranks<'a>(&'a Enumeration);

impl durable::DurableWork<ExhaustiveParams> for Ranks<'_> {
    fn play(&self, block: std::ops::Range<u64>, worker: Worker) -> Summary {
        self.0.play_units(block, worker)
    }

    fn items_before(&self, next_unit: u64) -> u64 {
        self.0.deals_done(next_unit)
    }

    fn resumed(&self, file: &RunFile<ExhaustiveParams>) -> String {
        format!(
            "resuming at deal {} of {}",
            self.0.deals_done(file.next_unit),
            self.0.len()
        )
    }
}

impl ExhaustivePlan {
    /// This enumeration under `rules`, on the engine an enumeration picks for them when not
    /// told (the fastest kernel that plays them, else the reference engine).
    pub fn under(self, rules: Rules) -> Result<Self> {
        let deck = *self.enumeration.deals.deck();
        let engine = EngineInput::default().plan(rules, 2, &deck, &ENGINE)?;
        Ok(ExhaustivePlan {
            enumeration: Enumeration {
                engine: engine.engine,
                max_tricks: engine.max_tricks,
                ..self.enumeration
            },
            rules,
            ..self
        })
    }
}

/// An enumeration's engine limits when not told: the reference engine's give-up and the
/// kernels' trick cap of an enumeration.
pub(crate) const ENGINE: EngineDefaults = EngineDefaults {
    give_up: bmn_search::DEFAULT_GIVE_UP,
    max_tricks: MAX_TRICKS,
};

impl TryFrom<&ExhaustiveRequest> for ExhaustivePlan {
    type Error = Error;

    fn try_from(req: &ExhaustiveRequest) -> Result<Self> {
        let deck = input::deck(req.deck.deck.as_deref().unwrap_or_default())?;
        let rules = req.rules.rules()?;
        let leader = input::seat(req.leader.leader)?;
        if leader.index() >= 2 {
            return Err(Error::bad_with(
                "leader",
                format!(
                    ": {}, but an enumeration deals to 2 players",
                    leader.index() + 1
                ),
            ));
        }
        let threads = input::threads(req.threads.threads)?;
        let default =
            ExhaustivePlan::of_deck(deck, leader, threads).map_err(|e| Error::bad("deck", e))?;
        let deals = default.enumeration.deals;
        let block = block(req, deals.count())?;
        let shard = match &req.shard.shard {
            Some(text) => Shard::parse_or_auto(text)?,
            None => default.shard,
        };
        let within = shard.range(block[1] - block[0]);
        let (start, end) = (block[0] + within.start, block[0] + within.end);
        if end - start > u128::from(u64::MAX) {
            return Err(Error::bad_with(
                "deck",
                message!(
                    ": {} has {} deals, more than one run plays (2^64 - 1): give a block \
                     (--from K --count M, or --block B) or --shard i/N",
                    deck,
                    deals.count()
                ),
            ));
        }
        let engine = req.engine.plan(rules, 2, &deck, &ENGINE)?;
        Ok(ExhaustivePlan {
            enumeration: Enumeration {
                deals,
                range: start..end,
                engine: engine.engine,
                max_tricks: engine.max_tricks,
                list_cycles: req.list_cycles,
            },
            rules,
            block,
            shard,
            threads,
            checkpoint: input::file_to_write(req.checkpoint.as_deref(), "checkpoint")?,
            ledger: req.ledger.choice(),
            engine_note: engine.note,
        })
    }
}

/// Plays every deal of the request's range (see [`run`]).
pub fn exhaustive(req: &ExhaustiveRequest, job: &mut Job) -> Result<ExhaustiveReport> {
    run(&ExhaustivePlan::try_from(req)?, job)
}

/// Plays every deal of the plan's range; `stop` ends it at the next unit with its checkpoint
/// saved.
pub fn run(plan: &ExhaustivePlan, job: &mut Job) -> Result<ExhaustiveReport> {
    if let Some(note) = &plan.engine_note {
        job.note(note);
    }
    let enumeration = &plan.enumeration;
    let (rules, block, shard, threads) = (plan.rules, plan.block, plan.shard, plan.threads);
    let deck = *enumeration.deals.deck();
    let leader = enumeration.deals.leader();
    let (start, end) = (enumeration.range.start, enumeration.range.end);
    let list_cycles = enumeration.list_cycles;
    let template = RunFile {
        format: FORMAT.into(),
        params: ExhaustiveParams {
            deck: deck.to_string(),
            leader: leader.number(),
            list_cycles,
            penalties: rules.penalties.to_string(),
        },
        shard: shard.to_string(),
        range: [start, end],
        total: enumeration.deals.count(),
        block: (block != [0, enumeration.deals.count()]).then_some(block),
        units: [0, enumeration.units()],
        next_unit: 0,
        summary: enumeration.start().summary,
        checksum: String::new(),
    };
    let total = enumeration.len();
    let done = durable::run(
        Recording {
            template,
            ledger: &plan.ledger,
            file: plan.checkpoint.as_deref(),
            same_run: &same_run,
            end: Some(enumeration.units()),
            workers: Workers {
                threads,
                claims: enumeration.claims(),
            },
            what: "deals",
            total: Some(total),
        },
        job,
        &Ranks(enumeration),
    )?;
    let played =
        enumeration.deals_done(done.file.next_unit) - enumeration.deals_done(done.first_unit);
    let range_done = done.file.next_unit >= enumeration.units();
    if !range_done {
        let resume = match (&plan.checkpoint, done.recorder.describe()) {
            (Some(p), _) => format!("resume with --checkpoint {}", p.display()),
            (None, Some(at)) => format!("recorded as {at}: run the same command with --resume"),
            (None, None) => "use --checkpoint FILE to keep progress across runs".to_string(),
        };
        job.note(&format!(
            "interrupted: {} of {} deals done; {resume}",
            done.file.summary.games, total
        ));
    }
    Ok(ExhaustiveReport {
        deck,
        leader,
        penalties: rules.penalties.to_string(),
        ranks: [start, end],
        deck_deals: enumeration.deals.count(),
        shards: shard.to_string(),
        deals_in_range: total,
        range_done,
        all_shards: [start, end] == [0, enumeration.deals.count()],
        list_cycles,
        kernel: enumeration.engine.name(),
        threads,
        elapsed: done.elapsed,
        deals_per_second: played as f64 / done.elapsed.max(1e-9),
        summary: done.file.summary,
    })
}

/// The ranks `--from`/`--count` or `--block`/`--block-size` name (all of them if neither).
fn block(req: &ExhaustiveRequest, deals: u128) -> Result<[u128; 2]> {
    let number = |flag: &'static str, text: &Option<String>| -> Result<Option<u128>> {
        text.as_deref()
            .map(|t| {
                t.trim()
                    .parse::<u128>()
                    .map_err(|_| Error::bad_with(flag, format!(" '{t}': not a whole number")))
            })
            .transpose()
    };
    let from = number("from", &req.from)?;
    let count = number("count", &req.count)?;
    let index = number("block", &req.block)?;
    let size = number("block_size", &req.block_size)?;
    let [first, end] = match (index, size) {
        (Some(b), size) => {
            if from.is_some() || count.is_some() {
                return Err(Error::input(message!(
                    "give --block or --from/--count, not both"
                )));
            }
            let size = input::at_least_one(size.unwrap_or(DEFAULT_BLOCK_SIZE), "block_size")?;
            let first = b.saturating_mul(size);
            if first >= deals {
                return Err(Error::bad_with(
                    "block",
                    format!(
                        " {b}: blocks of {size} deals end at block {} (the deck has {deals} deals)",
                        (deals - 1) / size
                    ),
                ));
            }
            [first, first.saturating_add(size).min(deals)]
        }
        (None, Some(_)) => return Err(Error::input("--block-size goes with --block")),
        (None, None) => {
            let first = from.unwrap_or(0);
            if first >= deals {
                return Err(Error::bad_with(
                    "from",
                    format!(
                        " {first}: past the last deal (the deck has {deals} deals, ranks 0 to {})",
                        deals - 1
                    ),
                ));
            }
            match count {
                Some(0) => return Err(Error::bad_with("count", ": must be at least 1")),
                Some(c) if c > deals - first => {
                    return Err(Error::bad_with(
                        "count",
                        format!(
                            " {c}: ranks {first}.. hold only {} deals (the deck has {deals})",
                            deals - first
                        ),
                    ));
                }
                Some(c) => [first, first + c],
                None => [first, deals],
            }
        }
    };
    Ok([first, end])
}

/// Refuses to resume from a checkpoint of another run.
fn same_run(
    saved: &RunFile<ExhaustiveParams>,
    id: &RunFile<ExhaustiveParams>,
) -> std::result::Result<(), String> {
    if saved.same_run(id) {
        return Ok(());
    }
    let describe = |f: &RunFile<ExhaustiveParams>| {
        format!(
            "deck {} leader {} shard {}{}{}",
            f.params.deck,
            f.params.leader,
            f.shard,
            f.block
                .map(|[a, b]| format!(" of ranks {a}..{b}"))
                .unwrap_or_default(),
            if f.params.list_cycles {
                " with --list-cycles"
            } else {
                ""
            }
        )
    };
    Err(format!(
        "the checkpoint is of {}, not of this run ({})",
        describe(saved),
        describe(id)
    ))
}

/// `exhaustive --json`: the keys are a contract that scripts depend on (docs/json.md).
impl Serialize for ExhaustiveReport {
    fn serialize<S: serde::Serializer>(
        &self,
        serializer: S,
    ) -> std::result::Result<S::Ok, S::Error> {
        let s = &self.summary;
        let leader = self.leader.number();
        serialize_fields!(serializer, "ExhaustiveReport", {
            "deck" => self.deck.to_string(),
            "deck_cards" => self.deck.len(),
            "leader" => leader,
            "shards" => self.shards,
            "complete" => self.range_done && self.all_shards,
            "range_done" => self.range_done,
            // Decimal strings: ranks pass 2^64.
            "first_rank" => self.ranks[0].to_string(),
            "end_rank" => self.ranks[1].to_string(),
            "deals" => s.games,
            "finished" => s.finished(),
            "wins_by_seat" => [s.wins[0], s.wins[1]],
            "p_second_wins" => s.wins[1] as f64 / s.games.max(1) as f64,
            "cycling_deals" => s.cycling,
            "distinct_cycle_count" => s.classes.len(),
            "longest" => s.longest.first().map(|f| LongGameJson::new(f, leader)),
            "mean_cards" => s.mean_cards(),
            "mean_tricks" => s.mean_tricks(),
            "distinct_cycle_list" => CycleClassJson::list(s),
            "cycling_deal_list" if self.list_cycles => s
                .cycles
                .iter()
                .map(|c| CyclingDealJson::new(c, leader))
                .collect::<Vec<_>>(),
            "engine" => self.kernel,
            "threads" => self.threads,
            "elapsed_seconds" => self.elapsed,
            "deals_per_second" => self.deals_per_second,
        })
    }
}

impl crate::Report for ExhaustiveReport {
    fn text(&self) -> String {
        let s = &self.summary;
        let leader = self.leader.number();
        let mut t = String::new();
        let block =
            if self.ranks[1] - self.ranks[0] < self.deck_deals && !self.shards.starts_with("1/1") {
                format!("shard {}", self.shards)
            } else {
                format!("ranks {}..{}", self.ranks[0], self.ranks[1])
            };
        let scope = match (self.all_shards, self.range_done) {
            (true, true) => "every deal".to_string(),
            (false, true) => format!("{block}, all of its deals"),
            (_, false) => format!("{block}, {} of its {} deals", s.games, self.deals_in_range),
        };
        let _ = writeln!(
            t,
            "deck:     {} ({} cards), player {leader} leads: {} deals ({scope})",
            self.deck,
            self.deck.len(),
            s.games
        );
        if self.threads > 0 && self.deals_per_second == 0.0 && self.range_done {
            let _ = writeln!(t, "speed:    {}", crate::ALREADY_FINISHED);
        } else if self.threads > 0 {
            let _ = writeln!(
                t,
                "speed:    {:.2} M deals/s ({:.1} s, {} thread(s), {} kernel)",
                self.deals_per_second / 1e6,
                self.elapsed,
                self.threads,
                self.kernel
            );
        }
        let _ = writeln!(
            t,
            "finished: {} (player 1 wins {}, player 2 wins {}; P(second player wins) = {:.6})",
            s.finished(),
            s.wins[0],
            s.wins[1],
            s.wins[1] as f64 / s.games.max(1) as f64
        );
        let _ = writeln!(
            t,
            "cycling:  {} deal(s), {} distinct cycle(s)",
            s.cycling,
            s.classes.len()
        );
        for c in CycleClassJson::list(s).iter().take(20) {
            let _ = writeln!(
                t,
                "  cycle {}: period {} tricks ({} cards), reached by {} deal(s); representative {} (leader {})",
                c.cycle_id,
                c.period.tricks,
                c.period.cards,
                c.deals,
                c.representative.deal,
                c.representative.leader
            );
        }
        if s.classes.len() > 20 {
            let _ = writeln!(
                t,
                "  ... ({} more; --json lists them all)",
                s.classes.len() - 20
            );
        }
        if let Some(f) = s.longest.first() {
            let _ = writeln!(
                t,
                "longest:  {} cards, {} tricks, player {} wins: {} (deal {})",
                f.cards, f.tricks, f.winner, f.deal, f.index
            );
        }
        let _ = writeln!(
            t,
            "mean:     {:.4} cards, {:.4} tricks per finished game",
            s.mean_cards(),
            s.mean_tricks()
        );
        if self.list_cycles && !s.cycles.is_empty() {
            let _ = writeln!(t, "cycling deals (deal index, deal, preperiod, cycle):");
            for c in &s.cycles {
                let _ = writeln!(
                    t,
                    "  {:>12} {} preperiod {} ({}), cycle {}",
                    c.index,
                    c.deal,
                    plural(c.preperiod.tricks, "trick"),
                    plural(c.preperiod.cards, "card"),
                    c.cycle_id
                );
            }
        }
        t
    }
}
