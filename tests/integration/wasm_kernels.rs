//! Emitted WebAssembly kernels executed for real (wasm-bindgen-test in Node): every kernel of
//! the slice and every case of the IR corpus through the `wasm` backend, compared with the
//! `cpu` interpreter (bit for bit for exact operations, within 4 ulp for transcendentals), a
//! dense accuracy sweep of each transcendental, integer and float edge cases over all operand
//! pairs, and eager evaluation through the registry.
mod half;
mod remainders;
mod simd;
mod threads;
mod vmath;

use crate::common::corpus::{check, corpus, Case};
use crate::common::{encode, run_on, slice_kernels, values};
use oxjax::backend::cpu::run_kernel;
use oxjax::backend::wasm::WasmBackend;
use oxjax::backend::Backend;
use oxjax::core::{DType, Device, Primitive};
use oxjax::kernel::{AluExp, BinaryOp, CompareOp, Kernel, UnaryOp};
use oxjax::transform::{eval, ArrayValue};
use wasm_bindgen_test::{console_log, wasm_bindgen_test};

const DTYPES: &[(DType, DType)] = &[
    (DType::Float32, DType::Float32),
    (DType::Float64, DType::Float64),
    (DType::Int32, DType::Int32),
    (DType::Uint32, DType::Uint32),
    (DType::Int32, DType::Float32),
    (DType::Bool, DType::Uint32),
];

const ALL: &[DType] = &[
    DType::Float32,
    DType::Float64,
    DType::Int32,
    DType::Uint32,
    DType::Bool,
];

const TRANSCENDENTALS: [UnaryOp; 9] = [
    UnaryOp::Exp,
    UnaryOp::Log,
    UnaryOp::Sin,
    UnaryOp::Cos,
    UnaryOp::Asin,
    UnaryOp::Atan,
    UnaryOp::Tanh,
    UnaryOp::Erf,
    UnaryOp::Erfc,
];

#[wasm_bindgen_test]
fn wasm_kernels_match_the_cpu_interpreter() {
    let mut backend = WasmBackend::new();
    for (name, avals, kernel) in slice_kernels(DTYPES) {
        let ins: Vec<Vec<u8>> = avals
            .iter()
            .enumerate()
            .map(|(i, a)| encode(a.dtype, &values(a.size(), i as f64 * 7.0)))
            .collect();
        let refs: Vec<&[u8]> = ins.iter().map(Vec::as_slice).collect();
        let want = run_kernel(&kernel, &refs).unwrap();
        assert_eq!(run_on(&mut backend, &kernel, &ins), want, "{name}");
    }
    assert_eq!(backend.stats().live_buffers, 0);
}

/// The oracle's f64 erf and erfc (`backend/cpu/special.rs`) are off by up to ~1e-13 relative
/// (hundreds of ulp: the series cancels, exp(−x·x) inherits the rounding of x·x), so f64
/// erf/erfc are compared within `ORACLE_ERF_ULPS` of it, and within 4 ulp of reference values
/// (`erf_erfc_f64_match_reference_values`); everything else within 4 ulp.
const ORACLE_ERF_ULPS: u64 = 2048;

fn ulps_for(case: &Case) -> u64 {
    let f64_erf = case.kernel.output_dtype() == DType::Float64
        && (case.name.starts_with("Erf ") || case.name.starts_with("Erfc "));
    if f64_erf {
        ORACLE_ERF_ULPS
    } else {
        4
    }
}

