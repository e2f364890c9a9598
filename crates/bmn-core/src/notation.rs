//! Parsing and printing stacks and deals: symbols `-JQKAX`, Paulhus digits, real cards (docs/rules.md, Notation).

use std::borrow::Borrow;

use crate::error::ParseError;
use crate::kind::Kind;

/// Writes a stack in bmn's symbols, top card first (`--K---A`).
pub fn format_stack<'a>(cards: impl IntoIterator<Item = &'a Kind>) -> String {
    cards.into_iter().map(|k| k.symbol()).collect()
}

/// Writes hands as a deal, `H1/H2/...`.
pub fn format_deal<I, S>(hands: I) -> String
where
    I: IntoIterator<Item = S>,
    S: IntoIterator,
    S::Item: Borrow<Kind>,
{
    let hands: Vec<String> = hands
        .into_iter()
        .map(|h| h.into_iter().map(|k| k.borrow().symbol()).collect())
        .collect();
    hands.join("/")
}

/// Parses one stack. Positions in errors count from 1 within `text`.
pub fn parse_stack(text: &str) -> Result<Vec<Kind>, ParseError> {
    parse_hand(text, 0, 1)
}

/// Parses a deal `H1/H2[/H3...]` (2 to 10 hands). Hands may be empty here; whether an empty
/// hand is acceptable is the caller's rule (see `Position::new_deal`).
pub fn parse_deal(text: &str) -> Result<Vec<Vec<Kind>>, ParseError> {
    if text.trim().is_empty() {
        return Err(ParseError::Empty);
    }
    let mut hands = Vec::new();
    let mut offset = 0; // characters before this hand
    for (i, part) in text.split('/').enumerate() {
        hands.push(parse_hand(part, offset, i + 1)?);
        offset += part.chars().count() + 1;
    }
    match hands.len() {
        n if n < 2 => Err(ParseError::TooFewHands { found: n }),
        n if n > crate::MAX_PLAYERS => Err(ParseError::TooManyHands { found: n }),
        _ => Ok(hands),
    }
}

fn is_suit(c: char) -> bool {
    matches!(
        c,
        'C' | 'D'
            | 'H'
            | 'S'
            | 'c'
            | 'd'
            | 'h'
            | 's'
            | '♠'
            | '♥'
            | '♦'
            | '♣'
            | '♤'
            | '♡'
            | '♢'
            | '♧'
    )
}

fn is_separator(c: char) -> bool {
    c.is_whitespace() || c == ','
}

/// A hand that contains a suit is written in real cards; otherwise in symbols and digits. The two
/// cannot be mixed because `2` is a queen in Paulhus's digits and a plain two as a real card.
fn parse_hand(text: &str, offset: usize, hand: usize) -> Result<Vec<Kind>, ParseError> {
    let chars: Vec<char> = text.chars().collect();
    if chars.iter().any(|&c| is_suit(c)) {
        parse_real_cards(&chars, offset, hand)
    } else {
        parse_symbols(&chars, offset, hand)
    }
}

fn parse_symbols(chars: &[char], offset: usize, hand: usize) -> Result<Vec<Kind>, ParseError> {
    let mut cards = Vec::with_capacity(chars.len());
    for (i, &c) in chars.iter().enumerate() {
        if c.is_whitespace() {
            continue;
        }
        let kind = match c {
            '0'..='5' => Kind::from_index(c as usize - '0' as usize),
            _ => Kind::from_symbol(c),
        };
        match kind {
            Some(k) => cards.push(k),
            None => {
                return Err(ParseError::UnexpectedChar {
                    found: c,
                    at: offset + i + 1,
                    hand,
                });
            }
        }
    }
    Ok(cards)
}

fn parse_real_cards(chars: &[char], offset: usize, hand: usize) -> Result<Vec<Kind>, ParseError> {
    let mut cards = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let at = offset + i + 1;
        if is_separator(c) {
            i += 1;
            continue;
        }
        // A rank: 2..9, 10, T, or a face letter; `-` and `X` stand alone as in symbols.
        let (kind, width, needs_suit) = match c {
            '2'..='9' | 'T' | 't' => (Kind::Plain, 1, true),
            '1' if chars.get(i + 1) == Some(&'0') => (Kind::Plain, 2, true),
            '-' => (Kind::Plain, 1, false),
            _ => match Kind::from_symbol(c) {
                Some(k) => (k, 1, false),
                None if is_suit(c) => return Err(ParseError::StraySuit { found: c, at, hand }),
                None => return Err(ParseError::UnexpectedChar { found: c, at, hand }),
            },
        };
        i += width;
        match chars.get(i) {
            Some(&s) if is_suit(s) => i += 1,
            _ if needs_suit => {
                let found: String = chars[i - width..i].iter().collect();
                return Err(ParseError::MissingSuit { found, at, hand });
            }
            _ => {}
        }
        cards.push(kind);
    }
    Ok(cards)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[track_caller]
    fn check(text: &str, expected: &str) {
        let hands = parse_deal(text).unwrap();
        assert_eq!(format_deal(&hands), expected, "{text}");
    }

    #[track_caller]
    fn check_err(text: &str, expected: &str) {
        let err = parse_deal(text).unwrap_err().to_string();
        assert!(err.contains(expected), "{text}: got {err}");
    }

    #[test]
    fn symbols_digits_and_real_cards() {
        check("--K---A----AAJ-/J-", "--K---A----AAJ-/J-");
        check("--k-- -a/j-", "--K---A/J-");
        check("100020000320/0401", "J---Q----KQ-/-A-J");
        check("9C 3D JH 8S/10h Q♠ A♦", "--J-/-QA");
        check("9c3dJh/10H,T♣,K♥", "--J/--K");
        check("X-5/--", "X-X/--");
        check("-/-/-/J", "-/-/-/J");
        check("-/", "-/");
    }

    #[test]
    fn errors_name_character_and_position() {
        check_err("--Z-/J-", "unexpected character 'Z' at position 3 (hand 1)");
        check_err("---/J-7", "unexpected character '7' at position 7 (hand 2)");
        check_err("9C 8/J-", "'8' at position 4 (hand 1) has no suit");
        check_err("9C 1H/J", "unexpected character '1' at position 4");
        check_err("C9/J", "unexpected suit 'C' at position 1");
        check_err("--K", "at least 2 hands");
        check_err("", "empty");
        check_err("-/-/-/-/-/-/-/-/-/-/-", "at most 10 hands, found 11");
    }
}
