//! The factory's starting games: endless decks of Casella's construction drawn from a pool of
//! pieces (and from third pieces searched by their cards, and pieces grown from those), or
//! cycling deals from a seeded random search at tables where pieces do not fill the deck.

use std::collections::{BTreeMap, BTreeSet};

use bmn_core::{Player, Position};
use bmn_pieces::{
    Composition, ConstructConfig, FoundPiece, Piece, PieceSearchConfig, PieceSearchResult,
    PoolConfig,
};
use bmn_search::{DealSource, SearchConfig, Summary};

use super::stage::{KeepPieces, PieceStage, StageKey, grow_prefixes};
use super::{Completion, FactoryConfig, FactoryError};
use bmn_job::Job;

/// A card list searched for third pieces (or grown), with what it gave: its pieces and the
/// endless decks built around them that the factory started from.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct CompletionFound {
    pub composition: Composition,
    pub pieces: Vec<String>,
    pub decks: u64,
}

/// The third pieces searched and grown.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Completed {
    /// Every completion searched that has pieces (with the template, its own even without).
    pub completions: Vec<CompletionFound>,
    /// How many completions were searched (fewer than asked if stopped).
    pub searched: u64,
    /// The prefixes grown from (each completion piece's form up to player 2's high water).
    pub grow_prefixes: Vec<String>,
    /// The new pieces they gave, by card list.
    pub grown: Vec<CompletionFound>,
}

/// What the starting decks are drawn from at a table of Casella's construction.
pub(super) struct SeedPlan<'a> {
    pub config: &'a FactoryConfig,
    /// Decks drawn from the pool, and around each searched card list.
    pub decks: u64,
    /// The cards of the three pieces.
    pub target: Composition,
    pub completion: Completion,
}

/// Endless decks of Casella's construction (Δ1 J Δ2 J Δ3 J - / J -) whose pieces hold
/// `target` (the deck less its jacks and two plain cards), from a pool of pieces. With a
/// completion, also the decks around the pieces of those cards (for the template, the ones
/// that fill the test template to the deck: bmn_pieces::template_completion): the pool's decks
/// start 50/2 on cycles whose basins never reach 26/26, and a long piece is what brings a cycle
/// near balance (docs/results.md, Part 7). The pieces come from [`pieces`] (kept by `keep`),
/// the decks are drawn from them with the seed. Stopped part-way, it returns what it has.
pub(super) fn from_pieces(
    plan: &SeedPlan,
    threads: usize,
    keep: &mut dyn KeepPieces,
    job: &mut Job,
) -> Result<(Vec<Position>, Completed), FactoryError> {
    let stage = pieces(plan, threads, keep, job)?;
    decks(plan, &stage, threads, job)
}

/// The pieces stage: what `keep` has of it, and the searches it lacks, each kept as it
/// finishes. Stopped part-way, it returns what it has.
pub(super) fn pieces(
    plan: &SeedPlan,
    threads: usize,
    keep: &mut dyn KeepPieces,
    job: &mut Job,
) -> Result<PieceStage, FactoryError> {
    let SeedPlan {
        config,
        target,
        completion,
        ..
    } = *plan;
    let filter = &config.filter;
    let key = StageKey::of(config, target, completion);
    let mut stage = keep
        .load(&key)
        .map_err(FactoryError::Keep)?
        .unwrap_or_else(|| PieceStage::new(key));
    let mut save = |stage: &PieceStage| keep.save(stage).map_err(FactoryError::Keep);
    let pool_config = PoolConfig {
        filter: filter.clone(),
        max_len: config.pool_max_len,
        sparse_len: config.pool_sparse_len,
        faces: Vec::new(),
        give_up: config.give_up,
    };
    let (pool, built) = match stage.pool.clone() {
        Some(pool) => (pool, false),
        None => (bmn_pieces::build_pool(&pool_config, threads, job)?, true),
    };
    // Computed once: with `--complete pairs` it pairs every pool piece with every other.
    let wanted = wanted(completion, &pool, &pool_config, &target);
    if built {
        stage.completions_wanted = wanted.len();
        stage.pool = Some(pool.clone());
        if job.stopped() {
            // The pieces of the searches that finished: decks are drawn from them, but they
            // are not kept (a later run searches the pool whole).
            return Ok(stage);
        }
        save(&stage)?;
    }
    for (i, &cards) in wanted.iter().enumerate().skip(stage.completions.len()) {
        let (faces, plain) = cards.faces_and_plain();
        let search = PieceSearchConfig {
            filter: filter.clone(),
            max_len: cards.len(),
            faces: Some((faces, Some(plain))),
            give_up: config.give_up,
            prefix: Piece::default(),
        };
        let message = format!(
            "searching pieces of {cards} (completion {} of {})",
            i + 1,
            wanted.len()
        );
        let Some(found) = search_pieces(&search, &message, threads, job)? else {
            return Ok(stage);
        };
        stage.completions.push((cards, found.pieces));
        save(&stage)?;
    }
    if config.grow == 0 {
        return Ok(stage);
    }
    // Growing: every form's first cards up to player 2's high water, searched as a prefix of
    // pieces up to `grow` cards longer than the form.
    let forms = stage.completion_pieces().flat_map(|p| &p.forms);
    let prefixes = grow_prefixes(forms, config.grow);
    let mut known: BTreeSet<Piece> = pool
        .iter()
        .chain(stage.completion_pieces())
        .chain(&stage.grown)
        .map(|p| p.piece.clone())
        .collect();
    for (i, (prefix, &max_len)) in prefixes.iter().enumerate().skip(stage.prefixes_done) {
        let search = PieceSearchConfig {
            filter: filter.clone(),
            max_len: max_len.min(config.grow_max_len),
            faces: None,
            give_up: config.give_up,
            prefix: prefix.clone(),
        };
        let message = format!(
            "growing pieces from {prefix} (prefix {} of {})",
            i + 1,
            prefixes.len()
        );
        let Some(found) = search_pieces(&search, &message, threads, job)? else {
            return Ok(stage);
        };
        for p in found.pieces {
            let cards = p.piece.composition();
            // More of a kind than the deck holds, or known already.
            if target.checked_sub(&cards).is_some() && known.insert(p.piece.clone()) {
                stage.grown.push(p);
            }
        }
        stage.prefixes_done = i + 1;
        save(&stage)?;
    }
    Ok(stage)
}

