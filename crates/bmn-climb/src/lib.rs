//! bmn-climb: local search over deals, for long games and for balanced games that never end.
//!
//! - [`Cards`]: a deal as the climbers edit it; [`moves`]: edits that keep it a deal of the
//!   same cards; [`Evaluator`]: many deals played at once, exactly (fast kernels, with capped
//!   games handed to bmn-core's cycle detection; the reference engine for other tables).
//! - [`climb`]: walkers that climb toward long games (hill climbing with restarts, simulated
//!   annealing, or a population), in rounds, reproducible from the seed whatever the thread
//!   count.
//! - [`factory`]: walks from games that never end toward balanced starting deals that never
//!   end, collecting every cycle they reach.
//!
//! Nothing here prints; results depend only on the inputs and the seed.

#![forbid(unsafe_code)]

pub mod cards;
pub mod climb;
pub mod eval;
pub mod factory;
pub mod moves;

pub use cards::Cards;
pub use eval::{Evaluator, Game, in_parallel};
pub use moves::{Move, MoveSet, MoveSetError};
