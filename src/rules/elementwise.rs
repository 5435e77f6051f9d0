//! Elementwise primitives: unary and binary math, comparisons, `where`, casts, bitcasts,
//! `stop_gradient` and `threefry2x32`. Operands broadcast (NumPy rules) and promote (jax-js rules, weak types).
//! Their abstract evaluation, kernel and VJP rules; batching is `batch::batch_aligned` (the
//! batch axis moved to the front and the operands aligned, as broadcasting lines them up).

use super::autodiff::{negated, over, route, times, unbroadcast_to};
use super::emit::Emit;
use super::index::broadcast_index;
use super::lax;
use crate::core::dtype::promote;
use crate::core::ops::{BinaryOp, UnaryOp};
use crate::core::shape::broadcast_shapes;
use crate::core::{Aval, DType, Primitive};
use crate::kernel::{AluExp, Kernel};
use crate::util::{Error, Result};

fn arity(prim: &Primitive) -> usize {
    match prim {
        Primitive::Binary(_) | Primitive::Compare(_) => 2,
        Primitive::Where => 3,
        Primitive::Threefry(_) => 4,
        _ => 1,
    }
}

/// The common dtype of several operands (with weak-type promotion) and whether it is weak.
fn join(avals: &[&Aval]) -> (DType, bool) {
    avals[1..]
        .iter()
        .fold((avals[0].dtype, avals[0].weak), |(d, w), a| {
            promote(d, w, a.dtype, a.weak)
        })
}

pub fn abstract_eval(prim: &Primitive, inputs: &[&Aval]) -> Result<Aval> {
    let name = prim.name();
    if inputs.len() != arity(prim) {
        let n = arity(prim);
        return Err(Error::new(
            name,
            format!("expected {n} operands, got {}", inputs.len()),
        ));
    }
    let shape = inputs[1..]
        .iter()
        .try_fold(inputs[0].shape.clone(), |s, a| {
            broadcast_shapes(name, &s, &a.shape)
        })?;
    let need = |ok: bool, what: &str, d: DType| {
        if ok {
            Ok(())
        } else {
            Err(Error::new(
                name,
                format!("requires {what} operands, got {}", d.name()),
            ))
        }
    };
    let (dtype, weak) = match prim {
        Primitive::Unary(op) => {
            let d = inputs[0].dtype;
            match op {
                UnaryOp::Neg | UnaryOp::Abs => need(d != DType::Bool, "numeric", d)?,
                UnaryOp::Not => need(!d.is_float(), "bool or integer", d)?,
                _ => need(d.is_float(), "floating-point", d)?,
            }
            (d, inputs[0].weak)
        }
        Primitive::Binary(op) => {
            let (d, w) = join(inputs);
            match op {
                BinaryOp::And | BinaryOp::Or | BinaryOp::Xor => {
                    need(!d.is_float(), "bool or integer", d)?
                }
                BinaryOp::Shl | BinaryOp::Shr => {
                    need(matches!(d, DType::Int32 | DType::Uint32), "integer", d)?
                }
                _ => need(d != DType::Bool, "numeric", d)?,
            }
            (d, w)
        }
        Primitive::Compare(_) => (DType::Bool, false),
        Primitive::Where => {
            need(
                inputs[0].dtype == DType::Bool,
                "a bool condition and",
                inputs[0].dtype,
            )?;
            join(&inputs[1..])
        }
        Primitive::Cast(d) => (*d, false),
        Primitive::Bitcast(d) => {
            let from = inputs[0].dtype;
            if from.byte_size() != d.byte_size() || from == DType::Bool || *d == DType::Bool {
                return Err(Error::new(
                    name,
                    format!(
                        "cannot bitcast {} to {} (sizes differ or bool)",
                        from.name(),
                        d.name()
                    ),
                ));
            }
            (*d, false)
        }
        Primitive::StopGradient => (inputs[0].dtype, inputs[0].weak),
        Primitive::Threefry(_) => {
            for a in inputs {
                need(a.dtype == DType::Uint32, "uint32", a.dtype)?;
            }
            (DType::Uint32, false)
        }
        _ => {
            unreachable!("not elementwise")
        }
    };
    Ok(Aval { shape, dtype, weak })
}

/// The kernel of an elementwise primitive: loads broadcast to the output shape, operands
/// converted to the dtype the operation works in.
pub fn kernel(prim: &Primitive, inputs: &[&Aval], out: &Aval) -> Kernel {
    let load = |i: usize| {
        AluExp::load(
            inputs[i].dtype,
            i,
            broadcast_index(&inputs[i].shape, &out.shape),
        )
    };
    let exp = match prim {
        Primitive::Unary(op) => AluExp::unary(*op, load(0)),
        Primitive::Binary(op) => AluExp::binary(
            *op,
            AluExp::cast(load(0), out.dtype),
            AluExp::cast(load(1), out.dtype),
        ),
        Primitive::Compare(op) => {
            let (d, _) = join(inputs);
            AluExp::compare(*op, AluExp::cast(load(0), d), AluExp::cast(load(1), d))
        }
        Primitive::Where => AluExp::where_(
            load(0),
            AluExp::cast(load(1), out.dtype),
            AluExp::cast(load(2), out.dtype),
        ),
        Primitive::Cast(d) => AluExp::cast(load(0), *d),
        Primitive::Bitcast(d) => AluExp::bitcast(load(0), *d),
        Primitive::StopGradient => load(0),
        Primitive::Threefry(mode) => AluExp::threefry(*mode, [load(0), load(1), load(2), load(3)]),
        _ => {
            unreachable!("not elementwise")
        }
    };
    Kernel::elementwise(inputs.iter().map(|a| a.dtype).collect(), out.size(), exp)
}

