//! Differential tests: every kernel against the plain card-by-card oracle on >= 10^5 deals.

mod common;

use bmn_deals::{STANDARD_DECK, deal_range};
use bmn_kernel::cardwise::play_cardwise;
use bmn_kernel::{Kernel, Played, play, play_many, play_to_position};
use common::{TestRng, deck, kernels_for, oracle};

/// Plays `count` shuffles of `cards`, split at `split`, player 1 leading, with cap `cap`,
/// through the oracle, the scalar kernel, the card-wise loop and every batch kernel.
#[track_caller]
fn compare(rng: &mut TestRng, cards: &[u8], split: usize, count: usize, cap: u32) {
    let n = cards.len();
    let mut flat = Vec::with_capacity(count * n);
    let mut expected = Vec::with_capacity(count);
    for _ in 0..count {
        let mut d = cards.to_vec();
        rng.shuffle(&mut d);
        let e = oracle(&d[..split], &d[split..], 0, cap);
        assert_eq!(play(&d[..split], &d[split..], 0, cap), e, "scalar on {d:?}");
        assert_eq!(
            play_cardwise(&d[..split], &d[split..], 0, cap),
            e,
            "cardwise on {d:?}"
        );
        // Player 2 leading, through the scalar kernel.
        let e2 = oracle(&d[..split], &d[split..], 1, cap);
        assert_eq!(
            play(&d[..split], &d[split..], 1, cap),
            e2,
            "scalar, p2 leads, on {d:?}"
        );
        flat.extend_from_slice(&d);
        expected.push(e);
    }
    for kernel in kernels_for(&flat, n, split, cap) {
        let mut out = vec![Played::default(); count];
        play_many(kernel, &flat, n, split, cap, &mut out);
        for (i, (got, want)) in out.iter().zip(&expected).enumerate() {
            assert_eq!(
                got,
                want,
                "{} on {:?}",
                kernel.name(),
                &flat[i * n..(i + 1) * n]
            );
        }
    }
}

#[test]
fn standard_deck_26_26() {
    let mut rng = TestRng(0x1234_5678_9abc_def1);
    compare(&mut rng, &STANDARD_DECK, 26, 40_000, 3000);
}

#[test]
fn reduced_decks_paulhus() {
    // 2 J, 2 Q, 2 K, 2 A and n plain cards: short games and many cycles.
    let mut rng = TestRng(77);
    for plain in 0..=24 {
        let d = deck(plain, 2, &[1, 2, 3, 4]);
        compare(&mut rng, &d, d.len() / 2, 1_200, 200);
    }
}

#[test]
fn unbalanced_hands_and_jokers() {
    let mut rng = TestRng(991);
    compare(&mut rng, &STANDARD_DECK, 30, 8_000, 3000);
    compare(&mut rng, &STANDARD_DECK, 22, 8_000, 3000);
    compare(&mut rng, &STANDARD_DECK, 51, 2_000, 3000);
    let mut jokers = STANDARD_DECK.to_vec();
    jokers.extend([5, 5]);
    compare(&mut rng, &jokers, 27, 10_000, 3000);
}

#[test]
fn random_compositions_up_to_64_cards_and_small_caps() {
    let mut rng = TestRng(4242);
    for _ in 0..300 {
        let n = 1 + rng.below(64);
        let cards = rng.cards(n);
        let split = rng.below(n + 1);
        let cap = rng.below(60) as u32;
        compare(&mut rng, &cards, split, 60, cap);
    }
}

#[test]
fn cards_are_conserved() {
    let mut rng = TestRng(5150);
    for i in 0..20_000 {
        let n = 2 + rng.below(63);
        let cards = rng.cards(n);
        let split = rng.below(n + 1);
        let cap = if i % 2 == 0 {
            rng.below(40) as u32
        } else {
            3000
        };
        let (p1, p2) = cards.split_at(split);
        let (o, pos) = play_to_position(p1, p2, (i % 2) as u8, cap);
        let mut before = [0usize; 6];
        let mut after = [0usize; 6];
        cards.iter().for_each(|&c| before[c as usize] += 1);
        pos.hand(0)
            .iter()
            .chain(pos.hand(1))
            .for_each(|&c| after[c as usize] += 1);
        assert_eq!(before, after, "{cards:?} split {split}");
        assert_eq!(o, play(p1, p2, (i % 2) as u8, cap));
        match o {
            Played::Finished { winner, .. } if !p1.is_empty() && !p2.is_empty() => {
                assert_eq!(pos.hand(winner as usize).len(), n);
            }
            Played::Capped { tricks, .. } => {
                assert_eq!(tricks, cap);
                // Continuing from the capped position must agree with the oracle's game.
                let rest = oracle(pos.hand(0), pos.hand(1), pos.leader, 3000);
                let full = oracle(p1, p2, (i % 2) as u8, cap + 3000);
                let shifted = match rest {
                    Played::Finished {
                        winner,
                        cards,
                        tricks,
                    } => Played::Finished {
                        winner,
                        cards: cards + o.cards(),
                        tricks: tricks + cap,
                    },
                    Played::Capped { cards, tricks } => Played::Capped {
                        cards: cards + o.cards(),
                        tricks: tricks + cap,
                    },
                };
                assert_eq!(shifted, full);
            }
            _ => {}
        }
    }
}

