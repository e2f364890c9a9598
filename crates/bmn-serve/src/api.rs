//! The JSON API: `/api/play`, `/api/records`, `/api/presets`, `/api/basin`, `/api/search`,
//! `/api/catalogue`.
//! Parameters are a query string with the CLI's flag names (`deal`, `leader`, `deck`,
//! `penalties`, `on_empty`, ...), each endpoint's a struct read by `query.rs`; answers carry
//! the CLI's `--json` keys; a bad request gets HTTP 400 and `{"error": "..."}` with the CLI's
//! one-line message.

use std::convert::Infallible;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use axum::Json;
use axum::extract::State;
use axum::http::Uri;
use axum::http::{StatusCode, header};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use bmn_app::backward::BasinRequest;
use bmn_app::flags::LedgerArgs;
use bmn_app::play::PlayRequest;
use bmn_app::search::SearchRequest;
use bmn_job::{Hooks, Job};
use serde::Deserialize;
use serde_json::{Value, json};
use tokio::sync::mpsc;
use tokio_stream::wrappers::ReceiverStream;

use crate::Shared;
use crate::error::ApiError;
use crate::query::{self, Endpoint, Params};

type Answer = Result<Response, ApiError>;

// Each endpoint's parameters: those of its command's request that it lists, read through the
// request's own declaration, and its own, read by `Params` (`query.rs`): unknown, repeated and
// oversized parameters are refused there, blank values are absent. The lists' order is the
// order the "unknown parameter" message gives them in.

/// `/api/play`: `bmn play`'s request (one deal), and `events`.
const PLAY: Endpoint = Endpoint {
    takes: &[
        "deal",
        "leader",
        "players",
        "deck",
        "penalties",
        "on_empty",
        "tricks",
        "trace",
        "events",
    ],
    own: &["events"],
    renamed: &[],
};

/// `/api/play`'s own parameter.
#[derive(Debug, Default, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct PlayQuery {
    events: bool,
}

/// `/api/records`' and `/api/presets`' parameters: none.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NoQuery {}

/// `/api/basin`: `bmn basin`'s request, its position called `deal`, and `graph`.
const BASIN: Endpoint = Endpoint {
    takes: &["deal", "leader", "limit", "graph", "penalties", "on_empty"],
    own: &["graph"],
    renamed: &[("position", "deal")],
};

/// `/api/basin`'s own parameter.
#[derive(Debug, Default, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct BasinQuery {
    graph: bool,
}

/// `/api/search`: `bmn search`'s request (but for the machine's: threads, files, the
/// ledger, the kernel), a time limit in `seconds`, and `stream` (events); the stream of deals
/// (`--stream`) is `deal_stream`.
const SEARCH: Endpoint = Endpoint {
    takes: &[
        "seconds",
        "games",
        "seed",
        "balanced",
        "top",
        "deck",
        "players",
        "penalties",
        "on_empty",
        "stream",
        "deal_stream",
    ],
    own: &["seconds", "stream"],
    renamed: &[("stream", "deal_stream")],
};

/// `/api/search`'s own parameters.
#[derive(Debug, Default, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct SearchQuery {
    seconds: Option<u64>,
    stream: bool,
}

/// `/api/catalogue`'s parameters.
#[derive(Debug, Default, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct CatalogueQuery {
    table: Option<String>,
}

/// Runs a command off the async threads (games are CPU work).
async fn blocking<T: Send + 'static>(
    work: impl FnOnce() -> Result<T, ApiError> + Send + 'static,
) -> Result<T, ApiError> {
    tokio::task::spawn_blocking(work)
        .await
        .map_err(|e| ApiError {
            status: StatusCode::INTERNAL_SERVER_ERROR,
            message: format!("the command failed: {e}"),
        })?
}

/// A report as JSON, its keys in the order the CLI prints them.
fn to_json<T: serde::Serialize>(value: &T) -> Answer {
    let text = serde_json::to_string(value).map_err(|e| ApiError {
        status: StatusCode::INTERNAL_SERVER_ERROR,
        message: e.to_string(),
    })?;
    Ok(([(header::CONTENT_TYPE, "application/json")], text).into_response())
}

