//! Tensor products (tensordot, inner, outer, vecdot, vdot, matvec, vecmat, cross), polynomials
//! (polyval, polyadd, polysub, polymul, polyder), as compositions of einsum, matmul, conv and
//! elementwise primitives.

use super::einsum::LETTERS;
use crate::rules::lax;
use crate::transform::trace::Binder;

use super::emit::v;
use super::reduce::{reduce, ReduceKind as K};
use super::shape::{normalize_axis, reshape};
use crate::core::ops::BinaryOp as B;
use crate::transform::Value;
use crate::util::{Error, Result};

/// `tensordot` contracting `a_axes` of `a` with `b_axes` of `b`, through einsum.
pub(super) fn tensordot(a: &Value, b: &Value, a_axes: &[usize], b_axes: &[usize]) -> Result<Value> {
    let (ra, rb) = (a.aval().shape.clone().len(), b.aval().shape.clone().len());
    if ra + rb > LETTERS.len() {
        return Err(Error::new("tensordot", "too many axes"));
    }
    for (&i, &j) in a_axes.iter().zip(b_axes) {
        if a.aval().shape.clone()[i] != b.aval().shape.clone()[j] {
            return Err(Error::new(
                "tensordot",
                format!(
                    "axis {i} of {:?} and axis {j} of {:?} differ",
                    a.aval().shape.clone(),
                    b.aval().shape.clone()
                ),
            ));
        }
    }
    let la: Vec<char> = (0..ra).map(|k| LETTERS[k] as char).collect();
    let mut lb: Vec<char> = (0..rb).map(|k| LETTERS[ra + k] as char).collect();
    for (&i, &j) in a_axes.iter().zip(b_axes) {
        lb[j] = la[i];
    }
    let out: String = la
        .iter()
        .enumerate()
        .filter(|(k, _)| !a_axes.contains(k))
        .map(|(_, &c)| c)
        .chain(
            lb.iter()
                .enumerate()
                .filter(|(k, _)| !b_axes.contains(k))
                .map(|(_, &c)| c),
        )
        .collect();
    super::einsum::contract_pair(a, b, &la, &lb, &out)
}

/// `tensordot`: the last `count` axes of `a` with the first `count` of `b`, or without a
/// count the axes `axes_a` of `a` with `axes_b` of `b`.
pub fn tensordot_axes(
    a: &Value,
    b: &Value,
    count: Option<i64>,
    axes_a: &[i64],
    axes_b: &[i64],
) -> Result<Value> {
    let name = "tensordot";
    let (ra, rb) = (a.aval().shape.len(), b.aval().shape.len());
    let (ax_a, ax_b): (Vec<usize>, Vec<usize>) = match count {
        Some(n) => {
            let n = usize::try_from(n)
                .ok()
                .filter(|&n| n <= ra && n <= rb)
                .ok_or_else(|| Error::new(name, format!("invalid axes count {n}")))?;
            ((ra - n..ra).collect(), (0..n).collect())
        }
        None => {
            if axes_a.len() != axes_b.len() {
                return Err(Error::new(name, "axis lists differ in length"));
            }
            let norm = |list: &[i64], r: usize| -> Result<Vec<usize>> {
                list.iter().map(|&k| normalize_axis(name, k, r)).collect()
            };
            (norm(axes_a, ra)?, norm(axes_b, rb)?)
        }
    };
    tensordot(a, b, &ax_a, &ax_b)
}

/// The dot product along `axis` (broadcasting the other axes).
pub fn vecdot(a: &Value, b: &Value, axis: i64) -> Result<Value> {
    let prod = lax::mul(&mut Binder, a, b)?;
    reduce("vecdot", K::Sum, &prod, Some(&[axis]), false)
}

/// The products of two arrays without parameters, by name.
pub fn product(name: &str, a: &Value, b: &Value) -> Result<Value> {
    let (ra, rb) = (a.aval().shape.clone().len(), b.aval().shape.clone().len());
    match name {
        "inner" if ra == 0 || rb == 0 => lax::mul(&mut Binder, a, b),
        "inner" => tensordot(a, b, &[ra - 1], &[rb - 1]),
        "outer" => {
            let (fa, fb) = (lax::ravel(&mut Binder, a)?, lax::ravel(&mut Binder, b)?);
            let col = reshape(&fa, vec![a.aval().size(), 1])?;
            lax::mul(&mut Binder, &col, &fb)
        }
        "vdot" => {
            let prod = lax::mul(
                &mut Binder,
                &lax::ravel(&mut Binder, a)?,
                &lax::ravel(&mut Binder, b)?,
            )?;
            reduce(name, K::Sum, &prod, None, false)
        }
        "matvec" | "vecmat" => {
            let (matrix, vector) = if name == "matvec" { (a, b) } else { (b, a) };
            if matrix.aval().shape.clone().len() < 2 || vector.aval().shape.clone().is_empty() {
                return Err(Error::new(
                    name,
                    format!(
                        "needs a matrix (at least 2 axes) and a vector (at least 1), got {} and {}",
                        a.aval().describe(),
                        b.aval().describe()
                    ),
                ));
            }
            let expanded = if name == "matvec" {
                let mut s = b.aval().shape.clone();
                s.push(1);
                reshape(b, s)?
            } else {
                let mut s = a.aval().shape.clone();
                s.insert(s.len().saturating_sub(1), 1);
                reshape(a, s)?
            };
            let (l, r) = if name == "matvec" {
                (a.clone(), expanded)
            } else {
                (expanded, b.clone())
            };
            let m = super::apply("matmul", &[v(&l), v(&r)])?;
            let mut s = m.aval().shape.clone();
            s.remove(if name == "matvec" {
                s.len() - 1
            } else {
                s.len() - 2
            });
            reshape(&m, s)
        }
        "cross" => cross(a, b),
        _ => Err(Error::new(name, "unknown product")),
    }
}

