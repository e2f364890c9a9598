//! Small hands: every two-player position in which one player holds at most `m` cards, played
//! with the other player's stack dealt lazily, card by card, as play reaches it.
//!
//! Why this finds cycles: on every deck small enough to enumerate (Paulhus's decks, the Camicia
//! half deck, one of each face), the basin of every cycle with balanced deals holds a position
//! in which one player has two cards or fewer, most often one that the game passes through
//! when a player is nearly out and wins back (docs/results.md, Part 8, gives the measured
//! counts and the exception). Enumerating those positions is therefore a census of the cycles
//! whose basins reach a small hand, complete in that sense when it runs to the end.
//!
//! Why lazily: with the small hand known and the big one unknown, play decides the big
//! stack's cards only as they are laid, so a game that ends (the small player runs out)
//! before the big player has laid all its cards decides every arrangement of the cards it
//! never reached at once. The search is a depth-first walk over the big stack's cards in the
//! order they are laid; each unit of work fixes the small hand, the leader and the big stack's
//! first cards, so units are independent and merged in order (results do not depend on the
//! thread count).
//!
//! Why not a kernel: bmn-kernel plays whole deals, every card known before the first trick;
//! here the big stack's next card is a branch of the walk, chosen when play reaches it, so the
//! walk plays its own small engine (`State`) under whatever penalty table the rules give.
//!
//! This path only proposes: once every card is known, a game still going after
//! [`KNOWN_CAP`] tricks goes to bmn-core's `play_out`, which alone decides that it cycles and
//! names the cycle.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, Ordering};

use bmn_core::{CycleId, Deck, Kind, Outcome, Player, Position, Rules, Span, play_out};
use bmn_job::Job;

use crate::error::CensusError;
use crate::progress::{DecidedSum, HandsProgress};

/// The most cards a deck may have here (ring buffers of this size).
pub const MAX_CARDS: usize = 64;
const MASK: usize = MAX_CARDS - 1;
/// Tricks a fully known game is played by this module before bmn-core takes over.
pub const KNOWN_CAP: u32 = 2_000;
/// Cards of the big stack fixed by a unit, at least.
const PREFIX: usize = 3;
/// Marks a kind that is not a penalty card in [`Table`].
const PLAIN: u8 = u8::MAX;
/// No debt in force.
const NO_CLAIM: u8 = 2;

/// What to enumerate.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HandsConfig {
    pub deck: Deck,
    pub rules: Rules,
    /// The small hand's largest size.
    pub max_hand: usize,
}

/// A cycle reached from the small hands.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HandsCycle {
    pub period: Span,
    pub representative: Position,
    /// The first starting position (in unit order) whose game reaches it.
    pub first: Position,
    /// Starting positions of the enumeration whose games reach it.
    pub starts: u64,
}

/// What an enumeration found.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct HandsResult {
    pub cycles: BTreeMap<CycleId, HandsCycle>,
    /// The units planned: 0 where a stop came while they were being planned (every valid
    /// configuration has at least one).
    pub units: u64,
    pub units_done: u64,
    /// Cards the walk decided (its work).
    pub nodes: u64,
    /// Positions played with every card known.
    pub leaves: u64,
    /// Positions of the subspace, and those decided so far (a game that ends before the big
    /// stack is all laid decides every arrangement of the rest at once).
    pub positions: f64,
    pub decided: f64,
}

/// Cards a walk decides between reports of its decided positions (and checks of its stop):
/// often enough to move a display many times a second, rarely enough to cost nothing.
const REPORT_NODES: u64 = 4096;

/// Small hands cut into units between two checks of the stop while the units are planned
/// (milliseconds of work).
const PLAN_CHECK: usize = 256;

/// Cards laid with every card known (no branch, so no node counted) between two checks of the
/// stop: a walk of large hands plays up to [`KNOWN_CAP`] tricks between nodes.
const REPORT_CARDS: u64 = 1 << 20;

/// Positions a unit holds at most on small decks (under a second of work).
const UNIT_POSITIONS: f64 = 2e7;
/// Units aimed at (32 bytes each; cutting overshoots by up to the number of kinds); on big
/// decks units grow to keep to it.
const MAX_UNITS: usize = 500_000;
/// Longest prefix a unit key holds (four bits a card).
const PACKED: usize = 32;

