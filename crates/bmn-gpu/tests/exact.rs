//! The GPU kernel against the reference engine and the published figures, on whatever adapter
//! wgpu finds (lavapipe in CI). Without an adapter these tests say so and pass, unless
//! `BMN_REQUIRE_GPU` is set, as `.ci/run` sets it once it has installed lavapipe.

use std::sync::atomic::AtomicBool;

use bmn_core::{Deck, Outcome, Player, Position, Rules, play_out};
use bmn_exhaustive::{AllDeals, MAX_TRICKS};
use bmn_gpu::Tuning;
use bmn_job::Job;

mod common;
use bmn_kernel::{DEFAULT_MAX_TRICKS, Kernel, Played};
use bmn_search::device::{Device, DeviceDeals, DevicePlayer, Digest, DigestSpec};
use bmn_search::{DealSource, Deals, Engine, SearchConfig, Stats, Summary, search, stream};
use common::{enumerate, gpu, play_listed, tuned};

/// The reference engine's verdict in the kernel's terms (winner counted from the leader).
fn reference(position: &Position) -> Played {
    match play_out(&Rules::STANDARD, position) {
        Outcome::Finished {
            winner,
            cards,
            tricks,
        } if tricks <= u64::from(DEFAULT_MAX_TRICKS) => Played::Finished {
            winner: ((winner.index() + 2 - position.leader().index()) % 2) as u8,
            cards: cards as u32,
            tricks: tricks as u32,
        },
        // A cycle, or a game longer than the cap: the kernel stops at the cap.
        _ => Played::Capped {
            cards: 0,
            tricks: DEFAULT_MAX_TRICKS,
        },
    }
}

/// Capped games compare by their trick count alone (the reference engine gives no cards at the
/// cap), finished ones exactly.
fn same(gpu: Played, want: Played) -> bool {
    match (gpu, want) {
        (Played::Capped { tricks: a, .. }, Played::Capped { tricks: b, .. }) => a == b,
        _ => gpu == want,
    }
}

#[test]
fn a_million_random_standard_deals_equal_the_reference_engine() {
    let Some(gpu) = gpu() else { return };
    let seed = 20261125;
    for (balanced, games) in [(false, 1_000_000usize), (true, 100_000)] {
        let source = DealSource::new(Deck::STANDARD, balanced).unwrap();
        let batch = source
            .device_deals(seed, 0, games, DEFAULT_MAX_TRICKS)
            .unwrap();
        let mut out = vec![Played::default(); games];
        assert_eq!(gpu.play(&batch, &mut out, true), Ok(true));
        let mut deal = vec![0u8; 52];
        let mut wrong = Vec::new();
        for (k, &got) in out.iter().enumerate() {
            source.deal(seed, k as u64, &mut deal);
            let want = reference(&source.position(&deal));
            if !same(got, want) && wrong.len() < 5 {
                wrong.push(format!("deal {k}: gpu {got:?}, reference {want:?}"));
            }
        }
        assert!(
            wrong.is_empty(),
            "balanced {balanced}:\n{}",
            wrong.join("\n")
        );
    }
}

#[test]
fn stream_2_deals_on_the_device_as_on_the_cpu() {
    let Some(gpu) = gpu() else { return };
    // The standard deck whole and balanced, jokers, odd sizes, no plain cards, a single
    // marked card, 64 cards, and more than 16 penalty cards (the trick kernel's dealing).
    for (spec, balanced, games) in [
        ("standard", false, 200_000usize),
        ("standard", true, 50_000),
        ("2J,2Q,2K,2A,3X,20-", false, 20_000),
        ("1J,1Q,1K,1A,5-", false, 20_000),
        ("2J,2Q,2K,2A", false, 2_000),
        ("1A,9-", false, 2_000),
        ("4J,4Q,4K,4A,48-", false, 20_000),
        ("6J,6Q,6K,6A,28-", true, 20_000),
    ] {
        let source = DealSource::new(Deck::parse(spec).unwrap(), balanced)
            .unwrap()
            .with_stream(bmn_deals::Stream::V2);
        let batch = source
            .device_deals(2026, 7, games, DEFAULT_MAX_TRICKS)
            .unwrap();
        let mut out = vec![Played::default(); games];
        assert_eq!(gpu.play(&batch, &mut out, true), Ok(true), "{spec}");
        let mut deal = vec![0u8; source.len()];
        for (k, &got) in out.iter().enumerate() {
            source.deal(2026, 7 + k as u64, &mut deal);
            let (p1, p2) = deal.split_at(source.split());
            let want = bmn_kernel::play(p1, p2, 0, DEFAULT_MAX_TRICKS);
            assert!(
                same(got, want),
                "{spec}, deal {k}: gpu {got:?}, cpu {want:?}"
            );
        }
    }
}

