//! float16 scan bodies on webgpu, rewritten to run widened. The looping shaders
//! pack every value in 32-bit words, one invocation per element, so a float16 value (two to a
//! word) cannot be written there without a race. Instead the loop runs WIDENED: every float16
//! slot becomes a float32 slot holding the same, exact float16 value, and every kernel reads
//! it as float32 and narrows it back (`cast(load f32, f16)`, exact), computes as before (f16
//! arithmetic is f32 arithmetic rounded to f16 at every float16 node, `wgsl_half`), and widens
//! its float16 result for storing (exact). A reduction over float16 values accumulates in f32
//! and is rounded once, by an epilogue (as webgpu's float16 sums do). So the widened loop gives
//! the float16 loop's values, and runs on any of the compiled forms (`compiled`: serial,
//! level-scheduled or pre-encoded).
//!
//! Widening is a rewrite of the plan (`strategy` applies it before choosing a form). Around
//! the one compiled loop, [`run_widened`] converts each float16 operand (consts, xs, initial
//! carries) into a float32 buffer and the float32 results (ys, final carries) back, one
//! elementwise conversion dispatch each. Only where the adapter has `shader-f16` (without it
//! float16 arrays never reach webgpu); a body whose routines see float16 is not compiled.

use super::compiled;
use crate::backend::webgpu::WebGpuBackend;
use crate::backend::{Backend, BufferId, ExeId};
use crate::core::DType;
use crate::kernel::device_program::{
    DeviceProgram, LoopBody, LoopBuffers, LoopStep, SlotInfo, SlotRole,
};
use crate::kernel::{AluExp, AluKind, Kernel};
use crate::util::{Error, Result};

const F16: DType = DType::Float16;
const F32: DType = DType::Float32;

/// Whether any slot of `body` (or of a nested loop's body) is float16.
fn has_half(body: &LoopBody) -> bool {
    body.slots.iter().any(|s| s.dtype == F16)
        || body.steps.iter().any(|st| match st {
            LoopStep::Loop { inner, .. } => has_half(&inner.body),
            _ => false,
        })
}

/// `exp` with each load of a float16 input (of `inputs`) reading float32 and narrowing.
fn widen_exp(exp: &AluExp, inputs: &[DType]) -> AluExp {
    exp.rewrite(&|n: &AluExp| match &n.kind {
        AluKind::Load { input, index } if inputs.get(*input) == Some(&F16) => Some(AluExp::cast(
            AluExp::load(F32, *input, widen_exp(index, inputs)),
            F16,
        )),
        _ => None,
    })
}

/// `kernel` over float32 buffers where it had float16 ones (see the module doc).
fn widen_kernel(kernel: &Kernel) -> Kernel {
    let inputs: Vec<DType> = kernel
        .inputs
        .iter()
        .map(|&d| if d == F16 { F32 } else { d })
        .collect();
    let exp = widen_exp(&kernel.exp, &kernel.inputs);
    if kernel.exp.dtype != F16 {
        return Kernel {
            inputs,
            exp,
            ..kernel.clone()
        };
    }
    // The value (or each reduced term) widened; the reduced value rounded to float16 and the
    // epilogue applied in float16, then widened.
    let epilogue = match (&kernel.epilogue, kernel.reduction) {
        (None, None) => None,
        (ep, _) => {
            let ep = ep.clone().unwrap_or(AluExp::load(F16, 0, AluExp::index()));
            Some(AluExp::cast(widen_exp(&ep, &[F16]), F32))
        }
    };
    Kernel {
        inputs,
        size: kernel.size,
        exp: AluExp::cast(exp, F32),
        reduction: kernel.reduction,
        epilogue,
    }
}

