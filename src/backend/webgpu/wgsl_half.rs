//! float16 in WGSL kernels, where the adapter has WebGPU's `shader-f16` feature (the backend
//! requests it then; without it float16 arrays are a clear error, `registry::check_dtype`).
//! A float16 value lives in an `f32` register, always exactly a float16, as in the wasm
//! emitter: every float16 result of an operation computed in f32 is rounded to float16, ties to
//! even, as the cpu interpreter does, by integer operations on the bits (`ox_round_f16`), so a
//! device that flushes subnormals or rounds conversions otherwise (WGSL leaves both open) still
//! gives the interpreter's bits. Inputs are read as `array<u32>` (two halves a word) and
//! widened from the bits (`ox_h2f`); the output is `array<f16>` (the shader starts with
//! `enable f16;`), written by converting the exact value, which WGSL defines as exact.

use crate::core::DType;
use crate::kernel::{AluExp, Kernel};

/// The shader's first line when it has float16 storage.
pub(super) const ENABLE: &str = "enable f16;\n";

/// Whether float16 appears anywhere in the kernel (its inputs, output or expressions).
pub(super) fn has_float16(kernel: &Kernel) -> bool {
    fn walk(exp: &AluExp) -> bool {
        exp.dtype == DType::Float16 || exp.children().into_iter().any(walk)
    }
    kernel.inputs.contains(&DType::Float16)
        || walk(&kernel.exp)
        || kernel.epilogue.as_ref().is_some_and(walk)
}

/// `ox_round_f16(x)`: f32 `x` rounded to the nearest float16 (ties to even; ±inf from 65520
/// on, ±0 at or below 2⁻²⁵), as an f32. `ox_h2f(b)`: the exact f32 value of float16 bits `b`.
pub(super) const HALF: &str = "
fn ox_round_f16(x: f32) -> f32 {
  let u = bitcast<u32>(x);
  let s = u & 0x80000000u;
  let a = u & 0x7fffffffu;
  if (a >= 0x7f800000u) { return x; }
  if (a >= 0x38800000u) {
    let r = (a + 0xfffu + ((a >> 13u) & 1u)) & 0xffffe000u;
    return bitcast<f32>(s | select(r, 0x7f800000u, r >= 0x47800000u));
  }
  let e = a >> 23u;
  if (e < 102u) { return bitcast<f32>(s); }
  let d = 126u - e;
  let m = (a & 0x7fffffu) | 0x800000u;
  let half = 1u << (d - 1u);
  let rest = m & ((1u << d) - 1u);
  var q = m >> d;
  if (rest > half || (rest == half && (q & 1u) == 1u)) { q = q + 1u; }
  return bitcast<f32>(s | bitcast<u32>(f32(q) * 5.9604644775390625e-8f));
}
fn ox_h2f(b: u32) -> f32 {
  let s = (b & 0x8000u) << 16u;
  let em = b & 0x7fffu;
  if (em >= 0x7c00u) { return bitcast<f32>(s | 0x7f800000u | ((em & 0x3ffu) << 13u)); }
  if (em < 0x0400u) { return bitcast<f32>(s | bitcast<u32>(f32(em) * 5.9604644775390625e-8f)); }
  return bitcast<f32>(s | ((em << 13u) + 0x38000000u));
}
";

/// The load of float16 element `ix` (an i32 expression) of input `input`, read as u32 words.
pub(super) fn load(input: usize, ix: &str) -> String {
    format!("ox_h2f((in{input}[u32({ix}) >> 1u] >> ((u32({ix}) & 1u) * 16u)) & 0xffffu)")
}
