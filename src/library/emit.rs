//! Operand shorthands (`v(&x)`, `lit(2.0)`) for library functions that take operands (arrays
//! or JS numbers); operations are written with the `rules::lax` builders.

use crate::transform::trace::Operand;
use crate::transform::Value;

pub fn v(x: &Value) -> Operand<'_> {
    Operand::Value(x)
}

pub fn lit(x: f64) -> Operand<'static> {
    Operand::Literal(x)
}
