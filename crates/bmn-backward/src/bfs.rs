//! Backward breadth-first search: every position that reaches a set of sources, level by level.
//!
//! Level `d` holds the positions exactly `d` tricks before the nearest source. Memory is the
//! visited set (one [`PackedPosition`] each) plus the current and next levels; the search
//! stops at a limit on positions visited and says so instead of running out of memory.

use std::cell::Cell;

use bmn_core::{Position, Rules};

use crate::error::BackwardError;
use crate::packed::{PackedPosition, PackedSet};
use crate::predecessors::for_each_predecessor_until;

/// How a backward search ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct BfsEnd {
    /// Distinct positions visited, the sources included.
    pub positions: u64,
    /// Levels expanded: the deepest position found is this many tricks before a source.
    pub depth: u64,
    /// A new position was found when `limit` positions had been visited already: the search
    /// was cut short.
    pub cut_by_limit: bool,
    /// `max_depth` stopped the search with positions still unexpanded.
    pub cut_by_depth: bool,
    /// `progress` asked the search to stop (the caller was stopped).
    pub stopped: bool,
}

/// Packs `position`, or says why it cannot be.
pub(crate) fn pack(position: &Position) -> Result<PackedPosition, BackwardError> {
    PackedPosition::pack(position).ok_or(BackwardError::TooLarge {
        cards: position.card_count(),
        players: position.players(),
        max: PackedPosition::MAX_SYMBOLS,
    })
}

/// Searches backward from `sources` (distinct or not) until no new position appears, `limit`
/// positions have been visited, or `max_depth` levels have been expanded. Calls `found` with
/// each distinct position once (sources first, at depth 0) and `progress` with the count of
/// positions visited every few milliseconds of work; `progress` returning false stops the
/// search where it is.
pub(crate) fn backward_bfs(
    rules: &Rules,
    sources: &[Position],
    limit: u64,
    max_depth: Option<u64>,
    mut found: impl FnMut(&Position, u64),
    mut progress: impl FnMut(u64) -> bool,
) -> Result<BfsEnd, BackwardError> {
    let mut visited = PackedSet::default();
    let mut level: Vec<PackedPosition> = Vec::new();
    let mut end = BfsEnd {
        positions: 0,
        depth: 0,
        cut_by_limit: false,
        cut_by_depth: false,
        stopped: false,
    };
    for source in sources {
        let key = pack(source)?;
        if visited.len() as u64 >= limit {
            end.cut_by_limit |= !visited.contains(&key);
            continue;
        }
        if visited.insert(key) {
            level.push(key);
            found(source, 0);
        }
    }
    // A report every 2^12 positions expanded, and from inside an expansion every fraction of a
    // millisecond of its search (one position of many players has millions of predecessors,
    // or searches for seconds between two): the caller hears, and may stop, at once.
    let mut expanded = 0u64;
    'search: while !level.is_empty() && !end.cut_by_limit {
        if max_depth.is_some_and(|d| end.depth >= d) {
            end.cut_by_depth = true;
            break;
        }
        let depth = end.depth + 1;
        let mut next = Vec::new();
        for key in &level {
            let mut full = false;
            let (count, stopped) = (Cell::new(visited.len() as u64), Cell::new(false));
            let mut beat = || {
                stopped.set(stopped.get() || !progress(count.get()));
                !stopped.get()
            };
            for_each_predecessor_until(rules, &key.unpack(), &mut beat, |p| {
                // Predecessors hold the same cards and players, so they pack if the source did.
                let k = PackedPosition::pack(&p).expect("same size as a packed position");
                if visited.len() as u64 >= limit {
                    // Full: a new position means the search is cut short.
                    full = !visited.contains(&k);
                } else if visited.insert(k) {
                    found(&p, depth);
                    next.push(k);
                    count.set(visited.len() as u64);
                }
                !full
            });
            expanded += 1;
            if expanded.is_multiple_of(1 << 12) {
                beat();
            }
            let stopped = stopped.get();
            if full || stopped {
                end.cut_by_limit = full;
                end.stopped = stopped;
                end.depth = depth;
                break 'search;
            }
        }
        end.depth = if next.is_empty() { end.depth } else { depth };
        level = next;
    }
    end.positions = visited.len() as u64;
    // The last word on a search that ended: a stop asked now comes after the work.
    progress(end.positions);
    Ok(end)
}

/// `found`, each taken as long as the caller goes on: `keep_going` is asked every 64 items
/// (a search of many players may find millions of deals, each then played forward), and once
/// it says stop, or `stopped` already holds, no item more is taken and `stopped` is set.
pub(crate) fn while_going<'a, T: 'a>(
    found: Vec<T>,
    stopped: &'a mut bool,
    mut keep_going: impl FnMut() -> bool + 'a,
) -> impl Iterator<Item = T> + 'a {
    found
        .into_iter()
        .enumerate()
        .take_while(move |&(i, _)| {
            *stopped |= i % 64 == 63 && !keep_going();
            !*stopped
        })
        .map(|(_, item)| item)
}
