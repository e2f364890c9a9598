//! bmn-job: the contract every long job of bmn keeps, in the lowest crate they share.
//!
//! A job is given a [`Job`]: the [`Hooks`] it reports through (stages, progress; a hook
//! returning false asks it to stop) and its caller's stop flag, which it reads, never writes. Work is cut into numbered units
//! played on threads and merged strictly in unit order ([`run_units`]), so a result depends
//! only on the units that ran, never on the thread count or timing, and a stopped run keeps a
//! whole prefix to resume from. A device's claims are paced by measured rates (`pace.rs`).

#![forbid(unsafe_code)]

mod hooks;
mod job;
mod pace;
mod parallel;
mod units;

pub use hooks::{Hooks, Quiet};
pub use job::Job;
pub use pace::{Claims, Worker};
pub use parallel::in_parallel;
pub use units::{Blocks, run_unit_blocks, run_units};
