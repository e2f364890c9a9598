//! `backward`, `basin`, `extend`, `trees`: backward play (bmn-backward) as commands.

use bmn_job::Job;
use std::fmt::Write as _;
use std::path::PathBuf;

use bmn_backward::{
    BackwardError, BalancedCounts, BalancedDeal, Basin, BasinConfig, BasinTarget, ExtendConfig,
    ExtendedDeal, Extension, Trees, TreesConfig,
};
use bmn_core::{Deck, Player, Position, Rules, Span};
use serde::Serialize;

use crate::dot;
use crate::error::{Error, Result};
use crate::flags::{DeckArg, DotArg, LeaderArg, LimitArg, PlayersArg, SeedArg, TopArg};
use crate::input::{self, DEFAULT_DECK, DEFAULT_PLAYERS, DEFAULT_SEED, RulesInput};
use crate::plural;

/// Positions a basin or an extension may visit when not told (about 50 bytes each).
pub const DEFAULT_LIMIT: u64 = 20_000_000;
/// `extend`: tricks back when not told.
pub const DEFAULT_DEPTH: u64 = 10;
/// `extend`: the longest deals kept when not told.
pub const DEFAULT_KEEP: usize = 10;
/// `trees`: positions a tree may hold before it is capped.
pub const DEFAULT_CAP: u64 = 1_000_000;

/// "1 trick", "2 tricks".
fn tricks(n: u64) -> String {
    plural(n, "trick")
}

/// "1 card", "2 cards".
fn cards(n: u64) -> String {
    plural(n, "card")
}

/// A library error about the input (too large, not finishing) is the user's.
fn user_error(e: BackwardError) -> Error {
    Error::input(e.to_string()).caused_by(e)
}

/// `backward --json`.
#[derive(Serialize, Clone, Debug)]
pub struct BackwardReport {
    pub position: Position,
    pub predecessors: Vec<Position>,
}

/// Every position one trick before the request's position (hands may be empty).
pub fn backward(req: &BackwardRequest) -> Result<BackwardReport> {
    let rules = req.rules.rules()?;
    let target = input::position(&req.position, req.leader.leader)?;
    let preds = bmn_backward::predecessors(&rules, &target);
    Ok(BackwardReport {
        position: target.clone(),
        predecessors: preds.to_vec(),
    })
}

impl crate::Report for BackwardReport {
    fn text(&self) -> String {
        let mut text = String::new();
        for p in &self.predecessors {
            let _ = writeln!(text, "{} (leader {})", p.deal_text(), p.leader().number());
        }
        let _ = writeln!(
            text,
            "{} of {} (leader {})",
            plural(self.predecessors.len() as u64, "predecessor"),
            self.position.deal_text(),
            self.position.leader().number()
        );
        text
    }
}

/// Which position's predecessors: `bmn backward`'s parameters.
#[derive(clap::Args, Clone, Debug, Default)]
pub struct BackwardRequest {
    /// The position, hands separated by '/', top card first; a hand may be empty ("----/" is a
    /// finished game). "-" reads it from stdin.
    #[arg(allow_hyphen_values = true)]
    pub position: String,
    #[command(flatten)]
    pub leader: LeaderArg,
    #[command(flatten)]
    pub rules: RulesInput,
}

const BASIN_DOT: &str = "Write the basin's positions as a Graphviz DOT graph to FILE (render: \
    `dot -Tsvg FILE > out.svg`, or `sfdp` for big basins): one node per position, one edge per \
    trick, the cycle in red, balanced starting deals filled green, the position given outlined \
    twice";

