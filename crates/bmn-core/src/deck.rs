//! `Deck`: a deck composition (how many cards of each kind) and its textual specs.

use std::fmt;

use crate::error::DeckError;
use crate::kind::Kind;

/// How many cards of each kind a deck holds, indexed by `Kind::index`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Deck {
    counts: [u32; 6],
}

impl Deck {
    /// 4 J, 4 Q, 4 K, 4 A, 36 plain.
    pub const STANDARD: Deck = Deck {
        counts: [36, 4, 4, 4, 4, 0],
    };
    /// The Italian Camicia deck: 4 each of J, Q, K (penalties 1, 2, 3) and 28 plain.
    pub const CAMICIA: Deck = Deck {
        counts: [28, 4, 4, 4, 0, 0],
    };

    /// A deck with these counts, indexed by `Kind::index`.
    pub const fn from_counts(counts: [u32; 6]) -> Deck {
        Deck { counts }
    }

    /// The deck made of exactly these cards.
    pub fn of_cards<'a>(cards: impl IntoIterator<Item = &'a Kind>) -> Deck {
        let mut deck = Deck::default();
        for &k in cards {
            deck.counts[k.index()] += 1;
        }
        deck
    }

    pub fn count(&self, kind: Kind) -> u32 {
        self.counts[kind.index()]
    }

    pub fn counts(&self) -> [u32; 6] {
        self.counts
    }

    pub fn len(&self) -> u32 {
        self.counts.iter().sum()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The cards in a fixed order (plain first, then J, Q, K, A, X): the identity arrangement.
    pub fn cards(&self) -> Vec<Kind> {
        Kind::ALL
            .into_iter()
            .flat_map(|k| std::iter::repeat_n(k, self.counts[k.index()] as usize))
            .collect()
    }

    /// Parses a deck spec: terms joined by `+`, each `standard`, `camicia`, `jokers`
    /// (2 jokers per standard deck in the spec, at least 2), optionally repeated as `2xstandard`,
    /// or a composition list such as `2J,2Q,2K,2A,16-`.
    pub fn parse(text: &str) -> Result<Deck, DeckError> {
        let spec = text.trim();
        if spec.is_empty() {
            return Err(DeckError::Empty);
        }
        let mut deck = Deck::default();
        let mut standard_decks = 0u32;
        let mut jokers = 0u32;
        for term in spec.split('+').map(str::trim) {
            let (times, name) = match term.split_once(['x', '×']) {
                Some((n, name)) if !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()) => {
                    let times = n
                        .parse::<u32>()
                        .map_err(|_| DeckError::BadTerm(term.into()))?;
                    (times, name.trim())
                }
                _ => (1, term),
            };
            match name.to_ascii_lowercase().as_str() {
                "standard" => {
                    deck.add(&Deck::STANDARD, times);
                    standard_decks += times;
                }
                "camicia" => deck.add(&Deck::CAMICIA, times),
                "jokers" | "joker" => jokers += times,
                _ if times == 1 => deck.add(&parse_list(name)?, 1),
                _ => return Err(DeckError::BadTerm(term.into())),
            }
        }
        deck.counts[Kind::Joker.index()] += jokers * 2 * standard_decks.max(1);
        if deck.is_empty() {
            return Err(DeckError::Empty);
        }
        Ok(deck)
    }

    fn add(&mut self, other: &Deck, times: u32) {
        for (mine, theirs) in self.counts.iter_mut().zip(other.counts) {
            *mine += theirs * times;
        }
    }
}

/// `2J,2Q,2K,2A,16-`: a count then a kind symbol, per item.
fn parse_list(list: &str) -> Result<Deck, DeckError> {
    let mut deck = Deck::default();
    for item in list.split(',').map(str::trim) {
        let split = item
            .find(|c: char| !c.is_ascii_digit())
            .unwrap_or(item.len());
        let (count, symbol) = item.split_at(split);
        let mut symbol_chars = symbol.chars();
        let kind = match (symbol_chars.next(), symbol_chars.next()) {
            (Some(c), None) => Kind::from_symbol(c),
            _ => None,
        };
        match (count.parse::<u32>(), kind) {
            (Ok(n), Some(kind)) => deck.counts[kind.index()] += n,
            _ => return Err(DeckError::BadTerm(item.into())),
        }
    }
    Ok(deck)
}

impl fmt::Display for Deck {
    /// The composition list form, e.g. `4J,4Q,4K,4A,36-`; parses back to the same deck.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut parts = Vec::new();
        for kind in Kind::FACES.into_iter().chain([Kind::Plain]) {
            let n = self.counts[kind.index()];
            if n > 0 {
                parts.push(format!("{n}{}", kind.symbol()));
            }
        }
        f.write_str(&parts.join(","))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[track_caller]
    fn check(spec: &str, expected: &str, len: u32) {
        let deck = Deck::parse(spec).unwrap();
        assert_eq!(deck.to_string(), expected, "{spec}");
        assert_eq!(deck.len(), len, "{spec}");
        assert_eq!(Deck::parse(&deck.to_string()).unwrap(), deck);
    }

    #[test]
    fn parses_specs() {
        check("standard", "4J,4Q,4K,4A,36-", 52);
        check("camicia", "4J,4Q,4K,28-", 40);
        check("standard+jokers", "4J,4Q,4K,4A,2X,36-", 54);
        check("2xstandard", "8J,8Q,8K,8A,72-", 104);
        check("2xstandard+jokers", "8J,8Q,8K,8A,4X,72-", 108);
        check("2J,2Q,2K,2A,16-", "2J,2Q,2K,2A,16-", 24);
        check("4J, 4Q, 4K, 28-", "4J,4Q,4K,28-", 40);
        check("1J,1Q,1K,1A,2-,3-", "1J,1Q,1K,1A,5-", 9);
    }

    #[test]
    fn rejects_bad_specs() {
        for bad in [
            "", "  ", "bogus", "2J,Q", "3xbogus", "J2", "0-", "2Z", "2JJ",
        ] {
            assert!(Deck::parse(bad).is_err(), "{bad}");
        }
    }
}
