//! `bmn backward`, `bmn basin`, `bmn extend`, `bmn trees`: backward play (bmn-backward) as commands.

use std::fmt::Write as _;

use anyhow::Result;
use bmn_backward::{
    BalancedDeal, Basin, BasinConfig, BasinTarget, ExtendConfig, ExtendedDeal, TreesConfig,
};
use bmn_core::{Deck, Player, Position};
use serde::Serialize;

use crate::cli::RulesArgs;
use crate::input::{self, BadInput, bad};
use crate::output::{self, PositionJson, SpanJson};
use crate::progress;

#[derive(clap::Args, Debug)]
pub struct BackwardArgs {
    /// The position, hands separated by '/', top card first; a hand may be empty ("----/" is a
    /// finished game). "-" reads it from stdin.
    #[arg(allow_hyphen_values = true)]
    pub position: String,
    /// Who leads the position (the winner of the trick before it), numbered from 1.
    #[arg(long, default_value_t = 1, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub leader: u64,
    #[command(flatten)]
    pub rules: RulesArgs,
    /// Print one JSON object instead of text.
    #[arg(long)]
    pub json: bool,
}

#[derive(clap::Args, Debug)]
pub struct BasinArgs {
    /// A position (hands may be empty); its basin is every position that reaches the same cycle
    /// (players renamed or not) or, if its game finishes, the same final position.
    #[arg(allow_hyphen_values = true)]
    pub position: String,
    /// Who leads the position, numbered from 1.
    #[arg(long, default_value_t = 1, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub leader: u64,
    /// List the balanced starting deals with their game lengths (JSON always lists them).
    #[arg(long)]
    pub balanced: bool,
    /// Stop after this many positions (about 50 bytes of memory each) and say it was cut short.
    #[arg(long, default_value_t = 20_000_000, value_name = "M")]
    pub limit: u64,
    /// Write the basin as a Graphviz DOT graph to FILE (render: `dot -Tsvg FILE > out.svg`):
    /// one node per position, one edge per trick, the cycle in red, balanced starting deals
    /// filled green, the position given outlined twice.
    #[arg(long, value_name = "FILE")]
    pub dot: Option<std::path::PathBuf>,
    #[command(flatten)]
    pub rules: RulesArgs,
    /// Print one JSON object instead of text.
    #[arg(long)]
    pub json: bool,
}

#[derive(clap::Args, Debug)]
pub struct ExtendArgs {
    /// A deal whose game finishes (e.g. a record game).
    #[arg(allow_hyphen_values = true)]
    pub deal: String,
    /// Who leads, numbered from 1.
    #[arg(long, default_value_t = 1, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub leader: u64,
    /// Tricks to search backward from each position of the game.
    #[arg(long, default_value_t = 10, value_name = "D")]
    pub depth: u64,
    /// Stop after this many positions and say it was cut short.
    #[arg(long, default_value_t = 20_000_000, value_name = "M")]
    pub limit: u64,
    /// How many of the longest balanced deals to list.
    #[arg(long, default_value_t = 10, value_name = "K")]
    pub top: usize,
    #[command(flatten)]
    pub rules: RulesArgs,
    /// Print one JSON object instead of text.
    #[arg(long)]
    pub json: bool,
}

#[derive(clap::Args, Debug)]
pub struct TreesArgs {
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
    /// The deck: standard, camicia, 2J,2Q,2K,2A,16-, ...
    #[arg(long, default_value = "standard", value_name = "D")]
    pub deck: String,
    /// Players at the table.
    #[arg(long, default_value_t = 2, value_name = "K")]
    pub players: usize,
    /// Seed of the sampled arrangements: sample i is a function of (seed, i) only.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Stop counting a tree at this many positions (the mean is then a lower bound).
    #[arg(long, default_value_t = 1_000_000, value_name = "M")]
    pub cap: u64,
    #[command(flatten)]
    pub rules: RulesArgs,
    /// Print one JSON object instead of text.
    #[arg(long)]
    pub json: bool,
}

