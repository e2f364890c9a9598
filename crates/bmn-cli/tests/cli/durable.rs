//! Runs that survive: shards merged into the unsplit run, merges that refuse a wrong set of
//! files and say which, and runs killed with SIGKILL and resumed (from the run database or
//! from their `--out` file) that equal an uninterrupted run.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use crate::common::{
    bad, bmn, checkpointed, command, enumeration_result, json, json_of, kill, kill_when, ok,
    recorded, scratch, start_until, without,
};
use serde_json::Value;

/// A search report without what depends on the machine or the way it was run.
fn result(v: Value) -> Value {
    without(
        v,
        &[
            "elapsed_seconds",
            "games_per_second",
            "threads",
            "kernel",
            "engine",
            "shard",
            "interrupted",
        ],
    )
}

fn p(path: &Path) -> &str {
    path.to_str().unwrap()
}

const GAMES: &str = "100000";

/// Shard `i/n` of the 100000-game search of `seed` into `file`.
fn shard(seed: &str, i: u64, n: u64, file: &Path) -> Value {
    json(&[
        "search",
        "--games",
        GAMES,
        "--seed",
        seed,
        "--shard",
        &format!("{i}/{n}"),
        "--out",
        p(file),
        "--json",
    ])
}

#[test]
fn search_shards_merge_into_the_unsplit_run_and_wrong_sets_are_refused() {
    let dir = scratch("search-merge");
    let whole = json(&["search", "--games", GAMES, "--seed", "7", "--json"]);
    let files: Vec<PathBuf> = (1..=3).map(|i| dir.join(format!("s{i}.json"))).collect();
    for (i, f) in files.iter().enumerate() {
        let part = shard("7", i as u64 + 1, 3, f);
        assert!(part["games"].as_u64().unwrap() < 100000);
    }
    // In any order.
    let merged = json(&["merge", p(&files[2]), p(&files[0]), p(&files[1]), "--json"]);
    // One merge for every kind of run: merged shards are named the same way.
    assert_eq!(merged["shard"], "1,2,3/3");
    assert_eq!(merged["engine"], "merged");
    assert_eq!(result(merged), result(whole));

    // A missing shard, one given twice, a mixed split, another seed: each refused, named.
    bad(&["merge", p(&files[0]), p(&files[2])], "leave a gap");
    bad(
        &[
            "merge",
            p(&files[0]),
            p(&files[1]),
            p(&files[1]),
            p(&files[2]),
        ],
        "given twice",
    );
    let half = dir.join("half.json");
    shard("7", 2, 2, &half);
    bad(&["merge", p(&files[0]), p(&files[1]), p(&half)], "overlap");
    let other = dir.join("other.json");
    shard("8", 3, 3, &other);
    bad(
        &["merge", p(&files[0]), p(&files[1]), p(&other)],
        "seed 8 against 7",
    );
    // Corrupt, truncated, of another kind, not a result file at all.
    let text = std::fs::read_to_string(&files[1]).unwrap();
    let edited = dir.join("edited.json");
    std::fs::write(&edited, text.replacen("\"games\":", "\"games\":1", 1)).unwrap();
    bad(
        &["merge", p(&files[0]), p(&edited), p(&files[2])],
        "checksum does not match",
    );
    let cut = dir.join("cut.json");
    std::fs::write(&cut, &text[..text.len() / 2]).unwrap();
    bad(&["merge", p(&files[0]), p(&cut), p(&files[2])], "truncated");
    let enumeration = dir.join("enum.json");
    ok(&[
        "exhaustive",
        "--deck",
        "2J,2Q,4-",
        "--checkpoint",
        p(&enumeration),
    ]);
    bad(
        &["merge", p(&files[0]), p(&enumeration)],
        "not bmn-search-2",
    );
    std::fs::write(&cut, "hello").unwrap();
    bad(&["merge", p(&cut)], "not a bmn result file");
}

/// Shard 1/2 of [`slow_search`] into `out`, on one thread, unrecorded.
fn slow_shard(out: &Path) -> Vec<&str> {
    slow_search(&[
        "--shard",
        "1/2",
        "--out",
        p(out),
        "--no-db",
        "--threads",
        "1",
    ])
}

/// A run slow enough to kill part-way: three players play on the reference engine.
fn slow_search<'a>(extra: &[&'a str]) -> Vec<&'a str> {
    let mut args = vec![
        "search",
        "--games",
        "500000",
        "--players",
        "3",
        "--seed",
        "11",
        "--json",
    ];
    args.extend(extra);
    args
}

