//! Evaluating many deals at once, exactly: two-player deals of the standard penalty table on
//! the fast kernels (a game still going at the trick cap goes to bmn-core's cycle detection),
//! every other table on the reference engine; batches split across threads, results in order.

use bmn_core::{CycleId, Outcome, Player, Rules, Span, play_out_within};
use bmn_kernel::{Kernel, Played, Shape};
use bmn_search::exact;

use crate::cards::Cards;

/// How one deal's game went.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Game {
    Finished {
        cards: u64,
        tricks: u64,
        winner: usize,
    },
    Endless {
        preperiod: Span,
        period: Span,
        id: CycleId,
    },
    /// Neither ended nor repeated within the reference engine's limit.
    Unresolved,
}

impl Game {
    fn of(outcome: Option<Outcome>) -> Game {
        outcome.map_or(Game::Unresolved, Game::from)
    }
}

impl From<Outcome> for Game {
    fn from(outcome: Outcome) -> Game {
        match outcome {
            Outcome::Finished {
                winner,
                cards,
                tricks,
            } => Game::Finished {
                cards,
                tricks,
                winner: winner.number(),
            },
            Outcome::Cycle(c) => Game::Endless {
                preperiod: c.preperiod,
                period: c.period,
                id: c.id,
            },
        }
    }
}

/// Where games are played.
#[derive(Clone, Copy, Debug)]
pub struct Evaluator {
    pub rules: Rules,
    /// Tricks before a kernel hands a game to exact cycle detection.
    pub max_tricks: u32,
    /// Tricks the reference engine plays before giving up.
    pub give_up: u64,
}

impl Evaluator {
    /// The fastest kernel, the default caps.
    pub fn new(rules: Rules) -> Evaluator {
        Evaluator {
            rules,
            max_tricks: bmn_kernel::DEFAULT_MAX_TRICKS,
            give_up: bmn_search::DEFAULT_GIVE_UP,
        }
    }

    /// The kernel that plays runs of deals shaped as `codes` (deals of `split` and the rest):
    /// the fastest this CPU runs for them.
    pub fn kernel(&self, codes: &[u8], cards: usize, split: usize) -> Kernel {
        Kernel::fastest(&Shape::of_batch(codes, cards, split, self.max_tricks))
    }

    fn on_kernel(&self, cards: &Cards) -> bool {
        cards.sizes.len() == 2
            && self.rules.penalties.is_standard()
            && cards.codes.len() <= bmn_kernel::MAX_CARDS
            && cards.sizes.iter().all(|&s| s > 0)
    }

    /// Plays every deal of `batch` (each with player 1 leading) on `threads` threads.
    pub fn evaluate(&self, batch: &[Cards], threads: usize) -> Vec<Game> {
        bmn_job::in_parallel(batch, threads, |part| self.evaluate_here(part))
    }

    /// Plays `batch` on this thread: runs of deals of one shape on the kernel in one call.
    fn evaluate_here(&self, batch: &[Cards]) -> Vec<Game> {
        let mut out = Vec::with_capacity(batch.len());
        let mut i = 0;
        while i < batch.len() {
            if !self.on_kernel(&batch[i]) {
                let result = play_out_within(&self.rules, &batch[i].position(), self.give_up);
                out.push(Game::of(result));
                i += 1;
                continue;
            }
            let shape = (batch[i].codes.len(), batch[i].sizes[0]);
            let end = (i..batch.len())
                .find(|&j| {
                    !self.on_kernel(&batch[j]) || (batch[j].codes.len(), batch[j].sizes[0]) != shape
                })
                .unwrap_or(batch.len());
            let run = &batch[i..end];
            let codes: Vec<u8> = run.iter().flat_map(|c| c.codes.iter().copied()).collect();
            let mut played = vec![Played::default(); run.len()];
            bmn_kernel::play_many(
                self.kernel(&codes, shape.0, shape.1),
                &codes,
                shape.0,
                shape.1,
                self.max_tricks,
                &mut played,
            );
            for (c, p) in run.iter().zip(played) {
                out.push(Game::of(Some(exact(p, Player(0), || c.position()))));
            }
            i = end;
        }
        out
    }
}
