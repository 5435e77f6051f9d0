//! [`DeviceBuffer`]: a reference-counted owner of one backend buffer. Arrays and views share a
//! buffer through `Rc<DeviceBuffer>`; the buffer is freed when the last owner drops it.

use super::registry;
use super::BufferId;
use crate::core::Device;

#[derive(Debug)]
pub struct DeviceBuffer {
    pub device: Device,
    pub id: BufferId,
    pub bytes: usize,
    /// The uploaded bytes of a small buffer (at most [`host_copy_limit`]): moving a scalar
    /// (a JS number's weak scalar) to another device then needs no device read, which WebGPU
    /// cannot do synchronously, and `data()` of a small webgpu array made on the host
    /// (`zeros`, `arange`, `eye`, `np.array`, …) is answered from it without a buffer map.
    /// Buffers are never written after upload, so the copy stays equal to the device's bytes.
    pub host: Option<Box<[u8]>>,
}

/// The largest upload kept as [`DeviceBuffer::host`] on every device (a scalar).
pub const HOST_COPY_BYTES: usize = 8;

/// The largest upload kept as [`DeviceBuffer::host`] on webgpu, whose reads otherwise wait
/// for a buffer map (a fixed round trip of milliseconds in Deno and browsers). Each live
/// array of at most this size then also holds its bytes in the wasm heap.
pub const WEBGPU_HOST_COPY_BYTES: usize = 4096;

/// The largest upload kept as [`DeviceBuffer::host`] on `device`.
pub fn host_copy_limit(device: Device) -> usize {
    match device {
        Device::WebGpu => WEBGPU_HOST_COPY_BYTES,
        Device::Cpu | Device::Wasm => HOST_COPY_BYTES,
    }
}

impl Drop for DeviceBuffer {
    fn drop(&mut self) {
        registry::release(self.device, self.id);
    }
}
