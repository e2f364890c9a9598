//! Deals in batches: stream 1 eight or four at a time in SIMD lanes where the CPU allows (the
//! same deals as bmn-deals' scalar [`bmn_deals::deal_for`], bit for bit, faster), stream 2
//! through its [`Sampler`].

pub use bmn_deals::STANDARD_DECK;
use bmn_deals::{Sampler, Stream, deal_range};

use crate::Marked;

/// The deals of one deck on one stream, in batches.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Dealer {
    deck: Vec<u8>,
    /// Stream 2's draws for the deck; `None` on stream 1.
    sampler: Option<Sampler>,
}

impl Dealer {
    /// The dealer of `deck` (codes) on `stream`.
    pub fn new(stream: Stream, deck: &[u8]) -> Dealer {
        Dealer {
            deck: deck.to_vec(),
            sampler: (stream == Stream::V2).then(|| Sampler::new(deck)),
        }
    }

    /// Its stream.
    pub fn stream(&self) -> Stream {
        if self.sampler.is_some() {
            Stream::V2
        } else {
            Stream::V1
        }
    }

    /// The deck dealt (codes).
    pub fn deck(&self) -> &[u8] {
        &self.deck
    }

    /// Cards in a deal.
    pub fn len(&self) -> usize {
        self.deck.len()
    }

    /// True for an empty deck.
    pub fn is_empty(&self) -> bool {
        self.deck.is_empty()
    }

    /// Deal `index` of `seed` into `out` (`self.len()` codes).
    pub fn deal(&self, seed: u64, index: u64, out: &mut [u8]) {
        match &self.sampler {
            None => bmn_deals::deal_for(seed, index, &self.deck, out),
            Some(s) => s.deal(seed, index, out),
        }
    }

    /// Deals `first ..` of `seed` into `out`, deal after deal (whole deals).
    ///
    /// # Panics
    /// If `out.len()` is not a multiple of `self.len()` (a non-empty deck).
    pub fn batch(&self, seed: u64, first: u64, out: &mut [u8]) {
        match &self.sampler {
            None => deal_batch(seed, first, &self.deck, out),
            Some(s) => {
                #[cfg(target_arch = "x86_64")]
                sample_batch_on(crate::dealer_simd::Lanes::best(), s, seed, first, out);
                #[cfg(not(target_arch = "x86_64"))]
                sample_batch_on(s, seed, first, out);
            }
        }
    }

    /// Deals `first ..` of `seed`, `out.len()` of them, as stream 2 draws them: each deal's
    /// marked places and their codes ([`Marked`], where "penalty" reads "marked"); the other
    /// cards are the deck's background code ([`Sampler::background`]). A kernel takes them as
    /// they are where the background is plain ([`crate::KernelBuffers::play_marked`]): no
    /// deal laid out card by card. `false` (nothing written) on stream 1, or a deck of more
    /// than 21 marked cards or a marked code above 7.
    pub fn batch_marked(&self, seed: u64, first: u64, out: &mut Marked) -> bool {
        let Some(sampler) = self.sampler.as_ref() else {
            return false;
        };
        if sampler.marked().len() > bmn_deals::MAX_MARKED
            || sampler.marked().iter().any(|&c| c >= 8)
        {
            return false;
        }
        let (masks, codes) = out.parts_mut();
        #[allow(unused_mut)]
        let mut done = 0;
        #[cfg(target_arch = "x86_64")]
        if let Some(lanes) =
            crate::dealer_simd::Lanes::best().filter(|_| crate::dealer_simd::samples(sampler))
        {
            done = masks.len() / lanes.width() * lanes.width();
            let (m, c) = (&mut masks[..done], &mut codes[..done]);
            // SAFETY: `lanes` is what `Lanes::best` found on this CPU.
            unsafe { lanes.sample_marked_groups(sampler, seed, first, m, c) };
        }
        let rest = masks
            .iter_mut()
            .zip(codes.iter_mut())
            .enumerate()
            .skip(done);
        for (i, (mask, code)) in rest {
            (*mask, *code) = marked_of(sampler, seed, first.wrapping_add(i as u64));
        }
        true
    }

