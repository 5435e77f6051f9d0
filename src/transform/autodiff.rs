//! Reverse-mode differentiation of a traced function: its closed Jaxpr is run forward with
//! `bind` (eagerly, or staged into an enclosing trace), keeping every intermediate value —
//! the residuals belong to this pass, not to JS handles (decision 3) — then the VJP rules of
//! `rules::autodiff` run backward from the output cotangents. Because both passes only bind
//! primitives, a gradient is itself differentiable and jittable.

use std::collections::HashMap;

use super::trace::{bind_multi, Binder, ClosedJaxpr, Operand, Value};
use crate::core::jaxpr::{Atom, Var};
use crate::core::ops::ReduceOp;
use crate::core::{Aval, DType, Primitive};
use crate::rules::autodiff::{is_differentiable, vjp, vjp_multi};
use crate::rules::lax;
use crate::util::{Error, Result};

/// The forward pass: every variable's value.
pub struct Forward {
    closed: ClosedJaxpr,
    env: HashMap<Var, Value>,
}

impl Forward {
    fn atom<'b>(&'b self, a: &'b Atom) -> Operand<'b> {
        match a {
            Atom::Var(v) => Operand::Value(&self.env[v]),
            Atom::Literal(x, _) => Operand::Literal(*x),
        }
    }

    /// The values of the Jaxpr's outputs.
    pub fn outputs(&self) -> Result<Vec<Value>> {
        self.closed
            .jaxpr
            .outs
            .iter()
            .map(|a| match a {
                Atom::Var(v) => Ok(self.env[v].clone()),
                Atom::Literal(..) => Err(Error::new(
                    "grad",
                    "the function returned a constant number",
                )),
            })
            .collect()
    }
}

/// Runs `closed` on `args`, keeping every intermediate value.
pub fn forward(closed: ClosedJaxpr, args: &[Value]) -> Result<Forward> {
    if args.len() != closed.jaxpr.in_binders.len() {
        return Err(Error::new(
            "grad",
            "internal error: argument count mismatch",
        ));
    }
    let mut env = HashMap::new();
    let j = &closed.jaxpr;
    for (v, c) in j.const_binders.iter().zip(&closed.consts) {
        env.insert(*v, c.clone());
    }
    for (v, a) in j.in_binders.iter().zip(args) {
        env.insert(*v, a.clone());
    }
    let mut f = Forward {
        closed: ClosedJaxpr {
            jaxpr: Default::default(),
            consts: vec![],
        },
        env,
    };
    for eqn in &j.eqns {
        let ops: Vec<Operand> = eqn.inputs.iter().map(|a| f.atom(a)).collect();
        let outs = bind_multi(eqn.primitive.clone(), &ops)?;
        for (v, out) in eqn.outputs.iter().zip(outs) {
            f.env.insert(*v, out);
        }
    }
    f.closed = closed;
    Ok(f)
}

fn add(a: &Value, b: &Value) -> Result<Value> {
    lax::add(&mut Binder, a, b)
}

fn accumulate(cts: &mut HashMap<Var, Value>, var: Var, g: Value) -> Result<()> {
    let sum = match cts.remove(&var) {
        Some(prev) => add(&prev, &g)?,
        None => g,
    };
    cts.insert(var, sum);
    Ok(())
}

/// The cotangents of the inputs (`None`: zero) given cotangents of the outputs.
pub fn backward(f: &Forward, out_cts: &[Option<Value>]) -> Result<Vec<Option<Value>>> {
    let j = &f.closed.jaxpr;
    let mut cts: HashMap<Var, Value> = HashMap::new();
    for (a, g) in j.outs.iter().zip(out_cts) {
        if let (Atom::Var(v), Some(g)) = (a, g) {
            accumulate(&mut cts, *v, g.clone())?;
        }
    }
    let mut emit = Binder;
    for eqn in j.eqns.iter().rev() {
        // One cotangent per output (`None`: zero); nothing flows back when all are zero.
        let gs: Vec<Option<Value>> = eqn.outputs.iter().map(|v| cts.remove(v)).collect();
        if gs.iter().all(Option::is_none) {
            continue;
        }
        let outs: Vec<Value> = eqn.outputs.iter().map(|v| f.env[v].clone()).collect();
        let ins: Vec<Value> = eqn
            .inputs
            .iter()
            .map(|a| match a {
                Atom::Var(v) => Ok(f.env[v].clone()),
                Atom::Literal(x, aval) => literal_value(*x, aval, &outs[0]),
            })
            .collect::<Result<_>>()?;
        let grads = match (&eqn.primitive, outs.as_slice(), gs.as_slice()) {
            (Primitive::Scan(p), _, _) => super::scan_ad::vjp(p, &ins, &outs, &gs)?,
            (prim, [out], [Some(g)]) => vjp(&mut emit, prim, &ins, out, g)?,
            (prim, _, _) => vjp_multi(&mut emit, prim, &ins, &outs, &gs)?,
        };
        for (a, gi) in eqn.inputs.iter().zip(grads) {
            if let (Atom::Var(v), Some(gi)) = (a, gi) {
                accumulate(&mut cts, *v, gi)?;
            }
        }
    }
    Ok(j.in_binders.iter().map(|v| cts.remove(v)).collect())
}

