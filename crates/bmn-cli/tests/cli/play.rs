//! `bmn play` end to end: the golden fixtures in text and JSON, traces, limits, and every kind of bad input.

use std::io::{BufRead, BufReader, Lines};
use std::process::{Child, ChildStderr, Stdio};

use crate::common::{bad, bmn, command, json, kill, ok, scratch};
use serde_json::json;

#[test]
fn golden_records_in_text_and_json() {
    let mut failures = Vec::new();
    for r in bmn_golden::load().records {
        let leader = r.leader.to_string();
        let want = json!({"outcome": "finished", "winner": r.winner, "cards": r.cards, "tricks": r.tricks});
        let got = json(&["play", &r.deal, "--leader", &leader, "--json"]);
        if got != want {
            failures.push(format!("{}: json {got}, want {want}", r.name));
        }
        let text = ok(&["play", &r.deal, "--leader", &leader]);
        let want_text = format!(
            "player {} wins after {} cards and {} tricks\n",
            r.winner, r.cards, r.tricks
        );
        if text != want_text {
            failures.push(format!("{}: text {text:?}, want {want_text:?}", r.name));
        }
    }
    assert!(failures.is_empty(), "\n{}", failures.join("\n"));
}

#[test]
fn golden_cycles_in_text_and_json() {
    for c in bmn_golden::load().cycles {
        let leader = c.leader.to_string();
        let got = json(&["play", &c.deal, "--leader", &leader, "--json"]);
        let (pre, per) = (c.preperiod, c.period);
        assert_eq!(got["outcome"], "cycle", "{}", c.name);
        assert_eq!(
            got["preperiod"],
            json!({"tricks": pre.tricks, "cards": pre.cards}),
            "{}",
            c.name
        );
        assert_eq!(
            got["period"],
            json!({"tricks": per.tricks, "cards": per.cards}),
            "{}",
            c.name
        );
        if let Some(first) = &c.first_cycle_position {
            assert_eq!(
                got["cycle_start"],
                json!({"deal": first.deal, "leader": first.leader}),
                "{}",
                c.name
            );
        }
        let text = ok(&["play", &c.deal, "--leader", &leader]);
        assert!(text.starts_with("the game never ends\n"), "{text}");
        assert!(
            text.contains(&format!(
                "preperiod: {} tricks ({} cards)",
                pre.tricks, pre.cards
            )),
            "{text}"
        );
        assert!(
            text.contains(&format!(
                "period:    {} tricks ({} cards)",
                per.tricks, per.cards
            )),
            "{text}"
        );
        assert!(
            text.contains(&format!("cycle id: {}", got["cycle_id"].as_str().unwrap())),
            "{text}"
        );
    }
}

#[test]
fn cycle_id_is_the_same_from_any_position_of_the_cycle() {
    // Two positions of the Casella cycle: its first position, and the start deal with the
    // players' seats swapped.
    let a = json(&[
        "play",
        "---K---Q-KQAJ-----AAJ--J--/----------Q----KQ-J-----KA",
        "--json",
    ]);
    let b = json(&[
        "play",
        "---AAJ--J--------K---------Q-Q-K---Q-KAQJ-/-----KA-J-",
        "--leader",
        "2",
        "--json",
    ]);
    let c = json(&[
        "play",
        "----------Q----KQ-J-----KA/---K---Q-KQAJ-----AAJ--J--",
        "--leader",
        "2",
        "--json",
    ]);
    assert_eq!(a["cycle_id"], b["cycle_id"]);
    assert_eq!(a["cycle_id"], c["cycle_id"]);
    assert_eq!(b["preperiod"], json!({"tricks": 0, "cards": 0}));
}

#[test]
fn trace_prints_every_position() {
    let text = ok(&["play", "J--K---A----AA/-J-", "--trace", "--tricks", "1"]);
    assert_eq!(
        text,
        "1. J--K---A----AA 2. -J- (leader 1)\n\
         1. --K---A----AAJ- 2. J- (leader 1)\n\
         stopped after 1 trick (2 cards) at: --K---A----AAJ-/J- (leader 1)\n"
    );
    let cyc = ok(&["play", "--Q-J-/Q-J-", "--trace"]);
    assert_eq!(
        cyc.lines().filter(|l| l.starts_with("1. ")).count(),
        4,
        "{cyc}"
    );
    let t = json(&["play", "--K/J-", "--trace", "--json"]);
    assert_eq!(t["trace"].as_array().unwrap().len(), 3);
    assert_eq!(
        t["trace"][2],
        json!({"deal": "/--K-J", "leader": 2, "tricks": 2, "cards": 7})
    );
}

