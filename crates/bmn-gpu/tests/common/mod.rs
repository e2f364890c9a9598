//! What the GPU tests share: the adapter they run on, and an enumeration to compare engines.

use std::sync::atomic::AtomicBool;

use bmn_core::{Deck, Player};
use bmn_exhaustive::{AllDeals, Enumeration, MAX_TRICKS};
use bmn_gpu::{Gpu, Tuning};
use bmn_job::Job;
use bmn_kernel::Played;
use bmn_search::device::{DeviceBatch, DeviceDeals, DevicePlayer};
use bmn_search::{DealIndex, Engine, Summary};

/// The first adapter, or `None` (after a line on stderr) where there is none.
pub fn gpu() -> Option<&'static Gpu> {
    match bmn_gpu::open(0) {
        Ok(gpu) => Some(gpu),
        Err(e) if std::env::var_os("BMN_REQUIRE_GPU").is_none() => {
            eprintln!("SKIPPED: no GPU adapter ({e}); set BMN_REQUIRE_GPU to fail instead");
            None
        }
        Err(e) => panic!("BMN_REQUIRE_GPU is set and {e}"),
    }
}

/// The first adapter opened on its own, played as `tuning` says (a test's own schedule, which
/// no other test sees), or `None` as [`gpu`]. It lives as long as the test process, as a
/// [`bmn_search::device::Device`] asks.
#[allow(dead_code)] // not every test file tunes its GPU
pub fn tuned(tuning: Tuning) -> Option<&'static Gpu> {
    gpu()?;
    let gpu = Gpu::tuned(0, tuning).expect("the adapter opened once opens again");
    Some(Box::leak(Box::new(gpu)))
}

/// Every deal of `deck` with `leader` (0 or 1) leading but the first `trim.0` and the last
/// `trim.1`, each cycling deal listed, on `engine`.
pub fn enumerate(
    deck: &str,
    leader: usize,
    trim: (DealIndex, DealIndex),
    engine: Engine,
) -> Summary {
    let deals = AllDeals::new(Deck::parse(deck).unwrap(), Player(leader)).unwrap();
    let e = Enumeration {
        range: trim.0..deals.count() - trim.1,
        deals,
        engine,
        max_tricks: MAX_TRICKS,
        list_cycles: true,
    };
    let mut p = e.start();
    e.run(
        &mut p,
        2,
        &mut Job::quiet(&AtomicBool::new(false)),
        |_, _, _| true,
    );
    assert!(e.is_complete(&p));
    p.summary
}

/// `deals` (whole deals, player 1's `first_hand` cards first) played in one batch on the GPU,
/// `leader` (0 or 1) leading each, capped at `max_tricks`.
#[allow(dead_code)] // not every test file lists deals
pub fn play_listed(
    gpu: &Gpu,
    deals: &[Vec<u8>],
    first_hand: usize,
    leader: u8,
    max_tricks: u32,
) -> Vec<Played> {
    let batch = DeviceBatch {
        deals: DeviceDeals::Arrangements {
            starts: deals.concat(),
            per_start: 1,
        },
        count: deals.len(),
        len: deals[0].len(),
        first_hand,
        leader,
        max_tricks,
    };
    let mut out = vec![Played::default(); deals.len()];
    assert_eq!(gpu.play(&batch, &mut out, true), Ok(true));
    out
}
