//! `pieces search` and `pieces construct`: Casella's Ansatz (bmn-pieces) as commands.

use std::fmt::Write as _;

use bmn_job::Job;
use bmn_pieces::{
    Composition, ConstructConfig, Construction, EndlessGame, FoundPiece, Piece, PieceSearchConfig,
    PieceSearchResult, PiecesError, PoolConfig, ReachedCycle,
};
use serde::Serialize;

pub use bmn_pieces::DEFAULT_FILTER;

/// `pieces search`: the longest candidate when not told.
pub const DEFAULT_SEARCH_MAX_LEN: u32 = 12;
/// `pieces construct`: the pool's every piece up to this length...
pub const DEFAULT_POOL_MAX_LEN: u32 = 14;
/// ...and every piece of at most one face up to this length.
pub const DEFAULT_SPARSE_LEN: u32 = 30;
/// `pieces construct`: decks drawn and played.
pub const DEFAULT_BUDGET: u64 = 2000;
/// `pieces construct`: positions a basin search may visit per cycle.
pub const DEFAULT_BASIN_LIMIT: u64 = 2_000_000;

use crate::error::{Error, Result};
use crate::flags::{GiveUpArg, ThreadsArg};
use crate::input;
use crate::plural;
use crate::seeded::{Run, SeededArgs};

/// `--filter`: the piece the template tests candidates behind.
#[derive(clap::Args, Debug, Clone, Default)]
pub struct FilterArg {
    /// The known piece the template tests candidates behind (docs/rules.md's filter)
    /// [default: --K---A----AA].
    #[arg(long, value_name = "P", allow_hyphen_values = true)]
    pub filter: Option<String>,
}

const PIECES_GIVE_UP: &str = "Give up on a template game that has neither ended nor repeated a \
    position after this many tricks, and count it as unresolved [default: 1000000]";

/// What pieces to search: `bmn pieces search`'s parameters.
#[derive(clap::Args, Clone, Debug, Default)]
#[command(mut_arg("give_up", |a| a.help(PIECES_GIVE_UP)))]
pub struct PieceSearchRequest {
    #[command(flatten)]
    pub filter: FilterArg,
    /// Longest candidate, in cards (every string of - Q K A up to it) [default: 12].
    #[arg(long, value_name = "L")]
    pub max_len: Option<u32>,
    /// Only arrangements of these faces, e.g. "Q4,K3,A1" (any number of plain cards up to
    /// --max-len) or "Q4,K3,A1,-23" (exactly 23 plain cards).
    #[arg(long, value_name = "FACES", allow_hyphen_values = true)]
    pub faces: Option<String>,
    /// Only candidates that begin with these cards, e.g. "--------K---------Q-" (the first 20
    /// cards of Casella's piece, after which player 2 holds 22 cards)
    #[arg(long, value_name = "P", allow_hyphen_values = true)]
    pub prefix: Option<String>,
    #[command(flatten)]
    pub threads: ThreadsArg,
    #[command(flatten)]
    pub give_up: GiveUpArg,
    /// Also list every form of each piece (text output).
    #[arg(long)]
    pub forms: bool,
}

/// What decks to build: `bmn pieces construct`'s parameters.
#[derive(clap::Args, Clone, Debug, Default)]
#[command(mut_arg("give_up", |a| a.help(PIECES_GIVE_UP)))]
pub struct ConstructRequest {
    #[command(flatten)]
    pub run: SeededArgs,
    /// Decks to draw and play [default: 2000].
    #[arg(long, value_name = "DECKS")]
    pub budget: Option<u64>,
    /// The pool: every piece up to this length... [default: 14]
    #[arg(long, value_name = "L")]
    pub max_len: Option<u32>,
    /// ...and every piece of at most one face up to this length [default: 30].
    #[arg(long, value_name = "L")]
    pub sparse_len: Option<u32>,
    /// Extra pieces for the pool by face list, e.g. "Q4,K3,A1,-23" (repeatable).
    #[arg(long, value_name = "FACES", allow_hyphen_values = true)]
    pub faces: Vec<String>,
    /// Only decks built around a piece of exactly these cards, e.g. "Q4,K3,A1,-23"
    /// (searched and added to the pool): a rare long piece is otherwise almost never drawn.
    #[arg(long, value_name = "FACES", allow_hyphen_values = true)]
    pub around: Option<String>,
    #[command(flatten)]
    pub filter: FilterArg,
    /// Positions a basin search may visit per cycle [default: 2000000].
    #[arg(long, value_name = "M")]
    pub basin_limit: Option<u64>,
    #[command(flatten)]
    pub give_up: GiveUpArg,
}

