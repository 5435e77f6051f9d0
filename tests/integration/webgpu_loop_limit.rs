//! The shader loop limit (`backend/webgpu/loop_budget.rs`): llvmpipe is recognised by name,
//! and with the limit lowered to a few hundred iterations (so that the split plans run on any
//! adapter) reductions are cut into parts whose loops fit — sums and max/min of every
//! dtype, bool, several outputs, epilogues, float remainders in the body, and matrix products
//! that would otherwise be tiled — and still equal the `cpu` interpreter (bit for bit for
//! exact operations, within a stated tolerance for float sums); what cannot be cut is an
//! error; whole programs whose one-workgroup or staged loops would not fit run another way,
//! still right. Oracle: the `cpu` interpreter (and the `cpu` device for programs).

use crate::common::{block_on, encode, run_on, values};
use oxjax::backend::cpu::run_kernel;
use oxjax::backend::webgpu::{loop_budget, wgsl_routines_group, WebGpuBackend};
use oxjax::backend::Backend;
use oxjax::core::DType;
use oxjax::kernel::{AluExp, BinaryOp, Kernel, ReduceOp, Reduction, Routine, RoutineKind};

const LIMIT: usize = 300;

fn gpu() -> WebGpuBackend {
    let mut gpu = block_on(WebGpuBackend::new(None)).unwrap_or_else(|e| {
        panic!("no Vulkan adapter ({e}); scripts/setup.sh installs Mesa's lavapipe")
    });
    gpu.set_loop_limit(Some(LIMIT));
    gpu
}

/// `out[o] = op over r < len of f(x[o · len + r])` for `outputs` outputs.
fn reduce(
    dtype: DType,
    op: ReduceOp,
    outputs: usize,
    len: usize,
    body: fn(AluExp) -> AluExp,
) -> Kernel {
    let index = AluExp::index_add(
        AluExp::index_mul(AluExp::index(), len as isize),
        AluExp::reduce_index(),
    );
    let x = AluExp::load(dtype, 0, index);
    Kernel {
        inputs: vec![dtype],
        size: outputs,
        exp: body(x),
        reduction: Some(Reduction { op, size: len }),
        epilogue: None,
    }
}

fn same(x: AluExp) -> AluExp {
    x
}

/// Compares `kernel` on the GPU and the interpreter: exactly, or (float sums) within
/// `tol` · Σ|terms| per output, and checks that it compiled into several stages.
fn check(gpu: &mut WebGpuBackend, kernel: &Kernel, input: Vec<u8>, tol: f64, what: &str) {
    let compiles = gpu.stats().shader_compiles;
    let got = run_on(gpu, kernel, std::slice::from_ref(&input));
    assert!(
        gpu.stats().shader_compiles >= compiles + 2,
        "{what}: a reduction over the limit must be cut into stages"
    );
    let want = run_kernel(kernel, &[&input]).unwrap();
    if tol == 0.0 {
        assert_eq!(got, want, "{what}");
        return;
    }
    let f = |b: &[u8]| -> Vec<f32> {
        b.chunks(4)
            .map(|c| f32::from_le_bytes(c.try_into().unwrap()))
            .collect()
    };
    let len = kernel.reduction.unwrap().size;
    let terms = f(&input);
    for (o, (g, w)) in f(&got).iter().zip(f(&want)).enumerate() {
        let scale: f64 = terms[o * len..(o + 1) * len]
            .iter()
            .map(|t| t.abs() as f64)
            .sum();
        assert!(
            (*g as f64 - w as f64).abs() <= tol * scale.max(1.0),
            "{what}[{o}]: {g} vs {w}"
        );
    }
}

#[test]
fn llvmpipe_is_recognised_by_name() {
    assert_eq!(
        loop_budget::detect("llvmpipe (LLVM 15.0.6, 256 bits)"),
        Some(65535)
    );
    assert_eq!(loop_budget::detect("NVIDIA H100 80GB HBM3"), None);
    assert_eq!(loop_budget::detect("SwiftShader Device (Subzero)"), None);
    let native = block_on(WebGpuBackend::new(None)).unwrap();
    if native.adapter_name().contains("llvmpipe") {
        assert_eq!(native.loop_limit(), Some(65535));
    }
}

