//! The census's answer: what each method did, the catalogue with each cycle's class, recall,
//! the estimate and completeness in words, as JSON and as text.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

use bmn_census::{CensusCycle, Chapman, Classes, Method, PeriodCount, Recall};
use bmn_core::CycleId;
use serde::Serialize;

use super::CensusPlan;

use crate::json::LongGameJson;
use crate::plural;

/// Cycles the text lists (the JSON lists all).
const TEXT_CYCLES: usize = 20;

/// `pieces` in a census.
#[derive(Serialize, Clone, Debug)]
pub struct PiecesRun {
    /// Distinct cycles the factory reached.
    pub distinct_cycle_count: usize,
    pub balanced_cycles: usize,
    pub elapsed_seconds: f64,
}

/// `hands` in a census.
#[derive(Serialize, Clone, Debug)]
pub struct HandsRun {
    pub max_hand: usize,
    /// Whether every position of the subspace was decided.
    pub complete: bool,
    pub units: u64,
    pub units_done: u64,
    /// Positions in the subspace, and decided.
    pub positions: f64,
    pub decided: f64,
    /// Distinct cycles reached from the positions decided.
    pub distinct_cycle_count: usize,
    pub balanced_cycles: usize,
    pub elapsed_seconds: f64,
    /// At this run's rate, the seconds the whole subspace would take on these threads: a lower
    /// estimate, since the units a partial run finishes first are the quick ones.
    pub projected_seconds: f64,
}

impl HandsRun {
    /// What the whole subspace would take, in words: nothing to project from where the run
    /// decided no position (stopped while its units were planned).
    fn projection(&self) -> String {
        if self.projected_seconds.is_finite() {
            format!(
                "would take at least about {}",
                crate::words::duration(self.projected_seconds)
            )
        } else {
            "cannot be projected (no position was decided)".into()
        }
    }
}

/// `deals` in a census.
#[derive(Serialize, Clone, Debug)]
pub struct DealsRun {
    pub deals: u64,
    pub cycling_deals: u64,
    /// Distinct cycles the deals reach.
    pub distinct_cycle_count: usize,
    /// Deals the player who does not lead wins, over every deal; with `longest` (the longest
    /// finished game, as the enumeration dealt it: its `leader` led) and `mean_cards` (over
    /// finished games), null where the reference engine played the deals (more than two
    /// players).
    pub p_second_wins: Option<f64>,
    pub longest: Option<LongGameJson>,
    pub mean_cards: Option<f64>,
    /// The shards' result files it was read from (`--enumeration`); empty where it was
    /// played here.
    pub enumeration_files: Vec<String>,
    /// The time to play it here, or the shards' summed time where it was read from files.
    pub elapsed_seconds: f64,
}

/// The census's answer.
#[derive(Serialize, Clone, Debug)]
pub struct CensusReport {
    pub deck: String,
    pub players: usize,
    /// The rules the games were played by (a catalogue's basins and deals hold only under them).
    pub penalties: String,
    pub on_empty: String,
    pub seed: u64,
    pub methods: Vec<String>,
    /// What each method did (null when it did not run).
    pub pieces_run: Option<PiecesRun>,
    pub hands_run: Option<HandsRun>,
    pub deals_run: Option<DealsRun>,
    /// Distinct cycles reached by any method, with or without balanced deals.
    pub cycles_found: usize,
    pub balanced_cycles: usize,
    pub balanced_deals: usize,
    /// The catalogue's cycles and deals by period in tricks, shortest first.
    pub by_period: Vec<PeriodCount>,
    /// The catalogue's cycles and deals by class (a cycle can be of both named classes).
    pub by_class: Classes,
    /// Every cycle with balanced deals, most deals first (then by id).
    pub catalogue: Vec<CensusCycle>,
    /// Per method, against `deals` (when it ran to the end).
    pub recall: Option<BTreeMap<String, Recall>>,
    /// Null unless both `pieces` and `hands` reached balanced cycles.
    pub estimate: Option<Chapman>,
    /// Every deal of the deck was played (here or in `--enumeration`'s files): the counts
    /// are the deck's, not a floor.
    pub exact: bool,
    /// How complete the census is, in words.
    pub completeness: String,
    pub interrupted: bool,
    pub elapsed_seconds: f64,
}

/// What each method did (`None`: it did not run).
pub(super) struct Runs {
    pub pieces: Option<PiecesRun>,
    pub hands: Option<HandsRun>,
    pub deals: Option<DealsRun>,
}

