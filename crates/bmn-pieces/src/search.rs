//! `bmn pieces search`: candidate pieces in increasing size, kept if the template never ends.
//!
//! Candidates are enumerated length by length (or, with fixed faces, as every arrangement of
//! those faces among plain cards) by the prefix-sharing pass of [`crate::enumerate`]; a
//! candidate is proposed when every pass of it, and of what it turns into, keeps the
//! template's shape (its [`orbit`]); each proposal is then played in the test template by
//! bmn-core's reference engine and kept only if that game never ends.
//!
//! Deduplication: the one operation used is the pass itself. A piece and what a pass turns
//! it into are the same piece one turn later (Casella's 62-trick cycle holds the filter as
//! both `--K---A----AA` and `--------A-KAA`), so pieces are grouped by the cycle of forms
//! their passes run into, and each group is named by its least form.
//!
//! Work is split into numbered units (a length and a two-card prefix) merged in order by
//! `bmn_job::run_units`, so the result does not depend on the thread count.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, Ordering};

use bmn_core::{CycleId, Outcome, Span};
use bmn_job::Job;

use crate::enumerate::{Budget, Memo, enumerate};
use crate::error::PiecesError;
use crate::pass::orbit;
use crate::piece::{Composition, PIECE_KINDS, Piece};
use crate::template::{check_filter, play, template};

/// What to search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PieceSearchConfig {
    /// The known piece the template tests candidates behind.
    pub filter: Piece,
    /// Longest candidate, in cards.
    pub max_len: u32,
    /// Only arrangements of these faces (Q, K, A counts), with this many plain cards if
    /// given, else with every plain count up to `max_len`.
    pub faces: Option<(Composition, Option<u32>)>,
    /// Tricks after which a template game is given up on (counted as unresolved).
    pub give_up: u64,
    /// Only candidates that begin with these cards (empty: every candidate). A piece's first
    /// cards decide how many cards player 2 wins before the piece pays them back, which is
    /// what brings a deck's cycle near balance (Casella's piece: 22 cards after its first 20).
    pub prefix: Piece,
}

/// How the template game of a piece goes round.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct TemplateCycle {
    pub preperiod: Span,
    pub period: Span,
    #[serde(rename = "cycle_id", serialize_with = "bmn_core::as_text")]
    pub id: CycleId,
}

/// One piece up to passes; serialized with its length and composition beside its cards.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FoundPiece {
    /// The least of its forms: the group's name.
    pub piece: Piece,
    /// The forms its passes cycle through, starting at `piece`, in pass order.
    pub forms: Vec<Piece>,
    /// Candidates of the search that are, or turn into, one of these forms.
    pub candidates: u64,
    /// The template game with `piece` as TEST, played by the reference engine.
    pub template: TemplateCycle,
}

impl serde::Serialize for FoundPiece {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        bmn_core::serialize_fields!(serializer, "FoundPiece", {
            "piece" => self.piece,
            "length" => self.piece.len(),
            "composition" => self.piece.composition(),
            "forms" => self.forms,
            "candidates" => self.candidates,
            "template" => self.template,
        })
    }
}

/// What a search found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PieceSearchResult {
    /// Distinct pieces (up to passes), by length, then in card order.
    pub pieces: Vec<FoundPiece>,
    /// Candidates whose first pass keeps the template's shape.
    pub passing: u64,
    /// Candidates every pass of which keeps the shape (proposed to the reference engine).
    pub proposed: u64,
    /// Groups whose template game the reference engine found to end (the fast path was
    /// wrong: expected 0).
    pub rejected: u64,
    /// Groups whose template game was given up on.
    pub unresolved: u64,
    /// Cards laid by the enumeration (its work).
    pub work: u64,
    /// Work units (length, prefix) of the search.
    pub units: u64,
    /// Of them, those searched (all unless stopped).
    pub units_done: u64,
}