#[test]
fn a_killed_run_resumes_from_the_database_to_the_same_result() {
    let dir = scratch("kill-db");
    let db = dir.join("runs.sqlite");
    let db_args = ["--db", p(&db), "--threads", "1"];
    kill_when(&slow_search(&db_args), "a recorded unit", || recorded(&db));
    let mut resume = db_args.to_vec();
    resume.push("--resume");
    let out = bmn(&slow_search(&resume), None);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    // It went on from where the killed run had recorded, not from the start.
    assert!(stderr.contains("resuming at game "), "{stderr}");
    assert!(!stderr.contains("resuming at game 0 "), "{stderr}");
    let resumed: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(result(resumed), slow_whole());
    // Resuming a finished run reports it again without playing; a run never started has
    // nothing to resume.
    let again = json(&slow_search(&resume));
    assert_eq!(result(again), slow_whole());
    bad(
        &["search", "--games", "77", "--db", p(&db), "--resume"],
        "holds no run with these parameters",
    );
}

#[test]
fn a_killed_shard_resumes_from_its_out_file_and_merges_only_when_finished() {
    let dir = scratch("kill-out");
    let out = dir.join("shard1.json");
    let args = slow_shard(&out);
    kill_when(&args, "a checkpoint", || checkpointed(&out));
    let other = dir.join("shard2.json");
    ok(&slow_search(&[
        "--shard",
        "2/2",
        "--out",
        p(&other),
        "--no-db",
    ]));
    // The killed shard's file is a valid, unfinished result: merge refuses it and says so.
    bad(&["merge", p(&out), p(&other)], "is not finished");
    ok(&args);
    let merged = json(&["merge", p(&out), p(&other), "--json"]);
    assert_eq!(result(merged), slow_whole());
}

#[test]
fn shard_auto_reads_the_scheduler() {
    let dir = scratch("auto");
    let f = dir.join("a.json");
    let v = json_of(
        command(&[
            "search",
            "--games",
            "50000",
            "--shard",
            "auto",
            "--out",
            p(&f),
            "--json",
            "--no-db",
        ])
        .env("SLURM_ARRAY_TASK_ID", "3")
        .env("SLURM_ARRAY_TASK_MIN", "1")
        .env("SLURM_ARRAY_TASK_COUNT", "4"),
    );
    assert_eq!(v["shard"], "3/4");
    bad(
        &["search", "--games", "10", "--shard", "auto"],
        "no scheduler index",
    );
    // Enumerations read the scheduler the same way, and their shards merge with `bmn merge`.
    let deck = ["exhaustive", "--deck", "2J,2Q,2K,2A,2-", "--no-db"];
    let whole = json(&[&deck[..], &["--json"]].concat());
    let mut files = Vec::new();
    for task in 0..2 {
        let f = dir.join(format!("e{task}.json"));
        let v = json_of(
            command(&deck)
                .args(["--shard", "auto", "--checkpoint", p(&f), "--json"])
                .env("SLURM_ARRAY_TASK_ID", task.to_string())
                .env("SLURM_ARRAY_TASK_COUNT", "2"),
        );
        assert_eq!(v["shards"], format!("{}/2", task + 1));
        files.push(f);
    }
    let merged = json(&["merge", p(&files[0]), p(&files[1]), "--json"]);
    assert_eq!(merged["shards"], "1,2/2");
    assert_eq!(merged["deals"], whole["deals"]);
    assert_eq!(merged["wins_by_seat"], whole["wins_by_seat"]);
    bad(
        &[
            "exhaustive",
            "--deck",
            "2J,2Q,6-",
            "--shard",
            "auto",
            "--no-db",
        ],
        "no scheduler index",
    );
    bad(
        &["search", "--time", "1s", "--shard", "1/2"],
        "give --games",
    );
}

#[test]
fn a_killed_enumeration_resumes_from_the_database_to_the_same_result() {
    let dir = scratch("kill-exhaustive");
    let db = dir.join("runs.sqlite");
    let run = |extra: &[&str]| {
        let mut args = vec![
            "exhaustive",
            "--deck",
            "2J,2Q,2K,2A,8-",
            "--threads",
            "1",
            "--json",
            "--db",
            p(&db),
        ];
        args.extend(extra.iter().copied());
        args.iter().map(|s| s.to_string()).collect::<Vec<_>>()
    };
    let args = run(&[]);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    kill_when(&args, "a recorded unit", || recorded(&db));
    let resume = run(&["--resume"]);
    let resume: Vec<&str> = resume.iter().map(String::as_str).collect();
    let out = bmn(&resume, None);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(stderr.contains("resuming at deal "), "{stderr}");
    let resumed: Value = serde_json::from_slice(&out.stdout).unwrap();
    let whole = json(&[
        "exhaustive",
        "--deck",
        "2J,2Q,2K,2A,8-",
        "--json",
        "--no-db",
    ]);
    assert_eq!(enumeration_result(resumed), enumeration_result(whole));
}

