//! [`DeviceLimits`]: what a device can bind in one kernel. The planner (`lower`) and the eager
//! evaluator read them so that no kernel ever exceeds a device (ARCHITECTURE.md decision 5).

/// Per-kernel limits of a device.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DeviceLimits {
    /// The most input buffers one kernel may read (the output buffer is not counted).
    pub max_kernel_inputs: usize,
}

impl DeviceLimits {
    /// No practical limit (the `cpu` and `wasm` devices).
    pub const UNBOUNDED: DeviceLimits = DeviceLimits {
        max_kernel_inputs: usize::MAX,
    };
}
