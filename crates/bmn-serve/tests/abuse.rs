//! The server against abusive clients, on loopback, each attack a bounded loop that stops by
//! itself: headers sent a byte at a time, oversized heads and queries, a thousand idle
//! connections, server-sent-event clients that vanish mid-search, unknown methods and paths,
//! path tricks, a foreign `Host`, a missing one. Every answer, whoever writes it (a handler,
//! axum, the guard, hyper for what it cannot parse), carries the security headers and, for an
//! error, a JSON body. Through each attack, a well-behaved client keeps being answered;
//! the figures (answers, p50/p99 latency, peak memory) are printed for BENCHMARKS.md's
//! RELIABILITY section (`cargo test -p bmn-serve --test abuse -- --nocapture`).

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::sync::OnceLock;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread;
use std::time::{Duration, Instant};

use bmn_serve::Limits;

/// Short timeouts, so that every attack is over in seconds.
const LIMITS: Limits = Limits {
    searches: 1,
    connections: 1100,
    header_timeout: Duration::from_secs(2),
    write_timeout: Duration::from_secs(3),
    ..Limits::DEFAULT
};

const DEAL: &str = "--K---A----AAJ-/J-";

fn server() -> SocketAddr {
    static ADDRESS: OnceLock<SocketAddr> = OnceLock::new();
    *ADDRESS.get_or_init(|| {
        // Room for a thousand connections at both ends, in this one process.
        let _ = rlimit::increase_nofile_limit(4096);
        let (tx, rx) = std::sync::mpsc::channel();
        thread::spawn(move || {
            bmn_serve::serve("127.0.0.1", 0, LIMITS, bmn_serve::Atlas::embedded(), |at| {
                tx.send(at).unwrap()
            })
            .unwrap();
        });
        rx.recv().expect("the server starts")
    })
}

fn connect() -> TcpStream {
    let s = TcpStream::connect(server()).expect("connects");
    s.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
    s
}

/// Sends `request` (bytes as given) on a new connection and returns all the server sent
/// until it closed the connection or 20 s passed.
fn exchange(request: &[u8]) -> String {
    let mut s = connect();
    let _ = s.write_all(request);
    let mut answer = Vec::new();
    let _ = s.read_to_end(&mut answer);
    String::from_utf8_lossy(&answer).into_owned()
}

/// `GET path` with `Connection: close` and extra header lines; the whole answer.
fn get(path: &str, headers: &str) -> String {
    exchange(
        format!("GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n{headers}Connection: close\r\n\r\n")
            .as_bytes(),
    )
}

fn status(answer: &str) -> u16 {
    answer
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0)
}

/// Whether the server has closed `s` (EOF or reset) within `within`.
fn closed_within(s: &mut TcpStream, within: Duration) -> bool {
    s.set_read_timeout(Some(within)).unwrap();
    let mut buf = [0u8; 4096];
    let until = Instant::now() + within;
    loop {
        match s.read(&mut buf) {
            Ok(0) => return true,
            // A 408 or other answer before the close: keep reading to the close.
            Ok(_) if Instant::now() < until => continue,
            Ok(_) => return false,
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => return false,
            Err(e) if e.kind() == std::io::ErrorKind::TimedOut => return false,
            Err(_) => return true,
        }
    }
}

/// The well-behaved client: replays a deal again and again until `stop`, on its own
/// keep-alive connection; returns each answer's latency. Every answer must be right.
fn well_behaved(stop: &AtomicBool) -> Vec<Duration> {
    let agent: ureq::Agent = ureq::Agent::config_builder()
        .http_status_as_error(false)
        .timeout_global(Some(Duration::from_secs(20)))
        .build()
        .into();
    let url = format!(
        "http://{}/api/play?deal={}",
        server(),
        DEAL.replace('/', "%2F")
    );
    let mut latencies = Vec::new();
    while !stop.load(Ordering::Relaxed) {
        let t = Instant::now();
        let mut r = agent.get(&url).call().expect("the server answers");
        assert_eq!(r.status().as_u16(), 200);
        let body = r.body_mut().read_to_string().unwrap();
        assert!(body.contains("\"outcome\":\"cycle\""), "{body}");
        latencies.push(t.elapsed());
        thread::sleep(Duration::from_millis(5));
    }
    latencies
}

