//! Deals by their penalty cards: stream 2's form of a deal, which the streaming kernels take as
//! it is (`KernelBuffers::play_marked`).

/// Deals, each a mask (bit `i` set iff card `i` is a penalty card) and a word of those cards'
/// codes, 3 bits each in order; the other cards are plain. A batch of them is what
/// [`crate::dealer::Dealer::batch_marked`] deals into and a streaming kernel encodes straight,
/// with no deal laid out card by card.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Marked {
    masks: Vec<u64>,
    codes: Vec<u64>,
}

impl Marked {
    /// `count` empty deals, to be dealt into.
    pub fn with_len(count: usize) -> Marked {
        Marked {
            masks: vec![0; count],
            codes: vec![0; count],
        }
    }

    /// Makes room for exactly `count` deals (keeping the allocation), to be dealt into.
    pub fn resized(&mut self, count: usize) -> &mut Marked {
        self.masks.resize(count, 0);
        self.codes.resize(count, 0);
        self
    }

    /// How many deals.
    pub fn len(&self) -> usize {
        self.masks.len()
    }

    /// True with no deals.
    pub fn is_empty(&self) -> bool {
        self.masks.is_empty()
    }

    /// Deal `d`: its mask and codes.
    pub fn get(&self, d: usize) -> (u64, u64) {
        (self.masks[d], self.codes[d])
    }

    /// Deal `d` laid out card by card in `deal` (its length the deal's), the cards it does not
    /// mark plain.
    pub fn lay_out(&self, d: usize, deal: &mut [u8]) {
        lay_out(deal, self.masks[d], self.codes[d], 0);
    }

    /// The masks and the codes, a deal each.
    pub fn parts(&self) -> (&[u64], &[u64]) {
        (&self.masks, &self.codes)
    }

    /// The masks and the codes, to be written.
    pub fn parts_mut(&mut self) -> (&mut [u64], &mut [u64]) {
        (&mut self.masks, &mut self.codes)
    }
}

/// Lays one deal out from its marked places and codes: `background` everywhere but at `mask`'s
/// bits, which take the 3-bit fields of `codes` in order.
pub(crate) fn lay_out(deal: &mut [u8], mut mask: u64, mut codes: u64, background: u8) {
    deal.fill(background);
    while mask != 0 {
        deal[mask.trailing_zeros() as usize] = (codes & 7) as u8;
        mask &= mask - 1;
        codes >>= 3;
    }
}

/// [`lay_out`]'s inverse: the places of a deal's cards other than `background`, and their codes
/// in order (at most 21 of them, each below 8).
pub(crate) fn marks_of(deal: &[u8], background: u8) -> (u64, u64) {
    let (mut mask, mut codes, mut at) = (0u64, 0u64, 0);
    for (i, &c) in deal.iter().enumerate() {
        if c != background {
            mask |= 1 << i;
            codes |= u64::from(c) << at;
            at += 3;
        }
    }
    (mask, codes)
}
