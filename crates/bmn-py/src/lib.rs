//! `import bmn`: the engine's commands for Python, each a function over bmn-app that returns
//! the dict `bmn ... --json` prints (histograms as NumPy arrays).
//!
//! Long calls release the GIL and use every core; between units of work they take the GIL
//! back for a moment to see Ctrl-C (a `KeyboardInterrupt` that carries the finished units in
//! `.partial`) and to draw a progress line when asked. Bad input raises `ValueError` with the
//! CLI's one-line message; nothing panics into the interpreter.

#![forbid(unsafe_code)]

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use bmn_app::backward::BasinRequest;
use bmn_app::census::CensusRequest;
use bmn_app::exhaustive::ExhaustiveRequest;
use bmn_app::input::{EngineInput, RulesInput, TableInput, TimeInput};
use bmn_app::play::PlayRequest;
use bmn_app::search::SearchRequest;
use bmn_app::stats::StatsRequest;
use bmn_app::{LedgerChoice, Report};
use bmn_job::{Hooks, Job};
use pyo3::exceptions::{PyKeyboardInterrupt, PyRuntimeError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyFloat, PyInt, PyString};

/// The parameters whose Python keyword is not their name in bmn-app.
const KEYWORDS: &[(&str, &str)] = &[("time", "seconds"), ("hands_time", "hands_seconds")];

/// bmn's errors as Python's: the user's mistakes as `ValueError`, the rest `RuntimeError`.
fn py_err(e: bmn_app::Error) -> PyErr {
    // Python's keywords are spelled `on_empty`, not `--on-empty`; a length of time is
    // `seconds` (and `hands_seconds`), where the command line says `--time`.
    let message = e.spelled(bmn_app::Spelling::Renamed(KEYWORDS));
    match e {
        bmn_app::Error::Input(_) => PyValueError::new_err(message),
        bmn_app::Error::Failed(_) => PyRuntimeError::new_err(message),
    }
}

/// A count as the command line and the web API read one (`bmn_app::numbers`): an int, a
/// float that is whole (`1e6`), or text (`"1_000_000"`, `"1e6"`). A value that is not such a
/// count is kept as its refusal, which [`number`] raises as a `ValueError` naming the keyword
/// in every front end's words; a type that is no number (a list, a bool) is pyo3's `TypeError`,
/// which names the keyword itself.
struct Count<T>(Result<T, String>);

impl<'a, 'py, T: bmn_app::numbers::Count> FromPyObject<'a, 'py> for Count<T> {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Self> {
        let text: String = if obj.is_instance_of::<PyString>() {
            obj.extract()?
        } else if obj.is_instance_of::<PyBool>() {
            return Err(PyTypeError::new_err("a bool is not a count"));
        } else if obj.is_instance_of::<PyInt>() || obj.is_instance_of::<PyFloat>() {
            obj.str()?.to_string()
        } else {
            let kind = obj.get_type().name()?;
            return Err(PyTypeError::new_err(format!(
                "'{kind}' object is not a count"
            )));
        };
        Ok(Count(bmn_app::numbers::count::<T>(&text)))
    }
}

/// A length of time as the command line and Python read one (`bmn_app::input::TimeInput`): a
/// number of seconds (an int or a float), or text as the command line takes it (`"90s"`,
/// `"10m"`, `"2h"`), checked by the same reader.
struct Time(TimeInput);

impl<'a, 'py> FromPyObject<'a, 'py> for Time {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Self> {
        if obj.is_instance_of::<PyString>() {
            Ok(Time(TimeInput::Text(obj.extract()?)))
        } else if obj.is_instance_of::<PyBool>() {
            Err(PyTypeError::new_err("a bool is not a length of time"))
        } else if obj.is_instance_of::<PyInt>() || obj.is_instance_of::<PyFloat>() {
            Ok(Time(TimeInput::Seconds(obj.extract()?)))
        } else {
            let kind = obj.get_type().name()?;
            Err(PyTypeError::new_err(format!(
                "'{kind}' object is not a length of time"
            )))
        }
    }
}

/// The keyword `name`'s count, if given: `ValueError` ("bad games: -5 is negative") where it
/// is none.
fn number<T>(value: Option<Count<T>>, name: &str) -> PyResult<Option<T>> {
    value
        .map(|c| {
            c.0.map_err(|why| {
                PyValueError::new_err(format!("bad {name}: {}", bmn_app::one_line(&why)))
            })
        })
        .transpose()
}

