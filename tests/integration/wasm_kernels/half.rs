//! float16 results that a rounding through f32 would get wrong, on the wasm backend against
//! the cpu interpreter (one rounding from f64, as NumPy's `npy_double_to_half`) and against the
//! value rounded directly by `core::f16::to_bits`: float64 → float16 casts just around every
//! float16 tie, and float16 sums (accumulated in f64) whose exact value lies just off a tie.

use oxjax::backend::cpu::run_kernel;
use oxjax::backend::wasm::WasmBackend;
use oxjax::core::f16;
use oxjax::core::DType;
use oxjax::kernel::{AluExp, BinaryOp, Kernel, ReduceOp, Reduction};
use wasm_bindgen_test::wasm_bindgen_test;

use crate::common::run_on;

/// The float16 outputs of a kernel, as bit patterns.
fn patterns(bytes: &[u8]) -> Vec<u16> {
    bytes
        .chunks(2)
        .map(|b| u16::from_le_bytes([b[0], b[1]]))
        .collect()
}

/// f64 values around every positive float16 tie (and their negatives): the tie itself, and
/// the tie moved by far less than an f32 ulp (a plain demotion to f32 would land on the tie),
/// plus overflow, underflow and NaN.
fn around_ties() -> Vec<f64> {
    let mut values = Vec::new();
    for bits in 0..0x7c00u16 {
        let (a, b) = (f16::from_bits(bits), f16::from_bits(bits + 1));
        let mid = (a + b) / 2.0;
        let nudge = mid * 2f64.powi(-30);
        for v in [a, mid, mid - nudge, mid + nudge] {
            values.extend([v, -v]);
        }
    }
    values.extend([
        65520.0 - 2f64.powi(-20), // just below the overflow tie: 65504
        65520.0,
        1e300,
        -1e300,
        1e-300,
        2f64.powi(-25) + 2f64.powi(-60), // just above half the smallest subnormal: 2^-24
        f64::INFINITY,
        f64::NAN,
        1.0 + 2f64.powi(-11) + 2f64.powi(-30),
    ]);
    values
}

#[wasm_bindgen_test]
fn float64_to_float16_rounds_once() {
    let values = around_ties();
    let bytes: Vec<u8> = values.iter().flat_map(|v| v.to_le_bytes()).collect();
    let kernel = Kernel::elementwise(
        vec![DType::Float64],
        values.len(),
        AluExp::cast(
            AluExp::load(DType::Float64, 0, AluExp::index()),
            DType::Float16,
        ),
    );
    let mut backend = WasmBackend::new();
    let got = patterns(&run_on(&mut backend, &kernel, std::slice::from_ref(&bytes)));
    let cpu = patterns(&run_kernel(&kernel, &[&bytes]).unwrap());
    for (i, v) in values.iter().enumerate() {
        assert_eq!(got[i], f16::to_bits(*v), "float64 {v:e} → float16 on wasm");
        assert_eq!(cpu[i], got[i], "cpu and wasm differ at {v:e}");
    }
}

#[wasm_bindgen_test]
fn float16_sums_round_once() {
    // Rows of three float16s: a, half an ulp of a (a tie on its own) and a tiny nudge, whose
    // exact sum lies just off the tie; the nudge is lost when the f64 sum goes through f32.
    let mut rows: Vec<[f64; 3]> = Vec::new();
    for bits in (0x0400u16..0x7800).step_by(97) {
        let a = f16::from_bits(bits);
        let half_ulp = (f16::from_bits(bits + 1) - a) / 2.0;
        let tiny = f16::from_bits(1); // 2^-24
        for (x, y, z) in [
            (a, half_ulp, tiny),
            (a, half_ulp, -tiny),
            (-a, -half_ulp, tiny),
        ] {
            rows.push([x, y, z]);
        }
    }
    rows.push([1.0, 2f64.powi(-11), 2f64.powi(-24)]);
    rows.push([65504.0, 16.0, -2f64.powi(-24)]); // just below the overflow tie
    rows.push([65504.0, 16.0, 2f64.powi(-24)]); // just above: inf
    let bytes: Vec<u8> = rows
        .iter()
        .flatten()
        .flat_map(|&v| f16::to_bits(v).to_le_bytes())
        .collect();
    let r = AluExp::reduce_index();
    let index = AluExp::binary(
        BinaryOp::Add,
        AluExp::binary(
            BinaryOp::Mul,
            AluExp::index(),
            AluExp::constant(DType::Int32, 3.0),
        ),
        r,
    );
    let mut kernel = Kernel::elementwise(
        vec![DType::Float16],
        rows.len(),
        AluExp::load(DType::Float16, 0, index),
    );
    kernel.reduction = Some(Reduction {
        op: ReduceOp::Sum,
        size: 3,
    });
    let mut backend = WasmBackend::new();
    let got = patterns(&run_on(&mut backend, &kernel, std::slice::from_ref(&bytes)));
    let cpu = patterns(&run_kernel(&kernel, &[&bytes]).unwrap());
    for (i, row) in rows.iter().enumerate() {
        // Exact in f64: float16 terms within 2^40 of each other.
        let exact: f64 = row.iter().map(|&v| f16::round(v)).sum();
        assert_eq!(got[i], f16::to_bits(exact), "sum {row:?} on wasm");
        assert_eq!(cpu[i], got[i], "cpu and wasm differ on {row:?}");
    }
}
