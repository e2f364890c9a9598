//! Invocations that take work item after work item (as on a GPU, where 2^18 of them share a
//! batch) give the same games as one item per invocation, on GPUs of their own tuned so.

use bmn_core::{Deck, Player};
use bmn_exhaustive::{AllDeals, MAX_TRICKS};
use bmn_gpu::Tuning;
use bmn_kernel::{Kernel, Played};
use bmn_search::device::{Device, DevicePlayer, Digest, DigestSpec};
use bmn_search::{Deals, Engine};

mod common;
use common::{enumerate, tuned};

#[test]
fn lanes_that_take_many_items_equal_the_cpu() {
    let tuning = Tuning {
        lanes: Some(7),
        dispatch: Some(500),
        ..Tuning::default()
    };
    let Some(gpu) = tuned(tuning) else { return };
    for (spec, leader) in [("2J,2Q,6-", 1), ("1J,1Q,1K,1A,6-", 0)] {
        let run = |engine: Engine| enumerate(spec, leader, (1, 0), engine);
        let cpu = run(Engine::Kernel(Kernel::ScalarPlanes));
        let on_gpu = run(Engine::Kernel(Kernel::ScalarPlanes).on_device(Device(gpu), false));
        assert_eq!(on_gpu, cpu, "{spec}");
        assert!(cpu.games > 1000);
    }
}

#[test]
fn a_driver_that_cuts_a_loop_short_gives_an_error_never_a_wrong_answer() {
    let one_lane = Tuning {
        lanes: Some(1),
        ..Tuning::default()
    };
    let Some(gpu) = tuned(one_lane) else { return };
    // One invocation plays 4,096 Camicia deals: llvmpipe's loop guard stops it part-way; a GPU
    // plays them all.
    let all = AllDeals::new(Deck::CAMICIA, Player(0)).unwrap();
    let n = 4096;
    let first = 97_000_000_000_000;
    let batch = all.device_deals(first, n, MAX_TRICKS).unwrap();
    let mut codes = vec![0u8; n * all.deal_len()];
    all.fill(first, &mut codes);
    let mut want = vec![Played::default(); n];
    let (len, split) = (all.deal_len(), all.split());
    bmn_kernel::play_many(
        Kernel::ScalarPlanes,
        &codes,
        len,
        split,
        MAX_TRICKS,
        &mut want,
    );
    let spec = DigestSpec {
        bin: 50,
        keep_cards: 500,
        lengths: false,
    };
    let mut got = vec![Played::default(); n];
    let played = gpu.play(&batch, &mut got, true);
    let digest = gpu.digest(&batch, spec, true);
    assert!(played.is_err() || got == want, "{played:?}");
    assert!(digest.is_err() || digest == Ok(Some(Digest::of(&want, spec))));
    println!(
        "one lane: play {:?}, digest {:?}",
        played.err(),
        digest.err()
    );
}
