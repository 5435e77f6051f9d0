//! [`ExeCache`]: the compiled kernel ids of a [`Program`](super::Program)'s kernel steps, per
//! device, so that running a cached Program again neither hashes its kernels nor looks them up
//! in the backend's compile cache. The ids are valid while the backend's
//! [`exe_generation`](crate::backend::Backend::exe_generation) is the one they were kept
//! under; any eviction or clear changes it and the ids are dropped.

use std::cell::RefCell;

use crate::backend::ExeId;
use crate::core::Device;

struct DeviceExes {
    device: Device,
    generation: u64,
    ids: Vec<Option<ExeId>>,
}

/// Runtime state attached to a Program: clones start empty and every cache compares equal, so
/// Programs keep their value semantics.
#[derive(Default)]
pub struct ExeCache {
    devices: RefCell<Vec<DeviceExes>>,
}

impl ExeCache {
    /// The id kept for `step` on `device`, if it was kept under `generation`.
    pub fn get(&self, device: Device, generation: u64, step: usize) -> Option<ExeId> {
        let devices = self.devices.borrow();
        let d = devices.iter().find(|d| d.device == device)?;
        if d.generation != generation {
            return None;
        }
        d.ids.get(step).copied().flatten()
    }

    /// Keeps `id` for `step` on `device` under `generation` (dropping ids of older ones).
    pub fn set(&self, device: Device, generation: u64, step: usize, id: ExeId) {
        let mut devices = self.devices.borrow_mut();
        let index = match devices.iter().position(|d| d.device == device) {
            Some(i) => i,
            None => {
                devices.push(DeviceExes {
                    device,
                    generation,
                    ids: Vec::new(),
                });
                devices.len() - 1
            }
        };
        let d = &mut devices[index];
        if d.generation != generation {
            d.generation = generation;
            d.ids.clear();
        }
        if d.ids.len() <= step {
            d.ids.resize(step + 1, None);
        }
        d.ids[step] = Some(id);
    }
}

impl Clone for ExeCache {
    fn clone(&self) -> Self {
        ExeCache::default()
    }
}

impl PartialEq for ExeCache {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

impl std::fmt::Debug for ExeCache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("ExeCache")
    }
}