/// A unit, packed: small hand (index), leader, the big stack's first cards.
#[derive(Clone, Copy)]
struct UnitKey {
    hand: u16,
    leader: u8,
    len: u8,
    prefix: u128,
}

/// The units of an enumeration (see [`HandsConfig::plan`]).
struct Plan {
    hands: Vec<Vec<u8>>,
    units: Vec<UnitKey>,
    stride: u128,
    /// Positions in the subspace ([`HandsConfig::positions`]).
    positions: f64,
}

fn gcd(a: u128, b: u128) -> u128 {
    if b == 0 { a } else { gcd(b, a % b) }
}

/// One unit: a small hand, who leads, the big stack's first cards.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Unit {
    hand: Vec<u8>,
    /// 0: the big hand (player 1) leads; 1: the small hand (player 2) leads.
    leader: u8,
    prefix: Vec<u8>,
}

/// Penalty per kind index, [`PLAIN`] for a plain card.
type Table = [u8; 6];

fn table(rules: &Rules) -> Table {
    let mut t = [PLAIN; 6];
    for k in Kind::ALL {
        if let Some(v) = rules.penalties.value(k) {
            t[k.index()] = v;
        }
    }
    t
}

impl HandsConfig {
    /// Refuses what [`hands`] cannot enumerate (a deck over [`MAX_CARDS`] cards, a small hand
    /// of no cards or of the whole deck), so that a front end can refuse it before running
    /// anything else; [`hands`] checks it again.
    pub fn check(&self) -> Result<(), CensusError> {
        self.validate().map(|_| ())
    }

    fn validate(&self) -> Result<Table, CensusError> {
        let n = self.deck.len() as usize;
        if n > MAX_CARDS {
            return Err(CensusError::TooLarge {
                what: "a deck for the small-hand enumeration",
                max: MAX_CARDS as u64,
                found: n as u64,
            });
        }
        if self.max_hand == 0 || self.max_hand >= n {
            return Err(CensusError::Invalid(format!(
                "the small hand must hold between 1 and {} cards (the deck has {n}), not {}",
                n.saturating_sub(1),
                self.max_hand
            )));
        }
        Ok(table(&self.rules))
    }

    /// Every small hand of 1..=max_hand cards the deck can give, shortest first, in card order.
    fn hands(&self) -> Vec<Vec<u8>> {
        let counts = self.deck.counts();
        let mut all = Vec::new();
        let mut layer: Vec<Vec<u8>> = vec![Vec::new()];
        for _ in 0..self.max_hand {
            let mut next = Vec::new();
            for h in &layer {
                for k in 0..6u8 {
                    let used = h.iter().filter(|&&c| c == k).count() as u32;
                    if used < counts[usize::from(k)] {
                        let mut g = h.clone();
                        g.push(k);
                        next.push(g);
                    }
                }
            }
            all.extend(next.iter().cloned());
            layer = next;
        }
        all
    }

    /// How the subspace is cut into units: each small hand, each leader, and the big stack's
    /// first cards, as many as it takes for a unit to hold at most `target` positions (more
    /// where plain cards are many: a prefix of plain cards leaves the most arrangements). A
    /// unit then takes seconds on any deck, and at most [`MAX_UNITS`] units cover the subspace.
    ///
    /// Cutting takes seconds for a large `max_hand`: `go` is asked every [`PLAN_CHECK`] hands,
    /// and a false answer (a stop) ends the plan with no units.
    /// `hands` and `total` are [`Self::hands`] and [`Self::positions`], which the caller has
    /// already computed to report progress while planning.
    fn plan(&self, hands: Vec<Vec<u8>>, total: f64, go: &mut dyn FnMut() -> bool) -> Option<Plan> {
        let target = UNIT_POSITIONS.max(total / MAX_UNITS as f64);
        let mut units = Vec::new();
        for (index, hand) in hands.iter().enumerate() {
            if index % PLAN_CHECK == 0 && !go() {
                return None;
            }
            for leader in 0..2u8 {
                let mut prefix = Vec::new();
                self.cut(
                    index,
                    leader,
                    self.budget(hand),
                    &mut prefix,
                    target,
                    &mut units,
                );
            }
        }
        let count = units.len() as u128;
        // Units run in the order j -> j * stride mod count, a bijection that spreads a partial
        // run (`--hands-time`) over every hand and leader instead of the first few.
        let mut stride = (count * 5 / 8) | 1;
        while gcd(stride, count) != 1 {
            stride += 2;
        }
        Some(Plan {
            hands,
            units,
            stride: stride % count.max(1),
            positions: total,
        })
    }

