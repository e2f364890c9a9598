//! The flag families: each flag is declared once here and flattened into every command that
//! takes it, so it has one name and one meaning everywhere. The help text here is what most
//! commands mean by it; a command whose flag says more or has another default re-describes
//! it where it flattens it (`mut_arg` in `cli.rs`), so no command's help carries another's
//! caveats. Defaults left as `None` here are the library's (`bmn_app::input::DEFAULT_*` and
//! each command's constants).
//!
//! Every number a user types, flag or argument, is read by [`whole`] and its kin at the end of
//! this file, so `1e6`, `1_000_000` and `1000000` mean the same to every command and a
//! negative or misplaced number gets the same words everywhere.

use std::path::PathBuf;

use bmn_app::LedgerChoice;
use bmn_app::input::{EngineInput, RulesInput, TableInput};
use clap::builder::ValueParser;
use clap::{Arg, Args, Command};

/// The deck names and compositions `--deck` takes: one text for every command's help.
macro_rules! decks {
    () => {
        "standard, camicia, standard+jokers, 2xstandard (any N x), or a composition such as \
         2J,2Q,2K,2A,16-"
    };
}
pub(crate) use decks;

/// `--deck`.
#[derive(Args, Debug, Clone, Default)]
pub struct DeckArg {
    /// The deck dealt from [default: standard].
    #[arg(
        long,
        value_name = "DECK",
        help = concat!("The deck dealt from: ", decks!(), " [default: standard]")
    )]
    pub deck: Option<String>,
}

/// `--players`.
#[derive(Args, Debug, Clone, Default)]
pub struct PlayersArg {
    /// Players at the table (2 to 10), player 1 leading [default: 2]. The kernels play two
    /// players; more go to the reference engine.
    #[arg(long, value_name = "P")]
    pub players: Option<usize>,
}

