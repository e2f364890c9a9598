//! `PackedStack`: a short run of cards packed four bits a card, copied and hashed as a few words.
//!
//! The piece search keeps the pass's state (player 2's stack and the pile) in a memo of
//! millions of entries and copies it at every card it tries. As `VecDeque`s the two stacks
//! cost an allocation per copy and a byte-by-byte hash per lookup: measured with `perf` on
//! `bmn pieces search --faces Q2,K3,A2,-20`, hashing and malloc/free took two thirds of the
//! time. Packed, a copy is a memcpy of 48 bytes and a hash is six words.

use bmn_core::Kind;

/// Words of 16 cards each.
const WORDS: usize = 5;

/// The most cards a stack holds: a pass holds the piece (at most 64 cards, the search's
/// limit), the closing jack and player 2's `J -`.
pub(crate) const CAPACITY: usize = WORDS * 16;

/// Cards in order, front (next to be laid, or first laid for a pile) first. Bits past `len`
/// are zero, so equal stacks have equal words.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct PackedStack {
    words: [u64; WORDS],
    len: u8,
}

/// The used words folded into one (a multiply-rotate mix) and handed to the hasher once: the
/// derived hash fed all five words through the hasher's byte path, a quarter of the search's
/// time after packing. Equal stacks fold equally; collisions cost only a comparison.
impl std::hash::Hash for PackedStack {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        let used = self.len().div_ceil(16);
        let mut x = u64::from(self.len);
        for &w in &self.words[..used] {
            x = (x.rotate_left(23) ^ w).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        }
        state.write_u64(x);
    }
}

impl PackedStack {
    pub(crate) fn of(cards: &[Kind]) -> PackedStack {
        let mut s = PackedStack::default();
        for &c in cards {
            s.push(c);
        }
        s
    }

    pub(crate) fn len(&self) -> usize {
        usize::from(self.len)
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.len == 0
    }

    pub(crate) fn get(&self, i: usize) -> Kind {
        debug_assert!(i < self.len());
        let code = (self.words[i / 16] >> (4 * (i % 16))) & 0xf;
        Kind::from_index(code as usize).expect("a kind's code")
    }

    /// Adds `card` at the back.
    pub(crate) fn push(&mut self, card: Kind) {
        let i = self.len();
        assert!(i < CAPACITY, "a pass holds at most {CAPACITY} cards");
        self.words[i / 16] |= (card.index() as u64) << (4 * (i % 16));
        self.len += 1;
    }

    /// Takes the front card.
    pub(crate) fn pop_front(&mut self) -> Option<Kind> {
        if self.len == 0 {
            return None;
        }
        let card = self.get(0);
        for w in 0..WORDS {
            let next = if w + 1 < WORDS { self.words[w + 1] } else { 0 };
            self.words[w] = (self.words[w] >> 4) | (next << 60);
        }
        self.len -= 1;
        Some(card)
    }

    /// Moves every card of `other` to the back, in order, leaving it empty.
    pub(crate) fn append(&mut self, other: &mut PackedStack) {
        for i in 0..other.len() {
            self.push(other.get(i));
        }
        *other = PackedStack::default();
    }

    pub(crate) fn iter(&self) -> impl Iterator<Item = Kind> + '_ {
        (0..self.len()).map(|i| self.get(i))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::VecDeque;

    /// The packed stack against a VecDeque, through every word boundary.
    #[test]
    fn behaves_as_a_deque() {
        let kinds = [Kind::Plain, Kind::Jack, Kind::Queen, Kind::King, Kind::Ace];
        let mut s = PackedStack::default();
        let mut d = VecDeque::new();
        let mut x = 12345u64;
        for step in 0..5000 {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let pop = ((x >> 33).is_multiple_of(3) && !d.is_empty()) || d.len() == CAPACITY;
            if pop {
                assert_eq!(s.pop_front(), d.pop_front(), "step {step}");
            } else {
                let k = kinds[((x >> 40) % 5) as usize];
                s.push(k);
                d.push_back(k);
            }
            assert_eq!(s.len(), d.len());
            assert!(s.iter().eq(d.iter().copied()));
            assert_eq!(s, PackedStack::of(&d.iter().copied().collect::<Vec<_>>()));
        }
        let mut other = PackedStack::of(&[Kind::Ace, Kind::Plain]);
        let mut t = PackedStack::of(&[Kind::Jack]);
        t.append(&mut other);
        assert!(other.is_empty());
        assert!(t.iter().eq([Kind::Jack, Kind::Ace, Kind::Plain]));
    }
}