#[test]
fn long_reductions_are_cut_and_exact() {
    let mut gpu = gpu();
    for (outputs, len) in [(1, 301), (3, 1000), (2, 90_001), (1, 300 * 300 + 7)] {
        let n = outputs * len;
        let ints: Vec<f64> = (0..n).map(|i| ((i * 7) % 13) as f64 - 6.0).collect();
        for op in [ReduceOp::Sum, ReduceOp::Max, ReduceOp::Min] {
            for dtype in [DType::Int32, DType::Float32] {
                let k = reduce(dtype, op, outputs, len, same);
                check(
                    &mut gpu,
                    &k,
                    encode(dtype, &ints),
                    0.0,
                    &format!("{op:?} {dtype:?} {outputs}×{len}"),
                );
            }
        }
        // Bool any / all (max / min); the odd element last.
        let bools: Vec<f64> = (0..n)
            .map(|i| if i % len == len - 1 { -1.0 } else { 1.0 })
            .collect();
        for op in [ReduceOp::Max, ReduceOp::Min] {
            let k = reduce(DType::Bool, op, outputs, len, same);
            check(
                &mut gpu,
                &k,
                encode(DType::Bool, &bools),
                0.0,
                &format!("bool {op:?} {len}"),
            );
        }
        // A product of values near 1, uint32 sums.
        let k = reduce(DType::Uint32, ReduceOp::Sum, outputs, len, same);
        check(
            &mut gpu,
            &k,
            encode(DType::Uint32, &ints),
            0.0,
            &format!("uint32 sum {len}"),
        );
    }
}

#[test]
fn float_sums_fmod_bodies_and_epilogues_stay_accurate() {
    let mut gpu = gpu();
    let len = 20_000;
    let x = encode(DType::Float32, &values(2 * len, 0.5));
    let k = reduce(DType::Float32, ReduceOp::Sum, 2, len, same);
    check(&mut gpu, &k, x.clone(), 1e-6, "float sum");
    // x mod 3 in the body: each term may loop (`FMOD_LOOPS`), so parts are shorter.
    let fmod = |x: AluExp| AluExp::binary(BinaryOp::Rem, x, AluExp::constant(DType::Float32, 3.0));
    let k = reduce(DType::Float32, ReduceOp::Max, 2, len, fmod);
    check(&mut gpu, &k, x.clone(), 0.0, "max of fmod");
    let mut k = reduce(DType::Float32, ReduceOp::Sum, 2, len, same);
    k.epilogue = Some(AluExp::binary(
        BinaryOp::Mul,
        AluExp::load(DType::Float32, 0, AluExp::index()),
        AluExp::constant(DType::Float32, 0.5),
    ));
    check(&mut gpu, &k, x, 1e-6, "sum with an epilogue");
}

#[test]
fn products_that_would_be_tiled_are_cut_instead() {
    let mut gpu = gpu();
    gpu.set_fast_kernels(true);
    // [32, k] @ [k, 32] with k = 4000: the tiled loop (k / 8 steps) is over the limit.
    let (m, k, n) = (32usize, 4000usize, 32usize);
    let a = AluExp::load(
        DType::Float32,
        0,
        AluExp::index_add(
            AluExp::index_mul(AluExp::index_div(AluExp::index(), n), k as isize),
            AluExp::reduce_index(),
        ),
    );
    let b = AluExp::load(
        DType::Float32,
        1,
        AluExp::index_add(
            AluExp::index_mul(AluExp::reduce_index(), n as isize),
            AluExp::index_rem(AluExp::index(), n),
        ),
    );
    let kernel = Kernel {
        inputs: vec![DType::Float32, DType::Float32],
        size: m * n,
        exp: AluExp::binary(BinaryOp::Mul, a, b),
        reduction: Some(Reduction {
            op: ReduceOp::Sum,
            size: k,
        }),
        epilogue: None,
    };
    // Small integers: every partial sum is exact, so any order gives the same bits.
    let av: Vec<f64> = (0..m * k).map(|i| ((i * 5) % 7) as f64 - 3.0).collect();
    let bv: Vec<f64> = (0..k * n).map(|i| ((i * 3) % 5) as f64 - 2.0).collect();
    let inputs = vec![encode(DType::Float32, &av), encode(DType::Float32, &bv)];
    let got = run_on(&mut gpu, &kernel, &inputs);
    let want = run_kernel(&kernel, &[&inputs[0], &inputs[1]]).unwrap();
    assert_eq!(got, want);
    assert_eq!(
        gpu.stats().tiled_dispatches,
        0,
        "a tiled loop over the limit ran"
    );
}

