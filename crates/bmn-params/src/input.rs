//! What a person typed, turned into validated bmn values. Every error names the flag or value
//! at fault in one line (`bad --deck: ...`), the same on every front end.

use std::path::{Path, PathBuf};
use std::time::Duration;

use bmn_core::{Deck, OnEmpty, PenaltyTable, Player, Position, Rules};
use bmn_deals::{BigUint, Stream};
use bmn_kernel::{Choice, Kernel};
use bmn_search::{DealSource, Engine, SearchError};

use crate::error::{Error, Result};
use crate::message;
use crate::message::Message;

/// The deck a table deals when none is named.
pub const DEFAULT_DECK: &str = "standard";
/// Players at a table when not said.
pub const DEFAULT_PLAYERS: usize = 2;
/// The seed of every seeded stream when none is given (`bmn deal` draws one from the clock).
pub const DEFAULT_SEED: u64 = 1;
/// The stream of deals a seed names when `--stream` is not given.
pub const DEFAULT_STREAM: Stream = Stream::LATEST;
/// The running-out rule when not said (Paulhus's).
pub const DEFAULT_ON_EMPTY: &str = "pass";

/// The table: penalty table and running-out rule (`--penalties`, `--on-empty`).
#[derive(clap::Args, Clone, Debug, Default, PartialEq, Eq)]
pub struct RulesInput {
    /// Penalty table, e.g. "J1,Q2,K3,A4" or Knocking Dolly "K3,J2,Q1,A0" (A0: takes the pile at
    /// once); kinds not listed keep their standard value, "A-" makes a kind plain.
    #[arg(long, value_name = "TABLE")]
    pub penalties: Option<String>,
    /// With more than two players, what happens when a payer runs out part-way through a debt:
    /// `pass` the rest to the next player (Paulhus) or the player with the claim `collect`s the pile
    /// [default: pass].
    #[arg(long, value_name = "RULE", value_parser = ["pass", "collect"])]
    pub on_empty: Option<String>,
}

impl RulesInput {
    pub fn rules(&self) -> Result<Rules> {
        let penalties = match &self.penalties {
            Some(text) => PenaltyTable::parse(text).map_err(|e| Error::bad("penalties", e))?,
            None => PenaltyTable::STANDARD,
        };
        let on_empty: OnEmpty = self
            .on_empty
            .as_deref()
            .unwrap_or(DEFAULT_ON_EMPTY)
            .parse()
            .map_err(|e| Error::bad("on_empty", e))?;
        Ok(Rules {
            penalties,
            on_empty,
        })
    }
}

/// `--deck`, `--players` and the rules: the table of a command that plays given or built deals
/// (no `--balanced`, which is for random deals: [`TableInput`]).
#[derive(clap::Args, Clone, Debug, Default, PartialEq, Eq)]
pub struct TableRules {
    #[command(flatten)]
    pub deck: crate::flags::DeckArg,
    #[command(flatten)]
    pub players: crate::flags::PlayersArg,
    #[command(flatten)]
    pub rules: RulesInput,
}

impl TableRules {
    /// Uniform random deals of this table.
    pub fn source(&self) -> Result<DealSource> {
        TableInput::of(&self.deck, &self.players).source()
    }
}

/// Who sits at the table and what they are dealt (`--deck`, `--players`, `--balanced`).
#[derive(clap::Args, Clone, Debug, Default, PartialEq, Eq)]
pub struct TableInput {
    #[arg(
        long,
        value_name = "DECK",
        help = concat!("The deck dealt from: ", crate::decks!(), " [default: standard]")
    )]
    pub deck: Option<String>,
    /// Players at the table (2 to 10), player 1 leading [default: 2]. The kernels play two
    /// players; more go to the reference engine.
    #[arg(long, value_name = "P")]
    pub players: Option<usize>,
    /// Only deals where every player holds the same number of each kind of card.
    #[arg(long)]
    pub balanced: bool,
    /// The stream of deals the seed names: 2 draws where the deck's face cards lie and their
    /// order; 1 shuffles the whole deck, as every run before stream 2 did (--stream 1 deals
    /// their seeds' games again) [default: 2].
    #[arg(long, value_name = "V")]
    pub stream: Option<u64>,
}