/// A position argument with its leader; unlike a deal, hands may be empty.
fn position(arg: &str, leader: u64) -> Result<Position> {
    let text = input::deal_text(arg)?;
    let leader = Player(usize::try_from(leader - 1).unwrap_or(usize::MAX - 1));
    Position::parse(&text, leader).map_err(bad("bad position"))
}

/// "1 trick", "2 tricks".
fn tricks(n: u64) -> String {
    format!("{n} trick{}", if n == 1 { "" } else { "s" })
}

/// A library error about the input (too large, not finishing) is the user's: exit code 2.
fn user_error(e: bmn_backward::BackwardError) -> anyhow::Error {
    BadInput(e.to_string()).into()
}

#[derive(Serialize)]
struct BackwardJson {
    position: PositionJson,
    predecessors: Vec<PositionJson>,
}

pub fn run_backward(args: &BackwardArgs) -> Result<()> {
    let rules = input::rules(&args.rules)?;
    let target = position(&args.position, args.leader)?;
    let preds = bmn_backward::predecessors(&rules, &target);
    if args.json {
        return output::print_json(&BackwardJson {
            position: (&target).into(),
            predecessors: preds.iter().map(PositionJson::from).collect(),
        });
    }
    let mut text = String::new();
    for p in &preds {
        writeln!(text, "{p}")?;
    }
    let s = if preds.len() == 1 { "" } else { "s" };
    writeln!(text, "{} predecessor{s} of {target}", preds.len())?;
    Ok(output::print(&text)?)
}

/// A balanced deal of a basin and its game: the preperiod for a cycle, the whole game for a
/// final position.
#[derive(Serialize)]
struct BalancedJson {
    deal: String,
    leader: usize,
    tricks: u64,
    cards: u64,
    /// Reaches the cycle only with the players renamed.
    renamed: bool,
}

/// Balanced deals counted by the definitions a paper might use (see docs/results.md, Part 3).
#[derive(Serialize)]
struct BalancedCountsJson {
    /// Any leader, the cycle as given or with players renamed.
    all: usize,
    /// Any leader, the cycle exactly as given.
    exact: usize,
    /// Player 1 leads, as given or renamed.
    leader_1: usize,
    /// Player 1 leads, the cycle exactly as given.
    leader_1_exact: usize,
}

#[derive(Serialize)]
struct BasinJson {
    position: PositionJson,
    /// `cycle` or `final`.
    target: &'static str,
    cycle_id: Option<String>,
    period: Option<SpanJson>,
    cycle_representative: Option<PositionJson>,
    final_position: Option<PositionJson>,
    positions: u64,
    complete: bool,
    limit: u64,
    depth: u64,
    /// What a balanced deal's `tricks`/`cards` measure: `preperiod` or `game`.
    length: &'static str,
    /// Balanced starting deals with player 1 leading, as a deal is (Casella et al. count 30
    /// for their cycle); `balanced_counts` counts by the other definitions.
    balanced_deals_count: usize,
    balanced_counts: BalancedCountsJson,
    /// Those deals with their game lengths.
    balanced_deals: Vec<BalancedJson>,
    /// Every balanced position of the basin, player 2 leading included.
    balanced_deals_any_leader: Vec<BalancedJson>,
}

/// The balanced deals (only those with player 1 leading, if `leader_1`).
fn balanced_json(deals: &[BalancedDeal], leader_1: bool) -> Vec<BalancedJson> {
    deals
        .iter()
        .filter(|d| !leader_1 || d.deal.leader() == Player(0))
        .map(|d| BalancedJson {
            deal: d.deal.deal_text(),
            leader: d.deal.leader().number(),
            tricks: d.length.tricks,
            cards: d.length.cards,
            renamed: d.renamed,
        })
        .collect()
}

