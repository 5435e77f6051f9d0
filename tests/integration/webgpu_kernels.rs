//! The WGSL emitter over the whole Kernel IR: every corpus case (float32, int32, uint32, bool)
//! is emitted and validated with naga, then run on wgpu over Vulkan (Mesa lavapipe on machines
//! without a GPU) and compared with the cpu interpreter — bit for bit for exact operations,
//! within 4 ulp for transcendentals. Extra cases cross every pair of special values for the
//! operations whose WGSL spelling differs from the interpreter's meaning (integer division by
//! zero and overflow, shifts, fmod, NaN-propagating min/max, saturating casts), and dense
//! sampling measures the ulp error of each transcendental.

mod half;

use crate::common::corpus::{check, corpus, sample, Case};
use crate::common::wgsl::validate_kernel as validate;
use crate::common::{block_on, run_on};
use oxjax::backend::cpu::run_kernel;
use oxjax::backend::webgpu::{wgsl, WebGpuBackend};
use oxjax::backend::Backend;
use oxjax::core::DType;
use oxjax::kernel::{AluExp, BinaryOp, CompareOp, Kernel, ReduceOp, Reduction, UnaryOp};

const SUPPORTED: [DType; 4] = [DType::Float32, DType::Int32, DType::Uint32, DType::Bool];

fn gpu() -> WebGpuBackend {
    block_on(WebGpuBackend::new(Some(8))).unwrap_or_else(|e| {
        panic!("no Vulkan adapter ({e}); scripts/setup.sh installs Mesa's lavapipe")
    })
}

fn oracle(case: &Case) -> Vec<u8> {
    let refs: Vec<&[u8]> = case.inputs.iter().map(Vec::as_slice).collect();
    run_kernel(&case.kernel, &refs).unwrap_or_else(|e| panic!("{}: {e}", case.name))
}

fn load(dtype: DType, input: usize) -> AluExp {
    AluExp::load(dtype, input, AluExp::index())
}

fn bytes(dtype: DType, values: &[f64]) -> Vec<u8> {
    let mut out = Vec::new();
    for &v in values {
        match dtype {
            DType::Float32 => out.extend_from_slice(&(v as f32).to_le_bytes()),
            DType::Int32 => out.extend_from_slice(&(v as i32).to_le_bytes()),
            DType::Uint32 => out.extend_from_slice(&(v as u32).to_le_bytes()),
            _ => out.extend_from_slice(&((v != 0.0) as u32).to_le_bytes()),
        }
    }
    out
}

/// `op(a, b)` over every pair of `values`.
fn cross(name: String, dtype: DType, values: &[f64], exp: AluExp) -> Case {
    let a: Vec<f64> = values
        .iter()
        .flat_map(|&x| values.iter().map(move |_| x))
        .collect();
    let b: Vec<f64> = values.iter().flat_map(|_| values.iter().copied()).collect();
    Case {
spec: None,
        name,
        kernel: Kernel::elementwise(vec![dtype, dtype], a.len(), exp),
        inputs: vec![bytes(dtype, &a), bytes(dtype, &b)],
        exact: true,
    }
}

