//! The endless-game factory: balanced deals that never end, found from scratch.
//!
//! [`run`] is the whole pipeline, driven by a [`FactoryConfig`]: endless games to start from
//! ([`seeds`]: Casella's construction from a pool of pieces at a two-player table of four
//! jacks with the standard penalties, a seeded random search for cycling deals at any other),
//! then rounds of walks toward balance ([`walk`], driven by [`crate::rounds`]), and the
//! catalogue of every cycle reached ([`listing`]: which cycles are relatives of others).
//!
//! Nothing here prints: progress goes to the caller through the [`Job`]. Results depend only
//! on the configuration, the table and the number of rounds.

mod listing;
mod seeds;
mod stage;
mod walk;

use std::time::{Duration, Instant};

use bmn_core::Rules;
use bmn_pieces::{Composition, Piece, PiecesError};
use bmn_search::DealSource;

use crate::eval::Evaluator;
use crate::moves::MoveSet;
use bmn_job::Job;

use crate::rounds::{RoundLimits, Rounds, run_rounds};

pub use listing::{Kinship, Listed};
pub use seeds::{Completed, CompletionFound};
pub use stage::{KeepPieces, PieceStage, StageKey};
pub use walk::{Catalogue, CycleEntry, Factory};

/// How to run the factory: every tuning constant of the pipeline, each with its default in
/// [`FactoryConfig::default`] (what `bmn pieces factory` runs when told nothing).
#[derive(Clone, Debug)]
pub struct FactoryConfig {
    /// The seed of the walks' edits, the decks drawn from pieces and the random search.
    pub seed: u64,
    pub rules: Rules,
    /// Cycles edited per round (the closest to balance first).
    pub walkers: usize,
    /// Edits of each per round.
    pub neighbours: usize,
    pub moves: MoveSet,
    /// Positions a basin search may visit per cycle.
    pub basin_limit: u64,
    /// Balanced deals kept per cycle (all are counted).
    pub keep_balanced: usize,
    /// Tricks the kernels play of an edit before handing it to exact cycle detection: the
    /// cycles of these games are short, so capped games go to bmn-core sooner than a
    /// search's would.
    pub max_tricks: u32,
    /// Endless games to start from; `None`: [`Self::seeds_from_pieces`] or
    /// [`Self::seeds_from_search`], as the table starts.
    pub seeds: Option<u64>,
    /// Decks drawn from the pieces (and around each searched card list) at a table of
    /// Casella's construction.
    pub seeds_from_pieces: u64,
    /// Cycling deals sought at any other table.
    pub seeds_from_search: u64,
    /// Games the random search plays at most: tables whose games never cycle give none.
    pub search_games: u64,
    /// Tricks after which the random search's reference engine gives up on a game.
    pub search_give_up: u64,
    /// The test template's filter (also the filter pieces are checked behind).
    pub filter: Piece,
    /// The pool of pieces: every piece up to this many cards, and sparse pieces (few faces)
    /// up to `pool_sparse_len` (`bmn pieces construct`'s default pool).
    pub pool_max_len: u32,
    pub pool_sparse_len: u32,
    /// Tricks after which a piece's template game or a drawn deck is given up on.
    pub give_up: u64,
    /// Positions a basin search of a drawn deck's cycle may visit: the decks are only
    /// starting points, their basins are the walks' business.
    pub deck_basin_limit: u64,
    /// Which third pieces are searched beyond the pool; `None`: the table's default
    /// ([`PieceTable::default_completion`]).
    pub completion: Option<Completion>,
    /// Grow pieces from the completion's pieces: the pieces that begin as one of their forms
    /// does up to player 2's high water, up to this many cards longer (0: no growing)...
    pub grow: u32,
    /// ...and never longer than this (a piece's cards fit a stack's 64).
    pub grow_max_len: u32,
}