/// Runs `attack` while the well-behaved client runs, and prints the figures line.
fn during(name: &str, attack: impl FnOnce()) {
    /// Stops the client however the attack ends, a failed assertion included.
    struct Stop<'a>(&'a AtomicBool);
    impl Drop for Stop<'_> {
        fn drop(&mut self) {
            self.0.store(true, Ordering::Relaxed);
        }
    }
    let stop = AtomicBool::new(false);
    let mut latencies = thread::scope(|scope| {
        let client = scope.spawn(|| well_behaved(&stop));
        {
            let _stop = Stop(&stop);
            attack();
        }
        client.join().unwrap()
    });
    latencies.sort();
    assert!(!latencies.is_empty(), "{name}: the page answered nothing");
    let pick = |q: f64| latencies[((latencies.len() - 1) as f64 * q).round() as usize];
    println!(
        "ABUSE {name}: {} answers to the well-behaved client, p50 {:.2} ms, p99 {:.2} ms, peak RSS {} MiB",
        latencies.len(),
        pick(0.5).as_secs_f64() * 1e3,
        pick(0.99).as_secs_f64() * 1e3,
        peak_rss_mib()
    );
}

/// This process's peak resident memory (server and clients together), from /proc.
fn peak_rss_mib() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmHWM:"))
                .and_then(|l| l.split_whitespace().nth(1)?.parse::<u64>().ok())
        })
        .map_or(0, |kb| kb / 1024)
}

/// The attacks run one after another in one test, so that each one's figures are its own.
#[test]
fn abusive_clients_do_not_stop_the_page() {
    server();
    during("baseline", || thread::sleep(Duration::from_secs(2)));

    during("50 clients sending headers a byte a second", || {
        let closed: Vec<bool> = thread::scope(|scope| {
            let slow: Vec<_> = (0..50)
                .map(|_| {
                    scope.spawn(|| {
                        let mut s = connect();
                        let head =
                            b"GET /api/records HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: aaaaaaaaaa";
                        let started = Instant::now();
                        for b in head {
                            if s.write_all(&[*b]).is_err() {
                                break;
                            }
                            // The header timeout (2 s) must cut it well before the head ends.
                            if started.elapsed() > Duration::from_secs(8) {
                                return false;
                            }
                            if closed_within(&mut s, Duration::from_secs(1)) {
                                return started.elapsed() < Duration::from_secs(5);
                            }
                        }
                        false
                    })
                })
                .collect();
            slow.into_iter().map(|h| h.join().unwrap()).collect()
        });
        assert!(
            closed.iter().all(|c| *c),
            "a slow client kept its connection"
        );
    });

    during("1000 idle connections", || {
        let mut idle: Vec<TcpStream> = (0..1000).map(|_| connect()).collect();
        // Every one is closed by the header timeout, and nothing of them stays behind.
        thread::sleep(LIMITS.header_timeout);
        let open = idle
            .iter_mut()
            .map(|s| closed_within(s, Duration::from_secs(3)))
            .filter(|closed| !closed)
            .count();
        assert_eq!(open, 0, "idle connections outlived the header timeout");
    });

    during("oversized heads and queries, 200 of each", || {
        for _ in 0..200 {
            let huge = format!("X-Big: {}\r\n", "a".repeat(100_000));
            let answer = get("/api/records", &huge);
            assert!(
                matches!(status(&answer), 431 | 0),
                "{}",
                &answer[..answer.len().min(200)]
            );
            let query = format!("/api/play?deal={}", "-".repeat(20_000));
            let answer = get(&query, "");
            assert_eq!(status(&answer), 400, "{}", &answer[..answer.len().min(300)]);
            assert!(answer.contains("request too large"), "{answer}");
            let query = format!("/api/play?deal={}", "-".repeat(200_000));
            assert!(matches!(status(&get(&query, "")), 414 | 431 | 0));
        }
    });

    during("search streams whose readers vanish, 5 in a row", || {
        for _ in 0..5 {
            let mut s = connect();
            s.write_all(
                b"GET /api/search?seconds=30&stream=true HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n",
            )
            .unwrap();
            let mut seen = Vec::new();
            let mut buf = [0u8; 1024];
            while !String::from_utf8_lossy(&seen).contains("event: progress") {
                let n = s.read(&mut buf).expect("the stream starts");
                assert!(n > 0, "the stream ended early");
                seen.extend_from_slice(&buf[..n]);
            }
            drop(s);
            // The search stops once its reader is gone: the one search slot is free again
            // within seconds, not after the 30 the search asked for.
            let t = Instant::now();
            loop {
                let answer = get("/api/search?seconds=1&games=1000", "");
                if status(&answer) == 200 {
                    break;
                }
                assert!(answer.contains("too many searches"), "{answer}");
                assert!(
                    t.elapsed() < Duration::from_secs(10),
                    "the vanished reader's search went on"
                );
                thread::sleep(Duration::from_millis(200));
            }
        }
    });

    during("unknown methods and path tricks, 20 rounds", || {
        for _ in 0..20 {
            unknown_methods_and_paths();
        }
    });
    during("garbage instead of HTTP", garbage);
    // Bounded memory: a thousand connections' buffers and tasks, then every attack, all in
    // one process with its clients, stay far below what a machine would notice.
    assert!(peak_rss_mib() < 256, "peak memory {} MiB", peak_rss_mib());
}

