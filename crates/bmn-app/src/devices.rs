//! `devices`: the GPU adapters this machine offers, numbered as `--device` takes them (opened
//! by bmn-params' `device.rs`).

use std::fmt::Write as _;

use serde::Serialize;

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