/// Cases beyond the corpus: special values crossed with each other, casts at the saturation
/// boundaries, an input that is never loaded, and a deep expression.
fn extra_cases() -> Vec<Case> {
    let ints = [
        0.0,
        1.0,
        -1.0,
        2.0,
        -7.0,
        31.0,
        32.0,
        33.0,
        -32.0,
        i32::MAX as f64,
        i32::MIN as f64,
        (i32::MIN + 1) as f64,
    ];
    let uints = [
        0.0,
        1.0,
        7.0,
        31.0,
        32.0,
        33.0,
        2147483648.0,
        u32::MAX as f64,
    ];
    let floats = [
        0.0,
        -0.0,
        1.0,
        -1.0,
        0.75,
        -2.5,
        3.0,
        1e-30,
        -7e25,
        1e30,
        3.4e38,
        f64::NAN,
        f64::INFINITY,
        f64::NEG_INFINITY,
        1.5e-39,
        -2.0e-45,
    ];
    let mut cases = Vec::new();
    use BinaryOp::*;
    for (dtype, values) in [
        (DType::Int32, &ints[..]),
        (DType::Uint32, &uints[..]),
        (DType::Float32, &floats[..]),
    ] {
        let ops: &[BinaryOp] = match dtype {
            DType::Float32 => &[Rem, Min, Max, Div],
            _ => &[Div, Rem, Shl, Shr, Min, Max, Sub, Mul],
        };
        for &op in ops {
            let exp = AluExp::binary(op, load(dtype, 0), load(dtype, 1));
            cases.push(cross(
                format!("{op:?} {dtype:?} (cross)"),
                dtype,
                values,
                exp,
            ));
        }
        for op in [CompareOp::Lt, CompareOp::Le, CompareOp::Eq, CompareOp::Ne] {
            let exp = AluExp::compare(op, load(dtype, 0), load(dtype, 1));
            cases.push(cross(
                format!("{op:?} {dtype:?} (cross)"),
                dtype,
                values,
                exp,
            ));
        }
    }
    // Casts at the saturation boundaries.
    let edges = [
        2147483520.0,
        2147483648.0,
        -2147483648.0,
        -2147483904.0,
        4294967040.0,
        4294967296.0,
        -0.75,
        0.75,
        -1.0,
        f64::NAN,
        f64::INFINITY,
        f64::NEG_INFINITY,
        -0.0,
        1e-40,
        16777217.0,
    ];
    for from in SUPPORTED {
        for to in SUPPORTED.iter().filter(|&&t| t != from) {
            let values: &[f64] = match from {
                DType::Float32 => &edges,
                DType::Int32 => &ints,
                DType::Uint32 => &uints,
                _ => &[0.0, 1.0],
            };
            cases.push(Case {
spec: None,
                name: format!("Cast {from:?} -> {to:?} (edges)"),
                kernel: Kernel::elementwise(
                    vec![from],
                    values.len(),
                    AluExp::cast(load(from, 0), *to),
                ),
                inputs: vec![bytes(from, values)],
                exact: true,
            });
        }
    }
    // An input that is never loaded still gets its binding.
    cases.push(Case {
spec: None,
        name: "unused input".into(),
        kernel: Kernel::elementwise(
            vec![DType::Float32, DType::Int32],
            4,
            AluExp::cast(load(DType::Int32, 1), DType::Float32),
        ),
        inputs: vec![
            bytes(DType::Float32, &[1.0; 4]),
            bytes(DType::Int32, &[1.0, 2.0, 3.0, 4.0]),
        ],
        exact: true,
    });
    // A chain 300 operations deep, with constants that would overflow if constant-folded.
    let mut exp = load(DType::Float32, 0);
    for k in 0..300 {
        let c = AluExp::constant(DType::Float32, if k % 2 == 0 { 1e30 } else { 1e-30 });
        exp = AluExp::binary(Mul, exp, c);
    }
    let x = sample(DType::Float32, 1);
    cases.push(Case {
spec: None,
        name: "deep chain".into(),
        kernel: Kernel::elementwise(vec![DType::Float32], x.len(), exp),
        inputs: vec![bytes(DType::Float32, &x)],
        exact: true,
    });
    // a·b + c where a fused multiply-add would differ (a·b = 1 + 2^-11 + 2^-24 is a tie).
    let a = 1.0 + 2f64.powi(-12);
    let fma = AluExp::binary(
        Add,
        AluExp::binary(Mul, load(DType::Float32, 0), load(DType::Float32, 1)),
        load(DType::Float32, 2),
    );
    cases.push(Case {
spec: None,
        name: "mul then add (no contraction)".into(),
        kernel: Kernel::elementwise(vec![DType::Float32; 3], 2, fma),
        inputs: vec![
            bytes(DType::Float32, &[a, -a]),
            bytes(DType::Float32, &[a, a]),
            bytes(DType::Float32, &[-1.0, 1.0]),
        ],
        exact: true,
    });
    // Integer constants at the extremes, and a long reduction with a cancelling float sum.
    let int_exp = AluExp::binary(
        Sub,
        AluExp::binary(
            Add,
            load(DType::Int32, 0),
            AluExp::constant(DType::Int32, i32::MAX as f64),
        ),
        AluExp::constant(DType::Int32, i32::MIN as f64),
    );
    cases.push(Case {
spec: None,
        name: "int constants".into(),
        kernel: Kernel::elementwise(vec![DType::Int32], ints.len(), int_exp),
        inputs: vec![bytes(DType::Int32, &ints)],
        exact: true,
    });
    let n = 1000;
    let values: Vec<f64> = (0..n)
        .map(|i| ((i as f64 * 0.7).sin() * 1e4).round() + 0.1 * (i % 7) as f64)
        .collect();
    let idx = AluExp::binary(
        Add,
        AluExp::binary(Mul, AluExp::index(), AluExp::constant(DType::Int32, 500.0)),
        AluExp::reduce_index(),
    );
    let mut sum = Kernel::elementwise(
        vec![DType::Float32],
        2,
        AluExp::load(DType::Float32, 0, idx),
    );
    sum.reduction = Some(Reduction {
        op: ReduceOp::Sum,
        size: 500,
    });
    cases.push(Case {
spec: None,
        name: "long float sum".into(),
        kernel: sum,
        inputs: vec![bytes(DType::Float32, &values)],
        exact: false,
    });
    cases
}