fn counts(deals: &[BalancedDeal]) -> BalancedCountsJson {
    let count = |f: &dyn Fn(&BalancedDeal) -> bool| deals.iter().filter(|d| f(d)).count();
    BalancedCountsJson {
        all: deals.len(),
        exact: count(&|d| !d.renamed),
        leader_1: count(&|d| d.deal.leader() == Player(0)),
        leader_1_exact: count(&|d| d.deal.leader() == Player(0) && !d.renamed),
    }
}

/// The basin as DOT: every member, the cycle (in every renaming) marked, balanced deals marked.
fn write_basin_dot(
    path: &std::path::Path,
    rules: &bmn_core::Rules,
    start: &Position,
    basin: &bmn_backward::Basin,
) -> Result<()> {
    let members = basin.members.as_deref().unwrap_or_default();
    let (cycle, title) = match &basin.target {
        BasinTarget::Cycle {
            id,
            period,
            start: on_cycle,
            ..
        } => {
            let walk = crate::dot::cycle_positions(rules, on_cycle, period.tricks);
            let all: std::collections::HashSet<Position> =
                walk.iter().flat_map(bmn_backward::rotations).collect();
            let title = format!(
                "basin of cycle {id} (period {} tricks): {} positions",
                period.tricks,
                members.len()
            );
            (all, title)
        }
        BasinTarget::Final { position } => (
            std::collections::HashSet::new(),
            format!("positions ending in {position}: {}", members.len()),
        ),
    };
    let marks = crate::dot::Marks {
        start,
        cycle: &cycle,
        balanced: true,
    };
    let dot = crate::dot::graph(rules, &title, members, &marks);
    crate::dot::write(path, &dot)
}

pub fn run_basin(args: &BasinArgs) -> Result<()> {
    let rules = input::rules(&args.rules)?;
    let start = position(&args.position, args.leader)?;
    if args.limit == 0 {
        return Err(BadInput("bad --limit: must be at least 1".into()).into());
    }
    let config = BasinConfig {
        limit: args.limit,
        keep_members: args.dot.is_some(),
    };
    let bar = progress::bar(None, "positions");
    let basin = bmn_backward::basin(&rules, &start, &config, |n| bar.set_position(n))
        .map_err(user_error)?;
    bar.finish_and_clear();
    if let Some(path) = &args.dot {
        write_basin_dot(path, &rules, &start, &basin)?;
    }
    if args.json {
        return output::print_json(&basin_json(&start, &basin, args.limit));
    }
    let mut text = String::new();
    let (what, length) = match &basin.target {
        BasinTarget::Cycle {
            id,
            period,
            representative,
            ..
        } => {
            writeln!(
                text,
                "cycle {id}: period {} tricks ({} cards), representative {representative}",
                period.tricks, period.cards
            )?;
            ("the cycle", "preperiod")
        }
        BasinTarget::Final { position } => {
            writeln!(text, "final position {position}")?;
            ("the final position", "game")
        }
    };
    let status = if basin.complete {
        "complete".to_string()
    } else {
        format!("cut short by --limit {}: a lower bound", args.limit)
    };
    writeln!(text, "positions: {} ({status})", basin.positions)?;
    writeln!(text, "deepest: {} before {what}", tricks(basin.depth))?;
    let c = counts(&basin.balanced);
    match basin.target {
        BasinTarget::Cycle { .. } => writeln!(
            text,
            "balanced starting deals (player 1 leads): {} (with either leader: {}; reaching \
             the cycle without renaming the players: {}, of which player 1 leads: {})",
            c.leader_1, c.all, c.exact, c.leader_1_exact
        )?,
        BasinTarget::Final { .. } => writeln!(
            text,
            "balanced starting deals (player 1 leads): {} (with either leader: {})",
            c.leader_1, c.all
        )?,
    }
    if args.balanced {
        for d in basin
            .balanced
            .iter()
            .filter(|d| d.deal.leader() == Player(0))
        {
            let renamed = if d.renamed { ", players renamed" } else { "" };
            writeln!(
                text,
                "  {}: {length} {}, {} cards{renamed}",
                d.deal,
                tricks(d.length.tricks),
                d.length.cards
            )?;
        }
    }
    Ok(output::print(&text)?)
}

