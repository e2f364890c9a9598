//! bmn-climb: local search over deals, for long games and for balanced games that never end.
//!
//! - [`Cards`]: a deal as the climbers edit it; [`moves`]: edits that keep it a deal of the
//!   same cards; [`Evaluator`]: many deals played at once, exactly (fast kernels, with capped
//!   games handed to bmn-core's cycle detection; the reference engine for other tables).
//! - [`climb`]: walkers that climb toward long games (hill climbing with restarts, simulated
//!   annealing, or a population), in rounds, reproducible from the seed whatever the thread
//!   count.
//! - [`factory`]: the endless-game factory, driven by a [`factory::FactoryConfig`]: games
//!   that never end to start from (Casella's pieces, or a random search), walks from them
//!   toward balanced starting deals that never end, and the catalogue of every cycle reached.
//! - [`rounds`]: the one driver of runs in rounds (the climb's and the factory's): a number of
//!   rounds, a time, the stop flag; and [`Hooks`], how long jobs here report progress.
//!
//! Nothing here prints (progress goes to the caller's [`Hooks`]) and stops on an `AtomicBool`;
//! results depend only on the inputs and the seed.

#![forbid(unsafe_code)]

pub mod cards;
pub mod climb;
pub mod eval;
pub mod factory;
pub mod moves;
pub mod rounds;

pub use cards::Cards;
pub use eval::{Evaluator, Game};
pub use moves::{Move, MoveSet, MoveSetError};
pub use rounds::{Ended, RoundLimits, Rounds, run_rounds};
