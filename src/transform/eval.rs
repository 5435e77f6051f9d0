//! Eager evaluation: one primitive applied to concrete arrays, as a one-equation program
//! ([`apply`], or [`apply_multi`] for primitives with several outputs; movement operations,
//! `stop_gradient` and bitcasts share their operand's buffer instead), and [`eval_jaxpr`],
//! which runs a whole Jaxpr equation by equation on concrete arrays whatever traces are open.

use std::collections::HashMap;

use std::rc::Rc;

use crate::backend::{registry, DeviceBuffer, ExeId};
use crate::core::jaxpr::{Atom, Jaxpr, Var};
use crate::core::view::ShapeTracker;
use crate::core::{Aval, Device, Primitive};
use crate::kernel::split::{split_inputs, Source};
use crate::kernel::{contract, simplify, view_index, Kernel};
use crate::rules;
use crate::rules::movement;
use crate::transform::{eager_exes, eval_host, ArrayValue};
use crate::util::{Error, Result};

/// The device an operation runs on: that of its committed operands (which must agree), else
/// that of its first operand, else the default device. Uncommitted operands elsewhere move.
fn choose_device(prim: &Primitive, inputs: &[&ArrayValue]) -> Result<Device> {
    device_for(prim.name(), inputs)
}

/// [`choose_device`] for `function` (also used by `jit` for a whole program).
pub fn device_for(function: &str, inputs: &[&ArrayValue]) -> Result<Device> {
    let committed: Vec<Device> = inputs
        .iter()
        .filter(|v| v.committed)
        .map(|v| v.device)
        .collect();
    if let Some(&first) = committed.first() {
        if let Some(other) = committed.iter().find(|&&d| d != first) {
            return Err(Error::new(
                function,
                format!(
                    "operands are committed to different devices ({} and {}); move one with devicePut",
                    first.name(),
                    other.name()
                ),
            ));
        }
        return Ok(first);
    }
    Ok(inputs
        .first()
        .map_or_else(super::scope::device, |v| v.device))
}

/// Applies `prim` to `inputs` and returns all its outputs (multi-output primitives have their
/// arms here; the others are [`apply`]).
pub fn apply_multi(prim: &Primitive, inputs: &[&ArrayValue]) -> Result<Vec<ArrayValue>> {
    match prim {
        Primitive::Scan(p) => super::scan_eval::run(p, inputs),
        _ if rules::family(prim) == rules::Family::Routine => {
            let device = choose_device(prim, inputs)?;
            super::eval_routine::apply(prim, device, inputs)
        }
        _ => Ok(vec![apply(prim, inputs)?]),
    }
}

/// Runs `jaxpr` on concrete `consts` and `args` (one per const and in binder) and returns its
/// outputs; operand-less equations run on the device of the committed inputs (`scope`). Every equation runs eagerly through [`apply_multi`], even while a trace is open
/// (this never records anything). Literal operands become weak scalars on the device of the
/// equation's first array operand.
pub fn eval_jaxpr(
    jaxpr: &Jaxpr,
    consts: &[ArrayValue],
    args: &[ArrayValue],
) -> Result<Vec<ArrayValue>> {
    super::scope::follow_arrays(consts.iter().chain(args), || {
        eval_jaxpr_here(jaxpr, consts, args)
    })
}

fn eval_jaxpr_here(
    jaxpr: &Jaxpr,
    consts: &[ArrayValue],
    args: &[ArrayValue],
) -> Result<Vec<ArrayValue>> {
    if consts.len() != jaxpr.const_binders.len() || args.len() != jaxpr.in_binders.len() {
        return Err(Error::new(
            "eval_jaxpr",
            "internal error: argument count mismatch",
        ));
    }
    let mut env: HashMap<Var, ArrayValue> = HashMap::new();
    let binders = jaxpr.const_binders.iter().chain(&jaxpr.in_binders);
    for (v, x) in binders.zip(consts.iter().chain(args)) {
        env.insert(*v, x.clone());
    }
    let read = |env: &HashMap<Var, ArrayValue>, a: &Atom, device: Device| match a {
        Atom::Var(v) => Ok(env[v].clone()),
        Atom::Literal(x, aval) => ArrayValue::weak_scalar("eval_jaxpr", *x, aval.dtype, device),
    };
    for eqn in &jaxpr.eqns {
        let device = eqn
            .inputs
            .iter()
            .find_map(|a| match a {
                Atom::Var(v) => Some(env[v].device),
                Atom::Literal(..) => None,
            })
            .unwrap_or_else(super::scope::device);
        let ins = eqn
            .inputs
            .iter()
            .map(|a| read(&env, a, device))
            .collect::<Result<Vec<_>>>()?;
        let refs: Vec<&ArrayValue> = ins.iter().collect();
        let outs = apply_multi(&eqn.primitive, &refs)?;
        for (v, o) in eqn.outputs.iter().zip(outs) {
            env.insert(*v, o);
        }
    }
    let device = super::scope::device();
    jaxpr.outs.iter().map(|a| read(&env, a, device)).collect()
}

