//! The wide form of elementwise kernels on wgpu over Vulkan (lavapipe on machines without a
//! GPU): with `set_wide_elementwise(true)` every kernel without a reduction runs four elements
//! per invocation (`wgsl_wide`). Each kernel runs in both forms and is compared with the cpu
//! interpreter (bit for bit for exact operations, within 4 ulp for transcendentals) and the
//! two forms with each other (bit for bit: the lanes are the one-element kernel's code). Cases:
//! the whole kernel corpus at its size and cut to odd sizes, loads through views (transposed,
//! broadcast, strided, offset by aligned and unaligned constants, guarded reads before the
//! start), mixed input and output dtypes (float16 too), seven inputs (the 8-buffer limit), and
//! sizes across several workgroups. The wide dispatch counter and the shader text show which
//! form ran.

use crate::common::corpus::{check, corpus, Case};
use crate::common::wgsl::validate_source;
use crate::common::{block_on, encode, run_on};
use oxjax::backend::cpu::run_kernel;
use oxjax::backend::webgpu::{wgsl_wide, WebGpuBackend};
use oxjax::backend::Backend;
use oxjax::core::DType;
use oxjax::kernel::{AluExp, BinaryOp, CompareOp, Kernel, UnaryOp};

const SUPPORTED: [DType; 4] = [DType::Float32, DType::Int32, DType::Uint32, DType::Bool];

fn gpu() -> WebGpuBackend {
    block_on(WebGpuBackend::new(Some(8))).unwrap_or_else(|e| {
        panic!("no Vulkan adapter ({e}); scripts/setup.sh installs Mesa's lavapipe")
    })
}

/// Runs `case` in the one-element and the wide form; checks both against the interpreter
/// (`ulps` for inexact cases) and each other, and that exactly the wide run was wide.
fn both_forms(gpu: &mut WebGpuBackend, case: &Case, ulps: u64) -> Result<(), String> {
    let refs: Vec<&[u8]> = case.inputs.iter().map(Vec::as_slice).collect();
    let want = run_kernel(&case.kernel, &refs).map_err(|e| format!("{}: {e}", case.name))?;
    let mut got = Vec::new();
    for wide in [false, true] {
        gpu.set_wide_elementwise(wide);
        let before = gpu.wide_dispatches();
        got.push(run_on(gpu, &case.kernel, &case.inputs));
        let counted = gpu.wide_dispatches() - before;
        let expected = (wide && wgsl_wide::suits(&case.kernel)) as u64;
        if counted != expected {
            return Err(format!(
                "{}: {counted} wide dispatches with wide = {wide}",
                case.name
            ));
        }
        check(case, &got[got.len() - 1], &want, ulps).map_err(|e| format!("wide {wide}: {e}"))?;
    }
    if got[0] != got[1] {
        return Err(format!("{}: the two forms differ", case.name));
    }
    Ok(())
}

fn case(name: &str, inputs: &[(DType, Vec<f64>)], size: usize, exp: AluExp) -> Case {
    Case {
        spec: None,
        name: name.to_string(),
        kernel: Kernel::elementwise(inputs.iter().map(|(d, _)| *d).collect(), size, exp),
        inputs: inputs.iter().map(|(d, v)| encode(*d, v)).collect(),
        exact: true,
    }
}

fn values(n: usize, seed: usize) -> Vec<f64> {
    (0..n)
        .map(|k| (((k * 37 + seed * 11) % 101) as f64 - 50.0) * 0.375)
        .collect()
}

fn int(v: f64) -> AluExp {
    AluExp::constant(DType::Int32, v)
}

fn at(dtype: DType, input: usize, index: AluExp) -> AluExp {
    AluExp::load(dtype, input, index)
}

/// The benchmark's chain `(x·1.5 + 0.5)·x − 2` on float32.
fn chain(x: impl Fn() -> AluExp) -> AluExp {
    let f = |v: f64| AluExp::constant(DType::Float32, v);
    let a = AluExp::binary(BinaryOp::Mul, x(), f(1.5));
    let b = AluExp::binary(BinaryOp::Add, a, f(0.5));
    AluExp::binary(BinaryOp::Sub, AluExp::binary(BinaryOp::Mul, b, x()), f(2.0))
}

