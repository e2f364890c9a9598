//! What the GPU tests share: the adapter they run on.

use bmn_gpu::Gpu;

/// The first adapter, or `None` (after a line on stderr) where there is none.
pub fn gpu() -> Option<&'static Gpu> {
    match bmn_gpu::open(0) {
        Ok(gpu) => Some(gpu),
        Err(e) if std::env::var_os("BMN_REQUIRE_GPU").is_none() => {
            eprintln!("SKIPPED: no GPU adapter ({e}); set BMN_REQUIRE_GPU to fail instead");
            None
        }
        Err(e) => panic!("BMN_REQUIRE_GPU is set and {e}"),
    }
}
