//! What the GPU tests share: the adapter they run on, and an enumeration to compare engines.

use std::sync::atomic::AtomicBool;

use bmn_core::{Deck, Player};
use bmn_exhaustive::{AllDeals, Enumeration, MAX_TRICKS};
use bmn_gpu::Gpu;
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
    e.run(&mut p, 2, &AtomicBool::new(false), |_, _| true);
    assert!(e.is_complete(&p));
    p.summary
}