/// A report as the dict of its JSON (`json.loads` of the CLI's `--json` line).
fn to_dict<'py>(py: Python<'py>, report: &impl Report) -> PyResult<Bound<'py, PyAny>> {
    PyModule::import(py, "json")?
        .getattr("loads")?
        .call1((report.json(),))
}

/// Replaces the list at `path` (keys into nested dicts) with a NumPy array of uint64.
fn as_array(py: Python<'_>, dict: &Bound<'_, PyAny>, path: &[&str]) -> PyResult<()> {
    let numpy = PyModule::import(py, "numpy")?;
    let mut at = dict.clone();
    for key in &path[..path.len() - 1] {
        at = at.get_item(key)?;
    }
    let last = path[path.len() - 1];
    let list = at.get_item(last)?;
    let array = numpy.getattr("asarray")?.call1((list, "uint64"))?;
    at.set_item(last, array)
}

fn rules(penalties: Option<String>, on_empty: Option<String>) -> RulesInput {
    RulesInput {
        penalties,
        on_empty,
    }
}

/// Writes to Python's `sys.stderr` (a notebook shows it under the cell).
fn write_stderr(py: Python<'_>, text: &str) {
    let _ = PyModule::import(py, "sys")
        .and_then(|sys| sys.getattr("stderr"))
        .and_then(|err| err.call_method1("write", (text,)));
}

/// The hooks of a long call: Ctrl-C and an optional progress line on stderr.
struct Watch<'a> {
    /// Set on Ctrl-C: the command stops at its next unit and says it was interrupted.
    stop: &'a AtomicBool,
    progress: bool,
    interrupted: bool,
    what: String,
    total: Option<u64>,
    started: Instant,
    shown: Option<Instant>,
    /// The last progress seen, for the final line.
    last: (u64, Option<String>),
}

impl Watch<'_> {
    fn new(progress: bool, stop: &AtomicBool) -> Watch<'_> {
        Watch {
            stop,
            progress,
            interrupted: false,
            what: String::new(),
            total: None,
            started: Instant::now(),
            shown: None,
            last: (0, None),
        }
    }

    fn line(&self, done: u64, message: Option<&str>) -> String {
        let rate = done as f64 / self.started.elapsed().as_secs_f64().max(1e-9);
        let of = self.total.map(|t| format!(" of {t}")).unwrap_or_default();
        let message = message.map(|m| format!(", {m}")).unwrap_or_default();
        format!(
            "\r{done}{of} {}, {:.2} M/s{message}   ",
            self.what,
            rate / 1e6
        )
    }
}

impl Hooks for Watch<'_> {
    fn start(&mut self, total: Option<u64>, _done: u64, what: &str) {
        self.total = total;
        self.what = what.to_string();
    }

    fn progress(&mut self, done: u64, message: Option<&str>) -> bool {
        self.last = (done, message.map(String::from));
        let due = self
            .shown
            .is_none_or(|t| t.elapsed() >= Duration::from_millis(500));
        if !due {
            return !self.interrupted;
        }
        self.shown = Some(Instant::now());
        let line = self.progress.then(|| self.line(done, message));
        // Back on the interpreter for a moment: a pending Ctrl-C stops the call at the next
        // unit boundary (its finished units are kept).
        let interrupted = Python::attach(|py| {
            if let Some(line) = &line {
                write_stderr(py, line);
            }
            py.check_signals().is_err()
        });
        self.interrupted |= interrupted;
        if self.interrupted {
            self.stop.store(true, Ordering::Relaxed);
        }
        !self.interrupted
    }

    fn finish(&mut self) {
        if self.progress && self.shown.is_some() {
            let line = format!("{}\n", self.line(self.last.0, self.last.1.as_deref()));
            Python::attach(|py| write_stderr(py, &line));
        }
    }

    fn note(&mut self, line: &str) {
        if self.progress {
            Python::attach(|py| write_stderr(py, &format!("{line}\n")));
        }
    }
}