impl TableInput {
    /// The table of a command that takes no `--balanced` and no `--stream`: its random deals
    /// are stream 1's, as when its published results (the catalogues) were made.
    pub fn of(deck: &crate::flags::DeckArg, players: &crate::flags::PlayersArg) -> TableInput {
        TableInput {
            deck: deck.deck.clone(),
            players: players.players,
            balanced: false,
            stream: Some(1),
        }
    }

    /// The stream the seed names.
    pub fn stream(&self) -> Result<Stream> {
        match self.stream {
            None => Ok(DEFAULT_STREAM),
            Some(n) => Stream::from_number(n)
                .ok_or_else(|| Error::bad_with("stream", message!(": the streams are 1 and 2"))),
        }
    }

    /// The random deals of this table.
    pub fn source(&self) -> Result<DealSource> {
        let deck = deck(self.deck.as_deref().unwrap_or(DEFAULT_DECK))?;
        let stream = self.stream()?;
        DealSource::with_players(deck, self.players.unwrap_or(DEFAULT_PLAYERS), self.balanced)
            .map(|source| source.with_stream(stream))
            .map_err(|e| match e {
                SearchError::Players(_) => Error::bad("players", e),
                SearchError::DeckSize { .. } => Error::bad("deck", e),
                // The library's words say what a balanced deal needs; here it is the flag.
                SearchError::Unbalanceable {
                    deck,
                    kind,
                    players,
                } => Error::bad_with(
                    "balanced",
                    message!(
                        ": deck {}: its {} cards cannot be shared equally among {} players \
                         (--balanced)",
                        deck,
                        kind,
                        players
                    ),
                ),
            })
    }
}

/// How many random deals are played (`--kernel`, `--device`, `--give-up`, `--max-tricks`).
#[derive(clap::Args, Clone, Debug, Default, PartialEq, Eq)]
pub struct EngineInput {
    /// Kernel to use (default: the fastest this CPU runs for the deck): a family (portable,
    /// lockstep, avx2, avx512: its fastest kernel for the deck) or one kernel by name
    /// (`bmn --version` lists those this CPU runs; reports name the one that played); gpu (a
    /// GPU: `bmn devices` lists them), or all (the GPU and the fastest CPU kernel together).
    /// Results never depend on it.
    #[arg(long, value_name = "NAME")]
    pub kernel: Option<String>,
    /// The GPU of --kernel gpu or all, as `bmn devices` numbers them [default: 0].
    #[arg(long, value_name = "N")]
    pub device: Option<usize>,
    #[command(flatten)]
    pub give_up: crate::flags::GiveUpArg,
    /// Games still going after this many tricks go to exact cycle detection (any cap gives the
    /// same results) [default: 3000].
    #[arg(long, value_name = "M")]
    pub max_tricks: Option<u32>,
}

/// The engine part of a plan, resolved once: which engine plays, after how many tricks the
/// reference engine gives up on a game, and the kernels' trick cap before exact cycle
/// detection. A report's `give_up` is this one, never a second reading of the request.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EnginePlan {
    pub engine: Engine,
    pub give_up: u64,
    pub max_tricks: u32,
    /// What the plan does other than what was asked, for the person running it: `--kernel
    /// all` leaving out a CPU adapter (the command says it as a note, on stderr in the CLI).
    pub note: Option<String>,
}

/// What a run of many deals plays with when not told: the reference engine's give-up and the
/// kernels' trick cap (the kernel is the CPU's fastest, read when a plan is made, not here).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EngineDefaults {
    pub give_up: u64,
    pub max_tricks: u32,
}

