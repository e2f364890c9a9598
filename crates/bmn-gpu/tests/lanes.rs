//! Invocations that take work item after work item (as on a GPU, where 2^18 of them share a
//! batch) give the same games as one item per invocation. Its own process: the lane limit it
//! sets is the adapter's, and the other tests' long games would outrun llvmpipe's loop guard
//! under it.

use std::sync::atomic::AtomicBool;

use bmn_core::{Deck, Player};
use bmn_exhaustive::{AllDeals, Enumeration, MAX_TRICKS};
use bmn_kernel::Kernel;
use bmn_search::Engine;
use bmn_search::device::{Device, DevicePlayer};

mod common;
use common::gpu;

#[test]
fn lanes_that_take_many_items_equal_the_cpu() {
    let Some(gpu) = gpu() else { return };
    gpu.limit_lanes(7);
    gpu.limit_dispatch(500);
    for (spec, leader) in [("2J,2Q,6-", 1), ("1J,1Q,1K,1A,6-", 0)] {
        let run = |engine: Engine| {
            let deals = AllDeals::new(Deck::parse(spec).unwrap(), Player(leader)).unwrap();
            let e = Enumeration {
                range: 1..deals.count(),
                deals,
                engine,
                max_tricks: MAX_TRICKS,
                list_cycles: true,
            };
            let mut p = e.start();
            e.run(&mut p, 2, &AtomicBool::new(false), |_, _| true);
            p.summary
        };
        let cpu = run(Engine::Kernel(Kernel::Portable));
        let on_gpu = run(Engine::Kernel(Kernel::Portable).on_device(Device(gpu), false));
        assert_eq!(on_gpu, cpu, "{spec}");
        assert!(cpu.games > 1000);
    }
    assert_eq!(gpu.first_error(), None);
}
