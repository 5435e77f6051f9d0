//! The vector remainders (`backend/wasm/emit/vrem.rs`): float32 against the cpu interpreter's
//! exact remainder (Rust's f64 `%` of the widened operands, rounded to f32): bit for bit, signed
//! zeros and NaN included, on pairs that take the vector path (|x/y| < 2²⁴), pairs that take
//! the scalar routine (huge quotients, zero, infinite and NaN operands) in every lane position,
//! random bit patterns of every exponent, and a uniform divisor; and blocks' scalar tails give
//! the same bits as the vector blocks. uint32 division and remainder by a uniform divisor
//! (constant or loaded; zero, one, powers of two, the largest) equal the interpreter's.

use oxjax::backend::cpu::run_kernel;
use oxjax::backend::wasm::WasmBackend;
use oxjax::core::DType;
use oxjax::kernel::{AluExp, BinaryOp, Kernel};
use wasm_bindgen_test::wasm_bindgen_test;

use crate::common::run_on;

const SPECIALS: [f32; 16] = [
    f32::NAN,
    f32::INFINITY,
    f32::NEG_INFINITY,
    0.0,
    -0.0,
    1e-45,
    -1e-40,
    f32::MIN_POSITIVE,
    f32::MAX,
    f32::MIN,
    16_777_216.0,
    16_777_215.0,
    -3.0,
    0.1,
    1e30,
    7.0,
];

/// xorshift64*.
fn rng(state: &mut u64) -> u64 {
    *state ^= *state >> 12;
    *state ^= *state << 25;
    *state ^= *state >> 27;
    state.wrapping_mul(0x2545_f491_4f6c_dd1d)
}

fn pairs() -> (Vec<f32>, Vec<f32>) {
    let (mut xs, mut ys) = (vec![], vec![]);
    // Every special against every special, each pair in each of the 8 lane positions.
    for &x in &SPECIALS {
        for &y in &SPECIALS {
            for shift in 0..8 {
                xs.extend(std::iter::repeat_n(2.5f32, shift));
                ys.extend(std::iter::repeat_n(0.75f32, shift));
                xs.push(x);
                ys.push(y);
            }
        }
    }
    let mut state = 0x0f0d_2024_u64;
    let unit = |s: &mut u64| (rng(s) >> 11) as f64 / (1u64 << 53) as f64;
    // Moderate operands (the sweep's kind), quotients near integers and near 2²⁴, exact
    // multiples, and random bit patterns of every exponent.
    for i in 0..40_000 {
        let (x, y) = match i % 5 {
            0 => (
                (unit(&mut state) * 20.0 - 10.0) as f32,
                (unit(&mut state) * 3.0 - 1.5) as f32,
            ),
            1 => {
                let y = (unit(&mut state) * 4.0 + 0.1) as f32;
                let n = (unit(&mut state) * 1e6).floor() as f32;
                (n * y, y)
            }
            2 => {
                let y = (unit(&mut state) * 2.0 + 0.5) as f32;
                ((unit(&mut state) * 2.0 - 1.0) as f32 * 16_777_216.0 * y, y)
            }
            _ => {
                let bits = rng(&mut state);
                (
                    f32::from_bits(bits as u32),
                    f32::from_bits((bits >> 32) as u32),
                )
            }
        };
        xs.push(x);
        ys.push(y);
    }
    while !xs.len().is_multiple_of(8) {
        xs.push(1.0);
        ys.push(1.0);
    }
    (xs, ys)
}

fn bytes(v: &[f32]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}

fn rem_kernel(n: usize, divisor: Option<f32>) -> Kernel {
    let load = |i| AluExp::load(DType::Float32, i, AluExp::index());
    let y = match divisor {
        Some(c) => AluExp::constant(DType::Float32, f64::from(c)),
        None => load(1),
    };
    let inputs = vec![DType::Float32; if divisor.is_some() { 1 } else { 2 }];
    Kernel::elementwise(inputs, n, AluExp::binary(BinaryOp::Rem, load(0), y))
}

fn first_mismatch(xs: &[f32], ys: &[f32], got: &[u8], want: &[u8]) -> Option<String> {
    (0..xs.len()).find_map(|i| {
        let (g, w) = (&got[4 * i..4 * i + 4], &want[4 * i..4 * i + 4]);
        (g != w).then(|| {
            let f = |b: &[u8]| f32::from_le_bytes(b.try_into().unwrap());
            format!(
                "fmod({:e}, {:e}): wasm {:e}, cpu {:e}",
                xs[i],
                ys[i],
                f(g),
                f(w)
            )
        })
    })
}

