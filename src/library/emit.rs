//! Shorthands the library's compositions use to bind primitives.

use crate::core::ops::{BinaryOp, CompareOp, UnaryOp};
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

pub fn un(op: UnaryOp, a: &Value) -> Result<Value> {
    bind(Primitive::Unary(op), &[v(a)])
}

pub fn cmp(op: CompareOp, a: Operand, b: Operand) -> Result<Value> {
    bind(Primitive::Compare(op), &[a, b])
}

pub fn select(c: &Value, a: Operand, b: Operand) -> Result<Value> {
    bind(Primitive::Where, &[v(c), a, b])
}
