//! `Kind`: the only property of a card that matters (plain, J, Q, K, A, joker).

use std::fmt;

/// The kind of a card. Suits and the ranks of plain cards never matter in this game.
///
/// The discriminant is the kind's index everywhere in bmn (tables, kernels, Paulhus's digits):
/// 0 plain, 1 J, 2 Q, 3 K, 4 A, 5 joker.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
pub enum Kind {
    Plain = 0,
    Jack = 1,
    Queen = 2,
    King = 3,
    Ace = 4,
    Joker = 5,
}

impl Kind {
    /// Every kind, in index order.
    pub const ALL: [Kind; 6] = [
        Kind::Plain,
        Kind::Jack,
        Kind::Queen,
        Kind::King,
        Kind::Ace,
        Kind::Joker,
    ];

    /// The face kinds (every kind but plain), in index order.
    pub const FACES: [Kind; 5] = [Kind::Jack, Kind::Queen, Kind::King, Kind::Ace, Kind::Joker];

    /// Index 0..=5 (also Paulhus's digit for the kind).
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The kind of a card code (its index, as the kernels store it).
    ///
    /// # Panics
    /// If `code` is not 0..=5: codes come from [`Kind::index`], never from input.
    pub fn from_code(code: u8) -> Kind {
        Kind::from_index(usize::from(code)).expect("a card code is 0..=5")
    }

    /// The kind with this index, if any.
    pub const fn from_index(index: usize) -> Option<Kind> {
        match index {
            0 => Some(Kind::Plain),
            1 => Some(Kind::Jack),
            2 => Some(Kind::Queen),
            3 => Some(Kind::King),
            4 => Some(Kind::Ace),
            5 => Some(Kind::Joker),
            _ => None,
        }
    }

    /// The symbol used in bmn's notation: `-`, `J`, `Q`, `K`, `A`, `X`.
    pub const fn symbol(self) -> char {
        match self {
            Kind::Plain => '-',
            Kind::Jack => 'J',
            Kind::Queen => 'Q',
            Kind::King => 'K',
            Kind::Ace => 'A',
            Kind::Joker => 'X',
        }
    }

    /// The kind written by this symbol (upper or lower case face letters), if any.
    pub const fn from_symbol(c: char) -> Option<Kind> {
        match c {
            '-' => Some(Kind::Plain),
            'J' | 'j' => Some(Kind::Jack),
            'Q' | 'q' => Some(Kind::Queen),
            'K' | 'k' => Some(Kind::King),
            'A' | 'a' => Some(Kind::Ace),
            'X' | 'x' => Some(Kind::Joker),
            _ => None,
        }
    }
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.symbol())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn index_symbol_round_trip() {
        for (i, k) in Kind::ALL.into_iter().enumerate() {
            assert_eq!(k.index(), i);
            assert_eq!(Kind::from_index(i), Some(k));
            assert_eq!(Kind::from_symbol(k.symbol()), Some(k));
        }
        assert_eq!(Kind::from_index(6), None);
        assert_eq!(Kind::from_symbol('Z'), None);
    }
}