#[test]
fn the_corpus_runs_alike_in_both_forms_at_odd_sizes_too() {
    let mut gpu = gpu();
    let mut failures = Vec::new();
    for case in corpus(&SUPPORTED) {
        // A reduction's loads reach past a cut size's inputs (and it keeps the plain form).
        let sizes = match case.kernel.reduction {
            None => vec![case.kernel.size, 61, 3, 1],
            Some(_) => vec![case.kernel.size],
        };
        for size in sizes {
            let mut cut = Case {
                spec: None,
                name: format!("{} (size {size})", case.name),
                kernel: case.kernel.clone(),
                inputs: case.inputs.clone(),
                exact: case.exact,
            };
            cut.kernel.size = size;
            if let Err(e) = both_forms(&mut gpu, &cut, 4) {
                failures.push(e);
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert_eq!(gpu.stats().live_buffers, 0);
}

#[test]
fn views_offsets_dtypes_and_many_inputs_run_alike_in_both_forms() {
    let mut gpu = gpu();
    let f = DType::Float32;
    let mut cases = Vec::new();
    for n in [1, 5, 64, 67, 1030, 4099] {
        let x = (f, values(n + 8, 1));
        let i = AluExp::index;
        cases.push(case("chain", std::slice::from_ref(&x), n, chain(|| at(f, 0, i()))));
        for c in [4.0, 3.0, 8.0] {
            let exp = chain(|| at(f, 0, AluExp::index_add(i(), int(c))));
            cases.push(case(&format!("chain at i + {c}"), std::slice::from_ref(&x), n, exp));
        }
        // Reads before the start under a guard (a concatenation's second part).
        for c in [4.0, 2.0] {
            let inside = AluExp::compare(CompareOp::Le, int(c), i());
            let before = at(f, 0, AluExp::index_add(i(), int(-c)));
            let exp = AluExp::where_(inside, before, at(f, 1, i()));
            let name = format!("guarded read at i - {c}");
            cases.push(case(&name, &[x.clone(), (f, values(n, 2))], n, exp));
        }
        // Strided, and one input read both in a row and transposed (R × C → C × R).
        let strided = at(f, 0, AluExp::index_add(AluExp::index_mul(i(), 2), int(1.0)));
        let wide_input = (f, values(2 * n + 2, 3));
        cases.push(case("strided", &[wide_input], n, strided));
        let (r, c) = (n.div_ceil(4).max(1), 4);
        let m = (f, values(r * c, 4));
        let transposed = AluExp::index_add(
            AluExp::index_mul(AluExp::index_rem(i(), r), c as isize),
            AluExp::index_div(i(), r),
        );
        let exp = AluExp::binary(
            BinaryOp::Sub,
            at(f, 0, i()),
            at(f, 0, transposed.clone()),
        );
        cases.push(case("in a row minus transposed", std::slice::from_ref(&m), r * c, exp));
        // Broadcasts: a row and a column of an R × C result.
        let row = at(f, 1, AluExp::index_rem(i(), c));
        let col = at(f, 2, AluExp::index_div(i(), c));
        let exp = AluExp::binary(
            BinaryOp::Mul,
            AluExp::binary(BinaryOp::Add, at(f, 0, i()), row),
            col,
        );
        let ins = [m.clone(), (f, values(c, 5)), (f, values(r, 6))];
        cases.push(case("broadcast row and column", &ins, r * c, exp));
        // Mixed dtypes: float32, int32, uint32 and bool in; each 32-bit dtype out.
        let ints = (DType::Int32, values(n + 4, 7));
        let uints = (DType::Uint32, values(n + 4, 8));
        let bools = (DType::Bool, values(n + 4, 9));
        let ins = [x.clone(), ints, uints, bools];
        let sum = AluExp::binary(
            BinaryOp::Add,
            AluExp::cast(at(DType::Int32, 1, i()), f),
            at(f, 0, AluExp::index_add(i(), int(4.0))),
        );
        let pick = |a, b| AluExp::where_(at(DType::Bool, 3, i()), a, b);
        let u = at(DType::Uint32, 2, AluExp::index_add(i(), int(1.0)));
        let mixed = [
            ("mixed to float32", pick(sum.clone(), AluExp::cast(u.clone(), f))),
            (
                "mixed to int32",
                AluExp::binary(
                    BinaryOp::Mul,
                    at(DType::Int32, 1, i()),
                    AluExp::cast(at(DType::Bool, 3, i()), DType::Int32),
                ),
            ),
            ("mixed to uint32", AluExp::binary(BinaryOp::Xor, u.clone(), u)),
            (
                "mixed to bool",
                AluExp::compare(CompareOp::Lt, sum, at(f, 0, i())),
            ),
        ];
        for (name, exp) in mixed {
            cases.push(case(name, &ins, n, exp));
        }
        // Seven inputs and the output: the 8 storage buffers of the device.
        let seven: Vec<_> = (0..7).map(|k| (f, values(n + 4, 10 + k))).collect();
        let exp = (1..7).fold(at(f, 0, i()), |acc, k| {
            let ix = AluExp::index_add(i(), int(k as f64 % 3.0 * 2.0));
            AluExp::binary(BinaryOp::Add, acc, at(f, k, ix))
        });
        cases.push(case("seven inputs", &seven, n, exp));
        // A transcendental (a helper function, 4 ulp of the interpreter).
        let mut exp_case = case("exp", std::slice::from_ref(&x), n, AluExp::unary(UnaryOp::Exp, at(f, 0, i())));
        exp_case.exact = false;
        cases.push(exp_case);
    }
    let mut failures = Vec::new();
    for mut c in cases {
        c.name = format!("{} (size {})", c.name, c.kernel.size);
        if let Err(e) = both_forms(&mut gpu, &c, 4) {
            failures.push(e);
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert_eq!(gpu.stats().live_buffers, 0);
}

#[test]
fn float16_inputs_and_outputs_run_alike_in_both_forms() {
    let mut gpu = gpu();
    if !gpu.has_float16() {
        return;
    }
    let (h, f) = (DType::Float16, DType::Float32);
    let i = AluExp::index;
    let mut failures = Vec::new();
    for n in [1, 6, 67, 1030] {
        let ins = [(h, values(n + 4, 1)), (f, values(n + 4, 2))];
        let half_sum = AluExp::binary(
            BinaryOp::Add,
            at(h, 0, AluExp::index_add(i(), int(4.0))),
            AluExp::cast(at(f, 1, i()), h),
        );
        let to_f32 = AluExp::binary(
            BinaryOp::Mul,
            AluExp::cast(at(h, 0, i()), f),
            at(f, 1, AluExp::index_add(i(), int(4.0))),
        );
        for (name, exp) in [("to float16", half_sum), ("to float32", to_f32)] {
            let c = case(&format!("{name} (size {n})"), &ins, n, exp);
            if let Err(e) = both_forms(&mut gpu, &c, 0) {
                failures.push(e);
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn the_shader_loads_and_stores_vectors_where_the_reads_line_up() {
    let f = DType::Float32;
    let source = |exp: AluExp, size: usize, inputs: Vec<DType>| {
        let kernel = Kernel::elementwise(inputs, size, exp);
        let src = wgsl_wide::emit(&kernel).unwrap();
        validate_source("wide", &src);
        src
    };
    let plain = source(chain(|| at(f, 0, AluExp::index())), 1 << 24, vec![f]);
    assert!(plain.contains("in0: array<vec4<f32>>"), "{plain}");
    assert!(plain.contains("out: array<vec4<f32>>"), "{plain}");
    assert!(plain.contains("out[q] = vec4<f32>("), "{plain}");
    // The exact form of + − × stays: every lane's products and sums through ox_keep.
    assert_eq!(plain.matches("ox_keep(").count(), 4 * 4 + 1, "{plain}");
    // One vector load for both reads of x, in every lane.
    assert_eq!(plain.matches("= in0[").count(), 1, "{plain}");
    let odd = source(chain(|| at(f, 0, AluExp::index())), 1001, vec![f]);
    assert!(odd.contains("out[q][2] ="), "{odd}");
    assert!(!odd.contains("out[q][3] ="), "{odd}");
    let unaligned = AluExp::index_add(AluExp::index(), int(3.0));
    let shifted = source(chain(|| at(f, 0, unaligned.clone())), 64, vec![f]);
    assert!(shifted.contains("in0: array<f32>"), "{shifted}");
    assert!(shifted.contains("out: array<vec4<f32>>"), "{shifted}");
    let h = DType::Float16;
    let half = source(AluExp::cast(at(f, 0, AluExp::index()), h), 64, vec![f]);
    assert!(half.contains("out: array<f16>"), "{half}");
    assert_eq!(wgsl_wide::workgroups(1 << 24), (1 << 24) / 1024);
    assert_eq!(wgsl_wide::workgroups(1025), 2);
}

#[test]
fn the_knob_chooses_the_form_and_recompiles() {
    let mut gpu = gpu();
    let f = DType::Float32;
    let x = vec![encode(f, &values(100, 1))];
    let kernel = Kernel::elementwise(vec![f], 100, chain(|| at(f, 0, AluExp::index())));
    assert!(gpu.wide_elementwise(), "the wide form is on by default");
    let compiles = |g: &WebGpuBackend| g.stats().shader_compiles;
    let c0 = compiles(&gpu);
    run_on(&mut gpu, &kernel, &x);
    run_on(&mut gpu, &kernel, &x);
    assert_eq!((gpu.wide_dispatches(), compiles(&gpu) - c0), (2, 1));
    gpu.set_wide_elementwise(false);
    run_on(&mut gpu, &kernel, &x);
    run_on(&mut gpu, &kernel, &x);
    assert_eq!((gpu.wide_dispatches(), compiles(&gpu) - c0), (2, 2));
}
