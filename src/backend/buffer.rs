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
    /// The uploaded bytes of a small buffer (a scalar, at most [`HOST_COPY_BYTES`]): moving
    /// such an array (a JS number's weak scalar) to another device then needs no device read,
    /// which WebGPU cannot do synchronously. Buffers are never written after upload.
    pub host: Option<Box<[u8]>>,
}

/// The largest upload kept as [`DeviceBuffer::host`].
pub const HOST_COPY_BYTES: usize = 8;

impl Drop for DeviceBuffer {
    fn drop(&mut self) {
        registry::release(self.device, self.id);
    }
}
