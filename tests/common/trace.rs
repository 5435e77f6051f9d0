//! Helpers of the tests that trace and lower Jaxprs on the `cpu` device: float32 arrays in and
//! out, a trace of a Rust closure, and binding shorthands.

use oxjax::core::{Aval, DType, Device, Primitive};
use oxjax::kernel::{BinaryOp, UnaryOp};
use oxjax::transform::trace::{self, bind, ClosedJaxpr, Operand, Value};
use oxjax::transform::ArrayValue;

/// A float32 array of `shape` on the cpu device.
pub fn f32s(data: &[f64], shape: Vec<usize>) -> ArrayValue {
    let bytes: Vec<u8> = data
        .iter()
        .flat_map(|&v| (v as f32).to_le_bytes())
        .collect();
    ArrayValue::from_bytes("t", &bytes, shape, DType::Float32, Device::Cpu).unwrap()
}

/// The elements of a float32 array.
pub fn read(v: &ArrayValue) -> Vec<f64> {
    let bytes = v.read_sync("t").unwrap();
    bytes
        .chunks(4)
        .map(|c| f32::from_le_bytes(c.try_into().unwrap()) as f64)
        .collect()
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
