//! Every fast kernel against bmn-core's reference engine: random deals of many decks, the golden fixtures.
//!
//! `BMN_DIFF_GAMES` scales the standard-deck run (default 10^5; the documented long run is
//! `BMN_DIFF_GAMES=10000000 cargo test --release -p bmn-search --test differential`).

use bmn_core::{Deck, Kind, Outcome, Player, Position, Rules, play_out};
use bmn_kernel::{DEFAULT_MAX_TRICKS, Kernel, Shape};
use bmn_search::{DealSource, exact};

fn hands(deal: &[u8], split: usize) -> Position {
    let hand = |h: &[u8]| {
        h.iter()
            .map(|&c| Kind::from_index(c.into()).unwrap())
            .collect()
    };
    let (a, b) = deal.split_at(split);
    Position::new(vec![hand(a), hand(b)], Player(0)).unwrap()
}

/// Plays `games` deals of `deck` (split after `split` cards, player 1 leads) through every
/// kernel and the reference engine; returns how many cycled.
#[track_caller]
fn check(deck: &str, split: Option<usize>, games: usize, seed: u64, max_tricks: u32) -> usize {
    let deck = Deck::parse(deck).unwrap();
    let len = deck.len() as usize;
    let split = split.unwrap_or(len.div_ceil(2));
    let codes: Vec<u8> = deck.cards().iter().map(|k| k.index() as u8).collect();
    let mut deals = vec![0u8; games * len];
    bmn_deals::deal_range(seed, 0, &codes, &mut deals);
    let reference: Vec<Outcome> = deals
        .chunks_exact(len)
        .map(|d| play_out(&Rules::STANDARD, &hands(d, split)))
        .collect();
    for kernel in Kernel::all_for(&Shape::of_batch(&deals, len, split, max_tricks)) {
        let mut out = vec![bmn_kernel::Played::default(); games];
        bmn_kernel::play_many(kernel, &deals, len, split, max_tricks, &mut out);
        for (i, ((d, &k), want)) in deals
            .chunks_exact(len)
            .zip(&out)
            .zip(&reference)
            .enumerate()
        {
            let got = exact(k, Player(0), || hands(d, split));
            assert_eq!(
                &got,
                want,
                "kernel {} deal {i} of {deck} split {split}",
                kernel.name()
            );
        }
    }
    reference
        .iter()
        .filter(|o| matches!(o, Outcome::Cycle(_)))
        .count()
}

#[test]
fn standard_deck() {
    let games = std::env::var("BMN_DIFF_GAMES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(100_000);
    check("standard", None, games, 1, DEFAULT_MAX_TRICKS);
}

#[test]
fn reduced_decks_with_cycles() {
    // Paulhus's decks: n = 6, 8, 10 have cycling deals; a low cap sends long games to the
    // reference engine's cycle detection through `exact`.
    let mut cycles = 0;
    for (n, seed) in [(0, 2), (2, 3), (4, 4), (6, 5), (8, 6), (10, 7), (16, 8)] {
        cycles += check(&format!("2J,2Q,2K,2A,{n}-"), None, 20_000, seed, 200);
    }
    assert!(cycles > 0, "the reduced decks should produce some cycles");
}

#[test]
fn other_decks_and_unbalanced_hands() {
    check("standard+jokers", None, 10_000, 9, DEFAULT_MAX_TRICKS);
    check("camicia", None, 10_000, 10, DEFAULT_MAX_TRICKS);
    check("1J,1Q,1K,1A,9-", None, 10_000, 11, DEFAULT_MAX_TRICKS);
    check("4J,4Q,4K,4A,40-", None, 5_000, 12, DEFAULT_MAX_TRICKS);
    check("standard", Some(30), 10_000, 13, DEFAULT_MAX_TRICKS);
    check("standard", Some(20), 10_000, 14, DEFAULT_MAX_TRICKS);
    check("standard", Some(51), 5_000, 15, DEFAULT_MAX_TRICKS);
}

#[test]
fn golden_through_every_kernel() {
    let golden = bmn_golden::load();
    let source = DealSource::new(Deck::STANDARD, false).unwrap();
    let records = golden
        .records
        .iter()
        .map(|r| (&r.name, &r.deal, r.leader, Some((r.cards, r.tricks))));
    let cycles = golden
        .cycles
        .iter()
        .map(|c| (&c.name, &c.deal, c.leader, None));
    for (name, deal, leader, length) in records.chain(cycles) {
        assert_eq!(leader, 1, "{name}: the kernels' deals are led by player 1");
        let start = Position::parse_deal(deal, Player(0)).unwrap();
        let want = play_out(&Rules::STANDARD, &start);
        if let (Some(length), Outcome::Finished { cards, tricks, .. }) = (length, &want) {
            assert_eq!(length, (*cards, *tricks), "{name}");
        }
        let codes = start.codes();
        let split = start.stack(Player(0)).len();
        assert_eq!(hands(&codes, split), start);
        if codes.len() == 52 {
            assert_eq!(
                source.position(&codes),
                start,
                "{name}: the search deals it the same way"
            );
        }
        let shape = Shape::of_batch(&codes, codes.len(), split, DEFAULT_MAX_TRICKS);
        for kernel in Kernel::all_for(&shape) {
            let mut out = [bmn_kernel::Played::default()];
            bmn_kernel::play_many(
                kernel,
                &codes,
                codes.len(),
                split,
                DEFAULT_MAX_TRICKS,
                &mut out,
            );
            let got = exact(out[0], Player(0), || hands(&codes, split));
            assert_eq!(got, want, "{name} through {}", kernel.name());
        }
    }
}