#[test]
fn every_corpus_kernel_emits_valid_wgsl() {
    let cases = corpus(&SUPPORTED);
    assert!(cases.len() > 100, "corpus has {} cases", cases.len());
    for case in cases.iter().chain(&extra_cases()) {
        validate(&case.name, &case.kernel);
    }
}

#[test]
fn unsupported_dtypes_are_clear_errors() {
    // (float16 is emitted with f16 storage: `webgpu_kernels/half.rs`.)
    let (dtype, text) = (
        DType::Float64,
        "float64 is not supported on the webgpu device",
    );
    let kernel = Kernel::elementwise(vec![dtype], 4, load(dtype, 0));
    let err = wgsl::emit_kernel(&kernel).unwrap_err();
    assert!(err.message().contains(text), "{err}");
    // A float64 intermediate inside a float32 kernel is rejected too.
    let inner = AluExp::cast(AluExp::cast(load(DType::Float32, 0), dtype), DType::Float32);
    let kernel = Kernel::elementwise(vec![DType::Float32], 4, inner);
    let err = wgsl::emit_kernel(&kernel).unwrap_err();
    assert!(err.message().contains(text), "{err}");
}

#[test]
fn every_corpus_kernel_runs_on_vulkan_like_the_interpreter() {
    let mut gpu = gpu();
    let mut failures = Vec::new();
    for case in corpus(&SUPPORTED).iter().chain(&extra_cases()) {
        let want = oracle(case);
        let got = run_on(&mut gpu, &case.kernel, &case.inputs);
        if let Err(e) = check(case, &got, &want, 4) {
            failures.push(e);
        }
    }
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
    let stats = gpu.stats();
    assert_eq!((stats.live_buffers, stats.live_bytes), (0, 0));
}

