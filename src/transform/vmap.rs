//! `vmap`: a batching interpreter. The function is traced once on one batch member's avals (the
//! batch axis removed); its closed Jaxpr is then evaluated on the batched arguments, each value
//! carrying its batch axis (or none: the same for every member), through the batching rules
//! of `rules::batch`. Equations whose operands are all unbatched are bound as they are. All
//! work is done by binding primitives, so a vmap runs eagerly or is staged into an enclosing
//! trace, and composes with `grad`, `jvp` and other vmaps.

use std::collections::HashMap;

use super::trace::Binder;
use super::trace::{bind_multi, ClosedJaxpr, Operand, Value};
use crate::core::jaxpr::{Atom, Var};
use crate::core::{Aval, Primitive};
use crate::rules::batch::{batch, batch_at, BArg};
use crate::util::{Error, Result};

/// Checks `in_axes` against the arguments and returns the batch size and one batch member's
/// aval of each argument.
pub fn example_avals(
    function: &str,
    args: &[&Aval],
    in_axes: &[Option<usize>],
) -> Result<(usize, Vec<Aval>)> {
    if args.len() != in_axes.len() {
        return Err(Error::new(
            function,
            format!(
                "inAxes has {} entries for {} array arguments",
                in_axes.len(),
                args.len()
            ),
        ));
    }
    let mut size: Option<(usize, usize, usize)> = None;
    let mut avals = Vec::with_capacity(args.len());
    for (i, (aval, axis)) in args.iter().zip(in_axes).enumerate() {
        let mut a = (*aval).clone();
        if let Some(axis) = *axis {
            let rank = a.shape.len();
            if axis >= rank {
                return Err(Error::new(
                    function,
                    format!(
                        "inAxes {axis} is out of range for argument {i} of shape {:?}",
                        a.shape
                    ),
                ));
            }
            let n = a.shape.remove(axis);
            match size {
                Some((m, j, ax)) if m != n => {
                    return Err(Error::new(
                        function,
                        format!(
                            "batched axes have different sizes: argument {j} has {m} along axis \
                             {ax}, argument {i} has {n} along axis {axis}"
                        ),
                    ))
                }
                None => size = Some((n, i, axis)),
                _ => {}
            }
        }
        avals.push(a);
    }
    let (size, _, _) = size.ok_or_else(|| {
        Error::new(
            function,
            "at least one argument must be batched (inAxes are all null)",
        )
    })?;
    Ok((size, avals))
}

/// Evaluates `closed` (traced on one batch member) on batched `args`; every output gets its
/// batch axis at `out_axis`.
pub fn vmap(
    closed: &ClosedJaxpr,
    args: &[Value],
    in_axes: &[Option<usize>],
    out_axis: usize,
) -> Result<Vec<Value>> {
    let avals: Vec<&Aval> = args.iter().map(Value::aval).collect();
    let (size, _) = example_avals("vmap", &avals, in_axes)?;
    let batched: Vec<(Value, Option<usize>)> =
        args.iter().cloned().zip(in_axes.iter().copied()).collect();
    let outs = batch_jaxpr(closed, &batched, size)?;
    outs.iter()
        .map(|(v, b)| batch_at(&mut Binder, v, *b, size, out_axis))
        .collect()
}

/// Runs `closed` on batched arguments (each with its batch axis, or `None`), returning every
/// output with its batch axis (`None`: the same for every member). The batching rule of a
/// primitive whose body is itself a Jaxpr (scan) calls this on its body.
pub fn batch_jaxpr(
    closed: &ClosedJaxpr,
    args: &[(Value, Option<usize>)],
    size: usize,
) -> Result<Vec<(Value, Option<usize>)>> {
    let j = &closed.jaxpr;
    if args.len() != j.in_binders.len() {
        return Err(Error::new(
            "vmap",
            "internal error: argument count mismatch",
        ));
    }
    let mut env: HashMap<Var, (Value, Option<usize>)> = HashMap::new();
    for (v, c) in j.const_binders.iter().zip(&closed.consts) {
        env.insert(*v, (c.clone(), None));
    }
    for (v, a) in j.in_binders.iter().zip(args) {
        env.insert(*v, a.clone());
    }
    for eqn in &j.eqns {
        let ins: Vec<BArg<Value>> = eqn
            .inputs
            .iter()
            .map(|a| match a {
                Atom::Var(v) => {
                    let (val, b) = &env[v];
                    BArg::V(val, *b)
                }
                Atom::Literal(x, _) => BArg::Lit(*x),
            })
            .collect();
        let outs: Vec<(Value, Option<usize>)> = if ins.iter().all(|a| a.bdim().is_none()) {
            let ops: Vec<Operand> = ins
                .iter()
                .map(|a| match a {
                    BArg::V(v, _) => Operand::Value(v),
                    BArg::Lit(x) => Operand::Literal(*x),
                })
                .collect();
            bind_multi(eqn.primitive.clone(), &ops)?
                .into_iter()
                .map(|v| (v, None))
                .collect()
        } else if let Primitive::Scan(p) = &eqn.primitive {
            super::scan_vmap::batch(p, &ins, size)?
        } else {
            batch_eqn(&eqn.primitive, &ins, size)?
        };
        if outs.len() != eqn.outputs.len() {
            return Err(Error::new(
                eqn.primitive.name(),
                "internal error: the batching rule returned the wrong number of outputs",
            ));
        }
        for (var, out) in eqn.outputs.iter().zip(outs) {
            env.insert(*var, out);
        }
    }
    j.outs
        .iter()
        .map(|a| match a {
            Atom::Var(v) => Ok(env[v].clone()),
            Atom::Literal(..) => Err(Error::new(
                "vmap",
                "the function returned a constant number",
            )),
        })
        .collect()
}

/// One equation with at least one batched operand. Primitives whose batching needs the
/// interpreter (a Jaxpr-valued parameter, as scan's body: see [`batch_jaxpr`]) add an arm
/// here; every other primitive's rule is in `rules::batch`.
fn batch_eqn(
    prim: &Primitive,
    ins: &[BArg<Value>],
    size: usize,
) -> Result<Vec<(Value, Option<usize>)>> {
    batch(&mut Binder, prim, ins, size)
}