impl EngineDefaults {
    /// Random deals' (search, stats, odds).
    pub const DEALS: EngineDefaults = EngineDefaults {
        give_up: bmn_search::DEFAULT_GIVE_UP,
        max_tricks: bmn_kernel::DEFAULT_MAX_TRICKS,
    };

    /// The fastest kernel this CPU runs, for the standard two-player table, with these limits.
    pub fn fastest(&self) -> EnginePlan {
        let deck = Deck::STANDARD;
        let kernel = Engine::kernel_for(Choice::Fastest, &deck, self.max_tricks);
        let engine = Engine::choose(
            kernel,
            Rules::STANDARD,
            DEFAULT_PLAYERS,
            deck.len() as usize,
            self.give_up,
        );
        EnginePlan {
            engine,
            give_up: self.give_up,
            max_tricks: self.max_tricks,
            note: None,
        }
    }
}

impl EngineInput {
    /// The engine of random deals from `source` under `rules` (search, stats).
    pub fn plan_deals(&self, source: &DealSource, rules: Rules) -> Result<EnginePlan> {
        self.plan(
            rules,
            source.players(),
            source.deck(),
            &EngineDefaults::DEALS,
        )
    }

    /// The named kernel (or the fastest) where a kernel plays the games of `deck`, else the
    /// reference engine giving up after `--give-up` tricks; what is not said comes from
    /// `default`. The CPU is read here, when the plan is made, and the kernel chosen here is
    /// the one that plays.
    pub fn plan(
        &self,
        rules: Rules,
        players: usize,
        deck: &Deck,
        default: &EngineDefaults,
    ) -> Result<EnginePlan> {
        let give_up = at_least_one(self.give_up.give_up.unwrap_or(default.give_up), "give_up")?;
        let max_tricks = or_default(self.max_tricks, default.max_tricks, "max_tricks")?;
        let on_device = match self.kernel.as_deref() {
            Some("gpu") => Some(false),
            Some("all") => Some(true),
            _ if self.device.is_some() => {
                return Err(Error::bad_with(
                    "device",
                    message!(": it picks the GPU of --kernel gpu or --kernel all"),
                ));
            }
            _ => None,
        };
        let choice = match on_device {
            Some(_) => Choice::Fastest,
            None => kernel_choice(self.kernel.as_deref())?,
        };
        // A kernel is chosen where one plays the table (`Engine::choose` says where).
        let cpu = if Engine::kernel_plays(rules, players, deck.len() as usize) {
            Some(kernel_for(choice, deck, max_tricks)?)
        } else {
            None
        };
        let engine = Engine::choose(cpu, rules, players, deck.len() as usize, give_up);
        let (engine, note) = match on_device {
            Some(false) => (
                engine.on_device(crate::device::open(self.device)?, false),
                None,
            ),
            Some(true) => match crate::device::open_to_share(self.device)? {
                Ok(device) => (engine.on_device(device, true), None),
                Err(left_out) => (engine, Some(left_out)),
            },
            None => (engine, None),
        };
        Ok(EnginePlan {
            engine,
            give_up,
            max_tricks,
            note,
        })
    }
}

/// A deck spec (`--deck`).
pub fn deck(spec: &str) -> Result<Deck> {
    Deck::parse(spec).map_err(|e| Error::bad("deck", e))
}

/// The 0-based seat of a 1-based `--leader`, player 1 when none is given: the one place a
/// leader is defaulted and checked (the range against a deal's players is Position's).
pub fn seat(leader: Option<u64>) -> Result<Player> {
    match leader {
        None => Ok(Player(0)),
        Some(0) => Err(Error::bad_with(
            "leader",
            ": 0: players are numbered from 1",
        )),
        Some(k) => Ok(Player(usize::try_from(k - 1).unwrap_or(usize::MAX - 1))),
    }
}

