//! The kernel and the reference engine agree wherever both apply: the same deals give the
//! same statistics and the same search summary on either, for uniform and balanced deals.

use std::sync::atomic::AtomicBool;

use bmn_core::{Deck, Rules};
use bmn_kernel::{DEFAULT_MAX_TRICKS, Kernel};
use bmn_search::{DEFAULT_GIVE_UP, DealSource, Engine, SearchConfig, Stats, search, stream};

fn config(deck: &str, balanced: bool, engine: Engine) -> SearchConfig {
    SearchConfig {
        seed: 2026,
        source: DealSource::new(Deck::parse(deck).unwrap(), balanced).unwrap(),
        top: 5,
        engine,
        max_tricks: DEFAULT_MAX_TRICKS,
    }
}

const REFERENCE: Engine = Engine::Reference {
    rules: Rules::STANDARD,
    give_up: DEFAULT_GIVE_UP,
};

#[test]
fn kernel_and_reference_give_the_same_statistics() {
    // The 10-card deck has cycles (golden fixtures), so the cycle hand-over is covered too.
    for (deck, balanced, games) in [
        ("standard", false, 30_000),
        ("standard", true, 20_000),
        ("2J,2Q,6-", false, 20_000),
    ] {
        let run = |engine| {
            stream(
                &config(deck, balanced, engine),
                Some(games),
                2,
                &AtomicBool::new(false),
                &Stats::default(),
                |_| true,
            )
        };
        let fast = run(Engine::Kernel(Kernel::best_available()));
        let slow = run(REFERENCE);
        assert_eq!(fast, slow, "{deck}");
        assert_eq!(fast.games, games);
        if deck == "2J,2Q,6-" {
            assert!(fast.cycling > 0);
        }
    }
}

#[test]
fn kernel_and_reference_give_the_same_search() {
    let games = Some(20_000);
    let stop = AtomicBool::new(false);
    let fast = search(
        &config("standard", false, Engine::Kernel(Kernel::Portable)),
        games,
        2,
        &stop,
        |_| true,
    );
    let slow = search(
        &config("standard", false, REFERENCE),
        games,
        2,
        &stop,
        |_| true,
    );
    assert_eq!(fast, slow);
}
