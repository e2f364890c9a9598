//! bmn-run called as a library, not through the binary: result files (round trip, refusal of
//! a damaged or truncated one), atomic writes, run locks, the ledger (record, resume, a
//! damaged database), recorders, merges (exact covers merged, missing or overlapping shards
//! refused) and the driver stopping at a unit boundary. Each test works in its own scratch
//! folder and takes milliseconds.

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use bmn_job::{Claims, Job};
use bmn_run::Shard;
use bmn_run::{
    Ledger, LedgerChoice, Recorder, RunError, RunFile, RunLock, Workers, drive, merge_files,
    write_atomically,
};
use bmn_search::{Progress, Summary};
use serde::{Deserialize, Serialize};

/// What the test runs depend on besides their range.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
struct Params {
    seed: u64,
}

const FORMAT: &str = "bmn-run-test-1";

/// A fresh scratch folder for one test of this process.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("bmn-run-api-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// What unit `u` of a test run adds up to: one game per unit number and one more, so that a
/// summary tells which units it holds (units `0..n` give `n(n+1)/2` games).
fn unit(u: u64) -> Summary {
    let mut s = Summary::new(0);
    s.games = u + 1;
    s.total_cards = u128::from(u) * u128::from(u);
    s
}

/// The summary of units `range`, merged in order.
fn units(range: std::ops::Range<u64>) -> Summary {
    let mut s = Summary::new(0);
    for u in range {
        s.merge(unit(u));
    }
    s
}

/// Shard `shard` of a run of `seed` with `total` indices in units of 10, done up to
/// `next_unit` (its last unit when `None`). Built from JSON so that it names only the fields
/// a file must have.
fn file(seed: u64, shard: Shard, total: u64, next_unit: Option<u64>) -> RunFile<Params> {
    let (u, r) = shard.units(total.div_ceil(10), 10, total);
    let next = next_unit.unwrap_or(u.end);
    serde_json::from_value(serde_json::json!({
        "format": FORMAT,
        "params": Params { seed },
        "shard": shard.to_string(),
        "range": [r.start, r.end],
        "total": total,
        "units": [u.start, u.end],
        "next_unit": next,
        "summary": units(u.start..next),
    }))
    .unwrap()
}

fn text(e: RunError) -> String {
    e.to_string()
}

