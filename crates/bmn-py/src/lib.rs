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

use bmn_app::Report;
use bmn_app::backward::{BackwardRequest, BasinRequest, ExtendRequest};
use bmn_app::census::CensusRequest;
use bmn_app::count::CountRequest;
use bmn_app::deal::DealRequest;
use bmn_app::exhaustive::ExhaustiveRequest;
use bmn_app::family::FamilyRequest;
use bmn_app::flags::LedgerArgs;
use bmn_app::front::{Parameter, Refusal, Value, parameters};
use bmn_app::play::PlayRequest;
use bmn_app::rank::{RankRequest, UnrankRequest};
use bmn_app::search::SearchRequest;
use bmn_app::stats::StatsRequest;
use bmn_job::{Hooks, Job};
use pyo3::exceptions::{PyKeyboardInterrupt, PyRuntimeError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyFloat, PyInt, PyList, PyString, PyTuple};

/// The parameters whose Python keyword is not their name in the request: `(the request's,
/// Python's)`.
const KEYWORDS: &[(&str, &str)] = &[
    ("time", "seconds"),
    ("hands_time", "hands_seconds"),
    ("from", "first"),
];

/// Parameters no Python function takes: the run database's (a Python call records no run).
const LEDGER: &[&str] = &["db", "resume", "no_db"];

/// bmn's errors as Python's: the user's mistakes as `ValueError`, the rest `RuntimeError`.
fn py_err(e: bmn_app::Error) -> PyErr {
    // Python's keywords are spelled `on_empty`, not `--on-empty`; a length of time is
    // `seconds` (and `hands_seconds`), where the command line says `--time`.
    let message = e.spelled(bmn_app::Spelling::Renamed(KEYWORDS));
    match e {
        bmn_app::Error::Input(_) => PyValueError::new_err(message),
        bmn_app::Error::Failed(..) => PyRuntimeError::new_err(message),
    }
}

/// A keyword as Python spells the request's parameter `name`.
fn keyword(name: &str) -> &str {
    bmn_app::own_name(KEYWORDS, name)
}

/// A Python value as a front end's value: text, numbers as their decimal text (read by the
/// command line's reader: `1e6`, `"1_000_000"`), a bool as a switch, a list or tuple of
/// values (paths too), a path as its text; `None` is absent.
fn value(name: &str, obj: &Bound<'_, PyAny>) -> PyResult<Option<Value>> {
    let one = |obj: &Bound<'_, PyAny>| -> PyResult<String> {
        if obj.is_instance_of::<PyString>()
            || obj.is_instance_of::<PyInt>()
            || obj.is_instance_of::<PyFloat>()
        {
            return Ok(obj.str()?.to_string());
        }
        let os = PyModule::import(obj.py(), "os")?;
        if obj.is_instance(&os.getattr("PathLike")?)? {
            return Ok(os.getattr("fspath")?.call1((obj,))?.str()?.to_string());
        }
        let kind = obj.get_type().name()?;
        Err(PyTypeError::new_err(format!(
            "{}: a '{kind}' object is not a value bmn reads",
            keyword(name)
        )))
    };
    if obj.is_none() {
        Ok(None)
    } else if obj.is_instance_of::<PyBool>() {
        Ok(Some(Value::Flag(obj.extract()?)))
    } else if obj.is_instance_of::<PyList>() || obj.is_instance_of::<PyTuple>() {
        let items: PyResult<Vec<String>> = obj.try_iter()?.map(|item| one(&item?)).collect();
        Ok(Some(Value::List(items?)))
    } else {
        Ok(Some(Value::Text(one(obj)?)))
    }
}

/// Each function, the request it builds, its arguments given by place (by the request's
/// names) and the request's parameters it does not take beside [`LEDGER`]: what `keywords`
/// lists and `request` accepts.
struct Function {
    name: &'static str,
    parameters: fn() -> Vec<Parameter>,
    fixed: &'static [&'static str],
    skip: &'static [&'static str],
}

/// One deal's parameters, which a batch of deals does not take.
const ONE_DEAL: &[&str] = &["deal", "deals", "rank", "trace", "tricks", "plot", "dot"];

