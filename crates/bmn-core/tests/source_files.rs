//! Workspace invariants checked by a test, not a reviewer: every Rust file opens with a `//!`
//! line, the repository stands alone (no tracked file names or reads a path outside it), and
//! ARCHITECTURE.md stays short.

use std::path::{Path, PathBuf};
use std::process::Command;

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

#[test]
fn every_source_file_opens_with_a_doc_line() {
    let crates = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut files = Vec::new();
    rust_files(&crates, &mut files);
    assert!(files.len() > 10, "found only {files:?}");
    let missing: Vec<_> = files
        .iter()
        .filter(|f| !std::fs::read_to_string(f).unwrap().starts_with("//!"))
        .collect();
    assert!(
        missing.is_empty(),
        "files without a leading //! line: {missing:?}"
    );
}

/// The repository's files relative to its root: git's list where there is one, else every file
/// outside `target/` and `.git/` (a source tarball).
fn tracked_files() -> Vec<PathBuf> {
    let root = workspace();
    if let Ok(out) = Command::new("git")
        .args(["ls-files", "-z"])
        .current_dir(&root)
        .output()
        && out.status.success()
        && !out.stdout.is_empty()
    {
        return out
            .stdout
            .split(|&b| b == 0)
            .filter(|p| !p.is_empty())
            .map(|p| PathBuf::from(String::from_utf8_lossy(p).into_owned()))
            .collect();
    }
    fn walk(root: &Path, dir: &Path, out: &mut Vec<PathBuf>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            if path.is_dir() {
                if name != "target" && name != ".git" {
                    walk(root, &path, out);
                }
            } else {
                out.push(path.strip_prefix(root).unwrap().to_path_buf());
            }
        }
    }
    let mut out = Vec::new();
    walk(&root, &root, &mut out);
    out
}

/// How far up a relative path in `file` may climb and stay inside the repository: Rust sources
/// resolve paths from their crate (`CARGO_MANIFEST_DIR`, two levels down), anything else from
/// its own folder.
fn depth(file: &Path) -> usize {
    let folders = file.components().count() - 1;
    if file.extension().is_some_and(|e| e == "rs") && file.starts_with("crates") {
        2
    } else {
        folders
    }
}

/// The longest run of `../` segments in `line`.
fn longest_climb(line: &str) -> usize {
    let up = "../";
    let mut best = 0;
    let mut rest = line;
    while let Some(i) = rest.find(up) {
        let mut n = 0;
        let mut tail = &rest[i..];
        while let Some(t) = tail.strip_prefix(up) {
            n += 1;
            tail = t;
        }
        best = best.max(n);
        rest = tail;
    }
    best
}

/// A user clones this repository and nothing else: no file may name the team's folder beside
/// the checkout, nor climb out of the repository with `../` (as a test reading its fixtures
/// from beside the checkout once did).
#[test]
fn no_tracked_file_reaches_outside_the_repository() {
    // Built from pieces so that this file does not match itself.
    let team_folder = format!("{}/{}", "..", "shared");
    let root = workspace();
    let files = tracked_files();
    assert!(files.len() > 20, "found only {files:?}");
    let mut offences = Vec::new();
    for file in &files {
        let Ok(text) = std::fs::read_to_string(root.join(file)) else {
            continue; // binary files (fonts, pictures)
        };
        for (i, line) in text.lines().enumerate() {
            let at = format!("{}:{}", file.display(), i + 1);
            if line.contains(&team_folder) {
                offences.push(format!("{at}: names {team_folder}"));
            }
            let climb = longest_climb(line);
            if climb > depth(file) {
                offences.push(format!(
                    "{at}: climbs {climb} folders up, out of the repository"
                ));
            }
        }
    }
    assert!(offences.is_empty(), "\n{}", offences.join("\n"));
}