/// `body` with float16 slots as float32 ones; None where a routine reads or writes float16.
fn widen_body(body: &LoopBody) -> Option<LoopBody> {
    let slots = body
        .slots
        .iter()
        .map(|s| SlotInfo {
            dtype: if s.dtype == F16 { F32 } else { s.dtype },
            ..*s
        })
        .collect();
    let mut steps = Vec::with_capacity(body.steps.len());
    for st in &body.steps {
        steps.push(match st {
            LoopStep::Kernel {
                kernel,
                inputs,
                output,
            } => LoopStep::Kernel {
                kernel: widen_kernel(kernel),
                inputs: inputs.clone(),
                output: *output,
            },
            LoopStep::Routine {
                inputs, outputs, ..
            } => {
                if inputs
                    .iter()
                    .chain(outputs)
                    .any(|&s| body.slots[s].dtype == F16)
                {
                    return None;
                }
                st.clone()
            }
            LoopStep::Loop {
                inner,
                slots,
                init,
                finals,
            } => LoopStep::Loop {
                inner: DeviceProgram {
                    body: std::rc::Rc::new(widen_body(&inner.body)?),
                    ..inner.clone()
                },
                slots: slots.clone(),
                init: init.clone(),
                finals: finals.clone(),
            },
        });
    }
    Some(LoopBody {
        slots,
        steps,
        rows: body.rows.clone(),
        ..*body
    })
}

/// The widened loop of `plan` (see the module doc), or why there is none.
fn widen(plan: &DeviceProgram) -> Result<DeviceProgram> {
    let body = widen_body(&plan.body).ok_or_else(|| {
        Error::new(
            "webgpu",
            "a float16 scan body whose routines read float16 is not compiled",
        )
    })?;
    Ok(DeviceProgram {
        body: std::rc::Rc::new(body),
        ..plan.clone()
    })
}

/// A whole program's body (a one-step loop, `lower::whole`) widened for the mixed path
/// (`mixed`): every float16 temp a float32 slot holding the same value, every kernel reading
/// and writing float32 as for scans, and each float16 input and output of the program a
/// float32 twin, converted from it by a kernel at the start (outputs: into it at the end).
/// Those conversions are then the only steps that touch float16. None when the body has no
/// float16 slot, or a routine reads or writes float16.
pub(super) fn widened_program(body: &LoopBody) -> Option<LoopBody> {
    if !body.slots.iter().any(|s| s.dtype == F16) || body.rows.len() != body.slots.len() {
        return None;
    }
    let mut wide = widen_body(body)?;
    let mut twin: Vec<usize> = (0..body.slots.len()).collect();
    let (mut head, mut tail) = (Vec::new(), Vec::new());
    for (s, info) in body.slots.iter().enumerate() {
        if info.dtype != F16 || !matches!(info.role, SlotRole::Const(_) | SlotRole::YRow(_)) {
            continue;
        }
        let t = wide.slots.len();
        wide.slots.push(SlotInfo {
            role: SlotRole::Temp,
            dtype: F32,
            elements: info.elements,
        });
        wide.rows.push(body.rows[s]);
        wide.slots[s].dtype = F16;
        twin[s] = t;
        let convert = |input: usize, output: usize, from: DType, to: DType| LoopStep::Kernel {
            kernel: Kernel::elementwise(
                vec![from],
                info.elements,
                AluExp::cast(AluExp::load(from, 0, AluExp::index()), to),
            ),
            inputs: vec![input],
            output,
        };
        match info.role {
            SlotRole::Const(_) => head.push(convert(s, t, F16, F32)),
            _ => tail.push(convert(t, s, F32, F16)),
        }
    }
    for step in wide.steps.iter_mut() {
        match step {
            LoopStep::Kernel { inputs, output, .. } => {
                inputs.iter_mut().for_each(|s| *s = twin[*s]);
                *output = twin[*output];
            }
            LoopStep::Routine {
                inputs, outputs, ..
            } => {
                inputs
                    .iter_mut()
                    .chain(outputs.iter_mut())
                    .for_each(|s| *s = twin[*s]);
            }
            LoopStep::Loop { .. } => return None,
        }
    }
    head.append(&mut wide.steps);
    head.append(&mut tail);
    wide.steps = head;
    Some(wide)
}

