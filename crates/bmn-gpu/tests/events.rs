//! The event kernel (`events.wgsl`) at its edges: games that end on their first event, games
//! capped after a few tricks, lanes that take game after game from the queue as on a GPU, and
//! the decks it leaves to the trick kernel; its lane-step counter. Each test tunes a GPU of its
//! own.

use bmn_core::{Deck, Player};
use bmn_exhaustive::{AllDeals, MAX_TRICKS};
use bmn_gpu::{Gpu, Tuning};
use bmn_kernel::Kernel;
use bmn_kernel::{DEFAULT_MAX_TRICKS, Played};
use bmn_search::device::{Device, DevicePlayer, Digest, DigestSpec};
use bmn_search::{DealSource, Deals, Engine};

mod common;
use common::{enumerate, play_listed, tuned};

/// The CPU kernel's results for the same games, in the device's terms (the winner counted
/// from the leader).
fn on_cpu(deals: &[Vec<u8>], first_hand: usize, leader: u8, max: u32) -> Vec<Played> {
    deals
        .iter()
        .map(|d| {
            let (p1, p2) = d.split_at(first_hand);
            let (lead, other) = if leader == 0 { (p1, p2) } else { (p2, p1) };
            bmn_kernel::play(lead, other, 0, max)
        })
        .collect()
}

/// Plays `deals` on the GPU (checking the CPU agrees) and says how many lane-steps of the
/// event kernel that took.
fn steps_of(gpu: &Gpu, deals: &[Vec<u8>], first_hand: usize) -> u64 {
    let before = gpu.lane_steps().played;
    let got = play_listed(gpu, deals, first_hand, 0, DEFAULT_MAX_TRICKS);
    assert_eq!(got, on_cpu(deals, first_hand, 0, DEFAULT_MAX_TRICKS));
    gpu.lane_steps().played - before
}

#[test]
fn edges_of_the_event_kernel_equal_the_cpu_kernel() {
    for queue in [false, true] {
        let tuning = Tuning {
            from_queue: Some(queue),
            ..Tuning::default()
        };
        let Some(gpu) = tuned(tuning) else { return };
        // Games over at the first event: the leader runs out (a one-card hand), the follower
        // runs out, a penalty card paid off with the payer's last card; and a long game.
        let deals: Vec<Vec<u8>> = vec![
            vec![0, 0, 0, 1],
            vec![0, 0, 1, 0],
            vec![0, 1, 0, 0],
            vec![1, 0, 0, 0],
            vec![4, 0, 0, 0, 3, 0],
        ];
        for first_hand in 1..4 {
            for leader in [0, 1] {
                let deals: Vec<Vec<u8>> = deals
                    .iter()
                    .filter(|d| d.len() > first_hand)
                    .cloned()
                    .collect();
                for d in &deals {
                    let one = std::slice::from_ref(d);
                    let want = on_cpu(one, first_hand, leader, DEFAULT_MAX_TRICKS);
                    assert_eq!(
                        play_listed(gpu, one, first_hand, leader, DEFAULT_MAX_TRICKS),
                        want,
                        "{d:?}, {first_hand} to player 1, leader {leader}, queue {queue}"
                    );
                }
            }
        }
        // Standard deals capped after 1, 2 and 7 tricks (almost all capped, each lane taking
        // many games), both leaders.
        let source = DealSource::new(Deck::STANDARD, false).unwrap();
        let mut deals = vec![vec![0u8; 52]; 3_000];
        for (k, d) in deals.iter_mut().enumerate() {
            source.deal(5, k as u64, d);
        }
        for max in [1, 2, 7] {
            for leader in [0, 1] {
                let got = play_listed(gpu, &deals, 26, leader, max);
                assert_eq!(
                    got,
                    on_cpu(&deals, 26, leader, max),
                    "cap {max}, queue {queue}"
                );
                assert!(got.iter().any(|p| matches!(p, Played::Capped { .. })));
            }
        }
    }
}

