//! `bmn search` and `bmn bench` end to end: the JSON contract, thread-count independence, errors.

use crate::common::{bad, json};
use serde_json::Value;

/// The result without the fields that depend on the machine and the thread count.
fn result(mut v: Value) -> Value {
    for key in ["elapsed_seconds", "games_per_second", "threads"] {
        v.as_object_mut().unwrap().remove(key);
    }
    v
}

#[test]
fn search_json_is_the_same_for_one_and_two_threads() {
    let args = [
        "search", "--games", "40000", "--seed", "5", "--top", "5", "--json",
    ];
    let one = json(&[&args[..], &["--threads", "1"]].concat());
    let two = json(&[&args[..], &["--threads", "2"]].concat());
    for key in [
        "games",
        "seed",
        "mean_cards",
        "mean_tricks",
        "games_per_second",
        "histogram",
        "longest",
        "cycling_deal_list",
    ] {
        assert!(one.get(key).is_some(), "missing {key}");
    }
    assert_eq!(one["games"], 40000);
    assert_eq!(one["longest"].as_array().unwrap().len(), 5);
    let first = &one["longest"][0];
    for key in ["deal", "leader", "cards", "tricks", "winner"] {
        assert!(first.get(key).is_some(), "longest lacks {key}");
    }
    assert_eq!(result(one), result(two));
}

#[test]
fn search_longest_games_replay_exactly_in_bmn_play() {
    let s = json(&[
        "search",
        "--games",
        "20000",
        "--balanced",
        "--top",
        "3",
        "--json",
    ]);
    for f in s["longest"].as_array().unwrap() {
        let p = json(&["play", f["deal"].as_str().unwrap(), "--json"]);
        assert_eq!(
            (&p["cards"], &p["tricks"], &p["winner"]),
            (&f["cards"], &f["tricks"], &f["winner"])
        );
    }
}

#[test]
fn search_finds_cycles_on_a_reduced_deck() {
    let s = json(&[
        "search",
        "--deck",
        "2J,2Q,2K,2A,8-",
        "--games",
        "20000",
        "--json",
    ]);
    let cycles = s["cycling_deal_list"].as_array().unwrap();
    assert!(!cycles.is_empty());
    for c in cycles.iter().take(5) {
        let p = json(&["play", c["deal"].as_str().unwrap(), "--json"]);
        assert_eq!(p["outcome"], "cycle");
        assert_eq!(
            (&p["period"], &p["cycle_id"]),
            (&c["period"], &c["cycle_id"])
        );
    }
}

#[test]
fn bench_reports_every_kernel_agreeing() {
    let b = json(&["bench", "--games", "2000", "--json"]);
    assert!(b["reference_games_per_second"].as_f64().unwrap() > 0.0);
    assert!(b["fast_games_per_second"].as_f64().unwrap() > 0.0);
    let kernels = b["kernels"].as_array().unwrap();
    assert!(b["search_games_per_second"].as_f64().unwrap() > 0.0);
    assert!(kernels.iter().any(|k| k["engine"] == "scalar-queue"));
    assert!(kernels.iter().any(|k| k["engine"] == b["best_kernel"]));
    assert!(kernels.iter().any(|k| k["engine"] == "search"));
    assert!(kernels.iter().all(|k| k["agrees_with_reference"] == true));
}

/// Whether valgrind is installed (`.ci/run` installs it; elsewhere the test says it skipped).
fn valgrind_installed() -> bool {
    std::process::Command::new("valgrind")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
}

#[test]
fn bench_counts_instructions_per_game_with_callgrind() {
    if !valgrind_installed() {
        eprintln!("skipped: valgrind is not installed");
        return;
    }
    let b = json(&[
        "bench",
        "--games",
        "2000",
        "--deck",
        "2J,2Q,2K,2A,16-",
        "--instructions",
        "--json",
    ]);
    let kernels = b["kernels"].as_array().unwrap();
    let count = |engine: &str| {
        kernels
            .iter()
            .find(|k| k["engine"] == engine)
            .map(|k| k["instructions_per_game"].as_f64())
    };
    // The reference engine plays card by card: far more instructions than the scalar kernel.
    let (reference, portable) = (count("reference").unwrap(), count("scalar-queue").unwrap());
    assert!(portable.unwrap() > 10.0, "{b}");
    assert!(reference.unwrap() > 3.0 * portable.unwrap(), "{b}");
    // Rows callgrind cannot run carry no count.
    for engine in ["avx512-stream-16x32", "search"] {
        if let Some(c) = count(engine) {
            assert_eq!(c, None, "{engine}");
        }
    }
    bad(
        &["bench", "--count-only", "tpu", "--games", "10"],
        "bad --count-only: tpu is not an engine this CPU runs",
    );
}