#[test]
fn the_outside_check_sees_what_it_must() {
    assert_eq!(longest_climb(&format!("a/{}x", "../".repeat(3))), 3);
    assert_eq!(longest_climb("no climb"), 0);
    assert_eq!(depth(Path::new("crates/bmn-golden/src/lib.rs")), 2);
    assert_eq!(depth(Path::new(".ci/run")), 1);
    assert_eq!(depth(Path::new("README.md")), 0);
}

/// The top-level module a source file belongs to (`queue/avx512.rs` is part of `queue`),
/// or `None` for the crate root (`lib.rs`, `main.rs`).
fn module_of(file: &Path, src: &Path) -> Option<String> {
    let rel = file.strip_prefix(src).ok()?;
    let first = rel
        .components()
        .next()?
        .as_os_str()
        .to_string_lossy()
        .into_owned();
    let name = first.trim_end_matches(".rs").to_string();
    (name != "lib" && name != "main").then_some(name)
}

/// The names the crate root re-exports from its modules (`pub use module::{A, B};`,
/// `pub use module::A;`), each with its module: `crate::A` is an import of that module.
fn reexports(root: &str, modules: &[String]) -> std::collections::BTreeMap<String, String> {
    let mut map = std::collections::BTreeMap::new();
    for statement in root.split(';') {
        let Some(path) = statement.trim().strip_prefix("pub use ") else {
            continue;
        };
        let Some((module, names)) = path.split_once("::") else {
            continue;
        };
        if !modules.iter().any(|m| m == module.trim()) {
            continue;
        }
        let names = names.trim().trim_start_matches('{').trim_end_matches('}');
        for name in names.split(',') {
            // `a::B` re-exports B from a module of `module`: still `module`'s.
            let name = name.trim().rsplit("::").next().unwrap_or_default();
            let name = name.split(" as ").last().unwrap_or_default().trim();
            if !name.is_empty() {
                map.insert(name.to_string(), module.trim().to_string());
            }
        }
    }
    map
}

/// The sibling modules `text` refers to (`crate::name`, `use crate::{a, b::c}`, `crate::Name`
/// that the root re-exports from a module), and whether it refers to the crate root
/// (`crate::Name` of the root's own).
fn references(
    text: &str,
    modules: &[String],
    reexported: &std::collections::BTreeMap<String, String>,
) -> Vec<String> {
    let mut found = Vec::new();
    let mut rest = text;
    while let Some(i) = rest.find("crate::") {
        rest = &rest[i + "crate::".len()..];
        let names: Vec<&str> = if let Some(group) = rest.strip_prefix('{') {
            let end = group.find('}').unwrap_or(group.len());
            group[..end].split(',').map(str::trim).collect()
        } else {
            vec![rest]
        };
        for name in names {
            let head: String = name
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            if modules.contains(&head) {
                found.push(head);
            } else if let Some(module) = reexported.get(&head) {
                found.push(module.clone());
            } else if !head.is_empty() {
                found.push(String::new()); // the root
            }
        }
    }
    found.sort();
    found.dedup();
    found
}

/// "No file imports a file that imports it back": within every crate, no two modules refer
/// to each other (the root counts as a module for `crate::Name` of its own items, and a name
/// it re-exports counts as its module's; its `mod` and `pub use` lines are not imports).
#[test]
fn no_two_modules_import_each_other() {
    let crates = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut cycles = Vec::new();
    for krate in std::fs::read_dir(&crates).unwrap() {
        let src = krate.unwrap().path().join("src");
        if !src.is_dir() {
            continue;
        }
        let mut files = Vec::new();
        rust_files(&src, &mut files);
        let modules: Vec<String> = files.iter().filter_map(|f| module_of(f, &src)).collect();
        let root = ["lib.rs", "main.rs"]
            .iter()
            .find_map(|r| std::fs::read_to_string(src.join(r)).ok())
            .unwrap_or_default();
        let reexported = reexports(&root, &modules);
        let mut edges = std::collections::BTreeSet::new();
        for f in &files {
            let from = module_of(f, &src).unwrap_or_default();
            let text = std::fs::read_to_string(f).unwrap();
            // Test modules may reach anywhere; comments (doc links) import nothing.
            let text = text.split("#[cfg(test)]").next().unwrap_or_default();
            let code: String = text
                .lines()
                .map(|l| l.split("//").next().unwrap_or_default())
                .collect::<Vec<_>>()
                .join("\n");
            let text = code.as_str();
            for to in references(text, &modules, &reexported) {
                if to != from {
                    edges.insert((from.clone(), to));
                }
            }
        }
        for (a, b) in &edges {
            if a < b && edges.contains(&(b.clone(), a.clone())) {
                let name = |m: &str| {
                    if m.is_empty() {
                        "the root".to_string()
                    } else {
                        m.to_string()
                    }
                };
                cycles.push(format!("{}: {} <-> {}", src.display(), name(a), name(b)));
            }
        }
    }
    assert!(
        cycles.is_empty(),
        "modules that import each other:\n{}",
        cycles.join("\n")
    );
}