impl Default for FactoryConfig {
    fn default() -> Self {
        FactoryConfig {
            seed: 1,
            rules: Rules::STANDARD,
            walkers: 16,
            neighbours: 64,
            moves: MoveSet::parse("give,transfer,swap,shift").expect("the factory's moves"),
            basin_limit: 20_000,
            keep_balanced: 5,
            max_tricks: 1_000,
            seeds: None,
            seeds_from_pieces: 60,
            seeds_from_search: 200,
            search_games: 100_000_000,
            search_give_up: bmn_search::DEFAULT_GIVE_UP,
            filter: Piece::parse(bmn_pieces::DEFAULT_FILTER).expect("the default filter"),
            pool_max_len: 14,
            pool_sparse_len: 30,
            give_up: bmn_pieces::DEFAULT_GIVE_UP,
            deck_basin_limit: 1,
            completion: None,
            grow: 3,
            grow_max_len: 64,
        }
    }
}

/// Which third pieces the factory searches beyond the pool.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Completion {
    /// Only the pool.
    None,
    /// These cards: the ones that fill the test template to the deck.
    Template(Composition),
    /// The cards that complete the deck from every pair of pool pieces
    /// (bmn_pieces::pair_completions), up to a number of cards.
    Pairs(u32),
}

impl Completion {
    /// `none`, `template` or `pairs`.
    pub fn name(self) -> &'static str {
        match self {
            Completion::None => "none",
            Completion::Template(_) => "template",
            Completion::Pairs(_) => "pairs",
        }
    }
}

/// A table where Casella's construction fills the deck: two players, four jacks, the standard
/// penalties (the standard deck, Camicia).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PieceTable {
    /// The cards of the three pieces: the deck less its jacks and two plain cards.
    pub target: Composition,
    /// The cards that fill the test template to the deck, if it fits.
    pub template: Option<Composition>,
}

impl PieceTable {
    /// The table of `source` under `rules`, if the construction fills it (a balanced source,
    /// whose deals hold the same kinds, is not one).
    pub fn of(source: &DealSource, rules: Rules, filter: &Piece) -> Option<PieceTable> {
        if source.players() != 2 || rules != Rules::STANDARD || source.balanced() {
            return None;
        }
        let target = Composition::pieces_of(source.deck())?;
        Some(PieceTable {
            target,
            template: bmn_pieces::template_completion_of(&target, filter),
        })
    }

    /// The template where it fits the deck (the standard deck), else every pair of pieces up
    /// to `max_len` cards.
    pub fn default_completion(&self, max_len: u32) -> Completion {
        self.template
            .map_or(Completion::Pairs(max_len), Completion::Template)
    }
}

/// Where the factory's starting games came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SeedsFrom {
    /// Decks of Casella's construction.
    Pieces,
    /// A random search for cycling deals.
    Search,
}

impl SeedsFrom {
    /// `pieces` or `search`.
    pub fn name(self) -> &'static str {
        match self {
            SeedsFrom::Pieces => "pieces",
            SeedsFrom::Search => "search",
        }
    }
}

/// What the factory did and found.
#[derive(Clone, Debug)]
pub struct FactoryRun {
    pub seeds_from: SeedsFrom,
    /// Endless games it started from.
    pub seeds: u64,
    pub completion: Completion,
    /// The third pieces searched and grown.
    pub completed: Completed,
    pub catalogue: Catalogue,
    /// The least imbalance any cycle's positions reached, before the first round and after
    /// each (from the first moment a cycle was catalogued: a run stopped before that has none).
    pub closest: Vec<usize>,
    pub interrupted: bool,
    pub elapsed: Duration,
}

/// Why the factory gave no answer.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FactoryError {
    /// A piece search or construction failed on inputs the factory chose itself.
    #[error("{0}")]
    Pieces(#[from] PiecesError),
    /// No game that never ends was found at the table to start from.
    #[error("no game that never ends was found at this table to start from")]
    NoSeeds,
    /// The pieces stage could not be read or kept ([`KeepPieces`]'s words).
    #[error("{0}")]
    Keep(String),
}

