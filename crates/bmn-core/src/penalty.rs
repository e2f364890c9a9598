//! `PenaltyTable`: how many cards each kind of card demands (J1 Q2 K3 A4 by default).

use std::fmt;

use crate::error::PenaltyError;
use crate::kind::Kind;

/// The debt each kind lays on the next player. `None` means "not a penalty card".
///
/// A penalty card worth 0 is still a penalty card: the player who laid it takes the pile at once
/// (docs/rules.md, Cards and decks). Plain cards are never penalty cards.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PenaltyTable {
    values: [Option<u8>; 6],
}

impl Default for PenaltyTable {
    fn default() -> Self {
        Self::STANDARD
    }
}

impl PenaltyTable {
    /// J1 Q2 K3 A4, jokers 5.
    pub const STANDARD: PenaltyTable = PenaltyTable {
        values: [None, Some(1), Some(2), Some(3), Some(4), Some(5)],
    };

    /// The largest value a table may give (a debt larger than any deck is meaningless).
    pub const MAX_VALUE: u8 = 99;

    /// The debt laid by a card of this kind, or `None` for a non-penalty card.
    #[inline]
    pub fn value(&self, kind: Kind) -> Option<u8> {
        self.values[kind.index()]
    }

    /// Whether this is the standard table (the fast kernels assume it).
    pub fn is_standard(&self) -> bool {
        *self == Self::STANDARD
    }

    /// Parses `"J1,Q2,K3,A4"`-style tables. Kinds not listed keep their standard value;
    /// `A-` makes a kind plain. Example: Knocking Dolly is `K3,J2,Q1,A0`.
    pub fn parse(text: &str) -> Result<Self, PenaltyError> {
        let mut table = Self::STANDARD;
        let mut seen = [false; 6];
        for item in text.split(',').map(str::trim) {
            if item.is_empty() {
                return Err(PenaltyError::Empty(text.to_string()));
            }
            let mut chars = item.chars();
            let first = chars.next().unwrap_or(' ');
            let kind = match Kind::from_symbol(first) {
                Some(k) if k != Kind::Plain => k,
                _ => {
                    return Err(PenaltyError::UnknownKind {
                        item: item.to_string(),
                        found: first,
                    });
                }
            };
            if std::mem::replace(&mut seen[kind.index()], true) {
                return Err(PenaltyError::Repeated(kind.symbol()));
            }
            let rest = chars.as_str();
            table.values[kind.index()] = if rest == "-" {
                None
            } else {
                match rest.parse::<u8>() {
                    Ok(v) if v <= Self::MAX_VALUE => Some(v),
                    _ => {
                        return Err(PenaltyError::BadValue {
                            item: item.to_string(),
                        });
                    }
                }
            };
        }
        Ok(table)
    }
}

impl fmt::Display for PenaltyTable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut first = true;
        for kind in Kind::FACES {
            if !first {
                write!(f, ",")?;
            }
            first = false;
            match self.value(kind) {
                Some(v) => write!(f, "{}{}", kind.symbol(), v)?,
                None => write!(f, "{}-", kind.symbol())?,
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[track_caller]
    fn check(text: &str, expected: &str) {
        assert_eq!(PenaltyTable::parse(text).unwrap().to_string(), expected);
    }

    #[test]
    fn parses_tables() {
        check("J1,Q2,K3,A4", "J1,Q2,K3,A4,X5");
        check("K3,J2,Q1,A0", "J2,Q1,K3,A0,X5");
        check(" a- , x7", "J1,Q2,K3,A-,X7");
        assert_eq!(PenaltyTable::parse("J1").unwrap(), PenaltyTable::STANDARD);
    }

    #[test]
    fn rejects_bad_tables() {
        for bad in ["", "J", "Z1", "-1", "J1,J2", "Q300", "K-1", "J1,,Q2"] {
            let err = PenaltyTable::parse(bad).unwrap_err();
            assert!(!err.to_string().is_empty(), "{bad}");
        }
    }
}