const FUNCTIONS: &[Function] = &[
    function(
        "play",
        parameters::<PlayRequest>,
        &["deal"],
        &["deals", "threads"],
    ),
    function("search", parameters::<SearchRequest>, &[], &[]),
    function("stats", parameters::<StatsRequest>, &[], &[]),
    function(
        "exhaustive",
        parameters::<ExhaustiveRequest>,
        &["deck"],
        &["merge"],
    ),
    function(
        "census",
        parameters::<CensusRequest>,
        &[],
        &["plan", "cores"],
    ),
    function(
        "predecessors",
        parameters::<BackwardRequest>,
        &["position"],
        &[],
    ),
    function("basin", parameters::<BasinRequest>, &["position"], &[]),
    function("extend", parameters::<ExtendRequest>, &["deal"], &[]),
    function(
        "family",
        parameters::<FamilyRequest>,
        &["files"],
        &["markdown"],
    ),
    function("count", parameters::<CountRequest>, &["deck"], &[]),
    function("rank", parameters::<RankRequest>, &["deal"], &[]),
    function("unrank", parameters::<UnrankRequest>, &["rank"], &[]),
    function("deal", parameters::<DealRequest>, &["seed"], &["count"]),
    function("deals", parameters::<DealRequest>, &["seed", "count"], &[]),
    function("play_many", parameters::<PlayRequest>, &["deals"], ONE_DEAL),
];

const fn function(
    name: &'static str,
    parameters: fn() -> Vec<Parameter>,
    fixed: &'static [&'static str],
    skip: &'static [&'static str],
) -> Function {
    Function {
        name,
        parameters,
        fixed,
        skip,
    }
}

impl Function {
    /// Whether it takes the request's parameter `name` as a keyword: not the run database's,
    /// not one it leaves out, not one it is given by place.
    fn takes(&self, name: &str) -> bool {
        !LEDGER.contains(&name) && !self.skip.contains(&name) && !self.fixed.contains(&name)
    }
}

fn function_named(name: &str) -> Option<&'static Function> {
    FUNCTIONS.iter().find(|f| f.name == name)
}

/// The keywords a function of this module takes (beside `progress`), as Python spells them:
/// its command's flags, `_` for `-`, but for the run database's and those it gives by place.
#[pyfunction]
fn keywords(function: &str) -> PyResult<Vec<String>> {
    let f = function_named(function)
        .ok_or_else(|| PyValueError::new_err(format!("bad function '{function}': bmn has none")))?;
    Ok((f.parameters)()
        .into_iter()
        .filter(|p| f.takes(&p.name))
        .map(|p| keyword(&p.name).to_string())
        .collect())
}

/// Function `function`'s request `R` from its arguments: `fixed` (its positional ones, by the
/// request's names) and its keywords, each read as the command line reads the flag of the
/// same name.
fn request<R: bmn_app::front::Request>(
    function: &str,
    fixed: &[(&str, &Bound<'_, PyAny>)],
    params: Option<&Bound<'_, PyDict>>,
) -> PyResult<R> {
    let f = function_named(function).expect("every function is in FUNCTIONS");
    let mut given = Vec::new();
    for (name, obj) in fixed {
        if let Some(v) = value(name, obj)? {
            given.push((name.to_string(), v));
        }
    }
    for (key, obj) in params.into_iter().flat_map(|d| d.iter()) {
        let key: String = key.extract()?;
        let name = bmn_app::name_of(KEYWORDS, &key);
        // The request's own name of a parameter Python calls otherwise (`time`) is no keyword.
        let renamed_away = keyword(&key) != key;
        if renamed_away || !f.takes(name) {
            return Err(unexpected(function, &key));
        }
        if let Some(v) = value(name, &obj)? {
            given.push((name.to_string(), v));
        }
    }
    bmn_app::front::request::<R>(given).map_err(|refusal| match refusal {
        Refusal::Unknown(name) => unexpected(function, keyword(&name)),
        Refusal::Kind { name, why } => PyTypeError::new_err(format!("{}: {why}", keyword(&name))),
        Refusal::Bad(e) => py_err(e),
    })
}

/// Python's own words for a keyword a function does not take.
fn unexpected(function: &str, key: &str) -> PyErr {
    PyTypeError::new_err(format!(
        "{function}() got an unexpected keyword argument '{key}'"
    ))
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
#[pyo3(signature = (deal, **params))]
fn play<'py>(
    py: Python<'py>,
    deal: &Bound<'py, PyAny>,
    params: Option<&Bound<'py, PyDict>>,
) -> PyResult<Bound<'py, PyAny>> {
    let req: PlayRequest = request("play", &[("deal", deal)], params)?;
    let report = py.detach(|| bmn_app::play::play(&req)).map_err(py_err)?;
    to_dict(py, &report)
}

/// Random deals on the fast kernels: `bmn search --json`'s dict.
#[pyfunction]
#[pyo3(signature = (progress=false, **params))]
fn search<'py>(
    py: Python<'py>,
    progress: bool,
    params: Option<&Bound<'py, PyDict>>,
) -> PyResult<Bound<'py, PyAny>> {
    let mut req: SearchRequest = request("search", &[], params)?;
    req.ledger = LedgerArgs::NONE;
    long(
        py,
        progress,
        |job| bmn_app::search::search(&req, job),
        &[&["histogram", "counts"]],
    )
}