/// Applies `prim` to `inputs` on their device and returns the new array.
pub fn apply(prim: &Primitive, inputs: &[&ArrayValue]) -> Result<ArrayValue> {
    // View changes share the operand's buffer: no kernel, no copy.
    let is_view = rules::family(prim) == rules::Family::Movement
        && !matches!(prim, Primitive::Concatenate(_));
    if *prim == Primitive::StopGradient {
        return Ok(inputs[0].clone());
    }
    // A bitcast between dtypes of one element size reads the same bytes at the same element
    // indices: the result shares the operand's buffer and view under its own aval.
    if let Primitive::Bitcast(_) = prim {
        let x = inputs[0];
        let aval = rules::abstract_eval(prim, &[&x.aval])?;
        return Ok(ArrayValue {
            aval,
            view: x.view.clone(),
            device: x.device,
            buffer: x.buffer.clone(),
            committed: x.committed,
        });
    }
    if is_view {
        let x = inputs[0];
        let aval = rules::abstract_eval(prim, &[&x.aval])?;
        let view = movement::apply_view(prim, &x.view)?;
        // Only the buffer is shared: cloning all of `x` would copy its aval and view too.
        return Ok(ArrayValue {
            aval,
            view,
            device: x.device,
            buffer: x.buffer.clone(),
            committed: x.committed,
        });
    }
    if rules::family(prim) == rules::Family::Routine {
        let device = choose_device(prim, inputs)?;
        return Ok(super::eval_routine::apply(prim, device, inputs)?.remove(0));
    }
    // Chosen once; its error, if any, is reported after the operation's own checks below.
    let chosen = choose_device(prim, inputs);
    // Small operations on dense host-held operands are computed on the host (`eval_host`).
    let mut host_declined = false;
    if let Ok(device) = chosen {
        match eval_host::apply(prim, device, inputs)? {
            eval_host::Applied::Computed(out) => return Ok(out),
            eval_host::Applied::Declined => host_declined = true,
            eval_host::Applied::NotHeld => {}
        }
    }
    // Dense operands on the operation's device: the kernel compiled for these avals before,
    // if still compiled, runs again as it is (`eager_exes`).
    let here = chosen
        .as_ref()
        .ok()
        .copied()
        .filter(|&d| eager_exes::dense_on(inputs, d));
    if let Some(device) = here {
        if let Some(compiled) = eager_exes::lookup(prim, inputs, device) {
            if let Some(out) = run_compiled(prim.name(), device, &compiled, inputs)? {
                return Ok(out);
            }
        }
    }
    let avals: Vec<_> = inputs.iter().map(|v| &v.aval).collect();
    let out_aval = rules::abstract_eval(prim, &avals)?;
    let kernel = rules::to_kernel(prim, &avals, &out_aval)?;
    let device = chosen?;
    let (out, exe) = run_kernel(
        prim.name(),
        device,
        &kernel,
        inputs,
        out_aval,
        !host_declined,
    )?;
    if let (Some(d), Some((exe, generation))) = (here, exe) {
        let out_aval = out.aval.clone();
        let compiled = eager_exes::Compiled {
            out_aval,
            exe,
            generation,
        };
        eager_exes::record(prim, inputs, d, compiled);
    }
    Ok(out)
}

/// Dispatches a kept compiled application (`eager_exes`) on dense operands already on
/// `device`; None when the device's compile cache no longer holds its kernel.
fn run_compiled(
    function: &str,
    device: Device,
    compiled: &eager_exes::Compiled,
    inputs: &[&ArrayValue],
) -> Result<Option<ArrayValue>> {
    let out = registry::alloc(function, device, compiled.out_aval.byte_size())?;
    let ids: Vec<_> = inputs.iter().map(|v| v.buffer.id).collect();
    let ran = registry::with_backend(function, device, |b| {
        if b.exe_generation() != compiled.generation {
            return Ok(false);
        }
        b.dispatch(compiled.exe, &ids, out.id).map(|()| true)
    })?;
    Ok(ran.then(|| ArrayValue {
        aval: compiled.out_aval.clone(),
        device,
        buffer: out,
        view: ShapeTracker::contiguous(&compiled.out_aval.shape),
        // The result is committed when an operand was (a copy keeps its source's placement).
        committed: inputs.iter().any(|v| v.committed),
    }))
}

/// A dense copy of `x` (what reading a view needs).
pub fn copy(function: &str, x: &ArrayValue) -> Result<ArrayValue> {
    let kernel = movement::copy_kernel(&x.aval, &x.aval);
    run(function, x.device, &kernel, &[x], x.aval.clone())
}