/// Exact zeros shaped like `x` with dtype `dtype` (also where `x` holds NaN or ∞): `x` cast to
/// bool then to `dtype`, times zero.
pub(crate) fn zeros_like(x: &Value, dtype: DType) -> Result<Value> {
    let b = lax::cast(&mut Binder, x, DType::Bool)?;
    let f = lax::cast(&mut Binder, &b, dtype)?;
    lax::mul(&mut Binder, &f, 0.0)
}

/// A literal operand as a 0-d value of its dtype, on the device of the output it feeds: zero
/// made from one element of `like` (a view, so the cost does not grow with `like`), plus `x`.
fn literal_value(x: f64, aval: &Aval, like: &Value) -> Result<Value> {
    let shape = &like.aval().shape;
    let scalar = if shape.is_empty() {
        zeros_like(like, aval.dtype)?
    } else if shape.iter().all(|&d| d > 0) {
        let first = lax::shrink(&mut Binder, like, vec![(0, 1); shape.len()])?;
        let one = lax::reshape(&mut Binder, &first, Vec::new())?;
        zeros_like(&one, aval.dtype)?
    } else {
        // No element to take: the sum over no elements is the zero.
        let zeros = zeros_like(like, aval.dtype)?;
        lax::reduce(
            &mut Binder,
            ReduceOp::Sum,
            &zeros,
            (0..shape.len()).collect(),
        )?
    };
    lax::add(&mut Binder, &scalar, x)
}

/// `[outputs..., grads of argnums...]` of a traced function whose first output is a float
/// scalar (the others are auxiliary values).
pub fn value_and_grad(
    closed: &ClosedJaxpr,
    args: &[Value],
    argnums: &[usize],
) -> Result<Vec<Value>> {
    for &i in argnums {
        let a = args
            .get(i)
            .ok_or_else(|| Error::new("grad", format!("argnums {i} is out of range")))?;
        if !is_differentiable(a.aval()) {
            let what = a.aval().describe();
            return Err(Error::new(
                "grad",
                format!("argument {i} must be a float array, got {what}"),
            ));
        }
    }
    let f = forward(closed.clone(), args)?;
    let outs = f.outputs()?;
    let value = outs
        .first()
        .ok_or_else(|| Error::new("grad", "the function returned nothing"))?;
    let aval = value.aval();
    if !aval.shape.is_empty() || !is_differentiable(aval) {
        let what = aval.describe();
        return Err(Error::new(
            "grad",
            format!("the function must return a float scalar, got {what}"),
        ));
    }
    let zero = zeros_like(value, aval.dtype)?;
    let one = lax::add(&mut Binder, &zero, 1.0)?;
    let mut cts = vec![None; outs.len()];
    cts[0] = Some(one);
    let grads = backward(&f, &cts)?;
    let mut result = outs.clone();
    for &i in argnums {
        result.push(match &grads[i] {
            Some(g) => g.clone(),
            None => zeros_like(&args[i], args[i].aval().dtype)?,
        });
    }
    Ok(result)
}

/// `vjp`: the forward pass is kept (with its residuals) until this is dropped; `pull` maps
/// output cotangents to input cotangents any number of times.
pub struct Vjp {
    forward: Forward,
}

impl Vjp {
    pub fn new(closed: ClosedJaxpr, args: &[Value]) -> Result<(Vjp, Vec<Value>)> {
        let forward = forward(closed, args)?;
        let outs = forward.outputs()?;
        Ok((Vjp { forward }, outs))
    }

