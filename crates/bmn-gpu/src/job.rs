//! `Job`: one dispatch's work as the shader reads it (its `Params` and input words).

use bmn_deals::stream::GAMMA;
use bmn_search::device::{DeviceBatch, DeviceDeals, DigestSpec, MAX_RANKED};

/// Words of the shader's `Params`.
pub(crate) const PARAMS_WORDS: usize = 20;

/// Words of the shader's `tally` buffer: totals (games recorded at [`TALLY_RECORDED`]), then
/// the histogram from [`TALLY_HIST`].
pub(crate) const TALLY_RECORDED: usize = 8;
pub(crate) const TALLY_HIST: usize = 16;
pub(crate) const TALLY_WORDS: usize = TALLY_HIST + bmn_search::device::DIGEST_BINS;

/// A batch part as the shader takes it.
pub(crate) struct Job {
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
    /// The deck's codes, the starts, or the deck's count of each code.
    pub input: Vec<u32>,
}

impl Job {
    /// The job of `batch`, a work item of ranks being `rank_run` consecutive arrangements.
    pub fn new(batch: &DeviceBatch<'_>, rank_run: usize) -> Result<Job, String> {
        let (mode, base, segment, per_item, block, input) = match &batch.deals {
            DeviceDeals::Stream {
                seed,
                first,
                deck,
                segment,
            } => {
                // As bmn_deals::deal_rng: deal k's counter is seed + 4k * GAMMA.
                let base = seed.wrapping_add(first.wrapping_mul(4).wrapping_mul(GAMMA));
                (0, base, *segment, 1, 0, words(deck))
            }
            DeviceDeals::Arrangements { starts, per_start } => {
                (1, 0, 0, *per_start, 0, words(starts))
            }
            DeviceDeals::Ranks { first, counts } => {
                let block = bmn_deals::Arrangements::new(*counts)
                    .map(|a| a.count())
                    .filter(|&b| b <= MAX_RANKED)
                    .ok_or("bad rank batch: the deck has more than 2^58 arrangements")?;
                if u128::from(*first) + batch.count as u128 > block {
                    return Err("bad rank batch: ranks past the deck's last arrangement".into());
                }
                (2, *first, 0, rank_run, block as u64, counts.to_vec())
            }
        };
        Ok(Job {
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
            input,
        })
    }

    /// Work items: a game each in stream mode, a run of arrangements else.
    pub fn items(&self) -> usize {
        self.count.div_ceil(self.per_item)
    }

    /// The shader's `Params`, for `lanes` invocations; with `spec`, games added up on the
    /// device with at most `kept_cap` of them kept.
    pub fn params(
        &self,
        lanes: usize,
        spec: Option<DigestSpec>,
        kept_cap: usize,
    ) -> [u32; PARAMS_WORDS] {
        let (tally, bin, keep_cards) = spec.map_or((0, 1, 0), |s| (1, s.bin, s.keep_cards));
        [
            self.base as u32,
            (self.base >> 32) as u32,
            self.count as u32,
            self.len as u32,
            self.first_hand as u32,
            u32::from(self.leader),
            self.max_tricks,
            self.mode,
            self.segment as u32,
            self.per_item as u32,
            lanes as u32,
            tally,
            bin,
            keep_cards,
            kept_cap as u32,
            self.block as u32,
            (self.block >> 32) as u32,
            0,
            0,
            0,
        ]
    }
}

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
        assert!(Job::new(&ranks(1_200, 60, small), 8).is_ok());
        assert!(Job::new(&ranks(1_200, 61, small), 8).is_err());
        assert!(Job::new(&ranks(u64::MAX, 2, small), 8).is_err());
        // The standard deck has 2^69 deals.
        assert!(Job::new(&ranks(0, 1, [36, 4, 4, 4, 4, 0]), 8).is_err());
    }
}
