//! `Dispatch`: one dispatch's work as the shader reads it (its `Params` and input words).

use bmn_deals::stream::GAMMA;
use bmn_deals::{Sampler, Stream};
use bmn_play::device::{DeviceBatch, DeviceDeals, DeviceError, DigestSpec, MAX_RANKED};

use crate::contract::Params;

/// Penalty cards a deal may hold for the event kernel: their kinds fill one 32-bit word.
pub(crate) const EVENT_PENALTIES: usize = 16;

/// A batch part as the shader takes it.
pub(crate) struct Dispatch {
    /// 0 stream, 1 starts from the host, 2 ranks unranked on the device.
    mode: u32,
    /// The stream counter of the first deal, or the first rank.
    base: u64,
    segment: usize,
    /// Games a work item plays.
    per_item: usize,
    pub count: usize,
    len: usize,
    first_hand: usize,
    leader: u8,
    max_tricks: u32,
    /// Rank mode: the arrangements of the whole deck.
    block: u64,
    /// Stream mode: the stream's number (0 in the other modes); on stream 2, a segment's
    /// background code and its count of marked cards (`input` holds the marked codes,
    /// ascending).
    stream: u32,
    background: u32,
    marked: usize,
    /// The deck's codes, the starts, or the deck's count of each code.
    pub input: Vec<u32>,
    /// Played by the event kernel (`events.wgsl`): no jokers, at most [`EVENT_PENALTIES`]
    /// penalty cards, both hands dealt cards, a trick cap. Else by the trick kernel.
    pub events: bool,
}

impl Dispatch {
    /// The job of `batch`, a work item of ranks being `rank_run` consecutive arrangements.
    pub fn new(batch: &DeviceBatch<'_>, rank_run: usize) -> Result<Dispatch, DeviceError> {
        // The most penalty cards one deal holds, and whether any card is a joker.
        let penalties = |codes: &[u8]| codes.iter().filter(|&&c| c != 0).count();
        let (most, jokers);
        let (mut stream, mut background, mut marked) = (0, 0, 0);
        let (mode, base, segment, per_item, block, input) = match &batch.deals {
            DeviceDeals::Stream {
                seed,
                first,
                deck,
                segment,
                stream: which,
            } => {
                // As bmn_deals::deal_rng: deal k's counter is seed + 4k * GAMMA.
                let base = seed.wrapping_add(first.wrapping_mul(4).wrapping_mul(GAMMA));
                (most, jokers) = (penalties(deck), deck.contains(&JOKER));
                stream = u32::from(which.number());
                let input = match which {
                    Stream::V1 => words(deck),
                    Stream::V2 => {
                        // Every segment holds the same cards (a balanced deal's shares).
                        let sampler = Sampler::new(&deck[..(*segment).min(deck.len())]);
                        background = u32::from(sampler.background());
                        marked = sampler.marked().len();
                        words(sampler.marked())
                    }
                };
                (0, base, *segment, 1, 0, input)
            }
            DeviceDeals::Arrangements { starts, per_start } => {
                let len = batch.len.max(1);
                most = starts.chunks(len).map(penalties).max().unwrap_or(0);
                jokers = starts.contains(&JOKER);
                (1, 0, 0, *per_start, 0, words(starts))
            }
            DeviceDeals::Ranks { first, counts } => {
                let block = bmn_deals::Arrangements::new(*counts)
                    .map(|a| a.count())
                    .filter(|&b| b <= MAX_RANKED)
                    .ok_or_else(|| {
                        DeviceError::BadBatch(
                            "bad rank batch: the deck has more than 2^58 arrangements".into(),
                        )
                    })?;
                if u128::from(*first) + batch.count as u128 > block {
                    return Err(DeviceError::BadBatch(
                        "bad rank batch: ranks past the deck's last arrangement".into(),
                    ));
                }
                most = counts[1..].iter().sum::<u32>() as usize;
                jokers = counts[usize::from(JOKER)] != 0;
                (2, *first, 0, rank_run, block as u64, counts.to_vec())
            }
        };
        Ok(Dispatch {
            mode,
            base,
            segment,
            per_item,
            count: batch.count,
            len: batch.len,
            first_hand: batch.first_hand,
            leader: batch.leader,
            max_tricks: batch.max_tricks,
            block,
            stream,
            background,
            marked,
            input,
            events: !jokers
                && most <= EVENT_PENALTIES
                && (1..batch.len).contains(&batch.first_hand)
                && batch.max_tricks > 0,
        })
    }

    /// Games the event kernel's `dealt` buffer must hold for this job.
    pub fn dealt(&self) -> usize {
        if self.events { self.count } else { 0 }
    }

    /// Work items: a game each in stream mode, a run of arrangements else.
    pub fn items(&self) -> usize {
        self.count.div_ceil(self.per_item)
    }

    /// The shader's `Params`, for `lanes` invocations (the event kernel's each taking at most
    /// `lane_games` games, from the queue or its own share); with `spec`, games added up on the
    /// device with at most `kept_cap` of them kept.
    pub fn params(
        &self,
        lanes: usize,
        lane_games: u32,
        queue: bool,
        spec: Option<DigestSpec>,
        kept_cap: usize,
    ) -> Params {
        let (tally, bin, keep_cards, lengths) =
            spec.map_or((0, 1, 0, false), |s| (1, s.bin, s.keep_cards, s.lengths));
        Params {
            base_lo: self.base as u32,
            base_hi: (self.base >> 32) as u32,
            count: self.count as u32,
            len: self.len as u32,
            first_hand: self.first_hand as u32,
            leader: u32::from(self.leader),
            max_tricks: self.max_tricks,
            mode: self.mode,
            segment: self.segment as u32,
            per_item: self.per_item as u32,
            lanes: lanes as u32,
            tally,
            bin,
            keep_cards,
            kept_cap: kept_cap as u32,
            block_lo: self.block as u32,
            block_hi: (self.block >> 32) as u32,
            lane_games,
            queue: u32::from(queue),
            lengths: u32::from(lengths),
            stream: self.stream,
            background: self.background,
            marked: self.marked as u32,
        }
    }
}

/// The joker's code (penalty 5): its kind does not fit the event kernel's 2 bits.
const JOKER: u8 = bmn_kernel::MAX_CODE;

fn words(codes: &[u8]) -> Vec<u32> {
    codes.iter().map(|&c| u32::from(c)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ranks(first: u64, count: usize, counts: [u32; 6]) -> DeviceBatch<'static> {
        DeviceBatch {
            deals: DeviceDeals::Ranks { first, counts },
            count,
            len: counts.iter().sum::<u32>() as usize,
            first_hand: 5,
            leader: 0,
            max_tricks: 100,
        }
    }

    #[test]
    fn ranks_past_the_last_arrangement_or_too_many_are_refused() {
        // 2J,2Q,6-: 1,260 deals.
        let small = [6, 2, 2, 0, 0, 0];
        assert!(Dispatch::new(&ranks(1_200, 60, small), 8).is_ok());
        assert!(Dispatch::new(&ranks(1_200, 61, small), 8).is_err());
        assert!(Dispatch::new(&ranks(u64::MAX, 2, small), 8).is_err());
        // The standard deck has 2^69 deals.
        assert!(Dispatch::new(&ranks(0, 1, [36, 4, 4, 4, 4, 0]), 8).is_err());
    }
}