/// f64 erf and erfc against values computed with mpmath (150-bit arithmetic), rounded.
#[wasm_bindgen_test]
fn erf_erfc_f64_match_reference_values() {
    const REFERENCE: [(f64, f64, f64); 20] = [
        (1e-10, 1.1283791670955126e-10, 0.999999999887162),
        (0.1, 0.1124629160182849, 0.887537083981715),
        (0.5, 0.5204998778130465, 0.4795001221869535),
        (0.84375, 0.7672256612323416, 0.23277433876765838),
        (0.9, 0.7969082124228322, 0.20309178757716786),
        (1.3, 0.9340079449406524, 0.06599205505934755),
        (2.0, 0.9953222650189527, 0.004677734981047266),
        (3.0, 0.9999779095030014, 2.209049699858544e-05),
        (4.5, 0.9999999998033839, 1.9661604415428876e-10),
        (5.5, 0.9999999999999927, 7.357847917974398e-15),
        (7.0, 1.0, 4.183825607779414e-23),
        (10.0, 1.0, 2.088487583762545e-45),
        (15.0, 1.0, 7.212994172451207e-100),
        (20.0, 1.0, 5.395865611607901e-176),
        (25.0, 1.0, 8.300172571196523e-274),
        (26.5, 1.0, 2.2109076642637343e-307),
        (27.0, 1.0, 5.23705e-319),
        (-0.3, -0.3286267594591274, 1.3286267594591274),
        (-1.0, -0.8427007929497149, 1.8427007929497148),
        (-3.0, -0.9999779095030014, 1.9999779095030015),
    ];
    let mut backend = WasmBackend::new();
    let xs: Vec<f64> = REFERENCE.iter().map(|r| r.0).collect();
    let input = encode(DType::Float64, &xs);
    for (op, column) in [(UnaryOp::Erf, 1), (UnaryOp::Erfc, 2)] {
        let kernel = Kernel::elementwise(
            vec![DType::Float64],
            xs.len(),
            AluExp::unary(op, AluExp::load(DType::Float64, 0, AluExp::index())),
        );
        let got = run_on(&mut backend, &kernel, std::slice::from_ref(&input));
        for (i, r) in REFERENCE.iter().enumerate() {
            let g = f64::from_le_bytes(got[i * 8..i * 8 + 8].try_into().unwrap());
            let w = if column == 1 { r.1 } else { r.2 };
            let u = ulp_distance(key64(g), key64(w));
            assert!(u <= 4, "{op:?}({}) = {g:e}, want {w:e} ({u} ulp)", r.0);
        }
    }
}

