//! `numpy.linalg` norms and products: vectorNorm, matrixNorm, norm (NumPy's dispatch between
//! them), cross, multiDot, matrixPower, lstsq — compositions of ordinary operations and the
//! routine primitives, so each is differentiable.

use super::emit::{lit, v};
use super::lax_linalg::{cholesky_lower, float_matrix, matmul, mt, triangular_solve};
use super::np_solve::check_square;
use super::power::power;
use super::reduce::{reduce, ReduceKind};
use super::shape::normalize_axis;
use crate::rules::lax;
use crate::transform::trace::Binder;
use crate::transform::Value;
use crate::util::{Error, Result};

/// A norm order: a number (`±∞` included), or `"fro"` / `"nuc"`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Ord {
    Num(f64),
    Fro,
    Nuc,
}

fn abs(x: &Value) -> Result<Value> {
    lax::abs(&mut Binder, x)
}

fn sum(name: &str, x: &Value, axes: Option<&[i64]>, keepdims: bool) -> Result<Value> {
    reduce(name, ReduceKind::Sum, x, axes, keepdims)
}

/// `vectorNorm(x, { ord = 2, axis = null, keepdims })`.
pub fn vector_norm(
    name: &str,
    x: &Value,
    ord: f64,
    axes: Option<&[i64]>,
    keepdims: bool,
) -> Result<Value> {
    let x = float_matrix(name, x, 0)?;
    let r = |kind, y: &Value| reduce(name, kind, y, axes, keepdims);
    if ord == f64::INFINITY {
        r(ReduceKind::Max, &abs(&x)?)
    } else if ord == f64::NEG_INFINITY {
        r(ReduceKind::Min, &abs(&x)?)
    } else if ord == 0.0 {
        let nz = lax::ne(&mut Binder, &x, 0.0)?;
        r(
            ReduceKind::Sum,
            &lax::cast(&mut Binder, &nz, x.aval().dtype)?,
        )
    } else if ord == 1.0 {
        r(ReduceKind::Sum, &abs(&x)?)
    } else if ord == 2.0 {
        lax::sqrt(
            &mut Binder,
            &r(ReduceKind::Sum, &lax::mul(&mut Binder, &x, &x)?)?,
        )
    } else if ord.is_nan() {
        Err(Error::new(name, "the norm order must be a number"))
    } else {
        let p = power(&[v(&abs(&x)?), lit(ord)])?;
        power(&[v(&r(ReduceKind::Sum, &p)?), lit(1.0 / ord)])
    }
}

fn bad_order(name: &str, ord: Ord) -> Error {
    Error::new(
        name,
        format!("matrix norm order {ord:?} is not one of fro, nuc, ±1, ±2, ±Infinity"),
    )
}

/// The matrix norm of `x` over its axes `(row, col)`.
pub fn matrix_norm(
    name: &str,
    x: &Value,
    ord: Ord,
    row: i64,
    col: i64,
    keepdims: bool,
) -> Result<Value> {
    let x = float_matrix(name, x, 2)?;
    let rank = x.aval().shape.len();
    let (r, c) = (
        normalize_axis(name, row, rank)?,
        normalize_axis(name, col, rank)?,
    );
    if r == c {
        return Err(Error::new(name, "the two matrix axes must differ"));
    }
    let both = [r as i64, c as i64];
    let out = match ord {
        Ord::Fro => lax::sqrt(
            &mut Binder,
            &sum(name, &lax::mul(&mut Binder, &x, &x)?, Some(&both), true)?,
        )?,
        Ord::Num(p) if p.abs() == 1.0 || p.is_infinite() => {
            // 1: the largest column sum (sum over rows, then max over columns); ∞: rows.
            let (inner, outer) = if p.abs() == 1.0 { (r, c) } else { (c, r) };
            let s = sum(name, &abs(&x)?, Some(&[inner as i64]), true)?;
            let kind = if p > 0.0 {
                ReduceKind::Max
            } else {
                ReduceKind::Min
            };
            reduce(name, kind, &s, Some(&[outer as i64]), true)?
        }
        Ord::Nuc | Ord::Num(2.0) | Ord::Num(-2.0) => {
            // The sum, largest or smallest singular value over the two axes.
            let others: Vec<usize> = (0..rank).filter(|&a| a != r && a != c).collect();
            let mut perm = others.clone();
            perm.extend([r, c]);
            let moved = lax::transpose(&mut Binder, &x, perm)?;
            let sv = super::np_svd::svd(name, &moved, false, false)?.remove(0);
            let kind = match ord {
                Ord::Nuc => ReduceKind::Sum,
                Ord::Num(p) if p > 0.0 => ReduceKind::Max,
                _ => ReduceKind::Min,
            };
            let out = reduce(name, kind, &sv, Some(&[-1]), false)?;
            let kept: Vec<usize> = (0..rank)
                .map(|a| {
                    if a == r || a == c {
                        1
                    } else {
                        x.aval().shape[a]
                    }
                })
                .collect();
            lax::reshape(&mut Binder, &out, kept)?
        }
        other => return Err(bad_order(name, other)),
    };
    if keepdims {
        return Ok(out);
    }
    let shape: Vec<usize> = (0..rank)
        .filter(|&a| a != r && a != c)
        .map(|a| x.aval().shape[a])
        .collect();
    lax::reshape(&mut Binder, &out, shape)
}

