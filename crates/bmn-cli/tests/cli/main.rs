//! bmn-cli's end-to-end tests, one module per family of commands, in one test binary (one
//! link instead of eleven; ripgrep's `tests/tests.rs`). Each runs the `bmn` binary as a user
//! would; `common` holds the running and the bad-input contract.

mod common;

mod backward;
mod census;
mod climb;
mod count_odds;
mod defaults;
mod durable;
mod exhaustive;
mod given;
mod newcomer;
mod pieces;
mod play;
mod ranks;
mod records_graphs;
mod road;
mod search;
mod second_hour;
mod signals;
mod streams;
mod surface;
mod variants;