/// A library error about the input (bad piece, bad faces, a filter that is no piece) is
/// the user's.
/// A pieces error naming `flag`, or the setting the error itself names (`--max-len 0`).
fn user_error(flag: &'static str) -> impl FnOnce(PiecesError) -> Error {
    move |e| Error::bad(e.field().unwrap_or(flag), &e).caused_by(e)
}

fn filter(text: Option<&str>) -> Result<Piece> {
    Piece::parse(text.unwrap_or(bmn_pieces::DEFAULT_FILTER)).map_err(user_error("filter"))
}

fn faces(text: &str) -> Result<(Composition, Option<u32>)> {
    Composition::parse_faces(text).map_err(user_error("faces"))
}

#[derive(Serialize, Clone, Debug)]
pub struct PieceSearchReport {
    pub filter: String,
    pub max_len: u32,
    pub faces: Option<String>,
    pub units: u64,
    /// Units searched: all of them unless `interrupted`.
    pub units_done: u64,
    /// Stopped (Ctrl-C) part-way: the pieces of the units searched before the stop.
    pub interrupted: bool,
    pub passing: u64,
    pub proposed: u64,
    pub rejected: u64,
    pub unresolved: u64,
    pub pieces: Vec<FoundPiece>,
    /// List every form of each piece in the text.
    #[serde(skip)]
    pub list_forms: bool,
}

/// A piece search, validated.
#[derive(Clone, Debug)]
pub struct PieceSearchPlan {
    pub config: PieceSearchConfig,
    /// The filter and faces as given, for the report.
    pub filter_text: String,
    pub faces_text: Option<String>,
    pub threads: usize,
    pub list_forms: bool,
}

impl TryFrom<&PieceSearchRequest> for PieceSearchPlan {
    type Error = Error;

    fn try_from(req: &PieceSearchRequest) -> Result<Self> {
        let filter_text = req
            .filter
            .filter
            .clone()
            .unwrap_or_else(|| bmn_pieces::DEFAULT_FILTER.to_string());
        let config = PieceSearchConfig {
            filter: filter(Some(&filter_text))?,
            max_len: req.max_len.unwrap_or(DEFAULT_SEARCH_MAX_LEN),
            faces: req.faces.as_deref().map(faces).transpose()?,
            give_up: req.give_up.give_up.unwrap_or(bmn_pieces::DEFAULT_GIVE_UP),
            prefix: Piece::parse(req.prefix.as_deref().unwrap_or(""))
                .map_err(user_error("prefix"))?,
        };
        Ok(PieceSearchPlan {
            config,
            filter_text,
            faces_text: req.faces.clone(),
            threads: input::threads(req.threads.threads)?,
            list_forms: req.forms,
        })
    }
}

/// Pieces in increasing size (or arrangements of the given faces), each checked on the
/// reference engine in the test template. The job's stop ends it early with the units
/// searched.
pub fn search(req: &PieceSearchRequest, job: &mut Job) -> Result<PieceSearchReport> {
    let plan = PieceSearchPlan::try_from(req)?;
    let (config, threads) = (&plan.config, plan.threads);
    let result = bmn_pieces::search(config, threads, job).map_err(user_error("search"));
    job.finish();
    let r: PieceSearchResult = result?;
    Ok(PieceSearchReport {
        filter: plan.filter_text.clone(),
        max_len: config.max_len,
        faces: plan.faces_text.clone(),
        units: r.units,
        units_done: r.units_done,
        interrupted: r.units_done < r.units,
        passing: r.passing,
        proposed: r.proposed,
        rejected: r.rejected,
        unresolved: r.unresolved,
        pieces: r.pieces.clone(),
        list_forms: plan.list_forms,
    })
}