#[test]
fn bench_on_a_reduced_deck_and_bad_decks() {
    // Paulhus's n = 16 deck runs on the AVX-512 kernel's 32-bit lanes where there are some.
    let b = json(&[
        "bench",
        "--games",
        "3000",
        "--deck",
        "2J,2Q,2K,2A,16-",
        "--json",
    ]);
    assert_eq!(b["deck"], "2J,2Q,2K,2A,16-");
    let kernels = b["kernels"].as_array().unwrap();
    assert!(kernels.iter().all(|k| k["agrees_with_reference"] == true));
    bad(
        &["bench", "--deck", "40J,30-"],
        "has 70 cards; the kernels play at most 64",
    );
    bad(&["bench", "--deck", "2J,2Z"], "bad --deck");
}

#[test]
fn search_bad_input() {
    for (args, expected) in [
        (&["search", "--games", "0"][..], "--games"),
        (&["search", "--time", "ten"], "bad --time 'ten'"),
        (
            &["search", "--deck", "1J"],
            "has 1 cards; 2 players are dealt 2 to 540",
        ),
        (
            &["search", "--deck", "1J,1Q,2-", "--balanced"],
            "its J cards cannot be shared equally among 2 players",
        ),
        (&["search", "--kernel", "tpu"], "bad --kernel 'tpu'"),
        (
            &[
                "search",
                "--deck",
                "6J,6Q,6K,6A,28-",
                "--kernel",
                "scalar-queue",
            ],
            "bad --kernel 'scalar-queue' does not play deals of 6J,6Q,6K,6A,28-",
        ),
        (&["search", "--device", "1"], "bad --device"),
        (&["search", "--threads", "0"], "--threads"),
        (
            &["search", "--games", "5", "--time", "1m"],
            "cannot be used with",
        ),
    ] {
        bad(args, expected);
    }
}

/// `--kernel` takes a kernel's name as well as a family's, and the report names the kernel
/// that played: a family's choice depends on the deck.
#[test]
fn the_report_names_the_kernel_that_played() {
    let engine = |args: &[&str]| {
        let base = ["search", "--games", "3000", "--no-db", "--json"];
        json(&[&base[..], args].concat())["engine"].clone()
    };
    assert_eq!(engine(&["--kernel", "scalar-planes"]), "scalar-planes");
    assert_eq!(engine(&["--kernel", "portable"]), "scalar-queue");
    let many = ["--deck", "6J,6Q,6K,6A,28-", "--kernel", "portable"];
    assert_eq!(engine(&many), "scalar-planes");
    let fastest = engine(&[]);
    let name = fastest.as_str().unwrap();
    assert!(
        [
            "avx512-stream-8x64",
            "avx2-stream-4x64",
            "avx512-lanes-16x64",
            "scalar-queue"
        ]
        .contains(&name),
        "{fastest}"
    );
}

/// `stats --time` keeps the whole units it finished: its statistics are those of a `--games`
/// run of the count it played (the unit is 2^14 games).
#[test]
fn stats_for_a_time_equals_stats_of_the_games_it_played() {
    let timed = json(&["stats", "--time", "1s", "--seed", "4", "--json"]);
    let games = timed["games"].as_u64().unwrap();
    assert!(games > 0 && games.is_multiple_of(1 << 14), "{timed}");
    let counted = json(&[
        "stats",
        "--games",
        &games.to_string(),
        "--seed",
        "4",
        "--json",
    ]);
    let timing = ["elapsed_seconds", "games_per_second", "threads"];
    let (timed, counted) = (
        crate::common::without(timed, &timing),
        crate::common::without(counted, &timing),
    );
    assert_eq!(timed, counted);
    bad(
        &["stats", "--games", "5", "--time", "1m"],
        "cannot be used with",
    );
    bad(&["stats", "--time", "ten"], "bad --time 'ten'");
}

/// Whether a GPU adapter is there (lavapipe in CI); without one the GPU tests say so and pass,
/// unless `BMN_REQUIRE_GPU` is set.
fn have_gpu() -> bool {
    let devices = json(&["devices", "--json"]);
    let any = !devices["adapters"].as_array().unwrap().is_empty();
    if !any {
        assert!(
            std::env::var_os("BMN_REQUIRE_GPU").is_none(),
            "BMN_REQUIRE_GPU is set and `bmn devices` lists no adapter"
        );
        eprintln!("SKIPPED: no GPU adapter; set BMN_REQUIRE_GPU to fail instead");
    }
    any
}

