//! `bmn deal`: one random deal of a table in deal notation, the same deal `bmn search` and
//! `bmn stats` play as game K of the seed's stream.

use std::time::{SystemTime, UNIX_EPOCH};

use anyhow::Result;
use serde::Serialize;

use crate::cli::DealArgs;
use crate::input;
use crate::output;

/// `bmn deal --json`.
#[derive(Serialize)]
struct DealJson {
    deal: String,
    leader: usize,
    players: usize,
    deck: String,
    balanced: bool,
    seed: u64,
    index: u64,
    /// Cards in each hand, player 1 first.
    hand_sizes: Vec<usize>,
}

pub fn run(args: &DealArgs) -> Result<()> {
    let source = input::source(&args.table, args.balanced)?;
    // Without --seed, a seed from the clock: printed, so the deal can be dealt again.
    let seed = args.seed.unwrap_or_else(|| {
        SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64)
    });
    let mut codes = vec![0u8; source.len()];
    source.deal(seed, args.index, &mut codes);
    let position = source.position(&codes);
    let deal = position.deal_text();
    if args.json {
        return output::print_json(&DealJson {
            deal,
            leader: position.leader().number(),
            players: position.players(),
            deck: source.deck().to_string(),
            balanced: source.balanced(),
            seed,
            index: args.index,
            hand_sizes: position.stacks().iter().map(|s| s.len()).collect(),
        });
    }
    // The deal alone on stdout, so `bmn play "$(bmn deal)"` and `bmn deal | bmn play -` work;
    // how to deal it again goes to stderr.
    let replay = if args.index == 0 {
        format!("--seed {seed}")
    } else {
        format!("--seed {seed} --index {}", args.index)
    };
    eprintln!(
        "player 1 leads; {} players, {}{}; deal it again with {replay}",
        position.players(),
        source.deck(),
        if source.balanced() { ", balanced" } else { "" },
    );
    Ok(output::print(&format!("{deal}\n"))?)
}
