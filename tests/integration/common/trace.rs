//! Helpers of the tests that trace, evaluate and lower Jaxprs: arrays in and out (float32 on the
//! `cpu` device, or any dtype on any device), a trace of a Rust closure, and binding shorthands.

use super::{decode, encode};
use oxjax::core::{Aval, DType, Device, Primitive};
use oxjax::kernel::{BinaryOp, ReduceOp, UnaryOp};
use oxjax::transform::trace::{self, bind, ClosedJaxpr, Operand, Value};
use oxjax::transform::ArrayValue;
use oxjax::util::Result;

/// A float32 array of `shape` on the cpu device.
pub fn f32s(data: &[f64], shape: Vec<usize>) -> ArrayValue {
    let bytes: Vec<u8> = data
        .iter()
        .flat_map(|&v| (v as f32).to_le_bytes())
        .collect();
    ArrayValue::from_bytes("t", &bytes, shape, DType::Float32, Device::Cpu).unwrap()
}

/// An array of `dtype` and `shape` holding `values` (see `encode`) on `device`.
pub fn array(values: &[f64], shape: Vec<usize>, dtype: DType, device: Device) -> Value {
    let bytes = encode(dtype, values);
    Value::Concrete(ArrayValue::from_bytes("t", &bytes, shape, dtype, device).unwrap())
}

/// The elements of an array, as f64.
pub fn read(v: &ArrayValue) -> Vec<f64> {
    decode(v.aval.dtype, &v.read_sync("t").unwrap())
}

/// The elements of a concrete value, as f64.
pub fn read_value(v: &Value) -> Vec<f64> {
    read(v.concrete("t").unwrap())
}

/// Deterministic values in [-2, 2] (`seed` shifts them).
pub fn data(n: usize, seed: f64) -> Vec<f64> {
    (0..n)
        .map(|i| ((i as f64 + seed) * 0.37).sin() * 2.0)
        .collect()
}

/// Traces `f` on inputs of the given avals.
pub fn trace_fn(avals: &[Aval], f: impl FnOnce(&[Value]) -> Vec<Value>) -> ClosedJaxpr {
    let (frame, tracers) = trace::begin(avals);
    let ins: Vec<Value> = tracers.into_iter().map(Value::Tracer).collect();
    let outs = f(&ins);
    trace::end("t", frame, &outs).unwrap()
}

/// Binds `prim` to `args`.
pub fn try_op(prim: Primitive, args: &[&Value]) -> Result<Value> {
    let ops: Vec<Operand> = args.iter().map(|v| Operand::Value(v)).collect();
    bind(prim, &ops)
}

/// Binds `prim` to `args`, which must succeed.
pub fn op(prim: Primitive, args: &[&Value]) -> Value {
    try_op(prim, args).unwrap()
}

pub fn un(op: UnaryOp, x: &Value) -> Value {
    bind(Primitive::Unary(op), &[Operand::Value(x)]).unwrap()
}

pub fn bin(op: BinaryOp, a: &Value, b: &Value) -> Value {
    bind(
        Primitive::Binary(op),
        &[Operand::Value(a), Operand::Value(b)],
    )
    .unwrap()
}

/// `a op x` for a JS number `x`.
pub fn lit(op: BinaryOp, a: &Value, x: f64) -> Value {
    bind(
        Primitive::Binary(op),
        &[Operand::Value(a), Operand::Literal(x)],
    )
    .unwrap()
}

pub fn prim(p: Primitive, x: &Value) -> Value {
    bind(p, &[Operand::Value(x)]).unwrap()
}

pub fn f32v(shape: &[usize]) -> Aval {
    Aval::new(shape.to_vec(), DType::Float32)
}

/// The sum of `x` over its first axis.
pub fn sum_rows(x: &Value) -> Value {
    op(
        Primitive::Reduce {
            op: ReduceOp::Sum,
            axes: vec![0],
        },
        &[x],
    )
}
