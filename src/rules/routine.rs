//! Routine primitives (`cholesky`, `triangular_solve`, `lu`, the Jacobi rotations of `eigh`
//! and `svd`; `sort` and `fft` through
//! `sort.rs` and `fft.rs`): abstract evaluation, the [`Routine`] that computes each on a
//! device, and the VJP rules of the linear algebra routines. They batch over leading axes
//! (`batch::batch_leading`): every matrix (or row, for the sort and the FFT) of the batch is
//! an independent problem of the routine.
//!
//! The VJPs are JAX's rules transposed by hand:
//!
//! - `cholesky`: `L̇ = L Φ(L⁻¹ Σ̇ L⁻ᵀ)` with `Φ` = lower triangle, diagonal halved; its
//!   transpose is `Σ̄ = L⁻ᵀ Φ(Lᵀ L̄) L⁻¹` (two triangular solves). As in JAX the tangent is
//!   taken as symmetric, so the cotangent is exact for functions of symmetric inputs
//!   (`numpy.linalg.cholesky` symmetrizes by default, which makes it so). Only the valid
//!   leading block of a factor with a failing pivot carries derivatives.
//! - `triangular_solve` (`op(a) x = b`): linear in `b`, whose cotangent is a solve with
//!   `op(a)ᵀ`; the cotangent of `a` is `-b̄ xᵀ` (left side) or `-xᵀ b̄` (right side), mapped
//!   back through `op` and restricted to the triangle the solve reads.
//! - `lu` (square): `P A = L U` gives `L⁻¹ P Ȧ U⁻¹ = M` with `L̇ = L tril(M, -1)`,
//!   `U̇ = triu(M) U`; transposed, `M̄ = tril(Lᵀ LŪ, -1) + triu(LŪ Uᵀ)` and
//!   `Ā = Pᵀ L⁻ᵀ M̄ U⁻ᵀ`. The integer outputs have no cotangent.

use super::emit::Emit;
use super::lax;
use crate::core::{Aval, DType, Primitive};
use crate::kernel::{Routine, RoutineKind};
use crate::util::{Error, Result};

/// Whether `prim` runs as a routine rather than a kernel.
pub fn is_routine(prim: &Primitive) -> bool {
    super::family(prim) == super::Family::Routine
}

/// `(batch shape, rows, cols)` of a matrix operand, checking rank and dtype.
fn matrix<'a>(name: &str, what: &str, a: &'a Aval) -> Result<(&'a [usize], usize, usize)> {
    let r = a.shape.len();
    if r < 2 {
        return Err(Error::new(
            name,
            format!(
                "{what} must have rank ≥ 2 (a batch of matrices), got shape {:?}",
                a.shape
            ),
        ));
    }
    if !matches!(a.dtype, DType::Float32 | DType::Float64) {
        return Err(Error::new(
            name,
            format!("{what} must be float32 or float64, got {}", a.dtype.name()),
        ));
    }
    Ok((&a.shape[..r - 2], a.shape[r - 2], a.shape[r - 1]))
}

fn square<'a>(name: &str, what: &str, a: &'a Aval) -> Result<(&'a [usize], usize)> {
    let (batch, m, n) = matrix(name, what, a)?;
    if m != n {
        return Err(Error::new(
            name,
            format!("{what} must be square, got shape {:?}", a.shape),
        ));
    }
    Ok((batch, n))
}

fn arity(prim: &Primitive, inputs: &[&Aval], n: usize) -> Result<()> {
    if inputs.len() != n {
        return Err(Error::new(
            prim.name(),
            format!("expected {n} operand(s), got {}", inputs.len()),
        ));
    }
    Ok(())
}

