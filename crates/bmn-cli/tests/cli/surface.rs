//! The command line itself: `bmn` alone, `--help`, `--version`, the shell completions and
//! man page, one style of refusal, one syntax for numbers, the exit codes' table row by row
//! (the stopped row: `signals.rs`), and no driver noise on stderr.

use std::process::{Command, Stdio};

use crate::common::{bad, bmn, command, json, ok, scratch};

/// The world record game (Nessler 2022): 1164 tricks, so its trace is longer than a pipe holds.
const RECORD: &str = "---AJ--Q---------QAKQJJ-QK/-----A----KJ-K--------A---";

#[test]
fn bmn_alone_prints_its_help_on_stderr_and_exits_2() {
    let out = bmn(&[], None);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(out.stdout.is_empty());
    assert!(stderr.contains("Usage: bmn"), "{stderr}");
    assert!(stderr.contains("census"), "{stderr}");
}

#[test]
fn help_and_version_print_on_stdout() {
    let help = ok(&["--help"]);
    assert!(help.contains("Exit codes:"), "{help}");
    assert_eq!(ok(&["-V"]), format!("bmn {}\n", env!("CARGO_PKG_VERSION")));

    let version = ok(&["--version"]);
    let lines: Vec<&str> = version.lines().collect();
    assert_eq!(lines[0], format!("bmn {}", env!("CARGO_PKG_VERSION")));
    let commit = lines[1].strip_prefix("commit: ").expect("a commit line");
    // Built in a git checkout (as here, where git answers), the commit is HEAD's.
    let head = Command::new("git")
        .args(["rev-parse", "--short=12", "HEAD"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string());
    match head {
        Some(head) => assert!(commit.starts_with(&head), "{commit} is not HEAD {head}"),
        None => assert!(commit.starts_with("unknown"), "{commit}"),
    }
    let kernels = lines[2].strip_prefix("kernels: ").expect("a kernels line");
    assert!(
        kernels.starts_with("scalar-planes, lanes-4x64"),
        "{kernels}"
    );
    assert!(kernels.contains("(fastest: "), "{kernels}");
    // BMN_SIMD=none hides the SIMD kernels from every command, and so from the version too.
    let none = command(&["--version"])
        .env("BMN_SIMD", "none")
        .output()
        .unwrap();
    let none = String::from_utf8_lossy(&none.stdout);
    assert!(
        none.contains("kernels: scalar-planes, lanes-4x64, scalar-queue (fastest: scalar-queue)"),
        "{none}"
    );
}

#[test]
fn completions_and_the_man_page_name_every_command() {
    for shell in ["bash", "zsh", "fish", "elvish", "powershell"] {
        let script = ok(&["completions", shell]);
        for name in ["census", "exhaustive", "completions", "man", "leader"] {
            assert!(script.contains(name), "{shell}: no {name}");
        }
    }
    let page = ok(&["man"]);
    assert!(
        page.starts_with(".ie") || page.contains(".TH bmn 1"),
        "{page}"
    );
    for name in ["census", "exhaustive", "completions", "Exit codes"] {
        assert!(page.contains(name), "man: no {name}");
    }
    bad(&["completions", "tcsh"], "invalid value 'tcsh'");
}

/// The stderr of `bmn args`, which must refuse it as bad input (see [`bad`]).
#[track_caller]
fn refused(args: &[&str]) -> String {
    let out = bmn(args, None);
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
    assert!(out.stdout.is_empty(), "{args:?}");
    stderr
}

#[test]
fn clap_refuses_in_bmn_s_style() {
    // One line, then clap's tip if it has one: no usage block, no "For more information".
    let stderr = refused(&["search", "--game", "5"]);
    assert_eq!(
        stderr,
        "bmn: error: unexpected argument '--game' found\n\
         bmn: tip: a similar argument exists: '--games'\n"
    );
    let stderr = refused(&["play"]);
    assert_eq!(
        stderr,
        "bmn: error: the following required arguments were not provided: <DEAL>\n"
    );
    // A positional reached for as a flag: how the line should read.
    let stderr = refused(&["play", "--deal", "ZZ"]);
    assert_eq!(
        stderr,
        "bmn: error: unexpected argument 'ZZ' found\n\
         bmn: tip: DEAL is given without a flag name: `bmn play ZZ`\n"
    );
    // A negative time is the time's refusal, not an unknown flag `-5`.
    for command in [&["search"][..], &["climb"], &["pieces", "factory"]] {
        let stderr = refused(&[command, &["--time", "-5s"]].concat());
        assert_eq!(
            stderr,
            "bmn: error: bad --time: -5s is negative: give a time such as 90s, 10m, 2h or 1d\n"
        );
    }
    let stderr = refused(&["census", "--deck", "2J,2Q,6-", "--hands-time", "-1m"]);
    assert!(
        stderr.starts_with("bmn: error: bad --hands-time: -1m is negative"),
        "{stderr}"
    );
    let stderr = refused(&["frobnicate"]);
    assert!(
        stderr.starts_with("bmn: error: unrecognized subcommand 'frobnicate'\n"),
        "{stderr}"
    );
    assert!(stderr.lines().count() <= 2, "{stderr}");
}

#[test]
fn a_missing_catalogue_folder_is_named_once() {
    let stderr = refused(&["serve", "--catalogue", "/no/such/dir"]);
    assert_eq!(
        stderr,
        "bmn: error: reading the catalogue /no/such/dir: No such file or directory (os error 2)\n"
    );
}

#[test]
fn a_file_that_is_not_a_run_database_is_bad_input() {
    // A file named by mistake (a copy of the workspace's Cargo.toml): one line, exit 2, the
    // file untouched.
    let dir = scratch("not-a-database");
    let file = dir.join("Cargo.toml");
    std::fs::copy(
        concat!(env!("CARGO_MANIFEST_DIR"), "/../../Cargo.toml"),
        &file,
    )
    .unwrap();
    let before = std::fs::read(&file).unwrap();
    let stderr = refused(&["search", "--games", "10", "--db", file.to_str().unwrap()]);
    assert!(stderr.starts_with("bmn: error: "), "{stderr}");
    assert!(stderr.contains("Cargo.toml"), "{stderr}");
    assert!(
        stderr.contains("not a run database: give another --db"),
        "{stderr}"
    );
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert_eq!(std::fs::read(&file).unwrap(), before);
}

#[test]
fn every_number_is_written_alike() {
    // `1e6`, `1_000_000` and `1000000` are one number to every flag and argument.
    let deal = |args: &[&str]| json(&[&["deal", "--json"], args].concat())["deal"].clone();
    assert_eq!(
        deal(&["--seed", "1e1", "--index", "1_000"]),
        deal(&["--seed", "10", "--index", "1000"])
    );
    let games = |n: &str| json(&["search", "--games", n, "--no-db", "--json"])["games"].clone();
    assert_eq!(games("2e3"), 2000);
    assert_eq!(games("2_000"), 2000);
    assert_eq!(
        json(&["unrank", "1e3", "--json"]),
        json(&["unrank", "1000", "--json"])
    );
    assert_eq!(
        json(&["play", "--rank", "1e3", "--json"]),
        json(&["play", "--rank", "1000", "--json"])
    );
    // A negative number is refused in words, naming the flag, not taken for a flag.
    for (args, says) in [
        (
            &["search", "--seed", "-1"][..],
            "bmn: error: bad --seed: -1 is negative\n",
        ),
        (
            &["search", "--games", "2.5"],
            "bmn: error: bad --games: 2.5 is not a whole number\n",
        ),
        (
            &["search", "--threads", "1e30"],
            "bmn: error: bad --threads: 1e30 is too big: at most 18446744073709551615\n",
        ),
        (
            &["unrank", "-1"],
            "bmn: error: bad <RANK>: -1 is negative: give a whole number from 0\n",
        ),
        (
            &["play", "--K/J-", "--leader", "0"],
            "bmn: error: bad --leader: 0: players are numbered from 1\n",
        ),
        (
            &["play", "--K/J-", "--leader", "-1"],
            "bmn: error: bad --leader: -1 is not a seat: players are numbered from 1\n",
        ),
        (
            &["odds", "--games", "-1e12"],
            "bmn: error: bad --games: -1e12 is negative\n",
        ),
        (
            &["serve", "--port", "70000"],
            "bmn: error: bad --port: 70000 is too big: at most 65535\n",
        ),
        (
            &["search", "--games", "lots"],
            "bmn: error: bad --games: 'lots' is not a number: give digits, e.g. 1000000, 1_000_000 or 1e6\n",
        ),
    ] {
        assert_eq!(refused(args), says, "{args:?}");
    }
}

#[test]
fn devices_says_nothing_of_a_missing_desktop_session() {
    // Mesa's device-select layer asks Wayland for the desktop's GPU; with no session
    // (XDG_RUNTIME_DIR unset, as on a server) libwayland complained on stderr, twice.
    let out = command(&["devices"])
        .env_remove("XDG_RUNTIME_DIR")
        .env_remove("WAYLAND_DISPLAY")
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(!stderr.contains("XDG_RUNTIME_DIR"), "{stderr}");
    assert!(stderr.is_empty(), "{stderr}");
    // The adapters are still there: lavapipe wherever Mesa's Vulkan drivers are installed.
    let lavapipe = std::fs::read_dir("/usr/share/vulkan/icd.d")
        .map(|d| {
            d.flatten()
                .any(|f| f.file_name().to_string_lossy().starts_with("lvp"))
        })
        .unwrap_or(false);
    if lavapipe {
        let listed = String::from_utf8_lossy(&out.stdout);
        assert!(listed.contains("vulkan"), "{listed}");
    }
}

// The exit codes, row by row (`bmn --help`, README.md).

#[test]
fn readme_and_help_give_the_same_exit_codes() {
    let readme = include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/../../README.md"));
    let help = ok(&["--help"]);
    let codes: Vec<&str> = help
        .split("Exit codes:")
        .nth(1)
        .expect("the table")
        .lines()
        .filter_map(|l| l.strip_prefix("  ")?.split_whitespace().next())
        .filter(|code| code.bytes().all(|b| b.is_ascii_digit()))
        .collect();
    assert_eq!(codes, ["0", "1", "2", "130"]);
    // Its rows: | `0` | ... |
    let rows: Vec<&str> = readme
        .lines()
        .filter_map(|l| l.strip_prefix("| `")?.split('`').next())
        .filter(|code| code.bytes().all(|b| b.is_ascii_digit()))
        .collect();
    assert_eq!(rows, codes, "README.md's exit code table");
}

#[test]
fn exit_0_when_the_reader_stops_early() {
    // `bmn ... | head`: the trace is longer than a pipe holds, so bmn writes into a pipe
    // that has been closed.
    let mut child = command(&["play", RECORD, "--trace"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    assert!(out.stderr.is_empty(), "{out:?}");
}

#[test]
fn exit_1_when_the_machine_fails() {
    let out = bmn(
        &[
            "search",
            "--games",
            "10",
            "--no-db",
            "--out",
            "/proc/bmn.json",
        ],
        None,
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.starts_with("bmn: error: "), "{stderr}");
    // A port another program holds is the machine's state, not a mistake in the command.
    let holder = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = holder.local_addr().unwrap().port().to_string();
    let out = bmn(&["serve", "--port", &port], None);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains(&format!("serving on 127.0.0.1:{port}")),
        "{stderr}"
    );
}

#[test]
fn exit_2_for_a_file_that_is_missing_or_not_bmn_s() {
    let dir = scratch("not-bmn-files");
    let binary = dir.join("binary.json");
    std::fs::write(&binary, [0xff, 0xfe, 0x00, 0x80]).unwrap();
    bad(&["merge", "/no/such/shard.json"], "/no/such/shard.json");
    bad(&["merge", binary.to_str().unwrap()], "binary.json");
    bad(&["merge", dir.to_str().unwrap()], "Is a directory");
    bad(
        &["census", "--enumeration", "/no/such/shard.json"],
        "/no/such/shard.json",
    );
    // Empty files, or a file of deals that holds only comments: said so, in one line.
    let empty = dir.join("empty.txt");
    std::fs::write(&empty, "").unwrap();
    let comments = dir.join("comments.txt");
    std::fs::write(&comments, "# no deal here\n\n").unwrap();
    for start in [&empty, &comments] {
        let stderr = refused(&["climb", "--start", start.to_str().unwrap()]);
        assert!(stderr.contains("the file holds no deal"), "{stderr}");
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
    }
    let stderr = refused(&["search", "--games", "10", "--out", empty.to_str().unwrap()]);
    assert!(stderr.contains("empty.txt: the file is empty"), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
}
