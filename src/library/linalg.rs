//! `matmul` and `dot` with NumPy's rules: for vectors, a 1-D operand gains a unit axis that the
//! result drops again; `dot` of n-D arrays contracts through `tensordot`.

use crate::core::Primitive;
use crate::rules::lax;
use crate::transform::trace::{bind, Binder, Operand};
use crate::transform::Value;
use crate::util::{Error, Result};

fn array<'a>(name: &str, o: &Operand<'a>) -> Result<&'a Value> {
    o.value()
        .ok_or_else(|| Error::new(name, "operands must be arrays, not numbers"))
}

/// NumPy's `matmul`: batched matrix products, vectors promoted and their axis removed.
pub fn matmul(o: &[Operand]) -> Result<Value> {
    let (a, b) = (array("matmul", &o[0])?, array("matmul", &o[1])?);
    let (sa, sb) = (a.aval().shape.clone(), b.aval().shape.clone());
    if sa.is_empty() || sb.is_empty() {
        return Err(Error::new(
            "matmul",
            "operands must be at least 1-D (use multiply for scalars)",
        ));
    }
    let a2 = if sa.len() == 1 {
        lax::reshape(&mut Binder, a, vec![1, sa[0]])?
    } else {
        a.clone()
    };
    let b2 = if sb.len() == 1 {
        lax::reshape(&mut Binder, b, vec![sb[0], 1])?
    } else {
        b.clone()
    };
    let out = super::half::bind_pair(Primitive::Matmul, &a2, &b2)?;
    let mut shape = out.aval().shape.clone();
    let rank = shape.len();
    match (sa.len() == 1, sb.len() == 1) {
        (false, false) => return Ok(out),
        (true, true) => shape.truncate(rank - 2),
        (true, false) => {
            shape.remove(rank - 2);
        }
        (false, true) => {
            shape.remove(rank - 1);
        }
    }
    lax::reshape(&mut Binder, &out, shape)
}

/// NumPy's `dot`: scalars multiply, operands of rank ≤ 2 are `matmul`, and otherwise the sum
/// over the last axis of `a` and the second-to-last axis of `b` (the last for a vector), with
/// the result's axes those of `a` then those of `b` that remain.
pub fn dot(o: &[Operand]) -> Result<Value> {
    let rank = |x: &Operand| x.value().map_or(0, |v| v.aval().shape.len());
    match (rank(&o[0]), rank(&o[1])) {
        (0, _) | (_, 0) => bind(Primitive::Binary(crate::core::ops::BinaryOp::Mul), o),
        (1..=2, 1..=2) => matmul(o),
        (ra, rb) => {
            let (a, b) = (array("dot", &o[0])?, array("dot", &o[1])?);
            let b_axis = if rb == 1 { 0 } else { rb - 2 };
            super::products::tensordot(a, b, &[ra - 1], &[b_axis])
                .map_err(|e| super::lax_linalg::rename(e, "dot"))
        }
    }
}