#[wasm_bindgen_test]
fn vector_remainder_equals_the_exact_remainder_bit_for_bit() {
    let mut backend = WasmBackend::new();
    let (xs, ys) = pairs();
    let inputs = [bytes(&xs), bytes(&ys)];
    let kernel = rem_kernel(xs.len(), None);
    let want = run_kernel(&kernel, &[&inputs[0], &inputs[1]]).unwrap();
    let got = run_on(&mut backend, &kernel, &inputs);
    if let Some(m) = first_mismatch(&xs, &ys, &got, &want) {
        panic!("{m}");
    }
    for divisor in [0.7f32, -3.0, 1e-3, 0.0, f32::INFINITY] {
        let kernel = rem_kernel(xs.len(), Some(divisor));
        let want = run_kernel(&kernel, &[&inputs[0]]).unwrap();
        let got = run_on(&mut backend, &kernel, &inputs[..1]);
        let ys = vec![divisor; xs.len()];
        if let Some(m) = first_mismatch(&xs, &ys, &got, &want) {
            panic!("uniform divisor: {m}");
        }
    }
}

#[wasm_bindgen_test]
fn remainder_scalar_tails_equal_vector_blocks() {
    let mut backend = WasmBackend::new();
    let (xs, ys) = pairs();
    let (xs, ys) = (&xs[..4096], &ys[..4096]);
    let vector = run_on(
        &mut backend,
        &rem_kernel(xs.len(), None),
        &[bytes(xs), bytes(ys)],
    );
    for (c, (x, y)) in xs.chunks(7).zip(ys.chunks(7)).enumerate() {
        let scalar = run_on(
            &mut backend,
            &rem_kernel(x.len(), None),
            &[bytes(x), bytes(y)],
        );
        assert_eq!(
            scalar,
            vector[c * 28..c * 28 + 4 * x.len()],
            "{x:?} % {y:?}"
        );
    }
}

#[wasm_bindgen_test]
fn uint32_division_by_a_uniform_divisor_equals_the_interpreter() {
    let mut backend = WasmBackend::new();
    let mut state = 0xd1u64;
    let mut xs: Vec<u32> = vec![0, 1, 2, 3, 6, 7, 1000, u32::MAX, u32::MAX - 1, 1 << 31];
    xs.extend((0..4000).map(|i| match i % 3 {
        0 => (rng(&mut state) >> 32) as u32,
        1 => (rng(&mut state) >> 52) as u32,
        _ => ((rng(&mut state) >> 40) as u32).wrapping_mul(7),
    }));
    while !xs.len().is_multiple_of(8) {
        xs.push(5);
    }
    let input: Vec<u8> = xs.iter().flat_map(|x| x.to_le_bytes()).collect();
    let mut divisors = vec![
        0u32,
        1,
        2,
        3,
        7,
        10,
        1000,
        65_537,
        1 << 31,
        u32::MAX,
        u32::MAX - 2,
    ];
    divisors.extend((0..20).map(|_| (rng(&mut state) >> (32 + state % 30)) as u32 | 1));
    for d in divisors {
        // The divisor as a constant, and loaded (the same element for every lane).
        let divisor = d.to_le_bytes().to_vec();
        let loaded = AluExp::load(DType::Uint32, 1, AluExp::constant(DType::Int32, 0.0));
        for (y, inputs) in [
            (
                AluExp::constant(DType::Uint32, f64::from(d)),
                vec![input.clone()],
            ),
            (loaded, vec![input.clone(), divisor]),
        ] {
            for op in [BinaryOp::Div, BinaryOp::Rem] {
                let x = AluExp::load(DType::Uint32, 0, AluExp::index());
                let dtypes = vec![DType::Uint32; inputs.len()];
                let kernel =
                    Kernel::elementwise(dtypes, xs.len(), AluExp::binary(op, x, y.clone()));
                let refs: Vec<&[u8]> = inputs.iter().map(Vec::as_slice).collect();
                let want = run_kernel(&kernel, &refs).unwrap();
                let got = run_on(&mut backend, &kernel, &inputs);
                let at = (0..xs.len()).find(|&i| got[4 * i..4 * i + 4] != want[4 * i..4 * i + 4]);
                assert!(at.is_none(), "{op:?} of {} by {d}", xs[at.unwrap_or(0)]);
            }
        }
    }
}
