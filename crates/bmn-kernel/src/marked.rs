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
        bmn_deals::marked::lay_out(deal, self.masks[d], self.codes[d], 0);
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