/// The report from the stages' results: recall against `truth` (each cycle's deals, where
/// every deal was played or read), the estimate, completeness in words.
pub(super) fn assemble(
    plan: &CensusPlan,
    mut runs: Runs,
    cycles_found: usize,
    catalogue: Vec<CensusCycle>,
    truth: Option<BTreeMap<CycleId, u64>>,
    interrupted: bool,
    elapsed_seconds: f64,
) -> CensusReport {
    let by = |m: Method| -> BTreeSet<CycleId> {
        catalogue
            .iter()
            .filter(|c| c.found_by.contains(&m))
            .map(|c| c.id)
            .collect()
    };
    let (caught_p, caught_h) = (by(Method::Pieces), by(Method::Hands));
    if let Some(p) = &mut runs.pieces {
        p.balanced_cycles = caught_p.len();
    }
    if let Some(h) = &mut runs.hands {
        h.balanced_cycles = caught_h.len();
    }
    let recall = truth.as_ref().map(|truth| {
        [Method::Pieces, Method::Hands]
            .into_iter()
            .filter(|m| plan.methods.contains(m))
            .map(|m| {
                let r = bmn_census::recall(&by(m), truth);
                (m.name().to_string(), r)
            })
            .collect()
    });
    // Two catches say something about what neither caught only if both caught something.
    let estimate = (!caught_p.is_empty() && !caught_h.is_empty())
        .then(|| bmn_census::chapman(&caught_p, &caught_h));
    let completeness = completeness(plan, &runs, truth.is_some());
    let rules = plan.rules;
    CensusReport {
        deck: plan.source.deck().to_string(),
        players: plan.source.players(),
        penalties: rules.penalties.to_string(),
        on_empty: rules.on_empty.to_string(),
        seed: plan.run.seed,
        methods: plan.methods.iter().map(|m| m.name().to_string()).collect(),
        pieces_run: runs.pieces.clone(),
        hands_run: runs.hands.clone(),
        deals_run: runs.deals.clone(),
        cycles_found,
        balanced_cycles: catalogue.len(),
        balanced_deals: catalogue.iter().map(|c| c.deals.len()).sum(),
        by_period: PeriodCount::of(&catalogue),
        by_class: Classes::of(&catalogue),
        catalogue,
        recall,
        estimate,
        exact: truth.is_some(),
        completeness,
        interrupted,
        elapsed_seconds,
    }
}

/// How complete the census is, and which classes of cycle (docs/census.md) the methods that
/// ran can and cannot reach, in those words.
fn completeness(plan: &CensusPlan, runs: &Runs, exact: bool) -> String {
    if exact {
        let read = match &runs.deals {
            Some(d) if !d.enumeration_files.is_empty() => {
                format!(" (read from {} shard file(s))", d.enumeration_files.len())
            }
            _ => String::new(),
        };
        return format!(
            "exact: every deal of the deck was played{read}, which reaches every class of cycle"
        );
    }
    let mut out = String::new();
    if plan.deals.is_none()
        && !plan.methods.contains(&Method::Deals)
        && super::enumerable(&plan.source, plan.deals_max)
    {
        out.push_str("every deal could be played (--methods deals) but was not; ");
    }
    out.push_str(&match &runs.hands {
        Some(h) if h.complete => format!(
            "complete for the cycles whose basins hold a position where a player has at most \
             {} card(s): every such position was played",
            h.max_hand
        ),
        Some(h) => format!(
            "a floor: the small-hand enumeration (at most {} card(s)) decided {} of its {} \
             positions ({:.2e} of the subspace) and {} on these threads; the counts are what \
             the methods reached",
            h.max_hand,
            crate::words::count(h.decided),
            crate::words::count(h.positions),
            h.decided / h.positions,
            h.projection()
        ),
        None => "a floor: the counts are what the methods reached".into(),
    });
    let mut reach = Vec::new();
    if runs.pieces.is_some() {
        reach.push(
            "pieces reaches the cycles that split at a rest state (splits_at_rest_state), and \
             others only where its random deals and walks meet them"
                .to_string(),
        );
    }
    if let Some(h) = &runs.hands {
        reach.push(format!(
            "hands {} every cycle whose basin holds a hand of at most {m} card(s), so every \
             cycle of min_hand at most {m}{}",
            if h.complete { "reaches" } else { "would reach" },
            if h.complete {
                ""
            } else {
                ", had it decided every position (it decided the share above)"
            },
            m = h.max_hand
        ));
    }
    let beyond = match &runs.hands {
        Some(h) => format!(
            "of min_hand above {} whose basins never hold a smaller hand",
            h.max_hand
        ),
        None => "of any min_hand".into(),
    };
    out.push_str(&format!(
        ". Can reach: {}. Cannot reach, except by chance: the cycles that do not split at a \
         rest state, {beyond}, such as Camicia's anti_periodic 84-, 20- and 36-trick cycles \
         (min_hand 10, 15 and 8), which only every deal has reached",
        if reach.is_empty() {
            "no method that ran reaches a class whole".to_string()
        } else {
            reach.join("; ")
        }
    ));
    out
}

