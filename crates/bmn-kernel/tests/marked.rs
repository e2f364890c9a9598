//! Deals handed to the kernels by their penalty cards (`Dealer::batch_marked`,
//! `KernelBuffers::play_marked`): the same deals as `Dealer::batch` lays out, and the same
//! results on every kernel as the laid-out deals give; malformed pairs refused.

mod common;

use bmn_deals::{STANDARD_DECK, Stream};
use bmn_kernel::dealer::Dealer;
use bmn_kernel::{KernelBuffers, Marked, Played, play_many};
use common::{deck, kernels_for};

/// Deals `count` deals of `cards` from deal `first` of `seed` both ways and checks that they
/// are the same deals and play the same on every kernel that takes them.
#[track_caller]
fn same_deals_and_games(cards: &[u8], split: usize, seed: u64, first: u64, count: usize) {
    let n = cards.len();
    let dealer = Dealer::new(Stream::V2, cards);
    let mut laid = vec![0u8; count * n];
    dealer.batch(seed, first, &mut laid);
    let mut marked = Marked::with_len(count);
    assert!(dealer.batch_marked(seed, first, &mut marked));
    let background = dealer.sampler().expect("stream 2").background();
    assert_eq!(background, 0, "a deck whose background is plain");
    for (d, deal) in laid.chunks_exact(n).enumerate() {
        let (mut mask, mut code) = (0u64, 0u64);
        for (i, &c) in deal.iter().enumerate().rev() {
            if c != background {
                mask |= 1 << i;
                code = code << 3 | u64::from(c);
            }
        }
        assert_eq!(marked.get(d), (mask, code), "deal {}", first + d as u64);
    }
    let mut buffers = KernelBuffers::default();
    for kernel in kernels_for(&laid, n, split, 3000) {
        let mut want = vec![Played::default(); count];
        play_many(kernel, &laid, n, split, 3000, &mut want);
        let mut got = vec![Played::default(); count];
        buffers.play_marked(kernel, &marked, n, split, 3000, &mut got);
        assert_eq!(got, want, "{}", kernel.name());
    }
}

#[test]
fn marked_deals_are_the_laid_out_deals_and_play_the_same() {
    // Whole groups of lanes and a ragged end; deals that redraw a group turn up in 10^4.
    same_deals_and_games(&STANDARD_DECK, 26, 2026, 0, 10_000 + 5);
    same_deals_and_games(&STANDARD_DECK, 26, 7, u64::MAX - 40, 37);
    // Camicia's composition (40 cards, four each of three penalty kinds), Paulhus's n = 16,
    // one penalty card in ten.
    same_deals_and_games(&deck(28, 4, &[1, 2, 3]), 20, 3, 123, 4_003);
    same_deals_and_games(&deck(16, 2, &[1, 2, 3, 4]), 12, 5, 9, 1_000);
    same_deals_and_games(&deck(9, 1, &[1]), 4, 1, 0, 100);
}

#[test]
fn stream_1_has_no_marked_deals() {
    let dealer = Dealer::new(Stream::V1, &STANDARD_DECK);
    assert!(!dealer.batch_marked(1, 0, &mut Marked::with_len(8)));
}

/// Every build refuses a penalty card past the deal; a debug build (the tests') refuses bad
/// codes too.
#[test]
fn a_pair_that_is_no_deal_is_refused() {
    let kernel = bmn_kernel::Kernel::ScalarQueue;
    let mut bad = vec![(1u64 << 52, 1u64)]; // a penalty card past the deal's 52 cards
    if cfg!(debug_assertions) {
        bad.extend([
            (0b11, 0b001),    // a penalty card without a code
            (0b1, 0b000),     // a code of 0
            (0b1, 0b110),     // a code of 6
            (0b1, 0b001_001), // a code past the last penalty card
        ]);
    }
    for (mask, code) in bad {
        let caught = std::panic::catch_unwind(|| {
            let mut out = [Played::default()];
            let mut deal = Marked::with_len(1);
            let (masks, codes) = deal.parts_mut();
            (masks[0], codes[0]) = (mask, code);
            KernelBuffers::default().play_marked(kernel, &deal, 52, 26, 3000, &mut out);
        });
        assert!(caught.is_err(), "{mask:#b} {code:#o}");
    }
}
