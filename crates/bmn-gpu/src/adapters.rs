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

/// The native back ends, no GL (compute needs none).
const BACKENDS: wgpu::Backends = wgpu::Backends::VULKAN
    .union(wgpu::Backends::METAL)
    .union(wgpu::Backends::DX12);

/// The instance every adapter comes from.
pub(crate) fn instance() -> wgpu::Instance {
    let mut desc = wgpu::InstanceDescriptor::new_without_display_handle_from_env();
    desc.backends = BACKENDS;
    wgpu::Instance::new(desc)
}

/// Every adapter, in the order wgpu enumerates them (the order `--device` numbers).
///
/// Listing them runs the Vulkan loader's implicit layers, and Mesa's device-select layer asks
/// Wayland which GPU the desktop uses; on a machine with no desktop (a server, a cluster node,
/// CI) libwayland then writes `error: XDG_RUNTIME_DIR is invalid or not set` on stderr, which
/// is no error of bmn's, nor the user's. The layer is kept (it puts a real GPU before
/// lavapipe, so `--device 0` is the GPU), and only that line is dropped from what stderr
/// gets meanwhile: everything else written there is passed on once the list is made.
pub(crate) fn all(instance: &wgpu::Instance) -> Vec<wgpu::Adapter> {
    let list = || pollster::block_on(instance.enumerate_adapters(BACKENDS));
    // Fails while stderr is caught already (another thread listing adapters): list as is.
    let Ok(mut caught) = gag::BufferRedirect::stderr() else {
        return list();
    };
    let adapters = list();
    let mut said = String::new();
    let _ = std::io::Read::read_to_string(&mut caught, &mut said);
    drop(caught);
    let kept = without_wayland_noise(&said);
    if !kept.is_empty() {
        eprint!("{kept}");
    }
    adapters
}

/// `text` less libwayland's complaint that there is no desktop session to connect to.
fn without_wayland_noise(text: &str) -> String {
    text.split_inclusive('\n')
        .filter(|line| !line.starts_with("error: XDG_RUNTIME_DIR"))
        .collect()
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

#[cfg(test)]
mod tests {
    #[test]
    fn only_the_wayland_complaint_is_dropped() {
        let said = "error: XDG_RUNTIME_DIR is invalid or not set in the environment.\n\
                    a driver's own warning\n\
                    error: XDG_RUNTIME_DIR not set in the environment.\n";
        assert_eq!(
            super::without_wayland_noise(said),
            "a driver's own warning\n"
        );
    }
}