/// The avals of the outputs of routine primitive `prim`.
pub fn abstract_eval(prim: &Primitive, inputs: &[&Aval]) -> Result<Vec<Aval>> {
    let name = prim.name();
    match prim {
        Primitive::Sort => super::sort::abstract_eval(inputs),
        Primitive::Fft { .. } => super::fft::abstract_eval(inputs),
        Primitive::Cholesky => {
            arity(prim, inputs, 1)?;
            square(name, "the operand", inputs[0])?;
            Ok(vec![Aval::new(inputs[0].shape.clone(), inputs[0].dtype)])
        }
        Primitive::TriangularSolve { left_side, .. } => {
            arity(prim, inputs, 2)?;
            let (a, b) = (inputs[0], inputs[1]);
            let (batch_a, k) = square(name, "a", a)?;
            let (batch_b, m, n) = matrix(name, "b", b)?;
            if batch_a != batch_b {
                return Err(Error::new(
                    name,
                    format!(
                        "a and b must have the same batch dimensions, got shapes {:?} and {:?}",
                        a.shape, b.shape
                    ),
                ));
            }
            let (side, want) = if *left_side {
                ("rows", m)
            } else {
                ("columns", n)
            };
            if k != want {
                return Err(Error::new(
                    name,
                    format!(
                        "a is {k}×{k} but b has {want} {side} (shapes {:?} and {:?}, \
                         left_side={left_side})",
                        a.shape, b.shape
                    ),
                ));
            }
            if a.dtype != b.dtype {
                return Err(Error::new(
                    name,
                    format!(
                        "a and b must have the same dtype, got {} and {}",
                        a.dtype.name(),
                        b.dtype.name()
                    ),
                ));
            }
            Ok(vec![Aval::new(b.shape.clone(), b.dtype)])
        }
        Primitive::Lu => {
            arity(prim, inputs, 1)?;
            let (batch, m, n) = matrix(name, "the operand", inputs[0])?;
            let with = |last: &[usize]| [batch, last].concat();
            Ok(vec![
                Aval::new(inputs[0].shape.clone(), inputs[0].dtype),
                Aval::new(with(&[m.min(n)]), DType::Int32),
                Aval::new(with(&[m]), DType::Int32),
            ])
        }
        Primitive::Diagonalize => {
            arity(prim, inputs, 1)?;
            square(name, "the operand", inputs[0])?;
            let a = inputs[0];
            Ok(vec![a.clone(), a.clone()])
        }
        Primitive::OrthogonalColumns { .. } => {
            arity(prim, inputs, 1)?;
            let (batch, _, n) = matrix(name, "the operand", inputs[0])?;
            let a = inputs[0];
            Ok(vec![
                a.clone(),
                Aval::new([batch, &[n, n]].concat(), a.dtype),
            ])
        }
        _ => Err(Error::new(name, "internal error: not a routine")),
    }
}

/// The routine computing `prim` on dense inputs of avals `inputs`.
pub fn routine(prim: &Primitive, inputs: &[&Aval]) -> Result<Routine> {
    abstract_eval(prim, inputs)?;
    match prim {
        Primitive::Sort => return Ok(super::sort::routine(inputs[0])),
        Primitive::Fft { inverse } => return Ok(super::fft::routine(*inverse, inputs[0])),
        _ => {}
    }
    let main = match prim {
        Primitive::TriangularSolve { .. } => inputs[1],
        _ => inputs[0],
    };
    let r = main.shape.len();
    let kind = match *prim {
        Primitive::Cholesky => RoutineKind::Cholesky,
        Primitive::Lu => RoutineKind::Lu,
        Primitive::Diagonalize => RoutineKind::Diagonalize,
        Primitive::OrthogonalColumns { vectors } => RoutineKind::OrthogonalColumns { vectors },
        Primitive::TriangularSolve {
            left_side,
            lower,
            transpose_a,
            unit_diagonal,
        } => RoutineKind::TriangularSolve {
            left_side,
            lower,
            transpose_a,
            unit_diagonal,
        },
        _ => unreachable!("checked by abstract_eval"),
    };
    Ok(Routine {
        kind,
        dtype: main.dtype,
        batch: main.shape[..r - 2].iter().product(),
        m: main.shape[r - 2],
        n: main.shape[r - 1],
    })
}

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
    let shifted = lax::add(e, &rows, k as f64)?;
    let keep = if lower {
        lax::le(e, &cols, &shifted)?
    } else {
        lax::le(e, &shifted, &cols)?
    };
    lax::select(e, &keep, x, 0.0)
}

/// `Φ(x)`: the lower triangle with the diagonal halved.
fn phi<E: Emit>(e: &mut E, x: &E::V) -> Result<E::V> {
    let (rows, cols) = rows_cols(e, x)?;
    let below = lax::lt(e, &cols, &rows)?;
    let diag = lax::eq(e, &cols, &rows)?;
    let half = lax::mul(e, x, 0.5)?;
    let d = lax::select(e, &diag, &half, 0.0)?;
    lax::select(e, &below, x, &d)
}

