//! bmn-serve: `bmn serve`, a local web page that replays any deal card by card, and the JSON
//! API under `/api/` it is built on.
//!
//! Every answer comes from bmn-app, the library the CLI runs, so the API's keys are the CLI's
//! `--json` keys and a bad request gets the CLI's one-line message (HTTP 400,
//! `{"error": "..."}`). The page's files (`assets/`) are compiled in: nothing is fetched from
//! anywhere but this server. Requests are bounded ([`Limits`]): the size of a request, the
//! length of a replay, the size of a basin, the time and number of searches.

#![forbid(unsafe_code)]

mod api;
mod assets;

use std::net::SocketAddr;
use std::sync::Arc;

use axum::Router;
use axum::routing::get;
use tokio::sync::Semaphore;

pub use api::ApiError;

/// The bounds on what one request may ask of the server.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Bytes of a request's parameters.
    pub request_bytes: usize,
    /// Tricks a replay (trace and card events) may hold.
    pub replay_tricks: u64,
    /// Tricks after which a game that neither ends nor repeats is given up on.
    pub give_up: u64,
    /// Positions a basin search may visit.
    pub basin_positions: u64,
    /// Positions of a basin drawn as a graph.
    pub graph_nodes: usize,
    /// Seconds a search may run.
    pub search_seconds: u64,
    /// Searches running at once.
    pub searches: usize,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            request_bytes: 16 * 1024,
            replay_tricks: 100_000,
            give_up: 1_000_000,
            basin_positions: 20_000,
            graph_nodes: 10_000,
            search_seconds: 60,
            searches: 2,
        }
    }
}

/// What every handler shares.
#[derive(Clone)]
pub(crate) struct Shared {
    pub limits: Limits,
    pub searches: Arc<Semaphore>,
}

/// The page and the API.
pub fn router(limits: Limits) -> Router {
    let shared = Shared {
        limits,
        searches: Arc::new(Semaphore::new(limits.searches)),
    };
    Router::new()
        .route("/", get(assets::index))
        .route("/app.js", get(assets::script))
        .route("/style.css", get(assets::style))
        .route("/api/play", get(api::play))
        .route("/api/records", get(api::records))
        .route("/api/presets", get(api::presets))
        .route("/api/basin", get(api::basin))
        .route("/api/search", get(api::search))
        .fallback(api::not_found)
        .layer(axum::extract::DefaultBodyLimit::max(limits.request_bytes))
        .with_state(shared)
}

/// Serves the page on `bind:port` until the process ends; `ready(address)` is called once
/// the socket listens (with port 0, the port the system chose).
pub fn serve(
    bind: &str,
    port: u16,
    limits: Limits,
    ready: impl FnOnce(SocketAddr),
) -> std::io::Result<()> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    runtime.block_on(async {
        let listener = tokio::net::TcpListener::bind((bind, port)).await?;
        ready(listener.local_addr()?);
        axum::serve(listener, router(limits)).await
    })
}
