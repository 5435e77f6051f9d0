//! The compiled kernel of each recent eager primitive application, so that applying the same
//! primitive to operands of the same avals again (an eager loop) dispatches it without building,
//! simplifying and looking up its kernel anew. Only applications whose operands are dense and
//! already on the operation's device are kept (their kernel depends on the primitive, the
//! operands' avals and the device alone). An entry is used only while the device's compile
//! cache still holds its kernel (`Backend::exe_generation`); it holds ids, never buffers.

use std::cell::RefCell;
use std::hash::{Hash, Hasher};

use crate::backend::ExeId;
use crate::core::{Aval, Device, Primitive};
use crate::transform::ArrayValue;
use crate::util::fast_hash::FastHasher;
use crate::util::lru::Lru;

/// Entries kept (distinct primitive, avals and device combinations).
const CAPACITY: usize = 256;

/// What an application compiled to: its result's aval and its kernel on the device.
#[derive(Clone)]
pub struct Compiled {
    pub out_aval: Aval,
    pub exe: ExeId,
    /// The device's `exe_generation` when `exe` was compiled.
    pub generation: u64,
}

struct Entry {
    prim: Primitive,
    avals: Vec<Aval>,
    device: Device,
    compiled: Compiled,
}

thread_local! {
    /// Keyed by a hash of the application; the entry holds the key itself to compare.
    static CACHE: RefCell<Lru<u64, Entry>> = RefCell::new(Lru::new(CAPACITY));
}

fn key(prim: &Primitive, inputs: &[&ArrayValue], device: Device) -> u64 {
    let mut h = FastHasher::default();
    prim.hash(&mut h);
    for v in inputs {
        v.aval.hash(&mut h);
    }
    device.hash(&mut h);
    h.finish()
}

/// True when `inputs` qualify: dense and on `device`.
pub fn dense_on(inputs: &[&ArrayValue], device: Device) -> bool {
    inputs
        .iter()
        .all(|v| v.device == device && v.view.is_contiguous())
}

/// The kernel `prim` compiled to for operands of these avals on `device`, if kept.
pub fn lookup(prim: &Primitive, inputs: &[&ArrayValue], device: Device) -> Option<Compiled> {
    let k = key(prim, inputs, device);
    CACHE.with(|c| {
        let mut c = c.borrow_mut();
        let e = c.get(&k)?;
        let same = e.device == device
            && e.prim == *prim
            && e.avals.len() == inputs.len()
            && e.avals.iter().zip(inputs).all(|(a, v)| *a == v.aval);
        same.then(|| e.compiled.clone())
    })
}

/// Keeps what `prim` on `inputs` (dense, on `device`) compiled to.
pub fn record(prim: &Primitive, inputs: &[&ArrayValue], device: Device, compiled: Compiled) {
    let entry = Entry {
        prim: prim.clone(),
        avals: inputs.iter().map(|v| v.aval.clone()).collect(),
        device,
        compiled,
    };
    let k = key(prim, inputs, device);
    CACHE.with(|c| {
        c.borrow_mut().insert(k, entry);
    });
}
