//! Reverse-mode rules of the linear algebra routines, JAX's rules transposed by hand:
//!
//! - `cholesky`: `L̇ = L Φ(L⁻¹ Σ̇ L⁻ᵀ)` with `Φ` = lower triangle, diagonal halved; its
//!   transpose is `Σ̄ = L⁻ᵀ Φ(Lᵀ L̄) L⁻¹` (two triangular solves). As in JAX the tangent is
//!   taken as symmetric, so the cotangent is exact for functions of symmetric inputs
//!   (`numpy.linalg.cholesky` symmetrizes by default, which makes it so).
//! - `triangular_solve` (`op(a) x = b`): linear in `b`, whose cotangent is a solve with
//!   `op(a)ᵀ`; the cotangent of `a` is `-b̄ xᵀ` (left side) or `-xᵀ b̄` (right side), mapped
//!   back through `op` and restricted to the triangle the solve reads.
//! - `lu` (square): `P A = L U` gives `L⁻¹ P Ȧ U⁻¹ = M` with `L̇ = L tril(M, -1)`,
//!   `U̇ = triu(M) U`; transposed, `M̄ = tril(Lᵀ LŪ, -1) + triu(LŪ Uᵀ)` and
//!   `Ā = Pᵀ L⁻ᵀ M̄ U⁻ᵀ`. The integer outputs have no cotangent.

use super::emit::{Arg, Emit};
use super::lax;
use crate::core::ops::{BinaryOp as B, CompareOp as C};
use crate::core::Primitive;
use crate::util::Result;

use Arg::{Lit, V};

/// `(row, col)` index arrays (int32) of the shape of `x`.
fn rows_cols<E: Emit>(e: &mut E, x: &E::V) -> Result<(E::V, E::V)> {
    let shape = e.aval(x).shape;
    let r = shape.len();
    let rows = lax::iota_i32(e, shape.clone(), r - 2)?;
    Ok((rows, lax::iota_i32(e, shape, r - 1)?))
}

/// The elements of `x` with `col - row <= k` (`lower`) or `col - row >= k`; zeros elsewhere
/// (NumPy's `tril(x, k)` / `triu(x, k)` on the last two axes).
pub fn triangle<E: Emit>(e: &mut E, x: &E::V, lower: bool, k: i64) -> Result<E::V> {
    let (rows, cols) = rows_cols(e, x)?;
    let shifted = lax::binary(e, B::Add, V(&rows), Lit(k as f64))?;
    let keep = if lower {
        lax::compare(e, C::Le, V(&cols), V(&shifted))?
    } else {
        lax::compare(e, C::Le, V(&shifted), V(&cols))?
    };
    lax::select(e, V(&keep), V(x), Lit(0.0))
}

/// `Φ(x)`: the lower triangle with the diagonal halved.
fn phi<E: Emit>(e: &mut E, x: &E::V) -> Result<E::V> {
    let (rows, cols) = rows_cols(e, x)?;
    let below = lax::compare(e, C::Lt, V(&cols), V(&rows))?;
    let diag = lax::compare(e, C::Eq, V(&cols), V(&rows))?;
    let half = lax::binary(e, B::Mul, V(x), Lit(0.5))?;
    let d = lax::select(e, V(&diag), V(&half), Lit(0.0))?;
    lax::select(e, V(&below), V(x), V(&d))
}

pub fn solve<E: Emit>(
    e: &mut E,
    a: &E::V,
    b: &E::V,
    left_side: bool,
    lower: bool,
    transpose_a: bool,
    unit_diagonal: bool,
) -> Result<E::V> {
    e.bind(
        Primitive::TriangularSolve {
            left_side,
            lower,
            transpose_a,
            unit_diagonal,
        },
        &[V(a), V(b)],
    )
}