/// A starting deal with its leader (1-based), checked against `deck` if given. `#K` is deal K
/// of `deck` (standard if not given) among `players` (2 if not given), as `bmn unrank` deals it.
pub fn deal(
    text: &str,
    leader: Option<u64>,
    deck_spec: Option<&str>,
    players: Option<usize>,
) -> Result<Position> {
    if let Some(rank) = text.trim().strip_prefix('#') {
        let deck = deck(deck_spec.unwrap_or(DEFAULT_DECK))?;
        return deal_of_rank(rank, &deck, players.unwrap_or(DEFAULT_PLAYERS), leader);
    }
    let position = Position::parse_deal(text, seat(leader)?)
        .map_err(|e| Error::input(format!("bad deal: {e}")))?;
    if let Some(spec) = deck_spec {
        position
            .check_deck(&deck(spec)?)
            .map_err(|e| Error::input(format!("bad deal: {e}")))?;
    }
    Ok(position)
}

/// A position with its leader (1-based); unlike a deal, hands may be empty. `#K` is standard
/// deal K (see [`deal`]).
pub fn position(text: &str, leader: Option<u64>) -> Result<Position> {
    if text.trim().starts_with('#') {
        return deal(text, leader, None, None);
    }
    Position::parse(text, seat(leader)?).map_err(|e| Error::input(format!("bad position: {e}")))
}

/// A plot file the back ends can write: .svg or .png, in a folder that exists, checked
/// before any game is played.
pub fn plot_path(path: &Path) -> Result<()> {
    bmn_plot::Format::of(path).map_err(|_| {
        Error::bad_with(
            "plot",
            format!(" '{}': name the file .svg or .png", path.display()),
        )
    })?;
    writable(path, "plot")
}

/// A file a command will write (`--out`, `--checkpoint`, `--plot`, `--dot`), checked before
/// any work, so that a long run does not end unable to say what it found: its folder exists
/// (bmn makes no folder it was not asked for), it is not a folder, and it can be written (an
/// existing file is opened for writing and left as it was; a new one is made and removed).
pub fn writable(path: &Path, flag: &'static str) -> Result<()> {
    let bad = |why: String| Error::bad_with(flag, format!(" '{}': {why}", path.display()));
    if path.is_dir() {
        return Err(bad("is a folder; name a file (in it, say)".into()));
    }
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty())
        && !dir.is_dir()
    {
        return Err(bad(format!("the folder {} does not exist", dir.display())));
    }
    // A file the machine will not let bmn write (permissions, a read-only or full disk) is
    // the machine's failure, exit 1, said before any work all the same.
    let cannot = |e: std::io::Error| {
        Error::failed(
            Message::text("cannot write ")
                .then(Message::parameter(flag))
                .then(Message::text(format!(
                    " '{}': {}",
                    path.display(),
                    bmn_run::chain(&e)
                ))),
        )
    };
    if path.exists() {
        std::fs::OpenOptions::new()
            .append(true)
            .open(path)
            .map_err(cannot)?;
    } else {
        std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(path)
            .map_err(cannot)?;
        // Made only to see that it could be: the command writes it when it has something.
        let _ = std::fs::remove_file(path);
    }
    Ok(())
}

/// A file a run will write (`--out`, `--checkpoint`), checked by [`writable`].
pub fn file_to_write(path: Option<&Path>, flag: &'static str) -> Result<Option<PathBuf>> {
    let Some(path) = path else {
        return Ok(None);
    };
    writable(path, flag)?;
    Ok(Some(path.to_path_buf()))
}

