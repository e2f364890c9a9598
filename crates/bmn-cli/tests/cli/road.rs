//! The road to Camicia (docs/results.md, Part 9): the committed rows (docs/catalogue/road/)
//! are what the census gives again, equal the older tables where they overlap, and are the
//! tables docs/results.md prints; `bmn family`'s refusals.

use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::common::{bad, json, ok, scratch, without, words};

fn road() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/catalogue/road")
}

fn results() -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/results.md");
    std::fs::read_to_string(path).unwrap()
}

/// The committed row of `slug` (`3j3q3k-08`).
fn row(slug: &str) -> Value {
    let text = std::fs::read_to_string(road().join(format!("{slug}.json"))).unwrap();
    serde_json::from_str(&text).unwrap()
}

/// A census report less what depends on the machine (its times).
fn timeless(mut v: Value) -> Value {
    if let Some(d) = v.get_mut("deals_run") {
        *d = without(d.take(), &["elapsed_seconds"]);
    }
    without(v, &["elapsed_seconds"])
}

fn files() -> Vec<String> {
    let mut files: Vec<String> = std::fs::read_dir(road())
        .unwrap()
        .map(|e| e.unwrap().path().to_str().unwrap().to_string())
        .filter(|p| p.ends_with(".json"))
        .collect();
    files.sort();
    files
}

/// Every small row, played again by the command docs/results.md gives for it, is its file
/// (less the times): every count of the road is reproducible.
#[test]
fn the_small_rows_are_what_the_census_gives_again() {
    let decks = (1..=14)
        .map(|n| (format!("2J,2Q,2K,{n}-"), format!("2j2q2k-{n:02}")))
        .chain((1..=7).map(|n| (format!("3J,3Q,3K,{n}-"), format!("3j3q3k-{n:02}"))));
    for (deck, slug) in decks {
        let again = json(&["census", "--deck", &deck, "--methods", "deals", "--json"]);
        assert_eq!(timeless(again), timeless(row(&slug)), "{deck}");
    }
}

/// docs/results.md's road tables are `bmn family --markdown` of the committed rows, and its
/// plots' files are there.
#[test]
fn the_results_tables_are_bmn_family_of_the_committed_rows() {
    let files = files();
    let mut args = vec!["family", "--markdown"];
    args.extend(files.iter().map(String::as_str));
    let tables = ok(&args);
    let doc = results();
    let blocks: Vec<&str> = tables.split("\n\n").collect();
    assert!(blocks.len() >= 2, "{tables}");
    for block in blocks {
        assert!(
            doc.contains(block.trim_end()),
            "docs/results.md lacks this table (regenerate it with `bmn family --markdown`):\n{block}"
        );
    }
    let report = json(&{
        let mut a = vec!["family", "--json"];
        a.extend(files.iter().map(String::as_str));
        a
    });
    for f in report["families"].as_array().unwrap() {
        let name = f["family"]
            .as_str()
            .unwrap()
            .replace(",n-", "")
            .replace(',', "");
        let img = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join(format!("../../docs/img/road-{}.svg", name.to_lowercase()));
        assert!(img.is_file(), "{}", img.display());
    }
}

/// The rows (n >= 1) of the table under `heading` in docs/results.md, split into cells.
fn table_rows<'a>(doc: &'a str, heading: &str, next: &str) -> Vec<(u32, Vec<&'a str>)> {
    let section = doc
        .split(heading)
        .nth(1)
        .unwrap()
        .split(next)
        .next()
        .unwrap();
    section
        .lines()
        .filter(|l| l.starts_with("| "))
        .filter_map(|line| {
            let cells: Vec<&str> = line
                .split(" | ")
                .map(|c| c.trim_matches(['|', ' ']))
                .collect();
            let n = cells[0].parse::<u32>().ok()?;
            (n > 0).then_some((n, cells))
        })
        .collect()
}

/// An older table's row against the road's file `slug`: deals, endless deals, cycles,
/// P(2nd), the longest game and the mean length (a published figure in brackets aside).
fn same_outcomes(cells: &[&str], slug: &str) {
    let r = row(slug);
    let d = &r["deals_run"];
    let first = |i: usize| cells[i].split([' ', ':']).next().unwrap();
    assert_eq!(cells[1], d["deals"].to_string(), "{slug}");
    assert_eq!(first(2), d["cycling_deals"].to_string(), "{slug}");
    assert_eq!(first(3), d["distinct_cycle_count"].to_string(), "{slug}");
    let p = d["p_second_wins"].as_f64().unwrap();
    assert_eq!(first(4), format!("{p:.6}"), "{slug}");
    let l = &d["longest"];
    let longest = format!(
        "{} / {}, `{}`",
        l["cards"],
        l["tricks"],
        l["deal"].as_str().unwrap()
    );
    assert_eq!(cells[5], longest, "{slug}");
    let mean = d["mean_cards"].as_f64().unwrap();
    assert_eq!(cells[6], format!("{mean:.3}"), "{slug}");
}

