//! `deal`: one random deal of a table in deal notation, the same deal `search` and `stats`
//! play as game K of the seed's stream.

use std::time::{SystemTime, UNIX_EPOCH};

use bmn_search::DealSource;
use serde::Serialize;

use crate::error::{Error, Result};
use crate::flags::SeedArg;
use crate::input::TableInput;

const DEAL_SEED: &str = "Seed of the stream: deal K (--index) is a function of (seed, K) only \
    [default: drawn from the clock; stderr says which, to deal it again]";

/// Which deal: `bmn deal`'s parameters (the seed drawn from the clock where none is given,
/// and reported, so the deal can be dealt again).
#[derive(clap::Args, Clone, Debug, Default)]
#[command(mut_arg("seed", |a| a.help(DEAL_SEED)))]
pub struct DealRequest {
    #[command(flatten)]
    pub table: TableInput,
    #[command(flatten)]
    pub seed: SeedArg,
    /// Which deal of the seed's stream: deal K is the one `bmn search` and `bmn stats` with
    /// the same seed, table and --balanced play as game K (from 0) [default: 0].
    #[arg(long, value_name = "K")]
    pub index: Option<u64>,
    /// Deal N deals, one a line: deals K..K+N-1 of the seed's stream (--index K), the games
    /// `bmn search` and `bmn stats` with the same seed, table and --balanced play (`bmn play
    /// --deals -` reads them back); with --json, one JSON object a line.
    #[arg(long, value_name = "N")]
    pub count: Option<u64>,
}

/// `deal --json`.
#[derive(Serialize, Clone, Debug, PartialEq, Eq)]
pub struct DealReport {
    pub deal: String,
    pub leader: usize,
    pub players: usize,
    pub deck: String,
    /// Every player was dealt the same number of each kind (`--balanced`).
    pub balanced_by_kind: bool,
    pub seed: u64,
    /// The stream of deals the seed names (`--stream`).
    pub stream: u8,
    pub index: u64,
    /// Cards in each hand, player 1 first.
    pub hand_sizes: Vec<usize>,
}

/// A deal to draw, validated; the seed is drawn from the clock where none was given (the one
/// default of bmn that is not fixed: `bmn deal` is for a fresh deal).
#[derive(Clone, Debug)]
pub struct DealPlan {
    pub source: DealSource,
    pub seed: u64,
    pub index: u64,
}

impl TryFrom<&DealRequest> for DealPlan {
    type Error = Error;

    fn try_from(req: &DealRequest) -> Result<Self> {
        Ok(DealPlan {
            source: req.table.source()?,
            seed: req.seed.seed.unwrap_or_else(|| {
                SystemTime::now()
                    .duration_since(UNIX_EPOCH)
                    .map_or(0, |d| d.as_nanos() as u64)
            }),
            index: req.index.unwrap_or(0),
        })
    }
}

/// Deals deal `index` of the seed's stream.
pub fn deal(req: &DealRequest) -> Result<DealReport> {
    let DealPlan {
        source,
        seed,
        index,
    } = DealPlan::try_from(req)?;
    let mut codes = vec![0u8; source.len()];
    source.deal(seed, index, &mut codes);
    let position = source.position(&codes);
    Ok(DealReport {
        deal: position.deal_text(),
        leader: position.leader().number(),
        players: position.players(),
        deck: source.deck().to_string(),
        balanced_by_kind: source.balanced(),
        seed,
        stream: source.stream().number(),
        index,
        hand_sizes: position.stacks().iter().map(|s| s.len()).collect(),
    })
}

/// Deals `count` deals of the seed's stream from the request's index, in order, handing each
/// to `each` until it says stop (false). Returns how many were handed over. The seed is drawn
/// from the clock where none was given, as for one deal.
pub fn deals(
    req: &DealRequest,
    count: u64,
    mut each: impl FnMut(&DealReport) -> bool,
) -> Result<u64> {
    let DealPlan {
        source,
        seed,
        index,
    } = DealPlan::try_from(req)?;
    let count = crate::input::at_least_one(count, "count")?;
    if index.checked_add(count - 1).is_none() {
        return Err(Error::bad_with(
            "count",
            format!(
                " {count}: from --index {index} it passes the stream's last deal, {}",
                u64::MAX
            ),
        ));
    }
    // Dealt a batch at a time (the stream's SIMD dealer), each deal the one `deal` gives.
    const BATCH: u64 = 1024;
    let len = source.len();
    let mut codes = vec![0u8; BATCH as usize * len];
    let mut report = DealReport {
        deal: String::new(),
        leader: 1,
        players: source.players(),
        deck: source.deck().to_string(),
        balanced_by_kind: source.balanced(),
        seed,
        stream: source.stream().number(),
        index,
        hand_sizes: source.sizes().to_vec(),
    };
    let mut done = 0;
    while done < count {
        let n = (count - done).min(BATCH);
        let batch = &mut codes[..n as usize * len];
        source.deal_batch(seed, index + done, batch);
        for (i, deal) in batch.chunks_exact(len).enumerate() {
            report.index = index + done + i as u64;
            report.deal = if source.players() == 2 {
                bmn_search::two_hand_text(deal, source.split())
            } else {
                source.position(deal).deal_text()
            };
            if !each(&report) {
                return Ok(done + i as u64 + 1);
            }
        }
        done += n;
    }
    Ok(done)
}

impl DealReport {
    /// How to deal it again: `player 1 leads; 4 players, ...; deal it again with --seed S`.
    pub fn replay_note(&self) -> String {
        let replay = if self.index == 0 {
            format!("--seed {}", self.seed)
        } else {
            format!("--seed {} --index {}", self.seed, self.index)
        };
        format!(
            "player 1 leads; {} players, {}{}; deal it again with {replay}",
            self.players,
            self.deck,
            if self.balanced_by_kind {
                ", balanced"
            } else {
                ""
            },
        )
    }
}

impl crate::Report for DealReport {
    /// The deal alone, so `bmn play "$(bmn deal)"` and `bmn deal | bmn play -` work.
    fn text(&self) -> String {
        format!("{}\n", self.deal)
    }
}
