//! `--stream`: which seeded stream of deals a run draws, recorded in its result file, and kept
//! by a merge.

use std::path::Path;

use crate::common::*;

fn p(path: &Path) -> &str {
    path.to_str().unwrap()
}

#[test]
fn the_stream_names_the_deals_and_is_reported() {
    let two = json(&["deal", "--seed", "2026", "--json"]);
    let also_two = json(&["deal", "--seed", "2026", "--stream", "2", "--json"]);
    let one = json(&["deal", "--seed", "2026", "--stream", "1", "--json"]);
    assert_eq!(two, also_two);
    assert_eq!(one["stream"], 1);
    assert_eq!(two["stream"], 2);
    // The pinned deal 0 of seed 2026 on stream 2 (bmn-deals' sampler tests), cut in two.
    assert_eq!(
        two["deal"],
        "----JJ------K----K---JQQ-K/J---QAK-A------A--A------Q"
    );
    assert_ne!(one["deal"], two["deal"]);
    // Game K of a search is deal K of the same stream, on every engine.
    let deal = |stream: &str, k: &str| {
        json(&[
            "deal", "--seed", "9", "--stream", stream, "--index", k, "--json",
        ])["deal"]
            .clone()
    };
    for stream in ["1", "2"] {
        for kernel in ["portable", "lockstep"] {
            let s = json(&[
                "search", "--games", "3000", "--seed", "9", "--stream", stream, "--kernel", kernel,
                "--json",
            ]);
            assert_eq!(s["stream"].to_string(), stream);
            let best = &s["longest"][0];
            assert_eq!(
                best["deal"],
                deal(stream, &best["index"].to_string()),
                "{kernel}"
            );
        }
    }
    let stats = json(&["stats", "--games", "2000", "--stream", "2", "--json"]);
    assert_eq!(stats["stream"], 2);
    bad(&["deal", "--stream", "3"], "bad --stream");
    bad(
        &["search", "--stream", "0", "--games", "10"],
        "the streams are 1 and 2",
    );
}

#[test]
fn a_merge_keeps_one_stream() {
    let dir = scratch("streams-merge");
    let shard = |stream: &str, i: u64, file: &Path| {
        json(&[
            "search",
            "--games",
            "40000",
            "--seed",
            "3",
            "--stream",
            stream,
            "--shard",
            &format!("{i}/2"),
            "--out",
            p(file),
            "--json",
        ]);
    };
    let (a, b, c) = (dir.join("a.json"), dir.join("b.json"), dir.join("c.json"));
    shard("2", 1, &a);
    shard("2", 2, &b);
    shard("1", 2, &c);
    let whole = json(&[
        "search", "--games", "40000", "--seed", "3", "--stream", "2", "--json",
    ]);
    let merged = json(&["merge", p(&a), p(&b), "--json"]);
    assert_eq!(merged["stream"], 2);
    assert_eq!(merged["longest"], whole["longest"]);
    bad(&["merge", p(&a), p(&c)], "stream");
    // A file from before the field existed dealt stream 1.
    let text = std::fs::read_to_string(&c).unwrap();
    assert!(text.contains("\"stream\":1"), "{text}");
}