#[test]
fn tricks_limit_stops_or_finishes() {
    assert_eq!(
        json(&["play", "J--K---A----AA/-J-", "--tricks", "1", "--json"]),
        json!({"outcome": "stopped", "position": {"deal": "--K---A----AAJ-/J-", "leader": 1}, "cards": 2, "tricks": 1})
    );
    assert_eq!(
        json(&["play", "--K/J-", "--tricks", "10", "--json"]),
        json!({"outcome": "finished", "winner": 2, "cards": 7, "tricks": 2})
    );
}

#[test]
fn notations_and_variants() {
    let paulhus = json(&["play", "1000200003/2000100003", "--json"]);
    let symbols = json(&["play", "J---Q----K/Q---J----K", "--json"]);
    assert_eq!(paulhus, symbols);
    let real = json(&[
        "play",
        "JH 9C 2d 10s QS 3H 4H 5H 6H KD/Q♠ 9D 8D 7D J♦ 2C 3C 4C 5C K♣",
        "--json",
    ]);
    assert_eq!(real, symbols);
    // Three players, Knocking Dolly penalties, collect.
    let v = json(&[
        "play",
        "-A-/--/J-",
        "--penalties",
        "K3,J2,Q1,A0",
        "--on-empty",
        "collect",
        "--json",
    ]);
    assert_eq!(v["outcome"], "finished");
    ok(&["play", "--K---A----AAJ-/J-", "--deck", "1J,0Q,1K,3A,11-,1J"]);
}

#[test]
fn deal_from_stdin_and_a_huge_stack() {
    let out = bmn(&["play", "-", "--json"], Some("--K/J-\n"));
    assert!(out.status.success());
    let huge = format!("{}/J", "-".repeat(100_000));
    let got = json(&["play", &huge, "--json"]);
    assert_eq!(
        got,
        json!({"outcome": "finished", "winner": 2, "cards": 200_000, "tricks": 17})
    );
}

#[test]
fn bad_input_is_named_with_exit_code_2() {
    bad(
        &["play", "--Z-/J-"],
        "unexpected character 'Z' at position 3 (hand 1)",
    );
    bad(&["play", "--K"], "at least 2 hands");
    bad(&["play", "--K/"], "hand 2 is empty");
    bad(&["play", ""], "the deal is empty");
    bad(
        &["play", "--K/J-", "--leader", "3"],
        "leader 3 is out of range",
    );
    bad(&["play", "--K/J-", "--leader", "0"], "--leader");
    bad(&["play", "--K/J-", "--leader", "x"], "--leader");
    bad(
        &["play", "--K/J-", "--tricks", "-1"],
        "--tricks: -1 is negative",
    );
    bad(
        &["play", "9C 8/J"],
        "'8' at position 4 (hand 1) has no suit",
    );
    bad(&["play", "--K/J-", "--penalties", "Z1"], "not a face card");
    bad(
        &["play", "--K/J-", "--deck", "standard"],
        "the hands hold 3 - (deck has 36), 1 J (deck has 4)",
    );
    bad(&["play", "--K/J-", "--deck", "bogus"], "not a deck term");
    bad(&["play", "--K/J-", "--on-empty", "keep"], "--on-empty");
    bad(&["play"], "DEAL");
    bad(&["frobnicate"], "unrecognized subcommand");
}

/// `bmn serve ARGS` started on a free port: the child, the address it says it serves on, and
/// the rest of what it writes on stderr.
fn serve(args: &[&str]) -> (Child, String, Lines<BufReader<ChildStderr>>) {
    let mut child = command(&[&["serve", "--port", "0"], args].concat())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut lines = BufReader::new(child.stderr.take().unwrap()).lines();
    let line = lines.next().unwrap().unwrap();
    let address = line
        .split("http://")
        .nth(1)
        .and_then(|r| r.split('/').next())
        .unwrap_or_else(|| panic!("{line}"))
        .to_string();
    (child, address, lines)
}

