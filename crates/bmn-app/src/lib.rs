//! bmn-app: every bmn command as a library function, from a request of plain values (what a
//! person typed: deal text, deck specs, flags) to a report (JSON for scripts through serde,
//! text for a person through [`Report::text`]).
//!
//! The CLI, the web server and the Python package are front ends over this crate: they map
//! their inputs to requests and print, send or return the reports, so the same input gives the
//! same answer, the same JSON keys and the same one-line error everywhere. Long commands
//! take a `bmn_job::Job`: they report through its hooks and stop when its stop flag is set
//! (Ctrl-C, a server's shutdown, Python's `KeyboardInterrupt`). Nothing here prints; files are written only where a request names them (plots, graphs, result files,
//! the run ledger).

#![forbid(unsafe_code)]

pub mod backward;
pub mod bench;
pub mod census;
pub mod climb;
pub mod count;
pub mod deal;
pub mod devices;
pub mod dot;
mod durable;
pub mod exhaustive;
pub mod factory;
pub mod family;
pub mod given;
pub mod json;
pub mod merge;
pub mod odds;
pub mod pieces;
pub mod play;
pub mod rank;
pub mod records;
pub mod search;
pub mod stats;
pub mod stream;
pub mod words;

// The parameter layer, under the paths commands and front ends have always named it by.
pub use bmn_params::{Error, Message, Result, Spelling, name_of, one_line, own_name};
pub use bmn_params::{error, flags, front, input, numbers, seeded, walk};
pub use bmn_run::LedgerChoice;

/// `n` and its noun, singular for one: `plural(1, "trick")` is "1 trick", `plural(2, "trick")`
/// "2 tricks" (for the nouns of the reports, whose plurals add an s).
pub fn plural(n: u64, noun: &str) -> String {
    format!("{n} {noun}{}", if n == 1 { "" } else { "s" })
}

/// A decimal string with commas every three digits: `thousands("1260")` is "1,260".
pub fn thousands(digits: &str) -> String {
    let mut out = String::with_capacity(digits.len() * 4 / 3 + 1);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// What a resumed run's speed line says when the run had already finished: nothing was
/// played, so there is no speed to give.
pub(crate) const ALREADY_FINISHED: &str =
    "none: the run had already finished, nothing was left to play";

/// A command's answer: its JSON (serde, the keys are a contract) and its text for a person.
pub trait Report: serde::Serialize {
    /// The text a person reads, each line ending in a newline.
    fn text(&self) -> String;

    /// The JSON, on one line.
    fn json(&self) -> String {
        serde_json::to_string(self).expect("reports serialize")
    }
}
