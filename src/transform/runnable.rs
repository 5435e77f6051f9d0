//! A lowered [`Program`] with the runtime state the executor keeps beside it, never inside
//! it (the Program stays a value: compared, cloned and printed as data): the compiled id of
//! each kernel step per device ([`ExeCache`]), so a repeated call neither hashes its kernels
//! nor looks them up in the backend's compile cache, and the Program as a one-step loop with
//! each device's compiled id for it ([`WholeCache`], `jit_whole`). The program cache
//! (`jit_cache`) holds one [`Runnable`] per Program, so the state lives and dies with it.

use std::cell::{OnceCell, RefCell};
use std::rc::Rc;

use crate::backend::ExeId;
use crate::core::Device;
use crate::kernel::device_program::DeviceProgram;
use crate::lower::whole::one_step_loop;
use crate::lower::Program;

/// A Program and its runtime state.
pub struct Runnable {
    pub program: Program,
    pub exes: ExeCache,
    pub whole: WholeCache,
}

impl Runnable {
    pub fn new(program: Program) -> Runnable {
        Runnable {
            program,
            exes: ExeCache::default(),
            whole: WholeCache::default(),
        }
    }
}

struct DeviceExes {
    device: Device,
    generation: u64,
    ids: Vec<Option<ExeId>>,
}

/// The compiled ids of a Program's kernel steps, per device, valid while the backend's
/// [`exe_generation`](crate::backend::Backend::exe_generation) is the one they were kept
/// under (any eviction or clear changes it and the ids are dropped).
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

/// The Program as a one-step loop (`lower::whole`), built once, and per device the compiled
/// id the backend gave it (None: that device runs the Program kernel by kernel).
#[derive(Default)]
pub struct WholeCache {
    body: OnceCell<Option<Rc<DeviceProgram>>>,
    devices: RefCell<Vec<(Device, Option<ExeId>)>>,
}

impl WholeCache {
    /// The one-step loop of `program` (whose cache this is).
    pub fn plan(&self, program: &Program) -> Option<Rc<DeviceProgram>> {
        self.body
            .get_or_init(|| one_step_loop(program).map(Rc::new))
            .clone()
    }

    /// The answer kept for `device`: None when there is none yet.
    pub fn get(&self, device: Device) -> Option<Option<ExeId>> {
        self.devices
            .borrow()
            .iter()
            .find(|(d, _)| *d == device)
            .map(|&(_, id)| id)
    }

    pub fn set(&self, device: Device, id: Option<ExeId>) {
        let mut devices = self.devices.borrow_mut();
        devices.retain(|(d, _)| *d != device);
        devices.push((device, id));
    }
}