#[test]
fn small_decks_and_both_leaders_equal_the_cpu_kernel() {
    let Some(gpu) = gpu() else { return };
    // Odd and even sizes, jokers, one-card hands, and decks of up to 64 cards.
    for spec in [
        "1J,1Q,1K,1A,5-",
        "2J,2Q,2K,2A,3X,20-",
        "4J,4Q,4K,4A,48-",
        "1A,2-",
    ] {
        let deck = Deck::parse(spec).unwrap();
        for leader in [0, 1] {
            let all = AllDeals::new(deck, Player(leader)).unwrap();
            let n = all.count().min(5000) as usize;
            let step = all.count() / n as u128;
            let deals: Vec<Vec<u8>> = (0..n).map(|i| all.deal(i as u128 * step).codes()).collect();
            let first = all.deal(0).stack(Player(0)).len();
            let got = play_listed(gpu, &deals, first, leader as u8, DEFAULT_MAX_TRICKS);
            for (d, g) in deals.iter().zip(&got) {
                let (lead, other) = if leader == 0 {
                    (&d[..first], &d[first..])
                } else {
                    (&d[first..], &d[..first])
                };
                let want = bmn_kernel::play(lead, other, 0, DEFAULT_MAX_TRICKS);
                assert_eq!(*g, want, "{spec}, leader {leader}, deal {d:?}");
            }
        }
    }
}

/// Two-player position `p` played alone on the GPU.
fn play_position(gpu: &bmn_gpu::Gpu, p: &Position) -> Played {
    let first = p.stack(Player(0)).len();
    let leader = p.leader().index() as u8;
    play_listed(gpu, &[p.codes()], first, leader, DEFAULT_MAX_TRICKS)[0]
}

#[test]
fn published_records_and_cycles() {
    let Some(gpu) = gpu() else { return };
    let golden = bmn_golden::load();
    for r in golden.records.iter().filter(|r| r.deal.len() <= 80) {
        let p = Position::parse_deal(&r.deal, Player(r.leader - 1)).unwrap();
        if p.players() != 2 {
            continue;
        }
        let got = play_position(gpu, &p);
        let Played::Finished { cards, tricks, .. } = got else {
            panic!("{}: {got:?}", r.id)
        };
        assert_eq!(
            (u64::from(cards), u64::from(tricks)),
            (r.cards, r.tricks),
            "{}",
            r.id
        );
    }
    for c in &golden.cycles {
        let p = Position::parse_deal(&c.deal, Player(c.leader - 1)).unwrap();
        if p.players() != 2 || p.card_count() > 64 {
            continue;
        }
        let got = play_position(gpu, &p);
        assert!(matches!(got, Played::Capped { .. }), "{}: {got:?}", c.id);
    }
}

#[test]
#[ignore = "slow (minutes): `cargo test -- --include-ignored` runs it"]
fn paulhus_table_1_rows_up_to_ten_by_enumeration_on_the_gpu() {
    let Some(gpu) = gpu() else { return };
    let device = Device(gpu);
    for row in bmn_golden::load().paulhus_table1 {
        if row.plain > 10 {
            continue;
        }
        let engine = Engine::Kernel(Kernel::ScalarPlanes).on_device(device, false);
        let s = enumerate(&row.deck(), 0, (0, 0), engine);
        assert_eq!(
            (s.games, s.cycling),
            (row.deals, row.cycling_deals),
            "n = {}",
            row.plain
        );
    }
    assert_eq!(gpu.first_error(), None);
}