/// `/api/play?deal=...`: `bmn play --json`'s keys, `start` and `players`; with `trace=true`
/// every position trick by trick, with `events=true` every card laid and pile taken.
pub async fn play(State(shared): State<Shared>, uri: Uri) -> Answer {
    let (mut req, own): (PlayRequest, PlayQuery) =
        query::command(&uri, shared.limits.request_bytes, &PLAY)?;
    req.give_up.give_up = Some(shared.limits.give_up);
    let (events, replay_tricks) = (own.events, shared.limits.replay_tricks);
    blocking(move || to_json(&bmn_app::play::replay(&req, events, replay_tricks)?)).await
}

/// `/api/records`: `bmn records --json`.
pub async fn records(Params(NoQuery {}): Params<NoQuery>) -> Answer {
    blocking(|| to_json(&bmn_app::records::records(&Default::default())?)).await
}

/// `/api/presets`: the published records and cycles a page offers to replay.
pub async fn presets(Params(NoQuery {}): Params<NoQuery>) -> Answer {
    let records: Vec<Value> = bmn_app::records::table()
        .iter()
        .map(|r| json!({ "name": r.name, "deal": r.deal, "leader": r.leader }))
        .collect();
    let cycles: Vec<Value> = bmn_app::records::cycles()
        .iter()
        .map(|c| json!({ "name": c.name, "deal": c.deal, "leader": c.leader, "source": c.source }))
        .collect();
    Ok(Json(json!({ "records": records, "endless_list": cycles })).into_response())
}

/// `/api/basin?deal=...`: `bmn basin --json`, capped; with `graph=true` the positions and
/// their tricks (at most the graph cap, nearest the cycle first).
pub async fn basin(State(shared): State<Shared>, uri: Uri) -> Answer {
    let (mut req, own): (BasinRequest, BasinQuery) =
        query::command(&uri, shared.limits.request_bytes, &BASIN)?;
    let cap = shared.limits.basin_positions;
    let limit = req.limit.limit.unwrap_or(cap);
    if limit > cap {
        return Err(ApiError::bad(format!(
            "bad limit: {limit} positions, past this server's cap of {cap}"
        )));
    }
    req.limit.limit = Some(limit);
    req.balanced = true;
    req.graph = own.graph.then_some(shared.limits.graph_nodes);
    let _turn = shared
        .basins
        .clone()
        .acquire_owned()
        .await
        .expect("the semaphore is never closed");
    // A request's basin is bounded by its limit: its job's flag is never raised.
    let stop = AtomicBool::new(false);
    blocking(move || to_json(&bmn_app::backward::basin(&req, &mut Job::quiet(&stop))?)).await
}

/// Progress of a search, sent as server-sent events at most every [`PROGRESS_EVERY`].
struct Stream {
    sender: mpsc::Sender<Event>,
    started: Instant,
    sent: Option<Instant>,
}

/// How often a streamed search reports its progress.
const PROGRESS_EVERY: std::time::Duration = std::time::Duration::from_millis(250);

impl Hooks for Stream {
    fn progress(&mut self, done: u64, message: Option<&str>) -> bool {
        if self.sent.is_some_and(|t| t.elapsed() < PROGRESS_EVERY) {
            return !self.sender.is_closed();
        }
        self.sent = Some(Instant::now());
        let elapsed = self.started.elapsed().as_secs_f64();
        let best = message
            .and_then(|m| m.split_whitespace().nth(1))
            .and_then(|n| n.parse::<u64>().ok());
        let data = json!({
            "games": done,
            "elapsed_seconds": elapsed,
            "games_per_second": done as f64 / elapsed.max(1e-9),
            "best_cards": best,
        });
        // A closed stream (the page went away) stops the search; a full one (the page reads
        // slowly) skips this report rather than hold the search, and its permit, up.
        let event = Event::default().event("progress").data(data.to_string());
        !matches!(
            self.sender.try_send(event),
            Err(mpsc::error::TrySendError::Closed(_))
        )
    }
}