/// Runs a long command without the GIL; a Ctrl-C becomes `KeyboardInterrupt` with the
/// report of the finished units as its `partial` attribute.
fn long<'py, R: Report + Send>(
    py: Python<'py>,
    progress: bool,
    run: impl FnOnce(&mut Job) -> bmn_app::Result<R> + Send,
    arrays: &[&[&str]],
) -> PyResult<Bound<'py, PyAny>> {
    let stop = AtomicBool::new(false);
    let mut watch = Watch::new(progress, &stop);
    // The job is made on the detached side: it holds its hooks as a `dyn Hooks`, not `Send`.
    let result = py.detach(|| run(&mut Job::new(&mut watch, &stop)));
    let report = result.map_err(py_err)?;
    let dict = to_dict(py, &report)?;
    for path in arrays {
        as_array(py, &dict, path)?;
    }
    if watch.interrupted || stop.load(Ordering::Relaxed) {
        let e = PyKeyboardInterrupt::new_err(
            "interrupted: the report of the units that finished is in this exception's .partial",
        );
        e.value(py).setattr("partial", dict)?;
        return Err(e);
    }
    Ok(dict)
}

/// Plays one deal: `bmn play --json`'s dict.
#[pyfunction]
#[pyo3(signature = (deal, leader=None, players=None, deck=None, penalties=None, on_empty=None, trace=false, tricks=None))]
#[allow(clippy::too_many_arguments)]
fn play<'py>(
    py: Python<'py>,
    deal: &str,
    leader: Option<Count<u64>>,
    players: Option<Count<usize>>,
    deck: Option<String>,
    penalties: Option<String>,
    on_empty: Option<String>,
    trace: bool,
    tricks: Option<Count<u64>>,
) -> PyResult<Bound<'py, PyAny>> {
    let leader = number(leader, "leader")?;
    let players = number(players, "players")?;
    let tricks = number(tricks, "tricks")?;
    let req = PlayRequest {
        deal: deal.to_string(),
        leader,
        tricks,
        deck,
        players,
        rules: rules(penalties, on_empty),
        trace,
        ..Default::default()
    };
    let report = py.detach(|| bmn_app::play::play(&req)).map_err(py_err)?;
    to_dict(py, &report)
}

/// Random deals on the fast kernels: `bmn search --json`'s dict.
#[pyfunction]
#[pyo3(signature = (games=None, seed=None, threads=None, top=None, balanced=false, players=None, deck=None, penalties=None, on_empty=None, seconds=None, kernel=None, progress=false))]
#[allow(clippy::too_many_arguments)]
fn search<'py>(
    py: Python<'py>,
    games: Option<Count<u64>>,
    seed: Option<Count<u64>>,
    threads: Option<Count<usize>>,
    top: Option<Count<usize>>,
    balanced: bool,
    players: Option<Count<usize>>,
    deck: Option<String>,
    penalties: Option<String>,
    on_empty: Option<String>,
    seconds: Option<Time>,
    kernel: Option<String>,
    progress: bool,
) -> PyResult<Bound<'py, PyAny>> {
    let games = number(games, "games")?;
    let seed = number(seed, "seed")?;
    let threads = number(threads, "threads")?;
    let top = number(top, "top")?;
    let players = number(players, "players")?;
    let req = SearchRequest {
        games,
        time: seconds.map(|t| t.0),
        seed,
        threads,
        top,
        shard: None,
        out: None,
        ledger: LedgerChoice::NONE,
        table: TableInput {
            deck,
            players,
            balanced,
        },
        rules: rules(penalties, on_empty),
        engine: EngineInput {
            kernel,
            ..Default::default()
        },
    };
    long(
        py,
        progress,
        |job| bmn_app::search::search(&req, job),
        &[&["histogram", "counts"]],
    )
}

/// The length distribution and wins by seat: `bmn stats --json`'s dict.
#[pyfunction]
#[pyo3(signature = (games=None, seed=None, threads=None, balanced=false, players=None, deck=None, penalties=None, on_empty=None, kernel=None, progress=false))]
#[allow(clippy::too_many_arguments)]
fn stats<'py>(
    py: Python<'py>,
    games: Option<Count<u64>>,
    seed: Option<Count<u64>>,
    threads: Option<Count<usize>>,
    balanced: bool,
    players: Option<Count<usize>>,
    deck: Option<String>,
    penalties: Option<String>,
    on_empty: Option<String>,
    kernel: Option<String>,
    progress: bool,
) -> PyResult<Bound<'py, PyAny>> {
    let games = number(games, "games")?;
    let seed = number(seed, "seed")?;
    let threads = number(threads, "threads")?;
    let players = number(players, "players")?;
    let req = StatsRequest {
        games,
        table: TableInput {
            deck,
            players,
            balanced,
        },
        rules: rules(penalties, on_empty),
        seed,
        threads,
        engine: EngineInput {
            kernel,
            ..Default::default()
        },
        plot: None,
    };
    long(
        py,
        progress,
        |job| bmn_app::stats::stats(&req, job),
        &[&["cards", "histogram"], &["tricks", "histogram"]],
    )
}

