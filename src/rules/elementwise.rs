//! Elementwise primitives: unary and binary math, comparisons, `where`, casts, bitcasts and
//! `stop_gradient`. Operands broadcast (NumPy rules) and promote (jax-js rules, weak types).

use super::index::broadcast_index;
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
        _ => {
            unreachable!("not elementwise")
        }
    };
    Kernel::elementwise(inputs.iter().map(|a| a.dtype).collect(), out.size(), exp)
}