/// A length of time as a person types it (`90s`, `10m`, `2h`, `1d`), or a plain number of
/// seconds (`90`, `0.5`: what the web API's and Python's `seconds` give), which must be
/// positive and finite; `flag` names it in the error (`bad --time '9x': ...`).
pub fn duration(text: &str, flag: &'static str) -> Result<Duration> {
    let t = text.trim();
    if let Ok(seconds) = t.parse::<f64>() {
        return positive_seconds(seconds, 1.0).ok_or_else(|| {
            Error::bad_with(flag, format!(" {t}: use a positive number of seconds"))
        });
    }
    if t.starts_with('-') {
        return Err(Error::bad_with(
            flag,
            format!(": {text} is negative: give a time such as 90s, 10m, 2h or 1d"),
        ));
    }
    let (number, unit) = t.split_at(
        t.find(|c: char| !c.is_ascii_digit() && c != '.')
            .unwrap_or(t.len()),
    );
    let scale = match unit {
        "s" => 1.0,
        "m" => 60.0,
        "h" => 3600.0,
        "d" => 86400.0,
        _ => {
            return Err(Error::bad_with(
                flag,
                format!(" '{text}': use a number with s, m, h or d, e.g. 10m"),
            ));
        }
    };
    number
        .parse::<f64>()
        .ok()
        .and_then(|n| positive_seconds(n, scale))
        .ok_or_else(|| {
            Error::bad_with(
                flag,
                format!(" '{text}': use a positive number with s, m, h or d, e.g. 10m"),
            )
        })
}

/// `n` units of `scale` seconds, if positive and within a `Duration`.
fn positive_seconds(n: f64, scale: f64) -> Option<Duration> {
    (n > 0.0)
        .then(|| Duration::try_from_secs_f64(n * scale).ok())
        .flatten()
}

/// `BMN_SIMD`, the widest instruction set bmn may use (`bmn_kernel::SimdLimit`), checked:
/// front ends call this before anything else so that a misspelt value is refused, not
/// ignored.
pub fn simd_limit() -> Result<bmn_kernel::SimdLimit> {
    bmn_kernel::SimdLimit::from_env().map_err(Error::input)
}

/// The kernels this CPU runs (and `BMN_SIMD` allows), and the fastest for the standard deck.
pub fn cpu_kernels() -> (Vec<&'static str>, &'static str) {
    let fastest = Engine::kernel_for(
        Choice::Fastest,
        &Deck::STANDARD,
        bmn_kernel::DEFAULT_MAX_TRICKS,
    );
    let fastest = fastest.expect("every CPU has a kernel for the standard deck");
    let all = Kernel::all_available().into_iter().map(Kernel::name);
    (all.collect(), fastest.name())
}

/// `--kernel`'s request: a family's or a kernel's name this CPU runs; `None` asks for the
/// fastest.
pub fn kernel_choice(name: Option<&str>) -> Result<Choice> {
    let Some(name) = name else {
        return Ok(Choice::Fastest);
    };
    Choice::from_name(name)
        .filter(|c| c.is_available())
        .ok_or_else(|| {
            Error::bad_with(
                "kernel",
                format!(
                    " '{name}': this CPU runs {}; gpu and all use a GPU",
                    Choice::available_names().join(", ")
                ),
            )
        })
}

/// The kernel `choice` gives for the deals of `deck`: an error naming the kernel where it does
/// not take them (a deck of more penalty cards than it holds, say).
pub fn kernel_for(choice: Choice, deck: &Deck, max_tricks: u32) -> Result<Kernel> {
    Engine::kernel_for(choice, deck, max_tricks).ok_or_else(|| {
        let name = choice.name();
        Error::bad_with(
            "kernel",
            format!(
                " '{name}' does not play deals of {deck} with a cap of {max_tricks} tricks \
                 (a family, or the default, picks a kernel that does)"
            ),
        )
    })
}

/// The most worker threads a run may be given: far past any machine's cores, but refused
/// rather than starting (say) 99,999 threads that only contend.
pub const MAX_THREADS: usize = 1024;