/// ARCHITECTURE.md is read whole by a newcomer: it stays under 1,200 words, and what changes
/// often goes to BENCHMARKS.md and docs/ instead.
#[test]
fn the_architecture_doc_stays_under_1200_words() {
    let text = std::fs::read_to_string(workspace().join("ARCHITECTURE.md")).unwrap();
    let words = text.split_whitespace().count();
    assert!(
        words < 1200,
        "ARCHITECTURE.md has {words} words: move figures and details to BENCHMARKS.md or docs/"
    );
}

/// The workspace crates a crate's Cargo.toml names under `[dependencies]`.
fn workspace_dependencies(manifest: &str) -> std::collections::BTreeSet<String> {
    let mut in_dependencies = false;
    let mut deps = std::collections::BTreeSet::new();
    for line in manifest.lines().map(str::trim) {
        if line.starts_with('[') {
            in_dependencies = line == "[dependencies]";
        } else if in_dependencies && line.starts_with("bmn-") {
            let name = line.split([' ', '=', '.']).next().unwrap();
            deps.insert(name.to_string());
        }
    }
    deps
}

/// ARCHITECTURE.md's code map of the crates' arrows is each crate's `[dependencies]` among the
/// workspace crates, exactly: a crate's line lists them all, and a crate with no line has none.
#[test]
fn the_architecture_doc_names_every_crates_dependencies() {
    let text = std::fs::read_to_string(workspace().join("ARCHITECTURE.md")).unwrap();
    let block = text
        .split("```")
        .nth(1)
        .expect("ARCHITECTURE.md opens its code map with a ``` block");
    let mut stated = std::collections::BTreeMap::new();
    let mut last = String::new();
    for line in block.lines().filter(|l| !l.trim().is_empty()) {
        let (from, to) = match line.split_once("──>") {
            Some((from, to)) => (from.trim().to_string(), to),
            None => (last.clone(), line), // a line's continuation
        };
        let deps: &mut std::collections::BTreeSet<String> = stated.entry(from.clone()).or_default();
        deps.extend(
            to.split(',')
                .map(str::trim)
                .filter(|d| !d.is_empty())
                .map(String::from),
        );
        last = from;
    }
    let crates = workspace().join("crates");
    let mut actual = std::collections::BTreeMap::new();
    for entry in std::fs::read_dir(&crates).unwrap() {
        let manifest = entry.unwrap().path().join("Cargo.toml");
        let Ok(manifest) = std::fs::read_to_string(&manifest) else {
            continue;
        };
        let name = manifest
            .lines()
            .find_map(|l| l.strip_prefix("name = \""))
            .and_then(|l| l.strip_suffix('"'))
            .expect("a crate's manifest names it")
            .to_string();
        let deps = workspace_dependencies(&manifest);
        if !deps.is_empty() {
            actual.insert(name, deps);
        }
    }
    assert!(actual.len() > 10, "found only {actual:?}");
    assert_eq!(
        stated, actual,
        "ARCHITECTURE.md's arrows (left) differ from the Cargo.toml files (right)"
    );
}
