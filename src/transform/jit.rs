//! `jit`: a traced ClosedJaxpr run as a lowered [`Program`]. [`Compiled`] holds the Jaxpr
//! (and so its captured constants, decision 3) with its structural key; the first call on a
//! device finds the Program in the global bounded cache (`jit_cache`) or lowers it there, and
//! [`execute`] runs its steps: kernels through the device's backend, fallback steps through the
//! eager evaluator, freeing each intermediate after its last use; or, where the device runs a
//! whole program as one call (webgpu, for many small kernels), all at once (`jit_whole`). Kernel
//! steps' compiled ids are kept beside the Program (`runnable`), so a repeated call does no
//! compile lookups.

use crate::util::panic_cell::PanicCell;
use std::rc::Rc;

use super::eval;
use super::jit_cache;
use super::runnable::Runnable;
use super::trace::{self, ClosedJaxpr, Value};
use super::value::ArrayValue;
use crate::backend::{registry, BufferId};
use crate::core::key::{structural_key, StructuralKey};
use crate::core::view::ShapeTracker;
use crate::core::{Aval, Device};
use crate::kernel::Kernel;
use crate::lower::{Arg, Fusion, Step};
use crate::util::{Error, Result};

const NAME: &str = "jit";

/// A traced function ready to run.
pub struct Compiled {
    closed: ClosedJaxpr,
    key: StructuralKey,
    fusion: Fusion,
    memo: PanicCell<Option<(Device, Rc<Runnable>)>>,
}

impl Compiled {
    /// `closed`, lowered with full fusion (`jit`).
    pub fn new(closed: ClosedJaxpr) -> Compiled {
        Compiled::with_fusion(closed, Fusion::Full)
    }

    /// `closed`, lowered with `fusion`.
    pub fn with_fusion(closed: ClosedJaxpr, fusion: Fusion) -> Compiled {
        let key = structural_key(&closed.jaxpr);
        Compiled {
            closed,
            key,
            fusion,
            memo: PanicCell::new(None),
        }
    }

    pub fn closed(&self) -> &ClosedJaxpr {
        &self.closed
    }

    /// The Program for `device` (lowered now, or found in the cache), with its runtime state.
    pub fn program(&self, device: Device) -> Rc<Runnable> {
        if let Some((d, p)) = &*self.memo.borrow() {
            if *d == device {
                return p.clone();
            }
        }
        let p = jit_cache::get_or_lower(&self.key, &self.closed.jaxpr, device, self.fusion);
        *self.memo.borrow_mut() = Some((device, p.clone()));
        p
    }

    /// Runs the function on concrete `args` (its constants are passed first).
    pub fn call(&self, args: &[Value]) -> Result<Vec<Value>> {
        if trace::top_frame().is_some() {
            return Err(Error::new(
                NAME,
                "internal error: a compiled function ran while a trace is open",
            ));
        }
        let j = &self.closed.jaxpr;
        if args.len() != j.in_binders.len() {
            return Err(Error::new(
                NAME,
                format!(
                    "expected {} arguments, got {}",
                    j.in_binders.len(),
                    args.len()
                ),
            ));
        }
        let mut inputs = Vec::with_capacity(self.closed.consts.len() + args.len());
        for c in &self.closed.consts {
            inputs.push(c.concrete(NAME)?.clone());
        }
        for (a, v) in args.iter().zip(&j.in_binders) {
            let a = a.concrete(NAME)?;
            let want = &j.avals[v.0 as usize];
            if a.aval.shape != want.shape || a.aval.dtype != want.dtype {
                return Err(Error::new(
                    NAME,
                    format!(
                        "internal error: argument {} where the trace had {}",
                        a.aval.describe(),
                        want.describe()
                    ),
                ));
            }
            inputs.push(a.clone());
        }
        let refs: Vec<&ArrayValue> = inputs.iter().collect();
        let device = eval::device_for(NAME, &refs)?;
        let program = self.program(device);
        let outs = execute(&program, inputs, device)?;
        Ok(outs.into_iter().map(Value::Concrete).collect())
    }
}

