//! `devices`: the GPU adapters this machine offers, and opening one for `--kernel gpu|all`.

use std::fmt::Write as _;

use bmn_search::device::Device;
use serde::Serialize;

use crate::error::{Error, Result};

/// `devices --json`.
#[derive(Serialize, Clone, Debug, PartialEq, Eq)]
pub struct DevicesReport {
    /// Whether this bmn was built with the GPU kernel (the default `gpu` feature).
    pub gpu_feature: bool,
    pub adapters: Vec<AdapterRow>,
}

/// One adapter, numbered as `--device N` takes it.
#[derive(Serialize, Clone, Debug, PartialEq, Eq)]
pub struct AdapterRow {
    pub index: usize,
    pub name: String,
    /// `vulkan`, `metal` or `dx12`.
    pub backend: String,
    /// `discrete`, `integrated`, `virtual`, `cpu` (lavapipe) or `other`.
    pub kind: String,
    pub driver: String,
}

/// Lists the adapters (none without the `gpu` feature, or without a Vulkan, Metal or DX12
/// driver).
pub fn devices() -> DevicesReport {
    #[cfg(feature = "gpu")]
    let adapters = bmn_gpu::adapters()
        .into_iter()
        .map(|a| AdapterRow {
            index: a.index,
            name: a.name,
            backend: a.backend,
            kind: a.kind,
            driver: a.driver,
        })
        .collect();
    #[cfg(not(feature = "gpu"))]
    let adapters = Vec::new();
    DevicesReport {
        gpu_feature: cfg!(feature = "gpu"),
        adapters,
    }
}

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

impl crate::Report for DevicesReport {
    fn text(&self) -> String {
        let mut t = String::new();
        if !self.gpu_feature {
            t.push_str("this bmn was built without the gpu feature: no GPU kernel\n");
            return t;
        }
        if self.adapters.is_empty() {
            t.push_str(
                "no GPU adapter found (wgpu looks for Vulkan, Metal and DX12 drivers; on Linux \
                 without a GPU, Mesa's lavapipe runs the kernel on the CPU: apt-get install \
                 mesa-vulkan-drivers libvulkan1)\n",
            );
            return t;
        }
        for a in &self.adapters {
            let _ = writeln!(
                t,
                "{}: {} ({}, {}{})",
                a.index,
                a.name,
                a.backend,
                a.kind,
                if a.driver.is_empty() {
                    String::new()
                } else {
                    format!(", {}", a.driver)
                }
            );
        }
        t.push_str("use one with --kernel gpu --device N (or --kernel all: the GPU and the CPU together)\n");
        t
    }
}
