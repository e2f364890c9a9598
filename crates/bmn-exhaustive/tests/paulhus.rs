//! Paulhus's Table 1 (rows n = 0..10, from the golden fixtures), shards that merge into the unsplit
//! run, and the enumeration's games against the reference engine on sampled deals.

use std::sync::atomic::AtomicBool;

use bmn_core::{Deck, Player, Rules, play_out};
use bmn_exhaustive::{AllDeals, Enumeration, MAX_TRICKS};
use bmn_job::Job;
use bmn_kernel::{Choice, Kernel, Shape};
use bmn_run::Shard;
use bmn_search::{Deals, Engine, Progress, Summary, exact};

fn enumeration(deck: &str, leader: usize, shard: Shard, list_cycles: bool) -> Enumeration {
    let deals = AllDeals::new(Deck::parse(deck).unwrap(), Player(leader)).unwrap();
    let r = shard.range(deals.count());
    Enumeration {
        engine: fastest(deals.deck()),
        deals,
        range: r,
        max_tricks: MAX_TRICKS,
        list_cycles,
    }
}

/// The fastest kernel this CPU runs for `deck`'s deals.
fn fastest(deck: &Deck) -> Engine {
    Engine::Kernel(Engine::kernel_for(Choice::Fastest, deck, MAX_TRICKS).unwrap())
}

fn run(e: &Enumeration, threads: usize) -> Summary {
    let mut p = e.start();
    e.run(
        &mut p,
        threads,
        &mut Job::quiet(&AtomicBool::new(false)),
        |_, _, _| true,
    );
    assert!(e.is_complete(&p));
    p.summary
}

#[test]
fn table_1_rows_up_to_ten_plain_cards() {
    let mut failures = Vec::new();
    for row in bmn_golden::load().paulhus_table1 {
        if row.plain > 10 {
            continue;
        }
        let s = run(&enumeration(&row.deck(), 0, Shard::WHOLE, false), 2);
        let want = (row.deals, row.cycling_deals);
        if (s.games, s.cycling) != want {
            failures.push(format!(
                "n = {}: {} deals, {} cycling; want {want:?}",
                row.plain, s.games, s.cycling
            ));
        }
        assert_eq!(s.finished() + s.cycling, s.games);
    }
    assert!(failures.is_empty(), "\n{}", failures.join("\n"));
}

#[test]
fn shards_merge_into_the_unsplit_run_whatever_the_threads() {
    // 2 J, 2 Q and 6 plain cards: the golden 10-card cycle lives here.
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
    e.run(
        &mut p,
        2,
        &mut Job::quiet(&AtomicBool::new(false)),
        |_, _, next| next < 5,
    );
    assert!(!e.is_complete(&p) && p.next_unit >= 5);
    assert_eq!(p.summary.games, e.deals_done(p.next_unit));
    e.run(
        &mut p,
        1,
        &mut Job::quiet(&AtomicBool::new(false)),
        |_, _, _| true,
    );
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
        let shape = Shape {
            cards: len,
            split: all.split(),
            penalty: len - all.deck().count(bmn_core::Kind::Plain) as usize,
            max_tricks: 50,
        };
        for kernel in Kernel::all_available()
            .into_iter()
            .filter(|k| k.takes(&shape))
        {
            for k in 0..500 {
                let first = k * step;
                let mut codes = vec![0u8; 8 * len];
                all.fill(first, &mut codes);
                let mut out = vec![bmn_kernel::Played::default(); 8];
                bmn_kernel::play_many(kernel, &codes, len, all.split(), 50, &mut out);
                for (i, (c, &o)) in codes.chunks_exact(len).zip(&out).enumerate() {
                    let deal = all.deal(first + i as u128);
                    assert_eq!(all.position(c), deal);
                    let want = play_out(&Rules::STANDARD, &deal);
                    let got = exact(o, all.leader(), || deal.clone());
                    assert_eq!(got, want, "{} on {deck}: {deal}", kernel.name());
                }
            }
        }
    }
}