    /// Stream 2's draws for the deck; `None` on stream 1.
    pub fn sampler(&self) -> Option<&Sampler> {
        self.sampler.as_ref()
    }
}

/// Deal `index` of `seed` as its marked places and their codes (3 bits each, in order), by the
/// scalar sampler.
pub(crate) fn marked_of(sampler: &Sampler, seed: u64, index: u64) -> (u64, u64) {
    let mut deal = [0u8; crate::MAX_CARDS];
    let deal = &mut deal[..sampler.len()];
    sampler.deal(seed, index, deal);
    bmn_deals::marked_of(deal, sampler.background())
}

/// [`deal_range`], eight deals at a time in SIMD lanes where the CPU has AVX-512 (F and DQ,
/// checked at run time), four where it has AVX2, and the deck has 2..=64 cards; the same
/// deals, bit for bit.
///
/// Measured (2e6 standard deals in calls of 4096, 1 thread, Zen 4): 64.5 ns per deal for
/// `deal_range`, 28.9 for the AVX-512 lanes; details in `dealer_simd.rs`.
///
/// # Panics
/// If `out.len()` is not a multiple of `deck.len()` (a non-empty deck).
pub fn deal_batch(seed: u64, first: u64, deck: &[u8], out: &mut [u8]) {
    assert!(
        !deck.is_empty() && out.len().is_multiple_of(deck.len()),
        "out must hold whole deals"
    );
    #[cfg(target_arch = "x86_64")]
    deal_batch_on(crate::dealer_simd::Lanes::best(), seed, first, deck, out);
    #[cfg(not(target_arch = "x86_64"))]
    deal_range(seed, first, deck, out);
}

/// [`deal_batch`] on the given lanes (`None`: one deal at a time).
#[cfg(target_arch = "x86_64")]
fn deal_batch_on(
    lanes: Option<crate::dealer_simd::Lanes>,
    seed: u64,
    first: u64,
    deck: &[u8],
    out: &mut [u8],
) {
    let mut done = 0;
    if let Some(lanes) = lanes.filter(|_| (2..=crate::dealer_simd::MAX_LEN).contains(&deck.len())) {
        let group = lanes.width() * deck.len();
        done = out.len() / group * group;
        // SAFETY: `lanes` is what `Lanes::best` found on this CPU, or narrower.
        unsafe { lanes.deal_groups(seed, first, deck, &mut out[..done]) };
    }
    let skipped = (done / deck.len()) as u64;
    deal_range(seed, first.wrapping_add(skipped), deck, &mut out[done..]);
}

