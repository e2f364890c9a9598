//! Which kernel plays: the one table of this crate. A request ([`Choice`]: the fastest, a
//! family of kernels by instruction set, or one kernel by name) and the deals' [`Shape`] give
//! one [`Kernel`], the first of the request's list that this CPU runs and that takes the
//! deals. Nothing else picks a kernel, and the kernel chosen is the one that plays (and that
//! reports name).

use crate::kernel::{Kernel, Shape};

use Kernel::*;

/// The kernels, fastest first, each request tries. Measured (kernel_speed, one thread, CPU
/// time; BENCHMARKS.md): on Zen 4, standard deals, avx512-stream-8x64 4.2, avx2-stream-4x64
/// 3.0-3.3, avx512-lanes-16x64 2.2, scalar-queue 2.0 M games/s; on the Xeon of family 6 model
/// 207, 5.3, 2.1, 2.2 and 1.1. So a CPU with AVX-512 but not the streams' VPOPCNTDQ, VBMI2
/// and GFNI (Skylake-X) gets the AVX2 stream, the faster of the two on Zen 4 and even on the
/// Xeon. The 16-lane stream comes first: it takes only small decks, where it plays 1.4x the
/// 8-lane one's games (2J,2Q,2K,2A,16-: 18.5 against 13.6 M games/s on the Xeon).
const FASTEST: &[Kernel] = &[
    Avx512Stream16,
    Avx512Stream8,
    Avx2Stream4,
    Avx512Lanes16,
    ScalarQueue,
    ScalarPlanes,
];
const AVX512: &[Kernel] = &[Avx512Stream16, Avx512Stream8, Avx512Lanes16, ScalarPlanes];
const AVX2: &[Kernel] = &[Avx2Stream4, ScalarQueue, ScalarPlanes];
const PORTABLE: &[Kernel] = &[ScalarQueue, ScalarPlanes];
const LOCKSTEP: &[Kernel] = &[Lanes4, ScalarPlanes];

/// Kernels by the instruction set they are written for: what `--kernel avx512` and the like
/// ask for. A family plays every deal of at most 64 cards (each ends in `scalar-planes`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum KernelFamily {
    /// One game at a time, any CPU.
    Portable,
    /// Lanes in lockstep compiled for the baseline target, any CPU.
    Lockstep,
    /// AVX2's stream, else one game at a time.
    Avx2,
    /// AVX-512's streams, else its lanes.
    Avx512,
}

impl KernelFamily {
    /// Every family.
    pub const ALL: [KernelFamily; 4] = [
        KernelFamily::Portable,
        KernelFamily::Lockstep,
        KernelFamily::Avx2,
        KernelFamily::Avx512,
    ];

    /// Its name in `--kernel`.
    pub fn name(self) -> &'static str {
        match self {
            KernelFamily::Portable => "portable",
            KernelFamily::Lockstep => "lockstep",
            KernelFamily::Avx2 => "avx2",
            KernelFamily::Avx512 => "avx512",
        }
    }

    /// The family's kernels, fastest first.
    pub fn kernels(self) -> &'static [Kernel] {
        match self {
            KernelFamily::Portable => PORTABLE,
            KernelFamily::Lockstep => LOCKSTEP,
            KernelFamily::Avx2 => AVX2,
            KernelFamily::Avx512 => AVX512,
        }
    }

    /// Whether this CPU runs the family's first kernel that needs more than the baseline
    /// (AVX2's stream, AVX-512's lanes): asking for a family the CPU lacks is an error, not a
    /// quiet fall to its scalar kernels.
    pub fn is_available(self) -> bool {
        match self {
            KernelFamily::Portable | KernelFamily::Lockstep => true,
            KernelFamily::Avx2 => Avx2Stream4.is_available(),
            KernelFamily::Avx512 => Avx512Lanes16.is_available(),
        }
    }
}

/// What a run asks to play on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Choice {
    /// The fastest kernel this CPU runs for the deals.
    #[default]
    Fastest,
    /// The fastest of a family.
    Family(KernelFamily),
    /// This kernel and no other.
    Only(Kernel),
}

impl Choice {
    /// A family's or a kernel's name.
    pub fn from_name(name: &str) -> Option<Choice> {
        KernelFamily::ALL
            .into_iter()
            .find(|f| f.name() == name)
            .map(Choice::Family)
            .or_else(|| Kernel::from_name(name).map(Choice::Only))
    }

    /// Its name: a family's or a kernel's, or `fastest`.
    pub fn name(self) -> &'static str {
        match self {
            Choice::Fastest => "fastest",
            Choice::Family(f) => f.name(),
            Choice::Only(k) => k.name(),
        }
    }

    /// Whether this CPU runs what it asks for (the fastest always is).
    pub fn is_available(self) -> bool {
        match self {
            Choice::Fastest => true,
            Choice::Family(f) => f.is_available(),
            Choice::Only(k) => k.is_available(),
        }
    }

    /// Every name [`Choice::from_name`] reads that this CPU runs: the families, then the
    /// kernels.
    pub fn available_names() -> Vec<&'static str> {
        let families = KernelFamily::ALL.into_iter().filter(|f| f.is_available());
        let families = families.map(KernelFamily::name);
        families
            .chain(Kernel::all_available().into_iter().map(Kernel::name))
            .collect()
    }

    /// The kernel that plays deals of `shape`: the first of the request's list that this CPU
    /// runs and that takes them. `None` for a family or kernel this CPU does not run, a kernel
    /// that does not take the deals, or a deal of more than 64 cards.
    pub fn kernel(self, shape: &Shape) -> Option<Kernel> {
        if !self.is_available() {
            return None;
        }
        let only;
        let list: &[Kernel] = match self {
            Choice::Fastest => FASTEST,
            Choice::Family(f) => f.kernels(),
            Choice::Only(k) => {
                only = [k];
                &only
            }
        };
        list.iter()
            .copied()
            .find(|k| k.is_available() && k.takes(shape))
    }
}

impl Kernel {
    /// The fastest kernel this CPU runs for deals of `shape` (of at most 64 cards: every such
    /// shape has one).
    ///
    /// # Panics
    /// For more than 64 cards, or a split past the deal's end.
    pub fn fastest(shape: &Shape) -> Kernel {
        Choice::Fastest
            .kernel(shape)
            .expect("scalar-planes takes every deal of at most 64 cards")
    }
}
