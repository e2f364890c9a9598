//! `bmn pieces search` and `bmn pieces construct`: Casella's Ansatz (bmn-pieces) as commands.

use std::fmt::Write as _;

use anyhow::Result;
use bmn_pieces::{
    Composition, ConstructConfig, Construction, EndlessGame, FoundPiece, Piece, PieceSearchConfig,
    PieceSearchResult, PiecesError, PoolConfig,
};
use serde::Serialize;

use crate::input::{self, BadInput};
use crate::output::{self, PositionJson, SpanJson};
use crate::progress;

#[derive(clap::Args, Debug)]
pub struct PiecesArgs {
    #[command(subcommand)]
    pub command: PiecesCommand,
}

#[derive(clap::Subcommand, Debug)]
pub enum PiecesCommand {
    /// Candidate pieces in increasing size, kept if the test template never ends.
    Search(SearchArgs),
    /// Standard decks Δ1 J Δ2 J Δ3 J - / J - from found pieces, then balanced deals backward.
    Construct(ConstructArgs),
}

#[derive(clap::Args, Debug)]
pub struct SearchArgs {
    /// The known piece the template tests candidates behind (docs/rules.md's filter).
    #[arg(long, default_value = bmn_pieces::DEFAULT_FILTER, value_name = "P", allow_hyphen_values = true)]
    pub filter: String,
    /// Longest candidate, in cards (every string of - Q K A up to it).
    #[arg(long, default_value_t = 12, value_name = "L")]
    pub max_len: u32,
    /// Only arrangements of these faces, e.g. "Q4,K3,A1" (any number of plain cards up to
    /// --max-len) or "Q4,K3,A1,-23" (exactly 23 plain cards).
    #[arg(long, value_name = "FACES", allow_hyphen_values = true)]
    pub faces: Option<String>,
    /// Worker threads (default: every core). Results do not depend on it.
    #[arg(long, value_name = "T")]
    pub threads: Option<usize>,
    /// Give up on a template game after this many tricks (counted as unresolved).
    #[arg(long, default_value_t = bmn_pieces::DEFAULT_GIVE_UP, value_name = "T")]
    pub give_up: u64,
    /// Also list every form of each piece (text output).
    #[arg(long)]
    pub forms: bool,
    /// Print one JSON object instead of text.
    #[arg(long)]
    pub json: bool,
}

#[derive(clap::Args, Debug)]
pub struct ConstructArgs {
    /// Seed of the deck stream: deck k is a function of (pool, seed, k) only.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Decks to draw and play.
    #[arg(long, default_value_t = 2000, value_name = "DECKS")]
    pub budget: u64,
    /// The pool: every piece up to this length...
    #[arg(long, default_value_t = 14, value_name = "L")]
    pub max_len: u32,
    /// ...and every piece of at most one face up to this length.
    #[arg(long, default_value_t = 30, value_name = "L")]
    pub sparse_len: u32,
    /// Extra pieces for the pool by face list, e.g. "Q4,K3,A1,-23" (repeatable).
    #[arg(long, value_name = "FACES", allow_hyphen_values = true)]
    pub faces: Vec<String>,
    /// Only decks built around a piece of exactly these cards, e.g. "Q4,K3,A1,-23"
    /// (searched and added to the pool): a rare long piece is otherwise almost never drawn.
    #[arg(long, value_name = "FACES", allow_hyphen_values = true)]
    pub around: Option<String>,
    /// The template's filter piece.
    #[arg(long, default_value = bmn_pieces::DEFAULT_FILTER, value_name = "P", allow_hyphen_values = true)]
    pub filter: String,
    /// Positions a basin search may visit per cycle.
    #[arg(long, default_value_t = 2_000_000, value_name = "M")]
    pub basin_limit: u64,
    /// Worker threads (default: every core). Results do not depend on it.
    #[arg(long, value_name = "T")]
    pub threads: Option<usize>,
    /// Give up on a game after this many tricks.
    #[arg(long, default_value_t = bmn_pieces::DEFAULT_GIVE_UP, value_name = "T")]
    pub give_up: u64,
    /// Print one JSON object instead of text.
    #[arg(long)]
    pub json: bool,
}

pub fn run(args: &PiecesArgs) -> Result<()> {
    match &args.command {
        PiecesCommand::Search(a) => run_search(a),
        PiecesCommand::Construct(a) => run_construct(a),
    }
}

/// A library error about the input (bad piece, bad faces, a filter that is no piece) is
/// the user's: exit code 2.
fn user_error(flag: &str) -> impl FnOnce(PiecesError) -> anyhow::Error + '_ {
    move |e| BadInput(format!("bad {flag}: {e}")).into()
}