    /// Input cotangents for output cotangents `cts` (`None`: zero); zeros where no gradient
    /// flows.
    pub fn pull(&self, cts: &[Option<Value>]) -> Result<Vec<Value>> {
        let j = &self.forward.closed.jaxpr;
        if cts.len() != j.outs.len() {
            return Err(Error::new(
                "vjp",
                format!("{} cotangents for {} outputs", cts.len(), j.outs.len()),
            ));
        }
        for (i, (c, o)) in cts.iter().zip(self.forward.outputs()?).enumerate() {
            if let Some(c) = c {
                if c.aval().shape != o.aval().shape {
                    return Err(Error::new(
                        "vjp",
                        format!(
                            "cotangent {i} has shape {:?}, the output {:?}",
                            c.aval().shape,
                            o.aval().shape
                        ),
                    ));
                }
                let (ct, out) = (c.aval(), o.aval());
                if out.dtype.is_float() && ct.dtype != out.dtype && !ct.weak {
                    // JAX: the cotangent's type must be the output's tangent type.
                    return Err(Error::new(
                        "vjp",
                        format!(
                            "cotangent {i} has dtype {}, but the output is {}",
                            ct.dtype.name(),
                            out.dtype.name()
                        ),
                    ));
                }
            }
        }
        let grads = backward(&self.forward, cts)?;
        j.in_binders
            .iter()
            .zip(grads)
            .map(|(v, g)| match g {
                Some(g) => Ok(g),
                None => {
                    let x = &self.forward.env[v];
                    zeros_like(x, x.aval().dtype)
                }
            })
            .collect()
    }
}

/// Forward mode by transposing reverse mode: with `u` the output cotangents,
/// `s(u) = Σᵢ ⟨vjp(u)ᵢ, tᵢ⟩ = ⟨u, J t⟩`, so `∂s/∂u = J t`. The backward pass is traced (in
/// Rust) as a function of `u`, then differentiated. Returns all outputs and the tangents of
/// the first `n_diff` (the rest are auxiliary values).
pub fn jvp(
    closed: ClosedJaxpr,
    primals: &[Value],
    tangents: &[Value],
    n_diff: usize,
) -> Result<(Vec<Value>, Vec<Value>)> {
    if primals.len() != tangents.len() {
        return Err(Error::new(
            "jvp",
            "primals and tangents must have the same structure",
        ));
    }
    for (i, (p, t)) in primals.iter().zip(tangents).enumerate() {
        if p.aval().shape != t.aval().shape {
            return Err(Error::new(
                "jvp",
                format!(
                    "tangent {i} has shape {:?}, its primal {:?}",
                    t.aval().shape,
                    p.aval().shape
                ),
            ));
        }
    }
    let fwd = forward(closed, primals)?;
    let outs = fwd.outputs()?;
    let tans = jvp_of_forward(&fwd, &outs[..n_diff.min(outs.len())], primals, tangents)?;
    Ok((outs, tans))
}

/// The tangents of outputs `outs` (the first outputs of the forward pass `fwd` run at
/// `primals`) along `tangents`.
pub fn jvp_of_forward(
    fwd: &Forward,
    outs: &[Value],
    primals: &[Value],
    tangents: &[Value],
) -> Result<Vec<Value>> {
    for o in outs {
        if !is_differentiable(o.aval()) {
            return Err(Error::new(
                "jvp",
                format!("outputs must be float arrays, got {}", o.aval().describe()),
            ));
        }
    }
    let avals: Vec<Aval> = outs.iter().map(|o| o.aval().clone()).collect();
    let (frame, us) = super::trace::begin(&avals);
    let traced = (|| -> Result<Option<Value>> {
        let us: Vec<Option<Value>> = us.into_iter().map(|u| Some(Value::Tracer(u))).collect();
        let cts = backward(fwd, &us)?;
        let mut total: Option<Value> = None;
        for ((ct, t), p) in cts.iter().zip(tangents).zip(primals) {
            let (Some(ct), true) = (ct, is_differentiable(p.aval())) else {
                continue;
            };
            let prod = lax::mul(&mut Binder, ct, t)?;
            let axes = (0..prod.aval().shape.len()).collect();
            let s = lax::reduce(&mut Binder, ReduceOp::Sum, &prod, axes)?;
            total = Some(match total {
                None => s,
                Some(acc) => add(&acc, &s)?,
            });
        }
        Ok(total)
    })();
    let total = match traced {
        Ok(Some(t)) => t,
        // No input reaches the outputs: their tangents are zero.
        Ok(None) => {
            super::trace::abort(frame);
            return outs.iter().map(|o| zeros_like(o, o.aval().dtype)).collect();
        }
        Err(e) => {
            super::trace::abort(frame);
            return Err(e);
        }
    };
    let inner = super::trace::end("jvp", frame, &[total])?;
    let seeds: Vec<Value> = outs
        .iter()
        .map(|o| zeros_like(o, o.aval().dtype))
        .collect::<Result<_>>()?;
    let argnums: Vec<usize> = (0..seeds.len()).collect();
    let res = value_and_grad(&inner, &seeds, &argnums)?;
    Ok(res[1..].to_vec())
}