/// NumPy's `norm(x, ord, axis, keepdims)`.
pub fn norm(x: &Value, ord: Option<Ord>, axes: Option<&[i64]>, keepdims: bool) -> Result<Value> {
    let name = "norm";
    let rank = x.aval().shape.len();
    match (axes, ord) {
        (None, None) => vector_norm(name, x, 2.0, None, keepdims),
        (None, Some(o)) if rank == 1 => norm(x, Some(o), Some(&[0]), keepdims),
        (None, Some(o)) if rank == 2 => norm(x, Some(o), Some(&[0, 1]), keepdims),
        (None, Some(_)) => Err(Error::new(
            name,
            format!("an order needs a 1-D or 2-D array or an axis, got rank {rank}"),
        )),
        (Some(&[a]), o) => match o.unwrap_or(Ord::Num(2.0)) {
            Ord::Num(p) => vector_norm(name, x, p, Some(&[a]), keepdims),
            other => Err(Error::new(
                name,
                format!("order {other:?} is not a vector norm"),
            )),
        },
        (Some(&[a, b]), o) => matrix_norm(name, x, o.unwrap_or(Ord::Fro), a, b, keepdims),
        (Some(list), _) => Err(Error::new(
            name,
            format!("axis must name 1 or 2 axes, got {list:?}"),
        )),
    }
}

/// One component (`k` along `axis`) of a size-3 axis.
fn component(x: &Value, axis: usize, k: usize) -> Result<Value> {
    let ranges = x
        .aval()
        .shape
        .iter()
        .enumerate()
        .map(|(i, &d)| if i == axis { (k, k + 1) } else { (0, d) })
        .collect();
    lax::shrink(&mut Binder, x, ranges)
}

/// The cross product of 3-vectors along `axis` (batch axes broadcast).
pub fn cross(a: &Value, b: &Value, axis: i64) -> Result<Value> {
    let name = "cross";
    let (a, b) = super::lax_linalg::promote_pair(name, a, b)?;
    let (ra, rb) = (a.aval().shape.len(), b.aval().shape.len());
    let (xa, xb) = (
        normalize_axis(name, axis, ra)?,
        normalize_axis(name, axis, rb)?,
    );
    for (what, x, ax) in [("x1", &a, xa), ("x2", &b, xb)] {
        if x.aval().shape[ax] != 3 {
            return Err(Error::new(
                name,
                format!(
                    "{what} must have size 3 along axis {axis}, got shape {:?}",
                    x.aval().shape
                ),
            ));
        }
    }
    let ca: Vec<Value> = (0..3)
        .map(|k| component(&a, xa, k))
        .collect::<Result<_>>()?;
    let cb: Vec<Value> = (0..3)
        .map(|k| component(&b, xb, k))
        .collect::<Result<_>>()?;
    let term = |i: usize, j: usize| -> Result<Value> {
        let p = lax::mul(&mut Binder, &ca[i], &cb[j])?;
        let q = lax::mul(&mut Binder, &ca[j], &cb[i])?;
        lax::sub(&mut Binder, &p, &q)
    };
    let parts = [term(1, 2)?, term(2, 0)?, term(0, 1)?];
    let out_rank = parts[0].aval().shape.len() as i64;
    let out_axis = if axis < 0 { axis + out_rank } else { axis };
    super::shape::concatenate(&parts, out_axis)
}