/// The whole HTTP answer to `GET path`.
fn http_get(address: &str, path: &str) -> String {
    use std::io::{Read, Write};
    let mut stream = std::net::TcpStream::connect(address).unwrap();
    write!(
        stream,
        "GET {path} HTTP/1.1\r\nHost: {address}\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let mut answer = String::new();
    stream.read_to_string(&mut answer).unwrap();
    answer
}

/// `bmn serve` listens where it says and answers the API; a bad address is an error.
#[test]
fn serve_answers_on_the_port_it_names() {
    let (child, address, _) = serve(&[]);
    let answer = http_get(&address, "/api/play?deal=--Q-J-/Q-J-");
    kill(child);
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    assert!(answer.contains(r#"{"outcome":"cycle""#), "{answer}");
    // An address that names nothing is bad input, in one line.
    for bind in ["no.such.host.invalid", "999.1.1.1"] {
        let out = bmn(&["serve", "--bind", bind, "--port", "1"], None);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{err}");
        assert!(
            err.starts_with(&format!("bmn: error: bad --bind: {bind}: ")),
            "{err}"
        );
        assert_eq!(err.lines().count(), 1, "{err}");
    }

    // On every address, not only this machine's, the page has no login: a warning says so.
    let (child, address, mut lines) = serve(&["--bind", "0.0.0.0"]);
    let second = lines.next().unwrap().unwrap();
    kill(child);
    assert!(address.starts_with("0.0.0.0:"), "{address}");
    assert!(
        second.starts_with(
            "bmn: warning: 0.0.0.0 is not a loopback address and the page has no login"
        ),
        "{second}"
    );
}

/// Ctrl-C, SIGTERM and SIGHUP stop `bmn serve` within a second, with the exit code of a
/// stopped command (130), as the exit-code table says; not 143 or 129, as a process the signal
/// killed would give.
#[test]
fn serve_stops_on_each_signal_with_the_code_of_a_stopped_command() {
    for signal in ["-INT", "-TERM", "-HUP"] {
        // Its stderr read to the end, so that its last words find a reader.
        let (mut child, _, lines) = serve(&[]);
        let said = std::thread::spawn(move || lines.map_while(Result::ok).collect::<Vec<_>>());
        let sent = std::process::Command::new("kill")
            .args([signal, &child.id().to_string()])
            .status()
            .expect("kill runs");
        assert!(sent.success(), "kill {signal}");
        let asked = std::time::Instant::now();
        let status = loop {
            if let Some(status) = child.try_wait().unwrap() {
                break status;
            }
            assert!(
                asked.elapsed() < std::time::Duration::from_secs(5),
                "still serving 5 s after {signal}"
            );
            std::thread::sleep(std::time::Duration::from_millis(20));
        };
        assert_eq!(status.code(), Some(130), "{signal}: {status:?}");
        assert_eq!(said.join().unwrap(), ["bmn: stopped serving"], "{signal}");
    }
}

/// `bmn serve --catalogue DIR` offers DIR's catalogue files instead of the compiled-in ones;
/// a folder that is not there, or a file that is not a catalogue, stops it with what is wrong
/// (bad input: exit code 2).
#[test]
fn serve_reads_its_catalogues_from_a_folder() {
    let dir = scratch("catalogue");
    let file = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../docs/catalogue/census-camicia-half.json"
    );
    std::fs::copy(file, dir.join("half.json")).unwrap();
    std::fs::write(dir.join("notes.txt"), "not a catalogue, and not read").unwrap();
    let (child, address, _) = serve(&["--catalogue", dir.to_str().unwrap()]);
    let list = http_get(&address, "/api/catalogue");
    let one = http_get(&address, "/api/catalogue?table=half");
    kill(child);
    assert!(
        list.contains(r#""table":"half""#) && !list.contains("census-camicia"),
        "{list}"
    );
    assert!(one.contains(r#""deck": "2J,2Q,2K,14-""#), "{one}");

    std::fs::write(dir.join("broken.json"), "{\"deck\": \"standard\"").unwrap();
    let out = bmn(&["serve", "--catalogue", dir.to_str().unwrap()], None);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("bad catalogue file broken.json: not a catalogue"),
        "{err}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
    let out = bmn(&["serve", "--catalogue", dir.to_str().unwrap()], None);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("reading the catalogue") && err.matches("No such file").count() == 1,
        "{err}"
    );
}