/// What basin to search: `bmn basin`'s parameters.
#[derive(clap::Args, Clone, Debug, Default)]
#[command(mut_arg("dot", |a| a.help(BASIN_DOT)))]
pub struct BasinRequest {
    /// A position (hands may be empty); its basin is every position that reaches the same cycle
    /// (players renamed or not) or, if its game finishes, the same final position.
    #[arg(allow_hyphen_values = true)]
    pub position: String,
    #[command(flatten)]
    pub leader: LeaderArg,
    /// List the balanced starting deals with their game lengths (JSON always lists them).
    #[arg(long)]
    pub balanced: bool,
    #[command(flatten)]
    pub limit: LimitArg,
    #[command(flatten)]
    pub dot: DotArg,
    /// Return the basin as a graph of at most this many positions (the nearest first): the
    /// web API's `graph`, not a flag.
    #[arg(skip)]
    pub graph: Option<usize>,
    #[command(flatten)]
    pub rules: RulesInput,
}

/// `basin --json`.
#[derive(Serialize, Clone, Debug)]
pub struct BasinReport {
    pub position: Position,
    /// `cycle` or `final`.
    pub target: &'static str,
    pub cycle_id: Option<String>,
    pub period: Option<Span>,
    pub cycle_representative: Option<Position>,
    pub final_position: Option<Position>,
    pub positions: u64,
    pub complete: bool,
    /// Stopped (Ctrl-C) before the search was done: the positions found so far.
    pub interrupted: bool,
    pub limit: u64,
    pub depth: u64,
    /// What a balanced deal's `tricks`/`cards` measure: `preperiod` or `game`.
    pub length: &'static str,
    /// Balanced starting deals with player 1 leading, as a deal is (Casella et al. count 30
    /// for their cycle); `balanced_counts` counts by the other definitions.
    pub balanced_deals_count: usize,
    pub balanced_counts: BalancedCounts,
    /// Those deals with their game lengths.
    pub balanced_deal_list: Vec<BalancedDeal>,
    /// Every balanced position of the basin, player 2 leading included.
    pub balanced_deals_any_leader: Vec<BalancedDeal>,
    /// The positions and their tricks, when asked for (`BasinRequest::graph`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub graph: Option<dot::Graph>,
    /// List the balanced deals in the text.
    #[serde(skip)]
    pub list_balanced: bool,
}

/// A basin search, validated.
#[derive(Clone, Debug)]
pub struct BasinPlan {
    pub start: Position,
    pub rules: Rules,
    pub config: BasinConfig,
    /// List the balanced deals in the text.
    pub balanced: bool,
    pub dot: Option<PathBuf>,
    /// Keep the graph for the report, cut to this many positions.
    pub graph: Option<usize>,
}

impl TryFrom<&BasinRequest> for BasinPlan {
    type Error = Error;

    fn try_from(req: &BasinRequest) -> Result<Self> {
        let rules = req.rules.rules()?;
        let start = input::position(&req.position, req.leader.leader)?;
        let limit = input::at_least_one(req.limit.limit.unwrap_or(DEFAULT_LIMIT), "limit")?;
        if let Some(path) = &req.dot.dot {
            input::writable(path, "dot")?;
        }
        Ok(BasinPlan {
            start,
            rules,
            config: BasinConfig {
                limit,
                keep_members: req.dot.dot.is_some() || req.graph.is_some(),
            },
            balanced: req.balanced,
            dot: req.dot.dot.clone(),
            graph: req.graph,
        })
    }
}

/// Every position whose play reaches the cycle (or the final position) of the request's.
/// The job's stop ends the search early with what it found (`interrupted`).
pub fn basin(req: &BasinRequest, job: &mut Job) -> Result<BasinReport> {
    let plan = BasinPlan::try_from(req)?;
    let (rules, start, config) = (plan.rules, &plan.start, &plan.config);
    let limit = config.limit;
    job.start(None, 0, "positions");
    let basin = bmn_backward::basin(&rules, start, config, job).map_err(user_error);
    job.finish();
    let basin = basin?;
    if let Some(path) = &plan.dot {
        let (title, members, marks_cycle) = basin_parts(&rules, &basin);
        let marks = dot::Marks {
            start,
            cycle: &marks_cycle,
            balanced: true,
        };
        dot::write(path, &title, &rules, members, &marks)?;
    }
    let mut report = basin_report(start, &basin, limit, plan.balanced);
    if let Some(cap) = plan.graph {
        let (_, members, marks_cycle) = basin_parts(&rules, &basin);
        let marks = dot::Marks {
            start,
            cycle: &marks_cycle,
            balanced: true,
        };
        report.graph = Some(dot::Graph::of(&rules, members, &marks, cap));
    }
    Ok(report)
}

