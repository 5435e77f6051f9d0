//! The devices an array can live on.

use crate::util::{Error, Result};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Device {
    /// The reference interpreter of the Kernel IR: exact, slow, the oracle.
    Cpu,
    /// WebAssembly kernels emitted at run time (the default device).
    Wasm,
    /// WebGPU through wgpu.
    WebGpu,
}

impl Device {
    pub const ALL: [Device; 3] = [Device::Cpu, Device::Wasm, Device::WebGpu];

    pub fn name(self) -> &'static str {
        match self {
            Device::Cpu => "cpu",
            Device::Wasm => "wasm",
            Device::WebGpu => "webgpu",
        }
    }

    pub fn parse(function: &str, name: &str) -> Result<Device> {
        match name {
            "cpu" => Ok(Device::Cpu),
            "wasm" => Ok(Device::Wasm),
            "webgpu" => Ok(Device::WebGpu),
            "webgl" => Err(Error::new(
                function,
                "the webgl device is not supported in oxjax; use \"webgpu\", \"wasm\" or \"cpu\"",
            )),
            other => Err(Error::new(
                function,
                format!("unknown device {other:?} (expected \"cpu\", \"wasm\" or \"webgpu\")"),
            )),
        }
    }
}
