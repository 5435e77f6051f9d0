//! `matmul` and `dot` with NumPy's rules: for vectors, a 1-D operand gains a unit axis that the
//! result drops again; `dot` of n-D arrays contracts through `tensordot`. Also `lax.dot` with
//! dimension numbers (`dot_general`, through einsum).

use super::einsum::LETTERS;
use super::shape::normalize_axis;
use crate::rules::lax;
use crate::transform::trace::{Binder, Operand};
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
    let out = super::half::pair_in_f32(&a2, &b2, |a, b| lax::matmul(&mut Binder, a, b))?;
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
        (0, _) | (_, 0) => lax::mul(&mut Binder, o[0].clone(), o[1].clone()),
        (1..=2, 1..=2) => matmul(o),
        (ra, rb) => {
            let (a, b) = (array("dot", &o[0])?, array("dot", &o[1])?);
            let b_axis = if rb == 1 { 0 } else { rb - 2 };
            super::products::tensordot(a, b, &[ra - 1], &[b_axis])
                .map_err(|e| super::lax_linalg::rename(e, "dot"))
        }
    }
}

/// `lax.dot` (dot_general) with contracting axes `lc`/`rc` and batch axes `lb`/`rb`. Output
/// axes: batch, lhs free, rhs free. Default contracting axes: lhs's last with rhs's
/// second-to-last (or only) one.
pub fn dot_general(
    lhs: &Value,
    rhs: &Value,
    lc: Option<&[i64]>,
    rc: Option<&[i64]>,
    lb: &[i64],
    rb: &[i64],
) -> Result<Value> {
    let (rl, rr) = (
        lhs.aval().shape.clone().len(),
        rhs.aval().shape.clone().len(),
    );
    if rl + rr > LETTERS.len() || rl == 0 || rr == 0 {
        return Err(Error::new("dot", "needs operands of rank 1 or more"));
    }
    let norm = |list: &[i64], r: usize| -> Result<Vec<usize>> {
        list.iter().map(|&a| normalize_axis("dot", a, r)).collect()
    };
    let lc = norm(lc.unwrap_or(&[-1]), rl)?;
    let rc = norm(rc.unwrap_or(&[if rr >= 2 { -2 } else { 0 }]), rr)?;
    let lb = norm(lb, rl)?;
    let rb = norm(rb, rr)?;
    if lc.len() != rc.len() || lb.len() != rb.len() {
        return Err(Error::new(
            "dot",
            "contracting and batch axis lists must pair up",
        ));
    }
    let ll: Vec<char> = (0..rl).map(|k| LETTERS[k] as char).collect();
    let mut lr: Vec<char> = (0..rr).map(|k| LETTERS[rl + k] as char).collect();
    for (&a, &b) in lc.iter().zip(&rc).chain(lb.iter().zip(&rb)) {
        if lhs.aval().shape.clone()[a] != rhs.aval().shape.clone()[b] {
            return Err(Error::new(
                "dot",
                format!("axis {a} and axis {b} differ in size"),
            ));
        }
        lr[b] = ll[a];
    }
    let free_l: Vec<char> = (0..rl)
        .filter(|k| !lc.contains(k) && !lb.contains(k))
        .map(|k| ll[k])
        .collect();
    let free_r: Vec<char> = (0..rr)
        .filter(|k| !rc.contains(k) && !rb.contains(k))
        .map(|k| lr[k])
        .collect();
    let out: String = lb
        .iter()
        .map(|&k| ll[k])
        .chain(free_l)
        .chain(free_r)
        .collect();
    super::einsum::contract_pair(lhs, rhs, &ll, &lr, &out)
}
