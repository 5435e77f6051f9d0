//! The interface through which rules that build new operations (derivatives, batching) emit them.
//! Rules are written against [`Emit`] (through the builders of `lax`); the transform layer
//! implements it by binding on the trace stack, so a rule's operations run eagerly or are staged
//! like any other.

use crate::core::{Aval, Primitive};
use crate::util::Result;

/// An operand of an emitted operation: a value of the emitter, or a JS-number literal.
pub enum Arg<'a, V> {
    V(&'a V),
    Lit(f64),
}

impl<'a, V> From<&'a V> for Arg<'a, V> {
    fn from(v: &'a V) -> Self {
        Arg::V(v)
    }
}

impl<V> From<f64> for Arg<'_, V> {
    fn from(x: f64) -> Self {
        Arg::Lit(x)
    }
}

pub trait Emit {
    type V: Clone;
    /// Emits a single-output operation.
    fn bind(&mut self, prim: Primitive, ins: &[Arg<'_, Self::V>]) -> Result<Self::V>;
    /// Emits an operation and returns all its outputs. The default serves emitters that only
    /// handle single-output primitives.
    fn bind_multi(&mut self, prim: Primitive, ins: &[Arg<'_, Self::V>]) -> Result<Vec<Self::V>> {
        Ok(vec![self.bind(prim, ins)?])
    }
    fn aval(&self, v: &Self::V) -> Aval;
}
