//! float16 operands of the contractions and of linear algebra: matrix products (matmul, dot,
//! einsum, tensordot, cov, …), convolutions and every `lax.linalg`, `numpy.linalg` and
//! `scipyLinalg` function compute in float32, and when the operands meet as float16 each float
//! result is rounded once back to float16 — what JAX on CPU gives for dots and convolutions
//! (XLA computes float16 ones in float32). The matmul, conv and routine primitives themselves
//! take float32 and float64 only (their abstract eval rejects float16), so this module is the
//! one place the rule lives; the casts are ordinary primitives, so jit, grad (cotangents are
//! float16 again at the inputs) and vmap compose with it.

use crate::core::dtype::promote;
use crate::core::DType;
use crate::rules::lax;
use crate::transform::trace::Binder;
use crate::transform::Value;
use crate::util::Result;

/// Whether the dtype `values` promote to is float16.
fn meet_as_f16(values: &[Value]) -> bool {
    let mut avals = values.iter().map(|x| {
        let a = x.aval();
        (a.dtype, a.weak)
    });
    let Some(first) = avals.next() else {
        return false;
    };
    avals.fold(first, |(d, w), (e, x)| promote(d, w, e, x)).0 == DType::Float16
}

/// Runs `f` on `args` with every float16 array cast to float32. When the arguments meet as
/// float16, the float32 results are cast back to float16 (integer results, e.g. LU's pivots,
/// stay as they are); mixed with float32 or float64 they promote as usual.
pub fn in_f32(
    args: &[Value],
    f: impl FnOnce(&[Value]) -> Result<Vec<Value>>,
) -> Result<Vec<Value>> {
    if !args.iter().any(|x| x.aval().dtype == DType::Float16) {
        return f(args);
    }
    let back = meet_as_f16(args);
    let wide = args
        .iter()
        .map(|x| match x.aval().dtype {
            DType::Float16 => lax::cast(&mut Binder, x, DType::Float32),
            _ => Ok(x.clone()),
        })
        .collect::<Result<Vec<_>>>()?;
    let outs = f(&wide)?;
    if !back {
        return Ok(outs);
    }
    outs.iter()
        .map(|y| match y.aval().dtype {
            DType::Float32 => lax::cast(&mut Binder, y, DType::Float16),
            _ => Ok(y.clone()),
        })
        .collect()
}

/// `op` (a contraction: matmul, conv) of `a` and `b`, float16 computed in float32.
pub fn pair_in_f32(
    a: &Value,
    b: &Value,
    op: impl FnOnce(&Value, &Value) -> Result<Value>,
) -> Result<Value> {
    let out = in_f32(&[a.clone(), b.clone()], |w| Ok(vec![op(&w[0], &w[1])?]))?;
    Ok(out.into_iter().next().expect("one result"))
}
