//! The one place that chooses how work runs on the wasm device. Every cap these choices read
//! is in `backend::caps`.
//!
//! A compiled scan (`Backend::compile_loop`): always one loop module (`loops`), every step in
//! one call; kernels small enough are unrolled inside it (`emit::unroll`, the
//! `WASM_UNROLL_*` caps).
//!
//! A whole jitted program (`Backend::compile_program`, a one-step loop): one module call
//! (`program`) when [`one_call_suits`] it (no carries or xs, at most
//! `WASM_PROGRAM_MAX_STEPS` steps, every kernel within `WASM_PROGRAM_MAX_KERNEL_ELEMENTS`, no
//! routine split across threads), its packed temps fit `WASM_PROGRAM_MAX_SCRATCH_BYTES` and
//! the loop emitter takes every step; else None: it runs step by step, where large kernels and
//! batched routines are split across worker threads (the one-call module runs on the calling
//! thread).
//!
//! A kernel or batched routine of the step-by-step path: split across worker threads
//! (`threads`) when its work reaches `WASM_SPLIT_MIN_WORK` ([`kernel_splits`],
//! [`routine_splits`]), else one call on the calling thread.

use super::{loops, program, threads, WasmBackend};
use crate::backend::caps::{
    WASM_PROGRAM_MAX_KERNEL_ELEMENTS, WASM_PROGRAM_MAX_SCRATCH_BYTES, WASM_PROGRAM_MAX_STEPS,
    WASM_SPLIT_MIN_WORK,
};
use crate::backend::ExeId;
use crate::kernel::device_program::{DeviceProgram, LoopStep};
use crate::kernel::Routine;
use crate::util::Result;

/// `Backend::compile_loop`: the loop module of `plan` and its path detail.
pub(super) fn compile_loop(
    backend: &mut WasmBackend,
    plan: &DeviceProgram,
) -> Result<(ExeId, String)> {
    loops::compile(backend, plan)
}

/// Whether the one-call form suits `plan`: a one-step loop without carries or xs whose kernels
/// are all small and whose routines all run on the calling thread.
pub(super) fn one_call_suits(plan: &DeviceProgram) -> bool {
    let body = &plan.body;
    plan.length == 1
        && body.steps.len() <= WASM_PROGRAM_MAX_STEPS
        && body.num_carry == 0
        && body.num_xs == 0
        && body.steps.iter().all(|s| match s {
            LoopStep::Kernel { kernel, .. } => kernel.size <= WASM_PROGRAM_MAX_KERNEL_ELEMENTS,
            LoopStep::Routine { routine, .. } => !routine_splits(routine),
            // (`lower::whole` makes none: a scan keeps its own path.)
            LoopStep::Loop { .. } => false,
        })
}

/// `Backend::compile_program`: the one-call module of `plan`, or None where the program runs
/// step by step.
pub(super) fn compile_program(
    backend: &mut WasmBackend,
    plan: &DeviceProgram,
) -> Result<Option<ExeId>> {
    if !one_call_suits(plan) {
        return Ok(None);
    }
    if let Some(id) = program::cached(backend, plan) {
        return Ok(Some(id));
    }
    let packing = program::pack(&plan.body);
    if packing.scratch > WASM_PROGRAM_MAX_SCRATCH_BYTES {
        return Ok(None);
    }
    program::compile(backend, plan, packing)
}

/// The program to run for `exe`, compiled for `plan` (`Backend::run_program`): `exe` itself,
/// or the same form compiled again from `plan` when the cache dropped it.
pub(super) fn program_to_run(
    backend: &mut WasmBackend,
    exe: ExeId,
    plan: &DeviceProgram,
) -> Result<ExeId> {
    if program::is_compiled(backend, exe) {
        return Ok(exe);
    }
    compile_program(backend, plan)?
        .ok_or_else(|| program::internal("a compiled program can no longer be compiled".into()))
}

/// Whether a kernel dispatch of `work` (`threads::work`) is split across worker threads.
pub(super) fn kernel_splits(work: u64) -> bool {
    work >= WASM_SPLIT_MIN_WORK || threads::split_everything()
}

/// Whether dispatches of `routine` are split across threads: an emitted routine (host routines
/// are compiled Rust of the main module, which workers cannot run) with a batch of more than
/// one problem and enough work.
pub(super) fn routine_splits(routine: &Routine) -> bool {
    routine.batch > 1
        && super::host::import_name(routine.kind).is_none()
        && kernel_splits(threads::routine_work(routine))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::DType;
    use crate::kernel::device_program::{LoopBody, SlotInfo, SlotRole};
    use crate::kernel::{AluExp, Kernel};
    use std::rc::Rc;

    fn program(size: usize, steps: usize, num_carry: usize) -> DeviceProgram {
        let f = DType::Float32;
        let slot = |role| SlotInfo {
            role,
            dtype: f,
            elements: size,
        };
        let kernel = LoopStep::Kernel {
            kernel: Kernel::elementwise(vec![f], size, AluExp::load(f, 0, AluExp::index())),
            inputs: vec![0],
            output: 1,
        };
        DeviceProgram {
            body: Rc::new(LoopBody {
                slots: vec![slot(SlotRole::Const(0)), slot(SlotRole::YRow(0))],
                steps: vec![kernel; steps],
                num_consts: 1,
                num_carry,
                num_xs: 0,
                num_ys: 1,
                rows: vec![],
            }),
            length: 1,
            reverse: false,
        }
    }

    #[test]
    fn one_call_takes_small_programs_within_every_cap() {
        assert!(one_call_suits(&program(8, 5, 0)));
        assert!(one_call_suits(&program(
            WASM_PROGRAM_MAX_KERNEL_ELEMENTS,
            WASM_PROGRAM_MAX_STEPS,
            0
        )));
        assert!(!one_call_suits(&program(
            WASM_PROGRAM_MAX_KERNEL_ELEMENTS + 1,
            5,
            0
        )));
        assert!(!one_call_suits(&program(8, WASM_PROGRAM_MAX_STEPS + 1, 0)));
        assert!(!one_call_suits(&program(8, 5, 1)));
    }

    #[test]
    fn dispatches_split_from_the_minimum_work() {
        assert!(kernel_splits(WASM_SPLIT_MIN_WORK));
        assert!(!kernel_splits(WASM_SPLIT_MIN_WORK - 1));
        threads::set_split_everything(true);
        assert!(kernel_splits(0));
        threads::set_split_everything(false);
    }
}
