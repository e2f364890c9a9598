//! `play`, `rank`, `unrank`, `deal`, `count`, `records`: one deal or one table at a time.
//! Each command's flags, and its `run`: the flags as its bmn-app request, the report printed.

use anyhow::Result;
use std::path::PathBuf;

use bmn_app::deal::DealRequest;
use bmn_app::given::GivenRequest;
use bmn_app::play::PlayRequest;
use clap::Args;

use crate::args::{
    DeckArg, DotArg, GiveUpArg, LeaderArg, OutputArg, PlayersArg, PlotArg, RulesArgs, SeedArg,
    ThreadsArg, decks, table,
};
use crate::output::deal_text;
use crate::output::emit;
use crate::output::emit_with_files;
use bmn_app::numbers::whole;

const RANK_DECK: &str = concat!(
    "Rank the deal among the deals of this deck, whose cards it must hold exactly: ",
    decks!(),
    " [default: the deal's own cards]"
);

#[derive(Args, Debug)]
#[command(mut_arg("deck", |a| a.help(RANK_DECK)))]
pub struct RankArgs {
    /// The deal (any notation `bmn play` reads); its hands must have the sizes round-robin
    /// dealing from the leader gives. "-" reads it from stdin.
    #[arg(allow_hyphen_values = true)]
    pub deal: String,
    #[command(flatten)]
    pub leader: LeaderArg,
    #[command(flatten)]
    pub deck: DeckArg,
    #[command(flatten)]
    pub output: OutputArg,
}

impl RankArgs {
    /// `bmn rank`: the flags as its request, the report printed.
    pub fn run(self) -> Result<()> {
        let deal = deal_text(&self.deal)?;
        let report = bmn_app::rank::rank(&deal, self.leader.leader, self.deck.deck.as_deref())?;
        emit(&report, self.output.json)
    }
}

#[derive(Args, Debug)]
pub struct UnrankArgs {
    /// The rank, from 0 (a whole number of any size).
    #[arg(value_parser = whole, allow_negative_numbers = true)]
    pub rank: String,
    #[command(flatten)]
    pub deck: DeckArg,
    #[command(flatten)]
    pub players: PlayersArg,
    #[command(flatten)]
    pub leader: LeaderArg,
    #[command(flatten)]
    pub output: OutputArg,
}

impl UnrankArgs {
    /// `bmn unrank`: the flags as its request, the report printed.
    pub fn run(self) -> Result<()> {
        let report = bmn_app::rank::unrank(
            &self.rank,
            self.deck.deck.as_deref(),
            self.players.players,
            self.leader.leader,
        )?;
        emit(&report, self.output.json)
    }
}

const PLAY_DECK: &str = concat!(
    "Check that the hands hold exactly this deck: ",
    decks!(),
    ". Unchecked unless given (the hands hold any cards); with DEAL \"#K\" or --rank K, deal K \
     is one of this deck (standard unless given)"
);

const PLAY_PLAYERS: &str = "Check that the deal has this many hands (2 to 10); unchecked \
    unless given (as many players as the deal has hands). With DEAL \"#K\" or --rank K, deal K \
    is dealt among this many players (2 unless given)";

const PLAY_GIVE_UP: &str = "Give up on a game that has neither ended nor repeated a position \
    after this many tricks, with an error that says so (some penalty tables make games \
    millions of tricks long; --tricks K shows where it got to) [default: 10000000]";

const PLAY_THREADS: &str = "Worker threads for --deals [default: every core]. The results \
    and their order do not depend on it";

const PLAY_PLOT: &str = "Draw every player's stack size, trick by trick, into FILE (.svg or .png)";

const PLAY_DOT: &str = "Write the game's positions as a Graphviz DOT graph to FILE (render: \
    `dot -Tsvg FILE > out.svg`): one node per position, one edge per trick, the cycle in red, \
    the start outlined twice";

