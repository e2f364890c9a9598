//! The published records and cycles of the golden fixtures (`crates/bmn-golden/data/`) through every kernel.

mod common;

use bmn_kernel::cardwise::play_cardwise;
use bmn_kernel::{
    Choice, DEFAULT_MAX_TRICKS, Kernel, KernelFamily, Played, Shape, SimdLimit, play, play_many,
};
use common::{oracle, parse_deal};

/// Runs one deal through every engine and kernel; all must give `expected`.
#[track_caller]
fn check(deal: &str, leader: u8, max_tricks: u32, expected: Played) {
    let (p1, p2) = parse_deal(deal);
    assert_eq!(
        oracle(&p1, &p2, leader, max_tricks),
        expected,
        "oracle on {deal}"
    );
    assert_eq!(
        play(&p1, &p2, leader, max_tricks),
        expected,
        "scalar on {deal}"
    );
    assert_eq!(
        play_cardwise(&p1, &p2, leader, max_tricks),
        expected,
        "cardwise on {deal}"
    );
    // The batch entry deals with player 1 leading: swap the hands when player 2 leads.
    let (first, second, swapped) = if leader == 0 {
        (&p1, &p2, false)
    } else {
        (&p2, &p1, true)
    };
    let flat: Vec<u8> = first.iter().chain(second.iter()).copied().collect();
    for kernel in common::kernels_for(&flat, flat.len(), first.len(), max_tricks) {
        let mut out = [Played::default()];
        play_many(kernel, &flat, flat.len(), first.len(), max_tricks, &mut out);
        let got = match out[0] {
            Played::Finished {
                winner,
                cards,
                tricks,
            } if swapped => Played::Finished {
                winner: 1 - winner,
                cards,
                tricks,
            },
            o => o,
        };
        assert_eq!(got, expected, "{} on {deal}", kernel.name());
    }
}

#[test]
fn every_record_comes_out_exactly() {
    let records = bmn_golden::load().records;
    assert!(records.len() >= 9);
    for r in records {
        let expected = Played::Finished {
            winner: r.winner as u8 - 1,
            cards: r.cards as u32,
            tricks: r.tricks as u32,
        };
        check(&r.deal, r.leader as u8 - 1, DEFAULT_MAX_TRICKS, expected);
    }
}

#[test]
fn the_nessler_2022_record() {
    check(
        "---AJ--Q---------QAKQJJ-QK/-----A----KJ-K--------A---",
        0,
        DEFAULT_MAX_TRICKS,
        finished(1, 8344, 1164),
    );
}

#[test]
fn the_golden_cycles_are_capped() {
    for c in bmn_golden::load().cycles {
        let deal = c.deal.as_str();
        let leader = c.leader as u8 - 1;
        let (p1, p2) = parse_deal(deal);
        let (pre, pre_cards) = (c.preperiod.tricks as u32, c.preperiod.cards as u32);
        let (per, per_cards) = (c.period.tricks as u32, c.period.cards as u32);
        // Capped at any cap; at preperiod + 5 periods the card count is exact.
        let cap = pre + 5 * per;
        let expected = Played::Capped {
            cards: pre_cards + 5 * per_cards,
            tricks: cap,
        };
        assert_eq!(oracle(&p1, &p2, leader, cap), expected, "{deal}");
        check(deal, leader, cap, expected);
        match play(&p1, &p2, leader, DEFAULT_MAX_TRICKS) {
            Played::Capped { tricks, .. } => assert_eq!(tricks, DEFAULT_MAX_TRICKS),
            o => panic!("{deal} finished: {o:?}"),
        }
    }
}

#[test]
fn empty_hands_and_tiny_games() {
    check("/J", 0, 10, finished(1, 0, 0));
    check("J/", 1, 10, finished(0, 0, 0));
    // Leader lays J, follower must pay and has only a plain card: pays it, J's owner wins.
    check("J/-", 0, 10, finished(0, 2, 1));
    // Leader lays a plain card, follower lays J, leader must pay and has none.
    check("-/J", 0, 10, finished(1, 2, 1));
    check("-/-", 0, 10, finished(1, 2, 1));
    check("--/-", 0, 10, finished(0, 3, 1));
    check(
        "J/-",
        0,
        0,
        Played::Capped {
            cards: 0,
            tricks: 0,
        },
    );
}

/// The CPU's feature flags as Linux reports them (`/proc/cpuinfo`), read independently of the
/// run-time detection the kernels use; `None` where there is no such file.
fn cpu_flags() -> Option<Vec<String>> {
    let info = std::fs::read_to_string("/proc/cpuinfo").ok()?;
    let line = info.lines().find(|l| l.starts_with("flags"))?;
    Some(
        line.split(':')
            .nth(1)?
            .split_whitespace()
            .map(String::from)
            .collect(),
    )
}

