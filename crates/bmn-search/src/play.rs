//! Playing numbered deals exactly: batches through a fast kernel, capped games handed to
//! bmn-core's cycle detection, results into a [`Summary`]. Random searches and exhaustive
//! enumerations differ only in where their deals come from (a [`Deals`]).

use bmn_core::{Outcome as Exact, Player, Position, Rules, play_out};
use bmn_kernel::{Kernel, Outcome};

use crate::summary::{FoundCycle, Summary};

/// Deals played and summed per kernel call. Larger batches shorten the lanes' drain (the
/// steps after a batch's last deal is loaded, while a few long games finish with the other
/// lanes idle); 4096 standard deals are 213 KB, still in L2. Measured (search 3e6 games,
/// 1 thread): 1024 gave 2.62-2.74, 4096 2.65-2.79 M games/s: within noise, kept for the
/// shorter drain.
pub const BATCH: usize = 4096;

/// A numbered family of two-player deals in which one seat leads every deal.
pub trait Deals: Sync {
    /// Cards in one deal.
    fn deal_len(&self) -> usize;
    /// Cards of the leader, whose hand comes first in the codes the kernel gets.
    fn split(&self) -> usize;
    /// Writes deals `first..first + out.len() / deal_len()` into `out`, leader's hand first
    /// (codes 0 plain, 1 J .. 5 joker).
    fn fill(&self, first: u64, out: &mut [u8]);
    /// One deal's codes (as `fill` wrote them) as the position a person reads: seats in
    /// their order, the leader named. The exact hand-over plays it; reports print it.
    fn position(&self, codes: &[u8]) -> Position;
    /// The seat that leads every deal.
    fn leader(&self) -> Player;
    /// [`Self::position`]'s deal text, which the top-K tie-break asks for often on reduced
    /// decks (neighbouring deals tie on cards and tricks); override it with a direct path.
    fn deal_text(&self, codes: &[u8]) -> String {
        self.position(codes).deal_text()
    }
}

/// `H1/H2` straight from codes (player 1's `split` cards first), without building a
/// `Position`: 3% of an enumeration's instructions went to `Position` and its text.
pub fn two_hand_text(codes: &[u8], split: usize) -> String {
    const SYMBOLS: &[u8; 6] = b"-JQKAX";
    let mut text = String::with_capacity(codes.len() + 1);
    for (i, &c) in codes.iter().enumerate() {
        if i == split {
            text.push('/');
        }
        text.push(char::from(SYMBOLS[usize::from(c)]));
    }
    text
}

/// A game's exact result from the kernel's: the kernel's own when it finished (its winner 0
/// is the leader), the reference engine's from `start` after a cap (asked for only then).
pub fn exact(kernel: Outcome, leader: Player, start: impl FnOnce() -> Position) -> Exact {
    match kernel {
        Outcome::Finished {
            winner,
            cards,
            tricks,
        } => Exact::Finished {
            winner: Player((leader.index() + usize::from(winner)) % 2),
            cards: u64::from(cards),
            tricks: u64::from(tricks),
        },
        Outcome::Capped { .. } => play_out(&Rules::STANDARD, &start()),
    }
}

/// Plays deals `first..end` of `deals` on `kernel` (games past `max_tricks` tricks go to
/// exact cycle detection) and adds them to `summary`.
pub fn play_deals(
    deals: &impl Deals,
    kernel: Kernel,
    max_tricks: u32,
    first: u64,
    end: u64,
    summary: &mut Summary,
) {
    let len = deals.deal_len();
    let leader = deals.leader();
    let mut codes = vec![0u8; BATCH * len];
    let mut outcomes = vec![Outcome::default(); BATCH];
    let mut start = first;
    while start < end {
        let n = (end - start).min(BATCH as u64) as usize;
        deals.fill(start, &mut codes[..n * len]);
        bmn_kernel::play_many(
            kernel,
            &codes[..n * len],
            len,
            deals.split(),
            max_tricks,
            &mut outcomes[..n],
        );
        for (i, (deal, &outcome)) in codes.chunks_exact(len).zip(&outcomes[..n]).enumerate() {
            let index = start + i as u64;
            match exact(outcome, leader, || deals.position(deal)) {
                Exact::Finished {
                    winner,
                    cards,
                    tricks,
                } => summary.add_finished(index, cards, tricks, winner.number(), || {
                    deals.deal_text(deal)
                }),
                Exact::Cycle(c) => summary.add_cycle(FoundCycle {
                    index,
                    deal: deals.deal_text(deal),
                    preperiod: c.preperiod,
                    period: c.period,
                    cycle_id: c.id,
                    representative: c.representative.deal_text(),
                    representative_leader: c.representative.leader().number(),
                }),
            }
        }
        start += n as u64;
    }
}