/// `--penalties`, `--on-empty`.
#[derive(Args, Debug, Clone, Default)]
pub struct RulesArgs {
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

impl RulesArgs {
    pub fn input(&self) -> RulesInput {
        RulesInput {
            penalties: self.penalties.clone(),
            on_empty: self.on_empty.clone(),
        }
    }
}

/// `--give-up`.
#[derive(Args, Debug, Clone, Default)]
pub struct GiveUpArg {
    /// Give up on a game that has neither ended nor repeated a position after this many tricks
    /// and count it as unresolved (some penalty tables make games millions of tricks long)
    /// [default: 100000].
    #[arg(long, value_name = "T")]
    pub give_up: Option<u64>,
}

/// `--kernel`, `--give-up`, `--max-tricks`: how the commands that play many deals play them.
#[derive(Args, Debug, Clone, Default)]
pub struct EngineArgs {
    /// Kernel to use (default: the fastest this CPU runs): portable, lockstep, avx2, avx512;
    /// gpu (a GPU: `bmn devices` lists them), or all (the GPU and the fastest CPU kernel
    /// together). Results never depend on it.
    #[arg(long, value_name = "NAME")]
    pub kernel: Option<String>,
    /// The GPU of --kernel gpu or all, as `bmn devices` numbers them [default: 0].
    #[arg(long, value_name = "N")]
    pub device: Option<usize>,
    #[command(flatten)]
    pub give_up: GiveUpArg,
    /// Games still going after this many tricks go to exact cycle detection (any cap gives the
    /// same results) [default: 3000].
    #[arg(long, value_name = "M")]
    pub max_tricks: Option<u32>,
}

impl EngineArgs {
    pub fn input(&self) -> EngineInput {
        EngineInput {
            kernel: self.kernel.clone(),
            device: self.device,
            give_up: self.give_up.give_up,
            max_tricks: self.max_tricks,
        }
    }
}

/// `--seed`.
#[derive(Args, Debug, Clone, Default)]
pub struct SeedArg {
    /// Seed of the stream: deal (or sample, or deck) k is a function of (seed, k) only
    /// [default: 1].
    #[arg(long, value_name = "S")]
    pub seed: Option<u64>,
}

/// `--threads`.
#[derive(Args, Debug, Clone, Default)]
pub struct ThreadsArg {
    /// Worker threads [default: every core]. Results do not depend on it.
    #[arg(long, value_name = "T")]
    pub threads: Option<usize>,
}

/// `--db`, `--resume`, `--no-db`: where a long run records its progress.
#[derive(Args, Debug, Clone, Default)]
pub struct LedgerArgs {
    /// The run database (SQLite) this run records its progress in, every second [default:
    /// $BMN_DB, else $XDG_STATE_HOME/bmn/runs.sqlite, else ~/.local/state/bmn/runs.sqlite].
    #[arg(long, value_name = "FILE", conflicts_with = "no_db")]
    pub db: Option<PathBuf>,
    /// Continue the latest unfinished run of the same parameters (and shard) recorded in the
    /// database, e.g. after the machine died or the run was killed; nothing is lost or
    /// counted twice.
    #[arg(long)]
    pub resume: bool,
    /// Record nothing.
    #[arg(long, conflicts_with = "resume")]
    pub no_db: bool,
}

impl LedgerArgs {
    pub fn choice(&self) -> LedgerChoice {
        LedgerChoice {
            db: self.db.clone(),
            resume: self.resume,
            no_db: self.no_db,
        }
    }
}

/// `--shard`: only the flag; its text is read where every front end's is, by bmn-app with
/// `bmn_search::Shard::parse_or_auto` (the one place a shard is parsed).
#[derive(Args, Debug, Clone, Default)]
pub struct ShardArg {
    /// Play only shard i of N (1-based): N disjoint ranges of the run (units of a seed's
    /// games, or deal indices) that together cover it; `auto` takes i and N from the scheduler
    /// (SLURM_ARRAY_TASK_ID and SLURM_ARRAY_TASK_COUNT, or Kubernetes' JOB_COMPLETION_INDEX
    /// with BMN_SHARDS). Merge the shards' files with `bmn merge`.
    #[arg(long, value_name = "i/N|auto")]
    pub shard: Option<String>,
}

/// The table of `--deck`, `--players` and `--balanced`.
pub fn table(deck: DeckArg, players: PlayersArg, balanced: bool) -> TableInput {
    TableInput {
        deck: deck.deck,
        players: players.players,
        balanced,
    }
}

/// `bmn completions SHELL`.
#[derive(Args, Debug)]
pub struct CompletionsArgs {
    /// The shell: bash, zsh, fish, elvish or powershell.
    pub shell: clap_complete::Shell,
}

/// `--leader`.
#[derive(Args, Debug, Clone)]
pub struct LeaderArg {
    /// Who leads, numbered from 1 [default: 1].
    #[arg(long, value_name = "N", value_parser = seat, allow_negative_numbers = true)]
    pub leader: Option<u64>,
}

/// `--limit`.
#[derive(Args, Debug, Clone, Default)]
pub struct LimitArg {
    /// Stop after this many positions (about 50 bytes of memory each) and say it was cut
    /// short [default: 20000000].
    #[arg(long, value_name = "M")]
    pub limit: Option<u64>,
}

/// `--top`.
#[derive(Args, Debug, Clone, Default)]
pub struct TopArg {
    /// How many of the longest games to report [default: 10].
    #[arg(long, value_name = "K")]
    pub top: Option<usize>,
}

/// `--plot`.
#[derive(Args, Debug, Clone, Default)]
pub struct PlotArg {
    /// Draw the command's figure into FILE (.svg or .png).
    #[arg(long, value_name = "FILE")]
    pub plot: Option<PathBuf>,
}

/// `--dot`.
#[derive(Args, Debug, Clone, Default)]
pub struct DotArg {
    /// Write the positions as a Graphviz DOT graph to FILE (render: `dot -Tsvg FILE > out.svg`):
    /// one node per position, one edge per trick, the cycle in red, the position given
    /// outlined twice.
    #[arg(long, value_name = "FILE")]
    pub dot: Option<PathBuf>,
}

/// `--json`.
#[derive(Args, Debug, Clone, Default)]
pub struct OutputArg {
    /// Print one JSON object instead of text.
    #[arg(long)]
    pub json: bool,
}

/// A number as bmn reads one everywhere: `value = digits × 10^exponent`, from digits with `_`
/// between them if liked, an optional fraction and an optional exponent: `1000000`,
/// `1_000_000`, `1e6`, `2.5e6`, `3.2E9`, `+7`.
struct Decimal {
    digits: String,
    exponent: i64,
}

/// The longest number [`whole`] writes out: far past any count a command takes (a deck's deal
/// count has about 70 digits), short of what a typo such as `1e999999999` would allocate.
const MAX_DIGITS: usize = 10_000;

/// What every number flag says of text that is not a number.
fn not_a_number(text: &str) -> String {
    format!("'{text}' is not a number: give digits, e.g. 1000000, 1_000_000 or 1e6")
}

/// Whether `text` is a negative number (which every number flag refuses in words: it is not
/// a flag, nor garbage).
fn negative(text: &str) -> bool {
    text.strip_prefix('-')
        .is_some_and(|rest| Decimal::parse(rest).is_ok())
}

impl Decimal {
    /// `text` read as a number; a sign other than `+` is not part of bmn's syntax (the callers
    /// say "negative" for a `-`: [`negative`]).
    fn parse(text: &str) -> Result<Decimal, String> {
        // Digit runs joined by single underscores, as Rust writes literals.
        fn run(part: &str) -> Option<&str> {
            let ok = !part.is_empty()
                && !part.starts_with('_')
                && !part.ends_with('_')
                && !part.contains("__")
                && part.chars().all(|c| c.is_ascii_digit() || c == '_');
            ok.then_some(part)
        }
        let body = text.strip_prefix('+').unwrap_or(text);
        let (mantissa, exponent) = match body.split_once(['e', 'E']) {
            Some((m, e)) => {
                let sign = if e.starts_with('-') { -1 } else { 1 };
                let e = run(e.strip_prefix(['+', '-']).unwrap_or(e))
                    .ok_or_else(|| not_a_number(text))?
                    .replace('_', "");
                // Past MAX_DIGITS the value is refused anyway; saturate rather than overflow.
                let e: i64 = e.parse().unwrap_or(i64::MAX / 2).min(i64::MAX / 2);
                (m, sign * e)
            }
            None => (body, 0),
        };
        let (int, frac) = mantissa.split_once('.').unwrap_or((mantissa, ""));
        // `.5` and `5.` are numbers too (as Rust's f64 reads them); `.` is not.
        let part = |p: &str| p.is_empty() || run(p).is_some();
        if (int.is_empty() && frac.is_empty()) || !part(int) || !part(frac) {
            return Err(not_a_number(text));
        }
        let frac = frac.replace('_', "");
        Ok(Decimal {
            digits: format!("{}{frac}", int.replace('_', "")),
            exponent: exponent - frac.len() as i64,
        })
    }
}

/// A whole number of any size in bmn's syntax ([`Decimal`]), as plain decimal digits without
/// leading zeros: what the flags that take ranks (`bmn unrank`, `--rank`, `--from`) read.
pub fn whole(text: &str) -> Result<String, String> {
    if negative(text.trim()) {
        return Err(format!("{text} is negative: give a whole number from 0"));
    }
    let Decimal {
        mut digits,
        exponent,
    } = Decimal::parse(text.trim())?;
    if exponent < 0 {
        let cut = usize::try_from(-exponent).unwrap_or(usize::MAX);
        let keep = digits.len().saturating_sub(cut);
        if !digits[keep..].bytes().all(|b| b == b'0') {
            return Err(format!("{text} is not a whole number"));
        }
        digits.truncate(keep);
    } else if exponent > 0 && digits.bytes().any(|b| b != b'0') {
        let zeros = usize::try_from(exponent).unwrap_or(usize::MAX);
        if digits.len().saturating_add(zeros) > MAX_DIGITS {
            return Err(format!("{text} is too big ({MAX_DIGITS} digits at most)"));
        }
        digits.push_str(&"0".repeat(zeros));
    }
    let digits = digits.trim_start_matches('0');
    Ok(if digits.is_empty() { "0" } else { digits }.to_string())
}

/// The unsigned integer types number flags have.
pub trait Count: TryFrom<u128> + Copy + Send + Sync + 'static {
    const MAX: u128;
}

