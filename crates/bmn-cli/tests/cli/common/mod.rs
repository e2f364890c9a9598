//! Running the `bmn` binary in tests: output, text, JSON, the bad-input contract, scratch
//! folders, and runs killed once they have recorded progress.
#![allow(dead_code)]

use std::collections::BTreeSet;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use serde_json::Value;

/// `bmn args`, recording its runs in the test process's database ([`test_db`]), not started.
pub fn command(args: &[&str]) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_bmn"));
    command.args(args).env("BMN_DB", test_db());
    command
}

pub fn bmn(args: &[&str], stdin: Option<&str>) -> Output {
    let mut child = command(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("bmn runs");
    if let Some(text) = stdin {
        child
            .stdin
            .take()
            .unwrap()
            .write_all(text.as_bytes())
            .unwrap();
    }
    drop(child.stdin.take());
    child.wait_with_output().unwrap()
}

/// The run database of this test process: runs record their progress there, never in the
/// home directory of whoever runs the tests, nor in the system's temporary directory (it lies
/// in cargo's `target/tmp`, which `cargo clean` empties).
pub fn test_db() -> PathBuf {
    PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("bmn-test-runs-{}.sqlite", std::process::id()))
}

/// A command line's words, split at spaces (so no word of it may hold one).
pub fn words(line: &str) -> Vec<&str> {
    line.split(' ').collect()
}

#[track_caller]
pub fn ok(args: &[&str]) -> String {
    let out = bmn(args, None);
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

#[track_caller]
pub fn json(args: &[&str]) -> Value {
    serde_json::from_str(&ok(args)).unwrap()
}

/// The JSON `command` writes on stdout, run to its end, which must succeed (for what
/// [`json`] cannot give: an environment of its own).
#[track_caller]
pub fn json_of(command: &mut Command) -> Value {
    let out = command.output().expect("bmn runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{command:?}: {stderr}");
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{command:?}: {e}: {stderr}"))
}

/// Bad input: exit code 2, one line on stderr naming the problem, nothing on stdout, no panic.
#[track_caller]
pub fn bad(args: &[&str], expected: &str) {
    let out = bmn(args, None);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
    assert!(stderr.contains(expected), "{args:?}: {stderr}");
    assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
    assert!(out.stdout.is_empty(), "{args:?}");
}

/// A fresh scratch folder for one test of this process, removed when dropped (kept when the
/// test fails, to look at). Tests run at the same time in one process, so a name given twice
/// would have two tests empty each other's folder: refused.
pub fn scratch(name: &str) -> Scratch {
    static TAKEN: Mutex<BTreeSet<String>> = Mutex::new(BTreeSet::new());
    let fresh = TAKEN.lock().unwrap().insert(name.to_string());
    assert!(fresh, "scratch folder {name:?} is taken by another test");
    let dir = std::env::temp_dir().join(format!("bmn-test-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    Scratch(dir)
}

/// See [`scratch`]; a `Path` otherwise.
pub struct Scratch(PathBuf);

impl std::ops::Deref for Scratch {
    type Target = Path;
    fn deref(&self) -> &Path {
        &self.0
    }
}

impl AsRef<Path> for Scratch {
    fn as_ref(&self) -> &Path {
        &self.0
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        if !std::thread::panicking() {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }
}

/// How long a test waits for a run to reach a state (a checkpoint, a lock) before it fails:
/// long, since a loaded machine may be slow; a run that gets there sooner is not held back.
const PATIENCE: Duration = Duration::from_secs(180);

/// Starts `bmn args` in the background, its output thrown away.
pub fn spawn(args: &[&str]) -> Child {
    command(args)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("bmn runs")
}

/// Starts `bmn args` and returns it once `ready()` holds (polled every 10 ms). Fails, saying
/// `what` was awaited, if the run ends first or [`PATIENCE`] passes.
#[track_caller]
pub fn start_until(args: &[&str], what: &str, ready: impl Fn() -> bool) -> Child {
    wait_until(spawn(args), &format!("{args:?}"), what, ready)
}

/// Returns the running `child` (`run` names it) once `ready()` holds, polled every 10 ms.
/// Fails, saying `what` was awaited, if it ends first or [`PATIENCE`] passes.
#[track_caller]
pub fn wait_until(mut child: Child, run: &str, what: &str, ready: impl Fn() -> bool) -> Child {
    let started = Instant::now();
    while !ready() {
        if let Some(status) = child.try_wait().unwrap() {
            panic!("{run} ended ({status}) before {what}: make the run longer");
        }
        if started.elapsed() > PATIENCE {
            kill(child);
            panic!("{run}: no {what} after {PATIENCE:?}");
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    child
}

/// Kills `child` with SIGKILL (no chance to save or clean up) and waits for it.
pub fn kill(mut child: Child) {
    child.kill().unwrap();
    child.wait().unwrap();
}

/// Starts `bmn args`, waits until `ready()` says it has recorded progress (not a fixed time,
/// which a fast machine finishes the run in and a slow one saves nothing by), and kills it.
#[track_caller]
pub fn kill_when(args: &[&str], what: &str, ready: impl Fn() -> bool) {
    kill(start_until(args, what, ready));
}

/// Whether a run's result file (`--out`, `--checkpoint`) holds progress: it is written whole
/// (atomically), so it parses, and its first unit not done is past its first unit.
pub fn checkpointed(file: &Path) -> bool {
    std::fs::read_to_string(file).is_ok_and(|text| progressed(&text))
}

/// Whether the run database `db` holds progress of its latest run (see [`checkpointed`]). It
/// is read as SQLite readers do beside a writer; a database not yet made or busy is not yet.
pub fn recorded(db: &Path) -> bool {
    let Ok(conn) = rusqlite::Connection::open_with_flags(
        db,
        rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY | rusqlite::OpenFlags::SQLITE_OPEN_NO_MUTEX,
    ) else {
        return false;
    };
    conn.query_row("SELECT file FROM runs ORDER BY id DESC LIMIT 1", [], |r| {
        r.get::<_, String>(0)
    })
    .is_ok_and(|text| progressed(&text))
}

/// A run file's text with at least one unit done and one to go: a run that ends before it
/// ever records that is too short to be killed part-way, and [`start_until`] says so.
fn progressed(text: &str) -> bool {
    let Ok(file) = serde_json::from_str::<Value>(text) else {
        return false;
    };
    let unit = |v: &Value| v.as_u64().unwrap_or(0);
    let (next, units) = (unit(&file["next_unit"]), &file["units"]);
    unit(&units[0]) < next && next < unit(&units[1])
}

/// An enumeration's report (`bmn exhaustive`, `bmn merge` of its shards) without what depends
/// on the machine or on how the run was split.
pub fn enumeration_result(v: Value) -> Value {
    without(
        v,
        &[
            "elapsed_seconds",
            "deals_per_second",
            "threads",
            "kernel",
            "engine",
            "shards",
        ],
    )
}

/// A JSON report without `keys` (what depends on the machine or on how a run was made).
pub fn without(mut v: Value, keys: &[&str]) -> Value {
    if let Some(map) = v.as_object_mut() {
        for key in keys {
            map.remove(*key);
        }
    }
    v
}
