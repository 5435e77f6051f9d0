//! Compiled scan loops on the wasm device: each loop body is emitted once as one module
//! (`emit::loops`) and cached (bounded LRU, emptied by `clearCaches`); a run writes the
//! addresses of every buffer into a table in the data memory and makes ONE call into the module,
//! which runs all steps. Buffer sizes are checked first, so a run never writes outside its
//! buffers.

use super::module::KernelModule;
use super::{emit, WasmBackend};
use crate::backend::{Backend, BufferId, ExeId, LoopStats};
use crate::kernel::device_program::{DeviceProgram, LoopBody, LoopBuffers, SlotRole};
use crate::util::lru::Lru;
use crate::util::{Error, Result};

/// The most loop modules kept.
const CAPACITY: usize = 64;

pub(super) struct LoopCache {
    ids: Lru<LoopBody, ExeId>,
    modules: Lru<ExeId, KernelModule>,
    next: ExeId,
    runs: u64,
}

impl Default for LoopCache {
    fn default() -> Self {
        LoopCache {
            ids: Lru::new(CAPACITY),
            modules: Lru::new(CAPACITY),
            next: 1,
            runs: 0,
        }
    }
}

impl LoopCache {
    pub fn stats(&self) -> LoopStats {
        LoopStats {
            runs: self.runs,
            cache: self.ids.stats(),
        }
    }

    pub fn clear(&mut self) {
        self.ids.clear();
        self.modules.clear();
    }
}

fn detail(body: &LoopBody) -> String {
    let nested = match body.loop_count() {
        0 => String::new(),
        n => format!(", {n} nested loops"),
    };
    format!(
        "wasm loop module ({} kernels, {} routines per step{nested})",
        body.kernel_count(),
        body.routine_count()
    )
}

pub(super) fn compile(backend: &mut WasmBackend, plan: &DeviceProgram) -> Result<(ExeId, String)> {
    let cache = &mut backend.loops;
    if let Some(&id) = cache.ids.get(&plan.body) {
        if cache.modules.get(&id).is_some() {
            return Ok((id, detail(&plan.body)));
        }
    }
    let module = KernelModule::new(&emit::loops::emit_loop(&plan.body)?, 0)?;
    let id = cache.next;
    cache.next += 1;
    cache.ids.insert((*plan.body).clone(), id);
    cache.modules.insert(id, module);
    Ok((id, detail(&plan.body)))
}

fn too_small(what: &str, need: usize, have: usize) -> Error {
    Error::new(
        "scan",
        format!("internal error: the {what} buffer has {have} bytes, the loop needs {need}"),
    )
}

pub(super) fn run(
    backend: &mut WasmBackend,
    exe: ExeId,
    plan: &DeviceProgram,
    buffers: LoopBuffers<'_, BufferId>,
) -> Result<()> {
    let body = &plan.body;
    let nk = body.num_carry;
    if buffers.slots.len() != body.slots.len()
        || buffers.init.len() != nk
        || buffers.finals.len() != nk
    {
        return Err(Error::new(
            "scan",
            "internal error: loop buffers do not match the plan",
        ));
    }
    let length = u32::try_from(plan.length)
        .map_err(|_| Error::new("scan", "the length does not fit the wasm device"))?;
    let mut table: Vec<u32> = Vec::with_capacity(body.slots.len() + 2 * nk);
    for (info, &id) in body.slots.iter().zip(buffers.slots) {
        let b = backend.buffer(id)?;
        let need = match info.role {
            SlotRole::XRow(_) | SlotRole::YRow(_) => info.bytes() * plan.length,
            _ => info.bytes(),
        };
        if b.len() < need {
            return Err(too_small("slot", need, b.len()));
        }
        table.push(b.address());
    }
    for (k, &id) in buffers.init.iter().chain(buffers.finals).enumerate() {
        let b = backend.buffer(id)?;
        let need = body.slots[body.carry_in(k % nk.max(1))].bytes();
        if b.len() < need {
            return Err(too_small("carry", need, b.len()));
        }
        table.push(b.address());
    }
    let table = backend.upload_table(&table)?;
    let at = backend.buffer(table)?.address();
    let result = match backend.loops.modules.get(&exe) {
        Some(module) => module.call_args(&[length, u32::from(plan.reverse), at]),
        None => Err(Error::new(
            "scan",
            format!("internal error: unknown loop {exe}"),
        )),
    };
    backend.free(table);
    result?;
    backend.loops.runs += 1;
    backend.dispatches += 1;
    Ok(())
}