/// Runs the factory at `source`'s table until `limits` (timed from the start, the search for
/// starting games included) or the job's stop, on `threads` threads: the starting games
/// (stages that count units of piece searches, decks and basins, or games of a random
/// search), then the walks (stage "rounds", one progress per round). The pieces stage, where
/// there is one, is read from and kept by `keep` (`&mut ()`: searched afresh, kept nowhere).
pub fn run(
    config: &FactoryConfig,
    source: &DealSource,
    limits: RoundLimits,
    threads: usize,
    keep: &mut dyn KeepPieces,
    job: &mut Job,
) -> Result<FactoryRun, FactoryError> {
    let started = Instant::now();
    let mut evaluator = Evaluator::new(config.rules);
    evaluator.max_tricks = config.max_tricks;
    let table = PieceTable::of(source, config.rules, &config.filter);
    let completion = config
        .completion
        .unwrap_or_else(|| table.map_or(Completion::None, |t| t.default_completion(u32::MAX)));
    // The first stage counts what each of its steps counts (units of a piece search, decks,
    // games); until the first of them reports, it says what it does.
    job.start(None, 0, "units");
    job.progress(0, Some("finding endless games to start from"));
    let (seeds, completed) = match &table {
        Some(table) => {
            let decks = config.seeds.unwrap_or(config.seeds_from_pieces);
            let plan = seeds::SeedPlan {
                config,
                decks,
                target: table.target,
                completion,
            };
            seeds::from_pieces(&plan, threads, keep, job)?
        }
        None => {
            let wanted = config.seeds.unwrap_or(config.seeds_from_search);
            let found = seeds::from_search(config, wanted, source, threads, job);
            (found, Completed::default())
        }
    };
    job.finish();
    // Stopped before any seed was found: an empty catalogue, interrupted.
    if seeds.is_empty() && !job.stopped() {
        return Err(FactoryError::NoSeeds);
    }
    let mut factory = Factory::new(config.clone(), &evaluator);
    // Each seed's cycle gets its basin searched (a second or more on the standard deck): once
    // stopped, the seeds catalogued so far are what the walks start from.
    job.start(Some(seeds.len() as u64), 0, "seeds");
    for (i, p) in seeds.iter().enumerate() {
        if job.stopped() {
            break;
        }
        factory.add(p, job.stop_flag());
        job.progress(i as u64 + 1, Some("cataloguing the cycles of the seeds"));
    }
    job.start(limits.rounds, 0, "rounds");
    let mut walking = Walking {
        closest: factory.catalogue.closest().into_iter().collect(),
        factory,
        threads,
        finished: true,
    };
    let ended = match run_rounds(&mut walking, limits, started, job) {
        Ok(ended) => ended,
        Err(never) => match never {},
    };
    let Walking {
        factory, closest, ..
    } = walking;
    job.finish();
    Ok(FactoryRun {
        seeds_from: if table.is_some() {
            SeedsFrom::Pieces
        } else {
            SeedsFrom::Search
        },
        seeds: seeds.len() as u64,
        completion,
        completed,
        catalogue: factory.catalogue,
        closest,
        interrupted: ended.interrupted(),
        elapsed: started.elapsed(),
    })
}

/// The factory's rounds, as the round driver plays them: a round of walks, then the closest
/// imbalance recorded and reported.
struct Walking<'e> {
    factory: Factory<'e>,
    closest: Vec<usize>,
    threads: usize,
    /// Whether the last round finished (a stopped one is dropped whole).
    finished: bool,
}

