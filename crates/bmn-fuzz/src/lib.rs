//! bmn-fuzz: the properties bmn's fuzz targets check, one `pub fn NAME(data: &[u8])` per way
//! untrusted input gets in (deal text, deck and penalty specs, `#K` ranks, result files,
//! merges, the web page's query strings, a climb's recorded state).
//!
//! Each function panics only when a property fails: a parser that panics, a value that does
//! not print back to itself, a merge whose counts are not the sum of its parts, a server
//! answer that is a 5xx or a malformed error. The cargo-fuzz crate in `fuzz/` calls them from
//! libFuzzer on nightly; `tests/replay.rs` runs them over the committed seeds and regressions
//! on stable, so `cargo test` keeps every crash found fixed.

#![forbid(unsafe_code)]

mod climb;
mod files;
mod notation;
mod rank;
mod serve;

pub use climb::climb_state;
pub use files::{merge, result_file};
pub use notation::{deal_notation, deck_spec, penalty_spec};
pub use rank::rank;
pub use serve::serve_query;

/// A target's checking function.
pub type Check = fn(&[u8]);

/// The names of the targets, as `fuzz/fuzz_targets/<name>.rs`, `fuzz/seeds/<name>/` and
/// `fuzz/regressions/<name>/` name them, with their checking functions.
pub const TARGETS: &[(&str, Check)] = &[
    ("deal_notation", deal_notation),
    ("deck_spec", deck_spec),
    ("penalty_spec", penalty_spec),
    ("rank", rank),
    ("result_file", result_file),
    ("merge", merge),
    ("serve_query", serve_query),
    ("climb_state", climb_state),
];

/// The input as text. Front ends hand bmn `&str`s, so invalid UTF-8 never reaches a parser;
/// decoding lossily (rather than skipping) keeps every input useful to the fuzzer.
fn text(data: &[u8]) -> String {
    String::from_utf8_lossy(data).into_owned()
}

/// An error message must say something. (Messages quote the text at fault as it was given,
/// so one may span lines when the input does; the web API's answers are checked for one line
/// in [`serve_query`].)
#[track_caller]
fn check_message(message: &str, what: &str) {
    assert!(!message.trim().is_empty(), "{what}: an empty error message");
}
