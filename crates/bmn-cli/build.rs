//! bmn-cli's build script: the git commit `bmn --version` names (`BMN_COMMIT`, unset when
//! built outside a git checkout, e.g. from a crate's tarball).

use std::path::{Path, PathBuf};
use std::process::Command;

fn main() {
    commit();
}

/// `git args` in this crate's folder: its output, trimmed, if git is there and says yes.
fn git(args: &[&str]) -> Option<String> {
    let out = Command::new("git")
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .ok()
        .filter(|o| o.status.success())?;
    Some(String::from_utf8_lossy(&out.stdout).trim().to_string()).filter(|s| !s.is_empty())
}

fn commit() {
    let Some(hash) = git(&["rev-parse", "--short=12", "HEAD"]) else {
        return;
    };
    println!("cargo::rustc-env=BMN_COMMIT={hash}");
    if let Some(date) = git(&["log", "-1", "--format=%cs", "HEAD"]) {
        println!("cargo::rustc-env=BMN_COMMIT_DATE={date}");
    }
    // Built again when HEAD moves: a checkout rewrites HEAD, a commit its branch's ref (or
    // packed-refs). Only files that exist are named: cargo reruns for a missing one every time.
    let branch = git(&["symbolic-ref", "-q", "HEAD"]);
    let watched = ["HEAD", "packed-refs"]
        .into_iter()
        .chain(branch.as_deref())
        .filter_map(|name| git(&["rev-parse", "--git-path", name]))
        .map(|p| Path::new(env!("CARGO_MANIFEST_DIR")).join(p))
        .filter(|p: &PathBuf| p.exists());
    for path in watched {
        println!("cargo::rerun-if-changed={}", path.display());
    }
}