impl crate::Report for PieceSearchReport {
    fn text(&self) -> String {
        let mut text = String::new();
        if self.interrupted {
            let _ = writeln!(
                text,
                "interrupted: the pieces of {} of {} units searched",
                self.units_done, self.units
            );
        }
        for p in &self.pieces {
            let forms = if self.list_forms && p.forms.len() > 1 {
                let rest: Vec<String> = p.forms[1..].iter().map(ToString::to_string).collect();
                format!(" -> {}", rest.join(" -> "))
            } else {
                String::new()
            };
            let _ = writeln!(
                text,
                "{}  ({} cards, {}; {} form{}; template period {} tricks){forms}",
                p.piece,
                p.piece.len(),
                p.piece.composition(),
                p.forms.len(),
                if p.forms.len() == 1 { "" } else { "s" },
                p.template.period.tricks,
            );
        }
        let _ = writeln!(
            text,
            "{} up to passes ({} candidates kept of {} whose first pass closes; \
             rejected by the reference engine: {}, unresolved: {})",
            plural(self.pieces.len() as u64, "piece"),
            self.proposed,
            self.passing,
            self.rejected,
            self.unresolved
        );
        text
    }
}

#[derive(Serialize, Clone, Debug)]
pub struct ConstructReport {
    pub seed: u64,
    pub budget: u64,
    pub pool_pieces: usize,
    pub triples: String,
    pub decks_tried: u64,
    pub distinct_decks: u64,
    pub non_terminating: u64,
    pub finishing: u64,
    pub unresolved: u64,
    /// Stopped (Ctrl-C) part-way: the decks played and basins searched before the stop.
    pub interrupted: bool,
    /// Every distinct cycle the decks reached, with its basin's balanced deals.
    pub distinct_cycle_list: Vec<ReachedCycle>,
    /// Every distinct non-terminating deck, then every balanced deal found backward
    /// (grouped by cycle, in the order the cycles were reached).
    pub games: Vec<EndlessGame>,
}

/// A construction, validated: the pool of pieces, the decks drawn from it, the threads.
#[derive(Clone, Debug)]
pub struct ConstructPlan {
    pub pool: PoolConfig,
    pub construct: ConstructConfig,
    pub threads: usize,
}

impl TryFrom<&ConstructRequest> for ConstructPlan {
    type Error = Error;

    fn try_from(req: &ConstructRequest) -> Result<Self> {
        let mut face_lists = req
            .faces
            .iter()
            .map(|f| faces(f))
            .collect::<Result<Vec<_>>>()?;
        let around = match req.around.as_deref().map(faces).transpose()? {
            Some((f, Some(plain))) => {
                if !face_lists.contains(&(f, Some(plain))) {
                    face_lists.push((f, Some(plain)));
                }
                let mut c = f;
                c.add(bmn_core::Kind::Plain, plain);
                Some(c)
            }
            Some((_, None)) => {
                return Err(Error::bad_with(
                    "around",
                    ": give the plain cards too, e.g. Q4,K3,A1,-23",
                ));
            }
            None => None,
        };
        let give_up = req.give_up.give_up.unwrap_or(bmn_pieces::DEFAULT_GIVE_UP);
        let pool_config = PoolConfig {
            filter: filter(req.filter.filter.as_deref())?,
            max_len: req.max_len.unwrap_or(DEFAULT_POOL_MAX_LEN),
            sparse_len: req.sparse_len.unwrap_or(DEFAULT_SPARSE_LEN),
            faces: face_lists,
            give_up,
        };
        let basin_limit = input::at_least_one(
            req.basin_limit.unwrap_or(DEFAULT_BASIN_LIMIT),
            "basin_limit",
        )?;
        let Run { seed, threads } = req.run.resolve()?;
        let construct = ConstructConfig {
            seed,
            decks: req.budget.unwrap_or(DEFAULT_BUDGET),
            give_up,
            basin_limit,
            target: bmn_pieces::Composition::STANDARD_PIECES,
            around,
        };
        Ok(ConstructPlan {
            pool: pool_config,
            construct,
            threads,
        })
    }
}

