//! Opening the GPU adapter that `--device` names, for `--kernel gpu` or `--kernel all`.

use bmn_search::device::Device;

use crate::error::{Error, Result};

/// Adapter `index` (0 if not said), opened; a refusal names `--kernel`.
#[cfg(feature = "gpu")]
fn gpu(index: Option<usize>) -> Result<&'static bmn_gpu::Gpu> {
    bmn_gpu::open(index.unwrap_or(0)).map_err(|e| Error::bad_with("kernel", format!(": {e}")))
}

/// Opens adapter `index` (0 if not said) for `--kernel gpu` or `--kernel all`.
pub fn open(index: Option<usize>) -> Result<Device> {
    #[cfg(feature = "gpu")]
    {
        gpu(index).map(|gpu| Device(gpu))
    }
    #[cfg(not(feature = "gpu"))]
    {
        let _ = index;
        Err(Error::bad_with(
            "kernel",
            ": this bmn was built without the gpu feature",
        ))
    }
}

/// Opens adapter `index` (0 if not said) for `--kernel all`, to share the work with the CPU
/// kernel: `Ok(Err(note))` where it is a CPU adapter (lavapipe's llvmpipe), which runs on the
/// very cores the CPU kernel uses and only takes them from it (measured on 2 cores:
/// `--kernel all` 19 times slower than the CPU kernel alone, and 2.5 times slower with
/// `--device 0` naming it). Named or not, it is left out, so that `all` is never slower than
/// the faster of its parts; the note says so, and `--kernel gpu` plays on it alone.
pub fn open_to_share(index: Option<usize>) -> Result<std::result::Result<Device, String>> {
    #[cfg(feature = "gpu")]
    {
        let gpu = gpu(index)?;
        let adapter = gpu.adapter();
        if adapter.kind == "cpu" {
            return Ok(Err(format!(
                "--kernel all leaves out adapter {} ({}): a CPU adapter runs on the cores the \
                 CPU kernel already uses, so sharing with it is slower than the CPU kernel \
                 alone (--kernel gpu --device {} plays on it alone)",
                adapter.index, adapter.name, adapter.index
            )));
        }
        Ok(Ok(Device(gpu)))
    }
    #[cfg(not(feature = "gpu"))]
    {
        open(index).map(Ok)
    }
}
