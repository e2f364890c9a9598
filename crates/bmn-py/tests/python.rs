//! Runs the Python package's tests (`tests/test_bmn.py`, pytest) against the extension built
//! from this workspace, so `cargo test --workspace` covers `import bmn` too.
//!
//! It builds the extension (minutes), so it is a slow test: `cargo test` lists it as ignored
//! unless run with `-- --include-ignored` (as `.ci/run` does). Asked for, it needs python3 with pytest and
//! numpy (`pip install pytest numpy`) and fails, saying so, without them.

use std::path::Path;
use std::process::Command;

fn python_with(modules: &str) -> bool {
    Command::new("python3")
        .args(["-c", &format!("import {modules}")])
        .output()
        .is_ok_and(|o| o.status.success())
}

#[test]
#[ignore = "slow (minutes): `cargo test -- --include-ignored` runs it"]
fn the_python_package_passes_its_tests() {
    assert!(
        python_with("pytest, numpy"),
        "the Python tests need python3 with pytest and numpy: pip install pytest numpy"
    );
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    // The extension and the CLI (the tests compare the two), in the profile the tests use.
    let built = Command::new(env!("CARGO"))
        .args([
            "build",
            "--profile",
            "test",
            "-p",
            "bmn-py",
            "-p",
            "bmn-cli",
        ])
        .current_dir(&root)
        .status()
        .expect("cargo runs");
    assert!(built.success(), "building the extension");
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| root.join("target"))
        .join("debug");
    // The extension module as Python finds it: `bmn` + the stable-ABI suffix.
    let site = std::env::temp_dir().join(format!("bmn-py-{}", std::process::id()));
    std::fs::create_dir_all(&site).unwrap();
    std::fs::copy(target.join("libbmn.so"), site.join("bmn.abi3.so")).expect("the extension");
    // A test that hangs fails instead, after every thread's Python traceback is printed
    // (faulthandler), rather than holding CI until its own limit.
    let status = Command::new("timeout")
        .args(["900", "python3", "-m", "pytest", "-q", "-p"])
        .args(["no:cacheprovider", "-o", "faulthandler_timeout=300"])
        .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests"))
        .env("PYTHONPATH", &site)
        .env("BMN_BIN", target.join("bmn"))
        .env("BMN_ROOT", &root)
        // Runs record their progress here, not in the home directory's run database.
        .env("BMN_DB", site.join("runs.sqlite"))
        .status()
        .expect("pytest runs");
    let _ = std::fs::remove_dir_all(&site);
    assert!(status.success(), "pytest failed (its output is above)");
}