/// The length distribution and wins by seat: `bmn stats --json`'s dict.
#[pyfunction]
#[pyo3(signature = (progress=false, **params))]
fn stats<'py>(
    py: Python<'py>,
    progress: bool,
    params: Option<&Bound<'py, PyDict>>,
) -> PyResult<Bound<'py, PyAny>> {
    let req: StatsRequest = request("stats", &[], params)?;
    long(
        py,
        progress,
        |job| bmn_app::stats::stats(&req, job),
        &[&["cards", "histogram"], &["tricks", "histogram"]],
    )
}

/// Every deal of a deck, a block `first..first + count` of them, or a shard:
/// `bmn exhaustive --json`'s dict.
#[pyfunction]
#[pyo3(signature = (deck, progress=false, **params))]
fn exhaustive<'py>(
    py: Python<'py>,
    deck: &Bound<'py, PyAny>,
    progress: bool,
    params: Option<&Bound<'py, PyDict>>,
) -> PyResult<Bound<'py, PyAny>> {
    let mut req: ExhaustiveRequest = request("exhaustive", &[("deck", deck)], params)?;
    req.ledger = LedgerArgs::NONE;
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
#[pyo3(signature = (progress=false, **params))]
fn census<'py>(
    py: Python<'py>,
    progress: bool,
    params: Option<&Bound<'py, PyDict>>,
) -> PyResult<Bound<'py, PyAny>> {
    let req: CensusRequest = request("census", &[], params)?;
    long(py, progress, |job| bmn_app::census::census(&req, job), &[])
}

/// Every position one trick before `position`: `bmn backward --json`'s dict.
#[pyfunction]
#[pyo3(signature = (position, **params))]
fn predecessors<'py>(
    py: Python<'py>,
    position: &Bound<'py, PyAny>,
    params: Option<&Bound<'py, PyDict>>,
) -> PyResult<Bound<'py, PyAny>> {
    let req: BackwardRequest = request("predecessors", &[("position", position)], params)?;
    let report = py
        .detach(|| bmn_app::backward::backward(&req))
        .map_err(py_err)?;
    to_dict(py, &report)
}

/// Every position reaching the same cycle or final position: `bmn basin --json`'s dict.
#[pyfunction]
#[pyo3(signature = (position, progress=false, **params))]
fn basin<'py>(
    py: Python<'py>,
    position: &Bound<'py, PyAny>,
    progress: bool,
    params: Option<&Bound<'py, PyDict>>,
) -> PyResult<Bound<'py, PyAny>> {
    let req: BasinRequest = request("basin", &[("position", position)], params)?;
    long(py, progress, |job| bmn_app::backward::basin(&req, job), &[])
}

/// Balanced deals whose games are longer, searched backward from a finishing game:
/// `bmn extend --json`'s dict.
#[pyfunction]
#[pyo3(signature = (deal, progress=false, **params))]
fn extend<'py>(
    py: Python<'py>,
    deal: &Bound<'py, PyAny>,
    progress: bool,
    params: Option<&Bound<'py, PyDict>>,
) -> PyResult<Bound<'py, PyAny>> {
    let req: ExtendRequest = request("extend", &[("deal", deal)], params)?;
    long(
        py,
        progress,
        |job| bmn_app::backward::extend(&req, job),
        &[],
    )
}

/// Exact census reports of decks alike but for their plain cards, side by side (`bmn family
/// --json`'s dict): `families`, each with its rows in order of n and where each class first
/// appears; `plot` draws the endless deals and cycles by class against n (one family).
#[pyfunction]
#[pyo3(signature = (files, **params))]
fn family<'py>(
    py: Python<'py>,
    files: &Bound<'py, PyAny>,
    params: Option<&Bound<'py, PyDict>>,
) -> PyResult<Bound<'py, PyAny>> {
    // No file at all is the library's to refuse, in its words (not "give one").
    let req: FamilyRequest = if files.len().is_ok_and(|n| n == 0) {
        FamilyRequest::default()
    } else {
        request("family", &[("files", files)], params)?
    };
    to_dict(py, &bmn_app::family::family(&req).map_err(py_err)?)
}

