//! Eager evaluation of routine primitives (cholesky, triangular_solve, …): the inputs are
//! made dense on the chosen device, the backend compiles the [`Routine`] once per shape and
//! dispatches it into freshly allocated outputs, one array per output of the primitive.
//!
//! [`Routine`]: crate::kernel::Routine

use crate::backend::registry;
use crate::core::view::ShapeTracker;
use crate::core::{Aval, Device, Primitive};
use crate::rules::routine;
use crate::transform::ArrayValue;
use crate::util::Result;

/// Applies routine primitive `prim` on `device`; returns its outputs.
pub fn apply(prim: &Primitive, device: Device, inputs: &[&ArrayValue]) -> Result<Vec<ArrayValue>> {
    let name = prim.name();
    let avals: Vec<&Aval> = inputs.iter().map(|v| &v.aval).collect();
    let out_avals = crate::rules::abstract_eval_multi(prim, &avals)?;
    let r = routine::routine(prim, &avals)?;
    // Dense copies on `device` (arrays of another device arrive through the host, counted as
    // moves: `eval::to_device`).
    let mut dense = Vec::with_capacity(inputs.len());
    for &v in inputs {
        dense.push(super::eval::to_device(name, v, device)?.materialize(name)?);
    }
    let outs = out_avals
        .iter()
        .map(|a| registry::alloc(name, device, a.byte_size()))
        .collect::<Result<Vec<_>>>()?;
    if !r.is_empty() {
        let ins: Vec<_> = dense.iter().map(|v| v.buffer.id).collect();
        let ids: Vec<_> = outs.iter().map(|b| b.id).collect();
        registry::with_backend(name, device, |b| {
            let exe = b.compile_routine(&r)?;
            b.dispatch_routine(exe, &ins, &ids)
        })?;
    }
    let committed = inputs.iter().any(|v| v.committed);
    Ok(out_avals
        .into_iter()
        .zip(outs)
        .map(|(aval, buffer)| ArrayValue {
            view: ShapeTracker::contiguous(&aval.shape),
            aval,
            device,
            buffer,
            committed,
        })
        .collect())
}