#[derive(Args, Debug)]
#[command(
    mut_arg("deck", |a| a.help(PLAY_DECK)),
    mut_arg("players", |a| a.help(PLAY_PLAYERS)),
    mut_arg("give_up", |a| a.help(PLAY_GIVE_UP)),
    mut_arg("plot", |a| a.help(PLAY_PLOT)),
    mut_arg("dot", |a| a.help(PLAY_DOT)),
    mut_arg("threads", |a| a.help(PLAY_THREADS)),
)]
pub struct PlayArgs {
    /// The deal, hands separated by '/', top card first: e.g. "--K---A----AAJ-/J-". Symbols
    /// (-JQKAX), Paulhus digits 0-5, or real cards ("9C JH 10s Q♠"); "#K" is deal K of the
    /// deck (`bmn unrank`). "-" reads it from stdin.
    #[arg(allow_hyphen_values = true, required_unless_present_any = ["rank", "deals"])]
    pub deal: Option<String>,
    /// Play every deal of FILE ("-": stdin) instead, one a line in any notation DEAL takes
    /// (blank lines and # comments skipped), on the fast kernels and --threads: a table in
    /// the file's order, or with --json one JSON object a line. A file is of one deck (every
    /// deal checked against --deck, or else the first deal's cards); a bad line stops the run
    /// there, naming its line.
    #[arg(
        long,
        value_name = "FILE",
        conflicts_with_all = ["deal", "rank", "trace", "tricks", "plot", "dot"]
    )]
    pub deals: Option<PathBuf>,
    #[command(flatten)]
    pub threads: ThreadsArg,
    /// Play deal K of --deck (standard unless given) instead: the same as DEAL "#K".
    #[arg(long, value_name = "K", conflicts_with = "deal", value_parser = whole, allow_negative_numbers = true)]
    pub rank: Option<String>,
    #[command(flatten)]
    pub leader: LeaderArg,
    /// Print every position, trick by trick: `1. <stack> 2. <stack> (leader N)`.
    #[arg(long)]
    pub trace: bool,
    /// Stop after K tricks (or earlier if the game ends) and print the position reached.
    #[arg(long, value_name = "K")]
    pub tricks: Option<u64>,
    #[command(flatten)]
    pub deck: DeckArg,
    #[command(flatten)]
    pub players: PlayersArg,
    #[command(flatten)]
    pub rules: RulesArgs,
    #[command(flatten)]
    pub plot: PlotArg,
    #[command(flatten)]
    pub dot: DotArg,
    #[command(flatten)]
    pub give_up: GiveUpArg,
    #[command(flatten)]
    pub output: OutputArg,
}

impl PlayArgs {
    /// `bmn play`: the flags as its request, the report printed.
    pub fn run(self) -> Result<()> {
        if let Some(file) = &self.deals {
            let req = GivenRequest {
                leader: self.leader.leader,
                deck: self.deck.deck.clone(),
                players: self.players.players,
                rules: self.rules.input(),
                give_up: self.give_up.give_up,
                threads: self.threads.threads,
            };
            return crate::cli::given::play_file(&req, file, self.output.json);
        }
        if self.threads.threads.is_some() {
            return Err(crate::output::BadInput(
                "bad --threads: one deal plays on one thread; --threads is for --deals FILE".into(),
            )
            .into());
        }
        let deal = match (&self.deal, &self.rank) {
            (_, Some(k)) => format!("#{k}"),
            (Some(d), None) => deal_text(d)?,
            (None, None) => unreachable!("clap requires DEAL or --rank"),
        };
        let req = PlayRequest {
            deal,
            leader: self.leader.leader,
            tricks: self.tricks,
            deck: self.deck.deck,
            players: self.players.players,
            rules: self.rules.input(),
            trace: self.trace,
            plot: self.plot.plot.clone(),
            dot: self.dot.dot.clone(),
            give_up: self.give_up.give_up,
        };
        let files = [
            ("plot", self.plot.plot.as_deref()),
            ("graph", self.dot.dot.as_deref()),
        ];
        let plan = bmn_app::play::PlayPlan::try_from(&req)?;
        // A long game is a long job: progress once it has run a second, Ctrl-C within one.
        let mut bar = crate::progress::Bar::default();
        let mut job = bmn_job::Job::new(&mut bar, crate::stop::stop_on_ctrl_c());
        let started = std::time::Instant::now();
        let mut shown: Option<std::time::Instant> = None;
        let every = std::time::Duration::from_millis(100);
        let run = bmn_app::play::run_watched(&plan, &mut |tricks, game| {
            // Asked every few dozen tricks: the clock and the flag only, but every tenth of a
            // second, once the game has run a second, the bar.
            let now = std::time::Instant::now();
            if now.duration_since(started) < std::time::Duration::from_secs(1)
                || shown.is_some_and(|t| now.duration_since(t) < every)
            {
                return !job.stopped();
            }
            if shown.is_none() {
                job.start(None, 0, "tricks");
            }
            shown = Some(now);
            let hands: Vec<String> = game
                .position()
                .stacks()
                .iter()
                .map(|s| s.len().to_string())
                .collect();
            let message = format!("{} cards laid, hands of {}", game.cards(), hands.join("/"));
            job.progress(tricks, Some(&message))
        });
        job.finish();
        match run? {
            bmn_app::play::PlayRun::Done(report) => {
                emit_with_files(&report, self.output.json, &files)
            }
            bmn_app::play::PlayRun::Stopped { report, period } => {
                // Where the game got to, as `--tricks K` would show it, then the stop.
                emit(&report, self.output.json)?;
                if let Some(period) = period {
                    eprintln!(
                        "bmn: stopped: the game never ends (a cycle of {period} tricks was \
                         found; it was being measured)"
                    );
                }
                Err(crate::exit::Stopped.into())
            }
        }
    }
}