/// Where the road overlaps the tables docs/results.md had before it (the half deck's family
/// to n = 24, Paulhus's Table 1, `3J,3Q,3K,8-` to `11-` in the census's recall table, and the
/// census files of `2J,2Q,2K,14-` and `3J,3Q,3K,11-`), the counts are equal.
#[test]
fn the_road_equals_the_older_tables_where_they_overlap() {
    let doc = results();
    let half = table_rows(&doc, "## The Camicia half deck", "\n## ");
    for (n, cells) in &half {
        same_outcomes(cells, &format!("2j2q2k-{n:02}"));
    }
    assert_eq!(half.len(), 24);
    // Paulhus's Table 1 (Part 1), wherever the road has the row.
    let mut paulhus = 0;
    for (n, cells) in table_rows(&doc, "## Paulhus's Table 1 and beyond", "\n### ") {
        let slug = format!("2j2q2k2a-{n:02}");
        if road().join(format!("{slug}.json")).is_file() {
            same_outcomes(&cells, &slug);
            paulhus += 1;
        }
    }
    assert!(paulhus >= 9, "{paulhus}");
    for n in 8..=11 {
        let deck = format!("`3J,3Q,3K,{n}-`");
        let line = doc
            .lines()
            .find(|l| l.starts_with(&format!("| {deck} |")))
            .unwrap();
        let cells: Vec<&str> = line.split(" | ").collect();
        let r = row(&format!("3j3q3k-{n:02}"));
        let d = &r["deals_run"];
        assert_eq!(cells[1].replace(',', ""), d["deals"].to_string(), "{deck}");
        let endless = format!("{} / {}", d["cycling_deals"], d["distinct_cycle_count"]);
        assert_eq!(cells[2], endless, "{deck}");
    }
    let catalogue = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/catalogue");
    for (older, slug) in [
        ("census-camicia-half", "2j2q2k-14"),
        ("census-3j3q3k-11", "3j3q3k-11"),
    ] {
        let text = std::fs::read_to_string(catalogue.join(format!("{older}.json"))).unwrap();
        let older: Value = serde_json::from_str(&text).unwrap();
        let cycles = |v: &Value| -> Vec<(String, u64, bool, bool, u64)> {
            let mut c: Vec<_> = v["catalogue"]
                .as_array()
                .unwrap()
                .iter()
                .map(|c| {
                    (
                        c["cycle_id"].as_str().unwrap().to_string(),
                        c["balanced_deals"].as_u64().unwrap(),
                        c["anti_periodic"].as_bool().unwrap(),
                        c["splits_at_rest_state"].as_bool().unwrap(),
                        c["min_hand"].as_u64().unwrap(),
                    )
                })
                .collect();
            c.sort();
            c
        };
        assert_eq!(cycles(&older), cycles(&row(slug)), "{slug}");
    }
}

/// `bmn family` reads exact censuses only, each deck once, and plots one family at a time.
#[test]
fn family_refuses_what_is_not_a_row() {
    let dir = scratch("family");
    let floor = dir.join("floor.json");
    let text = ok(&words("census --deck 2J,2Q,2K,7- --methods pieces --json"));
    std::fs::write(&floor, text).unwrap();
    bad(
        &["family", floor.to_str().unwrap()],
        "not every deal was played, so its counts are a floor",
    );
    let seven = road().join("2j2q2k-07.json");
    let seven = seven.to_str().unwrap();
    let copy = dir.join("copy.json");
    std::fs::copy(seven, &copy).unwrap();
    bad(
        &["family", seven, copy.to_str().unwrap()],
        "are both 2J,2Q,2K,7- (family 2J,2Q,2K,n-): give each deck once",
    );
    let other = road().join("3j3q3k-08.json");
    let plot = dir.join("two.svg");
    bad(
        &[
            "family",
            seven,
            other.to_str().unwrap(),
            "--plot",
            plot.to_str().unwrap(),
        ],
        "bad --plot: the files hold 2 families",
    );
    let junk = dir.join("junk.json");
    std::fs::write(&junk, "{\"deck\": 1}").unwrap();
    bad(
        &["family", junk.to_str().unwrap()],
        "is not the --json of `bmn census`",
    );
    // The firsts, as the prose of docs/results.md reads them.
    let v = json(&["family", "--json", seven, other.to_str().unwrap()]);
    let half = &v["families"][0];
    assert_eq!(half["family"], "2J,2Q,2K,n-");
    assert_eq!(half["first_cycle"], 7);
    assert_eq!(half["first_anti_periodic"], 7);
    assert_eq!(v["families"][1]["first_anti_periodic"], Value::Null);
}
