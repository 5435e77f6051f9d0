//! `lax.linalg` and `scipyLinalg`, and the shared argument handling of the linear algebra
//! functions: integer inputs become float32, batch axes broadcast, vectors become columns.
//! The math is the routine primitives (`cholesky`, `triangular_solve`).

use crate::core::shape::broadcast_shapes;
use crate::core::DType;
use crate::rules::lax;
use crate::transform::trace::Binder;
use crate::transform::Value;
use crate::util::{Error, Result};

/// `x` as a float array (integers and bools become float32), checking its rank.
pub fn float_matrix(name: &str, x: &Value, min_rank: usize) -> Result<Value> {
    let a = x.aval();
    if a.shape.len() < min_rank {
        return Err(Error::new(
            name,
            format!(
                "expected an array of rank ≥ {min_rank}, got shape {:?}",
                a.shape
            ),
        ));
    }
    match a.dtype {
        DType::Float32 | DType::Float64 => Ok(x.clone()),
        DType::Float16 => Err(Error::new(
            name,
            "float16 is not supported by linear algebra routines (use float32)",
        )),
        _ => lax::cast(&mut Binder, x, DType::Float32),
    }
}

/// `a` and `b` cast to their common float dtype.
pub fn promote_pair(name: &str, a: &Value, b: &Value) -> Result<(Value, Value)> {
    let (a, b) = (float_matrix(name, a, 0)?, float_matrix(name, b, 0)?);
    let (da, db) = (a.aval().dtype, b.aval().dtype);
    if da == db {
        return Ok((a, b));
    }
    let cast = |x: &Value| lax::cast(&mut Binder, x, DType::Float64);
    Ok(if da == DType::Float64 {
        (a, cast(&b)?)
    } else {
        (cast(&a)?, b)
    })
}

/// Broadcasts `x` (rank ≥ 2) to batch axes `batch` followed by its own last two axes.
pub fn broadcast_batch(x: &Value, batch: &[usize]) -> Result<Value> {
    let s = &x.aval().shape;
    let r = s.len();
    let mut shape = batch.to_vec();
    shape.extend_from_slice(&s[r - 2..]);
    if &shape == s {
        return Ok(x.clone());
    }
    let axes = (shape.len() - r..shape.len()).collect();
    lax::broadcast(&mut Binder, x, shape, axes)
}

/// `a [..., k, k]` and `b [..., m, n]` with their batch axes broadcast together.
pub fn common_batch(name: &str, a: &Value, b: &Value) -> Result<(Value, Value)> {
    let (sa, sb) = (&a.aval().shape, &b.aval().shape);
    let batch = broadcast_shapes(name, &sa[..sa.len() - 2], &sb[..sb.len() - 2])?;
    Ok((broadcast_batch(a, &batch)?, broadcast_batch(b, &batch)?))
}

pub fn mt(x: &Value) -> Result<Value> {
    lax::swap_last2(&mut Binder, x)
}

pub fn matmul(a: &Value, b: &Value) -> Result<Value> {
    lax::matmul(&mut Binder, a, b)
}

pub fn cholesky_lower(name: &str, a: &Value) -> Result<Value> {
    let a = float_matrix(name, a, 2)?;
    lax::cholesky(&mut Binder, &a).map_err(|e| rename(e, name))
}

/// Errors of the primitives, reported under the user-facing function's name.
pub fn rename(e: Error, name: &str) -> Error {
    let m = e.message();
    match m.split_once(": ") {
        Some((_, rest)) => Error::new(name, rest),
        None => Error::new(name, m),
    }
}

/// `lax.linalg.triangularSolve` on arrays of rank ≥ 2 (batch axes broadcast).
pub fn triangular_solve(
    name: &str,
    a: &Value,
    b: &Value,
    left_side: bool,
    lower: bool,
    transpose_a: bool,
    unit_diagonal: bool,
) -> Result<Value> {
    let (a, b) = promote_pair(name, a, b)?;
    for (what, x) in [("a", &a), ("b", &b)] {
        if x.aval().shape.len() < 2 {
            return Err(Error::new(
                name,
                format!("{what} must have rank ≥ 2, got shape {:?}", x.aval().shape),
            ));
        }
    }
    let (a, b) = common_batch(name, &a, &b)?;
    lax::triangular_solve(
        &mut Binder,
        &a,
        &b,
        left_side,
        lower,
        transpose_a,
        unit_diagonal,
    )
    .map_err(|e| rename(e, name))
}

/// `scipy.linalg.solve_triangular(a, b, lower, trans)`: a left-side solve; `b` is `[k]` (a
/// vector, solved as one column) or `[..., k, n]`.
pub fn solve_triangular(
    a: &Value,
    b: &Value,
    lower: bool,
    trans: bool,
    unit_diagonal: bool,
) -> Result<Value> {
    let name = "solveTriangular";
    let vector = b.aval().shape.len() == 1;
    let b2 = if vector {
        let k = b.aval().shape[0];
        lax::reshape(&mut Binder, b, vec![k, 1])?
    } else {
        b.clone()
    };
    let x = triangular_solve(name, a, &b2, true, lower, trans, unit_diagonal)?;
    column_back(&x, vector)
}

/// The solution `x` of a right-hand side given as a vector (`vector`: solved as one column)
/// without that column axis; `x` itself otherwise.
pub fn column_back(x: &Value, vector: bool) -> Result<Value> {
    if vector {
        let mut shape = x.aval().shape.clone();
        shape.pop();
        lax::reshape(&mut Binder, x, shape)
    } else {
        Ok(x.clone())
    }
}
