//! float16 on wgpu over Vulkan (lavapipe has `shader-f16`): the backend opens the device with
//! the feature, kernels with float16 storage validate with naga, and run like the cpu
//! interpreter — bit for bit over every 16-bit pattern for exact operations and conversions,
//! f32 → float16 rounding around every tie, and float16 sums within one float16 ulp (WebGPU
//! has no f64: they accumulate in f32 with compensation and round once).

use oxjax::backend::cpu::run_kernel;
use oxjax::backend::Backend;
use oxjax::core::{f16, DType};
use oxjax::kernel::{AluExp, BinaryOp, CompareOp, Kernel, ReduceOp, Reduction, UnaryOp};

use crate::common::run_on;
use super::{gpu, validate};

fn patterns(bytes: &[u8]) -> Vec<u16> {
    bytes
        .chunks(2)
        .map(|b| u16::from_le_bytes([b[0], b[1]]))
        .collect()
}

fn is_nan(h: u16) -> bool {
    h & 0x7fff > 0x7c00
}

/// Output bits equal (any NaN matches any NaN), or for float16 within `ulps` (as integers of
/// the same sign).
fn same(kernel: &Kernel, got: &[u8], want: &[u8], what: &str, ulps: i32) {
    assert_eq!(got.len(), want.len(), "{what}");
    match kernel.output_dtype() {
        DType::Float16 => {
            for (i, (g, w)) in patterns(got).into_iter().zip(patterns(want)).enumerate() {
                let near = (g ^ w) & 0x8000 == 0 && (g as i32 - w as i32).abs() <= ulps;
                assert!(
                    g == w || (is_nan(g) && is_nan(w)) || near,
                    "{what}: element {i}: got {g:#06x}, want {w:#06x}"
                );
            }
        }
        _ => {
            // 4-byte outputs: bits equal, or both float32 NaNs (the interpreter's are canonical).
            let nan = |b: &[u8]| {
                kernel.output_dtype() == DType::Float32
                    && f32::from_le_bytes([b[0], b[1], b[2], b[3]]).is_nan()
            };
            for (i, (g, w)) in got.chunks(4).zip(want.chunks(4)).enumerate() {
                assert!(
                    g == w || (nan(g) && nan(w)),
                    "{what}: element {i}: {g:?} vs {w:?}"
                );
            }
        }
    }
}

#[test]
fn the_backend_has_float16_on_lavapipe() {
    let gpu = gpu();
    assert!(gpu.has_float16(), "{} lacks shader-f16", gpu.adapter_name());
}

#[test]
fn float16_kernels_match_the_cpu_interpreter_on_every_pattern() {
    let mut gpu = gpu();
    let n = 1 << 16;
    let forward: Vec<u8> = (0..=u16::MAX).flat_map(u16::to_le_bytes).collect();
    let reversed: Vec<u8> = (0..=u16::MAX).rev().flat_map(u16::to_le_bytes).collect();
    let x = || AluExp::load(DType::Float16, 0, AluExp::index());
    let y = || AluExp::load(DType::Float16, 1, AluExp::index());
    let f16k = |exp| Kernel::elementwise(vec![DType::Float16, DType::Float16], n, exp);
    let bin = |op| f16k(AluExp::binary(op, x(), y()));
    let kernels = [
        ("copy", f16k(x()), 0),
        ("to f32", f16k(AluExp::cast(x(), DType::Float32)), 0),
        ("to i32", f16k(AluExp::cast(x(), DType::Int32)), 0),
        ("add", bin(BinaryOp::Add), 0),
        ("sub", bin(BinaryOp::Sub), 0),
        ("mul", bin(BinaryOp::Mul), 0),
        ("div", bin(BinaryOp::Div), 0),
        ("max", bin(BinaryOp::Max), 0),
        ("min", bin(BinaryOp::Min), 0),
        ("sqrt", f16k(AluExp::unary(UnaryOp::Sqrt, x())), 0),
        ("neg", f16k(AluExp::unary(UnaryOp::Neg, x())), 0),
        ("floor", f16k(AluExp::unary(UnaryOp::Floor, x())), 0),
        ("lt", f16k(AluExp::compare(CompareOp::Lt, x(), y())), 0),
        ("eq", f16k(AluExp::compare(CompareOp::Eq, x(), y())), 0),
        // f32 transcendentals (within a few f32 ulps) rounded to float16: one float16 ulp.
        ("exp", f16k(AluExp::unary(UnaryOp::Exp, x())), 1),
        ("tanh", f16k(AluExp::unary(UnaryOp::Tanh, x())), 1),
    ];
    let ins = [forward, reversed];
    let refs: Vec<&[u8]> = ins.iter().map(Vec::as_slice).collect();
    for (name, kernel, ulps) in kernels {
        validate(name, &kernel);
        let want = run_kernel(&kernel, &refs).unwrap();
        let got = run_on(&mut gpu, &kernel, &ins);
        same(&kernel, &got, &want, name, ulps);
    }
}

#[test]
fn float32_to_float16_rounds_to_nearest_even_like_the_interpreter() {
    let mut gpu = gpu();
    let mut wide = crate::common::float16_ties_f32();
    wide.extend([
        f32::INFINITY,
        f32::NAN,
        65520.0,
        65519.996,
        1e9,
        1e-30,
        2e-8,
        3e-8,
    ]);
    let bytes: Vec<u8> = wide.iter().flat_map(|v| v.to_le_bytes()).collect();
    let load = AluExp::load(DType::Float32, 0, AluExp::index());
    let kernel = Kernel::elementwise(
        vec![DType::Float32],
        wide.len(),
        AluExp::cast(load, DType::Float16),
    );
    validate("f32 → f16", &kernel);
    let want = run_kernel(&kernel, &[&bytes]).unwrap();
    let got = run_on(&mut gpu, &kernel, &[bytes]);
    same(&kernel, &got, &want, "f32 → f16", 0);
}

#[test]
fn float16_reductions_match_the_interpreter() {
    let mut gpu = gpu();
    let (rows, cols) = (37, 301); // odd sizes: float16 buffers of odd byte counts / 4
    let values: Vec<f64> = (0..rows * cols)
        .map(|i| f16::round(((i * 7919) % 1000) as f64 / 97.0 - 5.0))
        .collect();
    let bytes: Vec<u8> = values
        .iter()
        .flat_map(|&v| f16::to_bits(v).to_le_bytes())
        .collect();
    for op in [ReduceOp::Sum, ReduceOp::Max, ReduceOp::Min, ReduceOp::Prod] {
        let index = AluExp::binary(
            BinaryOp::Add,
            AluExp::binary(
                BinaryOp::Mul,
                AluExp::index(),
                AluExp::constant(DType::Int32, cols as f64),
            ),
            AluExp::reduce_index(),
        );
        // Products of 301 values overflow: a short row for them.
        let size = if op == ReduceOp::Prod { 5 } else { cols };
        let mut kernel = Kernel::elementwise(
            vec![DType::Float16],
            rows,
            AluExp::load(DType::Float16, 0, index),
        );
        kernel.reduction = Some(Reduction { op, size });
        validate("reduce", &kernel);
        let want = run_kernel(&kernel, &[&bytes]).unwrap();
        let got = run_on(&mut gpu, &kernel, std::slice::from_ref(&bytes));
        let exact = matches!(op, ReduceOp::Max | ReduceOp::Min);
        same(
            &kernel,
            &got,
            &want,
            &format!("{op:?}"),
            if exact { 0 } else { 1 },
        );
    }
    assert_eq!(gpu.stats().live_buffers, 0);
}