#[test]
fn an_unwritable_default_database_only_costs_the_recording() {
    let out = command(&["search", "--games", "20000", "--json"])
        .env("BMN_DB", "/proc/bmn-cannot-be-here/runs.sqlite")
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(stderr.contains("not recording this run"), "{stderr}");
    // Asked for by name, the same database is an error that names it.
    let out = bmn(
        &[
            "search",
            "--games",
            "10",
            "--db",
            "/proc/bmn-cannot-be-here/runs.sqlite",
        ],
        None,
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(stderr.contains("/proc/bmn-cannot-be-here"), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
}

/// The uninterrupted `slow_search` (once per test process: several tests compare with it).
fn slow_whole() -> Value {
    static WHOLE: std::sync::OnceLock<Value> = std::sync::OnceLock::new();
    WHOLE
        .get_or_init(|| result(json(&slow_search(&["--no-db", "--threads", "2"]))))
        .clone()
}

/// Runs `bmn args` under `sh -c 'setup; exec bmn args'`: resource limits for one process.
fn bmn_under(setup: &str, args: &[&str]) -> std::process::Output {
    Command::new("sh")
        .arg("-c")
        .arg(format!("{setup}; exec \"$0\" \"$@\""))
        .arg(env!("CARGO_BIN_EXE_bmn"))
        .args(args)
        .env("BMN_DB", crate::common::test_db())
        .output()
        .unwrap()
}

#[test]
fn two_processes_cannot_go_on_with_the_same_run() {
    let dir = scratch("two-resumes");
    let db = dir.join("runs.sqlite");
    let db_args = ["--db", p(&db), "--threads", "1"];
    let lock = dir.join("runs.sqlite.run-1.lock");
    let first = start_until(&slow_search(&db_args), "its lock", || lock.exists());
    let mut resume = db_args.to_vec();
    resume.push("--resume");
    bad(
        &slow_search(&resume),
        &format!(
            "run 1 in {} is being run by another bmn process (process {})",
            db.display(),
            first.id()
        ),
    );
    kill(first);
    // Killed, its lock went with it: the resume now goes on, to the unsplit result.
    let resumed = json(&slow_search(&resume));
    assert_eq!(result(resumed), slow_whole());
    assert!(
        !dir.join("runs.sqlite.run-1.lock").exists(),
        "the lock is removed at the end"
    );

    // The same for two runs writing one --out file.
    let out = dir.join("shard.json");
    let args = slow_shard(&out);
    let lock = dir.join("shard.json.lock");
    let first = start_until(&args, "its lock", || lock.exists());
    bad(&args, "shard.json is being run by another bmn process");
    kill(first);
}

/// The stderr of a run that failed for the machine's reason: exit code 1, no panic. Its last
/// line is printed as `FAULT what: line`, the record of what each fault says.
#[track_caller]
fn failed(what: &str, out: &std::process::Output) -> String {
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    println!(
        "FAULT {what}: {}",
        stderr.trim().lines().last().unwrap_or("")
    );
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    stderr
}

/// The file-size limit of `ulimit -f 0` (its signal ignored, so writes fail with EFBIG) is a
/// disk with no room left, for any user and any file system.
const NO_ROOM: &str = "trap '' XFSZ; ulimit -f 0";

#[test]
fn a_full_disk_keeps_the_last_checkpoint_and_resume_goes_on_from_it() {
    let dir = scratch("full-disk");
    let out = dir.join("run.json");
    let db = dir.join("runs.sqlite");
    let args = slow_search(&["--out", p(&out), "--db", p(&db), "--threads", "1"]);
    kill_when(&args, "a checkpoint", || checkpointed(&out));
    let saved = std::fs::read(&out).expect("a checkpoint was saved");
    let mut resume = args.clone();
    resume.push("--resume");
    // The run file alone (its save fails), then with the database (which fails first).
    let file_only = slow_search(&["--out", p(&out), "--no-db", "--threads", "1"]);
    for (what, args) in [("run file", &file_only), ("database", &resume)] {
        let stderr = failed(&format!("ulimit -f 0 ({what})"), &bmn_under(NO_ROOM, args));
        let said = stderr.trim().lines().last().unwrap_or("");
        assert!(said.contains("the last saved state is kept"), "{stderr}");
        assert_eq!(
            std::fs::read(&out).unwrap(),
            saved,
            "the checkpoint is intact"
        );
        assert!(
            !dir.join("run.json.tmp").exists(),
            "no partial file is left"
        );
    }
    // Room again: the run goes on from its checkpoint to the unsplit result.
    let resumed = json(&resume);
    assert_eq!(result(resumed), slow_whole());
}

/// A real full disk and a read-only one: a small tmpfs, where this test may mount one (as
/// root with the capability); elsewhere it says it did not run.
#[test]
fn a_real_full_and_read_only_file_system() {
    let dir = scratch("tmpfs");
    let mounted = Command::new("mount")
        .args(["-t", "tmpfs", "-o", "size=256k", "tmpfs", p(&dir)])
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if !mounted {
        eprintln!("SKIPPED: cannot mount a tmpfs here (not root); the ulimit test stands in");
        return;
    }
    let umount = |dir: &Path| {
        let _ = Command::new("umount").arg(dir).status();
        let _ = std::fs::remove_dir_all(dir);
    };
    let out = dir.join("run.json");
    let args = slow_search(&["--out", p(&out), "--no-db", "--threads", "1"]);
    kill_when(&args, "a checkpoint", || checkpointed(&out));
    let saved = std::fs::read(&out).expect("a checkpoint was saved");

    // Full: a filler file takes every free byte.
    let filler = dir.join("filler");
    let _ = Command::new("dd")
        .args(["if=/dev/zero", &format!("of={}", p(&filler)), "bs=4k"])
        .stderr(Stdio::null())
        .status();
    let stderr = failed("tmpfs full", &bmn(&args, None));
    assert!(stderr.contains("No space left on device"), "{stderr}");
    assert!(stderr.contains("the last saved state is kept"), "{stderr}");
    assert_eq!(std::fs::read(&out).unwrap(), saved);
    assert!(!dir.join("run.json.tmp").exists());
    std::fs::remove_file(&filler).unwrap();

    // Read-only: the same.
    let ro = |mode: &str| {
        Command::new("mount")
            .args(["-o", &format!("remount,{mode}"), p(&dir)])
            .status()
            .unwrap()
    };
    assert!(ro("ro").success());
    let stderr = failed("tmpfs read-only", &bmn(&args, None));
    assert!(stderr.contains("Read-only file system"), "{stderr}");
    assert!(ro("rw").success());
    assert_eq!(std::fs::read(&out).unwrap(), saved);

    let resumed = json(&args);
    assert_eq!(result(resumed), slow_whole());
    umount(&dir);
}

#[test]
#[ignore = "slow (minutes): `cargo test -- --include-ignored` runs it"]
fn a_locked_or_damaged_database_is_named_and_nothing_is_lost() {
    let dir = scratch("bad-db");
    let db = dir.join("runs.sqlite");
    let args = slow_search(&["--db", p(&db), "--threads", "1"]);
    kill_when(&args, "a recorded unit", || recorded(&db));
    let mut resume = args.clone();
    resume.push("--resume");

    // Another process holds the database's write lock past the 10 s bmn waits for it.
    let mut holder = Command::new("python3")
        .args([
            "-c",
            "import sqlite3, sys, time\n\
             c = sqlite3.connect(sys.argv[1], isolation_level=None)\n\
             c.execute('BEGIN EXCLUSIVE')\n\
             print('locked', flush=True)\n\
             time.sleep(60)",
            p(&db),
        ])
        .stdout(Stdio::piped())
        .spawn()
        .expect("python3 runs");
    let mut line = String::new();
    std::io::BufRead::read_line(
        &mut std::io::BufReader::new(holder.stdout.take().unwrap()),
        &mut line,
    )
    .unwrap();
    assert_eq!(line.trim(), "locked");
    let locked = bmn(&resume, None);
    holder.kill().unwrap();
    holder.wait().unwrap();
    let stderr = failed("database locked by another process", &locked);
    assert!(stderr.contains("database is locked"), "{stderr}");
    assert!(
        stderr.contains("another process holds the database"),
        "{stderr}"
    );
    // Let go, the run resumes to the unsplit result.
    let resumed = json(&resume);
    assert_eq!(result(resumed), slow_whole());

    // A file that is not a database at all, or whose header is damaged: bad input (exit 2),
    // the file named and left as it was.
    for damage in [&b"not a database, just text\n"[..], &[0xffu8; 4096][..]] {
        let broken = dir.join("broken.sqlite");
        std::fs::write(&broken, damage).unwrap();
        let out = bmn(&["search", "--games", "1000", "--db", p(&broken)], None);
        assert_eq!(out.status.code(), Some(2), "{out:?}");
        let stderr = String::from_utf8_lossy(&out.stderr).to_string();
        assert!(stderr.contains("broken.sqlite"), "{stderr}");
        assert!(stderr.contains("not a run database"), "{stderr}");
        assert_eq!(
            std::fs::read(&broken).unwrap(),
            damage,
            "a damaged file is left as it was"
        );
    }
}
