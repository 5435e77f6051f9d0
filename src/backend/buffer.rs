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
}

impl Drop for DeviceBuffer {
    fn drop(&mut self) {
        registry::release(self.device, self.id);
    }
}
