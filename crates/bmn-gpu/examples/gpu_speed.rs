//! Prints what the GPU alone plays per second (no CPU pipeline around it): random standard
//! games added up on the device by the event kernel at several dispatch sizes and lane counts,
//! then by the trick kernel, and returned game by game; whole ranges of Camicia and Paulhus
//! n = 16 deals unranked on the device by each kernel; with the bytes read back per thousand
//! games and the share of the event kernel's lane-steps that played an event. Each row checks
//! a sample against the CPU kernel first.
//!
//! `cargo run -p bmn-gpu --release --example gpu_speed [-- GAMES [DEVICE]]` (GAMES per row,
//! default 2^26)

use std::time::Instant;

use bmn_core::{Deck, Player};
use bmn_exhaustive::{AllDeals, MAX_TRICKS};
use bmn_gpu::{Gpu, Tuning};
use bmn_kernel::{DEFAULT_MAX_TRICKS, Kernel, Played};
use bmn_search::device::{DeviceBatch, DevicePlayer, Digest, DigestSpec};
use bmn_search::{DealSource, Deals, HISTOGRAM_BIN};

/// Bytes one digest dispatch reads back before any kept game (totals and the first 64 kept).
const DIGEST_BYTES: f64 = (16 + 256) as f64 * 4.0 + 64.0 * 16.0;

fn main() {
    let mut args = std::env::args().skip(1);
    let games: usize = args.next().map_or(1 << 26, |a| a.parse().expect("GAMES"));
    let device: usize = args.next().map_or(0, |a| a.parse().expect("DEVICE"));
    // Each setting measured on a GPU opened with it (the shared one, `bmn_gpu::open`, has none).
    let open = |tuning: Tuning| Gpu::tuned(device, tuning).expect("a GPU");
    let gpu = &open(Tuning::default());
    let a = gpu.adapter();
    println!(
        "adapter {}: {} ({}, {}, {})",
        a.index, a.name, a.backend, a.kind, a.driver
    );
    let spec = DigestSpec {
        bin: HISTOGRAM_BIN as u32,
        keep_cards: 6_000,
        lengths: false,
    };
    let source = DealSource::new(Deck::STANDARD, false).expect("standard");
    let stream = |first: u64, n: usize| {
        source
            .device_deals(2026, first, n, DEFAULT_MAX_TRICKS)
            .expect("stream")
    };
    check_stream(gpu, &source, &stream(0, 4096));
    // The event kernel at several dispatch sizes and lane counts, then the trick kernel (one
    // invocation a game, as before issue 48) in the same run.
    for (dispatch, lanes, tricks) in [
        (1 << 24, 1 << 18, false),
        (1 << 24, 1 << 17, false),
        (1 << 24, 1 << 19, false),
        (1 << 22, 1 << 18, false),
        (1 << 20, 1 << 18, false),
        (1 << 22, 1 << 22, true),
    ] {
        let gpu = &open(Tuning {
            dispatch: Some(dispatch),
            lanes: Some(lanes),
            tricks_only: tricks,
            ..Tuning::default()
        });
        let label = format!(
            "standard, {} kernel, digest, dispatch 2^{}, lanes 2^{}",
            if tricks { "trick" } else { "event" },
            dispatch.trailing_zeros(),
            lanes.trailing_zeros()
        );
        time(gpu, &label, games, 1 << 24, |first, n| {
            let d = gpu.digest(&stream(first, n), spec, true).unwrap().unwrap();
            let reads = n.div_ceil(dispatch) as f64;
            (
                d.finished,
                DIGEST_BYTES * reads + 16.0 * d.kept.len() as f64,
            )
        });
    }
    let read_back = &open(Tuning {
        dispatch: Some(1 << 20),
        ..Tuning::default()
    });
    time(
        read_back,
        "standard, every game read back, dispatch 2^20",
        games / 4,
        1 << 20,
        |first, n| {
            let mut out = vec![Played::default(); n];
            let played = read_back.play(&stream(first, n), &mut out, true);
            assert_eq!(played, Ok(true));
            (n as u64, 8.0 * n as f64)
        },
    );
    for (name, deck, from) in [
        ("Camicia", "camicia", 97_000_000_000_000u128),
        ("Paulhus n = 16", "2J,2Q,2K,2A,16-", 0),
    ] {
        let all = AllDeals::new(Deck::parse(deck).unwrap(), Player(0)).unwrap();
        let spec = DigestSpec {
            bin: HISTOGRAM_BIN as u32,
            keep_cards: u32::MAX,
            lengths: false,
        };
        check_ranks(gpu, &all, from);
        for tricks in [false, true] {
            let gpu = &open(Tuning {
                tricks_only: tricks,
                ..Tuning::default()
            });
            let kernel = if tricks { "trick" } else { "event" };
            let label = format!("{name}, {kernel} kernel, ranks unranked on the device, digest");
            time(gpu, &label, games, 1 << 24, |first, n| {
                let batch = all
                    .device_deals(from + u128::from(first), n, MAX_TRICKS)
                    .unwrap();
                let d = gpu.digest(&batch, spec, true).unwrap().unwrap();
                let bytes = DIGEST_BYTES * n.div_ceil(1 << 24) as f64 + 16.0 * d.kept.len() as f64;
                (n as u64, bytes)
            });
        }
    }
}

