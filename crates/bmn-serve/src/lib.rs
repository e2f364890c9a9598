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
//! head or to read an answer). Every answer, whatever its status and whoever wrote it (a
//! handler, axum, or hyper for a request it cannot parse: `bare.rs`), carries the same
//! security headers, and every error a JSON body `{"error": "..."}`. Every endpoint reads its
//! parameters by the same rules (`query.rs`): no unknown, repeated or oversized ones. An
//! HTTP/1.1 request must name its `Host`, and a server on a loopback address answers only
//! requests addressed to this machine (`guard.rs`).

#![forbid(unsafe_code)]

/// `AsyncRead` for `$wrapper<S>`, a stream in its field `inner` whose wrapper sees only to
/// writes: reads pass straight through.
macro_rules! reads_through {
    ($wrapper:ident) => {
        impl<S: tokio::io::AsyncRead + Unpin> tokio::io::AsyncRead for $wrapper<S> {
            fn poll_read(
                mut self: std::pin::Pin<&mut Self>,
                cx: &mut std::task::Context<'_>,
                buf: &mut tokio::io::ReadBuf<'_>,
            ) -> std::task::Poll<std::io::Result<()>> {
                std::pin::Pin::new(&mut self.inner).poll_read(cx, buf)
            }
        }
    };
}

mod api;
mod assets;
mod atlas;
mod bare;
mod error;
mod guard;
mod listen;
mod query;

use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use axum::Router;
use axum::routing::get;
use tokio::sync::Semaphore;

pub use atlas::{Atlas, AtlasError, Published, PublishedPeriod, TableSummary};
pub use error::ApiError;
pub use guard::{CONTENT_SECURITY_POLICY, is_loopback_name};

/// The most a connection buffers of a request head: the parameters' cap and room for the
/// headers a browser sends. A longer head is answered 431 and the connection closed.
pub const HEAD_BYTES: usize = 48 * 1024;

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

impl Limits {
    /// The limits `bmn serve` runs with unless told.
    pub const DEFAULT: Limits = Limits {
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
    };
}

impl Default for Limits {
    fn default() -> Limits {
        Limits::DEFAULT
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

/// The page and the API, with `atlas`'s catalogues, every answer with the security headers
/// and every error with a JSON body. In process (a fuzzer, a test) there is no network, so
/// no `Host` rule: [`serve`] adds those.
pub fn router(limits: Limits, atlas: Atlas) -> Router {
    routes(limits, atlas).layer(axum::middleware::from_fn(guard::headers))
}

/// The page and the API, bare: the caller adds [`guard::headers`] as the outermost layer, so
/// that every answer, those of the layers it adds inside too, carries the headers.
fn routes(limits: Limits, atlas: Atlas) -> Router {
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
        .route("/favicon.ico", get(assets::icon))
        .route("/api/play", get(api::play))
        .route("/api/records", get(api::records))
        .route("/api/presets", get(api::presets))
        .route("/api/basin", get(api::basin))
        .route("/api/search", get(api::search))
        .route("/api/catalogue", get(api::catalogue))
        .fallback(api::not_found)
        .layer(axum::extract::DefaultBodyLimit::max(limits.request_bytes))
        .with_state(shared)
}

/// Serves the page, with `atlas`'s catalogues, on `bind:port` until the process ends;
/// [`serve_until`] with a stop that never comes.
pub fn serve(
    bind: &str,
    port: u16,
    limits: Limits,
    atlas: Atlas,
    ready: impl FnOnce(SocketAddr),
) -> std::io::Result<()> {
    serve_until(bind, port, limits, atlas, &AtomicBool::new(false), ready)
}

/// Serves the page, with `atlas`'s catalogues, on `bind:port` until `stop` is set (looked at
/// every [`STOP_POLL`]); `ready(address)` is called once
/// the socket listens (with port 0, the port the system chose). An HTTP/1.1 request without
/// `Host` is refused (400); on a loopback address only requests whose `Host` names this machine
/// are answered ([`is_loopback_name`]). Connections still open when it stops are dropped.
pub fn serve_until(
    bind: &str,
    port: u16,
    limits: Limits,
    atlas: Atlas,
    stop: &AtomicBool,
    ready: impl FnOnce(SocketAddr),
) -> std::io::Result<()> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    runtime.block_on(async {
        let listener = tokio::net::TcpListener::bind((bind, port)).await?;
        let at = listener.local_addr()?;
        let hosts = if at.ip().is_loopback() {
            guard::Hosts::ThisMachine
        } else {
            guard::Hosts::Any
        };
        // The `Host` check inside the headers, so that its refusals carry them too.
        let app = routes(limits, atlas)
            .layer(axum::middleware::from_fn_with_state(hosts, guard::host))
            .layer(axum::middleware::from_fn(guard::headers));
        ready(at);
        let stopped = async {
            while !stop.load(Ordering::Relaxed) {
                tokio::time::sleep(STOP_POLL).await;
            }
        };
        tokio::select! {
            served = listen::run(listener, app, limits) => served,
            () = stopped => Ok(()),
        }
    })
}

/// How often [`serve_until`] looks at its stop flag.
pub const STOP_POLL: Duration = Duration::from_millis(100);
