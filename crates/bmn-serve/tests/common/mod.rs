//! A server on a free port for the tests, and a plain HTTP client for its API.
#![allow(dead_code)]

pub mod webdriver;

use std::net::SocketAddr;
use std::sync::OnceLock;

use serde_json::Value;

/// The address of the test process's one server (started on first use, on a free port).
pub fn server() -> SocketAddr {
    static ADDRESS: OnceLock<SocketAddr> = OnceLock::new();
    *ADDRESS.get_or_init(|| {
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let limits = bmn_serve::Limits {
                // Small enough that the tests reach every cap quickly.
                searches: 1,
                ..bmn_serve::Limits::default()
            };
            bmn_serve::serve("127.0.0.1", 0, limits, bmn_serve::Atlas::embedded(), |at| {
                tx.send(at).unwrap()
            })
            .unwrap();
        });
        rx.recv().expect("the server starts")
    })
}

fn agent() -> ureq::Agent {
    ureq::Agent::config_builder()
        .http_status_as_error(false)
        .build()
        .into()
}

/// GETs `path` (with its query) and returns the status and the body.
pub fn get_text(path: &str) -> (u16, String) {
    let url = format!("http://{}{path}", server());
    let mut response = agent().get(&url).call().expect("the server answers");
    let status = response.status().as_u16();
    let body = response
        .body_mut()
        .with_config()
        .limit(64 << 20)
        .read_to_string()
        .unwrap();
    (status, body)
}

/// GETs `path` and parses the JSON body.
pub fn get(path: &str) -> (u16, Value) {
    let (status, body) = get_text(path);
    let value = serde_json::from_str(&body).unwrap_or_else(|e| panic!("{path}: {e}: {body}"));
    (status, value)
}

/// A query parameter, percent-encoded.
pub fn enc(text: &str) -> String {
    text.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => {
                (b as char).to_string()
            }
            _ => format!("%{b:02X}"),
        })
        .collect()
}

/// GETs `path`, which must answer 200, and returns its JSON.
#[track_caller]
pub fn ok(path: &str) -> Value {
    let (status, v) = get(path);
    assert_eq!(status, 200, "{path}: {v}");
    v
}

/// GETs `path`, which must answer 400 with an error containing `expected`.
#[track_caller]
pub fn bad(path: &str, expected: &str) {
    let (status, v) = get(path);
    assert_eq!(status, 400, "{path}: {v}");
    let error = v["error"].as_str().unwrap_or_default();
    assert!(error.contains(expected), "{path}: {error}");
    assert_eq!(v.as_object().unwrap().len(), 1, "only `error`: {v}");
}
