//! `--seed` and `--threads`, the pair every seeded parallel command takes, as one family, and
//! [`Run`], the pair resolved: the seed's default filled in and the cores read, once, when a
//! plan is made. A seeded run's result depends on the seed and never on the threads.

use crate::error::Result;
use crate::flags::{SeedArg, ThreadsArg};
use crate::input::{self, DEFAULT_SEED};

/// `--seed` and `--threads`, flattened into the requests of `search`, `stats`, `climb`,
/// `odds`, `bench`, the pieces factory and `census`.
#[derive(clap::Args, Debug, Clone, Default, PartialEq, Eq)]
pub struct SeededArgs {
    #[command(flatten)]
    pub seed: SeedArg,
    #[command(flatten)]
    pub threads: ThreadsArg,
}

impl SeededArgs {
    /// The seed and thread count asked for (`None`: the defaults).
    pub fn of(seed: Option<u64>, threads: Option<usize>) -> SeededArgs {
        SeededArgs {
            seed: SeedArg { seed },
            threads: ThreadsArg { threads },
        }
    }

    /// The pair resolved: seed 1 when not given, every core when the threads are not (a count
    /// of 0 or past [`input::MAX_THREADS`] refused, naming `threads`).
    pub fn resolve(&self) -> Result<Run> {
        self.resolve_or(None)
    }

    /// The pair resolved, `threads` when the threads are not given (a command whose default
    /// is not every core).
    pub fn resolve_or(&self, threads: Option<usize>) -> Result<Run> {
        Ok(Run {
            seed: self.seed.seed.unwrap_or(DEFAULT_SEED),
            threads: input::threads(self.threads.threads.or(threads))?,
        })
    }
}

/// A seeded run's seed and worker threads, resolved.
#[derive(serde::Serialize, Clone, Copy, Debug, PartialEq, Eq)]
pub struct Run {
    pub seed: u64,
    pub threads: usize,
}
