//! The kernel and the reference engine agree wherever both apply: the same deals give the
//! same statistics and the same search summary on either, for uniform and balanced deals, on
//! both streams (stream 2's deals reach a streaming kernel by their penalty cards, laid out
//! only for the games that need their cards: capped ones and those kept).

use std::sync::atomic::AtomicBool;

use bmn_core::{Deck, Rules};
use bmn_deals::Stream;
use bmn_job::Job;
use bmn_kernel::{Choice, DEFAULT_MAX_TRICKS, Kernel};
use bmn_search::{DEFAULT_GIVE_UP, DealSource, Engine, SearchConfig, Stats, search, stream};

/// The fastest kernel this CPU runs for `deck`'s deals.
fn fastest(deck: &str) -> Kernel {
    let deck = Deck::parse(deck).unwrap();
    Engine::kernel_for(Choice::Fastest, &deck, DEFAULT_MAX_TRICKS).unwrap()
}

fn config(deck: &str, balanced: bool, engine: Engine) -> SearchConfig {
    on_stream(deck, balanced, engine, Stream::V1)
}

fn on_stream(deck: &str, balanced: bool, engine: Engine, stream: Stream) -> SearchConfig {
    SearchConfig {
        seed: 2026,
        source: DealSource::new(Deck::parse(deck).unwrap(), balanced)
            .unwrap()
            .with_stream(stream),
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
    for (deck, balanced, games, which) in [
        ("standard", false, 30_000, Stream::V1),
        ("standard", true, 20_000, Stream::V1),
        ("2J,2Q,6-", false, 20_000, Stream::V1),
        ("standard", false, 30_000, Stream::V2),
        ("standard", true, 20_000, Stream::V2),
        ("2J,2Q,6-", false, 20_000, Stream::V2),
    ] {
        let run = |engine| {
            stream(
                &on_stream(deck, balanced, engine, which),
                Some(games),
                2,
                &mut Job::quiet(&AtomicBool::new(false)),
                &Stats::default(),
                |_, _| true,
            )
        };
        let fast = run(Engine::Kernel(fastest(deck)));
        let slow = run(REFERENCE);
        assert_eq!(fast, slow, "{deck} on {which:?}");
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
        &config("standard", false, Engine::Kernel(Kernel::ScalarPlanes)),
        games,
        2,
        &mut Job::quiet(&stop),
        |_, _| true,
    );
    let slow = search(
        &config("standard", false, REFERENCE),
        games,
        2,
        &mut Job::quiet(&stop),
        |_, _| true,
    );
    assert_eq!(fast, slow);
    // Stream 2 on the fastest kernel (a streaming one where the CPU has one): the deals by
    // their penalty cards, the kept games' text from the deals laid out again.
    let fast = search(
        &on_stream(
            "standard",
            false,
            Engine::Kernel(fastest("standard")),
            Stream::V2,
        ),
        games,
        2,
        &mut Job::quiet(&stop),
        |_, _| true,
    );
    let slow = search(
        &on_stream("standard", false, REFERENCE, Stream::V2),
        games,
        2,
        &mut Job::quiet(&stop),
        |_, _| true,
    );
    assert_eq!(fast, slow);
}

/// A device that only adds games up: it plays each batch's stream deals on the CPU kernel and
/// returns their digest; asked for every game one by one, it refuses (so the run would fall
/// back to the CPU and `played_one_by_one` would say so).
struct DigestOnly {
    source: DealSource,
    played_one_by_one: std::sync::atomic::AtomicBool,
    guess: std::sync::atomic::AtomicU32,
}

impl bmn_search::device::DevicePlayer for DigestOnly {
    fn name(&self) -> &'static str {
        "digest-only"
    }

    fn play(
        &self,
        _: &bmn_search::device::DeviceBatch<'_>,
        _: &mut [bmn_kernel::Played],
        _: bool,
    ) -> Result<bool, bmn_search::device::DeviceError> {
        self.played_one_by_one
            .store(true, std::sync::atomic::Ordering::Relaxed);
        Err(bmn_search::device::DeviceError::BadBatch(
            "this device only adds games up".into(),
        ))
    }

    fn digest(
        &self,
        batch: &bmn_search::device::DeviceBatch<'_>,
        spec: bmn_search::device::DigestSpec,
        _: bool,
    ) -> Result<Option<bmn_search::device::Digest>, bmn_search::device::DeviceError> {
        let bmn_search::device::DeviceDeals::Stream { seed, first, .. } = batch.deals else {
            return Err(bmn_search::device::DeviceError::BadBatch(
                "streams only".into(),
            ));
        };
        let mut deal = vec![0u8; batch.len];
        let games: Vec<_> = (0..batch.count as u64)
            .map(|k| {
                self.source.deal(seed, first + k, &mut deal);
                let (p1, p2) = deal.split_at(batch.first_hand);
                bmn_kernel::play(p1, p2, 0, batch.max_tricks)
            })
            .collect();
        Ok(Some(bmn_search::device::Digest::of(&games, spec)))
    }

    fn digest_guess(&self) -> &std::sync::atomic::AtomicU32 {
        &self.guess
    }

    fn first_error(&self) -> Option<bmn_search::device::DeviceError> {
        None
    }

    fn batch_games(&self) -> u64 {
        5_000
    }
}

#[test]
fn statistics_on_a_device_are_added_up_there_and_equal_the_kernel_s() {
    // Short caps, so that many games come back capped for the exact hand-over, and a deck
    // whose games cycle.
    for (deck, max_tricks) in [
        ("standard", DEFAULT_MAX_TRICKS),
        ("standard", 40),
        ("2J,2Q,6-", 50),
    ] {
        let source = DealSource::new(Deck::parse(deck).unwrap(), false).unwrap();
        let device: &'static DigestOnly = Box::leak(Box::new(DigestOnly {
            source: source.clone(),
            played_one_by_one: AtomicBool::new(false),
            guess: std::sync::atomic::AtomicU32::new(0),
        }));
        let run = |engine| {
            let config = SearchConfig {
                max_tricks,
                ..config(deck, false, engine)
            };
            let stop = AtomicBool::new(false);
            stream(
                &config,
                Some(20_000),
                2,
                &mut Job::quiet(&stop),
                &Stats::default(),
                |_, _| true,
            )
        };
        let on_device = run(Engine::Kernel(Kernel::ScalarPlanes)
            .on_device(bmn_search::device::Device(device), false));
        assert_eq!(
            on_device,
            run(Engine::Kernel(Kernel::ScalarPlanes)),
            "{deck}, cap {max_tricks}"
        );
        assert!(
            !device
                .played_one_by_one
                .load(std::sync::atomic::Ordering::Relaxed)
        );
        assert_eq!(on_device.games, 20_000);
    }
}