/// Deals in the kernels' marked form, stepped as masks and codes, are the deals `fill` lays
/// out: both leaders, odd and even decks, runs from anywhere in the range (the last deal
/// included), up to a 64-card deck.
#[test]
fn deals_stepped_in_marked_form_are_the_deals_laid_out() {
    for (deck, leader) in [
        ("2J,2Q,2K,2A,8-", 0),
        ("2J,2Q,2K,2A,9-", 1),
        ("2J,2Q,2K,2A,9-", 0),
        ("camicia", 1),
        ("standard", 0),
        ("standard", 1),
        ("4J,4Q,4K,4A,2X,46-", 1),
        ("1A,2-", 0),
    ] {
        let all = AllDeals::new(Deck::parse(deck).unwrap(), Player(leader)).unwrap();
        let len = all.deal_len();
        let n = 300u128.min(all.count()) as usize;
        let step = (all.count() - n as u128) / 7;
        for first in (0..8).map(|k| k * step) {
            let mut marked = bmn_kernel::Marked::with_len(n);
            assert!(all.fill_marked(first, &mut marked), "{deck}");
            let mut codes = vec![0u8; n * len];
            all.fill(first, &mut codes);
            let mut deal = vec![0u8; len];
            for (d, want) in codes.chunks_exact(len).enumerate() {
                marked.lay_out(d, &mut deal);
                assert_eq!(
                    deal,
                    want,
                    "{deck}, leader {leader}, rank {}",
                    first + d as u128
                );
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

/// The Camicia half deck (2 J, 2 Q, 2 K, 14 plain): the whole report against the fixture.
#[test]
fn camicia_half_deck_row() {
    let row = bmn_golden::load().camicia_half_deck;
    let s = run(&enumeration(&row.deck, 0, Shard::WHOLE, false), 2);
    let wins = &s.wins;
    let longest = s.longest.first().expect("finished games");
    let cycles: Vec<(String, u64, u64, u64)> = s
        .classes
        .iter()
        .map(|(id, c)| (id.to_string(), c.period.tricks, c.period.cards, c.deals))
        .collect();
    let want: Vec<(String, u64, u64, u64)> = row
        .cycles
        .iter()
        .map(|c| (c.cycle_id.clone(), c.period.tricks, c.period.cards, c.deals))
        .collect();
    assert_eq!(
        (s.games, wins[0], wins[1], s.cycling, s.classes.len() as u64),
        (
            row.deals,
            row.first_player_wins,
            row.second_player_wins,
            row.cycling_deals,
            row.distinct_cycles
        )
    );
    assert_eq!(
        (longest.cards, longest.tricks, longest.deal.clone()),
        (
            row.longest.cards,
            row.longest.tricks,
            row.longest.deal.clone()
        )
    );
    assert_eq!(cycles, want);
}

/// Every game of a tally, by deal rank.
#[derive(Default)]
struct Every(Vec<(u128, bmn_core::Outcome)>);

impl bmn_search::Tally for Every {
    fn record_finished(
        &mut self,
        index: u128,
        cards: u64,
        tricks: u64,
        winner: usize,
        _deal: impl FnOnce() -> String,
    ) {
        let winner = Player(winner - 1);
        self.0.push((
            index,
            bmn_core::Outcome::Finished {
                winner,
                cards,
                tricks,
            },
        ));
    }
    fn record_cycle(&mut self, index: u128, c: &bmn_core::Cycle, _deal: impl FnOnce() -> String) {
        self.0.push((index, bmn_core::Outcome::Cycle(c.clone())));
    }
    fn record_unresolved(&mut self, _index: u128, _deal: impl FnOnce() -> String) {
        unreachable!("standard deals always resolve");
    }
    fn merge(&mut self, other: Self) {
        self.0.extend(other.0);
    }
}

/// The standard deck (2^69 deals, past u64) enumerated block by block: a block's deals are the
/// ranks `bmn unrank` gives (the record among them), and every game equals the reference
/// engine's; two blocks merged equal the one range.
#[test]
fn blocks_of_the_standard_deck() {
    let all = AllDeals::new(Deck::STANDARD, Player(0)).unwrap();
    assert_eq!(all.count(), 653_534_134_886_878_245_000);
    // Around Nessler's record (rank 206287012603312125944), past 2^64.
    let record: u128 = 206_287_012_603_312_125_944;
    assert!(record > u128::from(u64::MAX));
    let deal = all.deal(record);
    assert_eq!(
        deal.deal_text(),
        "---AJ--Q---------QAKQJJ-QK/-----A----KJ-K--------A---"
    );
    assert_eq!(all.index_of(&deal), Some(record));
    let range = record - 3000..record + 3000;
    let mut every = Every::default();
    bmn_search::play_deals(
        &all,
        fastest(all.deck()),
        MAX_TRICKS,
        range.start,
        range.end,
        &mut every,
    );
    assert_eq!(every.0.len(), 6000);
    for (index, got) in every.0.iter().step_by(7) {
        assert_eq!(
            *got,
            play_out(&Rules::STANDARD, &all.deal(*index)),
            "rank {index}"
        );
    }
    let ours = every.0.iter().find(|(i, _)| *i == record).unwrap();
    assert!(matches!(
        ours.1,
        bmn_core::Outcome::Finished { cards: 8344, .. }
    ));
    // Two blocks of units merged in order equal the one range.
    let whole = Enumeration {
        deals: all.clone(),
        range: range.clone(),
        engine: fastest(all.deck()),
        max_tricks: MAX_TRICKS,
        list_cycles: true,
    };
    let halves = [range.start..record, record..range.end].map(|r| Enumeration {
        range: r,
        ..whole.clone()
    });
    let mut merged = Summary::keeping(1, usize::MAX);
    for h in &halves {
        merged.merge(run(h, 2));
    }
    let one = run(&whole, 1);
    assert_eq!(merged, one);
    assert_eq!(one.longest[0].index, record);
}