#[test]
fn lanes_that_take_games_from_the_queue_equal_the_cpu() {
    let queue = |lanes, dispatch| Tuning {
        from_queue: Some(true),
        lanes: Some(lanes),
        dispatch,
        ..Tuning::default()
    };
    let Some(gpu) = tuned(queue(37, Some(3_000))) else {
        return;
    };
    // Camicia's ranks across dispatches of 3,000 games on 37 lanes: each lane takes about 80
    // games, refilling mid-batch; and a digest of standard deals on 100 lanes.
    let all = AllDeals::new(Deck::CAMICIA, Player(1)).unwrap();
    let first = 12_345_678_901;
    let batch = all.device_deals(first, 9_000, MAX_TRICKS).unwrap();
    let mut got = vec![Played::default(); 9_000];
    assert_eq!(gpu.play(&batch, &mut got, true), Ok(true));
    let mut codes = vec![0u8; 9_000 * all.deal_len()];
    all.fill(first, &mut codes);
    let deals: Vec<Vec<u8>> = codes.chunks(all.deal_len()).map(<[u8]>::to_vec).collect();
    // `fill` writes the leader's hand first, as the kernels take it.
    let want = on_cpu(&deals, all.split(), 0, MAX_TRICKS);
    let wrong = got.iter().zip(&want).position(|(g, w)| g != w);
    assert_eq!(
        wrong,
        None,
        "{:?}",
        wrong.map(|i| (&deals[i], got[i], want[i]))
    );
    let source = DealSource::new(Deck::STANDARD, false).unwrap();
    let batch = source
        .device_deals(3, 0, 20_000, DEFAULT_MAX_TRICKS)
        .unwrap();
    let gpu = tuned(queue(100, None)).unwrap();
    let spec = DigestSpec {
        bin: 50,
        keep_cards: 1_000,
        lengths: false,
    };
    let digest = gpu.digest(&batch, spec, true).unwrap().unwrap();
    // A small deck whose games often cycle, so that lanes hold capped games while others
    // refill, its cycling deals listed one by one.
    let small = tuned(queue(5, Some(700))).unwrap();
    let cpu = enumerate("2J,2Q,6-", 1, (2, 3), Engine::Kernel(Kernel::ScalarPlanes));
    let engine = Engine::Kernel(Kernel::ScalarPlanes).on_device(Device(small), false);
    assert_eq!(enumerate("2J,2Q,6-", 1, (2, 3), engine), cpu);
    assert!(cpu.cycling > 0);
    let mut played = vec![Played::default(); 20_000];
    let own_share = tuned(Tuning {
        from_queue: Some(false),
        ..Tuning::default()
    })
    .unwrap();
    assert_eq!(own_share.play(&batch, &mut played, true), Ok(true));
    assert_eq!(digest, Digest::of(&played, spec));
    assert_eq!(gpu.first_error(), None);
}

#[test]
fn the_event_kernel_plays_what_its_encoding_holds_and_counts_its_steps() {
    let Some(gpu) = tuned(Tuning::default()) else {
        return;
    };
    let deals = |spec: &str| -> (Vec<Vec<u8>>, usize) {
        let all = AllDeals::new(Deck::parse(spec).unwrap(), Player(0)).unwrap();
        let step = all.count() / 500;
        let deals = (0..500).map(|i| all.deal(i * step).codes()).collect();
        (deals, all.split())
    };
    // 16 penalty cards, no jokers: the event kernel, a penalty card (and its payoff) a step.
    let (standard, split) = deals("4J,4Q,4K,4A,36-");
    let steps = steps_of(gpu, &standard, split);
    assert!(
        steps > 500 * 20,
        "{steps} lane-steps for 500 standard games"
    );
    // Jokers, or more than 16 penalty cards: the trick kernel, no lane-steps counted.
    for spec in ["2J,2Q,2K,2A,3X,20-", "5J,5Q,5K,5A,10-"] {
        let (d, split) = deals(spec);
        assert_eq!(steps_of(gpu, &d, split), 0, "{spec}");
    }
    let s = gpu.lane_steps();
    assert!(0 < s.played && s.played <= s.held, "{s:?}");
    assert!(s.played < s.events && s.events < 2 * s.played, "{s:?}");
}
