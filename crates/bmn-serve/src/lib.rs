//! bmn-serve: `bmn serve`, a local web page that replays any deal card by card, and the JSON
//! API under `/api/` it is built on.
//!
//! The atlas (`/api/catalogue`) hands out the catalogues of endless games (`atlas.rs`).
//! Every other answer comes from bmn-app, the library the CLI runs, so the API's keys are the CLI's
//! `--json` keys and a bad request gets the CLI's one-line message (HTTP 400,
//! `{"error": "..."}`). The page's files (`assets/`) are compiled in: nothing is fetched from
//! anywhere but this server. Requests are bounded ([`Limits`]): the size of a request, the
//! length of a replay, the size of a basin, the time and number of searches; connections are
//! bounded too (`listen.rs`: their number, and how long a client may take to send a request
//! head or to read an answer). Every answer carries security headers, and a server on a
//! loopback address answers only requests addressed to this machine (`guard.rs`).

#![forbid(unsafe_code)]

mod api;
mod assets;
mod atlas;
mod guard;
mod listen;

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::routing::get;
use tokio::sync::Semaphore;

pub use api::ApiError;
pub use atlas::{Atlas, AtlasError, Published, PublishedPeriod, TableSummary};
pub use guard::{CONTENT_SECURITY_POLICY, is_loopback_name};
pub use listen::HEAD_BYTES;

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
    /// Basins computed at once; more wait their turn (one many-player basin can take seconds).
    pub basins: usize,
    /// Connections open at once; past it new ones wait in the system's backlog.
    pub connections: usize,
    /// How long a client may take to send a request's head (the first on a connection, or
    /// the next on a kept-alive one) before its connection is closed.
    pub header_timeout: Duration,
    /// How long a write may wait for the client to read before its connection is closed.
    pub write_timeout: Duration,
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
            basins: 2,
            connections: 1024,
            header_timeout: Duration::from_secs(10),
            write_timeout: Duration::from_secs(30),
        }
    }
}

/// What every handler shares.
#[derive(Clone)]
pub(crate) struct Shared {
    pub limits: Limits,
    pub searches: Arc<Semaphore>,
    /// Basins computed at once; more wait their turn. A basin is bounded by its positions,
    /// yet one expansion of a many-player final position can take seconds of CPU, so a flood
    /// of them is kept to these threads rather than every core.
    pub basins: Arc<Semaphore>,
    /// The catalogues of endless games the page's atlas shows.
    pub atlas: Arc<Atlas>,
}

/// The page and the API, with `atlas`'s catalogues.
pub fn router(limits: Limits, atlas: Atlas) -> Router {
    let shared = Shared {
        limits,
        atlas: Arc::new(atlas),
        searches: Arc::new(Semaphore::new(limits.searches)),
        basins: Arc::new(Semaphore::new(limits.basins.max(1))),
    };
    Router::new()
        .route("/", get(assets::index))
        .route("/app.js", get(assets::script))
        .route("/atlas.js", get(assets::atlas))
        .route("/style.css", get(assets::style))
        .route("/api/play", get(api::play))
        .route("/api/records", get(api::records))
        .route("/api/presets", get(api::presets))
        .route("/api/basin", get(api::basin))
        .route("/api/search", get(api::search))
        .route("/api/catalogue", get(api::catalogue))
        .fallback(api::not_found)
        .layer(axum::extract::DefaultBodyLimit::max(limits.request_bytes))
        .layer(axum::middleware::from_fn(guard::headers))
        .with_state(shared)
}

/// Serves the page, with `atlas`'s catalogues, on `bind:port` until the process ends; `ready(address)` is called once
/// the socket listens (with port 0, the port the system chose). On a loopback address only
/// requests whose `Host` names this machine are answered ([`is_loopback_name`]).
pub fn serve(
    bind: &str,
    port: u16,
    limits: Limits,
    atlas: Atlas,
    ready: impl FnOnce(SocketAddr),
) -> std::io::Result<()> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    runtime.block_on(async {
        let listener = tokio::net::TcpListener::bind((bind, port)).await?;
        let at = listener.local_addr()?;
        let mut app = router(limits, atlas);
        if at.ip().is_loopback() {
            app = app.layer(axum::middleware::from_fn(guard::loopback_host));
        }
        ready(at);
        listen::run(listener, app, limits).await
    })
}