fn filter(text: &str) -> Result<Piece> {
    Piece::parse(text).map_err(user_error("--filter"))
}

fn faces(text: &str) -> Result<(Composition, Option<u32>)> {
    Composition::parse_faces(text).map_err(user_error("--faces"))
}

#[derive(Serialize)]
struct TemplateJson {
    preperiod: SpanJson,
    period: SpanJson,
    cycle_id: String,
}

#[derive(Serialize)]
struct PieceJson {
    piece: String,
    length: usize,
    composition: String,
    /// Every form its passes cycle through, `piece` first.
    forms: Vec<String>,
    /// Candidates that are, or turn into, one of the forms.
    candidates: u64,
    template: TemplateJson,
}

impl From<&FoundPiece> for PieceJson {
    fn from(p: &FoundPiece) -> Self {
        PieceJson {
            piece: p.piece.to_string(),
            length: p.piece.len(),
            composition: p.piece.composition().to_string(),
            forms: p.forms.iter().map(ToString::to_string).collect(),
            candidates: p.candidates,
            template: TemplateJson {
                preperiod: p.template.preperiod.into(),
                period: p.template.period.into(),
                cycle_id: p.template.id.to_string(),
            },
        }
    }
}

#[derive(Serialize)]
struct SearchJson {
    filter: String,
    max_len: u32,
    faces: Option<String>,
    units: u64,
    passing: u64,
    proposed: u64,
    rejected: u64,
    unresolved: u64,
    pieces: Vec<PieceJson>,
}

fn search_json(args: &SearchArgs, r: &PieceSearchResult) -> SearchJson {
    SearchJson {
        filter: args.filter.clone(),
        max_len: args.max_len,
        faces: args.faces.clone(),
        units: r.units,
        passing: r.passing,
        proposed: r.proposed,
        rejected: r.rejected,
        unresolved: r.unresolved,
        pieces: r.pieces.iter().map(PieceJson::from).collect(),
    }
}

pub fn run_search(args: &SearchArgs) -> Result<()> {
    let config = PieceSearchConfig {
        filter: filter(&args.filter)?,
        max_len: args.max_len,
        faces: args.faces.as_deref().map(faces).transpose()?,
        give_up: args.give_up,
    };
    let threads = input::threads(args.threads)?;
    let bar = progress::bar(None, "units");
    let result = bmn_pieces::search(&config, threads, |done, total| {
        bar.set_length(total);
        bar.set_position(done);
    })
    .map_err(user_error("search"))?;
    bar.finish_and_clear();
    if args.json {
        return output::print_json(&search_json(args, &result));
    }
    let mut text = String::new();
    for p in &result.pieces {
        let forms = if args.forms && p.forms.len() > 1 {
            let rest: Vec<String> = p.forms[1..].iter().map(ToString::to_string).collect();
            format!(" -> {}", rest.join(" -> "))
        } else {
            String::new()
        };
        writeln!(
            text,
            "{}  ({} cards, {}; {} form{}; template period {} tricks){forms}",
            p.piece,
            p.piece.len(),
            p.piece.composition(),
            p.forms.len(),
            if p.forms.len() == 1 { "" } else { "s" },
            p.template.period.tricks,
        )?;
    }
    writeln!(
        text,
        "{} pieces up to passes ({} candidates kept of {} whose first pass closes; \
         rejected by the reference engine: {}, unresolved: {})",
        result.pieces.len(),
        result.proposed,
        result.passing,
        result.rejected,
        result.unresolved
    )?;
    Ok(output::print(&text)?)
}

#[derive(Serialize)]
struct GameJson {
    deal: String,
    leader: usize,
    balanced: bool,
    preperiod: SpanJson,
    period: SpanJson,
    cycle_id: String,
    /// The deck's three pieces, for a deck of the construction (null for a deal found backward).
    pieces: Option<Vec<String>>,
    /// The deck's number in the seed's stream.
    deck_index: Option<u64>,
}

impl From<&EndlessGame> for GameJson {
    fn from(g: &EndlessGame) -> Self {
        GameJson {
            deal: g.deal.deal_text(),
            leader: g.deal.leader().number(),
            balanced: g.balanced,
            preperiod: g.preperiod.into(),
            period: g.period.into(),
            cycle_id: g.cycle_id.to_string(),
            pieces: g
                .deck
                .as_ref()
                .map(|(p, _)| p.iter().map(ToString::to_string).collect()),
            deck_index: g.deck.as_ref().map(|(_, k)| *k),
        }
    }
}

