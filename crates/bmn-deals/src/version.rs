//! Which specified stream of random deals a seed names: deal `k` of seed `s` is a function of
//! `(stream, s, k)`, so a run records its stream and a resume or a merge keeps it.

use std::fmt;

/// A version of the seeded stream of deals.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Stream {
    /// A Fisher-Yates shuffle of the whole deck ([`crate::stream`]).
    V1,
    /// The marked cards' places and order drawn straight ([`crate::sampler`]).
    V2,
}

impl Stream {
    /// The newest stream: what a run draws unless told otherwise.
    pub const LATEST: Stream = Stream::V2;
    /// Every stream, oldest first.
    pub const ALL: [Stream; 2] = [Stream::V1, Stream::V2];

    /// Its number, as `--stream` and run files spell it.
    pub fn number(self) -> u8 {
        match self {
            Stream::V1 => 1,
            Stream::V2 => 2,
        }
    }

    /// The stream numbered `n`, if there is one.
    pub fn from_number(n: u64) -> Option<Stream> {
        Stream::ALL.into_iter().find(|s| u64::from(s.number()) == n)
    }
}

impl fmt::Display for Stream {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.number())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_round_trip() {
        for s in Stream::ALL {
            assert_eq!(Stream::from_number(u64::from(s.number())), Some(s));
        }
        assert_eq!(Stream::from_number(0), None);
        assert_eq!(Stream::from_number(3), None);
        assert_eq!(Stream::LATEST.to_string(), "2");
    }
}
