//! How much of the CPU's SIMD bmn may use: all it has, or less where the environment
//! variable `BMN_SIMD` says so, to measure on one machine what a narrower CPU runs.
//!
//! `BMN_SIMD=avx2` hides AVX-512 from kernel and dealer selection (the AVX2 kernel and dealer
//! become the defaults, as on a CPU without AVX-512), `BMN_SIMD=none` hides AVX2 too (the
//! portable kernel and the scalar dealer), `BMN_SIMD=avx512` or unset hides nothing. It never
//! adds what the CPU lacks.

use std::sync::OnceLock;

/// The widest instruction set bmn may use.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum SimdLimit {
    /// No SIMD kernel or dealer.
    None,
    /// AVX2 at most.
    Avx2,
    /// Whatever the CPU has.
    Avx512,
}

impl SimdLimit {
    /// The limit `BMN_SIMD` sets; an error naming the value if it is not one of `none`,
    /// `avx2`, `avx512`.
    pub fn from_env() -> Result<SimdLimit, String> {
        let Some(value) = std::env::var_os("BMN_SIMD") else {
            return Ok(SimdLimit::Avx512);
        };
        match value.to_str() {
            Some("none") => Ok(SimdLimit::None),
            Some("avx2") => Ok(SimdLimit::Avx2),
            Some("avx512" | "") => Ok(SimdLimit::Avx512),
            _ => Err(format!(
                "bad BMN_SIMD {value:?}: expected none, avx2 or avx512"
            )),
        }
    }

    /// The limit in force: read once from `BMN_SIMD`; a value that is not understood limits
    /// nothing (front ends check it with [`SimdLimit::from_env`] and refuse it).
    pub fn current() -> SimdLimit {
        static LIMIT: OnceLock<SimdLimit> = OnceLock::new();
        *LIMIT.get_or_init(|| SimdLimit::from_env().unwrap_or(SimdLimit::Avx512))
    }
}
