//! What `search` and `stats` share: the seed's stream of random deals at a table, played for a
//! count of games or a time on an engine. Deal K of the stream is game K of both commands, so
//! the two plans are one plan with their own parts around it.

use std::time::Duration;

use bmn_core::Rules;
use bmn_search::{DealSource, SearchConfig};

use crate::error::Result;
use crate::input::{EngineInput, EnginePlan, RulesInput, TableInput, TimeArg};
use crate::seeded::{Run, SeededArgs};

/// `--games` or `--time`: how far a run of random deals goes (`search`, `stats`).
#[derive(clap::Args, Debug, Clone, Default, PartialEq, Eq)]
pub struct GamesArg {
    /// How many random deals to play [default: 1000000 unless --time is given].
    #[arg(long, value_name = "N", conflicts_with = "time")]
    pub games: Option<u64>,
    #[command(flatten)]
    pub time: TimeArg,
}

impl GamesArg {
    /// `n` games.
    pub fn games(n: u64) -> GamesArg {
        GamesArg {
            games: Some(n),
            time: TimeArg::default(),
        }
    }

    /// The games to play (`None`: until the time is up) and the time limit; `default` games
    /// when neither is given.
    pub fn plan(&self, default: u64) -> Result<(Option<u64>, Option<Duration>)> {
        self.time.with_count(self.games, "games", Some(default))
    }
}

/// The stream's parameters, flattened into `search`'s and `stats`' requests.
#[derive(clap::Args, Clone, Debug, Default, PartialEq, Eq)]
pub struct StreamRequest {
    #[command(flatten)]
    pub games: GamesArg,
    #[command(flatten)]
    pub run: SeededArgs,
    #[command(flatten)]
    pub table: TableInput,
    #[command(flatten)]
    pub rules: RulesInput,
    #[command(flatten)]
    pub engine: EngineInput,
}

/// The stream, checked: every default filled in and the machine read (the cores, the CPU's
/// fastest kernel) when it is made.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StreamPlan {
    pub source: DealSource,
    pub rules: Rules,
    /// Games in the whole run; `None`: play until `time` is up.
    pub games: Option<u64>,
    /// Stop when this much time has passed (with or without `games`).
    pub time: Option<Duration>,
    pub run: Run,
    pub engine: EnginePlan,
}

impl StreamPlan {
    /// The stream `given` asks for, `default_games` long when it names neither games nor time.
    pub fn new(given: &StreamRequest, default_games: u64) -> Result<StreamPlan> {
        let source = given.table.source()?;
        let rules = given.rules.rules()?;
        let (games, time) = given.games.plan(default_games)?;
        Ok(StreamPlan {
            engine: given.engine.plan_deals(&source, rules)?,
            run: given.run.resolve()?,
            source,
            rules,
            games,
            time,
        })
    }

    /// The kernels' configuration for `source`'s deals of this stream (`source` itself, or the
    /// other kind a plot compares), keeping the `top` longest games.
    pub fn config(&self, source: DealSource, top: usize) -> SearchConfig {
        SearchConfig {
            seed: self.run.seed,
            source,
            top,
            engine: self.engine.engine,
            max_tricks: self.engine.max_tricks,
        }
    }
}