/// Every test here loops over the kernels this CPU runs, so a kernel that detection wrongly
/// left out would go untested without a word. This fails instead: each kernel whose features
/// the CPU reports (and `BMN_SIMD` does not hide) must be available, and
/// `BMN_REQUIRE_KERNELS=avx512,avx2` (families) or kernels' names make a machine known to
/// have them insist on them.
#[test]
fn no_kernel_this_cpu_runs_is_skipped() {
    common::say_untested();
    assert!(Kernel::ScalarPlanes.is_available() && Kernel::ScalarQueue.is_available());
    if let Ok(required) = std::env::var("BMN_REQUIRE_KERNELS") {
        for name in required.split(',').filter(|n| !n.is_empty()) {
            let runs = Choice::from_name(name).is_some_and(Choice::is_available);
            assert!(
                runs,
                "BMN_REQUIRE_KERNELS names {name}, which this CPU does not run"
            );
        }
    }
    let Some(flags) = cpu_flags() else {
        return;
    };
    // `BMN_SIMD` hides what the CPU has on purpose: what it hides must stay hidden.
    let limit = SimdLimit::current();
    let has = |names: &[&str]| names.iter().all(|n| flags.iter().any(|f| f == n));
    // lzcnt is `abm` in /proc/cpuinfo.
    let base = ["bmi1", "bmi2", "abm", "popcnt"];
    let avx2 = limit >= SimdLimit::Avx2 && has(&["avx2"]) && has(&base);
    let avx512 = limit >= SimdLimit::Avx512
        && has(&["avx512f", "avx512cd", "avx512vl", "avx512dq", "avx512bw"])
        && has(&base);
    let streams = avx512 && has(&["avx512_vpopcntdq", "avx512_vbmi2"]);
    for (kernel, runs) in [
        (Kernel::Avx2Stream4, avx2),
        (Kernel::Avx512Lanes16, avx512),
        (Kernel::Avx512Stream8, streams),
        (Kernel::Avx512Stream16, streams),
    ] {
        assert_eq!(
            kernel.is_available(),
            runs,
            "{} against /proc/cpuinfo",
            kernel.name()
        );
    }
    // The fastest on a standard deal.
    let standard = Shape {
        cards: 52,
        split: 26,
        penalty: 16,
        max_tricks: 3000,
    };
    let best = if streams {
        Kernel::Avx512Stream8
    } else if avx2 {
        Kernel::Avx2Stream4
    } else if avx512 {
        Kernel::Avx512Lanes16
    } else {
        Kernel::ScalarQueue
    };
    assert_eq!(
        Kernel::fastest(&standard),
        best,
        "the fastest kernel this CPU runs"
    );
}

/// The table on shapes at each kernel's limits: the request's first kernel that takes them.
#[test]
fn the_table_picks_the_first_kernel_that_takes_the_deals() {
    let shape = |cards, split, penalty, max_tricks| Shape {
        cards,
        split,
        penalty,
        max_tricks,
    };
    let pick = |choice: Choice, s: Shape| choice.kernel(&s).map(Kernel::name);
    let portable = Choice::Family(KernelFamily::Portable);
    assert_eq!(
        pick(portable, shape(52, 26, 16, 3000)),
        Some("scalar-queue")
    );
    assert_eq!(
        pick(portable, shape(64, 32, 22, 3000)),
        Some("scalar-planes")
    );
    assert_eq!(pick(portable, shape(20, 0, 5, 3000)), Some("scalar-planes"));
    let lockstep = Choice::Family(KernelFamily::Lockstep);
    assert_eq!(pick(lockstep, shape(52, 26, 21, 0)), Some("lanes-4x64"));
    assert_eq!(pick(lockstep, shape(52, 26, 22, 10)), Some("scalar-planes"));
    assert_eq!(pick(Choice::Fastest, shape(65, 32, 16, 10)), None);
    let only = Choice::Only(Kernel::ScalarQueue);
    assert_eq!(pick(only, shape(52, 52, 16, 10)), None);
    if Kernel::Avx512Stream8.is_available() {
        let fastest = |s| pick(Choice::Fastest, s);
        assert_eq!(
            fastest(shape(30, 15, 10, 4369)),
            Some("avx512-stream-16x32")
        );
        assert_eq!(fastest(shape(30, 15, 10, 4370)), Some("avx512-stream-8x64"));
        assert_eq!(fastest(shape(30, 15, 11, 100)), Some("avx512-stream-8x64"));
        assert_eq!(fastest(shape(31, 15, 10, 100)), Some("avx512-stream-8x64"));
        assert_eq!(fastest(shape(64, 32, 21, 3000)), Some("avx512-stream-8x64"));
        assert_eq!(fastest(shape(64, 32, 22, 3000)), Some("scalar-planes"));
        assert_eq!(fastest(shape(40, 0, 10, 3000)), Some("avx512-lanes-16x64"));
        assert_eq!(fastest(shape(40, 20, 10, 0)), Some("avx512-lanes-16x64"));
        let avx512 = Choice::Family(KernelFamily::Avx512);
        assert_eq!(pick(avx512, shape(64, 32, 22, 3000)), Some("scalar-planes"));
    }
    if Kernel::Avx2Stream4.is_available() {
        let avx2 = Choice::Family(KernelFamily::Avx2);
        assert_eq!(
            pick(avx2, shape(52, 26, 17, 3000)),
            Some("avx2-stream-4x64")
        );
        assert_eq!(pick(avx2, shape(52, 26, 18, 3000)), Some("scalar-queue"));
        assert_eq!(pick(avx2, shape(53, 26, 17, 3000)), Some("scalar-queue"));
        assert_eq!(pick(avx2, shape(53, 26, 22, 3000)), Some("scalar-planes"));
    }
    for name in ["portable", "avx512", "scalar-planes", "avx512-stream-16x32"] {
        assert!(Choice::from_name(name).is_some(), "{name}");
    }
    assert_eq!(Choice::from_name("avx"), None);
}

/// A finished game: `winner` (from 0), its length in cards and tricks.
fn finished(winner: u8, cards: u32, tricks: u32) -> Played {
    Played::Finished {
        winner,
        cards,
        tricks,
    }
}