/// The cotangent of `lu`'s input given the cotangents of its outputs (only the packed factor
/// carries one).
pub fn lu_vjp<E: Emit>(
    e: &mut E,
    ins: &[E::V],
    outs: &[E::V],
    gs: &[Option<E::V>],
) -> Result<Vec<Option<E::V>>> {
    let Some(g) = &gs[0] else {
        return Ok(vec![None]);
    };
    let (lu, perm) = (&outs[0], &outs[2]);
    let shape = e.aval(&ins[0]).shape;
    let r = shape.len();
    if shape[r - 1] != shape[r - 2] {
        return Err(crate::util::Error::new(
            "lu",
            format!("differentiation is supported for square matrices only, got shape {shape:?}"),
        ));
    }
    let dtype = e.aval(lu).dtype;
    // L (unit lower) and U from the packed factor.
    let (rows, cols) = rows_cols(e, lu)?;
    let diag = lax::compare(e, C::Eq, V(&rows), V(&cols))?;
    let eye = lax::cast(e, &diag, dtype)?;
    let strict = triangle(e, lu, true, -1)?;
    let l = lax::binary(e, B::Add, V(&strict), V(&eye))?;
    let u = triangle(e, lu, false, 0)?;
    let lt_g = {
        let lt = lax::swap_last2(e, &l)?;
        lax::matmul(e, &lt, g)?
    };
    let g_ut = {
        let ut = lax::swap_last2(e, &u)?;
        lax::matmul(e, g, &ut)?
    };
    let lower = triangle(e, &lt_g, true, -1)?;
    let upper = triangle(e, &g_ut, false, 0)?;
    let m_bar = lax::binary(e, B::Add, V(&lower), V(&upper))?;
    let y = solve(e, lu, &m_bar, true, true, true, true)?;
    let z = solve(e, lu, &y, false, false, true, false)?;
    // Ā = Pᵀ Z with P[i, j] = (permutation[i] == j).
    let mut pshape = e.aval(perm).shape;
    pshape.push(1);
    let p_col = lax::reshape(e, perm, pshape)?;
    let hit = lax::compare(e, C::Eq, V(&p_col), V(&cols))?;
    let p = lax::cast(e, &hit, dtype)?;
    let pt = lax::swap_last2(e, &p)?;
    Ok(vec![Some(lax::matmul(e, &pt, &z)?)])
}

/// The input cotangents of routine `prim` (inputs `ins`, output `out`) for cotangent `g`.
pub fn vjp<E: Emit>(
    e: &mut E,
    prim: &Primitive,
    ins: &[E::V],
    out: &E::V,
    g: &E::V,
) -> Result<Vec<Option<E::V>>> {
    match *prim {
        Primitive::Cholesky => {
            let lt_g = {
                let lt = lax::swap_last2(e, out)?;
                lax::matmul(e, &lt, g)?
            };
            let p = phi(e, &lt_g)?;
            let x = solve(e, out, &p, true, true, true, false)?;
            Ok(vec![Some(solve(e, out, &x, false, true, false, false)?)])
        }
        Primitive::TriangularSolve {
            left_side,
            lower,
            transpose_a,
            unit_diagonal,
        } => {
            let a = &ins[0];
            let gb = solve(e, a, g, left_side, lower, !transpose_a, unit_diagonal)?;
            // The cotangent of op(a), then of a.
            let (p, q) = match (left_side, transpose_a) {
                (true, false) => (gb.clone(), lax::swap_last2(e, out)?),
                (true, true) => (out.clone(), lax::swap_last2(e, &gb)?),
                (false, false) => (lax::swap_last2(e, out)?, gb.clone()),
                (false, true) => (lax::swap_last2(e, &gb)?, out.clone()),
            };
            let prod = lax::matmul(e, &p, &q)?;
            let neg = lax::binary(e, B::Mul, V(&prod), Lit(-1.0))?;
            let k = match (lower, unit_diagonal) {
                (true, true) => -1,
                (false, true) => 1,
                _ => 0,
            };
            let ga = triangle(e, &neg, lower, k)?;
            Ok(vec![Some(ga), Some(gb)])
        }
        _ => Err(crate::util::Error::new(
            prim.name(),
            "internal error: not a linear algebra routine",
        )),
    }
}