/// `v` on `device`: itself, or (an uncommitted operand elsewhere, e.g. a weak scalar) a dense
/// copy moved there.
pub fn to_device(function: &str, v: &ArrayValue, device: Device) -> Result<ArrayValue> {
    if v.device == device {
        return Ok(v.clone());
    }
    // A small array's uploaded bytes (see `DeviceBuffer::host`: scalars everywhere, small
    // webgpu arrays made on the host) spare a device read, which WebGPU cannot do synchronously.
    let host = v
        .buffer
        .host
        .as_deref()
        .filter(|h| h.len() == v.aval.byte_size() && v.view.is_contiguous());
    let bytes = match host {
        Some(h) => h.to_vec(),
        None => {
            let bytes = v.read_sync(function)?;
            crate::backend::transfers::note_move(v.device, bytes.len());
            bytes
        }
    };
    let (shape, dtype) = (v.aval.shape.clone(), v.aval.dtype);
    let mut moved = ArrayValue::from_bytes(function, &bytes, shape, dtype, device)?;
    moved.aval.weak = v.aval.weak;
    Ok(moved)
}

/// Runs `kernel` (written for dense logical inputs) on `device`, reading each input through its
/// view, into a new dense array of `out_aval`.
pub fn run(
    function: &str,
    device: Device,
    kernel: &Kernel,
    inputs: &[&ArrayValue],
    out_aval: Aval,
) -> Result<ArrayValue> {
    run_kernel(function, device, kernel, inputs, out_aval, true).map(|(out, _)| out)
}

/// [`run`], and the compiled kernel with the device's `exe_generation` when it ran as one
/// dispatch on the operands' own buffers (not split into steps). `try_host`: whether the host
/// path (`eval_host::run`) may take it (false where `eval_host::apply` has declined it).
fn run_kernel(
    function: &str,
    device: Device,
    kernel: &Kernel,
    inputs: &[&ArrayValue],
    out_aval: Aval,
    try_host: bool,
) -> Result<(ArrayValue, Option<(ExeId, u64)>)> {
    registry::check_dtype(function, device, out_aval.dtype)?;
    if try_host {
        if let Some(out) = eval_host::run(function, device, kernel, inputs, &out_aval)? {
            return Ok((out, None));
        }
    }
    // Inputs on another device (weak scalars) are moved to `device` first, densely.
    let mut moved: Vec<std::borrow::Cow<ArrayValue>> = Vec::with_capacity(inputs.len());
    for &v in inputs {
        moved.push(match v.device == device {
            true => std::borrow::Cow::Borrowed(v),
            false => std::borrow::Cow::Owned(to_device(function, v, device)?),
        });
    }
    let views: Vec<&ShapeTracker> = moved.iter().map(|v| &v.view).collect();
    // Dense inputs (every intermediate of a jitted program) need no rewrite of the loads.
    // Index arithmetic simplified as lowering simplifies it (`kernel::simplify`), so eager
    // and jitted kernels agree.
    let rewritten = if views.iter().all(|v| v.is_contiguous()) {
        simplify::kernel(kernel)
    } else {
        simplify::kernel(&view_index::through_views(kernel, &views))
    };
    let kernel = &rewritten;
    let out = registry::alloc(function, device, out_aval.byte_size())?;
    let max_inputs = registry::limits(device).max_kernel_inputs;
    let mut compiled = None;
    let steps = if kernel.inputs.len() > max_inputs {
        // More inputs than one kernel may bind: pack some into intermediates first.
        let sizes: Vec<usize> = moved
            .iter()
            .map(|v| v.buffer.bytes / v.aval.dtype.byte_size().max(1))
            .collect();
        Some(split_inputs(kernel, &sizes, max_inputs)?)
    } else {
        // A product whose operands both read the contracted axis contiguously, its column
        // operand stored transposed first (`kernel::contract`).
        contract::staged(kernel, max_inputs).map(Vec::from)
    };
    if let Some(steps) = steps {
        let mut temps: Vec<Rc<DeviceBuffer>> = Vec::with_capacity(steps.len());
        for (s, step) in steps.iter().enumerate() {
            let last = s + 1 == steps.len();
            if !last {
                let bytes = step.kernel.size * step.kernel.output_dtype().byte_size();
                temps.push(registry::alloc(function, device, bytes)?);
            }
            let ids: Vec<_> = step
                .sources
                .iter()
                .map(|src| match *src {
                    Source::Input(i) => moved[i].buffer.id,
                    Source::Step(j) => temps[j].id,
                })
                .collect();
            let target = if last { out.id } else { temps[s].id };
            registry::with_backend(function, device, |b| {
                let exe = b.compile(&step.kernel)?;
                b.dispatch(exe, &ids, target)
            })?;
        }
    } else {
        let ids: Vec<_> = moved.iter().map(|v| v.buffer.id).collect();
        compiled = registry::with_backend(function, device, |b| {
            let exe = b.compile(kernel)?;
            let generation = b.exe_generation();
            b.dispatch(exe, &ids, out.id)?;
            Ok(Some((exe, generation)))
        })?;
    }
    let view = ShapeTracker::contiguous(&out_aval.shape);
    // The result is committed when an operand was (a copy keeps its source's placement).
    let committed = inputs.iter().any(|v| v.committed);
    let out = ArrayValue {
        aval: out_aval,
        device,
        buffer: out,
        view,
        committed,
    };
    Ok((out, compiled))
}