#[test]
fn gpu_and_shared_runs_equal_the_cpu_kernels_in_search_exhaustive_stats_and_shards() {
    if !have_gpu() {
        return;
    }
    let without_engine =
        |v: Value| crate::common::without(result(v), &["kernel", "engine", "deals_per_second"]);
    let runs: [&[&str]; 3] = [
        &["search", "--games", "100000", "--seed", "3", "--json"],
        &[
            "exhaustive",
            "--deck",
            "2J,2Q,6-",
            "--list-cycles",
            "--json",
        ],
        &[
            "stats",
            "--games",
            "50000",
            "--deck",
            "2J,2Q,2K,14-",
            "--json",
        ],
    ];
    for args in runs {
        let cpu = without_engine(json(&[args, &["--kernel", "portable"]].concat()));
        for kernel in ["gpu", "all"] {
            let got = json(&[args, &["--kernel", kernel]].concat());
            assert_eq!(without_engine(got), cpu, "{args:?} --kernel {kernel}");
        }
    }
    // Shards played on different engines merge into the unsplit run.
    let dir = crate::common::scratch("gpu-shards");
    let whole = json(&["search", "--games", "60000", "--seed", "9", "--json"]);
    let files: Vec<_> = (1..=2).map(|i| dir.join(format!("s{i}.json"))).collect();
    for (i, (f, kernel)) in files.iter().zip(["gpu", "portable"]).enumerate() {
        let shard = format!("{}/2", i + 1);
        let file = f.to_str().unwrap();
        let args = [
            "search", "--games", "60000", "--seed", "9", "--shard", &shard,
        ];
        json(&[&args[..], &["--out", file, "--kernel", kernel, "--json"]].concat());
    }
    let (a, b) = (files[0].to_str().unwrap(), files[1].to_str().unwrap());
    let merged = json(&["merge", a, b, "--json"]);
    let drop = |v: Value| crate::common::without(result(v), &["kernel", "engine", "shard"]);
    assert_eq!(drop(merged), drop(whole));
}

/// `--kernel all` with a CPU adapter (lavapipe, as in CI) plays on the CPU kernel alone and
/// says why: the adapter would only take the cores the CPU kernel uses (issue 50: 19 times
/// slower than the CPU alone on 2 cores).
#[test]
fn kernel_all_leaves_out_a_cpu_adapter_and_says_so() {
    if !have_gpu() {
        return;
    }
    let devices = json(&["devices", "--json"]);
    if devices["adapters"][0]["kind"] != "cpu" {
        eprintln!("SKIPPED: adapter 0 is not a CPU adapter");
        return;
    }
    let out = crate::common::bmn(
        &[
            "search", "--games", "20000", "--kernel", "all", "--no-db", "--json",
        ],
        None,
    );
    assert!(out.status.success(), "{out:?}");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("--kernel all leaves out adapter 0") && stderr.contains("CPU adapter"),
        "{stderr}"
    );
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    let engine = report["engine"].as_str().unwrap();
    assert!(!engine.contains("gpu"), "{engine}");
    // Named with --device, it is left out all the same (issue 64: 3.97 M games/s against
    // 9.74 M for the CPU alone on 2 cores).
    let out = crate::common::bmn(
        &[
            "search", "--games", "20000", "--kernel", "all", "--device", "0", "--no-db", "--json",
        ],
        None,
    );
    assert!(out.status.success(), "{out:?}");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("--kernel all leaves out adapter 0"),
        "{stderr}"
    );
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    let engine = report["engine"].as_str().unwrap();
    assert!(!engine.contains("gpu"), "{engine}");
}

#[test]
fn gpu_without_an_adapter_fails_in_one_line() {
    // A Vulkan loader pointed at no driver finds no adapter, as on a machine without a GPU.
    let out = crate::common::command(&["search", "--kernel", "gpu", "--games", "10"])
        .env("VK_DRIVER_FILES", "/nonexistent.json")
        .env("VK_ICD_FILENAMES", "/nonexistent.json")
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    let ours: Vec<_> = stderr.lines().filter(|l| l.starts_with("bmn:")).collect();
    assert_eq!(ours.len(), 1, "{stderr}");
    assert!(ours[0].contains("no GPU adapter"), "{stderr}");
    assert!(out.stdout.is_empty());
}