#[derive(Serialize)]
struct CycleJson {
    cycle_id: String,
    period: SpanJson,
    representative: PositionJson,
    decks: u64,
    basin_positions: u64,
    basin_complete: bool,
    balanced_deals: usize,
}

#[derive(Serialize)]
struct ConstructJson {
    seed: u64,
    budget: u64,
    pool_pieces: usize,
    triples: String,
    decks_tried: u64,
    distinct_decks: u64,
    non_terminating: u64,
    finishing: u64,
    unresolved: u64,
    cycles: Vec<CycleJson>,
    /// Every distinct non-terminating deck, then every balanced deal found backward
    /// (grouped by cycle, in the order the cycles were reached).
    games: Vec<GameJson>,
}

fn construct_json(args: &ConstructArgs, pool: usize, c: &Construction) -> ConstructJson {
    let mut games: Vec<GameJson> = c.decks.iter().map(GameJson::from).collect();
    for cy in &c.cycles {
        games.extend(cy.balanced.iter().map(GameJson::from));
    }
    ConstructJson {
        seed: args.seed,
        budget: args.budget,
        pool_pieces: pool,
        triples: c.triples.to_string(),
        decks_tried: c.decks_tried,
        distinct_decks: c.distinct_decks,
        non_terminating: c.non_terminating,
        finishing: c.finishing,
        unresolved: c.unresolved,
        cycles: c
            .cycles
            .iter()
            .map(|cy| CycleJson {
                cycle_id: cy.id.to_string(),
                period: cy.period.into(),
                representative: (&cy.representative).into(),
                decks: cy.decks,
                basin_positions: cy.basin_positions,
                basin_complete: cy.basin_complete,
                balanced_deals: cy.balanced.len(),
            })
            .collect(),
        games,
    }
}

pub fn run_construct(args: &ConstructArgs) -> Result<()> {
    let mut face_lists = args
        .faces
        .iter()
        .map(|f| faces(f))
        .collect::<Result<Vec<_>>>()?;
    let around = match args.around.as_deref().map(faces).transpose()? {
        Some((f, Some(plain))) => {
            if !face_lists.contains(&(f, Some(plain))) {
                face_lists.push((f, Some(plain)));
            }
            let mut c = f;
            c.add(bmn_core::Kind::Plain, plain);
            Some(c)
        }
        Some((_, None)) => {
            return Err(BadInput(
                "bad --around: give the plain cards too, e.g. Q4,K3,A1,-23".into(),
            )
            .into());
        }
        None => None,
    };
    let pool_config = PoolConfig {
        filter: filter(&args.filter)?,
        max_len: args.max_len,
        sparse_len: args.sparse_len,
        faces: face_lists,
        give_up: args.give_up,
    };
    if args.basin_limit == 0 {
        return Err(BadInput("bad --basin-limit: must be at least 1".into()).into());
    }
    let threads = input::threads(args.threads)?;
    let bar = progress::bar(None, "units");
    bar.set_message("searching pieces");
    let pool = bmn_pieces::build_pool(&pool_config, threads, |_, done, total| {
        bar.set_length(total);
        bar.set_position(done);
    })
    .map_err(user_error("pool"))?;
    let config = ConstructConfig {
        seed: args.seed,
        decks: args.budget,
        give_up: args.give_up,
        basin_limit: args.basin_limit,
        around,
    };
    let c = bmn_pieces::construct(&pool, &config, threads, |stage, done, total| {
        bar.set_message(if stage == 0 {
            "playing decks"
        } else {
            "basins"
        });
        bar.set_length(total);
        bar.set_position(done);
    })
    .map_err(user_error("construct"))?;
    bar.finish_and_clear();
    if args.json {
        return output::print_json(&construct_json(args, pool.len(), &c));
    }
    let mut text = String::new();
    writeln!(
        text,
        "pool: {} pieces; {} ordered triples fill a standard deck",
        pool.len(),
        c.triples
    )?;
    writeln!(
        text,
        "decks: {} drawn ({} distinct), {} never end, {} end, {} unresolved",
        c.decks_tried, c.distinct_decks, c.non_terminating, c.finishing, c.unresolved
    )?;
    let balanced: usize = c.cycles.iter().map(|cy| cy.balanced.len()).sum();
    writeln!(
        text,
        "distinct cycles: {}; balanced deals found backward: {balanced}",
        c.cycles.len()
    )?;
    for cy in &c.cycles {
        writeln!(
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
        )?;
        for g in &cy.balanced {
            writeln!(
                text,
                "  {}: preperiod {} tricks, {} cards",
                g.deal, g.preperiod.tricks, g.preperiod.cards
            )?;
        }
    }
    Ok(output::print(&text)?)
}