/// The basin as a graph: its title, its members, and the cycle's positions in every renaming
/// (marked with the balanced deals and the position given).
fn basin_parts<'a>(
    rules: &Rules,
    basin: &'a Basin,
) -> (String, &'a [Position], std::collections::HashSet<Position>) {
    let members = basin.members.as_deref().unwrap_or_default();
    let (cycle, title) = match &basin.target {
        BasinTarget::Cycle {
            id,
            period,
            start: on_cycle,
            ..
        } => {
            let walk = bmn_core::cycle_positions(rules, on_cycle, period.tricks);
            let all: std::collections::HashSet<Position> =
                walk.iter().flat_map(bmn_backward::rotations).collect();
            let title = format!(
                "basin of cycle {id} (period {}): {}",
                tricks(period.tricks),
                plural(members.len() as u64, "position")
            );
            (all, title)
        }
        BasinTarget::Final { position } => (
            std::collections::HashSet::new(),
            format!("positions ending in {position}: {}", members.len()),
        ),
    };
    (title, members, cycle)
}

/// The balanced deals (only those with player 1 leading, if `leader_1`).
fn balanced(deals: &[BalancedDeal], leader_1: bool) -> Vec<BalancedDeal> {
    let led = |d: &&BalancedDeal| !leader_1 || d.deal.leader() == Player(0);
    deals.iter().filter(led).cloned().collect()
}

fn basin_report(start: &Position, basin: &Basin, limit: u64, list: bool) -> BasinReport {
    let (target, cycle_id, period, representative, final_position, length) = match &basin.target {
        BasinTarget::Cycle {
            id,
            period,
            representative,
            ..
        } => (
            "cycle",
            Some(id.to_string()),
            Some(*period),
            Some(representative.clone()),
            None,
            "preperiod",
        ),
        BasinTarget::Final { position } => {
            ("final", None, None, None, Some(position.clone()), "game")
        }
    };
    let counts = basin.balanced_counts();
    BasinReport {
        position: start.clone(),
        target,
        cycle_id,
        period,
        cycle_representative: representative,
        final_position,
        positions: basin.positions,
        complete: basin.complete,
        interrupted: basin.interrupted,
        limit,
        depth: basin.depth,
        length,
        balanced_deals_count: counts.leader_1,
        balanced_counts: counts,
        balanced_deal_list: balanced(&basin.balanced, true),
        balanced_deals_any_leader: balanced(&basin.balanced, false),
        graph: None,
        list_balanced: list,
    }
}

impl crate::Report for BasinReport {
    fn text(&self) -> String {
        let mut text = String::new();
        if self.interrupted {
            text.push_str("interrupted: the positions found before the stop\n");
        }
        let what = match (&self.cycle_id, &self.period, &self.cycle_representative) {
            (Some(id), Some(period), Some(rep)) => {
                let _ = writeln!(
                    text,
                    "cycle {id}: period {} ({}), representative {} (leader {})",
                    tricks(period.tricks),
                    cards(period.cards),
                    rep.deal_text(),
                    rep.leader().number()
                );
                "the cycle"
            }
            _ => {
                if let Some(f) = &self.final_position {
                    let _ = writeln!(
                        text,
                        "final position {} (leader {})",
                        f.deal_text(),
                        f.leader().number()
                    );
                }
                "the final position"
            }
        };
        let status = if self.complete {
            "complete".to_string()
        } else if self.interrupted {
            "stopped part-way: a lower bound".to_string()
        } else {
            format!("cut short by --limit {}: a lower bound", self.limit)
        };
        let _ = writeln!(text, "positions: {} ({status})", self.positions);
        let _ = writeln!(text, "deepest: {} before {what}", tricks(self.depth));
        let c = &self.balanced_counts;
        let _ = writeln!(
            text,
            "balanced starting deals: {} with player 1 leading ({} with either leader)",
            c.leader_1, c.all
        );
        if self.target == "cycle" {
            let _ = writeln!(
                text,
                "  of which reach the cycle without renaming the players: {} with player 1 \
                 leading ({} with either leader)",
                c.leader_1_exact, c.exact
            );
        }
        if self.list_balanced {
            for d in &self.balanced_deal_list {
                let renamed = if d.renamed { ", players renamed" } else { "" };
                let rank = bmn_backward::rank_of(&d.deal)
                    .map(|k| format!(", #{k}"))
                    .unwrap_or_default();
                let _ = writeln!(
                    text,
                    "  {} (leader {}{rank}): {} {}, {}{renamed}",
                    d.deal.deal_text(),
                    d.deal.leader(),
                    self.length,
                    tricks(d.length.tricks),
                    cards(d.length.cards)
                );
            }
        }
        text
    }
}