#[wasm_bindgen_test]
fn every_corpus_case_matches_the_cpu_interpreter() {
    let mut backend = WasmBackend::new();
    let cases = corpus(ALL);
    assert!(cases.len() > 100, "corpus has {} cases", cases.len());
    let mut failures = vec![];
    for case in &cases {
        let refs: Vec<&[u8]> = case.inputs.iter().map(Vec::as_slice).collect();
        let want = run_kernel(&case.kernel, &refs).unwrap();
        let got = run_on(&mut backend, &case.kernel, &case.inputs);
        if let Err(e) = check(case, &got, &want, ulps_for(case)) {
            failures.push(e);
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert_eq!(backend.stats().live_buffers, 0);
}

/// Distance in ulps between two floats of the same type given as ordered bit keys.
fn ulp_distance(a: i64, b: i64) -> u64 {
    (a - b).unsigned_abs()
}

fn key32(x: f32) -> i64 {
    let b = x.to_bits() as i32;
    (if b < 0 { -(b & i32::MAX) } else { b }) as i64
}

fn key64(x: f64) -> i64 {
    let b = x.to_bits() as i64;
    if b < 0 {
        -(b & i64::MAX)
    } else {
        b
    }
}

/// Dense sample points: 10,000 across [−100, 100] (asin: [−1, 1], log: (0, 100]), tiny and
/// huge magnitudes of both signs, and the special values.
fn sweep_points(op: UnaryOp) -> Vec<f64> {
    let (lo, hi) = match op {
        UnaryOp::Asin => (-1.0, 1.0),
        UnaryOp::Log => (0.0, 100.0),
        _ => (-100.0, 100.0),
    };
    let n = 10_000;
    let mut p: Vec<f64> = (0..n)
        .map(|i| lo + (hi - lo) * (i as f64 + 0.5) / n as f64)
        .collect();
    for e in -60..=60 {
        let m = 1.0 + (e as f64 * 0.37).sin().abs();
        let v = m * 2f64.powi(e * 2);
        if op == UnaryOp::Asin && v > 1.0 {
            continue;
        }
        p.push(v);
        if op != UnaryOp::Log {
            p.push(-v);
        }
    }
    p.extend([1e-30, 1e-38, 1e-45, 0.0, -0.0, 1.0, -1.0, 0.5]);
    p.extend([
        f64::NAN,
        f64::INFINITY,
        f64::NEG_INFINITY,
        3e38,
        -3e38,
        1e30,
    ]);
    p
}

/// Max ulp error of the wasm kernel for `op` on `dtype` against the cpu interpreter.
fn max_ulps(backend: &mut WasmBackend, op: UnaryOp, dtype: DType) -> (u64, f64) {
    let points = sweep_points(op);
    let kernel = Kernel::elementwise(
        vec![dtype],
        points.len(),
        AluExp::unary(op, AluExp::load(dtype, 0, AluExp::index())),
    );
    let input = encode(dtype, &points);
    let want = run_kernel(&kernel, &[&input]).unwrap();
    let got = run_on(backend, &kernel, std::slice::from_ref(&input));
    let mut worst = (0, 0.0);
    for (i, &x) in points.iter().enumerate() {
        let u = if dtype == DType::Float32 {
            let g = f32::from_le_bytes(got[i * 4..i * 4 + 4].try_into().unwrap());
            let w = f32::from_le_bytes(want[i * 4..i * 4 + 4].try_into().unwrap());
            match (g.is_nan(), w.is_nan()) {
                (true, true) => 0,
                (false, false) => ulp_distance(key32(g), key32(w)),
                _ => u64::MAX,
            }
        } else {
            let g = f64::from_le_bytes(got[i * 8..i * 8 + 8].try_into().unwrap());
            let w = f64::from_le_bytes(want[i * 8..i * 8 + 8].try_into().unwrap());
            match (g.is_nan(), w.is_nan()) {
                (true, true) => 0,
                (false, false) => ulp_distance(key64(g), key64(w)),
                _ => u64::MAX,
            }
        };
        if u > worst.0 {
            worst = (u, x);
        }
    }
    worst
}

#[wasm_bindgen_test]
fn transcendentals_are_within_4_ulp_of_the_interpreter() {
    let mut backend = WasmBackend::new();
    let mut failures = vec![];
    for op in TRANSCENDENTALS {
        for dtype in [DType::Float32, DType::Float64] {
            let (ulps, at) = max_ulps(&mut backend, op, dtype);
            console_log!("{op:?} {dtype:?}: max {ulps} ulp (at {at:e})");
            // The oracle's own f64 erf/erfc are only good to ~1e-14 (see `ulps_for`).
            let limit = if dtype == DType::Float64 && matches!(op, UnaryOp::Erf | UnaryOp::Erfc) {
                ORACLE_ERF_ULPS
            } else {
                4
            };
            if ulps > limit {
                failures.push(format!("{op:?} {dtype:?}: {ulps} ulp at {at:e}"));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Every pair of awkward values through the exact binary operations and comparisons: division
/// and remainder by zero and by −1, i32::MIN, shifts past 31, signed zeros, NaN, infinities.
#[wasm_bindgen_test]
fn exact_ops_on_all_pairs_of_edge_values() {
    let mut backend = WasmBackend::new();
    let specials: &[(DType, &[f64])] = &[
        (
            DType::Int32,
            &[
                0.0,
                1.0,
                -1.0,
                2.0,
                -7.0,
                31.0,
                32.0,
                33.0,
                2147483647.0,
                -2147483648.0,
            ],
        ),
        (
            DType::Uint32,
            &[
                0.0,
                1.0,
                2.0,
                7.0,
                31.0,
                32.0,
                33.0,
                2147483648.0,
                4294967295.0,
            ],
        ),
        (
            DType::Float32,
            &[
                0.0,
                -0.0,
                1.0,
                -1.0,
                2.5,
                -3.0,
                1e-45,
                3e38,
                f64::NAN,
                f64::INFINITY,
                -f64::INFINITY,
            ],
        ),
        (
            DType::Float64,
            &[
                0.0,
                -0.0,
                1.0,
                -1.0,
                2.5,
                -3.0,
                5e-324,
                1e308,
                1e-300,
                f64::NAN,
                f64::INFINITY,
                -f64::INFINITY,
            ],
        ),
    ];
    let mut failures = vec![];
    for &(dtype, vals) in specials {
        let (mut xs, mut ys) = (vec![], vec![]);
        for &x in vals {
            for &y in vals {
                xs.push(x);
                ys.push(y);
            }
        }
        let inputs = vec![encode_exact(dtype, &xs), encode_exact(dtype, &ys)];
        let refs: Vec<&[u8]> = inputs.iter().map(Vec::as_slice).collect();
        let load = |i| AluExp::load(dtype, i, AluExp::index());
        let mut exps: Vec<(String, AluExp)> = vec![];
        use BinaryOp::*;
        let ops: &[BinaryOp] = if dtype.is_float() {
            &[Add, Sub, Mul, Div, Rem, Min, Max]
        } else {
            &[Add, Sub, Mul, Div, Rem, Min, Max, And, Or, Xor, Shl, Shr]
        };
        for &op in ops {
            exps.push((format!("{op:?}"), AluExp::binary(op, load(0), load(1))));
        }
        for op in [CompareOp::Lt, CompareOp::Le, CompareOp::Eq, CompareOp::Ne] {
            exps.push((format!("{op:?}"), AluExp::compare(op, load(0), load(1))));
        }
        for to in ALL.iter().filter(|&&t| t != dtype) {
            exps.push((format!("Cast -> {to:?}"), AluExp::cast(load(0), *to)));
        }
        for (name, exp) in exps {
            let kernel = Kernel::elementwise(vec![dtype, dtype], xs.len(), exp);
            let case = Case {
                spec: None,
                name: format!("{name} {dtype:?}"),
                kernel,
                inputs: inputs.clone(),
                exact: true,
            };
            let want = run_kernel(&case.kernel, &refs).unwrap();
            let got = run_on(&mut backend, &case.kernel, &case.inputs);
            if let Err(e) = check(&case, &got, &want, 0) {
                let i: usize = e
                    .split("element ")
                    .nth(1)
                    .and_then(|s| s.split(':').next())
                    .and_then(|s| s.parse().ok())
                    .unwrap_or(0);
                failures.push(format!("{e} (x = {}, y = {})", xs[i], ys[i]));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Like `encode`, but uint32 values are taken as they are (no `abs`).
fn encode_exact(dtype: DType, values: &[f64]) -> Vec<u8> {
    match dtype {
        DType::Uint32 => values
            .iter()
            .flat_map(|&v| (v as u32).to_le_bytes())
            .collect(),
        _ => encode(dtype, values),
    }
}

/// float16 kernels over every 16-bit pattern (NaN, inf, subnormals, both zeros) agree with the
/// cpu interpreter bit for bit: widening, exact arithmetic rounded back to float16, and
/// float32 → float16 rounding of values around every float16 tie.
#[wasm_bindgen_test]
fn float16_kernels_match_the_cpu_interpreter_on_every_pattern() {
    let mut backend = WasmBackend::new();
    let patterns: Vec<u8> = (0..=u16::MAX).flat_map(u16::to_le_bytes).collect();
    let reversed: Vec<u8> = (0..=u16::MAX).rev().flat_map(u16::to_le_bytes).collect();
    let n = 1 << 16;
    let x = || AluExp::load(DType::Float16, 0, AluExp::index());
    let y = || AluExp::load(DType::Float16, 1, AluExp::index());
    let f16 = |exp| Kernel::elementwise(vec![DType::Float16, DType::Float16], n, exp);
    let kernels = [
        ("copy", f16(x())),
        ("to f32", f16(AluExp::cast(x(), DType::Float32))),
        ("add", f16(AluExp::binary(BinaryOp::Add, x(), y()))),
        ("mul", f16(AluExp::binary(BinaryOp::Mul, x(), y()))),
        ("div", f16(AluExp::binary(BinaryOp::Div, x(), y()))),
        ("sqrt", f16(AluExp::unary(UnaryOp::Sqrt, x()))),
        ("max", f16(AluExp::binary(BinaryOp::Max, x(), y()))),
        ("lt", f16(AluExp::compare(CompareOp::Lt, x(), y()))),
        ("to i32", f16(AluExp::cast(x(), DType::Int32))),
    ];
    let ins = [patterns.clone(), reversed];
    let refs: Vec<&[u8]> = ins.iter().map(Vec::as_slice).collect();
    for (name, kernel) in kernels {
        let want = run_kernel(&kernel, &refs).unwrap();
        let got = run_on(&mut backend, &kernel, &ins);
        same_up_to_nan_payload(&kernel, &got, &want, name);
    }
    // float32 → float16: each float16 value, and the float32s just around the midpoint to
    // the next one (below, at, above the tie).
    let mut wide = crate::common::float16_ties_f32();
    wide.extend([f32::INFINITY, f32::NAN, 65520.0, 65519.996, 1e9, 1e-30]);
    let bytes: Vec<u8> = wide.iter().flat_map(|v| v.to_le_bytes()).collect();
    let kernel = Kernel::elementwise(
        vec![DType::Float32],
        wide.len(),
        AluExp::cast(
            AluExp::load(DType::Float32, 0, AluExp::index()),
            DType::Float16,
        ),
    );
    let want = run_kernel(&kernel, &[&bytes]).unwrap();
    let got = run_on(&mut backend, &kernel, &[bytes]);
    same_up_to_nan_payload(&kernel, &got, &want, "float32 → float16");
    assert_eq!(backend.stats().live_buffers, 0);
}

/// Bit equality of two outputs, except that any two NaNs agree (the interpreter's NaNs are
/// canonical; wasm keeps an operand NaN's payload and sign).
fn same_up_to_nan_payload(kernel: &Kernel, got: &[u8], want: &[u8], what: &str) {
    assert_eq!(got.len(), want.len(), "{what}");
    let width = kernel.output_dtype().byte_size();
    let nan = |b: &[u8]| match width {
        2 => u16::from_le_bytes([b[0], b[1]]) & 0x7fff > 0x7c00,
        _ => f32::from_le_bytes([b[0], b[1], b[2], b[3]]).is_nan(),
    };
    for (i, (g, w)) in got.chunks(width).zip(want.chunks(width)).enumerate() {
        if g != w && !(nan(g) && nan(w)) {
            panic!("{what}: element {i}: got {g:?}, want {w:?}");
        }
    }
}

#[wasm_bindgen_test]
fn eager_eval_on_wasm_equals_cpu() {
    let data = encode(DType::Float32, &values(12, 1.0));
    let run = |device| {
        let a = ArrayValue::from_bytes("t", &data, vec![3, 4], DType::Float32, device).unwrap();
        let s = ArrayValue::weak_scalar("t", 0.5, DType::Float32, device).unwrap();
        let b = eval::apply(&Primitive::MUL, &[&a, &s]).unwrap();
        let c = eval::apply(&Primitive::ADD, &[&b, &a]).unwrap();
        c.read_sync("t").unwrap()
    };
    assert_eq!(run(Device::Wasm), run(Device::Cpu));
}