/// `multiDot([a, b, …])`: the matrix product left to right (NumPy's vector rules at the ends).
pub fn multi_dot(xs: &[Value]) -> Result<Value> {
    if xs.len() < 2 {
        return Err(Error::new("multiDot", "expects at least two arrays"));
    }
    let mut acc = xs[0].clone();
    for x in &xs[1..] {
        acc = super::linalg::matmul(&[v(&acc), v(x)])?;
    }
    Ok(acc)
}

/// Identity matrices of the shape (and dtype) of square batch `a`.
pub fn eye_like(a: &Value) -> Result<Value> {
    let shape = a.aval().shape.clone();
    let r = shape.len();
    super::jacobi::identity_mask(shape, r - 2, r - 1, a.aval().dtype)
}

/// `matrixPower(a, n)` by repeated squaring; negative `n` inverts first.
pub fn matrix_power(a: &Value, n: f64) -> Result<Value> {
    let name = "matrixPower";
    if n.fract() != 0.0 || !n.is_finite() || n.abs() > 2f64.powi(31) {
        return Err(Error::new(
            name,
            format!("the exponent must be an integer, got {n}"),
        ));
    }
    check_square(name, a)?;
    if n == 0.0 {
        return eye_like(a);
    }
    let mut base = if n < 0.0 {
        super::np_solve::inv(a)?
    } else {
        a.clone()
    };
    let mut k = n.abs() as u64;
    let mut result: Option<Value> = None;
    loop {
        if k & 1 == 1 {
            result = Some(match result {
                None => base.clone(),
                Some(r) => matmul(&r, &base)?,
            });
        }
        k >>= 1;
        if k == 0 {
            break;
        }
        base = matmul(&base, &base)?;
    }
    Ok(result.expect("n ≠ 0"))
}

/// `lstsq(a [M, N], b [M] or [M, K])` by the normal equations with a Cholesky factor (as
/// jax-js): `(AᵀA)⁻¹Aᵀb` when M > N, else the minimum-norm `Aᵀ(AAᵀ)⁻¹b`.
pub fn lstsq(a: &Value, b: &Value) -> Result<Value> {
    let name = "lstsq";
    let (a, b) = super::lax_linalg::promote_pair(name, a, b)?;
    let (sa, sb) = (a.aval().shape.clone(), b.aval().shape.clone());
    if sa.len() != 2 {
        return Err(Error::new(
            name,
            format!("a must be a 2-D array, got shape {sa:?}"),
        ));
    }
    if sb.is_empty() || sb.len() > 2 || sb[0] != sa[0] {
        return Err(Error::new(
            name,
            format!(
                "b must have shape [{}] or [{}, K], got {sb:?}",
                sa[0], sa[0]
            ),
        ));
    }
    let vector = sb.len() == 1;
    let b = if vector {
        lax::reshape(&mut Binder, &b, vec![sb[0], 1])?
    } else {
        b
    };
    let at = mt(&a)?;
    let solve_spd = |g: &Value, rhs: &Value| -> Result<Value> {
        let l = cholesky_lower(name, g)?;
        let y = triangular_solve(name, &l, rhs, true, true, false, false)?;
        triangular_solve(name, &l, &y, true, true, true, false)
    };
    let x = if sa[0] > sa[1] {
        solve_spd(&matmul(&at, &a)?, &matmul(&at, &b)?)?
    } else {
        matmul(&at, &solve_spd(&matmul(&a, &at)?, &b)?)?
    };
    if vector {
        lax::reshape(&mut Binder, &x, vec![sa[1]])
    } else {
        Ok(x)
    }
}