/// Plays `total` games in batches of `batch` on two host threads (so one batch plays while
/// the other is read back) and prints games per second, bytes read back per 1000 games, and
/// the event kernel's share of lane-steps that played an event.
fn time(
    gpu: &bmn_gpu::Gpu,
    label: &str,
    total: usize,
    batch: usize,
    play: impl Fn(u64, usize) -> (u64, f64) + Sync,
) {
    play(0, batch.min(total)); // warm-up: buffers, pipeline
    let steps = gpu.lane_steps();
    let started = Instant::now();
    let next = std::sync::atomic::AtomicU64::new(0);
    let (games, bytes) = std::thread::scope(|s| {
        let workers: Vec<_> = (0..2)
            .map(|_| {
                s.spawn(|| {
                    let (mut games, mut bytes) = (0u64, 0f64);
                    loop {
                        let first =
                            next.fetch_add(batch as u64, std::sync::atomic::Ordering::Relaxed);
                        if first >= total as u64 {
                            return (games, bytes);
                        }
                        let n = batch.min(total - first as usize);
                        let (g, b) = play(first, n);
                        games += n as u64;
                        bytes += b;
                        let _ = g;
                    }
                })
            })
            .collect();
        workers
            .into_iter()
            .map(|w| w.join().unwrap())
            .fold((0, 0.0), |(g, b), (g2, b2)| (g + g2, b + b2))
    });
    let wall = started.elapsed().as_secs_f64();
    let s = gpu.lane_steps().since(steps);
    let busy = if s.held == 0 {
        String::new()
    } else {
        format!(
            ", lanes busy {:.1}% ({:.1} steps a game, {:.2} events a step)",
            100.0 * s.played as f64 / s.held as f64,
            s.played as f64 / games as f64,
            s.events as f64 / s.played as f64
        )
    };
    println!(
        "{label}: {games} games in {wall:.3} s = {:.3e} games/s, {:.2} bytes read back per 1000 games{busy}",
        games as f64 / wall,
        bytes / games as f64 * 1000.0
    );
}

fn check_stream(gpu: &bmn_gpu::Gpu, source: &DealSource, batch: &DeviceBatch<'_>) {
    let n = batch.count;
    let mut got = vec![Played::default(); n];
    assert_eq!(gpu.play(batch, &mut got, true), Ok(true));
    let mut codes = vec![0u8; n * source.len()];
    source.deal_batch(2026, 0, &mut codes);
    let mut want = vec![Played::default(); n];
    let (len, split) = (source.len(), source.split());
    bmn_kernel::play_many(
        Kernel::ScalarPlanes,
        &codes,
        len,
        split,
        DEFAULT_MAX_TRICKS,
        &mut want,
    );
    assert_eq!(got, want, "the GPU disagrees with the CPU kernel");
}

fn check_ranks(gpu: &bmn_gpu::Gpu, all: &AllDeals, from: u128) {
    let n = 4096;
    let batch = all.device_deals(from, n, MAX_TRICKS).unwrap();
    let spec = DigestSpec {
        bin: 50,
        keep_cards: 0,
        lengths: false,
    };
    let got = gpu.digest(&batch, spec, true).unwrap().unwrap();
    let mut codes = vec![0u8; n * all.deal_len()];
    all.fill(from, &mut codes);
    let mut want = vec![Played::default(); n];
    bmn_kernel::play_many(
        Kernel::ScalarPlanes,
        &codes,
        all.deal_len(),
        all.split(),
        MAX_TRICKS,
        &mut want,
    );
    assert_eq!(
        got,
        Digest::of(&want, spec),
        "the GPU disagrees with the CPU kernel"
    );
}