/// Standard decks from the pool of pieces, played to their cycles, every cycle's basin
/// searched backward for balanced deals. The job's stop ends it early with what it has.
pub fn construct(req: &ConstructRequest, job: &mut Job) -> Result<ConstructReport> {
    let plan = ConstructPlan::try_from(req)?;
    let (pool_config, config, threads) = (&plan.pool, &plan.construct, plan.threads);
    let (seed, budget) = (config.seed, config.decks);
    let pool = bmn_pieces::build_pool(pool_config, threads, job);
    let pool = match pool {
        Ok(pool) => pool,
        Err(e) => {
            job.finish();
            return Err(user_error("pool")(e));
        }
    };
    let c = bmn_pieces::construct(&pool, config, threads, job).map_err(user_error("construct"));
    job.finish();
    let mut report = construct_report(seed, budget, pool.len(), &c?);
    report.interrupted = job.interrupted();
    Ok(report)
}

fn construct_report(seed: u64, budget: u64, pool: usize, c: &Construction) -> ConstructReport {
    let mut games = c.decks.clone();
    for cy in &c.cycles {
        games.extend(cy.balanced.iter().cloned());
    }
    ConstructReport {
        seed,
        budget,
        pool_pieces: pool,
        triples: c.triples.to_string(),
        decks_tried: c.decks_tried,
        distinct_decks: c.distinct_decks,
        non_terminating: c.non_terminating,
        finishing: c.finishing,
        unresolved: c.unresolved,
        interrupted: false,
        distinct_cycle_list: c.cycles.clone(),
        games,
    }
}

impl crate::Report for ConstructReport {
    fn text(&self) -> String {
        let mut text = String::new();
        if self.interrupted {
            text.push_str("interrupted: the decks played and basins searched before the stop\n");
        }
        let _ = writeln!(
            text,
            "pool: {}; {} ordered triples fill a standard deck",
            plural(self.pool_pieces as u64, "piece"),
            self.triples
        );
        let _ = writeln!(
            text,
            "decks: {} drawn ({} distinct), {} never end, {} end, {} unresolved",
            self.decks_tried,
            self.distinct_decks,
            self.non_terminating,
            self.finishing,
            self.unresolved
        );
        let balanced: usize = self
            .distinct_cycle_list
            .iter()
            .map(|cy| cy.balanced.len())
            .sum();
        let _ = writeln!(
            text,
            "distinct cycles: {}; balanced deals found backward: {balanced}",
            self.distinct_cycle_list.len()
        );
        for cy in &self.distinct_cycle_list {
            let _ = writeln!(
                text,
                "cycle {}: period {} tricks ({} cards), {} deck{}, basin {} positions{}, {} balanced",
                cy.id,
                cy.period.tricks,
                cy.period.cards,
                cy.decks,
                if cy.decks == 1 { "" } else { "s" },
                cy.basin_positions,
                if cy.basin_complete {
                    ""
                } else {
                    " (cut short)"
                },
                cy.balanced.len()
            );
            for g in &cy.balanced {
                let _ = writeln!(
                    text,
                    "  {} (leader {}): preperiod {}, {}",
                    g.deal.deal_text(),
                    g.deal.leader().number(),
                    plural(g.preperiod.tricks, "trick"),
                    plural(g.preperiod.cards, "card")
                );
            }
        }
        text
    }
}
