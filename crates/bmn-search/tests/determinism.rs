//! A search's result is a function of (seed, games) only: the same for 1 and 2 threads, and a
//! run stopped early equals the run of the games it kept.

use std::sync::atomic::AtomicBool;

use bmn_core::Deck;
use bmn_job::Job;
use bmn_kernel::{Choice, DEFAULT_MAX_TRICKS, Kernel};
use bmn_search::{DealSource, Engine, GAMES_PER_UNIT, SearchConfig, search};

/// The fastest kernel this CPU runs for `deck`'s deals.
fn fastest(deck: &str) -> Kernel {
    let deck = Deck::parse(deck).unwrap();
    Engine::kernel_for(Choice::Fastest, &deck, DEFAULT_MAX_TRICKS).unwrap()
}

fn config(deck: &str, balanced: bool, seed: u64) -> SearchConfig {
    SearchConfig {
        seed,
        source: DealSource::new(Deck::parse(deck).unwrap(), balanced).unwrap(),
        top: 10,
        engine: Engine::Kernel(fastest(deck)),
        max_tricks: DEFAULT_MAX_TRICKS,
    }
}

#[test]
fn same_result_for_any_thread_count() {
    for (deck, balanced) in [
        ("standard", false),
        ("standard", true),
        ("2J,2Q,2K,2A,8-", false),
    ] {
        let c = config(deck, balanced, 42);
        let games = Some(3 * GAMES_PER_UNIT + 123);
        let one = search(
            &c,
            games,
            1,
            &mut Job::quiet(&AtomicBool::new(false)),
            |_, _| true,
        );
        let two = search(
            &c,
            games,
            2,
            &mut Job::quiet(&AtomicBool::new(false)),
            |_, _| true,
        );
        let three = search(
            &c,
            games,
            3,
            &mut Job::quiet(&AtomicBool::new(false)),
            |_, _| true,
        );
        assert_eq!(one.games, 3 * GAMES_PER_UNIT + 123);
        assert_eq!(one, two, "{deck}");
        assert_eq!(one, three, "{deck}");
        let other_seed = search(
            &config(deck, balanced, 43),
            games,
            2,
            &mut Job::quiet(&AtomicBool::new(false)),
            |_, _| true,
        );
        assert_ne!(one, other_seed);
    }
    // The 8-plain deck has cycling deals, found through the reference engine.
    let c = config("2J,2Q,2K,2A,8-", false, 42);
    assert!(
        search(
            &c,
            Some(GAMES_PER_UNIT),
            2,
            &mut Job::quiet(&AtomicBool::new(false)),
            |_, _| { true }
        )
        .cycling
            > 0
    );
}

#[test]
fn a_stopped_run_keeps_a_whole_prefix_of_units() {
    let c = config("standard", false, 7);
    let stopped = search(
        &c,
        None,
        2,
        &mut Job::quiet(&AtomicBool::new(false)),
        |_, s| s.games < 2 * GAMES_PER_UNIT,
    );
    assert!(stopped.games >= 2 * GAMES_PER_UNIT && stopped.games % GAMES_PER_UNIT == 0);
    let same = search(
        &c,
        Some(stopped.games),
        1,
        &mut Job::quiet(&AtomicBool::new(false)),
        |_, _| true,
    );
    assert_eq!(stopped, same);
}
