//! `#K` ranks (`bmn rank`, `bmn unrank`, and `#K` wherever a deal is asked for): a deal's
//! rank unranks to the same deal, and a rank's deal ranks to the same number.

use bmn_app::flags::{DeckArg, LeaderArg, PlayersArg};
use bmn_app::rank::{RankRequest, UnrankRequest, rank as rank_of, unrank};

use crate::{check_message, text};

/// Ranks and unranks are linear in the deck's size with big-number steps: short inputs keep
/// one run fast (a long deck spec is still possible, and that is the point of the target).
const MAX_BYTES: usize = 256;

/// The first byte picks the way in and the flags; the rest is `DEAL` or `K`, then optionally
/// a newline and the `--deck` spec.
///
/// - bit 0: a deal to rank (`bmn rank DEAL`), or a number to unrank (`bmn unrank K`);
/// - bits 1-2: `--leader` 0 (read as 1), 1, 2 or 3;
/// - bits 3-4: `--players` (for unrank) unsaid, 2, 3 or 4.
pub fn rank(data: &[u8]) {
    let Some((&flags, rest)) = data.split_first() else {
        return;
    };
    if rest.len() > MAX_BYTES {
        return;
    }
    let text = text(rest);
    let (subject, deck) = match text.split_once('\n') {
        Some((s, d)) => (s, Some(d)),
        None => (text.as_str(), None),
    };
    // Left out (player 1), or a leader from 1 to 3 (3 may have no seat).
    let leader = match (flags >> 1) & 3 {
        0 => None,
        n => Some(u64::from(n)),
    };
    let players = match (flags >> 3) & 3 {
        0 => None,
        n => Some(usize::from(n) + 1),
    };
    let ranked = |deal: &str, leader: Option<u64>, deck: Option<&str>| {
        rank_of(&RankRequest {
            deal: deal.to_string(),
            leader: LeaderArg { leader },
            deck: DeckArg {
                deck: deck.map(String::from),
            },
        })
    };
    let unranked = |k: &str, deck: Option<&str>, players: Option<usize>, leader: Option<u64>| {
        unrank(&UnrankRequest {
            rank: k.to_string(),
            deck: DeckArg {
                deck: deck.map(String::from),
            },
            players: PlayersArg { players },
            leader: LeaderArg { leader },
        })
    };
    if flags & 1 == 0 {
        let report = match ranked(subject, leader, deck) {
            Ok(r) => r,
            Err(e) => return check_message(&e.to_string(), "rank"),
        };
        let back = unranked(
            &report.rank,
            Some(&report.deck),
            Some(report.players),
            Some(report.leader as u64),
        )
        .unwrap_or_else(|e| panic!("{text:?}: rank {} does not unrank: {e}", report.rank));
        assert_eq!(back, report, "{text:?}");
    } else {
        let report = match unranked(subject, deck, players, leader) {
            Ok(r) => r,
            Err(e) => return check_message(&e.to_string(), "unrank"),
        };
        assert!(
            report.rank.bytes().all(|b| b.is_ascii_digit()),
            "{report:?}"
        );
        let back = ranked(&report.deal, Some(report.leader as u64), Some(&report.deck))
            .unwrap_or_else(|e| panic!("{text:?}: deal {} does not rank: {e}", report.deal));
        assert_eq!(back, report, "{text:?}");
    }
}