/// The card lists a completion searches.
fn wanted(
    completion: Completion,
    pool: &[FoundPiece],
    pool_config: &PoolConfig,
    target: &Composition,
) -> Vec<Composition> {
    match completion {
        Completion::None => Vec::new(),
        Completion::Template(cards) => vec![cards],
        Completion::Pairs(max_len) => {
            let mut all = bmn_pieces::pair_completions(pool, pool_config, target);
            all.retain(|c| c.len() <= max_len);
            all
        }
    }
}

/// The starting decks drawn from `stage` with the plan's seed: the pool's, then around each
/// completion's pieces (the pool grown by the completions so far), then around each grown
/// card list (the pool grown by them all); as far as the stage went.
fn decks(
    plan: &SeedPlan,
    stage: &PieceStage,
    threads: usize,
    job: &mut Job,
) -> Result<(Vec<Position>, Completed), FactoryError> {
    let SeedPlan {
        config,
        decks,
        target,
        completion,
    } = *plan;
    let construct = |pool: &[FoundPiece], around, job: &mut Job| {
        let construct = ConstructConfig {
            seed: config.seed,
            decks,
            give_up: config.give_up,
            basin_limit: config.deck_basin_limit,
            target,
            around,
        };
        bmn_pieces::construct(pool, &construct, threads, job)
            .map(|c| c.decks.into_iter().map(|g| g.deal).collect::<Vec<_>>())
    };
    let mut pool = stage.pool.clone().unwrap_or_default();
    let mut seeds = construct(&pool, None, job)?;
    let mut done = Completed::default();
    if completion == Completion::None {
        return Ok((seeds, done));
    }
    let template = matches!(completion, Completion::Template(_));
    for (cards, found) in &stage.completions {
        if found.is_empty() && !template {
            continue;
        }
        let pieces: Vec<String> = found.iter().map(|p| p.piece.to_string()).collect();
        pool.extend(found.iter().cloned());
        let around = if pieces.is_empty() {
            Vec::new()
        } else {
            construct(&pool, Some(*cards), job)?
        };
        done.completions.push(CompletionFound {
            composition: *cards,
            pieces,
            decks: around.len() as u64,
        });
        seeds.extend(around);
    }
    done.searched = stage.completions.len() as u64;
    if !stage.completed() || config.grow == 0 {
        return Ok((seeds, done));
    }
    let prefixes = grow_prefixes(
        stage.completion_pieces().flat_map(|p| &p.forms),
        config.grow,
    );
    done.grow_prefixes = prefixes.keys().map(|p| p.to_string()).collect();
    if stage.prefixes_done < prefixes.len() {
        return Ok((seeds, done));
    }
    let mut new: BTreeMap<Composition, Vec<String>> = BTreeMap::new();
    for p in &stage.grown {
        new.entry(p.piece.composition())
            .or_default()
            .push(p.piece.to_string());
    }
    pool.extend(stage.grown.iter().cloned());
    for (cards, pieces) in new {
        let around = construct(&pool, Some(cards), job)?;
        done.grown.push(CompletionFound {
            composition: cards,
            pieces,
            decks: around.len() as u64,
        });
        seeds.extend(around);
    }
    Ok((seeds, done))
}

/// One piece search with progress; `None` if it was stopped (the factory then walks from
/// what it has, and says it was interrupted).
fn search_pieces(
    search: &PieceSearchConfig,
    message: &str,
    threads: usize,
    job: &mut Job,
) -> Result<Option<PieceSearchResult>, FactoryError> {
    // The search counts "units", the stage begun here: the message stays with it.
    job.start(None, 0, "units");
    job.progress(0, Some(message));
    let found = bmn_pieces::search(search, threads, job)?;
    Ok((found.units_done == found.units).then_some(found))
}

/// Up to `wanted` cycling deals of `source`'s table, from a seeded random search of at most
/// `config.search_games` games.
pub(super) fn from_search(
    config: &FactoryConfig,
    wanted: u64,
    source: &DealSource,
    threads: usize,
    job: &mut Job,
) -> Vec<Position> {
    let kernel = bmn_search::Engine::kernel_for(
        bmn_kernel::Choice::Fastest,
        source.deck(),
        config.max_tricks,
    );
    let engine = bmn_search::Engine::choose(
        kernel,
        config.rules,
        source.players(),
        source.len(),
        config.search_give_up,
    );
    let search = SearchConfig {
        seed: config.seed,
        source: source.clone(),
        top: 0,
        engine,
        max_tricks: config.max_tricks,
    };
    let fresh = Summary::keeping(0, wanted as usize);
    // Enough seeds stop the stream through its progress, which leaves the caller's stop flag
    // unset (not an interruption).
    let games = Some(config.search_games);
    job.start(games, 0, "games");
    let s = bmn_search::stream(&search, games, threads, job, &fresh, |job, s| {
        job.progress(s.games, Some(&format!("{} cycling deals", s.cycling))) && s.cycling < wanted
    });
    s.cycles
        .iter()
        .filter_map(|c| Position::parse_deal(&c.deal, Player(0)).ok())
        .collect()
}
