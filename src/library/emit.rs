//! Operand shorthands for the library's direct `bind` calls (`v(&x)`, `lit(2.0)`); operations
//! are written with the `rules::lax` builders.

use crate::core::ops::BinaryOp;
use crate::core::Primitive;
use crate::transform::trace::{bind, Operand};
use crate::transform::Value;
use crate::util::Result;

pub fn v(x: &Value) -> Operand<'_> {
    Operand::Value(x)
}

pub fn lit(x: f64) -> Operand<'static> {
    Operand::Literal(x)
}

pub fn bin(op: BinaryOp, a: Operand, b: Operand) -> Result<Value> {
    bind(Primitive::Binary(op), &[a, b])
}