/// The cross product of 3-vectors along the last axis (2-vectors: the z component).
fn cross(a: &Value, b: &Value) -> Result<Value> {
    let (na, nb) = (
        a.aval().shape.clone().last().copied(),
        b.aval().shape.clone().last().copied(),
    );
    let comp = |x: &Value, i: usize| -> Result<Value> {
        let r = x.aval().shape.clone().len() - 1;
        let c = lax::slice_axis(&mut Binder, x, r, i, i + 1)?;
        let mut s = x.aval().shape.clone();
        s.pop();
        reshape(&c, s)
    };
    let term = |i: usize, j: usize| -> Result<Value> {
        let l = lax::mul(&mut Binder, &comp(a, i)?, &comp(b, j)?)?;
        let r = lax::mul(&mut Binder, &comp(a, j)?, &comp(b, i)?)?;
        lax::sub(&mut Binder, &l, &r)
    };
    match (na, nb) {
        (Some(3), Some(3)) => {
            let parts = [term(1, 2)?, term(2, 0)?, term(0, 1)?];
            super::shape::stack(&parts, -1)
        }
        (Some(2), Some(2)) => term(0, 1),
        _ => Err(Error::new(
            "cross",
            "the last axes must both have length 3 (or 2)",
        )),
    }
}

fn one_d(name: &str, x: &Value) -> Result<usize> {
    match x.aval().shape.clone().as_slice() {
        [n] => Ok(*n),
        s => Err(Error::new(
            name,
            format!("needs 1-D coefficients, got {s:?}"),
        )),
    }
}

/// Coefficient `i` (highest power first) as a 0-d view.
fn coef(p: &Value, i: usize) -> Result<Value> {
    reshape(&lax::slice_axis(&mut Binder, p, 0, i, i + 1)?, vec![])
}

/// `x` with `k` zeros in front (1-D).
fn pad_front(x: &Value, k: usize) -> Result<Value> {
    if k == 0 {
        return Ok(x.clone());
    }
    lax::pad(&mut Binder, x, vec![(k, 0)])
}

/// polyval(p, x) by Horner's rule; polyadd/polysub/polymul of two coefficient arrays.
pub fn poly(name: &str, a: &Value, b: &Value) -> Result<Value> {
    let n = one_d(name, a)?;
    if name == "polyval" {
        if n == 0 {
            return lax::mul(&mut Binder, b, 0.0);
        }
        let mut y = coef(a, 0)?;
        for i in 1..n {
            y = lax::add(&mut Binder, &lax::mul(&mut Binder, &y, b)?, &coef(a, i)?)?;
        }
        // A constant polynomial still takes x's shape.
        return lax::add(&mut Binder, &y, &lax::mul(&mut Binder, b, 0.0)?);
    }
    let m = one_d(name, b)?;
    match name {
        "polymul" => super::conv::correlate_1d(name, a, b, "full", true),
        _ => {
            let len = n.max(m);
            let (pa, pb) = (pad_front(a, len - n)?, pad_front(b, len - m)?);
            let op = if name == "polyadd" { B::Add } else { B::Sub };
            lax::binary(&mut Binder, op, &pa, &pb)
        }
    }
}

/// The `m`-th derivative of a polynomial (coefficients highest power first).
pub fn polyder(p: &Value, m: usize) -> Result<Value> {
    let mut p = p.clone();
    for _ in 0..m {
        let n = one_d("polyder", &p)?;
        if n <= 1 {
            return lax::mul(
                &mut Binder,
                &lax::slice_axis(&mut Binder, &p, 0, 0, n.min(1))?,
                0.0,
            );
        }
        let powers = lax::iota_i32(&mut Binder, vec![n - 1], 0)?;
        let powers = lax::sub(&mut Binder, (n - 1) as f64, &powers)?;
        let powers = lax::cast(&mut Binder, &powers, p.aval().dtype)?;
        p = lax::mul(
            &mut Binder,
            &lax::slice_axis(&mut Binder, &p, 0, 0, n - 1)?,
            &powers,
        )?;
    }
    Ok(p)
}
