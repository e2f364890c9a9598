//! `GpuError`: why a GPU cannot be used.

/// Why a GPU cannot be opened or used.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GpuError {
    #[error(
        "no GPU adapter found (wgpu looked for Vulkan, Metal and DX12); `bmn devices` lists them"
    )]
    NoAdapter,
    #[error("no GPU adapter {index}: there are {count} (`bmn devices` lists them)")]
    NoSuchAdapter { index: usize, count: usize },
    #[error("GPU adapter {index} ({name}) could not be opened: {reason}")]
    Open {
        index: usize,
        name: String,
        reason: String,
    },
    #[error("the GPU failed: {0}")]
    Failed(String),
}
