//! [`DeviceLimits`]: what a device can bind in one kernel, and what one kernel costs it. The
//! planner (`lower`) and the eager evaluator read them so that no kernel ever exceeds a device
//! (ARCHITECTURE.md decision 5).

/// Per-kernel limits of a device.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DeviceLimits {
    /// The most input buffers one kernel may read (the output buffer is not counted).
    pub max_kernel_inputs: usize,
    /// A sum or product of at most this many terms with one use is written out in its
    /// consumer instead of getting a kernel (`lower::inline_sum`; 0: never). Worth it where a
    /// kernel costs a shader, a barrier and a round trip through memory (webgpu), not where
    /// it is a loop in the same compiled module and recomputation is what costs (cpu, wasm).
    pub inline_terms: usize,
}

impl DeviceLimits {
    /// No practical limit (the `cpu` and `wasm` devices).
    pub const UNBOUNDED: DeviceLimits = DeviceLimits {
        max_kernel_inputs: usize::MAX,
        inline_terms: 0,
    };
}
