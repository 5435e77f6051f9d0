//! The float32 vector transcendentals (`backend/wasm/emit/vmath*.rs`) against a float64
//! oracle: the cpu interpreter, which evaluates each op with Rust's f64 libm and rounds once to
//! f32. Every point runs through the vector loop (the sizes are multiples of the 8-lane block,
//! and the special values sit at the start and in every lane position). Stated tolerance: at
//! most 1 ulp of f32 from the rounded float64 value, on a dense sweep, 60,000 random bit
//! patterns (every exponent: subnormals, huge arguments, NaN payloads) and the special values;
//! NaN, infinite and zero results must match exactly (signs included).

use oxjax::backend::cpu::run_kernel;
use oxjax::backend::wasm::WasmBackend;
use oxjax::core::DType;
use oxjax::kernel::{AluExp, Kernel, UnaryOp};
use wasm_bindgen_test::{console_log, wasm_bindgen_test};

use crate::common::{decode_f32, run_on};

const OPS: [UnaryOp; 9] = [
    UnaryOp::Exp,
    UnaryOp::Log,
    UnaryOp::Sin,
    UnaryOp::Cos,
    UnaryOp::Tanh,
    UnaryOp::Asin,
    UnaryOp::Atan,
    UnaryOp::Erf,
    UnaryOp::Erfc,
];

/// The stated tolerance, in ulps of f32.
const ULPS: u64 = 1;

const SPECIALS: [f32; 30] = [
    f32::NAN,
    f32::INFINITY,
    f32::NEG_INFINITY,
    0.0,
    -0.0,
    1e-45,
    -1e-45,
    1e-40,
    -1e-40,
    f32::MIN_POSITIVE,
    f32::MAX,
    f32::MIN,
    88.72284,
    88.72285,
    -103.97208,
    -87.33655,
    1_647_098.9,
    1_647_099.0,
    -1_647_100.0,
    1e10,
    -3e38,
    0.625,
    22.0,
    1.570_796_4,
    // erf/erfc: the ends of the small-argument formula and of the tail, and where erfc's f32
    // result becomes subnormal and rounds to 0.
    0.84375,
    -0.843_749_94,
    9.194_1,
    10.05,
    10.0625,
    -10.0625,
];

/// xorshift64*.
fn rng(state: &mut u64) -> u64 {
    *state ^= *state >> 12;
    *state ^= *state << 25;
    *state ^= *state >> 27;
    state.wrapping_mul(0x2545_f491_4f6c_dd1d)
}

fn points(op: UnaryOp) -> Vec<f32> {
    let mut p = vec![];
    // The specials in each of the 8 lane positions of a block.
    for shift in 0..8 {
        p.extend(std::iter::repeat_n(0.5f32, shift));
        p.extend(SPECIALS);
    }
    let (lo, hi) = match op {
        UnaryOp::Log => (0.0, 100.0),
        UnaryOp::Asin => (-1.0, 1.0),
        UnaryOp::Erf | UnaryOp::Erfc => (-11.0, 11.0),
        _ => (-100.0, 100.0),
    };
    let n = 100_000;
    p.extend((0..n).map(|i| (lo + (hi - lo) * (i as f64 + 0.5) / n as f64) as f32));
    let mut state = 0x9e37_79b9_7f4a_7c15 ^ op as u64;
    p.extend((0..60_000).map(|_| f32::from_bits((rng(&mut state) >> 32) as u32)));
    while !p.len().is_multiple_of(8) {
        p.push(1.0);
    }
    p
}

fn key(x: f32) -> i64 {
    let b = x.to_bits() as i32 as i64;
    if b < 0 {
        i64::from(i32::MIN) - b
    } else {
        b
    }
}

#[wasm_bindgen_test]
fn vector_transcendentals_are_within_1_ulp_of_float64() {
    let mut backend = WasmBackend::new();
    let mut failures = vec![];
    for op in OPS {
        let xs = points(op);
        let kernel = Kernel::elementwise(
            vec![DType::Float32],
            xs.len(),
            AluExp::unary(op, AluExp::load(DType::Float32, 0, AluExp::index())),
        );
        let input: Vec<u8> = xs.iter().flat_map(|x| x.to_le_bytes()).collect();
        let want = decode_f32(&run_kernel(&kernel, &[&input]).unwrap());
        let got = decode_f32(&run_on(&mut backend, &kernel, std::slice::from_ref(&input)));
        let (mut worst, mut at, mut exact) = (0u64, 0f32, 0usize);
        for (i, &x) in xs.iter().enumerate() {
            let (g, w) = (got[i], want[i]);
            // NaN matches NaN; infinities and signed zeros must match exactly.
            let u = match (g.is_nan(), w.is_nan()) {
                (true, true) => 0,
                (false, false) if !w.is_finite() || !g.is_finite() || w == 0.0 || g == 0.0 => {
                    u64::from(g.to_bits() != w.to_bits()) * u64::MAX
                }
                (false, false) => key(g).abs_diff(key(w)),
                _ => u64::MAX,
            };
            exact += usize::from(u == 0);
            if u > worst {
                (worst, at) = (u, x);
            }
        }
        console_log!(
            "{op:?} f32x4: max {worst} ulp (at {at:e}), {:.4}% exact",
            100.0 * exact as f64 / xs.len() as f64
        );
        if worst > ULPS {
            failures.push(format!("{op:?}: {worst} ulp at {at:e}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Scalar code (blocks' tails, kernels of fewer than 8 elements) computes float32
/// transcendentals through the same vector bodies: an element's bits do not depend on its
/// position (vmap and jit rely on this: they batch or fuse the same values differently).
#[wasm_bindgen_test]
fn scalar_tails_equal_vector_blocks_bit_for_bit() {
    let mut backend = WasmBackend::new();
    let mut state = 0x5eed;
    let mut xs: Vec<f32> = SPECIALS.to_vec();
    xs.extend((0..4000).map(|i| (i as f32 - 2000.0) * 0.037));
    xs.extend((0..1000).map(|_| f32::from_bits((rng(&mut state) >> 32) as u32)));
    while !xs.len().is_multiple_of(8) {
        xs.push(0.25);
    }
    let kernel = |op, n| {
        Kernel::elementwise(
            vec![DType::Float32],
            n,
            AluExp::unary(op, AluExp::load(DType::Float32, 0, AluExp::index())),
        )
    };
    let bytes = |v: &[f32]| -> Vec<u8> { v.iter().flat_map(|x| x.to_le_bytes()).collect() };
    for op in OPS {
        let vector = run_on(&mut backend, &kernel(op, xs.len()), &[bytes(&xs)]);
        for (c, chunk) in xs.chunks(7).enumerate() {
            let scalar = run_on(&mut backend, &kernel(op, chunk.len()), &[bytes(chunk)]);
            assert_eq!(
                scalar,
                vector[c * 28..c * 28 + 4 * chunk.len()],
                "{op:?} on {chunk:?}"
            );
        }
    }
}