/// The factor and cotangent restricted to the leading block before the first failing pivot
/// (pivots `L[j, j] > 0` form a prefix; see `RoutineKind::Cholesky`): outside it the factor
/// becomes the identity and the cotangent zero, so the rule is exact for the valid block, gives
/// zero for the entries of `A` that only feed NaN outputs, and stays linear in the cotangent.
fn cholesky_valid_block<E: Emit>(e: &mut E, l: &E::V, g: &E::V) -> Result<(E::V, E::V)> {
    let aval = e.aval(l);
    let r = aval.shape.len();
    let (rows, cols) = rows_cols(e, l)?;
    let diag = lax::eq(e, &rows, &cols)?;
    let on_diag = lax::select(e, &diag, l, 0.0)?;
    let pivots = lax::sum(e, &on_diag, vec![r - 1])?;
    let ok = lax::lt(e, 0.0, &pivots)?;
    let mut col_shape = aval.shape.clone();
    col_shape[r - 1] = 1;
    let mut row_shape = aval.shape.clone();
    row_shape[r - 2] = 1;
    let ok_row = lax::reshape(e, &ok, col_shape)?;
    let ok_col = lax::reshape(e, &ok, row_shape)?;
    let valid = lax::binary(e, crate::core::ops::BinaryOp::And, &ok_row, &ok_col)?;
    let eye = lax::cast(e, &diag, aval.dtype)?;
    let l = lax::select(e, &valid, l, &eye)?;
    let g = lax::select(e, &valid, g, 0.0)?;
    Ok((l, g))
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
    let diag = lax::eq(e, &rows, &cols)?;
    let eye = lax::cast(e, &diag, dtype)?;
    let strict = triangle(e, lu, true, -1)?;
    let l = lax::add(e, &strict, &eye)?;
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
    let m_bar = lax::add(e, &lower, &upper)?;
    let y = lax::triangular_solve(e, lu, &m_bar, true, true, true, true)?;
    let z = lax::triangular_solve(e, lu, &y, false, false, true, false)?;
    // Ā = Pᵀ Z with P[i, j] = (permutation[i] == j).
    let mut pshape = e.aval(perm).shape;
    pshape.push(1);
    let p_col = lax::reshape(e, perm, pshape)?;
    let hit = lax::eq(e, &p_col, &cols)?;
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
            let (l, g) = cholesky_valid_block(e, out, g)?;
            let lt_g = {
                let lt = lax::swap_last2(e, &l)?;
                lax::matmul(e, &lt, &g)?
            };
            let p = phi(e, &lt_g)?;
            let x = lax::triangular_solve(e, &l, &p, true, true, true, false)?;
            Ok(vec![Some(lax::triangular_solve(
                e, &l, &x, false, true, false, false,
            )?)])
        }
        Primitive::TriangularSolve {
            left_side,
            lower,
            transpose_a,
            unit_diagonal,
        } => {
            let a = &ins[0];
            let gb = lax::triangular_solve(e, a, g, left_side, lower, !transpose_a, unit_diagonal)?;
            // The cotangent of op(a), then of a.
            let (p, q) = match (left_side, transpose_a) {
                (true, false) => (gb.clone(), lax::swap_last2(e, out)?),
                (true, true) => (out.clone(), lax::swap_last2(e, &gb)?),
                (false, false) => (lax::swap_last2(e, out)?, gb.clone()),
                (false, true) => (lax::swap_last2(e, &gb)?, out.clone()),
            };
            let prod = lax::matmul(e, &p, &q)?;
            let neg = lax::mul(e, &prod, -1.0)?;
            let k = match (lower, unit_diagonal) {
                (true, true) => -1,
                (false, true) => 1,
                _ => 0,
            };
            let ga = triangle(e, &neg, lower, k)?;
            Ok(vec![Some(ga), Some(gb)])
        }
        // Multi-output routines: differentiated by `autodiff::vjp_multi`.
        _ => Err(super::autodiff::not_differentiable(prim)),
    }
}
