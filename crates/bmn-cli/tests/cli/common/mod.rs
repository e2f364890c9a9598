//! Running the `bmn` binary in tests: output, text, JSON, and the bad-input contract.
#![allow(dead_code)]

use std::io::Write;
use std::process::{Command, Output, Stdio};

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
/// home directory of whoever runs the tests.
pub fn test_db() -> std::path::PathBuf {
    std::env::temp_dir().join(format!("bmn-test-runs-{}.sqlite", std::process::id()))
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

/// A fresh scratch directory for one test of this process.
pub fn scratch(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("bmn-test-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
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