#[derive(Default)]
struct Unit {
    /// Units merged into this one.
    units: u64,
    pieces: Vec<FoundPiece>,
    class_counts: BTreeMap<Piece, u64>,
    passing: u64,
    proposed: u64,
    rejected: u64,
    unresolved: u64,
    work: u64,
}

/// Cards of prefix per unit: 16 units per length spread the work over threads.
const PREFIX: usize = 2;
/// Prefix length for a search of one fixed length.
const FIXED_PREFIX: usize = 8;

impl PieceSearchConfig {
    /// The (length, prefix) of every unit, in order.
    fn units(&self) -> Vec<(u32, Vec<bmn_core::Kind>)> {
        let given = self.prefix.len() as u32;
        let lengths: Vec<u32> = match self.faces {
            Some((f, Some(plain))) => vec![f.faces() + plain],
            Some((f, None)) => (f.faces().max(1)..=self.max_len).collect(),
            None => (1..=self.max_len).collect(),
        };
        let mut units = Vec::new();
        for len in lengths.into_iter().filter(|&l| l >= given.max(1)) {
            let k = (given as usize + self.prefix_len()).min(len as usize) - given as usize;
            let mut prefixes: Vec<Vec<bmn_core::Kind>> = vec![self.prefix.cards().to_vec()];
            for _ in 0..k {
                prefixes = prefixes
                    .into_iter()
                    .flat_map(|p| {
                        PIECE_KINDS.into_iter().map(move |c| {
                            let mut q = p.clone();
                            q.push(c);
                            q
                        })
                    })
                    .collect();
            }
            units.extend(prefixes.into_iter().map(|p| (len, p)));
        }
        units
    }

    /// Cards fixed by a unit's prefix. A search of one long length (a face list with its plain
    /// count, e.g. Casella's 31 cards) spends minutes in a few units, so it is cut finer:
    /// a unit is then the run's grain for interrupting it and for sharing it among threads.
    fn prefix_len(&self) -> usize {
        match self.faces {
            Some((_, Some(_))) => FIXED_PREFIX,
            _ => PREFIX,
        }
    }

    fn budget(&self, len: u32) -> Budget {
        let faces = self.faces.map(|(f, _)| {
            [
                f.count(bmn_core::Kind::Queen),
                f.count(bmn_core::Kind::King),
                f.count(bmn_core::Kind::Ace),
            ]
        });
        Budget { len, faces }
    }

    fn validate(&self) -> Result<(), PiecesError> {
        if self.max_len == 0 {
            return Err(PiecesError::TooSmall {
                what: "the length limit",
                field: "max_len",
                min: 1,
            });
        }
        if self.max_len > 64 {
            return Err(PiecesError::TooLarge {
                what: "the length limit",
                field: "max_len",
                max: 64,
                found: self.max_len.into(),
            });
        }
        if self.give_up == 0 {
            return Err(PiecesError::TooSmall {
                what: "the give-up limit",
                field: "give_up",
                min: 1,
            });
        }
        if self.prefix.len() > 64 {
            return Err(PiecesError::TooLarge {
                what: "the prefix",
                field: "prefix",
                max: 64,
                found: self.prefix.len() as u64,
            });
        }
        if let Some((f, plain)) = self.faces {
            let len = f.faces() + plain.unwrap_or(0);
            if len > 64 {
                return Err(PiecesError::TooLarge {
                    what: "a piece with these faces",
                    field: "faces",
                    max: 64,
                    found: len.into(),
                });
            }
            if f.faces() == 0 && plain == Some(0) {
                return Err(PiecesError::TooSmall {
                    what: "the cards of a piece",
                    field: "faces",
                    min: 1,
                });
            }
        }
        check_filter(&self.filter, self.give_up)
    }