/// The rewrite of `plan` for the looping shaders: None when it has no float16 slot (it runs
/// as it is), else its widened loop (an error without the adapter's `shader-f16`, or when a
/// routine reads float16).
pub(super) fn widened(gpu: &WebGpuBackend, plan: &DeviceProgram) -> Result<Option<DeviceProgram>> {
    if !has_half(&plan.body) {
        return Ok(None);
    }
    if !gpu.float16 {
        return Err(Error::new(
            "webgpu",
            "float16 scan bodies need the adapter's shader-f16 feature",
        ));
    }
    widen(plan).map(Some)
}

/// A dispatch of the elementwise conversion of `elements` values from `src` (`from`) into
/// `dst` (`to`).
fn convert(
    gpu: &mut WebGpuBackend,
    src: BufferId,
    dst: BufferId,
    elements: usize,
    from: DType,
    to: DType,
) -> Result<()> {
    let exp = AluExp::cast(AluExp::load(from, 0, AluExp::index()), to);
    let exe = gpu.compile(&Kernel::elementwise(vec![from], elements, exp))?;
    gpu.dispatch(exe, &[src], dst)
}

/// Runs the compiled loop `exe` of `wide` (the widened loop of `plan`, a float16 body) over
/// float32 copies of the float16 buffers (see the module doc).
pub(super) fn run_widened(
    gpu: &mut WebGpuBackend,
    exe: ExeId,
    plan: &DeviceProgram,
    wide: &DeviceProgram,
    buffers: LoopBuffers<'_, BufferId>,
) -> Result<()> {
    let body = &plan.body;
    let (nk, n) = (body.num_carry, plan.length);
    if buffers.slots.len() != body.slots.len() || buffers.init.len() != nk {
        return Err(Error::new(
            "scan",
            "internal error: loop buffers do not match the plan",
        ));
    }
    let mut made: Vec<BufferId> = Vec::new();
    let result = (|| {
        let mut fresh = |gpu: &mut WebGpuBackend, elements: usize| -> Result<BufferId> {
            let b = gpu.alloc(elements.max(1) * 4)?;
            made.push(b);
            Ok(b)
        };
        let mut slots = buffers.slots.to_vec();
        // (float32 buffer, float16 buffer, elements) to convert back after the loop.
        let mut back: Vec<(BufferId, BufferId, usize)> = Vec::new();
        for (s, info) in body.slots.iter().enumerate() {
            if info.dtype != F16 {
                continue;
            }
            let rows = match info.role {
                SlotRole::XRow(_) | SlotRole::YRow(_) => n,
                _ => 1,
            };
            let elements = info.elements * rows;
            let wide_buffer = fresh(gpu, elements)?;
            match info.role {
                SlotRole::Const(_) | SlotRole::XRow(_) if elements > 0 => {
                    convert(gpu, slots[s], wide_buffer, elements, F16, F32)?
                }
                SlotRole::YRow(_) => back.push((wide_buffer, slots[s], elements)),
                _ => {}
            }
            slots[s] = wide_buffer;
        }
        let mut init = buffers.init.to_vec();
        let mut finals = buffers.finals.to_vec();
        for k in 0..nk {
            let info = body.slots[body.carry_in(k)];
            if info.dtype != F16 {
                continue;
            }
            let (i, f) = (fresh(gpu, info.elements)?, fresh(gpu, info.elements)?);
            if info.elements > 0 {
                convert(gpu, init[k], i, info.elements, F16, F32)?;
            }
            back.push((f, finals[k], info.elements));
            init[k] = i;
            finals[k] = f;
        }
        compiled::run(
            gpu,
            exe,
            wide,
            LoopBuffers {
                slots: &slots,
                init: &init,
                finals: &finals,
            },
        )?;
        for (src, dst, elements) in back {
            if elements > 0 {
                convert(gpu, src, dst, elements, F32, F16)?;
            }
        }
        Ok(())
    })();
    for b in made {
        gpu.free(b);
    }
    result
}