#[test]
fn statistics_on_the_gpu_equal_the_cpu_kernel() {
    let Some(gpu) = gpu() else { return };
    for (deck, max_tricks) in [("standard", DEFAULT_MAX_TRICKS), ("2J,2Q,6-", 60)] {
        let run = |engine: Engine| -> Stats {
            let config = SearchConfig {
                seed: 8,
                source: DealSource::new(Deck::parse(deck).unwrap(), false).unwrap(),
                top: 10,
                engine,
                max_tricks,
            };
            let stop = AtomicBool::new(false);
            stream(
                &config,
                Some(50_000),
                2,
                &mut Job::quiet(&stop),
                &Stats::default(),
                |_, _| true,
            )
        };
        let cpu = run(Engine::Kernel(Kernel::ScalarPlanes));
        let engine = Engine::Kernel(Kernel::ScalarPlanes).on_device(Device(gpu), false);
        assert_eq!(run(engine), cpu, "{deck}");
    }
    assert_eq!(gpu.first_error(), None);
}

#[test]
fn a_search_on_the_gpu_or_on_both_equals_the_cpu_kernel() {
    let Some(gpu) = gpu() else { return };
    // The small deck's games often cycle, so the exact hand-over of capped games is exercised.
    for (deck, balanced) in [("standard", false), ("standard", true), ("2J,2Q,6-", false)] {
        let run = |engine: Engine| -> Summary {
            let config = SearchConfig {
                seed: 7,
                source: DealSource::new(Deck::parse(deck).unwrap(), balanced).unwrap(),
                top: 10,
                engine,
                max_tricks: DEFAULT_MAX_TRICKS,
            };
            search(
                &config,
                Some(100_000),
                2,
                &mut Job::quiet(&AtomicBool::new(false)),
                |_, _| true,
            )
        };
        let cpu = run(Engine::Kernel(Kernel::ScalarPlanes));
        for share in [false, true] {
            let engine = Engine::Kernel(Kernel::ScalarPlanes).on_device(Device(gpu), share);
            assert_eq!(
                run(engine),
                cpu,
                "{deck}, balanced {balanced}, share {share}"
            );
        }
        if deck != "standard" {
            assert!(cpu.cycling > 0, "{deck} should cycle");
        }
    }
    assert_eq!(gpu.first_error(), None);
}

/// The CPU kernel's results for deals `first..first + count` of `all`, in the device's terms.
fn cpu_results(all: &AllDeals, first: u128, count: usize) -> Vec<Played> {
    let len = all.deal_len();
    let mut codes = vec![0u8; count * len];
    all.fill(first, &mut codes);
    let mut out = vec![Played::default(); count];
    bmn_kernel::play_many(
        Kernel::ScalarPlanes,
        &codes,
        len,
        all.split(),
        MAX_TRICKS,
        &mut out,
    );
    out
}