/// Runs kernel step `index` with the compiled id kept for `device` beside the Program
/// (compiling and keeping it when there is none), so repeated calls skip hashing the kernel.
/// Returns None where the general path is needed: inputs read through views or from another
/// device, or more inputs than one kernel may bind.
fn run_kept(
    runnable: &Runnable,
    index: usize,
    kernel: &Kernel,
    ins: &[&ArrayValue],
    aval: &Aval,
    device: Device,
) -> Result<Option<ArrayValue>> {
    if ins
        .iter()
        .any(|v| v.device != device || !v.view.is_contiguous())
    {
        return Ok(None);
    }
    registry::check_dtype(NAME, device, aval.dtype)?;
    let ids: Vec<BufferId> = ins.iter().map(|v| v.buffer.id).collect();
    let out = registry::alloc(NAME, device, aval.byte_size())?;
    let ran = registry::with_backend(NAME, device, |b| {
        if kernel.inputs.len() > b.limits().max_kernel_inputs {
            return Ok(false);
        }
        let exe = match runnable.exes.get(device, b.exe_generation(), index) {
            Some(exe) => exe,
            None => {
                let exe = b.compile(kernel)?;
                runnable.exes.set(device, b.exe_generation(), index, exe);
                exe
            }
        };
        b.dispatch(exe, &ids, out.id)?;
        Ok(true)
    })?;
    if !ran {
        return Ok(None);
    }
    Ok(Some(ArrayValue {
        aval: aval.clone(),
        device,
        buffer: out,
        view: ShapeTracker::contiguous(&aval.shape),
        committed: ins.iter().any(|v| v.committed),
    }))
}

fn missing() -> Error {
    Error::new(NAME, "internal error: a program read a freed slot")
}

/// Runs a Program on `inputs` (constants, then arguments) on `device`, keeping compiled ids
/// in `runnable`.
pub fn execute(
    runnable: &Runnable,
    inputs: Vec<ArrayValue>,
    device: Device,
) -> Result<Vec<ArrayValue>> {
    let program = &runnable.program;
    let placed = inputs
        .iter()
        .map(|v| eval::to_device(NAME, v, device))
        .collect::<Result<Vec<_>>>()?;
    drop(inputs);
    if let Some(outs) = super::jit_whole::try_run(runnable, &placed, device)? {
        return Ok(outs);
    }
    let kernels = program
        .steps
        .iter()
        .filter(|s| matches!(s, Step::Kernel { .. }))
        .count();
    let others = program.steps.len() - kernels;
    registry::with_backend(NAME, device, |b| {
        b.reserve_exes(kernels, others);
        Ok(())
    })?;
    let mut slots: Vec<Option<ArrayValue>> = vec![None; program.avals.len()];
    for (i, v) in placed.into_iter().enumerate() {
        slots[i] = Some(v);
    }
    let literal = |x: f64, aval: &crate::core::Aval| -> Result<ArrayValue> {
        let mut v = ArrayValue::weak_scalar(NAME, x, aval.dtype, device)?;
        v.aval.weak = aval.weak;
        Ok(v)
    };
    for (index, (step, frees)) in program.steps.iter().zip(&program.frees).enumerate() {
        match step {
            Step::Kernel {
                kernel,
                inputs,
                output,
            } => {
                let ins = inputs
                    .iter()
                    .map(|&s| slots[s].as_ref().ok_or_else(missing))
                    .collect::<Result<Vec<_>>>()?;
                let aval = program.avals[*output].clone();
                let out = match run_kept(runnable, index, kernel, &ins, &aval, device)? {
                    Some(out) => out,
                    None => eval::run(NAME, device, kernel, &ins, aval)?,
                };
                slots[*output] = Some(out);
            }
            Step::Fallback {
                primitive,
                inputs,
                outputs,
            } => {
                let mut held = Vec::with_capacity(inputs.len());
                for a in inputs {
                    held.push(match a {
                        Arg::Slot(s) => slots[*s].clone().ok_or_else(missing)?,
                        Arg::Literal(x, aval) => literal(*x, aval)?,
                    });
                }
                let refs: Vec<&ArrayValue> = held.iter().collect();
                let values = eval::apply_multi(primitive, &refs)?;
                if values.len() != outputs.len() {
                    return Err(Error::new(
                        primitive.name(),
                        "internal error: output count differs from the trace",
                    ));
                }
                // Fallback results are stored densely, like every other slot.
                for (&slot, value) in outputs.iter().zip(values) {
                    slots[slot] = Some(value.materialize(NAME)?);
                }
            }
        }
        for &s in frees {
            slots[s] = None;
        }
    }
    program
        .outputs
        .iter()
        .map(|a| match a {
            Arg::Slot(s) => slots[*s].clone().ok_or_else(missing),
            Arg::Literal(x, aval) => literal(*x, aval),
        })
        .collect()
}
