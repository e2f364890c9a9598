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

    /// The most cards a deck spec may name. Far past any deck played (the kernels take 64
    /// cards, the examples go to 540), yet small enough that what is linear in a deck's size
    /// (counting, ranking and unranking its deals, dealing it) stays fast: without a bound a
    /// short spec such as `4000000000-` overflowed the counts or stalled `#K` for hours.
    pub const MAX_CARDS: u32 = 10_000;

    /// Parses a deck spec: terms joined by `+`, each `standard`, `camicia`, `jokers`
    /// (2 jokers per standard deck in the spec, at least 2), optionally repeated as `2xstandard`,
    /// or a composition list such as `2J,2Q,2K,2A,16-`. At most [`Deck::MAX_CARDS`] cards.
    pub fn parse(text: &str) -> Result<Deck, DeckError> {
        let spec = text.trim();
        if spec.is_empty() {
            return Err(DeckError::Empty);
        }
        // Counted in u64, saturating: any count that saturates is past the bound anyway.
        let mut counts = [0u64; 6];
        let mut standard_decks = 0u64;
        let mut jokers = 0u64;
        for term in spec.split('+').map(str::trim) {
            let (times, name) = match term.split_once(['x', '×']) {
                Some((n, name)) if !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()) => {
                    let times = n
                        .parse::<u32>()
                        .map_err(|_| DeckError::BadTerm(term.into()))?;
                    (u64::from(times), name.trim())
                }
                _ => (1, term),
            };
            match name.to_ascii_lowercase().as_str() {
                "standard" => {
                    add(&mut counts, &Deck::STANDARD.counts, times);
                    standard_decks = standard_decks.saturating_add(times);
                }
                "camicia" => add(&mut counts, &Deck::CAMICIA.counts, times),
                "jokers" | "joker" => jokers = jokers.saturating_add(times),
                _ if times == 1 => parse_list(name, &mut counts)?,
                _ => return Err(DeckError::BadTerm(term.into())),
            }
        }
        let joker_cards = jokers
            .saturating_mul(2)
            .saturating_mul(standard_decks.max(1));
        counts[Kind::Joker.index()] = counts[Kind::Joker.index()].saturating_add(joker_cards);
        let cards = counts.iter().fold(0u64, |a, &c| a.saturating_add(c));
        if cards == 0 {
            return Err(DeckError::Empty);
        }
        if cards > u64::from(Deck::MAX_CARDS) {
            return Err(DeckError::TooBig {
                cards,
                max: Deck::MAX_CARDS,
            });
        }
        // Each count is at most MAX_CARDS: it fits.
        Ok(Deck {
            counts: counts.map(|c| c as u32),
        })
    }
}

/// `counts += deck * times`, saturating.
fn add(counts: &mut [u64; 6], deck: &[u32; 6], times: u64) {
    for (mine, &theirs) in counts.iter_mut().zip(deck) {
        *mine = mine.saturating_add(u64::from(theirs).saturating_mul(times));
    }
}

/// `2J,2Q,2K,2A,16-`: a count then a kind symbol, per item; added to `counts`.
fn parse_list(list: &str, counts: &mut [u64; 6]) -> Result<(), DeckError> {
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
            (Ok(n), Some(kind)) => {
                counts[kind.index()] = counts[kind.index()].saturating_add(u64::from(n));
            }
            _ => return Err(DeckError::BadTerm(item.into())),
        }
    }
    Ok(())
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

    #[test]
    fn huge_decks_are_refused_not_overflowed() {
        // Found by fuzzing (fuzz/regressions/deck_spec/): the counts overflowed u32.
        for huge in [
            "1Q,4294967295-",
            "4294967295-,4294967295-",
            "4294967295xstandard+4294967295xjokers",
            "193xstandard",
        ] {
            let err = Deck::parse(huge).unwrap_err().to_string();
            assert!(err.contains("at most 10000"), "{huge}: {err}");
        }
        assert_eq!(Deck::parse("192xstandard").unwrap().len(), 9984);
        assert_eq!(Deck::parse("10000-").unwrap().len(), Deck::MAX_CARDS);
    }
}
