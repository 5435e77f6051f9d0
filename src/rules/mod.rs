//! L3: the rules of every primitive, one file per family. [`family`] sorts primitives into
//! families with one exhaustive match, so a new primitive cannot miss its rules; each family's
//! file holds its abstract evaluation, kernel, VJP and batching rules (`autodiff.rs` and
//! `batch.rs` hold the interfaces, the dispatch and the combinators). Rules write operations
//! with the builders of `lax.rs`.
//!
//! Kernels built here read their inputs as logical, row-major, contiguous arrays (a load's index
//! is the flat logical index); the evaluator maps those loads through each input's view.

pub mod autodiff;
pub mod batch;
pub mod conv;
pub mod creation;
pub mod elementwise;
pub mod emit;
pub mod fft;
pub mod gather;
pub mod index;
pub mod lax;
pub mod linalg;
pub mod movement;
pub mod reduce;
pub mod routine;
pub mod scan;
pub mod sort;

use crate::core::{Aval, Primitive};
use crate::kernel::Kernel;
use crate::util::Result;

/// The rule families: which file holds a primitive's rules.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Family {
    Elementwise,
    Reduce,
    Cumulative,
    /// View changes (and concatenate): `movement.rs`.
    Movement,
    Creation,
    Linalg,
    Indexing,
    /// Sequential algorithms run as routines, not kernels (`routine.rs`; the sort's and the
    /// FFT's own rules in `sort.rs` and `fft.rs`).
    Routine,
    /// Control flow (`scan`): multi-output, no kernel; evaluated by `transform`.
    Control,
}

pub fn family(prim: &Primitive) -> Family {
    match prim {
        Primitive::Unary(_)
        | Primitive::Binary(_)
        | Primitive::Compare(_)
        | Primitive::Where
        | Primitive::Cast(_)
        | Primitive::Bitcast(_)
        | Primitive::StopGradient
        | Primitive::Threefry(_) => Family::Elementwise,
        Primitive::Reduce { .. } => Family::Reduce,
        Primitive::Cumulative { .. } => Family::Cumulative,
        Primitive::Reshape(_)
        | Primitive::Transpose(_)
        | Primitive::Broadcast { .. }
        | Primitive::Shrink(_)
        | Primitive::Pad(_)
        | Primitive::Flip(_)
        | Primitive::Concatenate(_) => Family::Movement,
        Primitive::Iota { .. } => Family::Creation,
        Primitive::Gather { .. } => Family::Indexing,
        Primitive::Matmul | Primitive::Conv(_) => Family::Linalg,
        Primitive::Cholesky
        | Primitive::TriangularSolve { .. }
        | Primitive::Lu
        | Primitive::Sort
        | Primitive::Fft { .. }
        | Primitive::Diagonalize
        | Primitive::OrthogonalColumns { .. } => Family::Routine,
        Primitive::Scan(_) => Family::Control,
    }
}

/// Shape and dtype of every output of a primitive (one for most; several for multi-output
/// primitives, whose arms go here), or an error naming the problem. Interpreters and
/// `Jaxpr::typecheck` use this; [`abstract_eval`] is the single-output shorthand. Every output
/// is checked against the size limits of arrays (`core::shape::check`): this is where every
/// computed shape is first seen, before anything is allocated for it.
pub fn abstract_eval_multi(prim: &Primitive, inputs: &[&Aval]) -> Result<Vec<Aval>> {
    let outs = match prim {
        Primitive::Scan(p) => scan::abstract_eval(p, inputs)?,
        _ if family(prim) == Family::Routine => routine::abstract_eval(prim, inputs)?,
        _ => vec![abstract_eval_one(prim, inputs)?],
    };
    for out in &outs {
        out.check(prim.name())?;
    }
    Ok(outs)
}

/// Shape and dtype of a single-output primitive's output (checked against the size limits), or
/// an error naming the problem.
pub fn abstract_eval(prim: &Primitive, inputs: &[&Aval]) -> Result<Aval> {
    let out = abstract_eval_one(prim, inputs)?;
    out.check(prim.name())?;
    Ok(out)
}

fn abstract_eval_one(prim: &Primitive, inputs: &[&Aval]) -> Result<Aval> {
    match (family(prim), prim) {
        (Family::Elementwise, _) => elementwise::abstract_eval(prim, inputs),
        (Family::Reduce, Primitive::Reduce { op, axes }) => {
            reduce::abstract_eval(*op, axes, inputs)
        }
        (Family::Cumulative, Primitive::Cumulative { op, axis, .. }) => {
            reduce::cumulative_abstract_eval(*op, *axis, inputs)
        }
        (Family::Movement, _) => movement::abstract_eval(prim, inputs),
        (Family::Creation, Primitive::Iota { shape, axis, dtype }) => {
            creation::iota_abstract_eval(shape, *axis, *dtype, inputs)
        }
        (Family::Linalg, Primitive::Conv(p)) => conv::abstract_eval(p, inputs),
        (Family::Linalg, _) => linalg::matmul_abstract_eval(inputs),
        (Family::Indexing, Primitive::Gather { axes, out_dim }) => {
            gather::abstract_eval(axes, *out_dim, inputs)
        }
        (Family::Routine, _) => match routine::abstract_eval(prim, inputs)?.as_slice() {
            [one] => Ok(one.clone()),
            _ => Err(crate::util::Error::new(
                prim.name(),
                "internal error: a multi-output primitive bound as single-output",
            )),
        },
        (Family::Control, _) => Err(several_outputs(prim)),
        _ => unreachable!("family() sorts every primitive"),
    }
}

fn several_outputs(prim: &Primitive) -> crate::util::Error {
    crate::util::Error::new(
        prim.name(),
        "internal error: a multi-output primitive used as a single-output one",
    )
}

/// The kernel computing `prim` on logical inputs with avals `inputs` into `out`.
pub fn to_kernel(prim: &Primitive, inputs: &[&Aval], out: &Aval) -> Result<Kernel> {
    match (family(prim), prim) {
        (Family::Elementwise, _) => Ok(elementwise::kernel(prim, inputs, out)),
        (Family::Reduce, Primitive::Reduce { op, axes }) => {
            Ok(reduce::kernel(*op, axes, inputs[0], out))
        }
        (Family::Cumulative, Primitive::Cumulative { op, axis, reverse }) => {
            Ok(reduce::cumulative_kernel(*op, *axis, *reverse, inputs[0]))
        }
        (Family::Movement, _) => movement::kernel(prim, inputs, out),
        (Family::Creation, Primitive::Iota { axis, .. }) => Ok(creation::iota_kernel(*axis, out)),
        (Family::Linalg, Primitive::Conv(p)) => Ok(conv::kernel(p, inputs[0], inputs[1], out)),
        (Family::Linalg, _) => Ok(linalg::matmul_kernel(inputs[0], inputs[1], out)),
        (Family::Indexing, Primitive::Gather { axes, out_dim }) => {
            Ok(gather::kernel(axes, *out_dim, inputs, out))
        }
        (Family::Routine, _) => Err(crate::util::Error::new(
            prim.name(),
            "internal error: a routine has no kernel (see rules::routine)",
        )),
        (Family::Control, _) => Err(crate::util::Error::new(
            prim.name(),
            "internal error: control flow has no kernel (it is evaluated as a loop)",
        )),
        _ => unreachable!("family() sorts every primitive"),
    }
}
