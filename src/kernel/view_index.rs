//! Loads through views: the Kernel IR expression for "element `i` of a logical array stored
//! as `ShapeTracker` st" — a buffer index plus, for padded views, a validity condition. The
//! walk follows the addressing rules documented in `core::view`, and [`through_views`]
//! rewrites every load of a kernel written for contiguous inputs.

use super::alu::{AluExp, AluKind, BinaryOp, CompareOp};
use super::index::{linear, unravel};
use super::Kernel;
use crate::core::view::{ShapeTracker, View};
use crate::core::DType;

fn int(v: f64) -> AluExp {
    AluExp::constant(DType::Int32, v)
}

fn and(a: Option<AluExp>, b: AluExp) -> Option<AluExp> {
    Some(match a {
        None => b,
        Some(a) => AluExp::binary(BinaryOp::And, a, b),
    })
}

/// One view: the position `flat` maps to, and the condition for it to be valid.
fn through_view(view: &View, flat: &AluExp) -> (AluExp, Option<AluExp>) {
    let coords = unravel(flat, &view.shape);
    let mut valid = None;
    if let Some(mask) = &view.mask {
        for (a, &(lo, hi)) in mask.iter().enumerate() {
            if lo > 0 {
                valid = and(
                    valid,
                    AluExp::compare(CompareOp::Le, int(lo as f64), coords[a].clone()),
                );
            }
            if hi < view.shape[a] {
                valid = and(
                    valid,
                    AluExp::compare(CompareOp::Lt, coords[a].clone(), int(hi as f64)),
                );
            }
        }
    }
    (linear(view.offset, &coords, &view.strides), valid)
}

/// The buffer index of logical element `flat` of an array stored as `st`, and the condition
/// under which the element exists (padding reads as zero when it does not).
pub fn index_through(st: &ShapeTracker, flat: AluExp) -> (AluExp, Option<AluExp>) {
    let mut index = flat;
    let mut valid: Option<AluExp> = None;
    for view in st.views.iter().rev() {
        let (next, v) = through_view(view, &index);
        if let Some(v) = v {
            valid = and(valid, v);
        }
        index = next;
    }
    (index, valid)
}

/// A load of input `input` (of `dtype`, stored as `st`) at logical flat index `flat`.
pub fn load(dtype: DType, input: usize, st: &ShapeTracker, flat: AluExp) -> AluExp {
    let (index, valid) = index_through(st, flat);
    let value = AluExp::load(dtype, input, index);
    match valid {
        None => value,
        Some(cond) => AluExp::where_(cond, value, AluExp::constant(dtype, 0.0)),
    }
}

/// Rewrites a kernel whose loads use logical row-major indices so that input `i` is read
/// through `views[i]`. Contiguous views leave their loads unchanged.
pub fn through_views(kernel: &Kernel, views: &[&ShapeTracker]) -> Kernel {
    fn rewrite(exp: &AluExp, views: &[&ShapeTracker]) -> AluExp {
        exp.rewrite(&|e| match &e.kind {
            AluKind::Load { input, index } => {
                let index = rewrite(index, views);
                Some(match views.get(*input) {
                    Some(st) if !st.is_contiguous() => load(e.dtype, *input, st, index),
                    _ => AluExp::load(e.dtype, *input, index),
                })
            }
            _ => None,
        })
    }
    Kernel {
        exp: rewrite(&kernel.exp, views),
        ..kernel.clone()
    }
}
