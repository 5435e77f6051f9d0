//! Batching a `scan` equation (for `vmap`): every carry is batched (at axis 0; unbatched initial
//! carries are broadcast), batched consts keep their batch axis at 0 and batched xs at axis 1
//! (axis 0 is the loop), unbatched ones stay as they are. The body is batched by tracing `vmap`
//! of it on those avals; the new scan's ys come out batched at axis 1.

use super::scan::{bind_scan, trace_body, Loop};
use super::trace::Binder;
use super::trace::{ClosedJaxpr, Value};
use super::vmap::vmap;
use crate::core::scan::ScanParams;
use crate::core::Aval;
use crate::rules::batch::{batch_at, BArg, Batched};
use crate::rules::lax::moveaxis;
use crate::util::{Error, Result};

fn with_axis(a: &Aval, at: usize, size: usize) -> Aval {
    let mut shape = a.shape.clone();
    shape.insert(at, size);
    Aval::new(shape, a.dtype)
}

/// The outputs (with their batch axes) of scan `p` on batched operands `ins`.
pub fn batch(p: &ScanParams, ins: &[BArg<Value>], size: usize) -> Result<Vec<Batched<Value>>> {
    let body = p.body.jaxpr();
    let (nc, nk) = (p.num_consts, p.num_carry);
    let mut e = Binder;
    let mut operands = Vec::with_capacity(ins.len());
    let mut in_axes = Vec::with_capacity(ins.len());
    let mut avals = Vec::with_capacity(ins.len());
    for (i, a) in ins.iter().enumerate() {
        let BArg::V(v, b) = a else {
            return Err(Error::new("scan", "internal error: a literal scan operand"));
        };
        let row = body.avals[body.in_binders[i].0 as usize].clone();
        let row = Aval::new(row.shape, row.dtype);
        let (value, axis) = if (nc..nc + nk).contains(&i) {
            (batch_at(&mut e, v, *b, size, 0)?, Some(0))
        } else {
            match b {
                None => ((*v).clone(), None),
                Some(b) if i < nc => (moveaxis(&mut e, v, *b, 0)?, Some(0)),
                Some(b) => (moveaxis(&mut e, v, *b, 1)?, Some(0)),
            }
        };
        avals.push(if axis.is_some() {
            with_axis(&row, 0, size)
        } else {
            row
        });
        in_axes.push(axis);
        operands.push(value);
    }
    let closed = ClosedJaxpr {
        jaxpr: body.clone(),
        consts: vec![],
    };
    let batched = trace_body(&avals, |args| vmap(&closed, args, &in_axes, 0))?;
    let lp = Loop {
        length: p.length,
        reverse: p.reverse,
        segment: p.segment,
        accept: p.accept,
    };
    let outs = bind_scan(
        batched,
        &operands[..nc],
        &operands[nc..nc + nk],
        &operands[nc + nk..],
        lp,
    )?;
    Ok(outs
        .into_iter()
        .enumerate()
        .map(|(i, v)| (v, Some(if i < nk { 0 } else { 1 })))
        .collect())
}
