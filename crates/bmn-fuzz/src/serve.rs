//! The web page's query strings: `bmn_serve::router` driven in-process with a fuzzed query
//! under `/api/play`, `/api/basin`, `/api/catalogue`, `/api/presets` and `/api/records` (not `/api/search`,
//! which runs for seconds). Every answer is a 200, or a 4xx with `{"error": "..."}` and a
//! one-line message; never a 5xx, never a panic.

use std::sync::OnceLock;

use axum::Router;
use axum::body::Body;
use axum::http::{Request, StatusCode};
use tokio::runtime::Runtime;
use tower::ServiceExt;

/// A query string is bounded by the server (16 KiB by default); past 2 KiB the fuzzer only
/// slows down.
const MAX_BYTES: usize = 2048;

/// The endpoints a fuzzed query goes to, picked by the first byte: `/api/records` takes no
/// parameters and replays every record (13 ms), so only the first byte 3 picks it.
fn endpoint(first: u8) -> &'static str {
    match (first, first % 4) {
        (3, _) => "/api/records",
        (_, 0 | 2) => "/api/play",
        (_, 1) => "/api/basin",
        _ if first & 8 == 0 => "/api/presets",
        _ => "/api/catalogue",
    }
}

/// Tight limits so one request is fast: short replays, small basins. Built on the defaults so
/// that fields the server gains later keep their default values.
fn limits() -> bmn_serve::Limits {
    bmn_serve::Limits {
        replay_tricks: 2000,
        give_up: 5000,
        basin_positions: 500,
        graph_nodes: 200,
        ..bmn_serve::Limits::default()
    }
}

/// One current-thread runtime and one router per process (the handlers' blocking work runs
/// on the runtime's blocking pool, as it does in `bmn serve`).
fn server() -> &'static (Runtime, Router) {
    static SERVER: OnceLock<(Runtime, Router)> = OnceLock::new();
    SERVER.get_or_init(|| {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .expect("a tokio runtime");
        (
            runtime,
            bmn_serve::router(limits(), bmn_serve::Atlas::embedded()),
        )
    })
}

/// Whether a byte may stand in a request target's query as it is: the fuzzer's `%`, `&`, `=`
/// and `+` are kept (they are what the server decodes), anything else is percent-encoded so
/// every value, newlines and non-ASCII included, can reach the handlers.
fn plain(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b"-._~!$'()*+,;=:@/?%&".contains(&b)
}

/// The first byte picks the endpoint (and, bit 2, whether the rest follows a `?`); the rest
/// is the query string.
pub fn serve_query(data: &[u8]) {
    let Some((&first, rest)) = data.split_first() else {
        return;
    };
    if rest.len() > MAX_BYTES {
        return;
    }
    let mut uri = String::from(endpoint(first));
    if first & 4 == 0 {
        uri.push('?');
    }
    for &b in rest {
        if plain(b) {
            uri.push(char::from(b));
        } else {
            uri.push_str(&format!("%{b:02X}"));
        }
    }
    let Ok(request) = Request::get(uri.as_str()).body(Body::empty()) else {
        // Not a request target (the http crate refuses it): no server ever sees it.
        return;
    };
    let (runtime, router) = server();
    let (status, body) = runtime.block_on(async {
        let response = router
            .clone()
            .oneshot(request)
            .await
            .expect("the router is infallible");
        let status = response.status();
        let body = axum::body::to_bytes(response.into_body(), usize::MAX)
            .await
            .expect("a body in memory");
        (status, body)
    });
    let body = String::from_utf8_lossy(&body);
    assert!(
        status == StatusCode::OK || status.is_client_error(),
        "{uri}: status {status}: {body}"
    );
    if status.is_client_error() {
        let json: serde_json::Value = serde_json::from_str(&body)
            .unwrap_or_else(|e| panic!("{uri}: a {status} that is not JSON ({e}): {body}"));
        let object = json.as_object().expect("an error is a JSON object");
        assert_eq!(object.len(), 1, "{uri}: {body}");
        let message = object
            .get("error")
            .and_then(|m| m.as_str())
            .unwrap_or_else(|| panic!("{uri}: no \"error\" string: {body}"));
        assert!(!message.trim().is_empty(), "{uri}: an empty error");
        // One line, whatever was sent: what the user typed is quoted with its control
        // characters escaped (a multi-line message was found here and fixed).
        assert!(
            !message.contains(['\n', '\r']),
            "{uri}: a multi-line error: {message:?}"
        );
    }
}