const RECORDS_PLOT: &str = "Draw record length against year (cards and tricks) into FILE (.svg \
    or .png)";

#[derive(Args, Debug)]
#[command(mut_arg("plot", |a| a.help(RECORDS_PLOT)))]
pub struct RecordsArgs {
    /// Exit with an error if any record disagrees with the reference engine.
    #[arg(long)]
    pub verify: bool,
    #[command(flatten)]
    pub plot: PlotArg,
    #[command(flatten)]
    pub output: OutputArg,
}

impl RecordsArgs {
    /// `bmn records`: the flags as its request, the report printed.
    pub fn run(self) -> Result<()> {
        let report = bmn_app::records::records(self.plot.plot.as_deref())?;
        emit(&report, self.output.json)?;
        if self.verify {
            report.verify()?;
        }
        Ok(())
    }
}

const DEAL_SEED: &str = "Seed of the stream: deal K (--index) is a function of (seed, K) only \
    [default: drawn from the clock; stderr says which, to deal it again]";

#[derive(Args, Debug)]
#[command(mut_arg("seed", |a| a.help(DEAL_SEED)))]
pub struct DealArgs {
    #[command(flatten)]
    pub deck: DeckArg,
    #[command(flatten)]
    pub players: PlayersArg,
    #[command(flatten)]
    pub seed: SeedArg,
    /// Which deal of the seed's stream: deal K is the one `bmn search` and `bmn stats` with
    /// the same seed, table and --balanced play as game K (from 0) [default: 0].
    #[arg(long, value_name = "K")]
    pub index: Option<u64>,
    /// Every player holds the same number of each kind of card.
    #[arg(long)]
    pub balanced: bool,
    /// Deal N deals, one a line: deals K..K+N-1 of the seed's stream (--index K), the games
    /// `bmn search` and `bmn stats` with the same seed, table and --balanced play (`bmn play
    /// --deals -` reads them back); with --json, one JSON object a line.
    #[arg(long, value_name = "N")]
    pub count: Option<u64>,
    #[command(flatten)]
    pub output: OutputArg,
}

impl DealArgs {
    /// `bmn deal`: the flags as its request, the report printed.
    pub fn run(self) -> Result<()> {
        let req = DealRequest {
            table: table(self.deck, self.players, self.balanced),
            seed: self.seed.seed,
            index: self.index,
        };
        if let Some(count) = self.count {
            return crate::cli::given::deal_lines(&req, count, self.output.json);
        }
        let report = bmn_app::deal::deal(&req)?;
        if !self.output.json {
            // How to deal it again goes to stderr, so stdout holds the deal alone.
            eprintln!("{}", report.replay_note());
        }
        emit(&report, self.output.json)
    }
}

#[derive(Args, Debug)]
pub struct CountArgs {
    #[command(flatten)]
    pub deck: DeckArg,
    #[command(flatten)]
    pub players: PlayersArg,
    #[command(flatten)]
    pub output: OutputArg,
}

impl CountArgs {
    /// `bmn count`: the flags as its request, the report printed.
    pub fn run(self) -> Result<()> {
        let table = table(self.deck, self.players, false);
        emit(&bmn_app::count::count(&table)?, self.output.json)
    }
}