#[test]
fn a_run_file_round_trips_and_a_damaged_one_is_refused() {
    let dir = scratch("file");
    let path = dir.join("run.json");
    let f = file(7, Shard { index: 2, count: 3 }, 95, Some(5));
    f.save(&path).unwrap();
    let back = RunFile::<Params>::load(&path, FORMAT).unwrap();
    assert!(back.same_run(&f));
    assert_eq!((back.next_unit, &back.summary), (f.next_unit, &f.summary));
    assert!(!back.finished());

    let saved = std::fs::read_to_string(&path).unwrap();
    let load = |name: &str, text: &str| {
        let p = dir.join(name);
        std::fs::write(&p, text).unwrap();
        text_of(RunFile::<Params>::load(&p, FORMAT))
    };
    // One digit changed: the checksum no longer matches, and the message names the file.
    let edited = saved.replacen("\"seed\":7", "\"seed\":8", 1);
    assert_ne!(edited, saved);
    let refused = load("edited.json", &edited);
    assert!(refused.contains("edited.json"), "{refused}");
    assert!(refused.contains("checksum does not match"), "{refused}");
    let refused = load("cut.json", &saved[..saved.len() / 2]);
    assert!(refused.contains("truncated"), "{refused}");
    let other = saved.replacen(FORMAT, "bmn-other-9", 1);
    let refused = load("other.json", &other);
    assert!(
        refused.contains("a bmn-other-9 file, not bmn-run-test-1"),
        "{refused}"
    );
    let refused = load("text.json", "hello");
    assert!(refused.contains("not a bmn result file"), "{refused}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// The error's message, or a panic if there was none.
fn text_of<T>(result: Result<T, RunError>) -> String {
    match result {
        Ok(_) => panic!("accepted"),
        Err(e) => text(e),
    }
}

#[test]
fn write_atomically_replaces_a_file_whole_or_not_at_all() {
    let dir = scratch("atomic");
    let path = dir.join("a.txt");
    write_atomically(&path, b"first").unwrap();
    write_atomically(&path, b"second, longer").unwrap();
    assert_eq!(std::fs::read(&path).unwrap(), b"second, longer");
    assert!(!dir.join("a.txt.tmp").exists(), "no temporary file is left");
    // Where it cannot write, it says which file and leaves nothing behind.
    let nowhere = dir.join("missing").join("b.txt");
    let refused = text_of(write_atomically(&nowhere, b"x"));
    assert!(refused.contains("writing"), "{refused}");
    assert!(refused.contains("b.txt"), "{refused}");
    assert!(!dir.join("missing").exists());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_run_lock_refuses_a_second_holder_until_the_first_lets_go() {
    let dir = scratch("lock");
    let path = RunLock::beside(&dir.join("x.json"), ".lock");
    assert_eq!(path, dir.join("x.json.lock"));
    let first = RunLock::acquire(path.clone(), "x.json").unwrap();
    let refused = text_of(RunLock::acquire(path.clone(), "x.json"));
    assert!(
        refused.contains("x.json is being run by another bmn process"),
        "{refused}"
    );
    drop(first);
    assert!(!path.exists(), "the lock file goes with its lock");
    drop(RunLock::acquire(path, "x.json").unwrap());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_ledger_records_and_resumes_the_latest_run_of_the_same_parameters() {
    let dir = scratch("ledger");
    let db = dir.join("state").join("runs.sqlite");
    let template = file(3, Shard::WHOLE, 200, Some(0));
    {
        let ledger = Ledger::open(&db).unwrap();
        assert_eq!(ledger.path(), db);
        let (id, none) = ledger.begin(&template, false).unwrap();
        assert!(none.is_none());
        ledger
            .save(id, &file(3, Shard::WHOLE, 200, Some(7)))
            .unwrap();
    }
    // Opened again (another process, as after a kill): the resume starts at unit 7.
    let ledger = Ledger::open(&db).unwrap();
    let (_, saved) = ledger.begin(&template, true).unwrap();
    let saved = saved.expect("the recorded run");
    assert_eq!(saved.next_unit, 7);
    assert_eq!(saved.summary, units(0..7));
    // Other parameters: nothing to resume, and the error names the database.
    let other = file(4, Shard::WHOLE, 200, Some(0));
    let refused = ledger.begin(&other, true).unwrap_err();
    assert_eq!(refused, RunError::NoSuchRun { path: db.clone() });
    assert!(refused.is_input());
    assert!(
        !text(refused).contains("--"),
        "no flag names in the library"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_damaged_database_is_named_and_left_as_it_was() {
    let dir = scratch("damaged");
    let db = dir.join("broken.sqlite");
    let damage = [0xffu8; 4096];
    std::fs::write(&db, damage).unwrap();
    let refused = Ledger::open(&db).err().expect("refused");
    // Its header is not SQLite's: a file named by mistake, the user's to fix.
    assert!(
        matches!(refused, RunError::NotADatabase { .. }),
        "{refused:?}"
    );
    assert!(refused.is_input());
    let said = text(refused);
    assert!(said.contains("broken.sqlite"), "{said}");
    assert!(said.contains("not a run database"), "{said}");
    assert!(!said.contains("--"), "no flag names in the library: {said}");
    assert_eq!(std::fs::read(&db).unwrap(), damage);
    let _ = std::fs::remove_dir_all(&dir);
}

/// `same_run` as the front ends give it: a file of another run is named so.
fn same_run(a: &RunFile<Params>, b: &RunFile<Params>) -> Result<(), String> {
    if a.same_run(b) {
        Ok(())
    } else {
        Err("of another run".into())
    }
}

#[test]
fn a_recorder_resumes_from_the_furthest_of_its_file_and_its_ledger() {
    let dir = scratch("recorder");
    let (db, out) = (dir.join("runs.sqlite"), dir.join("run.json"));
    let template = file(5, Shard::WHOLE, 300, Some(0));
    let choice = |resume| LedgerChoice {
        db: Some(db.clone()),
        resume,
        no_db: false,
    };
    {
        let opened =
            Recorder::open(template.clone(), &choice(false), Some(&out), same_run).unwrap();
        assert!(opened.warning.is_none());
        assert_eq!(opened.start.next_unit, 0);
        let mut recorder = opened.recorder;
        assert!(
            recorder.describe().unwrap().starts_with("run 1 in "),
            "{:?}",
            recorder.describe()
        );
        // A second recorder of the same file is refused while the first holds it.
        let refused = text_of(Recorder::open(
            template.clone(),
            &LedgerChoice::NONE,
            Some(&out),
            same_run,
        ));
        assert!(
            refused.contains("is being run by another bmn process"),
            "{refused}"
        );
        recorder.save(&units(0..4), 4).unwrap();
    }
    // The out file alone holds unit 4 on; with the ledger, the furthest (both agree here).
    let opened =
        Recorder::open(template.clone(), &LedgerChoice::NONE, Some(&out), same_run).unwrap();
    assert_eq!(opened.start.next_unit, 4);
    drop(opened);
    let opened = Recorder::open(template.clone(), &choice(true), None, same_run).unwrap();
    assert_eq!(opened.start.next_unit, 4);
    assert_eq!(opened.start.summary, units(0..4));
    drop(opened);
    // A file of another run is refused, named; a resume with no database says so.
    let other = file(6, Shard::WHOLE, 300, Some(0));
    let refused = text_of(Recorder::open(
        other,
        &LedgerChoice::NONE,
        Some(&out),
        same_run,
    ));
    assert!(refused.contains("run.json: of another run"), "{refused}");
    let no_db = LedgerChoice {
        resume: true,
        ..LedgerChoice::NONE
    };
    let refused = Recorder::open(template, &no_db, None, same_run)
        .err()
        .expect("refused");
    assert_eq!(refused, RunError::ResumeNeedsDatabase);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn merge_takes_an_exact_cover_and_refuses_gaps_overlaps_and_unfinished_shards() {
    let total = 1234;
    let thirds: Vec<RunFile<Params>> = (1..=3)
        .map(|index| file(9, Shard { index, count: 3 }, total, None))
        .collect();
    let paths: Vec<PathBuf> = (1..=3)
        .map(|i| PathBuf::from(format!("s{i}.json")))
        .collect();
    let merge = |order: &[usize]| {
        let p: Vec<PathBuf> = order.iter().map(|&i| paths[i].clone()).collect();
        let f: Vec<RunFile<Params>> = order.iter().map(|&i| thirds[i].clone()).collect();
        merge_files(&p, f)
    };
    // In any order, the shards merge into the whole run's summary.
    let merged = merge(&[2, 0, 1]).unwrap();
    assert_eq!(merged.range, [0, u128::from(total)]);
    assert_eq!(merged.summary.games, units(0..total.div_ceil(10)).games);
    assert_eq!(merged.first.params, Params { seed: 9 });

    let refused = text_of(merge(&[0, 2]));
    assert!(refused.contains("leave a gap"), "{refused}");
    let refused = text_of(merge(&[0, 1, 1, 2]));
    assert!(
        refused.contains("s2.json (shard 2/3) and s2.json (shard 2/3) overlap"),
        "{refused}"
    );
    // Shards of another split overlap; a shard of another run is named with the difference.
    let half = file(9, Shard { index: 2, count: 2 }, total, None);
    let refused = text_of(merge_files(
        &[paths[0].clone(), paths[1].clone(), "half.json".into()],
        vec![thirds[0].clone(), thirds[1].clone(), half],
    ));
    assert!(refused.contains("overlap"), "{refused}");
    let other = file(8, Shard { index: 3, count: 3 }, total, None);
    let refused = text_of(merge_files(
        &paths,
        vec![thirds[0].clone(), thirds[1].clone(), other],
    ));
    assert!(refused.contains("seed 8 against 9"), "{refused}");
    let mut unfinished = thirds.clone();
    unfinished[1].next_unit -= 1;
    let refused = text_of(merge_files(&paths, unfinished));
    assert!(
        refused.contains("s2.json (shard 2/3) is not finished"),
        "{refused}"
    );
}

#[test]
fn the_driver_stops_at_a_unit_boundary_and_records_a_whole_prefix() {
    let dir = scratch("drive");
    let out = dir.join("run.json");
    let template = file(1, Shard::WHOLE, 1000, Some(0));
    let opened = Recorder::open(template, &LedgerChoice::NONE, Some(&out), same_run).unwrap();
    let mut recorder = opened.recorder;
    let mut state = Progress {
        next_unit: 0,
        summary: Summary::new(0),
    };
    let stop = AtomicBool::new(false);
    // Units take a moment each; the fifth asks the run to stop, as Ctrl-C would mid-unit.
    let play = |u: u64| {
        std::thread::sleep(Duration::from_millis(2));
        if u == 5 {
            stop.store(true, Ordering::Relaxed);
        }
        unit(u)
    };
    let mut seen = Vec::new();
    let two_workers = |claims| Workers { threads: 2, claims };
    drive(
        &mut recorder,
        &mut state,
        Some(100),
        two_workers(Claims::Each(1)),
        &mut Job::quiet(&stop),
        |units: std::ops::Range<u64>, _| play(units.start),
        |_, s, next| {
            seen.push((s.games, next));
            true
        },
    )
    .unwrap();
    let n = state.next_unit;
    assert!((5..100).contains(&n), "stopped at {n}");
    assert_eq!(state.summary, units(0..n), "a whole prefix of the units");
    assert!(
        seen.iter()
            .all(|&(games, next)| games == units(0..next).games)
    );
    // What it recorded is that prefix, and resuming goes on from it to the whole run.
    drop(recorder);
    let saved = RunFile::<Params>::load(&out, FORMAT).unwrap();
    assert_eq!((saved.next_unit, &saved.summary), (n, &state.summary));
    let opened = Recorder::open(saved.clone(), &LedgerChoice::NONE, Some(&out), same_run).unwrap();
    let mut recorder = opened.recorder;
    let resumed = AtomicBool::new(false);
    drive(
        &mut recorder,
        &mut state,
        Some(100),
        two_workers(Claims::Paced {
            max: 7,
            shared: true,
        }),
        &mut Job::quiet(&resumed),
        // Paced blocks of up to seven units, as a device plays them beside a CPU worker: the
        // same prefix and the same result.
        |r, _| units(r),
        |_, _, _| true,
    )
    .unwrap();
    assert_eq!(state.next_unit, 100);
    assert_eq!(state.summary, units(0..100));
    drop(recorder);
    let _ = std::fs::remove_dir_all(&dir);
}