/// A Python int (of any size) as its decimal text.
fn decimal(value: Option<&Bound<'_, PyAny>>) -> PyResult<Option<String>> {
    value.map(|v| Ok(v.str()?.to_string())).transpose()
}

/// Every deal of a deck, a block `first..first + count` of them, or a shard:
/// `bmn exhaustive --json`'s dict.
#[pyfunction]
#[pyo3(signature = (deck, leader=None, list_cycles=false, shard=None, threads=None, penalties=None, first=None, count=None, progress=false))]
#[allow(clippy::too_many_arguments)]
fn exhaustive<'py>(
    py: Python<'py>,
    deck: &str,
    leader: Option<Count<u64>>,
    list_cycles: bool,
    shard: Option<String>,
    threads: Option<Count<usize>>,
    penalties: Option<String>,
    first: Option<&Bound<'py, PyAny>>,
    count: Option<&Bound<'py, PyAny>>,
    progress: bool,
) -> PyResult<Bound<'py, PyAny>> {
    let leader = number(leader, "leader")?;
    let threads = number(threads, "threads")?;
    let req = ExhaustiveRequest {
        deck: deck.to_string(),
        leader,
        rules: rules(penalties, None),
        list_cycles,
        shard,
        from: decimal(first)?,
        count: decimal(count)?,
        block: None,
        block_size: None,
        checkpoint: None,
        ledger: LedgerChoice::NONE,
        threads,
        engine: EngineInput::default(),
    };
    long(
        py,
        progress,
        |job| bmn_app::exhaustive::exhaustive(&req, job),
        &[],
    )
}

/// Every endless game a table has, each cycle with its class and balanced deals:
/// `bmn census --json`'s dict. `enumeration` takes the result files of every shard of one
/// `bmn exhaustive --list-cycles` run as the `deals` method.
#[pyfunction]
#[pyo3(signature = (deck=None, players=None, methods=None, hands=None, hands_seconds=None, deals_max=None, basin_limit=None, rounds=None, enumeration=None, seed=None, threads=None, penalties=None, progress=false))]
#[allow(clippy::too_many_arguments)]
fn census<'py>(
    py: Python<'py>,
    deck: Option<String>,
    players: Option<Count<usize>>,
    methods: Option<String>,
    hands: Option<Count<usize>>,
    hands_seconds: Option<Time>,
    deals_max: Option<Count<u64>>,
    basin_limit: Option<Count<u64>>,
    rounds: Option<Count<u64>>,
    enumeration: Option<Vec<std::path::PathBuf>>,
    seed: Option<Count<u64>>,
    threads: Option<Count<usize>>,
    penalties: Option<String>,
    progress: bool,
) -> PyResult<Bound<'py, PyAny>> {
    let players = number(players, "players")?;
    let hands = number(hands, "hands")?;
    let deals_max = number(deals_max, "deals_max")?;
    let basin_limit = number(basin_limit, "basin_limit")?;
    let rounds = number(rounds, "rounds")?;
    let seed = number(seed, "seed")?;
    let threads = number(threads, "threads")?;
    let req = CensusRequest {
        table: TableInput {
            deck,
            players,
            balanced: false,
        },
        rules: rules(penalties, None),
        seed,
        threads,
        methods,
        hands,
        hands_time: hands_seconds.map(|t| t.0),
        deals_max,
        basin_limit,
        rounds,
        enumeration: enumeration.unwrap_or_default(),
    };
    long(py, progress, |job| bmn_app::census::census(&req, job), &[])
}

/// Every position one trick before `position`: `bmn backward --json`'s dict.
#[pyfunction]
#[pyo3(signature = (position, leader=None, penalties=None, on_empty=None))]
fn predecessors<'py>(
    py: Python<'py>,
    position: &str,
    leader: Option<Count<u64>>,
    penalties: Option<String>,
    on_empty: Option<String>,
) -> PyResult<Bound<'py, PyAny>> {
    let leader = number(leader, "leader")?;
    let rules = rules(penalties, on_empty);
    let report = py
        .detach(|| bmn_app::backward::backward(position, leader, &rules))
        .map_err(py_err)?;
    to_dict(py, &report)
}