fn basin_json(start: &Position, basin: &Basin, limit: u64) -> BasinJson {
    let (target, cycle_id, period, representative, final_position, length) = match &basin.target {
        BasinTarget::Cycle {
            id,
            period,
            representative,
            ..
        } => (
            "cycle",
            Some(id.to_string()),
            Some((*period).into()),
            Some(representative.into()),
            None,
            "preperiod",
        ),
        BasinTarget::Final { position } => {
            ("final", None, None, None, Some(position.into()), "game")
        }
    };
    BasinJson {
        position: start.into(),
        target,
        cycle_id,
        period,
        cycle_representative: representative,
        final_position,
        positions: basin.positions,
        complete: basin.complete,
        limit,
        depth: basin.depth,
        length,
        balanced_deals_count: counts(&basin.balanced).leader_1,
        balanced_counts: counts(&basin.balanced),
        balanced_deals: balanced_json(&basin.balanced, true),
        balanced_deals_any_leader: balanced_json(&basin.balanced, false),
    }
}

#[derive(Serialize)]
struct GameJson {
    deal: String,
    leader: usize,
    cards: u64,
    tricks: u64,
    winner: usize,
}

impl From<&ExtendedDeal> for GameJson {
    fn from(d: &ExtendedDeal) -> Self {
        GameJson {
            deal: d.deal.deal_text(),
            leader: d.deal.leader().number(),
            cards: d.cards,
            tricks: d.tricks,
            winner: d.winner.number(),
        }
    }
}

#[derive(Serialize)]
struct ExtendJson {
    original: GameJson,
    depth: u64,
    depth_reached: u64,
    positions: u64,
    complete: bool,
    /// Every position whose play runs into the game was found (nothing lies further back).
    exhausted: bool,
    limit: u64,
    balanced_found: u64,
    /// Balanced deals found whose games are longer (in cards) than the original's.
    longer: u64,
    best: Vec<GameJson>,
}

pub fn run_extend(args: &ExtendArgs) -> Result<()> {
    let rules = input::rules(&args.rules)?;
    let deal = input::deal(&args.deal, args.leader, None)?;
    if args.limit == 0 {
        return Err(BadInput("bad --limit: must be at least 1".into()).into());
    }
    let config = ExtendConfig {
        depth: args.depth,
        limit: args.limit,
        keep: args.top,
    };
    let bar = progress::bar(None, "positions");
    let ext = bmn_backward::extend(&rules, &deal, &config, |n| bar.set_position(n))
        .map_err(user_error)?;
    bar.finish_and_clear();
    if args.json {
        return output::print_json(&ExtendJson {
            original: (&ext.original).into(),
            depth: args.depth,
            depth_reached: ext.depth,
            positions: ext.positions,
            complete: ext.complete,
            exhausted: ext.exhausted,
            limit: args.limit,
            balanced_found: ext.balanced_found,
            longer: ext.longer,
            best: ext.best.iter().map(GameJson::from).collect(),
        });
    }
    let mut text = String::new();
    let o = &ext.original;
    writeln!(
        text,
        "original: {} ({} cards, {} tricks, player {} wins)",
        o.deal, o.cards, o.tricks, o.winner
    )?;
    let status = if !ext.complete {
        format!(": cut short by --limit {}", args.limit)
    } else if ext.exhausted {
        ": nothing lies further back (the whole tree of the final position)".to_string()
    } else {
        String::new()
    };
    writeln!(
        text,
        "searched {} positions up to {} back{status}",
        ext.positions,
        tricks(ext.depth)
    )?;
    writeln!(
        text,
        "balanced deals found: {}, longer than the original: {}",
        ext.balanced_found, ext.longer
    )?;
    for d in &ext.best {
        writeln!(
            text,
            "  {}: {} cards, {} tricks, player {} wins",
            d.deal, d.cards, d.tricks, d.winner
        )?;
    }
    Ok(output::print(&text)?)
}

