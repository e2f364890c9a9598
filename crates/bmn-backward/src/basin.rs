//! Basins: every position whose play reaches the same cycle (or the same final position).
//!
//! The basin of a cycle is found by exhaustive backward search from every position of the
//! cycle and, because docs/rules.md counts a cycle with its players renamed as the same cycle,
//! from every rotation of those positions too (for two players: hands and leader swapped).
//! The basin of a finishing game is the tree of its final position: every position that ends
//! in exactly that final position (no renaming: a final position names its winner).
//!
//! Casella et al., "A Non-Terminating Game of Beggar-My-Neighbor" (arXiv 2403.13855, 2024)
//! found their balanced non-terminating deals this way, backward from the positions of a
//! cycle built with their Ansatz; [`Basin::balanced`] lists the starting deals in a basin.

use std::collections::HashSet;

use bmn_core::{CycleId, Game, Outcome, Player, Position, Rules, Span, play_out};
use bmn_job::Job;

use crate::bfs::{backward_bfs, while_going};
use crate::error::BackwardError;

/// Limits of a basin search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BasinConfig {
    /// Stop after visiting this many distinct positions (memory is about 50 bytes each).
    pub limit: u64,
    /// Also return every position of the basin in [`Basin::members`] (for tests and small
    /// decks: a `Position` costs far more memory than the packed form the search keeps).
    pub keep_members: bool,
}

impl Default for BasinConfig {
    fn default() -> Self {
        BasinConfig {
            limit: 20_000_000,
            keep_members: false,
        }
    }
}

/// What the basin drains into.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BasinTarget {
    /// A cycle: its canonical id and representative, its period, and the first position on
    /// it reached from the position given.
    Cycle {
        id: CycleId,
        period: Span,
        representative: Position,
        start: Position,
    },
    /// A final position (one player holds every card, and leads).
    Final { position: Position },
}

/// A balanced starting deal in a basin (see [`is_balanced`]) and its game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BalancedDeal {
    pub deal: Position,
    /// Play from the deal to the target: the preperiod (up to the first position on the
    /// cycle) for a cycle, the whole game for a final position.
    pub length: Span,
    /// For a cycle: the deal reaches the cycle only with its players renamed (for two
    /// players, the cycle with hands and leader swapped). Always false for a final position.
    pub renamed: bool,
}

/// `{"deal","leader","tricks","cards","renamed","rank"}`: the rank (`bmn rank`, as text: it
/// can pass `u64`) is what `#K` replays.
impl serde::Serialize for BalancedDeal {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        bmn_core::serialize_fields!(serializer, "BalancedDeal", {
            "deal" => self.deal.deal_text(),
            "leader" => self.deal.leader(),
            "tricks" => self.length.tricks,
            "cards" => self.length.cards,
            "renamed" => self.renamed,
            "rank" => rank_of(&self.deal).map(|k| k.to_string()),
        })
    }
}

/// The rank of `position` among the deals of its own cards (the order `bmn exhaustive` plays
/// them in), when its hands have the sizes a deal gives (a position in mid-game has none).
pub fn rank_of(position: &Position) -> Option<bmn_deals::BigUint> {
    if !bmn_core::has_dealt_sizes(position) {
        return None;
    }
    let deck = bmn_core::Deck::of_cards(position.stacks().iter().flatten());
    bmn_deals::rank::rank(&deck.counts(), &position.codes())
}

/// The result of a basin search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Basin {
    pub target: BasinTarget,
    /// Distinct positions in the basin (visited, if cut short), the target's own included.
    pub positions: u64,
    /// Whether the search was exhaustive; false when `limit` or a stop cut it short.
    pub complete: bool,
    /// Whether the caller stopped the search (through the job).
    pub interrupted: bool,
    /// The most tricks any position found lies before the target.
    pub depth: u64,
    /// The balanced starting deals found, longest game first (then by deal text, leader).
    pub balanced: Vec<BalancedDeal>,
    /// Every position found, if [`BasinConfig::keep_members`] asked for them.
    pub members: Option<Vec<Position>>,
}

/// A basin's balanced starting deals counted the four ways of docs/rules.md, section 9.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct BalancedCounts {
    /// Any leader, reaching the cycle as given or with players renamed.
    pub all: usize,
    /// Any leader, reaching the cycle exactly as given.
    pub exact: usize,
    /// Player 1 leads, as given or renamed: Casella et al.'s count (30 for their cycle).
    pub leader_1: usize,
    /// Player 1 leads, reaching the cycle exactly as given.
    pub leader_1_exact: usize,
}

impl Basin {
    /// The balanced deals counted four ways.
    pub fn balanced_counts(&self) -> BalancedCounts {
        let count =
            |f: &dyn Fn(&BalancedDeal) -> bool| self.balanced.iter().filter(|d| f(d)).count();
        let leader_1 = |d: &BalancedDeal| d.deal.leader() == Player(0);
        BalancedCounts {
            all: self.balanced.len(),
            exact: count(&|d| !d.renamed),
            leader_1: count(&leader_1),
            leader_1_exact: count(&|d| leader_1(d) && !d.renamed),
        }
    }
}