/// The exact number of deals of a deck at a table: `bmn count --json`'s dict (counts as
/// decimal strings, as they pass 2^64).
#[pyfunction]
#[pyo3(signature = (deck=None, **params))]
fn count<'py>(
    py: Python<'py>,
    deck: Option<&Bound<'py, PyAny>>,
    params: Option<&Bound<'py, PyDict>>,
) -> PyResult<Bound<'py, PyAny>> {
    let fixed: Vec<(&str, &Bound<'py, PyAny>)> = deck.map(|d| ("deck", d)).into_iter().collect();
    let req: CountRequest = request("count", &fixed, params)?;
    to_dict(py, &bmn_app::count::count(&req).map_err(py_err)?)
}

/// The number of a deal among all deals of its deck (`bmn rank --json`'s dict; `rank` and
/// `deals` are decimal strings, as they pass 2^64).
#[pyfunction]
#[pyo3(signature = (deal, **params))]
fn rank<'py>(
    py: Python<'py>,
    deal: &Bound<'py, PyAny>,
    params: Option<&Bound<'py, PyDict>>,
) -> PyResult<Bound<'py, PyAny>> {
    let req: RankRequest = request("rank", &[("deal", deal)], params)?;
    to_dict(py, &bmn_app::rank::rank(&req).map_err(py_err)?)
}

/// Deal `k` of a deck (`bmn unrank --json`'s dict); `k` may be any size.
#[pyfunction]
#[pyo3(signature = (k, **params))]
fn unrank<'py>(
    py: Python<'py>,
    k: &Bound<'py, PyAny>,
    params: Option<&Bound<'py, PyDict>>,
) -> PyResult<Bound<'py, PyAny>> {
    let req: UnrankRequest = request("unrank", &[("rank", k)], params)?;
    to_dict(py, &bmn_app::rank::unrank(&req).map_err(py_err)?)
}

/// The record games, each replayed by the engine: `bmn records --json`'s dict.
#[pyfunction]
fn records(py: Python<'_>) -> PyResult<Bound<'_, PyAny>> {
    let report = py
        .detach(|| bmn_app::records::records(&Default::default()))
        .map_err(py_err)?;
    to_dict(py, &report)
}

/// Deal `index` of a seed's stream: `bmn deal --json`'s dict.
#[pyfunction]
#[pyo3(signature = (seed=None, **params))]
fn deal<'py>(
    py: Python<'py>,
    seed: Option<&Bound<'py, PyAny>>,
    params: Option<&Bound<'py, PyDict>>,
) -> PyResult<Bound<'py, PyAny>> {
    let fixed: Vec<(&str, &Bound<'py, PyAny>)> = seed.map(|s| ("seed", s)).into_iter().collect();
    let req: DealRequest = request("deal", &fixed, params)?;
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
#[pyo3(signature = (deals, **params))]
fn play_many<'py>(
    py: Python<'py>,
    deals: &Bound<'py, PyAny>,
    params: Option<&Bound<'py, PyDict>>,
) -> PyResult<Bound<'py, PyAny>> {
    // A file's worth of deals: one deal's parameters (`deal`, `trace`, the files) do not apply.
    // The deals are the iterable's: `deals` (the CLI's file) stands for them.
    let given = PyString::new(py, "-").into_any();
    let req: PlayRequest = request("play_many", &[("deals", &given)], params)?;
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
#[pyo3(signature = (seed, count, **params))]
fn deals(
    py: Python<'_>,
    seed: &Bound<'_, PyAny>,
    count: &Bound<'_, PyAny>,
    params: Option<&Bound<'_, PyDict>>,
) -> PyResult<Vec<String>> {
    let fixed = [("seed", seed), ("count", count)];
    let req: DealRequest = request("deals", &fixed, params)?;
    let count = req.count.unwrap_or(1);
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
    m.add_function(wrap_pyfunction!(keywords, m)?)?;
    m.add_function(wrap_pyfunction!(play, m)?)?;
    m.add_function(wrap_pyfunction!(search, m)?)?;
    m.add_function(wrap_pyfunction!(stats, m)?)?;
    m.add_function(wrap_pyfunction!(exhaustive, m)?)?;
    m.add_function(wrap_pyfunction!(census, m)?)?;
    m.add_function(wrap_pyfunction!(family, m)?)?;
    m.add_function(wrap_pyfunction!(predecessors, m)?)?;
    m.add_function(wrap_pyfunction!(basin, m)?)?;
    m.add_function(wrap_pyfunction!(extend, m)?)?;
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