    /// Adds the units below `prefix` (the big stack's first cards, `budget` left after them).
    fn cut(
        &self,
        hand: usize,
        leader: u8,
        budget: [u32; 6],
        prefix: &mut Vec<u8>,
        target: f64,
        units: &mut Vec<UnitKey>,
    ) {
        let left: u32 = budget.iter().sum();
        if left == 0
            || prefix.len() >= PACKED
            || (prefix.len() >= PREFIX.min(left as usize) && arrangements(&budget) <= target)
        {
            let mut packed = 0u128;
            for (i, &c) in prefix.iter().enumerate() {
                packed |= u128::from(c) << (4 * i);
            }
            units.push(UnitKey {
                hand: hand as u16,
                leader,
                len: prefix.len() as u8,
                prefix: packed,
            });
            return;
        }
        for c in 0..6u8 {
            if budget[usize::from(c)] > 0 {
                let mut b = budget;
                b[usize::from(c)] -= 1;
                prefix.push(c);
                self.cut(hand, leader, b, prefix, target, units);
                prefix.pop();
            }
        }
    }

    /// The `j`-th unit to run.
    fn unit(&self, plan: &Plan, j: u64) -> Unit {
        let key = plan.units[((u128::from(j) * plan.stride) % plan.units.len() as u128) as usize];
        Unit {
            hand: plan.hands[usize::from(key.hand)].clone(),
            leader: key.leader,
            prefix: (0..usize::from(key.len))
                .map(|i| ((key.prefix >> (4 * i)) & 0xf) as u8)
                .collect(),
        }
    }

    /// The big hand's cards when the small one holds `hand`.
    fn budget(&self, hand: &[u8]) -> [u32; 6] {
        let mut b = self.deck.counts();
        for &c in hand {
            b[usize::from(c)] -= 1;
        }
        b
    }

    /// Positions in the enumeration's subspace (each small hand, either leader, every
    /// arrangement of the rest).
    pub fn positions(&self) -> f64 {
        self.positions_of(&self.hands())
    }

    /// [`Self::positions`] from the small hands already listed.
    fn positions_of(&self, hands: &[Vec<u8>]) -> f64 {
        hands
            .iter()
            .map(|h| 2.0 * arrangements(&self.budget(h)))
            .sum()
    }
}

/// Arrangements of a multiset (as a float: only for progress and projections).
fn arrangements(counts: &[u32; 6]) -> f64 {
    let mut total = 1.0f64;
    let mut n = 0u32;
    for &c in counts {
        for i in 1..=c {
            n += 1;
            total = total * f64::from(n) / f64::from(i);
        }
    }
    total
}

/// A stack of at most [`MAX_CARDS`] cards, front first.
#[derive(Clone, Copy)]
struct HandRing {
    cards: [u8; MAX_CARDS],
    head: u8,
    len: u8,
}

impl HandRing {
    const EMPTY: HandRing = HandRing {
        cards: [0; MAX_CARDS],
        head: 0,
        len: 0,
    };

    fn push(&mut self, c: u8) {
        let i = (usize::from(self.head) + usize::from(self.len)) & MASK;
        self.cards[i] = c;
        self.len += 1;
    }

    fn pop(&mut self) -> Option<u8> {
        if self.len == 0 {
            return None;
        }
        let c = self.cards[usize::from(self.head)];
        self.head = ((usize::from(self.head) + 1) & MASK) as u8;
        self.len -= 1;
        Some(c)
    }
}

/// A game in progress with part of the big stack unknown.
#[derive(Clone, Copy)]
struct State {
    /// `[big player's known tail, small player's stack]`: player 1 is the big hand.
    stacks: [HandRing; 2],
    /// The big stack's cards not reached yet, by kind, and how many.
    budget: [u32; 6],
    left: u32,
    pile: HandRing,
    claim: u8,
    owed: u8,
    turn: u8,
    /// Tricks played since every card became known.
    known_tricks: u32,
}

