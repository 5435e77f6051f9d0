//! Small eager operations on webgpu evaluated on the host. An operation whose operands all
//! keep their bytes on the host (`DeviceBuffer::host`: small arrays made on the host, JS
//! scalars, and results of this path) and whose result is small is computed by the cpu
//! interpreter (`backend::cpu::run_kernel`, the oracle every device is tested against) and its
//! result uploaded with its host copy. A chain of small operations — `fromfunction`'s index
//! grids and the user's function on them, small compositions — then never waits for the GPU,
//! and reading its result needs no buffer map (a fixed round trip of milliseconds in Deno and
//! browsers). Large results, large work and float16 stay on the device; [`set_enabled`] turns
//! the path off (the webgpu test suites do, so their small arrays exercise the device's
//! kernels).

use std::cell::{Cell, RefCell};
use std::hash::{Hash, Hasher};
use std::rc::Rc;

use crate::backend::buffer::WEBGPU_HOST_COPY_BYTES;
use crate::backend::cpu;
use crate::core::view::ShapeTracker;
use crate::core::{Aval, DType, Device, Primitive};
use crate::kernel::{simplify, view_index, AluExp, Kernel};
use crate::rules;
use crate::transform::ArrayValue;
use crate::util::fast_hash::FastHasher;
use crate::util::lru::Lru;
use crate::util::Result;

/// The most element-terms (expression nodes evaluated, over every output element and
/// reduction step) an operation computed on the host may take: a few milliseconds of the
/// interpreter at most, less than a buffer map. Compositions that stay on the host
/// (`eager_jit`) are held to it in all.
pub const MAX_TERMS: usize = 1 << 16;

thread_local! {
    static ENABLED: Cell<bool> = const { Cell::new(true) };
    /// Element-terms computed on the host so far (see [`terms_done`]).
    static DONE: Cell<usize> = const { Cell::new(0) };
}

/// The element-terms computed on the host so far on this thread (a running count: callers
/// compare two readings).
pub fn terms_done() -> usize {
    DONE.with(Cell::get)
}

/// Turns host evaluation of small webgpu operations on (the default) or off.
pub fn set_enabled(on: bool) {
    ENABLED.with(|e| e.set(on));
}

/// Whether host evaluation of small webgpu operations is on.
pub fn enabled() -> bool {
    ENABLED.with(Cell::get)
}

/// Dtypes the host computes as webgpu does (float16 arithmetic may round differently there;
/// webgpu has no float64).
fn exact(dtype: DType) -> bool {
    matches!(
        dtype,
        DType::Float32 | DType::Int32 | DType::Uint32 | DType::Bool
    )
}

/// The whole buffer's host copy of `v`, when it has one.
fn host_of(v: &ArrayValue) -> Option<&[u8]> {
    let host = v.buffer.host.as_deref()?;
    (host.len() == v.buffer.bytes && exact(v.aval.dtype)).then_some(host)
}

/// Whether an operation on `device` over `inputs` (operand-less ones included) could run on
/// the host: the path is on, the device is webgpu, and every operand has its bytes there.
pub fn candidate(device: Device, inputs: &[&ArrayValue]) -> bool {
    device == Device::WebGpu && enabled() && inputs.iter().all(|v| host_of(v).is_some())
}

/// Whether a result of `aval` is small enough to be kept on the host.
pub fn small(aval: &Aval) -> bool {
    aval.byte_size() <= WEBGPU_HOST_COPY_BYTES && exact(aval.dtype)
}

/// What a primitive applied to dense host-held operands of given avals computes on the host:
/// its result's aval and simplified kernel, or None when it stays on the device (result too
/// large, or more work than [`MAX_TERMS`]).
type Planned = Option<Rc<(Aval, Kernel)>>;

struct Entry {
    prim: Primitive,
    avals: Vec<Aval>,
    planned: Planned,
}

/// Entries kept (distinct primitive and avals combinations).
const CAPACITY: usize = 256;

thread_local! {
    /// Keyed by a hash of the application; the entry holds the key itself to compare.
    static PLANS: RefCell<Lru<u64, Entry>> = RefCell::new(Lru::new(CAPACITY));
}

fn key(prim: &Primitive, inputs: &[&ArrayValue]) -> u64 {
    let mut h = FastHasher::default();
    prim.hash(&mut h);
    for v in inputs {
        v.aval.hash(&mut h);
    }
    h.finish()
}

/// What [`apply`] did with an eager operation.
pub enum Applied {
    /// Computed on the host.
    Computed(ArrayValue),
    /// Planned and kept on the device (result too large, or too much work): [`run`] would
    /// decline its kernel too.
    Declined,
    /// Not a candidate here (operands not host-held, or read through views): [`run`] decides
    /// on the kernel written for them.
    NotHeld,
}