/// What to extend: `bmn extend`'s parameters.
#[derive(clap::Args, Clone, Debug, Default)]
pub struct ExtendRequest {
    /// A deal whose game finishes (e.g. a record game).
    #[arg(allow_hyphen_values = true)]
    pub deal: String,
    #[command(flatten)]
    pub leader: LeaderArg,
    /// Tricks to search backward from each position of the game [default: 10].
    #[arg(long, value_name = "D")]
    pub depth: Option<u64>,
    #[command(flatten)]
    pub limit: LimitArg,
    #[command(flatten)]
    pub top: TopArg,
    #[command(flatten)]
    pub rules: RulesInput,
}

/// `extend --json`.
#[derive(Serialize, Clone, Debug)]
pub struct ExtendReport {
    pub original: ExtendedDeal,
    pub depth: u64,
    pub depth_reached: u64,
    pub positions: u64,
    pub complete: bool,
    /// Every position whose play runs into the game was found (nothing lies further back).
    pub exhausted: bool,
    /// Stopped (Ctrl-C) before the search was done: the deals found so far.
    pub interrupted: bool,
    pub limit: u64,
    pub balanced_found: u64,
    /// Balanced deals found whose games are longer (in cards) than the original's.
    pub longer: u64,
    pub best: Vec<ExtendedDeal>,
}

/// An extension, validated.
#[derive(Clone, Debug)]
pub struct ExtendPlan {
    pub deal: Position,
    pub rules: Rules,
    pub config: ExtendConfig,
}

impl TryFrom<&ExtendRequest> for ExtendPlan {
    type Error = Error;

    fn try_from(req: &ExtendRequest) -> Result<Self> {
        let rules = req.rules.rules()?;
        let deal = input::deal(&req.deal, req.leader.leader, None, None)?;
        let limit = input::at_least_one(req.limit.limit.unwrap_or(DEFAULT_LIMIT), "limit")?;
        Ok(ExtendPlan {
            deal,
            rules,
            config: ExtendConfig {
                depth: req.depth.unwrap_or(DEFAULT_DEPTH),
                limit,
                keep: req.top.top.unwrap_or(DEFAULT_KEEP),
            },
        })
    }
}

/// The longest balanced deals whose games end where the request's does.
/// The job's stop ends the search early with what it found (`interrupted`).
pub fn extend(req: &ExtendRequest, job: &mut Job) -> Result<ExtendReport> {
    let plan = ExtendPlan::try_from(req)?;
    let (rules, deal, config) = (plan.rules, &plan.deal, plan.config);
    let (depth, limit) = (config.depth, config.limit);
    job.start(None, 0, "positions");
    let ext = bmn_backward::extend(&rules, deal, &config, job).map_err(user_error);
    job.finish();
    let ext: Extension = ext?;
    Ok(ExtendReport {
        original: ext.original.clone(),
        depth,
        depth_reached: ext.depth,
        positions: ext.positions,
        complete: ext.complete,
        exhausted: ext.exhausted,
        interrupted: ext.interrupted,
        limit,
        balanced_found: ext.balanced_found,
        longer: ext.longer,
        best: ext.best.clone(),
    })
}