#[test]
fn what_cannot_be_cut_is_an_error() {
    let mut gpu = gpu();
    // Ten float remainders per element: 330 iterations, over the limit even unreduced.
    let mut exp = AluExp::load(DType::Float32, 0, AluExp::index());
    for _ in 0..10 {
        exp = AluExp::binary(BinaryOp::Rem, exp, AluExp::constant(DType::Float32, 0.75));
    }
    let kernel = Kernel::elementwise(vec![DType::Float32], 4, exp);
    let err = gpu.compile(&kernel).unwrap_err().to_string();
    assert!(err.contains("loop iterations"), "{err}");
    // A Cholesky of 12×12 runs about 12³/6 + 12² iterations in its one invocation per
    // matrix; one of 64×64 (a workgroup per matrix) about 64²/2 in each invocation.
    let routine = Routine {
        kind: RoutineKind::Cholesky,
        dtype: DType::Float32,
        batch: 1,
        m: 12,
        n: 12,
    };
    assert!(wgsl_routines_group::group_size(&routine).is_none());
    assert!(loop_budget::routine_loops(&routine) > LIMIT);
    let large = Routine {
        n: 64,
        m: 64,
        ..routine
    };
    let w = wgsl_routines_group::group_size(&large).expect("a workgroup per matrix") as usize;
    assert!(loop_budget::group_routine_loops(&large, w).unwrap() > LIMIT);
    for r in [&routine, &large] {
        let err = gpu.compile_routine(r).unwrap_err().to_string();
        assert!(
            err.contains("cholesky") && err.contains("llvmpipe"),
            "{err}"
        );
    }
    // A small one still compiles.
    let small = Routine {
        n: 4,
        m: 4,
        ..routine
    };
    assert!(gpu.compile_routine(&small).is_ok());
}

/// `k` chained batched 2×2 matmuls y ← (y·A + A) / 2 over A [n, 2, 2] (as `webgpu_whole.rs`).
fn chain_program(n: usize, k: usize, d: usize) -> oxjax::lower::Program {
    use crate::common::trace::{f32v, lit, trace_fn};
    use oxjax::backend::registry;
    use oxjax::core::{Device, Primitive};
    use oxjax::transform::trace::{bind, Operand};
    let closed = trace_fn(&[f32v(&[n, d, d])], |v| {
        let mut y = v[0].clone();
        for _ in 0..k {
            let p = bind(
                Primitive::Matmul,
                &[Operand::Value(&y), Operand::Value(&v[0])],
            )
            .unwrap();
            y = bind(
                Primitive::Binary(BinaryOp::Add),
                &[Operand::Value(&p), Operand::Value(&v[0])],
            )
            .unwrap();
            y = lit(BinaryOp::Mul, &y, 0.5);
        }
        vec![y]
    });
    oxjax::lower::lower(&closed.jaxpr, registry::limits(Device::WebGpu))
}

#[test]
fn whole_programs_over_the_limit_run_another_way_and_right() {
    use crate::common::program::webgpu_vs_cpu_square;
    use oxjax::backend::registry;
    let tol = |b: f64, _: f64| 1e-5 * (1.0 + b.abs());
    // (n, the loop limit) → webgpu dispatches of a 9-matmul chain.
    let run = |n: usize, limit: Option<usize>, d: usize| {
        let mut gpu = block_on(WebGpuBackend::new(Some(8))).unwrap();
        gpu.set_loop_limit(limit);
        registry::install_webgpu(gpu);
        let dispatches = {
            let p = chain_program(n, 9, d);
            webgpu_vs_cpu_square(&p, n, d, tol)
        };
        drop(registry::uninstall_webgpu());
        dispatches
    };
    // Without a limit: one workgroup (n = 100), one stage (n = 3000): one dispatch each.
    assert_eq!(run(100, None, 2), 1);
    assert_eq!(run(3000, None, 2), 1);
    // With a limit of 4 iterations neither loop fits: still right, in more dispatches.
    assert!(run(100, Some(4), 2) > 1);
    assert!(run(3000, Some(4), 2) > 1);
    // A chain of 6×6 products (too many terms to write out: nine kernels in one stage). With
    // room for a few kernels' loops per invocation, the stage is cut into parts that fit (not
    // the whole program sent kernel by kernel).
    let parts = run(500, Some(30), 6);
    assert!(parts > 1 && parts < 9, "{parts} dispatches");
}