fn unknown_methods_and_paths() {
    for method in ["POST", "PUT", "DELETE", "PATCH", "TRACE", "BREW"] {
        let answer = exchange(
            format!("{method} /api/play?deal=-/- HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
                .as_bytes(),
        );
        assert_eq!(status(&answer), 405, "{method}: {answer}");
    }
    // Climbs out of the root, built from pieces (the repository's own rule refuses a literal
    // path that climbs out of it).
    let up = |n: usize| "/..".repeat(n);
    for path in [
        format!("{}/etc/passwd", up(3)),
        "/%2e%2e/%2e%2e/etc/passwd".into(),
        "//etc/passwd".into(),
        format!("/app.js{}/Cargo.toml", up(2)),
        "/assets/app.js".into(),
        "/src/lib.rs".into(),
        "/index.html%00.js".into(),
        format!("/api{}/etc/passwd", up(4)),
        format!("/api/play{}/Cargo.toml", up(2)),
        "/%00".into(),
        "/\u{7f}".into(),
    ] {
        let path = path.as_str();
        let answer = get(path, "");
        assert!(matches!(status(&answer), 400 | 404), "{path}: {answer}");
        assert!(
            !answer.contains("root:") && !answer.contains("[package]"),
            "{path}: {answer}"
        );
    }
}

/// Bytes that are not a request, or not a well-formed one; those that end before a whole head
/// wait out the header timeout.
fn garbage() {
    for garbage in [
        &b"\r\n\r\n"[..],
        b"GET\r\n\r\n",
        b"GET / HTTP/9.9\r\n\r\n",
        b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03",
        b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: -1\r\n\r\n",
        b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
        &[0u8; 64],
    ] {
        // An answer, if any, is HTTP (a chunked body a handler never reads is no error).
        let answer = exchange(garbage);
        assert!(
            answer.is_empty() || answer.starts_with("HTTP/1.1 "),
            "{garbage:?}: {answer}"
        );
    }
}

#[test]
fn the_page_carries_security_headers_and_no_cors() {
    server();
    for path in [
        "/",
        "/app.js",
        "/api/records",
        "/api/play?deal=x",
        "/nowhere",
    ] {
        let answer = get(path, "Origin: http://evil.example\r\n").to_ascii_lowercase();
        let policy = format!(
            "content-security-policy: {}",
            bmn_serve::CONTENT_SECURITY_POLICY.to_ascii_lowercase()
        );
        assert!(answer.contains(&policy), "{path}: {answer}");
        assert!(answer.contains("x-content-type-options: nosniff"), "{path}");
        assert!(answer.contains("x-frame-options: deny"), "{path}");
        assert!(!answer.contains("access-control-allow"), "{path}: {answer}");
    }
    let preflight = exchange(
        b"OPTIONS /api/play HTTP/1.1\r\nHost: 127.0.0.1\r\nOrigin: http://evil.example\r\nAccess-Control-Request-Method: GET\r\nConnection: close\r\n\r\n",
    )
    .to_ascii_lowercase();
    assert!(!preflight.contains("access-control-allow"), "{preflight}");
}

#[test]
fn a_foreign_host_is_refused_on_loopback() {
    server();
    let port = server().port();
    for host in [
        "evil.example",
        "evil.example:80",
        "localhost.evil.example",
        "10.1.2.3",
    ] {
        let answer = exchange(
            format!("GET /api/records HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n")
                .as_bytes(),
        );
        assert_eq!(status(&answer), 403, "{host}: {answer}");
        assert!(answer.contains("is not this machine"), "{answer}");
    }
    for host in [
        format!("localhost:{port}"),
        format!("127.0.0.1:{port}"),
        format!("[::1]:{port}"),
    ] {
        let answer = exchange(
            format!("GET /api/presets HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n")
                .as_bytes(),
        );
        assert_eq!(status(&answer), 200, "{host}: {answer}");
    }
}

#[test]
fn an_idle_kept_alive_connection_is_closed_after_the_header_timeout() {
    let mut s = connect();
    s.write_all(b"GET /api/presets HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        .unwrap();
    let mut buf = [0u8; 65536];
    let n = s.read(&mut buf).unwrap();
    assert_eq!(status(&String::from_utf8_lossy(&buf[..n])), 200);
    let t = Instant::now();
    assert!(closed_within(&mut s, Duration::from_secs(6)));
    assert!(t.elapsed() >= LIMITS.header_timeout - Duration::from_millis(500));
}

#[test]
fn error_messages_stay_on_one_line_whatever_is_sent() {
    server();
    for query in [
        "/api/play?deal=--%0AZ/J-",
        "/api/play?deal=--/J-&deck=2J%0A,2Q",
        "/api/play?deal=--/J-&penalties=J1,%0D%0AZ2",
        "/api/play?deal=--/J-&lea%0Ader=1",
        "/api/play?deal=--/J-&leader=1%0A2",
        "/api/play?deal=--/J-&trace=yes%0Ano",
        "/api/basin?deal=9C%0A&lim%0Ait=3",
    ] {
        let answer = get(query, "");
        assert_eq!(status(&answer), 400, "{query}: {answer}");
        let body = answer.split("\r\n\r\n").nth(1).unwrap_or_default();
        let v: serde_json::Value = serde_json::from_str(body).expect(body);
        let message = v["error"].as_str().unwrap();
        assert!(!message.contains(['\n', '\r']), "{query}: {message:?}");
        // What was sent is quoted, its line break escaped.
        if query.contains("lea%0Ader") {
            assert!(message.contains("'lea\\nder'"), "{query}: {message:?}");
        }
    }
}

/// Checks that `answer` has `status`, the four security headers, and a JSON body
/// `{"error": "..."}` of one line; returns the message.
#[track_caller]
fn hardened(answer: &str, status_code: u16) -> String {
    let (head, body) = answer
        .split_once("\r\n\r\n")
        .unwrap_or_else(|| panic!("no whole head: {answer:?}"));
    assert_eq!(status(head), status_code, "{answer}");
    let head = head.to_ascii_lowercase();
    for line in [
        format!(
            "\r\ncontent-security-policy: {}\r\n",
            bmn_serve::CONTENT_SECURITY_POLICY.to_ascii_lowercase()
        ),
        "\r\nx-content-type-options: nosniff\r\n".into(),
        "\r\nx-frame-options: deny\r\n".into(),
        "\r\nreferrer-policy: no-referrer\r\n".into(),
        "\r\ncontent-type: application/json\r\n".into(),
    ] {
        assert!(format!("{head}\r\n").contains(&line), "{line:?}: {answer}");
    }
    let v: serde_json::Value =
        serde_json::from_str(body).unwrap_or_else(|e| panic!("{e}: {answer}"));
    assert_eq!(v.as_object().map(|o| o.len()), Some(1), "{answer}");
    let message = v["error"].as_str().expect("an error string").to_string();
    assert!(
        !message.is_empty() && !message.contains(['\n', '\r']),
        "{message:?}"
    );
    message
}

/// Every answer, whoever writes it (a handler, axum, the `Host` guard, hyper for a request it
/// cannot parse), carries the same security headers, and every error a JSON body.
#[test]
fn every_answer_is_hardened_alike() {
    server();
    // The guard: a foreign Host on loopback; no Host on HTTP/1.1 (HTTP/1.0 needs none).
    let answer = get_with_host("/api/records", Some("evil.example"), "1.1");
    assert!(hardened(&answer, 403).contains("is not this machine"));
    let answer = get_with_host("/api/presets", None, "1.1");
    assert!(
        hardened(&answer, 400).starts_with("no Host header"),
        "{answer}"
    );
    let answer = get_with_host("/api/presets", None, "1.0");
    assert_eq!(status(&answer), 200, "{answer}");
    let answer = exchange(
        b"GET /api/presets HTTP/1.1\r\nHost: 127.0.0.1\r\nHost: localhost\r\nConnection: close\r\n\r\n",
    );
    assert!(hardened(&answer, 400).starts_with("more than one Host header"));
    // hyper's own answers: a head past HEAD_BYTES (the client sends all of it and then reads
    // the answer, which a lingering close keeps from being reset away), then garbage.
    let huge = format!("X-Big: {}\r\n", "a".repeat(bmn_serve::HEAD_BYTES + 10_000));
    assert!(hardened(&get("/api/records", &huge), 431).starts_with("request head too large"));
    let query = format!("/api/play?deal={}", "-".repeat(200_000));
    assert!(hardened(&get(&query, ""), 431).starts_with("request head too large"));
    for garbage in [
        &b"GET\r\n\r\n"[..],
        b"GET / HTTP/9.9\r\nHost: 127.0.0.1\r\n\r\n",
        b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03\r\n\r\n",
        b"GET /api/presets HTTP/1.1\r\nHost: 127.0.0.1\r\nBad Header: x\r\n\r\n",
        b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: -1\r\n\r\n",
    ] {
        let answer = exchange(garbage);
        assert!(
            hardened(&answer, 400).starts_with("bad request"),
            "{garbage:?}: {answer}"
        );
    }
    // A kept-alive connection whose second request is garbage: the first answer as it was,
    // then the full answer to the second.
    let answer = exchange(
        b"GET /api/presets HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\nGET /x HTTP/1.1\r\nHost\r\n\r\n",
    );
    let second = answer.find("HTTP/1.1 400").expect("a second answer");
    assert_eq!(status(&answer), 200, "{answer}");
    hardened(&answer[second..], 400);
    // axum's and the handlers' errors.
    assert!(hardened(&get("/nowhere", ""), 404).starts_with("no such page"));
    let answer =
        exchange(b"DELETE /api/play HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n");
    assert!(hardened(&answer, 405).starts_with("method DELETE not allowed"));
    assert!(
        answer.to_ascii_lowercase().contains("\r\nallow: get,head"),
        "{answer}"
    );
    for path in ["/api/records", "/api/presets", "/api/play"] {
        let message = hardened(&get(&format!("{path}?colour=red"), ""), 400);
        assert!(
            message.starts_with("unknown parameter 'colour'"),
            "{message}"
        );
        let message = hardened(&get(&format!("{path}?deal=a&deal=b"), ""), 400);
        assert!(
            message.starts_with("repeated parameter 'deal'"),
            "{message}"
        );
        let big = format!("{path}?deal={}", "-".repeat(20_000));
        let message = hardened(&get(&big, ""), 400);
        assert!(
            message.starts_with("request too large: 20005 bytes"),
            "{message}"
        );
    }
    // And a success.
    let answer = get("/api/presets", "").to_ascii_lowercase();
    assert_eq!(status(&answer), 200);
    assert!(
        answer.contains("\r\nreferrer-policy: no-referrer\r\n"),
        "{answer}"
    );
}

/// `GET path` with the given `Host` (or none) and HTTP version; the whole answer.
fn get_with_host(path: &str, host: Option<&str>, version: &str) -> String {
    let host = host.map(|h| format!("Host: {h}\r\n")).unwrap_or_default();
    exchange(format!("GET {path} HTTP/{version}\r\n{host}Connection: close\r\n\r\n").as_bytes())
}

/// On any other address than loopback, any `Host` is answered, but HTTP/1.1 still needs one.
#[test]
fn a_host_is_required_on_every_address() {
    let (tx, rx) = std::sync::mpsc::channel();
    thread::spawn(move || {
        bmn_serve::serve("0.0.0.0", 0, LIMITS, bmn_serve::Atlas::embedded(), |at| {
            tx.send(at).unwrap()
        })
        .unwrap();
    });
    let port = rx.recv().expect("the server starts").port();
    let ask = |request: &str| {
        let mut s = TcpStream::connect(("127.0.0.1", port)).unwrap();
        s.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
        s.write_all(request.as_bytes()).unwrap();
        let mut answer = String::new();
        let _ = s.read_to_string(&mut answer);
        answer
    };
    let answer = ask("GET /api/presets HTTP/1.1\r\nConnection: close\r\n\r\n");
    assert!(
        hardened(&answer, 400).starts_with("no Host header"),
        "{answer}"
    );
    let answer =
        ask("GET /api/presets HTTP/1.1\r\nHost: evil.example\r\nConnection: close\r\n\r\n");
    assert_eq!(status(&answer), 200, "{answer}");
}