/// Stream 2's deals `first ..` into `out`: whole groups on `lanes` where the deck allows, the
/// rest one at a time.
fn sample_batch_on(
    #[cfg(target_arch = "x86_64")] lanes: Option<crate::dealer_simd::Lanes>,
    sampler: &Sampler,
    seed: u64,
    first: u64,
    out: &mut [u8],
) {
    let n = sampler.len();
    assert!(
        n > 0 && out.len().is_multiple_of(n),
        "out must hold whole deals"
    );
    #[allow(unused_mut)]
    let mut done = 0;
    #[cfg(target_arch = "x86_64")]
    if let Some(lanes) = lanes.filter(|_| crate::dealer_simd::samples(sampler)) {
        let group = lanes.width() * n;
        done = out.len() / group * group;
        // SAFETY: `lanes` is what `Lanes::best` found on this CPU, or narrower.
        unsafe { lanes.sample_groups(sampler, seed, first, &mut out[..done]) };
    }
    let skipped = (done / n) as u64;
    for (i, deal) in out[done..].chunks_exact_mut(n).enumerate() {
        sampler.deal(seed, first.wrapping_add(skipped + i as u64), deal);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use bmn_deals::{deal_for, deal_rng};

    /// For deal `index` of `seed` on `n` cards: whether some word's product has a low word
    /// below its bound (`.0`, the batch dealer's test for redealing a lane), and whether
    /// Lemire rejects a word (`.1`, so that the deal draws extra words).
    fn lemire_words(seed: u64, index: u64, n: u32) -> (bool, bool) {
        let mut rng = deal_rng(seed, index);
        let (mut risky, mut rejected) = (false, false);
        for b in (2..=n).rev() {
            let mut low = (u64::from(rng.next_u32()) * u64::from(b)) as u32;
            risky |= low < b;
            while low < b.wrapping_neg() % b {
                rejected = true;
                low = (u64::from(rng.next_u32()) * u64::from(b)) as u32;
            }
        }
        (risky, rejected)
    }

    /// A dealer: `deal_batch`'s arguments.
    type Dealer = dyn Fn(u64, u64, &[u8], &mut [u8]);

    /// Every dealer this CPU runs, the batch entry point first.
    fn dealers() -> Vec<Box<Dealer>> {
        #[allow(unused_mut)]
        let mut all: Vec<Box<Dealer>> = vec![Box::new(deal_batch)];
        #[cfg(target_arch = "x86_64")]
        {
            use crate::dealer_simd::Lanes;
            if Lanes::best() == Some(Lanes::Avx512) {
                all.push(Box::new(|s, f, d, o| {
                    deal_batch_on(Some(Lanes::Avx2), s, f, d, o)
                }));
            }
        }
        all
    }

    fn assert_batch_matches(seed: u64, first: u64, deck: &[u8], count: usize) {
        for dealer in dealers() {
            assert_one_dealer(&dealer, seed, first, deck, count);
        }
    }

    fn assert_one_dealer(deal: &Dealer, seed: u64, first: u64, deck: &[u8], count: usize) {
        let n = deck.len();
        let mut batch = vec![0xEE; count * n];
        deal(seed, first, deck, &mut batch);
        let mut one = vec![0; n];
        for (i, got) in batch.chunks_exact(n).enumerate() {
            deal_for(seed, first + i as u64, deck, &mut one);
            assert_eq!(
                got,
                one,
                "seed {seed} deal {} of {n} cards",
                first + i as u64
            );
        }
    }

    #[test]
    fn batch_equals_deal_for() {
        for n in 1..=64usize {
            let deck: Vec<u8> = (0..n).map(|i| ((i * 7 + n) % 6) as u8).collect();
            for (seed, first) in [(0, 0), (2026, 3), (u64::MAX, 1 << 40), (99, u64::MAX - 80)] {
                for count in [0, 1, 7, 8, 9, 23, 64, 72] {
                    assert_batch_matches(seed, first, &deck, count);
                }
            }
        }
        assert_batch_matches(1, 0, &STANDARD_DECK, 4099);
        // Decks past the SIMD limit take the scalar path.
        let big: Vec<u8> = (0..100).map(|i| (i % 6) as u8).collect();
        assert_batch_matches(5, 17, &big, 19);
    }

    #[test]
    fn batch_redeals_lanes_where_lemire_may_reject() {
        // Found by scanning seed 2026 with `lemire_words`: deal 100_575 has a risky word that
        // is accepted, 1_499_666 one that is rejected (more words drawn).
        assert_eq!(lemire_words(2026, 100_575, 52), (true, false));
        assert_eq!(lemire_words(2026, 1_499_666, 52), (true, true));
        assert_eq!(lemire_words(2026, 1_499_667, 52), (false, false));
        for index in [100_575, 1_499_666] {
            // The deal in every lane of a group, and in the scalar tail.
            for before in 0..10 {
                assert_batch_matches(2026, index - before, &STANDARD_DECK, 17);
            }
        }
    }

    /// A stream-2 dealer: `sample_batch_on`'s arguments.
    type SampleFn = dyn Fn(&Sampler, u64, u64, &mut [u8]);

    /// Every stream-2 dealer this CPU runs: (name, dealer).
    fn samplers() -> Vec<(&'static str, Box<SampleFn>)> {
        #[allow(unused_mut)]
        let mut all: Vec<(&str, Box<SampleFn>)> = vec![(
            "one at a time",
            Box::new(|s: &Sampler, seed, first, out: &mut [u8]| {
                for (i, d) in out.chunks_exact_mut(s.len()).enumerate() {
                    s.deal(seed, first.wrapping_add(i as u64), d);
                }
            }),
        )];
        #[cfg(target_arch = "x86_64")]
        {
            use crate::dealer_simd::Lanes;
            for lanes in [Lanes::Avx512, Lanes::Avx2] {
                if Lanes::best().is_some_and(|b| b.width() >= lanes.width()) {
                    all.push((
                        if lanes == Lanes::Avx512 {
                            "avx512"
                        } else {
                            "avx2"
                        },
                        Box::new(move |s: &Sampler, seed, first, out: &mut [u8]| {
                            sample_batch_on(Some(lanes), s, seed, first, out)
                        }),
                    ));
                }
            }
            if Lanes::best() == Some(Lanes::Avx512) && crate::dealer_simd::expands() {
                all.push((
                    "avx512 without expansion",
                    Box::new(|s: &Sampler, seed, first, out: &mut [u8]| {
                        let n = s.len();
                        if !crate::dealer_simd::samples(s) {
                            return sample_batch_on(None, s, seed, first, out);
                        }
                        let done = out.len() / (8 * n) * (8 * n);
                        let (lanes, tail) = out.split_at_mut(done);
                        assert!(crate::dealer_simd::sample_groups_without_expansion(
                            s, seed, first, lanes
                        ));
                        sample_batch_on(None, s, seed, first + (done / n) as u64, tail);
                    }),
                ));
            }
        }
        all
    }

    #[test]
    fn stream_2_batches_equal_the_sampler() {
        let mut decks: Vec<Vec<u8>> = (1..=70usize)
            .map(|n| (0..n).map(|i| ((i * 7 + n) % 6) as u8).collect())
            .collect();
        // Few marked cards, 21 (the lanes' most), 22 (past it), a marked code of 7.
        decks.push(STANDARD_DECK.to_vec());
        for marked in [1usize, 21, 22] {
            let mut d = vec![0u8; 52];
            for (i, c) in d.iter_mut().take(marked).enumerate() {
                *c = (i % 4 + 1) as u8;
            }
            decks.push(d);
        }
        decks.push([vec![7u8, 7, 3], vec![0; 30]].concat());
        for deck in &decks {
            let s = Sampler::new(deck);
            let n = deck.len();
            for (seed, first) in [(0, 0), (2026, 3), (u64::MAX, 1 << 40), (99, u64::MAX - 80)] {
                for count in [0, 1, 7, 8, 9, 23, 64, 72] {
                    let mut one = vec![0u8; count * n];
                    samplers()[0].1(&s, seed, first, &mut one);
                    for (name, dealer) in samplers() {
                        let mut got = vec![0xEE; count * n];
                        dealer(&s, seed, first, &mut got);
                        assert_eq!(got, one, "{name}: {n} cards, seed {seed}, first {first}");
                    }
                    let mut batch = vec![0xEE; count * n];
                    super::Dealer::new(Stream::V2, deck).batch(seed, first, &mut batch);
                    assert_eq!(batch, one);
                }
            }
        }
    }

    #[test]
    fn stream_2_lanes_redo_the_deals_that_redraw() {
        // Deals of seed 2026 whose draws redraw a group (found by replaying the words), in
        // every lane of a group and in the tail.
        let s = Sampler::new(&STANDARD_DECK);
        let redraws = |index: u64| {
            let mut rng = bmn_deals::deal_rng(2026, index);
            s.groups().any(|(bounds, threshold)| {
                let mut w = rng.next_u32();
                for &b in bounds {
                    w = (u64::from(w) * u64::from(b)) as u32;
                }
                w < threshold
            })
        };
        let found: Vec<u64> = (0..2000).filter(|&k| redraws(k)).take(3).collect();
        assert_eq!(found.len(), 3, "about 1 deal in 100 redraws");
        for index in found {
            for before in 0..10u64 {
                let first = index.saturating_sub(before);
                let mut one = vec![0u8; 17 * 52];
                samplers()[0].1(&s, 2026, first, &mut one);
                for (name, dealer) in samplers() {
                    let mut got = vec![0u8; 17 * 52];
                    dealer(&s, 2026, first, &mut got);
                    assert_eq!(got, one, "{name}, first {first}");
                }
            }
        }
    }
}
