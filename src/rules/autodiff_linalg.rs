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
use crate::core::ops::{BinaryOp as B, CompareOp as C};
use crate::core::{DType, Primitive};
use crate::util::Result;

use Arg::{Lit, V};

/// Swaps the last two axes.
pub fn mt<E: Emit>(e: &mut E, x: &E::V) -> Result<E::V> {
    let r = e.aval(x).shape.len();
    let mut perm: Vec<usize> = (0..r).collect();
    perm.swap(r - 2, r - 1);
    e.bind(Primitive::Transpose(perm), &[V(x)])
}

pub fn matmul<E: Emit>(e: &mut E, a: &E::V, b: &E::V) -> Result<E::V> {
    e.bind(Primitive::Matmul, &[V(a), V(b)])
}

/// `(row, col)` index arrays (int32) of the shape of `x`.
fn rows_cols<E: Emit>(e: &mut E, x: &E::V) -> Result<(E::V, E::V)> {
    let shape = e.aval(x).shape;
    let r = shape.len();
    let iota = |e: &mut E, axis| {
        e.bind(
            Primitive::Iota {
                shape: shape.clone(),
                axis,
                dtype: DType::Int32,
            },
            &[],
        )
    };
    Ok((iota(e, r - 2)?, iota(e, r - 1)?))
}

/// The elements of `x` with `col - row <= k` (`lower`) or `col - row >= k`; zeros elsewhere
/// (NumPy's `tril(x, k)` / `triu(x, k)` on the last two axes).
pub fn triangle<E: Emit>(e: &mut E, x: &E::V, lower: bool, k: i64) -> Result<E::V> {
    let (rows, cols) = rows_cols(e, x)?;
    let shifted = e.bind(Primitive::Binary(B::Add), &[V(&rows), Lit(k as f64)])?;
    let keep = if lower {
        e.bind(Primitive::Compare(C::Le), &[V(&cols), V(&shifted)])?
    } else {
        e.bind(Primitive::Compare(C::Le), &[V(&shifted), V(&cols)])?
    };
    e.bind(Primitive::Where, &[V(&keep), V(x), Lit(0.0)])
}

/// `Φ(x)`: the lower triangle with the diagonal halved.
fn phi<E: Emit>(e: &mut E, x: &E::V) -> Result<E::V> {
    let (rows, cols) = rows_cols(e, x)?;
    let below = e.bind(Primitive::Compare(C::Lt), &[V(&cols), V(&rows)])?;
    let diag = e.bind(Primitive::Compare(C::Eq), &[V(&cols), V(&rows)])?;
    let half = e.bind(Primitive::Binary(B::Mul), &[V(x), Lit(0.5)])?;
    let d = e.bind(Primitive::Where, &[V(&diag), V(&half), Lit(0.0)])?;
    e.bind(Primitive::Where, &[V(&below), V(x), V(&d)])
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
    let diag = e.bind(Primitive::Compare(C::Eq), &[V(&rows), V(&cols)])?;
    let eye = e.bind(Primitive::Cast(dtype), &[V(&diag)])?;
    let strict = triangle(e, lu, true, -1)?;
    let l = e.bind(Primitive::Binary(B::Add), &[V(&strict), V(&eye)])?;
    let u = triangle(e, lu, false, 0)?;
    let lt_g = {
        let lt = mt(e, &l)?;
        matmul(e, &lt, g)?
    };
    let g_ut = {
        let ut = mt(e, &u)?;
        matmul(e, g, &ut)?
    };
    let lower = triangle(e, &lt_g, true, -1)?;
    let upper = triangle(e, &g_ut, false, 0)?;
    let m_bar = e.bind(Primitive::Binary(B::Add), &[V(&lower), V(&upper)])?;
    let y = solve(e, lu, &m_bar, true, true, true, true)?;
    let z = solve(e, lu, &y, false, false, true, false)?;
    // Ā = Pᵀ Z with P[i, j] = (permutation[i] == j).
    let mut pshape = e.aval(perm).shape;
    pshape.push(1);
    let p_col = e.bind(Primitive::Reshape(pshape), &[V(perm)])?;
    let hit = e.bind(Primitive::Compare(C::Eq), &[V(&p_col), V(&cols)])?;
    let p = e.bind(Primitive::Cast(dtype), &[V(&hit)])?;
    let pt = mt(e, &p)?;
    Ok(vec![Some(matmul(e, &pt, &z)?)])
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
                let lt = mt(e, out)?;
                matmul(e, &lt, g)?
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
                (true, false) => (gb.clone(), mt(e, out)?),
                (true, true) => (out.clone(), mt(e, &gb)?),
                (false, false) => (mt(e, out)?, gb.clone()),
                (false, true) => (mt(e, &gb)?, out.clone()),
            };
            let prod = matmul(e, &p, &q)?;
            let neg = e.bind(Primitive::Binary(B::Mul), &[V(&prod), Lit(-1.0)])?;
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