impl State {
    /// `turn` lays `c`.
    fn lay(&mut self, table: &Table, c: u8) {
        self.pile.push(c);
        match table[usize::from(c)] {
            0 => self.take(self.turn),
            PLAIN if self.claim == NO_CLAIM => self.turn ^= 1,
            PLAIN if self.owed == 1 => self.take(self.claim),
            PLAIN => self.owed -= 1,
            v => {
                self.claim = self.turn;
                self.owed = v;
                self.turn ^= 1;
            }
        }
    }

    fn take(&mut self, p: u8) {
        while let Some(c) = self.pile.pop() {
            self.stacks[usize::from(p)].push(c);
        }
        self.claim = NO_CLAIM;
        self.turn = p;
        if self.left == 0 {
            self.known_tricks += 1;
        }
    }
}

/// What one unit found.
#[derive(Default)]
struct UnitResult {
    /// Abandoned part-way (a stop): the scheduler drops its finds, and every later unit's.
    aborted: bool,
    /// Units merged (in the merged result).
    merged: u64,
    cycles: BTreeMap<CycleId, HandsCycle>,
    nodes: u64,
    leaves: u64,
    decided: f64,
}

struct Walk<'a> {
    table: Table,
    rules: Rules,
    unit: &'a Unit,
    /// Raised: the unit is abandoned (and not merged), so that a stop takes effect at once.
    stop: &'a AtomicBool,
    /// Where the walk reports its decided positions every [`REPORT_NODES`] cards, and how
    /// many it has reported.
    report: &'a (dyn Fn(f64) + Sync),
    reported: f64,
    /// The big stack's cards as laid so far.
    laid: Vec<u8>,
    /// Cards laid since the stop was last checked.
    cards: u64,
    out: UnitResult,
}

impl Walk<'_> {
    fn dfs(&mut self, mut s: State) {
        loop {
            if s.turn == 1 {
                match s.stacks[1].pop() {
                    Some(c) => s.lay(&self.table, c),
                    None => return self.ended(&s),
                }
            } else if s.left > 0 {
                return self.branch(&s);
            } else {
                match s.stacks[0].pop() {
                    Some(c) => s.lay(&self.table, c),
                    None => return self.ended(&s),
                }
            }
            self.cards += 1;
            if s.known_tricks >= KNOWN_CAP {
                return self.exact();
            }
        }
    }

    /// The big player lays its next unknown card: every kind it can be.
    fn branch(&mut self, s: &State) {
        let forced = self.unit.prefix.get(self.laid.len()).copied();
        for c in 0..6u8 {
            if s.budget[usize::from(c)] == 0 || forced.is_some_and(|f| f != c) {
                continue;
            }
            if self.out.nodes.is_multiple_of(REPORT_NODES) || self.cards >= REPORT_CARDS {
                self.cards = 0;
                self.flush();
                if self.stop.load(Ordering::Relaxed) {
                    self.out.aborted = true;
                }
            }
            if self.out.aborted {
                return;
            }
            let mut next = *s;
            next.budget[usize::from(c)] -= 1;
            next.left -= 1;
            next.lay(&self.table, c);
            self.out.nodes += 1;
            self.laid.push(c);
            if next.left == 0 {
                self.out.leaves += 1;
            }
            self.dfs(next);
            self.laid.pop();
        }
    }

    /// Reports the positions decided since the last report.
    fn flush(&mut self) {
        if self.out.decided > self.reported {
            (self.report)(self.out.decided - self.reported);
            self.reported = self.out.decided;
        }
    }

    /// The game ended: every arrangement of the cards never reached ends the same way (those
    /// of this unit: the ones that go on with the rest of its prefix).
    fn ended(&mut self, s: &State) {
        let mut rest = s.budget;
        for &c in self.unit.prefix.iter().skip(self.laid.len()) {
            rest[usize::from(c)] -= 1;
        }
        self.out.decided += arrangements(&rest);
    }

    /// A game still going with every card known: bmn-core plays it from its start.
    fn exact(&mut self) {
        self.out.decided += 1.0;
        let start = self.start();
        if let Outcome::Cycle(c) = play_out(&self.rules, &start) {
            self.out
                .cycles
                .entry(c.id)
                .or_insert_with(|| HandsCycle {
                    period: c.period,
                    representative: c.representative.clone(),
                    first: start.clone(),
                    starts: 0,
                })
                .starts += 1;
        }
    }

    fn start(&self) -> Position {
        let kinds = |v: &[u8]| -> Vec<Kind> { v.iter().map(|&c| Kind::from_code(c)).collect() };
        Position::new(
            vec![kinds(&self.laid), kinds(&self.unit.hand)],
            Player(usize::from(self.unit.leader)),
        )
        .expect("both hands hold cards")
    }
}