/// The input cotangents of an elementwise primitive (inputs `ins`, output `out`) for the output
/// cotangent `g`, each summed back over the axes its operand was broadcast along.
pub fn vjp<E: Emit>(
    e: &mut E,
    prim: &Primitive,
    ins: &[E::V],
    out: &E::V,
    g: &E::V,
) -> Result<Vec<Option<E::V>>> {
    Ok(match prim {
        Primitive::Unary(op) => vec![unary_vjp(e, *op, &ins[0], out, g)?],
        Primitive::Binary(op) => {
            let (ga, gb) = binary_vjp(e, *op, &ins[0], &ins[1], out, g)?;
            vec![
                unbroadcast_to(e, ga, &ins[0])?,
                unbroadcast_to(e, gb, &ins[1])?,
            ]
        }
        Primitive::Where => {
            let (ga, gb) = route(e, &ins[0], g)?;
            vec![
                None,
                unbroadcast_to(e, Some(ga), &ins[1])?,
                unbroadcast_to(e, Some(gb), &ins[2])?,
            ]
        }
        Primitive::Cast(_) => {
            let from = e.aval(&ins[0]).dtype;
            vec![if from.is_float() {
                Some(lax::cast(e, g, from)?)
            } else {
                None
            }]
        }
        Primitive::Compare(_)
        | Primitive::Bitcast(_)
        | Primitive::StopGradient
        | Primitive::Threefry(_) => vec![None; ins.len()],
        _ => unreachable!("not elementwise"),
    })
}

fn unary_vjp<E: Emit>(
    e: &mut E,
    op: UnaryOp,
    x: &E::V,
    out: &E::V,
    g: &E::V,
) -> Result<Option<E::V>> {
    use UnaryOp as U;
    Ok(Some(match op {
        U::Neg => lax::neg(e, g)?,
        U::Abs => {
            let pos = lax::lt(e, 0.0, x)?;
            let neg = lax::lt(e, x, 0.0)?;
            let ng = lax::neg(e, g)?;
            let z = lax::zeros_like(e, g)?;
            let inner = lax::select(e, &neg, &ng, &z)?;
            lax::select(e, &pos, g, &inner)?
        }
        U::Reciprocal => negated(e, |e| times(e, g, |e| lax::mul(e, out, out)))?,
        U::Sqrt => over(e, g, |e| lax::mul(e, out, 2.0))?,
        U::Exp => lax::mul(e, g, out)?,
        U::Log => lax::div(e, g, x)?,
        U::Sin => times(e, g, |e| lax::cos(e, x))?,
        U::Cos => negated(e, |e| times(e, g, |e| lax::sin(e, x)))?,
        U::Tanh => times(e, g, |e| one_minus_square(e, out))?,
        U::Asin => over(e, g, |e| {
            let d = one_minus_square(e, x)?;
            lax::sqrt(e, &d)
        })?,
        U::Atan => over(e, g, |e| {
            let x2 = lax::mul(e, x, x)?;
            lax::add(e, 1.0, &x2)
        })?,
        U::Erf | U::Erfc => times(e, g, |e| {
            // d/dx erf = 2/√π · exp(−x²); erfc's is its negation.
            let x2 = lax::mul(e, x, x)?;
            let nx2 = lax::neg(e, &x2)?;
            let ex = lax::exp(e, &nx2)?;
            let k = 2.0 / std::f64::consts::PI.sqrt() * if op == U::Erf { 1.0 } else { -1.0 };
            lax::mul(e, &ex, k)
        })?,
        U::Floor | U::Ceil | U::RoundEven | U::Not => return Ok(None),
    }))
}

/// `1 − v²`.
fn one_minus_square<E: Emit>(e: &mut E, v: &E::V) -> Result<E::V> {
    let v2 = lax::mul(e, v, v)?;
    lax::sub(e, 1.0, &v2)
}

/// The cotangents of `a op b` (before unbroadcasting).
type Pair<V> = (Option<V>, Option<V>);

fn binary_vjp<E: Emit>(
    e: &mut E,
    op: BinaryOp,
    a: &E::V,
    b: &E::V,
    out: &E::V,
    g: &E::V,
) -> Result<Pair<E::V>> {
    use BinaryOp as B;
    Ok(match op {
        B::Add => (Some(g.clone()), Some(g.clone())),
        B::Sub => (Some(g.clone()), Some(lax::neg(e, g)?)),
        B::Mul => (Some(lax::mul(e, g, b)?), Some(lax::mul(e, g, a)?)),
        B::Div => {
            let ga = lax::div(e, g, b)?;
            let gb = negated(e, |e| lax::mul(e, &ga, out))?;
            (Some(ga), Some(gb))
        }
        B::Max | B::Min => {
            // The chosen operand gets the cotangent (ties: the first).
            let (lo, hi) = if op == B::Max { (b, a) } else { (a, b) };
            let first = lax::le(e, lo, hi)?;
            let (ga, gb) = route(e, &first, g)?;
            (Some(ga), Some(gb))
        }
        B::Rem => {
            // d/da = 1, d/db = −trunc(a / b).
            let q = lax::div(e, a, b)?;
            let neg = lax::lt(e, &q, 0.0)?;
            let (c, f) = (lax::ceil(e, &q)?, lax::floor(e, &q)?);
            let t = lax::select(e, &neg, &c, &f)?;
            (Some(g.clone()), Some(negated(e, |e| lax::mul(e, g, &t))?))
        }
        B::And | B::Or | B::Xor | B::Shl | B::Shr => (None, None),
    })
}