/// Every position reaching the same cycle or final position: `bmn basin --json`'s dict.
#[pyfunction]
#[pyo3(signature = (position, leader=None, balanced=false, limit=None, penalties=None, on_empty=None, progress=false))]
#[allow(clippy::too_many_arguments)]
fn basin<'py>(
    py: Python<'py>,
    position: &str,
    leader: Option<Count<u64>>,
    balanced: bool,
    limit: Option<Count<u64>>,
    penalties: Option<String>,
    on_empty: Option<String>,
    progress: bool,
) -> PyResult<Bound<'py, PyAny>> {
    let leader = number(leader, "leader")?;
    let limit = number(limit, "limit")?;
    let req = BasinRequest {
        position: position.to_string(),
        leader,
        balanced,
        limit,
        dot: None,
        graph: None,
        rules: rules(penalties, on_empty),
    };
    long(py, progress, |job| bmn_app::backward::basin(&req, job), &[])
}

/// Exact census reports of decks alike but for their plain cards, side by side (`bmn family
/// --json`'s dict): `families`, each with its rows in order of n and where each class first
/// appears; `plot` draws the endless deals and cycles by class against n (one family).
#[pyfunction]
#[pyo3(signature = (files, plot=None))]
fn family<'py>(
    py: Python<'py>,
    files: Vec<String>,
    plot: Option<String>,
) -> PyResult<Bound<'py, PyAny>> {
    let req = bmn_app::family::FamilyRequest {
        files: files.into_iter().map(Into::into).collect(),
        plot: plot.map(Into::into),
        markdown: false,
    };
    to_dict(py, &bmn_app::family::family(&req).map_err(py_err)?)
}

/// The exact number of deals of a deck at a table: `bmn count --json`'s dict (counts as
/// decimal strings, as they pass 2^64).
#[pyfunction]
#[pyo3(signature = (deck=None, players=None))]
fn count<'py>(
    py: Python<'py>,
    deck: Option<String>,
    players: Option<Count<usize>>,
) -> PyResult<Bound<'py, PyAny>> {
    let players = number(players, "players")?;
    let table = TableInput {
        deck,
        players,
        balanced: false,
    };
    to_dict(py, &bmn_app::count::count(&table).map_err(py_err)?)
}

/// The number of a deal among all deals of its deck (`bmn rank --json`'s dict; `rank` and
/// `deals` are decimal strings, as they pass 2^64).
#[pyfunction]
#[pyo3(signature = (deal, leader=None, deck=None))]
fn rank<'py>(
    py: Python<'py>,
    deal: &str,
    leader: Option<Count<u64>>,
    deck: Option<&str>,
) -> PyResult<Bound<'py, PyAny>> {
    let leader = number(leader, "leader")?;
    to_dict(
        py,
        &bmn_app::rank::rank(deal, leader, deck).map_err(py_err)?,
    )
}

/// Deal `k` of a deck (`bmn unrank --json`'s dict); `k` may be any size.
#[pyfunction]
#[pyo3(signature = (k, deck=None, players=None, leader=None))]
fn unrank<'py>(
    py: Python<'py>,
    k: &Bound<'py, PyAny>,
    deck: Option<&str>,
    players: Option<Count<usize>>,
    leader: Option<Count<u64>>,
) -> PyResult<Bound<'py, PyAny>> {
    let players = number(players, "players")?;
    let leader = number(leader, "leader")?;
    let k = k.str()?.to_string();
    let report = bmn_app::rank::unrank(&k, deck, players, leader);
    to_dict(py, &report.map_err(py_err)?)
}