/// Whether `position` is a balanced starting deal: every hand holds what dealing the cards
/// round-robin from the leader gives it. With `n = q * players + r` cards the `r` players
/// from the leader on hold `q + 1` and the rest `q`; for a standard two-player deck that is
/// 26/26 with either leader. (docs/rules.md, Deals.)
pub fn is_balanced(position: &Position) -> bool {
    position.card_count() >= position.players() && bmn_core::has_dealt_sizes(position)
}

/// Every renaming of seats that keeps the order of play: the rotations.
pub fn rotations(position: &Position) -> Vec<Position> {
    let players = position.players();
    (0..players)
        .map(|r| {
            let mut hands: Vec<Vec<bmn_core::Kind>> = position
                .stacks()
                .iter()
                .map(|s| s.iter().copied().collect())
                .collect();
            hands.rotate_left(r);
            let leader = (position.leader().index() + players - r) % players;
            Position::new(hands, Player(leader)).expect("a rotation of a valid position")
        })
        .collect()
}

/// Searches backward for every position whose play reaches the same cycle as `position`, or
/// the same final position if its game finishes. The job hears the count of positions
/// visited every few milliseconds; its stop ends the search with what it found.
pub fn basin(
    rules: &Rules,
    position: &Position,
    config: &BasinConfig,
    job: &mut Job,
) -> Result<Basin, BackwardError> {
    crate::bfs::pack(position)?;
    let (target, exact, sources) = match play_out(rules, position) {
        Outcome::Cycle(c) => {
            let mut on_cycle = Vec::new();
            let mut game = Game::new(*rules, c.start.clone());
            for _ in 0..c.period.tricks {
                on_cycle.push(game.position().clone());
                game.step();
            }
            let sources: Vec<Position> = on_cycle.iter().flat_map(rotations).collect();
            let exact: HashSet<Position> = on_cycle.into_iter().collect();
            let target = BasinTarget::Cycle {
                id: c.id,
                period: c.period,
                representative: c.representative,
                start: c.start,
            };
            (target, exact, sources)
        }
        Outcome::Finished { .. } => {
            let mut game = Game::new(*rules, position.clone());
            game.run(u64::MAX);
            let end = game.into_position();
            let target = BasinTarget::Final {
                position: end.clone(),
            };
            (target, HashSet::new(), vec![end])
        }
    };
    let mut balanced_found = Vec::new();
    let mut members = config.keep_members.then(Vec::new);
    let end = backward_bfs(
        rules,
        &sources,
        config.limit,
        None,
        |p, _| {
            if is_balanced(p) {
                balanced_found.push(p.clone());
            }
            if let Some(m) = members.as_mut() {
                m.push(p.clone());
            }
        },
        &mut |n| job.progress(n, None),
    )?;
    // Millions of balanced deals may have been found (many players): a stop cuts their plays
    // short.
    let mut stopped = end.stopped;
    let mut balanced: Vec<BalancedDeal> = while_going(balanced_found, &mut stopped, || {
        job.progress(end.positions, None)
    })
    .map(|deal| deal_length(rules, deal, &target, &exact))
    .collect();
    balanced.sort_by(|a, b| {
        b.length
            .cards
            .cmp(&a.length.cards)
            .then_with(|| a.deal.deal_text().cmp(&b.deal.deal_text()))
            .then_with(|| a.deal.leader().cmp(&b.deal.leader()))
    });
    Ok(Basin {
        target,
        positions: end.positions,
        complete: !end.cut_by_limit && !stopped,
        interrupted: stopped,
        depth: end.depth,
        balanced,
        members,
    })
}

/// Plays a deal of the basin forward with the reference engine to measure its game.
fn deal_length(
    rules: &Rules,
    deal: Position,
    target: &BasinTarget,
    exact: &HashSet<Position>,
) -> BalancedDeal {
    match (play_out(rules, &deal), target) {
        (Outcome::Cycle(c), BasinTarget::Cycle { .. }) => BalancedDeal {
            length: c.preperiod,
            renamed: !exact.contains(&c.start),
            deal,
        },
        (Outcome::Finished { cards, tricks, .. }, BasinTarget::Final { .. }) => BalancedDeal {
            deal,
            length: Span { tricks, cards },
            renamed: false,
        },
        // Every position found backward plays forward into the target (predecessors are
        // verified with the reference engine), so a cycle basin holds no finishing game.
        _ => unreachable!("a basin position plays into its target"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pos(text: &str, leader: usize) -> Position {
        Position::parse(text, Player(leader - 1)).unwrap()
    }

    #[test]
    fn balanced_deals() {
        assert!(is_balanced(&pos("--/JQ", 1)));
        assert!(is_balanced(&pos("--/JQ", 2)));
        assert!(!is_balanced(&pos("---/J", 1)));
        // Five cards, two players: the leader is dealt the third.
        assert!(is_balanced(&pos("---/JQ", 1)));
        assert!(!is_balanced(&pos("---/JQ", 2)));
        assert!(is_balanced(&pos("-/J/Q-", 3)));
        assert!(!is_balanced(&pos("/J/Q", 2)));
    }

    #[test]
    fn rotations_rename_seats() {
        let r: Vec<String> = rotations(&pos("J/Q/K", 1))
            .iter()
            .map(ToString::to_string)
            .collect();
        assert_eq!(
            r,
            ["J/Q/K (leader 1)", "Q/K/J (leader 3)", "K/J/Q (leader 2)"]
        );
    }
}