/// Worker threads: the given count (1 to [`MAX_THREADS`]), or every core.
pub fn threads(given: Option<usize>) -> Result<usize> {
    let threads = or_default(given, every_core(), "threads")?;
    if threads > MAX_THREADS {
        return Err(Error::bad_with(
            "threads",
            format!(
                ": {threads} is more than {MAX_THREADS} (this machine has {} cores)",
                every_core()
            ),
        ));
    }
    Ok(threads)
}

/// Every core of this machine: the worker threads of a run that is not told.
pub fn every_core() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// The given count, at least 1 (`flag` names it when it is 0), or `default`.
pub fn or_default<T: PartialEq + From<u8>>(
    given: Option<T>,
    default: T,
    flag: &'static str,
) -> Result<T> {
    given.map_or(Ok(default), |v| at_least_one(v, flag))
}

/// A count that must be at least 1 (`bad --games: must be at least 1`).
pub fn at_least_one<T: PartialEq + From<u8>>(value: T, flag: &'static str) -> Result<T> {
    if value == T::from(0) {
        Err(Error::bad_with(flag, ": must be at least 1"))
    } else {
        Ok(value)
    }
}

/// `--time`: how long a run of rounds or units goes (`search`, `stats`, `climb`, the factory),
/// instead of its count (the count's flag conflicts with it).
#[derive(clap::Args, Clone, Debug, Default, PartialEq, Eq)]
pub struct TimeArg {
    /// Run for this long instead: 90s, 10m, 2h, 1d. Only whole rounds (or units) count, so the
    /// result equals that of a run of the count it finished.
    #[arg(long, value_name = "DURATION", allow_hyphen_values = true)]
    pub time: Option<String>,
}

impl TimeArg {
    /// `--time` given as `text`.
    pub fn of(text: &str) -> TimeArg {
        TimeArg {
            time: Some(text.to_string()),
        }
    }

    /// How far a run goes: `count` units (`count_flag`, at least 1), until the time is up, or
    /// whichever comes first when both are given. A time alone means no count; neither means
    /// `default`.
    pub fn with_count(
        &self,
        count: Option<u64>,
        count_flag: &'static str,
        default: Option<u64>,
    ) -> Result<(Option<u64>, Option<Duration>)> {
        let time = self
            .time
            .as_deref()
            .map(|t| duration(t, "time"))
            .transpose()?;
        let count = match (count, time) {
            (Some(n), _) => Some(at_least_one(n, count_flag)?),
            (None, Some(_)) => None,
            (None, None) => default,
        };
        Ok((count, time))
    }
}

/// Deal `rank` (decimal) of `deck`, as a position.
pub fn deal_of_rank(
    rank: &str,
    deck: &Deck,
    players: usize,
    leader: Option<u64>,
) -> Result<Position> {
    let rank_text = rank.trim();
    let k: BigUint = rank_text
        .parse()
        .map_err(|_| Error::input(format!("bad rank '{rank_text}': not a whole number")))?;
    let counts = deck.counts();
    let total = bmn_deals::rank::count(&counts);
    let arrangement = bmn_deals::rank::unrank(&counts, &k).ok_or_else(|| {
        Error::input(format!(
            "bad rank {k}: past the last deal (the deck {deck} has {total} deals, ranks 0 to {})",
            &total - 1u32
        ))
    })?;
    if !(2..=bmn_core::MAX_PLAYERS).contains(&players) || arrangement.len() < players {
        return Err(Error::bad_with(
            "players",
            format!(
                ": {players} players cannot be dealt {} cards",
                arrangement.len()
            ),
        ));
    }
    let seat = seat(leader)?;
    if seat.index() >= players {
        return Err(Error::bad_with(
            "leader",
            format!(": {}, but there are {players} players", seat.index() + 1),
        ));
    }
    let sizes = bmn_core::dealt_sizes(arrangement.len(), players, seat);
    Position::deal_from_codes(&arrangement, &sizes, seat)
        .map_err(|e| Error::input(format!("bad rank: {e}")))
}
