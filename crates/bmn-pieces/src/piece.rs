//! `Piece` (a string over `-QKA`) and `Composition` (how many of each card a piece holds).

use std::fmt;

use bmn_core::{Deck, Kind};

use crate::error::PiecesError;

/// The kinds a piece may hold, in the order the search tries them (plain first, then by
/// penalty), which is also the order [`Piece`]s compare in.
pub const PIECE_KINDS: [Kind; 4] = [Kind::Plain, Kind::Queen, Kind::King, Kind::Ace];

/// A candidate piece of Casella's Ansatz: cards other than jacks, top card first. Jacks are
/// the separators of the construction, so a piece never holds one.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Piece(Vec<Kind>);

impl Piece {
    /// A piece of these cards; every card must be plain, Q, K or A.
    pub fn new(cards: Vec<Kind>) -> Result<Piece, PiecesError> {
        if let Some((i, k)) = cards
            .iter()
            .enumerate()
            .find(|(_, k)| !PIECE_KINDS.contains(k))
        {
            return Err(PiecesError::PieceChar {
                found: k.symbol(),
                at: i + 1,
            });
        }
        Ok(Piece(cards))
    }

    /// Parses `--K---A----AA` (spaces ignored).
    pub fn parse(text: &str) -> Result<Piece, PiecesError> {
        let mut cards = Vec::new();
        for (i, c) in text.chars().enumerate() {
            let kind = match c {
                '-' => Kind::Plain,
                'Q' => Kind::Queen,
                'K' => Kind::King,
                'A' => Kind::Ace,
                c if c.is_whitespace() => continue,
                found => return Err(PiecesError::PieceChar { found, at: i + 1 }),
            };
            cards.push(kind);
        }
        Ok(Piece(cards))
    }

    pub fn cards(&self) -> &[Kind] {
        &self.0
    }

    pub fn len(&self) -> usize {
        self.0.len()
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// How many cards of each kind the piece holds.
    pub fn composition(&self) -> Composition {
        let mut c = Composition::default();
        for &k in &self.0 {
            c.add(k, 1);
        }
        c
    }
}

/// A piece is written as its cards, top first (`--K---A-Q`).
impl serde::Serialize for Piece {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        bmn_core::as_text(self, serializer)
    }
}

impl fmt::Display for Piece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.iter().try_for_each(|k| write!(f, "{}", k.symbol()))
    }
}

/// Counts of plain cards, queens, kings and aces (in [`PIECE_KINDS`] order).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Composition {
    pub counts: [u32; 4],
}

impl Composition {
    /// What a standard deck leaves for the pieces of `Δ1 J Δ2 J Δ3 J - / J -`: 4 Q, 4 K,
    /// 4 A and 34 plain cards (the 36 plain less the two beside the last jacks).
    pub const STANDARD_PIECES: Composition = Composition {
        counts: [34, 4, 4, 4],
    };

    /// What `deck` leaves for the three pieces of `Δ1 J Δ2 J Δ3 J - / J -`: the deck less its
    /// four jacks and two plain cards. `None` unless the deck has exactly four jacks, no
    /// jokers and at least two plain cards, the decks this construction fills: the standard
    /// deck ([`Self::STANDARD_PIECES`]), Camicia (4 Q, 4 K and 26 plain: pieces without
    /// aces), and compositions such as `4J,2Q,2K,2A,20-`.
    pub fn pieces_of(deck: &Deck) -> Option<Composition> {
        if deck.count(Kind::Jack) != 4 || deck.count(Kind::Joker) != 0 {
            return None;
        }
        Some(Composition {
            counts: [
                deck.count(Kind::Plain).checked_sub(2)?,
                deck.count(Kind::Queen),
                deck.count(Kind::King),
                deck.count(Kind::Ace),
            ],
        })
    }

    fn slot(kind: Kind) -> usize {
        PIECE_KINDS
            .iter()
            .position(|&k| k == kind)
            .expect("a piece kind")
    }

    pub fn count(&self, kind: Kind) -> u32 {
        self.counts[Self::slot(kind)]
    }

    pub fn add(&mut self, kind: Kind, n: u32) {
        self.counts[Self::slot(kind)] += n;
    }

