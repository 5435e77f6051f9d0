//! Whole jitted programs as ONE module call on the wasm device: the Program, given as a
//! one-step loop body (`lower::whole`), is emitted as a loop module (`emit::loops::emit_once`,
//! the scan loops' emitter: every kernel and routine a function, small kernels unrolled) and
//! run with length 1. Each kernel of the step-by-step path costs a call from Rust through JS
//! into its own module, a buffer from the pool and an array handle; for programs of many small
//! kernels (an `associativeScan` under `jit`: ~10 per round, ~160 for N = 1000) those costs
//! are most of the time. Which programs take this form is chosen in `strategy.rs`.
//!
//! The program's temps live in one scratch allocation per run, packed by lifetime at compile
//! time (a temp's bytes are reused once its last reader has run), so the memory a run needs is
//! about what the step-by-step path frees as it goes.

use std::rc::Rc;

use super::module::KernelModule;
use super::{code_stats, emit, WasmBackend};
use crate::backend::{Backend, BufferId, ExeId};
use crate::kernel::device_program::{DeviceProgram, LoopBody, LoopStep, SlotRole};
use crate::util::lru::Lru;
use crate::util::{Error, Result};

/// The most program modules kept.
const CAPACITY: usize = 64;
/// Scratch offsets are multiples of this (any dtype, and SIMD loads, stay aligned).
const ALIGN: usize = 16;

/// A compiled program: its module and where each temp lives in the scratch allocation.
struct Compiled {
    module: KernelModule,
    /// Byte offset of each slot in the scratch allocation (0 for non-temps).
    offsets: Vec<usize>,
    scratch: usize,
}

pub(super) struct ProgramCache {
    ids: Lru<Rc<LoopBody>, ExeId>,
    compiled: Lru<ExeId, Rc<Compiled>>,
    next: ExeId,
}

impl Default for ProgramCache {
    fn default() -> Self {
        ProgramCache {
            ids: Lru::new(CAPACITY),
            compiled: Lru::new(CAPACITY),
            next: 1,
        }
    }
}

impl ProgramCache {
    pub fn clear(&mut self) {
        self.ids.clear();
        self.compiled.clear();
    }
}

fn round_up(bytes: usize) -> usize {
    bytes.div_ceil(ALIGN) * ALIGN
}

/// Where each temp of a program lives in its scratch allocation ([`pack`]).
pub(super) struct Packing {
    /// Byte offset of each slot (0 for non-temps).
    offsets: Vec<usize>,
    /// Bytes of the whole scratch allocation.
    pub scratch: usize,
}

/// Packs the temps of `body` by lifetime: each is placed (first fit) when the step writing it
/// runs, and its bytes are released after its last reader.
pub(super) fn pack(body: &LoopBody) -> Packing {
    let n = body.slots.len();
    let temp = |s: usize| body.slots[s].role == SlotRole::Temp;
    let io = |step: &LoopStep| -> (Vec<usize>, Vec<usize>) {
        match step {
            LoopStep::Kernel { inputs, output, .. } => (inputs.clone(), vec![*output]),
            LoopStep::Routine {
                inputs, outputs, ..
            } => (inputs.clone(), outputs.clone()),
            // Every slot a nested loop touches is live during its step (not made by
            // `lower::whole`; packed correctly all the same).
            LoopStep::Loop {
                slots,
                init,
                finals,
                ..
            } => {
                let all: Vec<usize> = slots.iter().chain(init).chain(finals).copied().collect();
                (all.clone(), all)
            }
        }
    };
    let mut last = vec![0usize; n];
    for (i, step) in body.steps.iter().enumerate() {
        let (ins, outs) = io(step);
        for s in ins.into_iter().chain(outs) {
            last[s] = i;
        }
    }
    let mut offsets = vec![0usize; n];
    let mut placed = vec![false; n];
    // Free blocks (offset, bytes), sorted by offset; `top` is the end of the used space.
    let mut free: Vec<(usize, usize)> = Vec::new();
    let mut top = 0usize;
    for (i, step) in body.steps.iter().enumerate() {
        let (ins, outs) = io(step);
        for &s in &outs {
            if !temp(s) || placed[s] {
                continue;
            }
            let bytes = round_up(body.slots[s].bytes());
            placed[s] = true;
            offsets[s] = match free.iter().position(|&(_, b)| b >= bytes) {
                Some(k) => {
                    let (at, b) = free[k];
                    if b == bytes {
                        free.remove(k);
                    } else {
                        free[k] = (at + bytes, b - bytes);
                    }
                    at
                }
                None => {
                    top += bytes;
                    top - bytes
                }
            };
        }
        let mut done: Vec<usize> = ins.into_iter().chain(outs).collect();
        done.sort_unstable();
        done.dedup();
        for s in done.into_iter().filter(|&s| temp(s) && last[s] == i) {
            let bytes = round_up(body.slots[s].bytes());
            if bytes > 0 {
                free.push((offsets[s], bytes));
            }
        }
        free.sort_unstable();
        // Merge neighbouring free blocks.
        let mut merged: Vec<(usize, usize)> = Vec::with_capacity(free.len());
        for (at, b) in free.drain(..) {
            match merged.last_mut() {
                Some((pa, pb)) if *pa + *pb == at => *pb += b,
                _ => merged.push((at, b)),
            }
        }
        free = merged;
    }
    Packing {
        offsets,
        scratch: top,
    }
}

/// The program compiled for `plan`'s body, while the cache still holds it.
pub(super) fn cached(backend: &mut WasmBackend, plan: &DeviceProgram) -> Option<ExeId> {
    let cache = &mut backend.programs;
    let &id = cache.ids.get(&plan.body)?;
    cache.compiled.get(&id).is_some().then_some(id)
}