impl crate::Report for CensusReport {
    fn text(&self) -> String {
        let mut t = String::new();
        let _ = writeln!(
            t,
            "table:    {}, {} players; methods {}; seed {}",
            self.deck,
            self.players,
            self.methods.join(", "),
            self.seed
        );
        if let Some(p) = &self.pieces_run {
            let _ = writeln!(
                t,
                "pieces:   {}, {} with balanced deals ({:.1} s)",
                plural(p.distinct_cycle_count as u64, "cycle"),
                p.balanced_cycles,
                p.elapsed_seconds
            );
        }
        if let Some(h) = &self.hands_run {
            let _ = writeln!(
                t,
                "hands:    hands of at most {} card(s): {} of {} units, {} of {} positions \
                 decided; {}, {} with balanced deals ({:.1} s{})",
                h.max_hand,
                h.units_done,
                h.units,
                crate::words::count(h.decided),
                crate::words::count(h.positions),
                plural(h.distinct_cycle_count as u64, "cycle"),
                h.balanced_cycles,
                h.elapsed_seconds,
                if h.complete {
                    String::new()
                } else {
                    format!("; all of it: {}", h.projection())
                }
            );
        }
        if let Some(d) = &self.deals_run {
            let _ = writeln!(
                t,
                "deals:    {} deals played, {} never end, on {} ({})",
                d.deals,
                d.cycling_deals,
                plural(d.distinct_cycle_count as u64, "cycle"),
                if d.enumeration_files.is_empty() {
                    format!("{:.1} s", d.elapsed_seconds)
                } else {
                    format!(
                        "read from {} shard file(s) in {:.1} s",
                        d.enumeration_files.len(),
                        d.elapsed_seconds
                    )
                }
            );
            if let (Some(p), Some(l)) = (d.p_second_wins, &d.longest) {
                let _ = writeln!(
                    t,
                    "          the second player wins {p:.6} of deals; longest {} cards, {} tricks: {}",
                    l.cards, l.tricks, l.deal
                );
            }
        }
        let _ = writeln!(
            t,
            "census:   {} balanced deals that never end (player 1 leading) on {}; {} \
             reached in all",
            self.balanced_deals,
            plural(self.balanced_cycles as u64, "cycle"),
            plural(self.cycles_found as u64, "cycle")
        );
        let k = &self.by_class;
        if let Some(m) = k.all.largest_min_hand {
            let _ = writeln!(
                t,
                "classes:  anti-periodic {} ({} deals), rest state {} ({}), neither {} ({}); \
                 largest min hand {m}",
                plural(k.anti_periodic.cycles as u64, "cycle"),
                k.anti_periodic.deals,
                k.splits_at_rest_state.cycles,
                k.splits_at_rest_state.deals,
                k.neither.cycles,
                k.neither.deals,
            );
        }
        for c in self.catalogue.iter().take(TEXT_CYCLES) {
            let _ = writeln!(
                t,
                "  {}  period {:>4} tricks {:>5} cards  {:>4} deals  basin {:>7}{}  min hand {:>2}  \
                 {:<13}  by {}",
                c.id,
                c.period.tricks,
                c.period.cards,
                c.deals.len(),
                c.basin_positions,
                if c.basin_complete { "" } else { "+" },
                c.min_hand,
                c.class(),
                c.found_by_names().join("+")
            );
        }
        if self.catalogue.len() > TEXT_CYCLES {
            let _ = writeln!(
                t,
                "  ... and {} more (--json lists every cycle and every deal)",
                self.catalogue.len() - TEXT_CYCLES
            );
        }
        if let Some(recall) = &self.recall {
            for (m, r) in recall {
                let _ = writeln!(
                    t,
                    "recall:   {m}: {}/{} cycles, {}/{} deals",
                    r.cycles_found, r.cycles, r.deals_found, r.deals
                );
            }
        }
        if let Some(e) = &self.estimate {
            let _ = writeln!(
                t,
                "estimate: {:.1} balanced cycles (95%: {:.1} to {:.1}; Chapman, from {} by pieces, \
                 {} by hands, {} by both)",
                e.estimate, e.low, e.high, e.first, e.second, e.both
            );
        }
        let _ = writeln!(t, "complete: {}", self.completeness);
        if self.interrupted {
            let _ = writeln!(
                t,
                "interrupted: the counts cover the work done before the stop"
            );
        }
        let _ = writeln!(t, "time:     {:.1} s", self.elapsed_seconds);
        t
    }
}
