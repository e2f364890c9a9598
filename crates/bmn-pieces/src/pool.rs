//! The pieces `bmn pieces construct` combines: several searches merged into one pool.
//!
//! A standard deck needs three pieces holding 12 faces and 34 plain cards, mostly plain. A
//! search of every candidate up to a length finds face-heavy pieces (6 faces in 12 to 14
//! cards); plain-heavy ones are longer but have few faces, so a second search tries every
//! piece of at most one face up to a longer length (there the branching is small). Face
//! lists (e.g. `Q4,K3,A1,-23`) add pieces of given compositions.

use bmn_job::Job;

use crate::error::PiecesError;
use crate::piece::{Composition, Piece};
use crate::search::{FoundPiece, PieceSearchConfig, search};

/// Which searches make the pool.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PoolConfig {
    pub filter: Piece,
    /// Every candidate up to this length.
    pub max_len: u32,
    /// Every candidate of at most one face up to this length (0: none).
    pub sparse_len: u32,
    /// Extra searches by face list (faces, plain count), each up to `sparse_len` cards
    /// when no plain count is given.
    pub faces: Vec<(Composition, Option<u32>)>,
    pub give_up: u64,
}

impl PoolConfig {
    /// Whether the pool's searches tried every arrangement of `cards`: so a piece of those
    /// cards, if there is one, is in the pool (up to passes).
    pub fn covers(&self, cards: &Composition) -> bool {
        let (faces, n) = cards.faces_and_plain();
        cards.len() <= self.max_len
            || (cards.faces() <= 1 && cards.len() <= self.sparse_len)
            || self.faces.iter().any(|&(f, plain)| {
                f == faces
                    && plain.map_or(cards.len() <= self.sparse_len.max(self.max_len), |p| p == n)
            })
    }
}

/// The cards that complete a deck from two pieces of `pool`: every `target - a - b` for
/// compositions `a`, `b` of pool pieces, that is not empty and that `config`'s searches did
/// not cover, shortest first. A piece of such cards, searched by [`crate::search`] with
/// them as its face list, makes a third piece with `a` and `b`: this is how the test
/// template's own completion (Casella et al.'s 31-card piece) generalises to any pair.
pub fn pair_completions(
    pool: &[FoundPiece],
    config: &PoolConfig,
    target: &Composition,
) -> Vec<Composition> {
    let mut seen: Vec<Composition> = pool.iter().map(|p| p.piece.composition()).collect();
    seen.sort();
    seen.dedup();
    let mut out = Vec::new();
    for a in &seen {
        for b in &seen {
            let Some(rest) = target.checked_sub(a).and_then(|r| r.checked_sub(b)) else {
                continue;
            };
            if !rest.is_empty() && !config.covers(&rest) {
                out.push(rest);
            }
        }
    }
    out.sort_by_key(|c| (c.len(), *c));
    out.dedup();
    out
}

/// Runs the pool's searches in order and merges them (a piece found twice is kept once),
/// each reporting its units through the job ("searching pieces"). Once the job stops, it
/// returns the pieces of the units that finished.
pub fn build_pool(
    config: &PoolConfig,
    threads: usize,
    job: &mut Job,
) -> Result<Vec<FoundPiece>, PiecesError> {
    let mut configs = vec![PieceSearchConfig {
        filter: config.filter.clone(),
        max_len: config.max_len,
        faces: None,
        give_up: config.give_up,
        prefix: Piece::default(),
    }];
    if config.sparse_len > config.max_len {
        let one = |kind| {
            let mut c = Composition::default();
            c.add(kind, 1);
            c
        };
        for faces in [
            Composition::default(),
            one(bmn_core::Kind::Queen),
            one(bmn_core::Kind::King),
            one(bmn_core::Kind::Ace),
        ] {
            configs.push(PieceSearchConfig {
                filter: config.filter.clone(),
                max_len: config.sparse_len,
                faces: Some((faces, None)),
                give_up: config.give_up,
                prefix: Piece::default(),
            });
        }
    }
    for &f in &config.faces {
        configs.push(PieceSearchConfig {
            filter: config.filter.clone(),
            max_len: config.sparse_len.max(config.max_len),
            faces: Some(f),
            give_up: config.give_up,
            prefix: Piece::default(),
        });
    }
    let mut pool: Vec<FoundPiece> = Vec::new();
    for c in &configs {
        if job.stopped() {
            break;
        }
        job.start(None, 0, "units");
        job.progress(0, Some("searching pieces"));
        let found = search(c, threads, job)?;
        for p in found.pieces {
            if !pool.iter().any(|q| q.piece == p.piece) {
                pool.push(p);
            }
        }
    }
    Ok(pool)
}