/// The record games, each replayed by the engine: `bmn records --json`'s dict.
#[pyfunction]
fn records(py: Python<'_>) -> PyResult<Bound<'_, PyAny>> {
    let report = py
        .detach(|| bmn_app::records::records(None))
        .map_err(py_err)?;
    to_dict(py, &report)
}

/// Deal `index` of a seed's stream: `bmn deal --json`'s dict.
#[pyfunction]
#[pyo3(signature = (seed=None, index=None, players=None, deck=None, balanced=false))]
fn deal<'py>(
    py: Python<'py>,
    seed: Option<Count<u64>>,
    index: Option<Count<u64>>,
    players: Option<Count<usize>>,
    deck: Option<String>,
    balanced: bool,
) -> PyResult<Bound<'py, PyAny>> {
    let seed = number(seed, "seed")?;
    let index = number(index, "index")?;
    let players = number(players, "players")?;
    let req = bmn_app::deal::DealRequest {
        table: TableInput {
            deck,
            players,
            balanced,
        },
        seed,
        index,
    };
    to_dict(py, &bmn_app::deal::deal(&req).map_err(py_err)?)
}

/// Deals of a call to `play_many` at a time: played without the GIL, then Ctrl-C looked at.
const MANY_CHUNK: usize = 1 << 16;

/// `play_many`'s columns, one entry a deal.
#[derive(Default)]
struct Columns {
    winner: Vec<u64>,
    cards: Vec<u64>,
    tricks: Vec<u64>,
    endless: Vec<u8>,
    period: Vec<u64>,
    period_cards: Vec<u64>,
    unresolved: Vec<u8>,
}

impl Columns {
    fn add(&mut self, game: &bmn_app::given::GivenGame) {
        use bmn_app::given::GivenResult;
        use bmn_app::play::PlayReport;
        let (winner, cards, tricks, period, unresolved) = match &game.result {
            GivenResult::Played(PlayReport::Finished {
                winner,
                cards,
                tricks,
                ..
            }) => (*winner as u64, *cards, *tricks, None, false),
            GivenResult::Played(PlayReport::Cycle {
                preperiod, period, ..
            }) => (0, preperiod.cards, preperiod.tricks, Some(*period), false),
            GivenResult::Played(PlayReport::Stopped { cards, tricks, .. }) => {
                (0, *cards, *tricks, None, true)
            }
            GivenResult::GaveUp { give_up, .. } => (0, 0, *give_up, None, true),
        };
        self.winner.push(winner);
        self.cards.push(cards);
        self.tricks.push(tricks);
        self.endless.push(u8::from(period.is_some()));
        self.period.push(period.map_or(0, |p| p.tricks));
        self.period_cards.push(period.map_or(0, |p| p.cards));
        self.unresolved.push(u8::from(unresolved));
    }

    fn append(&mut self, mut other: Columns) {
        self.winner.append(&mut other.winner);
        self.cards.append(&mut other.cards);
        self.tricks.append(&mut other.tricks);
        self.endless.append(&mut other.endless);
        self.period.append(&mut other.period);
        self.period_cards.append(&mut other.period_cards);
        self.unresolved.append(&mut other.unresolved);
    }
}

/// A column as a NumPy array of `dtype`, from its native-endian bytes.
fn column<'py>(py: Python<'py>, bytes: Vec<u8>, dtype: &str) -> PyResult<Bound<'py, PyAny>> {
    let numpy = PyModule::import(py, "numpy")?;
    let bytes = pyo3::types::PyBytes::new(py, &bytes);
    numpy
        .getattr("frombuffer")?
        .call1((bytes, dtype))?
        .call_method0("copy")
}

fn words(values: &[u64]) -> Vec<u8> {
    values.iter().flat_map(|v| v.to_ne_bytes()).collect()
}