macro_rules! counts {
    ($($t:ty),*) => {$(
        impl Count for $t {
            const MAX: u128 = <$t>::MAX as u128;
        }
    )*};
}
counts!(u16, u32, u64, usize);

/// A count of type `T` in bmn's syntax ([`whole`]), the bound it passes said when it is out of
/// range. Only the bound: whether 0 is taken is each flag's own (`--games 0` is refused by the
/// plan, `--port 0` is not), so a refusal here never offers a range the flag would refuse.
pub fn count<T: Count>(text: &str) -> Result<T, String> {
    if negative(text) {
        return Err(format!("{text} is negative"));
    }
    let digits = whole(text)?;
    digits
        .parse::<u128>()
        .ok()
        .and_then(|n| T::try_from(n).ok())
        .ok_or_else(|| format!("{text} is too big: at most {}", T::MAX))
}

/// `--leader`: a seat, numbered from 1, in bmn's number syntax. A negative number is refused
/// here, in words; 0 is the plan's to refuse (`bmn_app::input::seat`), as for every front end.
pub fn seat(text: &str) -> Result<u64, String> {
    match count::<u64>(text) {
        Err(_) if negative(text) => {
            Err(format!("{text} is not a seat: players are numbered from 1"))
        }
        other => other,
    }
}

