//! The adapters wgpu can see, numbered as `--device N` takes them.

/// One adapter, as `bmn devices` lists it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AdapterSummary {
    /// Its number for `--device`.
    pub index: usize,
    pub name: String,
    /// `vulkan`, `metal` or `dx12`.
    pub backend: String,
    /// `discrete`, `integrated`, `virtual`, `cpu` or `other`.
    pub kind: String,
    /// The driver's name and version, as the driver reports them.
    pub driver: String,
}

/// The instance every adapter comes from: the native back ends, no GL (compute needs none).
pub(crate) fn instance() -> wgpu::Instance {
    let mut desc = wgpu::InstanceDescriptor::new_without_display_handle_from_env();
    desc.backends = wgpu::Backends::VULKAN | wgpu::Backends::METAL | wgpu::Backends::DX12;
    wgpu::Instance::new(desc)
}

/// Every adapter, in the order wgpu enumerates them (the order `--device` numbers).
pub(crate) fn all(instance: &wgpu::Instance) -> Vec<wgpu::Adapter> {
    pollster::block_on(instance.enumerate_adapters(wgpu::Backends::all()))
}

/// The adapters of this machine. Empty where there are none (no GPU and no lavapipe, or no
/// Vulkan loader).
pub fn adapters() -> Vec<AdapterSummary> {
    all(&instance())
        .iter()
        .enumerate()
        .map(|(index, a)| summary(index, &a.get_info()))
        .collect()
}

pub(crate) fn summary(index: usize, info: &wgpu::AdapterInfo) -> AdapterSummary {
    let kind = match info.device_type {
        wgpu::DeviceType::DiscreteGpu => "discrete",
        wgpu::DeviceType::IntegratedGpu => "integrated",
        wgpu::DeviceType::VirtualGpu => "virtual",
        wgpu::DeviceType::Cpu => "cpu",
        wgpu::DeviceType::Other => "other",
    };
    let driver = [info.driver.as_str(), info.driver_info.as_str()]
        .iter()
        .filter(|s| !s.is_empty())
        .copied()
        .collect::<Vec<_>>()
        .join(" ");
    AdapterSummary {
        index,
        name: info.name.clone(),
        backend: info.backend.to_str().to_owned(),
        kind: kind.to_owned(),
        driver,
    }
}
