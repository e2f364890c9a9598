//! `PackedPosition`: a position in three words, so that a basin of millions fits in memory.
//!
//! Layout, from bit 0 up: 4 bits player count, 4 bits leader, then each stack in seat order
//! as 3-bit kind indices (0 plain .. 5 joker) closed by the code 7. A standard two-player
//! position takes 8 + 3 * (52 + 2) = 170 of the 192 bits; a `HashSet` entry is 24 bytes
//! instead of a `Position`'s heap of deques.

use std::hash::{BuildHasher, Hash, Hasher};

use bmn_core::{Kind, Player, Position};

/// A position packed into 192 bits (see the module documentation).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct PackedPosition([u64; 3]);

const HEADER_BITS: usize = 8;
const CODE_BITS: usize = 3;
const END: u64 = 7;

impl PackedPosition {
    /// The most cards plus players that fit: (192 - 8) / 3.
    pub const MAX_SYMBOLS: usize = (192 - HEADER_BITS) / CODE_BITS;

    /// Whether positions of `cards` cards and `players` players can be packed.
    pub fn fits(cards: usize, players: usize) -> bool {
        cards + players <= Self::MAX_SYMBOLS
    }

    /// Packs `position`; `None` if it holds too many cards (see [`Self::fits`]).
    pub fn pack(position: &Position) -> Option<PackedPosition> {
        if !Self::fits(position.card_count(), position.players()) {
            return None;
        }
        let mut words = [0u64; 3];
        words[0] = position.players() as u64 | (position.leader().index() as u64) << 4;
        let mut bit = HEADER_BITS;
        let mut put = |code: u64| {
            let (w, off) = (bit / 64, bit % 64);
            words[w] |= code << off;
            if off + CODE_BITS > 64 {
                words[w + 1] |= code >> (64 - off);
            }
            bit += CODE_BITS;
        };
        for stack in position.stacks() {
            for &kind in stack {
                put(kind.index() as u64);
            }
            put(END);
        }
        Some(PackedPosition(words))
    }

    /// The position packed here.
    pub fn unpack(&self) -> Position {
        let words = &self.0;
        let players = (words[0] & 0xf) as usize;
        let leader = (words[0] >> 4 & 0xf) as usize;
        let mut bit = HEADER_BITS;
        let mut get = || {
            let (w, off) = (bit / 64, bit % 64);
            let mut code = words[w] >> off;
            if off + CODE_BITS > 64 {
                code |= words[w + 1] << (64 - off);
            }
            bit += CODE_BITS;
            code & END
        };
        let mut hands = vec![Vec::new(); players];
        for hand in &mut hands {
            loop {
                let code = get();
                if code == END {
                    break;
                }
                hand.push(Kind::from_index(code as usize).expect("packed kinds are 0..=5"));
            }
        }
        Position::new(hands, Player(leader)).expect("packed from a valid position")
    }

    /// The three words folded into one well-mixed hash (SplitMix64's finalizer per word).
    fn fold(&self) -> u64 {
        let [a, b, c] = self.0;
        mix(a ^ mix(b ^ mix(c)))
    }
}

/// SplitMix64's output function (Steele, Lea, Flood 2014): a bijection that mixes every bit.
fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

impl Hash for PackedPosition {
    fn hash<H: Hasher>(&self, state: &mut H) {
        state.write_u64(self.fold());
    }
}

/// A hasher that passes `PackedPosition`'s already mixed word through (SipHash, std's
/// default, would cost more than the rest of a set insertion).
#[derive(Clone, Copy, Debug, Default)]
pub struct PassThrough(u64);

impl Hasher for PassThrough {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        // Not used by `PackedPosition`; FNV-1a keeps any other key correct.
        for &b in bytes {
            self.0 = (self.0 ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
    }
    fn write_u64(&mut self, value: u64) {
        self.0 = value;
    }
}

/// Builds [`PassThrough`] hashers (deterministic: no random state).
#[derive(Clone, Copy, Debug, Default)]
pub struct BuildPassThrough;

impl BuildHasher for BuildPassThrough {
    type Hasher = PassThrough;
    fn build_hasher(&self) -> PassThrough {
        PassThrough::default()
    }
}

/// A set of packed positions.
pub type PackedSet = std::collections::HashSet<PackedPosition, BuildPassThrough>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips() {
        for (text, leader) in [
            ("---K---Q-KQAJ-----AAJ--J--/----------Q----KQ-J-----KA", 0),
            ("----/", 1),
            ("/", 0),
            ("X-/J/QKA//", 3),
            (
                "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA/A",
                1,
            ),
        ] {
            let p = Position::parse(text, Player(leader)).unwrap();
            let packed = PackedPosition::pack(&p).unwrap();
            assert_eq!(packed.unpack(), p, "{text}");
        }
        let too_many = Position::parse(&format!("{}/-", "-".repeat(59)), Player(0)).unwrap();
        assert_eq!(PackedPosition::pack(&too_many), None);
    }
}