/// `prim` applied eagerly to dense `inputs` on `device` computed on the host (see the module
/// comment), when it qualifies. The plan of each recent application is kept, so an eager loop
/// of small operations builds and simplifies its kernel once.
pub fn apply(prim: &Primitive, device: Device, inputs: &[&ArrayValue]) -> Result<Applied> {
    if !candidate(device, inputs) || !inputs.iter().all(|v| v.view.is_contiguous()) {
        return Ok(Applied::NotHeld);
    }
    let k = key(prim, inputs);
    let kept = PLANS.with(|c| {
        let mut c = c.borrow_mut();
        let e = c.get(&k)?;
        let same = e.prim == *prim
            && e.avals.len() == inputs.len()
            && e.avals.iter().zip(inputs).all(|(a, v)| *a == v.aval);
        same.then(|| e.planned.clone())
    });
    let planned = match kept {
        Some(p) => p,
        None => {
            let avals: Vec<&Aval> = inputs.iter().map(|v| &v.aval).collect();
            let out_aval = rules::abstract_eval(prim, &avals)?;
            let planned = match small(&out_aval) {
                false => None,
                true => {
                    let kernel = simplify::kernel(&rules::to_kernel(prim, &avals, &out_aval)?);
                    (terms(&kernel) <= MAX_TERMS).then(|| Rc::new((out_aval, kernel)))
                }
            };
            let entry = Entry {
                prim: prim.clone(),
                avals: avals.into_iter().cloned().collect(),
                planned: planned.clone(),
            };
            PLANS.with(|c| c.borrow_mut().insert(k, entry));
            planned
        }
    };
    match planned {
        None => Ok(Applied::Declined),
        Some(p) => compute(prim.name(), device, &p.1, inputs, &p.0).map(Applied::Computed),
    }
}

/// `kernel` (written for dense logical inputs) on `inputs` computed on the host and uploaded to
/// `device` with its host copy, or None when the operation does not qualify (see the module
/// comment).
pub fn run(
    function: &str,
    device: Device,
    kernel: &Kernel,
    inputs: &[&ArrayValue],
    out_aval: &Aval,
) -> Result<Option<ArrayValue>> {
    if !candidate(device, inputs) || !small(out_aval) {
        return Ok(None);
    }
    // Rewritten and simplified as `eval::run` does on every device: a reduction's order
    // (`kernel::order`) follows its loads' strides.
    let views: Vec<&ShapeTracker> = inputs.iter().map(|v| &v.view).collect();
    let kernel = if views.iter().all(|v| v.is_contiguous()) {
        simplify::kernel(kernel)
    } else {
        simplify::kernel(&view_index::through_views(kernel, &views))
    };
    if terms(&kernel) > MAX_TERMS {
        return Ok(None);
    }
    compute(function, device, &kernel, inputs, out_aval).map(Some)
}

/// `kernel` (its loads through `inputs`' views) interpreted over the operands' host copies,
/// the result uploaded to `device` with its own.
fn compute(
    function: &str,
    device: Device,
    kernel: &Kernel,
    inputs: &[&ArrayValue],
    out_aval: &Aval,
) -> Result<ArrayValue> {
    let bytes: Vec<&[u8]> = inputs.iter().filter_map(|v| host_of(v)).collect();
    let out = cpu::run_kernel(kernel, &bytes)?;
    DONE.with(|d| d.set(d.get().saturating_add(terms(kernel))));
    let shape = out_aval.shape.clone();
    let mut value = ArrayValue::from_bytes(function, &out, shape, out_aval.dtype, device)?;
    value.aval = out_aval.clone();
    // The result is committed when an operand was, as on the device.
    value.committed = inputs.iter().any(|v| v.committed);
    Ok(value)
}

/// The element-terms of `kernel` (saturating; counting stops past [`MAX_TERMS`]).
fn terms(kernel: &Kernel) -> usize {
    let steps = kernel.reduction.as_ref().map_or(1, |r| r.size.max(1));
    let per_element = nodes(&kernel.exp, MAX_TERMS)
        .saturating_mul(steps)
        .saturating_add(kernel.epilogue.as_ref().map_or(0, |e| nodes(e, MAX_TERMS)));
    per_element.saturating_mul(kernel.size)
}

/// The nodes of `e`, counted up to `cap`.
fn nodes(e: &AluExp, cap: usize) -> usize {
    let mut n = 0;
    let mut stack = vec![e];
    while let Some(e) = stack.pop() {
        n += 1;
        if n > cap {
            break;
        }
        stack.extend(e.children());
    }
    n
}
