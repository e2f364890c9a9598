//! The one loader of `shared/data/golden.json` (published records and cycles), for tests.
//!
//! The file sits beside the checkout (`../shared/data/golden.json` from the workspace root);
//! its figures are golden tests and are never loosened.

use serde::Deserialize;

/// A published record game: deal, leader (1-based) and its exact length.
#[derive(Deserialize, Debug, Clone)]
pub struct Record {
    pub name: String,
    pub deal: String,
    pub leader: usize,
    pub cards: u64,
    pub tricks: u64,
    pub winner: usize,
}

/// `{"tricks": t, "cards": c}`.
#[derive(Deserialize, Debug, Clone, Copy, PartialEq, Eq)]
pub struct Span {
    pub tricks: u64,
    pub cards: u64,
}

/// A position: deal text and leader (1-based).
#[derive(Deserialize, Debug, Clone)]
pub struct At {
    pub deal: String,
    pub leader: usize,
}

/// A published game that never ends.
#[derive(Deserialize, Debug, Clone)]
pub struct CycleCase {
    pub name: String,
    pub deal: String,
    pub leader: usize,
    pub preperiod: Span,
    pub period: Span,
    pub first_cycle_position: Option<At>,
}

/// The parts of golden.json the tests use (the rest stays available as raw JSON).
#[derive(Deserialize, Debug, Clone)]
pub struct Golden {
    pub records: Vec<Record>,
    pub cycles: Vec<CycleCase>,
    /// Paulhus's Table 1 and the averages, kept raw for the issues that use them.
    #[serde(flatten)]
    pub rest: serde_json::Map<String, serde_json::Value>,
}

/// Path of golden.json, from the workspace root's parent.
pub fn path() -> String {
    concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../../shared/data/golden.json"
    )
    .to_string()
}

/// Loads golden.json; panics with the path if it is missing or malformed (a test set-up error).
pub fn load() -> Golden {
    let path = path();
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("reading {path}: {e}"));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("parsing {path}: {e}"))
}
