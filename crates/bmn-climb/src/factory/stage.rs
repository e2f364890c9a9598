//! The factory's pieces stage: the pool, the third pieces searched by their cards and the
//! pieces grown from them. No seed changes it, and it is most of a run's cost on the standard
//! deck, so a run can keep it for the next ([`KeepPieces`], `--pool FILE`) and a stopped run's
//! searches are kept one by one, for the next run to go on from.
//!
//! The decks the walks start from are then drawn from the stage with the run's seed
//! ([`super::seeds`]), in the order an uninterrupted run draws them: a kept stage gives every
//! seed the same starting games as a run that searched its pieces itself.

use std::collections::BTreeMap;

use bmn_core::{CycleId, Span};
use bmn_pieces::{Composition, FoundPiece, Piece, TemplateCycle};
use serde::{Deserialize, Serialize};

use super::{Completion, FactoryConfig};

/// What a stage depends on: a kept stage is used only by a run whose key is the same.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StageKey {
    /// The cards of the three pieces (the deck less its jacks and two plain cards).
    pub target: String,
    pub filter: String,
    pub pool_max_len: u32,
    pub pool_sparse_len: u32,
    pub give_up: u64,
    /// `none`, `template Q4,K3,A1,-23` or `pairs L`.
    pub completion: String,
    pub grow: u32,
    pub grow_max_len: u32,
}

impl StageKey {
    pub fn of(config: &FactoryConfig, target: Composition, completion: Completion) -> StageKey {
        StageKey {
            target: target.to_string(),
            filter: config.filter.to_string(),
            pool_max_len: config.pool_max_len,
            pool_sparse_len: config.pool_sparse_len,
            give_up: config.give_up,
            completion: match completion {
                Completion::None => "none".into(),
                Completion::Template(cards) => format!("template {cards}"),
                Completion::Pairs(max_len) => format!("pairs {max_len}"),
            },
            grow: config.grow,
            grow_max_len: config.grow_max_len,
        }
    }

    /// The first setting in which `self` differs from `other`, as `name ours (theirs)`.
    pub fn difference(&self, other: &StageKey) -> Option<String> {
        let both = |a: &dyn ToString, b: &dyn ToString| (a.to_string(), b.to_string());
        [
            ("deck's pieces", both(&self.target, &other.target)),
            ("filter", both(&self.filter, &other.filter)),
            (
                "pool_max_len",
                both(&self.pool_max_len, &other.pool_max_len),
            ),
            (
                "pool_sparse_len",
                both(&self.pool_sparse_len, &other.pool_sparse_len),
            ),
            ("give_up", both(&self.give_up, &other.give_up)),
            ("complete", both(&self.completion, &other.completion)),
            ("grow", both(&self.grow, &other.grow)),
            (
                "grow_max_len",
                both(&self.grow_max_len, &other.grow_max_len),
            ),
        ]
        .into_iter()
        .find(|(_, (a, b))| a != b)
        .map(|(name, (a, b))| format!("{name} {a} ({b})"))
    }
}

/// The pieces stage, as far as it went.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(into = "Stored", try_from = "Stored")]
pub struct PieceStage {
    pub key: StageKey,
    /// The pool's pieces; `None` until its searches have all finished.
    pub pool: Option<Vec<FoundPiece>>,
    /// How many card lists the completion searches (known once the pool is).
    pub completions_wanted: usize,
    /// Each card list searched so far, in order, with the pieces it gave.
    pub completions: Vec<(Composition, Vec<FoundPiece>)>,
    /// Growth prefixes searched so far (in [`grow_prefixes`]' order).
    pub prefixes_done: usize,
    /// The new pieces they gave, in the order they were found (each kept once, none with more
    /// of a kind than the deck holds).
    pub grown: Vec<FoundPiece>,
}

impl PieceStage {
    pub fn new(key: StageKey) -> PieceStage {
        PieceStage {
            key,
            pool: None,
            completions_wanted: 0,
            completions: Vec::new(),
            prefixes_done: 0,
            grown: Vec::new(),
        }
    }

    /// Whether every completion has been searched.
    pub fn completed(&self) -> bool {
        self.pool.is_some() && self.completions.len() == self.completions_wanted
    }

    /// The pieces the completions gave, in order.
    pub fn completion_pieces(&self) -> impl Iterator<Item = &FoundPiece> {
        self.completions.iter().flat_map(|(_, p)| p)
    }
}

/// Where the factory keeps its pieces stage between runs.
pub trait KeepPieces {
    /// The stage a former run kept for `key`, if any (an error if what is kept is another
    /// run's, or unreadable).
    fn load(&mut self, key: &StageKey) -> Result<Option<PieceStage>, String>;
    /// Keeps `stage`, after each search that finished.
    fn save(&mut self, stage: &PieceStage) -> Result<(), String>;
}