/// Whether `exe` is a program the cache still holds.
pub(super) fn is_compiled(backend: &mut WasmBackend, exe: ExeId) -> bool {
    backend.programs.compiled.get(&exe).is_some()
}

/// Emits and keeps the module of `plan` with its temps at `packing`; None where the loop
/// emitter refuses a step.
pub(super) fn compile(
    backend: &mut WasmBackend,
    plan: &DeviceProgram,
    packing: Packing,
) -> Result<Option<ExeId>> {
    let Ok(bytes) = emit::loops::emit_once(&plan.body) else {
        return Ok(None);
    };
    backend.code_bytes += bytes.len() as u64;
    backend.max_locals = backend.max_locals.max(code_stats::max_locals(&bytes));
    let module = KernelModule::new(&bytes, 0)?;
    let cache = &mut backend.programs;
    let id = cache.next;
    cache.next += 1;
    cache.ids.insert(plan.body.clone(), id);
    cache.compiled.insert(
        id,
        Rc::new(Compiled {
            module,
            offsets: packing.offsets,
            scratch: packing.scratch,
        }),
    );
    Ok(Some(id))
}

pub(super) fn internal(message: String) -> Error {
    Error::new("jit", format!("internal error: {message}"))
}

/// `Backend::run_program`: one call of the module compiled as `exe` (`strategy::program_to_run`)
/// on the program's `inputs`, writing its `outputs`.
pub(super) fn run(
    backend: &mut WasmBackend,
    exe: ExeId,
    plan: &DeviceProgram,
    inputs: &[BufferId],
    outputs: &[BufferId],
) -> Result<()> {
    let body = &plan.body;
    if inputs.len() != body.num_consts || outputs.len() != body.num_ys {
        return Err(internal("program buffers do not match the plan".into()));
    }
    let scratch_bytes = backend
        .programs
        .compiled
        .get(&exe)
        .map(|c| c.scratch)
        .unwrap_or(0);
    let scratch = backend.alloc(scratch_bytes.max(ALIGN))?;
    let result = call(backend, exe, body, inputs, outputs, scratch);
    backend.free(scratch);
    result
}

fn call(
    backend: &mut WasmBackend,
    exe: ExeId,
    body: &LoopBody,
    inputs: &[BufferId],
    outputs: &[BufferId],
    scratch: BufferId,
) -> Result<()> {
    let base = backend.buffer(scratch)?.address();
    let mut table: Vec<u32> = Vec::with_capacity(body.slots.len());
    let compiled = backend
        .programs
        .compiled
        .get(&exe)
        .cloned()
        .ok_or_else(|| internal(format!("unknown program {exe}")))?;
    for (s, info) in body.slots.iter().enumerate() {
        let id = match info.role {
            SlotRole::Const(j) => inputs[j],
            SlotRole::YRow(j) => outputs[j],
            _ => {
                table.push(base + compiled.offsets[s] as u32);
                continue;
            }
        };
        let b = backend.buffer(id)?;
        if b.len() < info.bytes() {
            return Err(internal(format!(
                "a program buffer has {} bytes, the program needs {}",
                b.len(),
                info.bytes()
            )));
        }
        table.push(b.address());
    }
    let table = backend.upload_table(&table)?;
    let at = backend.buffer(table)?.address();
    let result = compiled.module.call_args(&[1, 0, at]);
    backend.free(table);
    result?;
    backend.dispatches += 1;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::DType;
    use crate::kernel::device_program::SlotInfo;
    use crate::kernel::{AluExp, Kernel};

    fn step(inputs: Vec<usize>, output: usize, size: usize) -> LoopStep {
        let f = DType::Float32;
        LoopStep::Kernel {
            kernel: Kernel::elementwise(
                vec![f; inputs.len()],
                size,
                AluExp::load(f, 0, AluExp::index()),
            ),
            inputs,
            output,
        }
    }

    #[test]
    fn packed_temps_never_overlap_while_live_and_reuse_dead_bytes() {
        let slot = |role, elements| SlotInfo {
            role,
            dtype: DType::Float32,
            elements,
        };
        // in → t1 → t2 → t3 → t4, y = t4 + t1: t1 lives to the end, t2 and t3 die early.
        let body = LoopBody {
            slots: vec![
                slot(SlotRole::Const(0), 8),
                slot(SlotRole::Temp, 8),
                slot(SlotRole::Temp, 8),
                slot(SlotRole::Temp, 8),
                slot(SlotRole::Temp, 8),
                slot(SlotRole::YRow(0), 8),
            ],
            steps: vec![
                step(vec![0], 1, 8),
                step(vec![1], 2, 8),
                step(vec![2], 3, 8),
                step(vec![3], 4, 8),
                step(vec![4, 1], 5, 8),
            ],
            num_consts: 1,
            num_carry: 0,
            num_xs: 0,
            num_ys: 1,
            rows: vec![],
        };
        let Packing { offsets, scratch } = pack(&body);
        let live = [(1, 0, 4), (2, 1, 2), (3, 2, 3), (4, 3, 4)];
        for &(a, da, la) in &live {
            for &(b, db, lb) in &live {
                if a < b && da <= lb && db <= la {
                    let (oa, ob) = (offsets[a], offsets[b]);
                    assert!(oa + 32 <= ob || ob + 32 <= oa, "temps {a} and {b} overlap");
                }
            }
        }
        // Three temps live at most at once (t1 and two neighbours): 96 bytes, not 128.
        assert_eq!(scratch, 96);
    }
}