/// Division, reciprocal and square root are correctly rounded (the interpreter's bits) for
/// random bit patterns over the whole float range, subnormals included.
#[test]
fn division_and_sqrt_are_correctly_rounded() {
    let mut gpu = gpu();
    let n = 1 << 16;
    let mut state = 0x1234_5678u32;
    let mut next = || {
        state = state.wrapping_mul(1664525).wrapping_add(1013904223);
        // Mostly moderate exponents, sometimes anything.
        let bits = state;
        if bits.is_multiple_of(4) {
            bits
        } else {
            (bits & 0x807f_ffff) | ((bits >> 8) % 60 + 97) << 23
        }
    };
    let a: Vec<u8> = (0..n).flat_map(|_| next().to_le_bytes()).collect();
    let b: Vec<u8> = (0..n).flat_map(|_| next().to_le_bytes()).collect();
    let f = DType::Float32;
    let kernels = [
        ("Div", AluExp::binary(BinaryOp::Div, load(f, 0), load(f, 1))),
        ("Reciprocal", AluExp::unary(UnaryOp::Reciprocal, load(f, 1))),
        (
            "Sqrt",
            AluExp::unary(UnaryOp::Sqrt, AluExp::unary(UnaryOp::Abs, load(f, 0))),
        ),
    ];
    let mut failures = Vec::new();
    for (name, exp) in kernels {
        let case = Case {
spec: None,
            name: format!("{name} (random bits)"),
            kernel: Kernel::elementwise(vec![f, f], n, exp),
            inputs: vec![a.clone(), b.clone()],
            exact: true,
        };
        let got = run_on(&mut gpu, &case.kernel, &case.inputs);
        if let Err(e) = check(&case, &got, &oracle(&case), 0) {
            failures.push(e);
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The distance in ulp between two f32s (0 when both are NaN, huge when only one is).
fn ulps(got: f32, want: f32) -> u64 {
    if got.is_nan() || want.is_nan() {
        return if got.is_nan() && want.is_nan() {
            0
        } else {
            u64::MAX
        };
    }
    let key = |x: f32| {
        let b = x.to_bits() as i64;
        if b < 0x8000_0000 {
            b
        } else {
            0x8000_0000 - b
        }
    };
    (key(got) - key(want)).unsigned_abs()
}

/// `n` evenly spaced points over [lo, hi].
fn linspace(lo: f64, hi: f64, n: usize) -> Vec<f64> {
    (0..n)
        .map(|i| lo + (hi - lo) * i as f64 / (n - 1) as f64)
        .collect()
}

/// Max ulp error of each transcendental against the interpreter, over 4096 evenly spaced points
/// (asin over [−1, 1], the rest over [−100, 100]) plus, for the functions whose interesting
/// range is elsewhere, extra points: log over 1e-38..1e38 (log-spaced), erfc near its
/// underflow, exp near overflow and underflow (subnormal results), sin/cos at huge arguments and
/// next to multiples of π/2.
#[test]
fn transcendentals_are_within_4_ulp() {
    let mut gpu = gpu();
    let n = 4096;
    let mut report = Vec::new();
    use UnaryOp::*;
    for op in [Exp, Log, Sin, Cos, Asin, Atan, Tanh, Erf, Erfc] {
        let mut x = if op == Asin {
            linspace(-1.0, 1.0, n)
        } else {
            linspace(-100.0, 100.0, n)
        };
        match op {
            Log => x.extend((0..n).map(|i| 10f64.powf(-38.0 + 76.0 * i as f64 / n as f64))),
            Erfc => x.extend(linspace(-4.0, 10.1, n)),
            Exp => x.extend(
                linspace(-104.0, -85.0, n)
                    .into_iter()
                    .chain(linspace(85.0, 89.0, 64)),
            ),
            Sin | Cos => {
                x.extend((0..n).map(|i| 1.37f64.powf(i as f64 / 16.0)));
                // The floats nearest to multiples of π/2, where the result cancels most.
                x.extend((1..=n).map(|k| k as f64 * 7.0 * std::f64::consts::FRAC_PI_2));
            }
            Tanh | Atan | Erf => x.extend(linspace(-3.0, 3.0, n)),
            Asin => x.extend(linspace(0.45, 1.0, n)),
            _ => {}
        }
        let case = Case {
spec: None,
            name: format!("{op:?} (dense)"),
            kernel: Kernel::elementwise(
                vec![DType::Float32],
                x.len(),
                AluExp::unary(op, load(DType::Float32, 0)),
            ),
            inputs: vec![bytes(DType::Float32, &x)],
            exact: false,
        };
        let want = oracle(&case);
        let got = run_on(&mut gpu, &case.kernel, &case.inputs);
        let f = |b: &[u8], i: usize| f32::from_le_bytes(b[i * 4..i * 4 + 4].try_into().unwrap());
        let (worst, at) = (0..x.len())
            .map(|i| (ulps(f(&got, i), f(&want, i)), i))
            .max()
            .unwrap();
        report.push(format!(
            "{op:?}: max {worst} ulp at x = {} (got {:e}, want {:e})",
            x[at] as f32,
            f(&got, at),
            f(&want, at)
        ));
    }
    println!("{}", report.join("\n"));
    for line in &report {
        let worst: u64 = line.split_whitespace().nth(2).unwrap().parse().unwrap();
        assert!(worst <= 4, "{line}\n{}", report.join("\n"));
    }
}
