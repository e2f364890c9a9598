//! `Player`: a seat at the table, 0-based inside bmn and 1-based in everything a person reads.

use std::fmt;

/// The most players a table may seat.
pub const MAX_PLAYERS: usize = 10;

/// A seat. `Player(0)` is the person-facing "player 1".
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Player(pub usize);

impl Player {
    /// The seat a person calls `number` (1-based), if `number >= 1`.
    pub const fn from_number(number: usize) -> Option<Player> {
        if number == 0 {
            None
        } else {
            Some(Player(number - 1))
        }
    }

    /// The 1-based number a person reads.
    pub const fn number(self) -> usize {
        self.0 + 1
    }

    /// 0-based index.
    pub const fn index(self) -> usize {
        self.0
    }
}

impl fmt::Display for Player {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.number())
    }
}

/// A player is written as its number, 1-based, as a person reads it (the form of every report).
impl serde::Serialize for Player {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.number().serialize(serializer)
    }
}