    /// Cards in all.
    pub fn len(&self) -> u32 {
        self.counts.iter().sum()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Face cards (Q, K, A).
    pub fn faces(&self) -> u32 {
        self.counts[1..].iter().sum()
    }

    /// The faces alone and the number of plain cards: the form a face list with its plain
    /// count takes ([`Self::parse_faces`], a search of one composition).
    pub fn faces_and_plain(&self) -> (Composition, u32) {
        let mut faces = *self;
        faces.counts[Self::slot(Kind::Plain)] = 0;
        (faces, self.count(Kind::Plain))
    }

    /// `self - other`, if no count goes negative.
    pub fn checked_sub(&self, other: &Composition) -> Option<Composition> {
        let mut out = *self;
        for (o, c) in out.counts.iter_mut().zip(other.counts) {
            *o = o.checked_sub(c)?;
        }
        Some(out)
    }

    /// Parses a face list such as `Q4,K3,A1` (no plain count: the search tries every count
    /// up to its length limit) or `Q4,K3,A1,-23` (exactly 23 plain cards). Returns the faces
    /// and the plain count if one was given.
    pub fn parse_faces(text: &str) -> Result<(Composition, Option<u32>), PiecesError> {
        let bad = |why: String| PiecesError::Faces {
            text: text.to_string(),
            why,
        };
        let mut faces = Composition::default();
        let mut plain = None;
        let mut seen = [false; 4];
        for item in text.split(',').map(str::trim) {
            let mut chars = item.chars();
            let Some(symbol) = chars.next() else {
                return Err(bad("empty item".into()));
            };
            let kind = match symbol.to_ascii_uppercase() {
                '-' | 'P' => Kind::Plain,
                'Q' => Kind::Queen,
                'K' => Kind::King,
                'A' => Kind::Ace,
                'J' => return Err(bad("jacks separate pieces and cannot be in one".into())),
                c => return Err(bad(format!("'{c}' is not Q, K, A or - (plain)"))),
            };
            let n: u32 = chars
                .as_str()
                .parse()
                .map_err(|_| bad(format!("'{item}' needs a count after the symbol")))?;
            if n > 64 {
                return Err(bad(format!("'{item}': at most 64 of a kind")));
            }
            let slot = Self::slot(kind);
            if std::mem::replace(&mut seen[slot], true) {
                return Err(bad(format!("'{}' is given twice", kind.symbol())));
            }
            if kind == Kind::Plain {
                plain = Some(n);
            } else {
                faces.add(kind, n);
            }
        }
        Ok((faces, plain))
    }
}

/// A composition is written as its text (`Q4,K3,A1,-23`).
impl serde::Serialize for Composition {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        bmn_core::as_text(self, serializer)
    }
}

impl fmt::Display for Composition {
    /// `Q4,K3,A1,-23`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Q{},K{},A{},-{}",
            self.counts[1], self.counts[2], self.counts[3], self.counts[0]
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_and_print() {
        let p = Piece::parse("--K---A----AA").unwrap();
        assert_eq!(p.to_string(), "--K---A----AA");
        assert_eq!(p.composition().to_string(), "Q0,K1,A3,-9");
        assert_eq!(
            Piece::parse("--J").unwrap_err(),
            PiecesError::PieceChar { found: 'J', at: 3 }
        );
    }

    #[test]
    fn decks_of_four_jacks_leave_cards_for_three_pieces() {
        assert_eq!(
            Composition::pieces_of(&Deck::STANDARD),
            Some(Composition::STANDARD_PIECES)
        );
        let camicia = Composition::pieces_of(&Deck::CAMICIA).unwrap();
        assert_eq!(camicia.to_string(), "Q4,K4,A0,-26");
        assert_eq!(camicia.len() + 6, Deck::CAMICIA.len());
        for spec in ["2J,2Q,2K,2A,8-", "4J,4Q,1-", "4J,4Q,4X,20-"] {
            let deck = Deck::parse(spec).unwrap();
            assert_eq!(Composition::pieces_of(&deck), None, "{spec}");
        }
    }

    #[test]
    fn face_lists() {
        let (f, plain) = Composition::parse_faces("Q4, K3,A1").unwrap();
        assert_eq!((f.to_string(), plain), ("Q4,K3,A1,-0".to_string(), None));
        let (_, plain) = Composition::parse_faces("Q1,-23").unwrap();
        assert_eq!(plain, Some(23));
        for bad in ["", "Q", "Q4,Q1", "J1", "Z3", "Q99"] {
            assert!(Composition::parse_faces(bad).is_err(), "{bad}");
        }
    }
}
