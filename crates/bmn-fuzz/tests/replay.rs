//! Replays every committed fuzz input on stable: each target's seeds (`fuzz/seeds/<name>/`)
//! and minimised crashes (`fuzz/regressions/<name>/`) through its checking function, so a
//! plain `cargo test` keeps every crash the fuzzer found fixed, without nightly.

use std::path::{Path, PathBuf};

/// The files of `dir`, sorted (a missing directory has none: a target may have no
/// regressions yet).
fn files(dir: &Path) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut files: Vec<PathBuf> = entries
        .map(|e| e.expect("a directory entry").path())
        .filter(|p| p.is_file())
        .collect();
    files.sort();
    files
}

#[test]
fn seeds_and_regressions_pass() {
    let fuzz = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fuzz");
    for &(name, check) in bmn_fuzz::TARGETS {
        let seeds = files(&fuzz.join("seeds").join(name));
        assert!(!seeds.is_empty(), "no seeds for {name}");
        for path in seeds
            .iter()
            .chain(&files(&fuzz.join("regressions").join(name)))
        {
            let data = std::fs::read(path).expect("reading a fuzz input");
            eprintln!("{name}: {}", path.display());
            check(&data);
        }
    }
}

#[test]
fn every_target_has_a_fuzz_target_file() {
    let fuzz = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fuzz");
    let manifest = std::fs::read_to_string(fuzz.join("Cargo.toml")).expect("fuzz/Cargo.toml");
    for &(name, _) in bmn_fuzz::TARGETS {
        let target = fuzz.join("fuzz_targets").join(format!("{name}.rs"));
        let source = std::fs::read_to_string(&target).expect("a fuzz target per function");
        assert!(
            source.contains(&format!("bmn_fuzz::{name}(data)")),
            "{name}"
        );
        assert!(manifest.contains(&format!("name = \"{name}\"")), "{name}");
    }
}