#[derive(Serialize)]
struct TreesJson {
    deck: String,
    players: usize,
    samples: u64,
    /// Every final position was measured (`--all`).
    exhaustive: bool,
    seed: u64,
    cap: u64,
    mean: f64,
    std_error: f64,
    capped: u64,
    max: u64,
    singletons: u64,
    /// The mean tree size if no position cycled (Paulhus 1999).
    no_cycle_mean: f64,
    /// (mean - 1) / (no_cycle_mean - 1): the estimated share of unfinished positions that
    /// finish; a lower bound when any tree was capped.
    finishing_share: f64,
    /// With `--all` and no tree capped: how many unfinished positions never finish (a
    /// decimal string: it can exceed 2^53).
    cycling_positions: Option<String>,
}

pub fn run_trees(args: &TreesArgs) -> Result<()> {
    let rules = input::rules(&args.rules)?;
    let deck = Deck::parse(&args.deck).map_err(bad("bad --deck"))?;
    if args.samples == Some(0) {
        return Err(BadInput("bad --samples: must be at least 1".into()).into());
    }
    if args.cap == 0 {
        return Err(BadInput("bad --cap: must be at least 1".into()).into());
    }
    let trees = match args.samples {
        Some(samples) => {
            let config = TreesConfig {
                samples,
                seed: args.seed,
                cap: args.cap,
                players: args.players,
            };
            let bar = progress::bar(Some(samples), "trees");
            let trees = bmn_backward::trees(&rules, &deck, &config, |n| bar.set_position(n));
            bar.finish_and_clear();
            trees
        }
        None => {
            let total = bmn_backward::arrangements(&deck).and_then(|n| u64::try_from(n).ok());
            let bar = progress::bar(total, "trees");
            let trees = bmn_backward::trees_all(&rules, &deck, args.players, args.cap, |n| {
                bar.set_position(n)
            });
            bar.finish_and_clear();
            trees
        }
    }
    .map_err(user_error)?;
    let json = TreesJson {
        deck: deck.to_string(),
        players: trees.players,
        samples: trees.samples,
        exhaustive: trees.exhaustive,
        seed: args.seed,
        cap: args.cap,
        mean: trees.mean,
        std_error: trees.std_error,
        capped: trees.capped,
        max: trees.max,
        singletons: trees.singletons,
        no_cycle_mean: trees.no_cycle_mean,
        finishing_share: trees.finishing_share(),
        cycling_positions: trees.cycling_positions.map(|n| n.to_string()),
    };
    if args.json {
        return output::print_json(&json);
    }
    let mut text = String::new();
    let how = if json.exhaustive {
        "measured, every one".to_string()
    } else {
        format!("sampled (seed {})", json.seed)
    };
    writeln!(
        text,
        "deck {}, {} players: {} final positions of player 1 {how}",
        json.deck, json.players, json.samples
    )?;
    writeln!(
        text,
        "mean tree size: {:.3} ± {:.3} (largest {}, {} of size 1, {} capped at {})",
        json.mean, json.std_error, json.max, json.singletons, json.capped, json.cap
    )?;
    writeln!(
        text,
        "without cycles the mean would be {}; share of unfinished positions that finish: {:.4}{}",
        json.no_cycle_mean,
        json.finishing_share,
        if json.capped > 0 {
            " (a lower bound: some trees were capped)"
        } else {
            ""
        }
    )?;
    if let Some(n) = &json.cycling_positions {
        writeln!(text, "unfinished positions that never finish: {n}")?;
    }
    Ok(output::print(&text)?)
}