impl Rounds for Walking<'_> {
    type Error = std::convert::Infallible;

    fn done(&self) -> u64 {
        self.factory.catalogue.round
    }

    fn play(&mut self, _: Duration, job: &mut Job) -> Result<(), Self::Error> {
        // The stop ends a round's basin searches, and the round with them.
        self.finished = self.factory.round(self.threads, job.stop_flag());
        Ok(())
    }

    fn played(&mut self, job: &mut Job) -> Result<bool, Self::Error> {
        if !self.finished {
            return Ok(false);
        }
        let c = &self.factory.catalogue;
        self.closest.extend(c.closest());
        let message = format!(
            "{} cycles, {} with balanced deals, closest {}",
            c.cycles.len(),
            c.balanced_cycles(),
            c.closest()
                .map_or_else(|| "-".to_string(), |n| n.to_string())
        );
        Ok(job.progress(c.round, Some(&message)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bmn_core::Deck;

    /// What the factory ran with before its constants had names: a change to a default is a
    /// change to every report, and must be made here on purpose.
    #[test]
    fn the_defaults_are_the_factory_s_constants() {
        let c = FactoryConfig::default();
        assert_eq!((c.seed, c.rules), (1, Rules::STANDARD));
        assert_eq!((c.walkers, c.neighbours, c.keep_balanced), (16, 64, 5));
        assert_eq!(c.moves.to_string(), "give,transfer,swap,shift");
        assert_eq!((c.basin_limit, c.deck_basin_limit), (20_000, 1));
        assert_eq!(c.max_tricks, 1_000);
        assert_eq!(c.seeds, None);
        assert_eq!((c.seeds_from_pieces, c.seeds_from_search), (60, 200));
        assert_eq!(c.search_games, 100_000_000);
        assert_eq!(c.search_give_up, bmn_search::DEFAULT_GIVE_UP);
        assert_eq!(c.filter.to_string(), bmn_pieces::DEFAULT_FILTER);
        assert_eq!((c.pool_max_len, c.pool_sparse_len), (14, 30));
        assert_eq!(c.give_up, bmn_pieces::DEFAULT_GIVE_UP);
        assert_eq!((c.completion, c.grow, c.grow_max_len), (None, 3, 64));
    }

    fn source(deck: Deck, players: usize) -> DealSource {
        DealSource::with_players(deck, players, false).unwrap()
    }

    #[test]
    fn pieces_fill_two_player_decks_of_four_jacks_at_the_standard_penalties() {
        let filter = FactoryConfig::default().filter;
        let standard = PieceTable::of(&source(Deck::STANDARD, 2), Rules::STANDARD, &filter);
        let standard = standard.expect("the standard deck is built from pieces");
        assert!(matches!(
            standard.default_completion(7),
            Completion::Template(_)
        ));
        // Camicia's deck is too small for the test template: every pair instead.
        let camicia = PieceTable::of(&source(Deck::CAMICIA, 2), Rules::STANDARD, &filter);
        assert_eq!(camicia.unwrap().default_completion(7), Completion::Pairs(7));
        assert_eq!(
            PieceTable::of(&source(Deck::STANDARD, 3), Rules::STANDARD, &filter),
            None
        );
        let deck = Deck::parse("2J,2Q,2K,2A,6-").unwrap();
        assert_eq!(
            PieceTable::of(&source(deck, 2), Rules::STANDARD, &filter),
            None
        );
    }

    /// Hooks that stop the walks after `stop_at` rounds and count the stages.
    struct Stopper {
        stop_at: u64,
        stages: Vec<String>,
    }

    impl bmn_job::Hooks for Stopper {
        fn start(&mut self, _: Option<u64>, _: u64, what: &str) {
            self.stages.push(what.into());
        }

        fn progress(&mut self, done: u64, message: Option<&str>) -> bool {
            !(message.is_some_and(|m| m.contains("closest")) && done >= self.stop_at)
        }
    }

    #[test]
    fn a_small_table_starts_from_a_search_and_walks_the_same_whatever_the_threads() {
        let deck = Deck::parse("2J,2Q,2K,2A,6-").unwrap();
        let config = FactoryConfig {
            seeds: Some(3),
            walkers: 2,
            neighbours: 4,
            ..FactoryConfig::default()
        };
        let limits = RoundLimits {
            rounds: Some(3),
            time: None,
        };
        let no = std::sync::atomic::AtomicBool::new(false);
        let run_on = |threads| {
            run(
                &config,
                &source(deck, 2),
                limits,
                threads,
                &mut (),
                &mut Job::quiet(&no),
            )
            .unwrap()
        };
        let one = run_on(1);
        assert_eq!(one.seeds_from, SeedsFrom::Search);
        assert_eq!((one.seeds, one.completion), (3, Completion::None));
        assert_eq!(one.catalogue.round, 3);
        assert_eq!(one.closest.len(), 4);
        assert!(!one.interrupted);
        assert!(!one.catalogue.listing().is_empty());
        let two = run_on(2);
        assert_eq!(two.catalogue, one.catalogue);
        assert_eq!(two.closest, one.closest);
        // Stopped by its hooks after the second round: two rounds, interrupted.
        let mut hooks = Stopper {
            stop_at: 2,
            stages: Vec::new(),
        };
        let mut job = Job::new(&mut hooks, &no);
        let stopped = run(&config, &source(deck, 2), limits, 2, &mut (), &mut job).unwrap();
        assert_eq!((stopped.catalogue.round, stopped.interrupted), (2, true));
        // The search for starting games counts games, their catalogue seeds, the walks rounds.
        assert_eq!(hooks.stages, ["units", "games", "seeds", "rounds"]);
    }

    /// Keeps every stage saved, through its file form, and starts from `start`.
    #[derive(Default)]
    struct Saves {
        start: Option<PieceStage>,
        saved: Vec<PieceStage>,
    }

    impl KeepPieces for Saves {
        fn load(&mut self, key: &StageKey) -> Result<Option<PieceStage>, String> {
            assert!(self.start.as_ref().is_none_or(|s| &s.key == key));
            Ok(self.start.take())
        }

        fn save(&mut self, stage: &PieceStage) -> Result<(), String> {
            let text = serde_json::to_string(stage).unwrap();
            let back: PieceStage = serde_json::from_str(&text).unwrap();
            assert_eq!(&back, stage, "a stage reads back as it was written");
            self.saved.push(back);
            Ok(())
        }
    }

    /// The pieces stage does not read the seed: kept whole, or kept part-way by a stopped
    /// run and finished by the next, it gives every seed the run that searched its own.
    #[test]
    fn a_kept_pieces_stage_gives_the_same_run_whole_or_part_way() {
        // Twelve card lists to complete, one with a piece, one prefix grown into ten pieces.
        let deck = Deck::parse("4J,2Q,2K,2A,14-").unwrap();
        let config = FactoryConfig {
            seeds: Some(6),
            walkers: 2,
            neighbours: 4,
            pool_max_len: 7,
            pool_sparse_len: 8,
            completion: Some(Completion::Pairs(9)),
            grow: 2,
            ..FactoryConfig::default()
        };
        let limits = RoundLimits {
            rounds: Some(2),
            time: None,
        };
        let no = std::sync::atomic::AtomicBool::new(false);
        let run_with = |config: &FactoryConfig, keep: &mut Saves| {
            let mut job = Job::quiet(&no);
            run(config, &source(deck, 2), limits, 2, keep, &mut job).unwrap()
        };
        let mut first = Saves::default();
        let searched = run_with(&config, &mut first);
        assert_eq!(searched.seeds_from, SeedsFrom::Pieces);
        let whole = first.saved.last().unwrap().clone();
        assert!(whole.completed());
        assert_eq!(
            first.saved.len(),
            14,
            "the pool, each completion, the prefix"
        );
        assert_eq!((whole.completions_wanted, whole.prefixes_done), (12, 1));
        assert_eq!(whole.grown.len(), 10);
        assert!(!searched.completed.grown.is_empty());
        let same = |a: &FactoryRun, b: &FactoryRun| {
            assert_eq!(a.seeds, b.seeds);
            assert_eq!(a.completed, b.completed);
            assert_eq!(a.catalogue, b.catalogue);
        };
        // Kept with the pool alone, before and after the completion with a piece, before the
        // prefix, and whole.
        for kept in [0, 2, 3, 12, 13].map(|i| &first.saved[i]) {
            let mut keep = Saves {
                start: Some(kept.clone()),
                ..Saves::default()
            };
            same(&run_with(&config, &mut keep), &searched);
            // What it lacked was searched and kept; a whole stage needs nothing more.
            assert_eq!(keep.saved.last().unwrap_or(kept), &whole);
        }
        // Another seed, from the kept stage: the run of that seed.
        let other = FactoryConfig { seed: 7, ..config };
        let mut keep = Saves {
            start: Some(whole),
            ..Saves::default()
        };
        same(
            &run_with(&other, &mut keep),
            &run_with(&other, &mut Saves::default()),
        );
    }
}