/// Plays `unit`, reporting its decided positions to `report` as it goes (the last report when
/// it ends: the reports sum to its `decided`).
fn run_unit(
    config: &HandsConfig,
    table: Table,
    unit: &Unit,
    stop: &AtomicBool,
    report: &(dyn Fn(f64) + Sync),
) -> UnitResult {
    let mut small = HandRing::EMPTY;
    for &c in &unit.hand {
        small.push(c);
    }
    let budget = config.budget(&unit.hand);
    let state = State {
        stacks: [HandRing::EMPTY, small],
        budget,
        left: budget.iter().sum(),
        pile: HandRing::EMPTY,
        claim: NO_CLAIM,
        owed: 0,
        turn: unit.leader,
        known_tricks: 0,
    };
    let mut walk = Walk {
        table,
        rules: config.rules,
        unit,
        stop,
        report,
        reported: 0.0,
        laid: Vec::new(),
        cards: 0,
        out: UnitResult::default(),
    };
    walk.dfs(state);
    walk.flush();
    walk.out
}

/// Enumerates every position of the subspace on `threads` threads, stopping early once the
/// job stops (the result then covers the units merged so far; a unit under way reads the
/// job's stop flag and is dropped); `progress(job, ..)` is called as units finish, at least
/// every 200 ms while they run and every few milliseconds while they are planned (with no
/// unit yet), and stops the run when it returns false. The result depends only on `config`
/// and on how many units ran.
pub fn hands(
    config: &HandsConfig,
    threads: usize,
    job: &mut Job,
    mut progress: impl FnMut(&mut Job, &HandsProgress) -> bool,
) -> Result<HandsResult, CensusError> {
    let table = config.validate()?;
    let small = config.hands();
    let positions = config.positions_of(&small);
    let planning = HandsProgress {
        units_done: 0,
        units: 0,
        decided: 0.0,
        under_way: 0.0,
        positions,
    };
    let Some(plan) = config.plan(small, positions, &mut || progress(job, &planning)) else {
        return Ok(HandsResult {
            positions,
            ..HandsResult::default()
        });
    };
    let total = plan.units.len() as u64;
    let tally = DecidedSum::default();
    let report = |decided: f64| tally.add(decided);
    let mut merged = UnitResult::default();
    let stop = job.stop_flag();
    bmn_job::run_units(
        0..total,
        threads,
        job,
        &mut merged,
        |all: &mut UnitResult, u: UnitResult| {
            all.merged += 1;
            for (id, c) in u.cycles {
                match all.cycles.get_mut(&id) {
                    Some(seen) => seen.starts += c.starts,
                    None => {
                        all.cycles.insert(id, c);
                    }
                }
            }
            all.nodes += u.nodes;
            all.leaves += u.leaves;
            all.decided += u.decided;
        },
        |j| {
            let unit = run_unit(config, table, &config.unit(&plan, j), stop, &report);
            (!unit.aborted).then_some(unit)
        },
        |job, all: &UnitResult, next| {
            // Every unit's reports sum to its `decided`: the tally holds the merged units' too.
            progress(
                job,
                &HandsProgress {
                    units_done: next,
                    units: total,
                    decided: all.decided,
                    under_way: (tally.get() - all.decided).max(0.0),
                    positions: plan.positions,
                },
            )
        },
    );
    Ok(HandsResult {
        cycles: merged.cycles,
        units: total,
        units_done: merged.merged,
        nodes: merged.nodes,
        leaves: merged.leaves,
        positions: plan.positions,
        decided: merged.decided,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use bmn_core::Game;

    /// The whole enumeration on `threads` threads, never stopped, reporting to no one.
    fn quietly(config: &HandsConfig, threads: usize) -> Result<HandsResult, CensusError> {
        hands(
            config,
            threads,
            &mut Job::quiet(&AtomicBool::new(false)),
            |_, _| true,
        )
    }

    fn config(deck: &str, m: usize) -> HandsConfig {
        HandsConfig {
            deck: Deck::parse(deck).unwrap(),
            rules: Rules::STANDARD,
            max_hand: m,
        }
    }

    /// Plays a known position with this module's rules to its end or the cap.
    fn lazy_outcome(position: &Position, rules: &Rules) -> Option<(usize, u32)> {
        let t = table(rules);
        let mut s = State {
            stacks: [HandRing::EMPTY, HandRing::EMPTY],
            budget: [0; 6],
            left: 0,
            pile: HandRing::EMPTY,
            claim: NO_CLAIM,
            owed: 0,
            turn: position.leader().index() as u8,
            known_tricks: 0,
        };
        for p in 0..2 {
            for &k in position.stack(Player(p)) {
                s.stacks[p].push(k.index() as u8);
            }
        }
        loop {
            let p = usize::from(s.turn);
            match s.stacks[p].pop() {
                Some(c) => s.lay(&t, c),
                // The other player takes the pile, the game's last trick.
                None => return Some((1 - p, s.known_tricks + 1)),
            }
            if s.pile.len == 0 && (s.stacks[0].len == 0 || s.stacks[1].len == 0) {
                let w = if s.stacks[0].len == 0 { 1 } else { 0 };
                return Some((w, s.known_tricks));
            }
            if s.known_tricks >= KNOWN_CAP {
                return None;
            }
        }
    }

    /// The module's trick rules against the reference engine on random positions of several
    /// decks and penalty tables: same winner, same number of tricks.
    #[test]
    fn plays_as_the_reference_engine() {
        let mut x = 7u64;
        let tables = [Rules::STANDARD, {
            let mut r = Rules::STANDARD;
            r.penalties = bmn_core::PenaltyTable::parse("K3,J2,Q1,A0").unwrap();
            r
        }];
        for deck in ["2J,2Q,2K,2A,10-", "4J,4Q,4K,28-", "1J,1Q,1K,1A,8-"] {
            let cards = Deck::parse(deck).unwrap().cards();
            for rules in &tables {
                for _ in 0..3000 {
                    let mut c = cards.clone();
                    for i in (1..c.len()).rev() {
                        x = x
                            .wrapping_mul(6364136223846793005)
                            .wrapping_add(1442695040888963407);
                        c.swap(i, (x >> 33) as usize % (i + 1));
                    }
                    x = x.wrapping_mul(6364136223846793005).wrapping_add(1);
                    let cut = 1 + (x >> 40) as usize % (c.len() - 1);
                    let leader = Player((x >> 20) as usize % 2);
                    let p =
                        Position::new(vec![c[..cut].to_vec(), c[cut..].to_vec()], leader).unwrap();
                    let mut g = Game::new(*rules, p.clone());
                    g.run(u64::from(KNOWN_CAP));
                    match lazy_outcome(&p, rules) {
                        Some((w, tricks)) => {
                            assert_eq!(g.winner(), Some(Player(w)), "{p}");
                            assert_eq!(g.tricks(), u64::from(tricks), "{p}");
                        }
                        None => assert!(g.winner().is_none(), "{p}"),
                    }
                }
            }
        }
    }

    /// Every position of a tiny subspace, played one by one with bmn-core, reaches exactly the
    /// cycles the lazy enumeration reports, each from as many starting positions.
    #[test]
    fn equals_playing_every_position() {
        let config = config("2J,2Q,2K,2A,6-", 2);
        let found = quietly(&config, 2).unwrap();
        let mut want: BTreeMap<CycleId, u64> = BTreeMap::new();
        let mut positions = 0u64;
        for hand in config.hands() {
            let budget = config.budget(&hand);
            let mut arr: Vec<u8> = (0..6u8)
                .flat_map(|k| std::iter::repeat_n(k, budget[usize::from(k)] as usize))
                .collect();
            loop {
                for leader in 0..2 {
                    positions += 1;
                    let k =
                        |v: &[u8]| -> Vec<Kind> { v.iter().map(|&c| Kind::from_code(c)).collect() };
                    let p = Position::new(vec![k(&arr), k(&hand)], Player(leader)).unwrap();
                    if let Outcome::Cycle(c) = play_out(&Rules::STANDARD, &p) {
                        *want.entry(c.id).or_default() += 1;
                    }
                }
                if !bmn_deals::next_arrangement(&mut arr) {
                    break;
                }
            }
        }
        let got: BTreeMap<CycleId, u64> =
            found.cycles.iter().map(|(id, c)| (*id, c.starts)).collect();
        assert_eq!(got, want);
        assert_eq!(found.units_done, found.units);
        assert!((found.decided - positions as f64).abs() < 0.5);
        assert!((found.positions - positions as f64).abs() < 0.5);
        // Paulhus's n = 6 deck: 18 cycles reached by deals (Table 1), all of them here.
        assert_eq!(got.len(), 18);
    }

    /// The result is a function of the configuration: one thread or three, the same cycles,
    /// counts and first positions.
    #[test]
    fn any_thread_count_gives_the_same_result() {
        let config = config("2J,2Q,2K,2A,7-", 2);
        let run = |t| quietly(&config, t).unwrap();
        let (one, three) = (run(1), run(3));
        assert_eq!(one.cycles, three.cycles);
        assert_eq!((one.nodes, one.leaves), (three.nodes, three.leaves));
        assert_eq!(one.cycles.len(), 90);
    }

    /// What the progress calls say of merged units is the result's count; the positions of
    /// units under way come apart (a stop drops them), and nothing is counted twice.
    #[test]
    fn progress_counts_merged_units_apart_from_those_under_way() {
        let config = config("2J,2Q,2K,2A,7-", 2);
        let mut seen = Vec::new();
        let done = hands(
            &config,
            3,
            &mut Job::quiet(&AtomicBool::new(false)),
            |_, p| {
                seen.push(*p);
                true
            },
        )
        .unwrap();
        let last = seen.last().copied().expect("progress was called");
        assert_eq!(last.units_done, done.units);
        assert_eq!(last.decided, done.decided);
        assert_eq!(last.under_way, 0.0);
        for p in &seen {
            assert!(p.under_way >= 0.0 && p.decided + p.under_way <= done.decided + 0.5);
        }
        assert!(seen.windows(2).all(|w| w[1].decided >= w[0].decided));
    }

    #[test]
    fn refuses_what_it_cannot_enumerate() {
        assert!(quietly(&config("2J,2-", 4), 1).is_err());
        assert!(quietly(&config("2J,2-", 0), 1).is_err());
        assert!(quietly(&config("2xstandard", 2), 1).is_err());
    }
}

#[cfg(test)]
mod progress_tests {
    use super::*;
    use std::sync::Mutex;

    #[test]
    fn a_stop_while_the_units_are_planned_ends_the_run_with_none() {
        // Cutting Camicia's subspace of hands of 8 cards takes seconds: the progress callback
        // is asked while it is planned, and a false answer ends the run at once, with no unit
        // (so that no caller can take it for a run that planned nothing and finished).
        let mut asked = 0;
        let r = hands(
            &HandsConfig {
                deck: Deck::CAMICIA,
                rules: Rules::STANDARD,
                max_hand: 8,
            },
            2,
            &mut Job::quiet(&AtomicBool::new(false)),
            |_, p| {
                asked += 1;
                assert_eq!((p.units, p.units_done), (0, 0));
                false
            },
        )
        .unwrap();
        assert_eq!(asked, 1);
        assert_eq!((r.units, r.units_done, r.decided), (0, 0, 0.0));
        assert!(r.positions > 1e15);
    }

    /// A long unit reports the positions it decides while it runs: stopped as soon as its
    /// first report arrives, it has not finished, and its reports sum to its count. Unit 6
    /// of Camicia's hands of at most two cards is its first long one (units 0 to 5 take a few
    /// cards each; it takes minutes): the one a display counting units stuck on.
    #[test]
    fn a_long_unit_reports_before_it_ends() {
        let config = HandsConfig {
            deck: Deck::CAMICIA,
            rules: Rules::STANDARD,
            max_hand: 2,
        };
        let plan = config
            .plan(config.hands(), config.positions(), &mut || true)
            .unwrap();
        let unit = config.unit(&plan, 6);
        let (stop, batches) = (AtomicBool::new(false), Mutex::new(Vec::new()));
        let report = |d: f64| {
            batches.lock().unwrap().push(d);
            stop.store(true, Ordering::Relaxed);
        };
        let out = run_unit(&config, table(&config.rules), &unit, &stop, &report);
        let batches = batches.into_inner().unwrap();
        assert!(out.aborted, "the unit ended before its first report");
        assert!(!batches.is_empty() && batches[0] > 0.0);
        assert_eq!(batches.iter().sum::<f64>(), out.decided);
    }
}