#[test]
fn dealt_games_match_the_oracle() {
    // The crate's own dealer feeding the batch kernels, as the search will use them.
    let count = 5_000;
    let mut flat = vec![0u8; count * 52];
    deal_range(31337, 1_000_000, &STANDARD_DECK, &mut flat);
    for kernel in kernels_for(&flat, 52, 26, 3000) {
        let mut out = vec![Played::default(); count];
        play_many(kernel, &flat, 52, 26, 3000, &mut out);
        for (d, o) in flat.chunks_exact(52).zip(&out) {
            assert_eq!(*o, oracle(&d[..26], &d[26..], 0, 3000), "{}", kernel.name());
        }
    }
}

#[test]
fn both_sides_of_the_queue_encoding_limit() {
    // Deals of at most 21 penalty cards run on the queue encoding, others on bit planes
    // (scalar and lockstep alike): both sides of the switch, and a 64-card deck.
    let mut rng = TestRng(2121);
    for (plain, per) in [(31, 5), (30, 5), (36, 6), (39, 6), (34, 6)] {
        let d = deck(plain, per, &[1, 2, 3, 4]);
        let penalty = 4 * per;
        let d: Vec<u8> = if penalty == 20 || penalty == 24 {
            d.into_iter().chain([5]).collect() // 21 or 25 with a joker
        } else {
            d
        };
        compare(&mut rng, &d, d.len() / 2, 3_000, 3000);
    }
}

#[test]
fn both_sides_of_the_narrow_lanes_limits() {
    // AVX-512 plays decks of at most 30 cards and 10 penalty cards on 32-bit lanes when the
    // cap keeps `cards | tricks << 17` in range; everything else on 64-bit lanes. Both sides
    // of each limit: 10 and 11 penalty cards, 30 and 31 cards, the largest cap for 30 cards
    // (4369 * 30 < 2^17) and the next, the largest cap of all (8191) and the next.
    let mut rng = TestRng(3030);
    for (plain, penalty) in [(20, 10), (19, 11), (21, 10), (20, 11), (4, 10), (0, 10)] {
        let mut d = vec![0u8; plain];
        d.extend((0..penalty).map(|i| 1 + (i % 5) as u8));
        for cap in [1, 7, 200, 4369, 4370, 8191, 8192] {
            compare(&mut rng, &d, d.len() / 2, 1_500, cap);
        }
        compare(&mut rng, &d, 1 + d.len() / 3, 1_500, 1000);
    }
}

#[test]
fn a_batch_that_outgrows_the_narrow_lanes_midway() {
    // Deals of 10 penalty cards, then one of 11: the batch's shape is the 11's, so the narrow
    // lanes are not chosen for it, and given it they refuse it whole.
    let mut rng = TestRng(1011);
    let mut flat = Vec::new();
    let mut expected = Vec::new();
    for i in 0..5_000 {
        let penalty = if i == 4_000 { 11 } else { 10 };
        let mut d = vec![0u8; 28 - penalty];
        d.extend((0..penalty).map(|j| 1 + (j % 4) as u8));
        rng.shuffle(&mut d);
        expected.push(oracle(&d[..14], &d[14..], 0, 1000));
        flat.extend_from_slice(&d);
    }
    let kernels = kernels_for(&flat, 28, 14, 1000);
    assert!(!kernels.contains(&Kernel::Avx512Stream16));
    for kernel in kernels {
        let mut out = vec![Played::default(); expected.len()];
        play_many(kernel, &flat, 28, 14, 1000, &mut out);
        assert_eq!(out, expected, "{}", kernel.name());
    }
    if Kernel::Avx512Stream16.is_available() {
        let refused = std::panic::catch_unwind(|| {
            let mut out = vec![Played::default(); expected.len()];
            play_many(Kernel::Avx512Stream16, &flat, 28, 14, 1000, &mut out);
        });
        assert!(
            refused.is_err(),
            "a deal of 11 penalty cards on the narrow lanes"
        );
    }
}

/// Every batch kernel against the scalar one (itself checked against the oracle above) on
/// millions of dealt games: the standard deck (the wide lanes' long games), Camicia's deck
/// and Paulhus's n = 16 deck (the narrow lanes' short ones), in batches of the search's size.
/// Every kernel this CPU runs plays each deck it takes; the kernels it cannot run are named
/// (`-- --nocapture`).
#[test]
fn millions_of_dealt_games_agree_with_the_scalar_kernel() {
    common::say_untested();
    let mut tested = std::collections::BTreeSet::new();
    for (cards, count) in [
        (STANDARD_DECK.to_vec(), 2_000_000),
        (deck(28, 4, &[1, 2, 3]), 1_000_000),
        (deck(16, 2, &[1, 2, 3, 4]), 1_000_000),
    ] {
        let n = cards.len();
        let mut flat = vec![0u8; 65_536 * n];
        let mut want = vec![Played::default(); 65_536];
        let mut got = want.clone();
        for first in (0..count).step_by(65_536) {
            deal_range(52, first as u64, &cards, &mut flat);
            play_many(Kernel::ScalarPlanes, &flat, n, n / 2, 3000, &mut want);
            for kernel in kernels_for(&flat, n, n / 2, 3000) {
                tested.insert(kernel);
                play_many(kernel, &flat, n, n / 2, 3000, &mut got);
                if let Some(i) = (0..want.len()).find(|&i| got[i] != want[i]) {
                    panic!(
                        "{} on {:?}: {:?}, scalar-planes {:?}",
                        kernel.name(),
                        &flat[i * n..(i + 1) * n],
                        got[i],
                        want[i]
                    );
                }
            }
        }
    }
    let available: std::collections::BTreeSet<Kernel> =
        Kernel::all_available().into_iter().collect();
    assert_eq!(
        tested, available,
        "every kernel this CPU runs played some deck"
    );
}