#[test]
fn ranks_unranked_on_the_gpu_equal_the_cpu_across_dispatches() {
    let dispatch = Tuning {
        dispatch: Some(3_000),
        ..Tuning::default()
    };
    let Some(gpu) = tuned(dispatch) else { return };
    // Ranks that start inside a run of arrangements and cross dispatches of 3,000 games.
    for (spec, leader, first, count) in [
        ("1J,1Q,1K,1A,8-", 0, 0, 11_880),
        ("2J,2Q,6-", 1, 17, 1_243),
        ("4J,4Q,4K,28-", 1, 193_584_473_082_000 - 9_001, 9_001),
        ("2J,2Q,2K,14-", 0, 1_000_037, 10_000),
    ] {
        let all = AllDeals::new(Deck::parse(spec).unwrap(), Player(leader)).unwrap();
        let batch = all.device_deals(first, count, MAX_TRICKS).unwrap();
        assert!(matches!(batch.deals, DeviceDeals::Ranks { .. }), "{spec}");
        let mut got = vec![Played::default(); count];
        assert_eq!(gpu.play(&batch, &mut got, true), Ok(true));
        let want = cpu_results(&all, first, count);
        let wrong = got.iter().zip(&want).position(|(g, w)| g != w);
        assert_eq!(wrong, None, "{spec}, leader {}", leader + 1);
    }
    // A deck too large to unrank on the device (2^69 deals) goes as starts unranked here.
    let standard = AllDeals::new(Deck::STANDARD, Player(0)).unwrap();
    let batch = standard.device_deals(0, 10, MAX_TRICKS).unwrap();
    assert!(matches!(batch.deals, DeviceDeals::Arrangements { .. }));
}

#[test]
fn digests_equal_the_games_added_up_on_the_cpu() {
    let Some(gpu) = gpu() else { return };
    // Digests of dispatches of 30,000 games, added up across them.
    let cut = tuned(Tuning {
        dispatch: Some(30_000),
        ..Tuning::default()
    })
    .unwrap();
    let source = DealSource::new(Deck::STANDARD, false).unwrap();
    let games = 100_000;
    let batch = source
        .device_deals(11, 5_000, games, DEFAULT_MAX_TRICKS)
        .unwrap();
    let mut played = vec![Played::default(); games];
    assert_eq!(gpu.play(&batch, &mut played, true), Ok(true));
    // Nothing kept but capped games; a few hundred kept (a second read); every game kept
    // (more than the device holds: played again game by game); a bin so narrow that long
    // games fall past the histogram.
    // With `lengths`, counts by exact cards and tricks too (what `bmn stats` takes).
    for (bin, keep_cards, lengths) in [
        (50, u32::MAX, false),
        (50, 2_500, false),
        (50, 0, false),
        (3, u32::MAX, false),
        (50, u32::MAX, true),
        (3, 900, true),
    ] {
        let spec = DigestSpec {
            bin,
            keep_cards,
            lengths,
        };
        let digest = cut.digest(&batch, spec, true).unwrap().unwrap();
        assert_eq!(digest, Digest::of(&played, spec), "{spec:?}");
        assert!(digest.finished > 0 || keep_cards == 0);
        assert_eq!(digest.by_tricks.is_empty(), !lengths);
    }
    // Ranks too: a reduced deck whose games often cycle, player 2 leading.
    let all = AllDeals::new(Deck::parse("2J,2Q,2K,14-").unwrap(), Player(1)).unwrap();
    let batch = all.device_deals(5_000, 20_000, MAX_TRICKS).unwrap();
    let spec = DigestSpec {
        bin: 50,
        keep_cards: 100,
        lengths: false,
    };
    let digest = gpu.digest(&batch, spec, true).unwrap().unwrap();
    assert_eq!(digest, Digest::of(&cpu_results(&all, 5_000, 20_000), spec));
    assert_eq!(gpu.first_error(), None);
}

#[test]
fn an_enumeration_on_the_gpu_equals_the_cpu_deal_for_deal() {
    let Some(gpu) = gpu() else { return };
    // Cycling deals listed one by one, both leaders, a range that is not whole units.
    for (spec, leader) in [("2J,2Q,6-", 0), ("1J,1Q,1K,1A,8-", 1), ("2J,2Q,2K,10-", 1)] {
        let run = |engine: Engine| enumerate(spec, leader, (3, 5), engine);
        let cpu = run(Engine::Kernel(Kernel::ScalarPlanes));
        let on_gpu = run(Engine::Kernel(Kernel::ScalarPlanes).on_device(Device(gpu), false));
        assert_eq!(on_gpu, cpu, "{spec}, leader {}", leader + 1);
    }
    assert_eq!(gpu.first_error(), None);
}