impl crate::Report for ExtendReport {
    fn text(&self) -> String {
        let mut text = String::new();
        if self.interrupted {
            text.push_str("interrupted: the deals found before the stop\n");
        }
        let o = &self.original;
        let _ = writeln!(
            text,
            "original: {} (leader {}) ({}, {}, player {} wins)",
            o.deal.deal_text(),
            o.deal.leader().number(),
            cards(o.cards),
            tricks(o.tricks),
            o.winner.number()
        );
        let status = if self.interrupted {
            ": stopped part-way".to_string()
        } else if !self.complete {
            format!(": cut short by --limit {}", self.limit)
        } else if self.exhausted {
            ": nothing lies further back (the whole tree of the final position)".to_string()
        } else {
            String::new()
        };
        let _ = writeln!(
            text,
            "searched {} up to {} back{status}",
            plural(self.positions, "position"),
            tricks(self.depth_reached)
        );
        let _ = writeln!(
            text,
            "balanced deals found: {}, longer than the original: {}",
            self.balanced_found, self.longer
        );
        for d in &self.best {
            let _ = writeln!(
                text,
                "  {} (leader {}): {}, {}, player {} wins",
                d.deal.deal_text(),
                d.deal.leader().number(),
                cards(d.cards),
                tricks(d.tricks),
                d.winner.number()
            );
        }
        text
    }
}

/// What trees to measure: `bmn trees`'s parameters (`samples` absent: every final position).
#[derive(clap::Args, Clone, Debug, Default)]
pub struct TreesRequest {
    /// How many random final positions (player 1 holds every card) to sample.
    #[arg(
        long,
        value_name = "N",
        required_unless_present = "all",
        conflicts_with = "all"
    )]
    pub samples: Option<u64>,
    /// Measure every final position instead (small decks): the exact mean, and the exact
    /// number of positions that never finish.
    #[arg(long)]
    pub all: bool,
    #[command(flatten)]
    pub deck: DeckArg,
    #[command(flatten)]
    pub players: PlayersArg,
    #[command(flatten)]
    pub seed: SeedArg,
    /// Stop counting a tree at this many positions (the mean is then a lower bound)
    /// [default: 1000000].
    #[arg(long, value_name = "M")]
    pub cap: Option<u64>,
    #[command(flatten)]
    pub rules: RulesInput,
}

/// `trees --json`: the deck, the seed and the cap around bmn-backward's [`Trees`].
#[derive(Clone, Debug)]
pub struct TreesReport {
    pub deck: String,
    pub seed: u64,
    pub cap: u64,
    pub trees: Trees,
}

impl Serialize for TreesReport {
    fn serialize<S: serde::Serializer>(
        &self,
        serializer: S,
    ) -> std::result::Result<S::Ok, S::Error> {
        let t = &self.trees;
        bmn_core::serialize_fields!(serializer, "TreesReport", {
            "deck" => self.deck,
            "players" => t.players,
            "samples" => t.samples,
            "exhaustive" => t.exhaustive,
            "interrupted" => t.interrupted,
            "seed" => self.seed,
            "cap" => self.cap,
            "mean" => t.mean,
            "std_error" => t.std_error,
            "capped" => t.capped,
            "max" => t.max,
            "singletons" => t.singletons,
            "no_cycle_mean" => t.no_cycle_mean,
            "finishing_share" => t.finishing_share(),
            // A decimal string: it can exceed 2^53.
            "cycling_positions" => t.cycling_positions.map(|n| n.to_string()),
        })
    }
}

/// A trees run, validated: `samples` random deals, or every deal of the deck if `None`.
#[derive(Clone, Debug)]
pub struct TreesPlan {
    pub deck: Deck,
    pub rules: Rules,
    pub samples: Option<u64>,
    pub seed: u64,
    pub cap: u64,
    pub players: usize,
}

impl TryFrom<&TreesRequest> for TreesPlan {
    type Error = Error;

