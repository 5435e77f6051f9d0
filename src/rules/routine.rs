//! Routine primitives (`cholesky`, `triangular_solve`, `lu`; `sort` and `fft` through
//! `sort.rs` and `fft.rs`): abstract evaluation, and the [`Routine`] that computes each on a
//! device. They batch over leading axes: every matrix (or row, for the sort and the FFT) of
//! the batch is an independent problem of the routine.

use crate::core::{Aval, DType, Primitive};
use crate::kernel::{Routine, RoutineKind};
use crate::util::{Error, Result};

/// Whether `prim` runs as a routine rather than a kernel.
pub fn is_routine(prim: &Primitive) -> bool {
    matches!(
        prim,
        Primitive::Cholesky
            | Primitive::TriangularSolve { .. }
            | Primitive::Lu
            | Primitive::Sort
            | Primitive::Fft { .. }
    )
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