    /// The unit of pieces of `len` cards starting `prefix`; `None` (abandoned: the scheduler
    /// drops it, and every unit after it) if `stop` is raised on the way.
    fn run_unit(&self, len: u32, prefix: &[bmn_core::Kind], stop: &AtomicBool) -> Option<Unit> {
        let mut unit = Unit {
            units: 1,
            ..Unit::default()
        };
        let mut dead = Memo::default();
        let mut candidates = Vec::new();
        unit.work = enumerate(prefix, self.budget(len), &mut dead, stop, |piece, _| {
            candidates.push(piece.clone());
        });
        unit.passing = candidates.len() as u64;
        for piece in candidates {
            if stop.load(Ordering::Relaxed) {
                return None;
            }
            let Some(forms) = orbit(&piece) else { continue };
            unit.proposed += 1;
            let cycle = cycle_part(forms);
            let name = cycle.iter().min().expect("not empty").clone();
            *unit.class_counts.entry(name.clone()).or_default() += 1;
            // The group is reported once, by its least form among those the search tries
            // (those that begin with the prefix; named by its least form of all).
            let reporter = cycle
                .iter()
                .filter(|f| f.cards().starts_with(self.prefix.cards()))
                .min();
            if reporter != Some(&piece) {
                continue;
            }
            match play(&template(&self.filter, &piece), self.give_up) {
                Some(Outcome::Cycle(c)) => unit.pieces.push(FoundPiece {
                    forms: rotate_to(cycle, &name),
                    piece: name,
                    candidates: 0,
                    template: TemplateCycle {
                        preperiod: c.preperiod,
                        period: c.period,
                        id: c.id,
                    },
                }),
                Some(Outcome::Finished { .. }) => unit.rejected += 1,
                None => unit.unresolved += 1,
            }
        }
        (!stop.load(Ordering::Relaxed)).then_some(unit)
    }
}

/// The forms that recur: an orbit may enter its cycle after a few forms that never return.
fn cycle_part(forms: Vec<Piece>) -> Vec<Piece> {
    let last = crate::pass::turn(forms.last().expect("not empty")).expect("an orbit's forms pass");
    let start = forms
        .iter()
        .position(|f| *f == last)
        .expect("the orbit closes");
    forms[start..].to_vec()
}

fn rotate_to(mut cycle: Vec<Piece>, first: &Piece) -> Vec<Piece> {
    let i = cycle.iter().position(|f| f == first).expect("a member");
    cycle.rotate_left(i);
    cycle
}

/// Runs the search on `threads` threads, reporting units done of units in all (stage
/// "units") through the job. Once the job stops, the result covers the units that finished
/// first (`units` says how many there were in all, `units_done` how many ran); otherwise it
/// depends only on `config`.
pub fn search(
    config: &PieceSearchConfig,
    threads: usize,
    job: &mut Job,
) -> Result<PieceSearchResult, PiecesError> {
    config.validate()?;
    let units = config.units();
    let total = units.len() as u64;
    let stop = job.stop_flag();
    job.start(Some(total), 0, "units");
    let mut merged = Unit::default();
    bmn_job::run_units(
        0..total,
        threads,
        job,
        &mut merged,
        |all: &mut Unit, u: Unit| {
            all.units += u.units;
            all.pieces.extend(u.pieces);
            for (k, n) in u.class_counts {
                *all.class_counts.entry(k).or_default() += n;
            }
            all.passing += u.passing;
            all.proposed += u.proposed;
            all.rejected += u.rejected;
            all.unresolved += u.unresolved;
            all.work += u.work;
        },
        |i| {
            let (len, prefix) = &units[i as usize];
            config.run_unit(*len, prefix, stop)
        },
        |job, all, _| job.progress(all.units, None),
    );
    let mut pieces = merged.pieces;
    for p in &mut pieces {
        p.candidates = merged.class_counts.get(&p.piece).copied().unwrap_or(0);
    }
    Ok(PieceSearchResult {
        pieces,
        passing: merged.passing,
        proposed: merged.proposed,
        rejected: merged.rejected,
        unresolved: merged.unresolved,
        work: merged.work,
        units: total,
        units_done: merged.units,
    })
}