    fn try_from(req: &TreesRequest) -> Result<Self> {
        let rules = req.rules.rules()?;
        let deck = input::deck(req.deck.deck.as_deref().unwrap_or(DEFAULT_DECK))?;
        if let Some(samples) = req.samples {
            input::at_least_one(samples, "samples")?;
        }
        Ok(TreesPlan {
            deck,
            rules,
            samples: req.samples,
            cap: input::at_least_one(req.cap.unwrap_or(DEFAULT_CAP), "cap")?,
            seed: req.seed.seed.unwrap_or(DEFAULT_SEED),
            players: req.players.players.unwrap_or(DEFAULT_PLAYERS),
        })
    }
}

/// Paulhus's statistic: the mean size of the tree of positions ending in a final position.
/// The job's stop ends the run early with the trees measured (`interrupted`).
pub fn trees(req: &TreesRequest, job: &mut Job) -> Result<TreesReport> {
    let plan = TreesPlan::try_from(req)?;
    let (rules, deck, seed, cap, players) =
        (plan.rules, plan.deck, plan.seed, plan.cap, plan.players);
    let trees: std::result::Result<Trees, BackwardError> = match plan.samples {
        Some(samples) => {
            let config = TreesConfig {
                samples,
                seed,
                cap,
                players,
            };
            job.start(Some(samples), 0, "trees");
            bmn_backward::trees(&rules, &deck, &config, job)
        }
        None => {
            let total = bmn_backward::arrangements(&deck).and_then(|n| u64::try_from(n).ok());
            job.start(total, 0, "trees");
            bmn_backward::trees_all(&rules, &deck, players, cap, job)
        }
    };
    job.finish();
    let trees = trees.map_err(user_error)?;
    Ok(TreesReport {
        deck: deck.to_string(),
        seed,
        cap,
        trees,
    })
}

impl TreesReport {
    /// The share of unfinished positions that finish, `(mean - 1) / (no_cycle_mean - 1)`:
    /// exact over every final position; from a sample, an estimate with its standard error
    /// that can come out above 1 where few positions cycle (the share itself is at most 1).
    fn finishing_line(&self) -> String {
        let what = "share of unfinished positions that finish";
        let spread = self.trees.no_cycle_mean - 1.0;
        let mut line = if self.trees.exhaustive || spread <= 0.0 {
            format!("{what}: {:.4}", self.trees.finishing_share())
        } else {
            format!(
                "{what}, estimated as (mean - 1) / ({} - 1): {:.4} ± {:.4}",
                self.trees.no_cycle_mean,
                self.trees.finishing_share(),
                self.trees.std_error / spread
            )
        };
        if self.trees.capped > 0 {
            line.push_str(" (a lower bound: some trees were capped)");
        } else if self.trees.finishing_share() > 1.0 {
            line.push_str(" (above 1 by sampling error: the share is at most 1)");
        }
        line
    }
}

impl crate::Report for TreesReport {
    fn text(&self) -> String {
        let mut text = String::new();
        if self.trees.interrupted {
            text.push_str("interrupted: the trees measured before the stop\n");
        }
        let how = if self.trees.exhaustive {
            "measured, every one".to_string()
        } else {
            format!("sampled (seed {})", self.seed)
        };
        let _ = writeln!(
            text,
            "deck {}, {} players: {} final positions of player 1 {how}",
            self.deck, self.trees.players, self.trees.samples
        );
        let _ = writeln!(
            text,
            "mean tree size: {:.3} ± {:.3} (largest {}, {} of size 1, {} capped at {})",
            self.trees.mean,
            self.trees.std_error,
            self.trees.max,
            self.trees.singletons,
            self.trees.capped,
            self.cap
        );
        let _ = writeln!(
            text,
            "without cycles the mean would be {}",
            self.trees.no_cycle_mean
        );
        let _ = writeln!(text, "{}", self.finishing_line());
        if let Some(n) = &self.trees.cycling_positions {
            let _ = writeln!(text, "unfinished positions that never finish: {n}");
        }
        text
    }
}