/// A real number in bmn's syntax ([`Decimal`]: `1e12`, `3.2e9`, `.995`, `1_000`), for the
/// flags that take reals (`odds --games`, `--rate`, `climb --cooling`): none takes a negative.
pub fn real(text: &str) -> Result<f64, String> {
    if negative(text) {
        return Err(format!("{text} is negative"));
    }
    let d = Decimal::parse(text)?;
    let x: f64 = format!("{}e{}", d.digits, d.exponent)
        .parse()
        .map_err(|_| not_a_number(text))?;
    if x.is_finite() {
        Ok(x)
    } else {
        Err(format!("{text} is too big for a real number"))
    }
}

/// `cmd` with every number flag and argument of it and its subcommands read by [`count`]
/// (unsigned integers) or [`real`] (reals), negative numbers taken as values, to be refused
/// in words rather than mistaken for a flag. An argument that already takes negative numbers
/// reads them with its own parser (`--leader`, the ranks) and is left as it is.
pub fn numbers_everywhere(cmd: Command) -> Command {
    fn numeric(arg: Arg) -> Arg {
        if arg.is_allow_negative_numbers_set() {
            return arg;
        }
        let parser = arg.get_value_parser().type_id();
        let ours: Option<ValueParser> = if parser == std::any::TypeId::of::<u64>() {
            Some(ValueParser::new(count::<u64>))
        } else if parser == std::any::TypeId::of::<usize>() {
            Some(ValueParser::new(count::<usize>))
        } else if parser == std::any::TypeId::of::<u32>() {
            Some(ValueParser::new(count::<u32>))
        } else if parser == std::any::TypeId::of::<u16>() {
            Some(ValueParser::new(count::<u16>))
        } else if parser == std::any::TypeId::of::<f64>() {
            Some(ValueParser::new(real))
        } else {
            None
        };
        match ours {
            Some(p) => arg.value_parser(p).allow_negative_numbers(true),
            None => arg,
        }
    }
    let cmd = cmd.mut_args(numeric);
    let names: Vec<String> = cmd
        .get_subcommands()
        .map(|s| s.get_name().to_string())
        .collect();
    names.iter().fold(cmd, |cmd, name| {
        cmd.mut_subcommand(name, numbers_everywhere)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_syntax_for_every_count() {
        for (text, n) in [
            ("0", 0),
            ("1000000", 1_000_000),
            ("1_000_000", 1_000_000),
            ("1e6", 1_000_000),
            ("1E6", 1_000_000),
            ("2.5e6", 2_500_000),
            ("+7", 7),
            ("007", 7),
            ("1000e-3", 1),
            ("18446744073709551615", u64::MAX),
        ] {
            assert_eq!(count::<u64>(text), Ok(n), "{text}");
        }
        for (text, says) in [
            ("-1", "-1 is negative"),
            ("2.5", "2.5 is not a whole number"),
            ("1e-3", "1e-3 is not a whole number"),
            (
                "18446744073709551616",
                "is too big: at most 18446744073709551615",
            ),
            ("1e20", "is too big"),
            ("1e999999999", "is too big"),
            ("x", "'x' is not a number"),
            ("-x", "'-x' is not a number"),
            ("1__0", "not a number"),
            ("_1", "not a number"),
            ("1e", "not a number"),
            ("", "not a number"),
            ("0x10", "not a number"),
        ] {
            let err = count::<u64>(text).unwrap_err();
            assert!(err.contains(says), "{text}: {err}");
        }
        assert!(count::<u16>("65536").unwrap_err().contains("at most 65535"));
    }

    #[test]
    fn ranks_of_any_size_and_seats_from_one() {
        assert_eq!(whole("1e30").unwrap(), format!("1{}", "0".repeat(30)));
        assert_eq!(whole("0e5").unwrap(), "0");
        assert_eq!(whole("12_345").unwrap(), "12345");
        assert!(whole("-1").unwrap_err().contains("-1 is negative"));
        assert_eq!(seat("1"), Ok(1));
        assert_eq!(seat("0"), Ok(0), "the plan refuses 0, for every front end");
        assert!(
            seat("-1")
                .unwrap_err()
                .contains("players are numbered from 1")
        );
        assert_eq!(real("1e12"), Ok(1e12));
        assert_eq!(real("3.2e9"), Ok(3.2e9));
        assert_eq!(real("1.5"), Ok(1.5));
        assert_eq!(real(".995"), Ok(0.995));
        assert_eq!(real("2."), Ok(2.0));
        assert_eq!(real("1e-9"), Ok(1e-9));
        assert_eq!(real("1_000.25"), Ok(1000.25));
        assert!(real(".").unwrap_err().contains("not a number"));
        assert!(real("inf").unwrap_err().contains("not a number"));
        assert!(real("1e400").unwrap_err().contains("too big"));
        assert!(real("-1").unwrap_err().contains("negative"));
    }
}
