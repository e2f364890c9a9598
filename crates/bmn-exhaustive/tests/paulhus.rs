//! Paulhus's Table 1 (rows n = 0..10, from golden.json), shards that merge into the unsplit
//! run, and the enumeration's games against the reference engine on sampled deals.

use std::sync::atomic::AtomicBool;

use bmn_core::{Deck, Player, Rules, play_out};
use bmn_exhaustive::{AllDeals, Enumeration, MAX_TRICKS, Progress, Shard};
use bmn_kernel::Kernel;
use bmn_search::{Deals, Engine, Summary, exact};

fn enumeration(deck: &str, leader: usize, shard: Shard, list_cycles: bool) -> Enumeration {
    let deals = AllDeals::new(Deck::parse(deck).unwrap(), Player(leader)).unwrap();
    let r = shard.range(u128::from(deals.count()));
    Enumeration {
        deals,
        range: r.start as u64..r.end as u64,
        engine: Engine::Kernel(Kernel::best_available()),
        max_tricks: MAX_TRICKS,
        list_cycles,
    }
}

fn run(e: &Enumeration, threads: usize) -> Summary {
    let mut p = e.start();
    e.run(&mut p, threads, &AtomicBool::new(false), |_, _| true);
    assert!(e.is_complete(&p));
    p.summary
}

#[test]
fn table_1_rows_up_to_ten_plain_cards() {
    let golden = bmn_golden::load();
    let rows = golden.rest["paulhus_table1"]["rows"].as_array().unwrap();
    let mut failures = Vec::new();
    for row in rows {
        let plain = row["plain"].as_u64().unwrap();
        if plain > 10 {
            continue;
        }
        let s = run(
            &enumeration(&format!("2J,2Q,2K,2A,{plain}-"), 0, Shard::WHOLE, false),
            2,
        );
        let want = (
            row["deals"].as_u64().unwrap(),
            row["cycling_deals"].as_u64().unwrap(),
        );
        if (s.games, s.cycling) != want {
            failures.push(format!(
                "n = {plain}: {} deals, {} cycling; want {want:?}",
                s.games, s.cycling
            ));
        }
        assert_eq!(s.finished() + s.cycling, s.games);
    }
    assert!(failures.is_empty(), "\n{}", failures.join("\n"));
}

#[test]
fn shards_merge_into_the_unsplit_run_whatever_the_threads() {
    // 2 J, 2 Q and 6 plain cards: golden.json's 10-card cycle lives here.
    for leader in [0, 1] {
        let whole = run(&enumeration("2J,2Q,6-", leader, Shard::WHOLE, true), 1);
        assert!(whole.cycling > 0);
        for count in [2, 3, 7] {
            let mut merged = Summary::keeping(1, usize::MAX);
            for index in (1..=count).rev() {
                let e = enumeration("2J,2Q,6-", leader, Shard { index, count }, true);
                merged.merge(run(&e, 2));
            }
            assert_eq!(merged, whole, "{count} shards, leader {}", leader + 1);
        }
    }
}

#[test]
fn a_stopped_run_resumes_to_the_same_result() {
    let e = enumeration("2J,2Q,2K,2A,4-", 0, Shard::WHOLE, true);
    let whole = run(&e, 2);
    let mut p: Progress = e.start();
    e.run(&mut p, 2, &AtomicBool::new(false), |_, next| next < 5);
    assert!(!e.is_complete(&p) && p.next_unit >= 5);
    assert_eq!(p.summary.games, e.deals_done(p.next_unit));
    e.run(&mut p, 1, &AtomicBool::new(false), |_, _| true);
    assert_eq!(p.summary, whole);
}

#[test]
fn every_kernel_agrees_with_the_reference_engine_on_sampled_deals() {
    for (deck, leader) in [
        ("2J,2Q,2K,2A,8-", 0),
        ("2J,2Q,2K,2A,8-", 1),
        ("2J,2Q,2K,14-", 0),
        ("1J,1Q,1K,1A,11-", 1),
    ] {
        let all = AllDeals::new(Deck::parse(deck).unwrap(), Player(leader)).unwrap();
        let len = all.deal_len();
        // 4000 deals spread over the whole range, in runs of 8 consecutive ones.
        let step = all.count() / 500;
        for kernel in Kernel::all_available() {
            for k in 0..500 {
                let first = k * step;
                let mut codes = vec![0u8; 8 * len];
                all.fill(first, &mut codes);
                let mut out = vec![bmn_kernel::Outcome::default(); 8];
                bmn_kernel::play_many(kernel, &codes, len, all.split(), 50, &mut out);
                for (i, (c, &o)) in codes.chunks_exact(len).zip(&out).enumerate() {
                    let deal = all.deal(first + i as u64);
                    assert_eq!(all.position(c), deal);
                    let want = play_out(&Rules::STANDARD, &deal);
                    let got = exact(o, all.leader(), || deal.clone());
                    assert_eq!(got, want, "{} on {deck}: {deal}", kernel.name());
                }
            }
        }
    }
}

#[test]
fn the_reference_engine_enumerates_the_same_table() {
    let fast = enumeration("2J,2Q,2K,2A,4-", 0, Shard::WHOLE, true);
    let slow = Enumeration {
        engine: Engine::Reference {
            rules: Rules::STANDARD,
            give_up: bmn_search::DEFAULT_GIVE_UP,
        },
        ..fast.clone()
    };
    assert_eq!(run(&fast, 2), run(&slow, 2));
}
