//! Eager evaluation: one primitive applied to concrete arrays, as a one-equation program.

use crate::backend::registry;
use crate::core::{Device, Primitive};
use crate::rules;
use crate::transform::ArrayValue;
use crate::util::{Error, Result};

/// The device an operation runs on: the inputs' device, preferring a strongly typed input's
/// device over a weak scalar's. Mixed devices are an error until `devicePut` exists.
fn choose_device(prim: &Primitive, inputs: &[&ArrayValue]) -> Result<Device> {
    let strong: Vec<Device> = inputs
        .iter()
        .filter(|v| !v.aval.weak)
        .map(|v| v.device)
        .collect();
    let candidates = if strong.is_empty() {
        inputs.iter().map(|v| v.device).collect()
    } else {
        strong
    };
    let first = *candidates
        .first()
        .ok_or_else(|| Error::new(prim.name(), "no operands"))?;
    match candidates.iter().find(|&&d| d != first) {
        Some(other) => Err(Error::new(
            prim.name(),
            format!(
                "operands live on different devices ({} and {}); move one with devicePut",
                first.name(),
                other.name()
            ),
        )),
        None => Ok(first),
    }
}

/// Applies `prim` to `inputs` on their device and returns the new array.
pub fn apply(prim: &Primitive, inputs: &[&ArrayValue]) -> Result<ArrayValue> {
    // View changes of contiguous arrays share the buffer: no kernel, no copy.
    match prim {
        Primitive::StopGradient => return Ok(inputs[0].clone()),
        Primitive::Reshape(_) => {
            let aval = rules::abstract_eval(prim, &[&inputs[0].aval])?;
            return Ok(ArrayValue { aval, ..inputs[0].clone() });
        }
        _ => {}
    }
    let avals: Vec<_> = inputs.iter().map(|v| &v.aval).collect();
    let out_aval = rules::abstract_eval(prim, &avals)?;
    let device = choose_device(prim, inputs)?;
    let kernel = rules::to_kernel(prim, &avals, &out_aval)?;
    let out = registry::alloc(prim.name(), device, out_aval.byte_size())?;
    // Inputs on another device (weak scalars) are moved to `device` first.
    let mut moved = Vec::new();
    for v in inputs {
        if v.device == device {
            moved.push(v.buffer.clone());
        } else {
            let bytes = v.read_sync(prim.name())?;
            moved.push(registry::upload(prim.name(), device, &bytes)?);
        }
    }
    let ids: Vec<_> = moved.iter().map(|b| b.id).collect();
    registry::with_backend(prim.name(), device, |b| {
        let exe = b.compile(&kernel)?;
        b.dispatch(exe, &ids, out.id)
    })?;
    Ok(ArrayValue {
        aval: out_aval,
        device,
        buffer: out,
    })
}