/// `/api/search?seconds=S`: a time-limited search (`bmn search --time S --json`); with
/// `stream=true` progress events and then the result as server-sent events.
pub async fn search(State(shared): State<Shared>, uri: Uri) -> Answer {
    let (mut req, own): (SearchRequest, SearchQuery) =
        query::command(&uri, shared.limits.request_bytes, &SEARCH)?;
    let cap = shared.limits.search_seconds;
    let seconds = own.seconds.unwrap_or(10);
    if seconds == 0 || seconds > cap {
        return Err(ApiError::bad(format!(
            "bad seconds: {seconds}; a search here runs 1 to {cap} seconds"
        )));
    }
    if req.top.top.is_some_and(|t| t > 100) {
        return Err(ApiError::bad("bad top: at most 100 games are listed here"));
    }
    req.stream.games.time.time = Some(seconds.to_string());
    req.ledger = LedgerArgs::NONE;
    let permit = shared.searches.clone().try_acquire_owned().map_err(|_| {
        ApiError::bad(format!(
            "too many searches at once: this server runs at most {}; try again when one ends",
            shared.limits.searches
        ))
    })?;
    if !own.stream {
        let report = blocking(move || {
            let _permit = permit;
            // Bounded by its time limit: its job's flag is never raised.
            let stop = AtomicBool::new(false);
            Ok(bmn_app::search::search(&req, &mut Job::quiet(&stop))?)
        })
        .await?;
        return to_json(&report);
    }
    let (sender, receiver) = mpsc::channel::<Event>(16);
    tokio::task::spawn_blocking(move || {
        let mut hooks = Stream {
            sender: sender.clone(),
            started: Instant::now(),
            sent: None,
        };
        // Bounded by its time limit, and stopped by its hooks when the page goes away.
        let stop = AtomicBool::new(false);
        let last = match bmn_app::search::search(&req, &mut Job::new(&mut hooks, &stop)) {
            Ok(report) => Event::default()
                .event("result")
                .data(serde_json::to_string(&report).unwrap_or_default()),
            Err(e) => Event::default()
                .event("failed")
                .data(json!({ "error": e.to_string() }).to_string()),
        };
        // The search is over: the next may start while this result waits for its reader
        // (who gets the connection's write timeout to take it).
        drop(permit);
        let _ = sender.blocking_send(last);
    });
    let stream = tokio_stream::StreamExt::map(ReceiverStream::new(receiver), Ok::<_, Infallible>);
    Ok(Sse::new(stream)
        .keep_alive(KeepAlive::default())
        .into_response())
}

/// `/api/catalogue`: the atlas's tables (`{"tables": [...]}`); with `table=NAME`, that
/// catalogue file as it is, with its own keys.
pub async fn catalogue(State(shared): State<Shared>, Params(p): Params<CatalogueQuery>) -> Answer {
    let Some(name) = p.table else {
        let tables: Vec<_> = shared.atlas.summaries().collect();
        return to_json(&json!({ "tables": tables }));
    };
    let text = shared.atlas.file(name.trim()).ok_or_else(|| {
        let names: Vec<_> = shared.atlas.summaries().map(|s| s.table.as_str()).collect();
        ApiError::bad(format!(
            "bad table: no catalogue named '{}' (this server has {})",
            name.escape_debug(),
            names.join(", ")
        ))
    })?;
    Ok(([(header::CONTENT_TYPE, "application/json")], text).into_response())
}

/// Anything else: 404 and the endpoints there are.
pub async fn not_found(uri: Uri) -> ApiError {
    ApiError {
        status: StatusCode::NOT_FOUND,
        message: format!(
            "no such page: {} (the page is /; the API: /api/play, /api/records, /api/presets, /api/basin, /api/search, /api/catalogue)",
            uri.path()
        ),
    }
}

#[cfg(test)]
mod tests {
    use bmn_app::front::{Kind, Parameter, Request, parameters};

    use super::*;

    /// Each endpoint's parameters but its own are its command's, by name and kind: the web API
    /// is derived from the request, not a copy of it.
    fn derived<R: Request>(endpoint: &Endpoint) {
        let theirs: Vec<Parameter> = parameters::<R>();
        for name in endpoint.takes.iter().filter(|n| !endpoint.own.contains(n)) {
            let field = bmn_app::name_of(endpoint.renamed, name);
            let p = theirs.iter().find(|p| p.name == field);
            assert!(p.is_some_and(|p| p.kind != Kind::Many), "{name}");
        }
    }

    #[test]
    fn every_endpoint_takes_its_commands_parameters() {
        derived::<PlayRequest>(&PLAY);
        derived::<BasinRequest>(&BASIN);
        derived::<SearchRequest>(&SEARCH);
    }
}
