//! L6: the numpy/lax library in Rust: every named operation the TypeScript API exposes, as one
//! primitive or a composition of primitives bound through the trace stack (so each works
//! eagerly and under every transformation). TypeScript only parses arguments and calls
//! [`apply`] by name.

pub mod args;
pub mod call;
pub mod call_args;
mod call_run;
mod call_run_linalg;
pub mod conv;
pub mod creation;
mod differences;
pub mod einsum;
mod emit;
mod fft;
pub mod half;
pub mod indexing;
mod jacobi;
pub mod lax_linalg;
mod linalg;
mod logic;
mod manipulation;
mod math;
pub mod matrices;
pub mod nn;
mod np_eigh;
mod np_linalg;
mod np_norms;
mod np_qr;
mod np_solve;
mod np_svd;
mod numpy;
mod power;
mod products;
pub mod random;
pub mod reduce;
mod selection;
pub mod shape;
pub mod signature;
mod slicing;
pub mod spaced;
mod statistics;

pub use reduce::{reduce, ReduceKind};

use crate::core::ops::BinaryOp;
use crate::core::{DType, Primitive};
use crate::rules::lax;
use crate::transform::trace::{bind, Binder, Operand};
use crate::transform::Value;
use crate::util::{Error, Result};

/// Applies the operation `name` (a primitive or a library composition) to `operands`.
pub fn apply(name: &str, operands: &[Operand]) -> Result<Value> {
    if let Some(f) = numpy::lookup(name).or_else(|| math::lookup(name)) {
        let arrays: Vec<&Value> = operands.iter().filter_map(Operand::value).collect();
        return crate::transform::scope::follow_any(&arrays, || f(operands));
    }
    match name {
        "matmul" => return linalg::matmul(operands),
        "dot" => return linalg::dot(operands),
        "power" => return power::power(operands),
        // Two bool arrays: `+` is logical or and `*` logical and (JAX and jax-js).
        "add" | "mul" if operands.len() == 2 && operands.iter().all(is_bool_array) => {
            let op = if name == "add" {
                BinaryOp::Or
            } else {
                BinaryOp::And
            };
            return lax::binary(&mut Binder, op, operands[0].clone(), operands[1].clone());
        }
        // A JS number or boolean as the condition: true where non-zero (NumPy, JAX).
        "where" if operands.len() == 3 && matches!(operands[0], Operand::Literal(_)) => {
            let arrays: Vec<&Value> = operands.iter().filter_map(Operand::value).collect();
            return crate::transform::scope::follow_any(&arrays, || {
                let cond = lax::cast(&mut Binder, operands[0].clone(), DType::Bool)?;
                let (a, b) = (operands[1].clone(), operands[2].clone());
                lax::select(&mut Binder, &cond, a, b)
            });
        }
        "erfinv" => {
            let x = operands.first().and_then(Operand::value);
            return random::erfinv(x.ok_or_else(|| Error::new(name, "expects an array"))?);
        }
        _ => {}
    }
    match Primitive::by_name(name) {
        Some(prim) => bind(prim, operands),
        None => Err(Error::new(name, "unknown operation")),
    }
}

/// [`apply`] from JavaScript: a composition (not a primitive) called eagerly runs as a cached
/// compiled program from its second call with the same operands' avals and numbers
/// (`transform::eager_jit`).
pub fn apply_eager(name: &str, operands: &[Operand]) -> Result<Value> {
    let composition = numpy::lookup(name).is_some()
        || math::lookup(name).is_some()
        || matches!(name, "matmul" | "dot" | "power" | "erfinv");
    if !composition {
        return apply(name, operands);
    }
    // Per operand: 0 for an array, else 1 and the number.
    let mut params = Vec::with_capacity(2 * operands.len());
    let mut arrays = Vec::with_capacity(operands.len());
    for o in operands {
        match o {
            Operand::Value(x) => {
                params.push(0.0);
                arrays.push((*x).clone());
            }
            Operand::Literal(x) => params.extend([1.0, *x]),
        }
    }
    let run = |arrays: &[Value]| -> Result<Vec<Value>> {
        let mut next = arrays.iter();
        let ops: Vec<Operand> = operands
            .iter()
            .map(|o| match o {
                Operand::Value(_) => next.next().map(Operand::Value),
                Operand::Literal(x) => Some(Operand::Literal(*x)),
            })
            .collect::<Option<_>>()
            .ok_or_else(|| Error::new(name, "internal error: operands changed"))?;
        apply(name, &ops).map(|y| vec![y])
    };
    let mut outs = crate::transform::eager_jit::run(name, &params, &arrays, run)?;
    match (outs.pop(), outs.is_empty()) {
        (Some(y), true) => Ok(y),
        _ => Err(Error::new(name, "internal error: expected one result")),
    }
}

fn is_bool_array(o: &Operand) -> bool {
    o.value().is_some_and(|x| x.aval().dtype == DType::Bool)
}