/// Plays every deal of `deals` (any iterable of deal strings) on the fast kernels: a dict of
/// NumPy arrays, one entry a deal in order (`winner`, 0 where none; `cards`, `tricks`;
/// `endless`; `period` and `period_cards`, 0 where none; `unresolved`, given up on). A bad
/// deal raises `ValueError` naming it by its place, from 1.
#[pyfunction]
#[pyo3(signature = (deals, leader=None, players=None, deck=None, penalties=None, on_empty=None, give_up=None, threads=None))]
#[allow(clippy::too_many_arguments)]
fn play_many<'py>(
    py: Python<'py>,
    deals: &Bound<'py, PyAny>,
    leader: Option<Count<u64>>,
    players: Option<Count<usize>>,
    deck: Option<String>,
    penalties: Option<String>,
    on_empty: Option<String>,
    give_up: Option<Count<u64>>,
    threads: Option<Count<usize>>,
) -> PyResult<Bound<'py, PyAny>> {
    let req = bmn_app::given::GivenRequest {
        leader: number(leader, "leader")?,
        deck,
        players: number(players, "players")?,
        rules: rules(penalties, on_empty),
        give_up: number(give_up, "give_up")?,
        threads: number(threads, "threads")?,
    };
    let mut given = bmn_app::given::Given::try_from(&req).map_err(py_err)?;
    let mut all = Columns::default();
    let mut texts: Vec<String> = Vec::with_capacity(MANY_CHUNK);
    let mut items = deals.try_iter()?;
    let mut number = 0u64;
    loop {
        texts.clear();
        for item in items.by_ref() {
            number += 1;
            let text: String = item?
                .extract()
                .map_err(|_| PyTypeError::new_err(format!("deals: item {number} is not a str")))?;
            texts.push(text);
            if texts.len() == MANY_CHUNK {
                break;
            }
        }
        if texts.is_empty() {
            break;
        }
        let first = number + 1 - texts.len() as u64;
        let lines: Vec<bmn_app::given::Line> = texts
            .iter()
            .zip(first..)
            .map(|(text, number)| bmn_app::given::Line {
                number,
                text: text.trim(),
            })
            .collect();
        // Ctrl-C is seen between chunks; a chunk's games on the reference engine are not
        // watched (the flag is never raised).
        let never = AtomicBool::new(false);
        let (parts, early) =
            py.detach(|| given.play(&lines, &never, |c: &mut Columns, game| c.add(&game)));
        for part in parts {
            all.append(part);
        }
        if let Some(bmn_app::given::Early::Bad(e)) = early {
            return Err(py_err(e));
        }
        py.check_signals()?;
    }
    let dict = pyo3::types::PyDict::new(py);
    for (name, values) in [
        ("winner", &all.winner),
        ("cards", &all.cards),
        ("tricks", &all.tricks),
        ("period", &all.period),
        ("period_cards", &all.period_cards),
    ] {
        dict.set_item(name, column(py, words(values), "uint64")?)?;
    }
    dict.set_item("endless", column(py, all.endless, "bool")?)?;
    dict.set_item("unresolved", column(py, all.unresolved, "bool")?)?;
    Ok(dict.into_any())
}

/// `count` deals of `seed`'s stream from `index`: the deals `search` and `stats` play as
/// games `index..index + count` with the same seed and table (`bmn deal --count`).
#[pyfunction]
#[pyo3(signature = (seed, count, index=None, players=None, deck=None, balanced=false))]
fn deals(
    py: Python<'_>,
    seed: Count<u64>,
    count: Count<u64>,
    index: Option<Count<u64>>,
    players: Option<Count<usize>>,
    deck: Option<String>,
    balanced: bool,
) -> PyResult<Vec<String>> {
    let seed = number(Some(seed), "seed")?;
    let count = number(Some(count), "count")?.unwrap_or(1);
    let req = bmn_app::deal::DealRequest {
        table: TableInput {
            deck,
            players: number(players, "players")?,
            balanced,
        },
        seed,
        index: number(index, "index")?,
    };
    let mut out = Vec::new();
    py.detach(|| {
        bmn_app::deal::deals(&req, count, |d| {
            out.push(d.deal.clone());
            true
        })
    })
    .map_err(py_err)?;
    Ok(out)
}

/// bmn: play, analyse and search Beggar-My-Neighbour.
#[pymodule]
fn bmn(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(play, m)?)?;
    m.add_function(wrap_pyfunction!(search, m)?)?;
    m.add_function(wrap_pyfunction!(stats, m)?)?;
    m.add_function(wrap_pyfunction!(exhaustive, m)?)?;
    m.add_function(wrap_pyfunction!(census, m)?)?;
    m.add_function(wrap_pyfunction!(family, m)?)?;
    m.add_function(wrap_pyfunction!(predecessors, m)?)?;
    m.add_function(wrap_pyfunction!(basin, m)?)?;
    m.add_function(wrap_pyfunction!(count, m)?)?;
    m.add_function(wrap_pyfunction!(records, m)?)?;
    m.add_function(wrap_pyfunction!(deal, m)?)?;
    m.add_function(wrap_pyfunction!(deals, m)?)?;
    m.add_function(wrap_pyfunction!(play_many, m)?)?;
    m.add_function(wrap_pyfunction!(rank, m)?)?;
    m.add_function(wrap_pyfunction!(unrank, m)?)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