/// Keeps nothing: every run searches its own pieces.
impl KeepPieces for () {
    fn load(&mut self, _: &StageKey) -> Result<Option<PieceStage>, String> {
        Ok(None)
    }

    fn save(&mut self, _: &PieceStage) -> Result<(), String> {
        Ok(())
    }
}

/// Every completion piece's first cards up to player 2's high water, each with the longest
/// pieces grown from it (up to `grow` cards longer than the form): the prefixes searched.
pub fn grow_prefixes<'a>(
    forms: impl Iterator<Item = &'a Piece>,
    grow: u32,
) -> BTreeMap<Piece, u32> {
    let mut prefixes: BTreeMap<Piece, u32> = BTreeMap::new();
    for form in forms {
        if let Some((at, _)) = bmn_pieces::high_water(form).filter(|&(at, _)| at > 0) {
            let prefix = Piece::new(form.cards()[..at].to_vec()).expect("a piece");
            let len = form.len() as u32 + grow;
            let e = prefixes.entry(prefix).or_insert(len);
            *e = (*e).max(len);
        }
    }
    prefixes
}

/// The file's form: pieces as text, compositions as counts.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Stored {
    format: u32,
    key: StageKey,
    pool: Option<Vec<StoredPiece>>,
    completions_wanted: usize,
    completions: Vec<StoredCompletion>,
    prefixes_done: usize,
    grown: Vec<StoredPiece>,
}

/// The stage file's format; a file of another is refused.
const FORMAT: u32 = 1;

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct StoredCompletion {
    /// Plain cards, queens, kings and aces.
    counts: [u32; 4],
    pieces: Vec<StoredPiece>,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct StoredPiece {
    forms: Vec<String>,
    candidates: u64,
    preperiod: Span,
    period: Span,
    cycle_id: u64,
}

impl From<&FoundPiece> for StoredPiece {
    fn from(p: &FoundPiece) -> StoredPiece {
        StoredPiece {
            forms: p.forms.iter().map(Piece::to_string).collect(),
            candidates: p.candidates,
            preperiod: p.template.preperiod,
            period: p.template.period,
            cycle_id: p.template.id.0,
        }
    }
}

impl TryFrom<StoredPiece> for FoundPiece {
    type Error = String;

    fn try_from(s: StoredPiece) -> Result<FoundPiece, String> {
        let forms = s
            .forms
            .iter()
            .map(|f| Piece::parse(f).map_err(|e| format!("piece '{f}': {e}")))
            .collect::<Result<Vec<_>, _>>()?;
        let piece = forms.first().cloned().ok_or("a piece without forms")?;
        Ok(FoundPiece {
            piece,
            forms,
            candidates: s.candidates,
            template: TemplateCycle {
                preperiod: s.preperiod,
                period: s.period,
                id: CycleId(s.cycle_id),
            },
        })
    }
}

fn store(pieces: &[FoundPiece]) -> Vec<StoredPiece> {
    pieces.iter().map(StoredPiece::from).collect()
}

fn restore(pieces: Vec<StoredPiece>) -> Result<Vec<FoundPiece>, String> {
    pieces.into_iter().map(FoundPiece::try_from).collect()
}

impl From<PieceStage> for Stored {
    fn from(s: PieceStage) -> Stored {
        Stored {
            format: FORMAT,
            key: s.key,
            pool: s.pool.as_deref().map(store),
            completions_wanted: s.completions_wanted,
            completions: s
                .completions
                .iter()
                .map(|(cards, pieces)| StoredCompletion {
                    counts: cards.counts,
                    pieces: store(pieces),
                })
                .collect(),
            prefixes_done: s.prefixes_done,
            grown: store(&s.grown),
        }
    }
}

impl TryFrom<Stored> for PieceStage {
    type Error = String;

    fn try_from(s: Stored) -> Result<PieceStage, String> {
        if s.format != FORMAT {
            return Err(format!(
                "format {} (this bmn reads format {FORMAT})",
                s.format
            ));
        }
        Ok(PieceStage {
            key: s.key,
            pool: s.pool.map(restore).transpose()?,
            completions_wanted: s.completions_wanted,
            completions: s
                .completions
                .into_iter()
                .map(|c| Ok((Composition { counts: c.counts }, restore(c.pieces)?)))
                .collect::<Result<_, String>>()?,
            prefixes_done: s.prefixes_done,
            grown: restore(s.grown)?,
        })
    }
}
