//! Whole jitted programs on webgpu that the staged path cannot take whole run as MIXED parts
//! (`backend::webgpu::program::mixed`): runs of row-partitioned stages and ordinary
//! dispatches, natively on wgpu over Vulkan (lavapipe) with the storage-buffer limit forced to
//! 8. A Kogge–Stone program with a sum over its batch in the middle, whose loop is forced over
//! a lowered loop limit, runs as the stages around it plus the sum's own dispatch, and one
//! with a sort (a multi-pass routine) in the middle likewise; the same
//! program with its packed buffer over a lowered binding limit runs as halves; a float16 one
//! runs widened: the stages of its float32 twin plus one conversion per input and output (a
//! small one too, where a float32 program would be one workgroup's single dispatch).
//! Oracles: the `cpu` device (values), and the dispatches of the same program staged whole
//! and of the step-by-step path (counts: the rest stayed staged).

use crate::common::block_on;
use crate::common::program::assert_outputs_close;
use crate::common::trace::{array, bin, data, lit, sum_rows, trace_fn};
use oxjax::backend::registry;
use oxjax::backend::webgpu::program::stage_plan;
use oxjax::backend::webgpu::{loop_budget, WebGpuBackend};
use oxjax::core::{Aval, DType, Device, Primitive};
use oxjax::kernel::device_program::LoopStep;
use oxjax::kernel::BinaryOp;
use oxjax::lower::{self, Program};
use oxjax::transform::jit::execute;
use oxjax::transform::runnable::Runnable;
use oxjax::transform::trace::{bind, bind_multi, Operand, Value};

/// Kogge–Stone rounds over `x` [n, 2, 2] (`webgpu_stages::rounds`) with `f(a, b) = (p + b) / 2
/// + p / 4`, `p = b·a` (or, without `matmul`, `b ⊙ a`: float16 has no matrix products).
fn rounds(x: &Value, n: usize, matmul: bool) -> Value {
    crate::webgpu_stages::rounds(x, n, |a, b| {
        let p = match matmul {
            true => bind(Primitive::Matmul, &[Operand::Value(b), Operand::Value(a)]).unwrap(),
            false => bin(BinaryOp::Mul, b, a),
        };
        let half = lit(BinaryOp::Mul, &bin(BinaryOp::Add, &p, b), 0.5);
        bin(BinaryOp::Add, &half, &lit(BinaryOp::Mul, &p, 0.25))
    })
}

/// Rounds over x [n, 2, 2] of `dtype` (float16: elementwise); with `middle`, then the mean
/// over the batch `m`, the rounds again over `cur · m`, and both results out.
fn program(n: usize, dtype: DType, middle: bool) -> Program {
    let matmul = dtype != DType::Float16;
    let closed = trace_fn(&[Aval::new(vec![n, 2, 2], dtype)], |v| {
        let cur = rounds(&v[0], n, matmul);
        if !middle {
            return vec![cur];
        }
        let total = sum_rows(&cur);
        let mean = lit(BinaryOp::Mul, &total, 1.0 / n as f64);
        let scaled = bind(
            Primitive::Matmul,
            &[Operand::Value(&cur), Operand::Value(&mean)],
        )
        .unwrap();
        vec![rounds(&scaled, n, matmul), mean]
    });
    lower::lower(&closed.jaxpr, registry::limits(Device::WebGpu))
}

/// How the webgpu device of a run is set up.
#[derive(Clone, Copy, Default)]
struct Setup {
    /// Loop iterations one invocation may run (None: none).
    loop_limit: Option<usize>,
    /// Bytes a packed buffer may have (None: the device's binding limit).
    packed_bytes: Option<u64>,
}

/// Runs `p` (one `[n, 2, 2]` input) on the cpu device and on a fresh webgpu device (limit of
/// 8 storage buffers) set up as `setup`, twice; compares every element within
/// `tol · (largest |value| of that output, at least 1)`, checks that no buffer is left live,
/// and returns the webgpu dispatches of each run and the shaders the second compiled.
fn run(p: &Program, n: usize, setup: Setup, tol: f64) -> (u64, u64, u64) {
    let mut gpu = block_on(WebGpuBackend::new(Some(8))).expect("a Vulkan adapter");
    gpu.set_loop_limit(setup.loop_limit);
    gpu.set_packed_buffer_limit(setup.packed_bytes);
    registry::install_webgpu(gpu);
    let dtype = p.avals[0].dtype;
    let xs: Vec<f64> = data(n * 4, 1.0).iter().map(|v| v * 0.3).collect();
    let input = |device| match array(&xs, vec![n, 2, 2], dtype, device) {
        Value::Concrete(a) => a,
        _ => unreachable!("arrays are concrete"),
    };
    let p = &Runnable::new(p.clone());
    let want = execute(p, vec![input(Device::Cpu)], Device::Cpu).unwrap();
    let stats = || registry::stats(Device::WebGpu).unwrap();
    let mut counts = Vec::new();
    let live = stats().live_buffers;
    for _ in 0..2 {
        let x = input(Device::WebGpu);
        let before = stats();
        let got = execute(p, vec![x], Device::WebGpu).unwrap();
        let after = stats();
        counts.push((
            after.dispatches - before.dispatches,
            after.shader_compiles - before.shader_compiles,
        ));
        assert_outputs_close(&got, &want, |_, scale| tol * scale, "mixed");
    }
    // Every temp of the runs was freed (the inputs and outputs were dropped).
    assert_eq!(stats().live_buffers, live, "buffers leaked");
    drop(registry::uninstall_webgpu());
    (counts[0].0, counts[1].0, counts[1].1)
}

/// The dispatches of `p` run step by step (one per step; nothing is staged).
fn steps(p: &Program) -> u64 {
    p.steps.len() as u64
}

/// The loop iterations each kernel of `p`'s one-step loop runs per output element.
fn kernel_loops(p: &Program) -> Vec<usize> {
    let plan = lower::whole::one_step_loop(p).expect("a one-step loop");
    plan.body
        .steps
        .iter()
        .filter_map(|s| match s {
            LoopStep::Kernel { kernel, .. } => Some(loop_budget::element_loops(kernel)),
            _ => None,
        })
        .collect()
}

#[test]
fn a_kernel_over_the_loop_limit_runs_alone_and_the_rest_stays_staged() {
    let n = 3000;
    let p = program(n, DType::Float32, true);
    let tol = 1e-4;
    // No loop limit: the whole program is staged (the sum over 3000 rows is a stage member).
    let (whole, again, compiles) = run(&p, n, Setup::default(), tol);
    assert_eq!(again, whole);
    assert_eq!(compiles, 0, "the second call compiled shaders");
    assert!(whole + 10 < steps(&p), "{whole} staged of {} steps", steps(&p));
    // 2000 loop iterations per invocation: the sum (3000 terms per output) is over it, the
    // other kernels far below, and before, the whole program then ran step by step. Now the
    // sum is its own dispatch, the stages before and after it as before (at most one more
    // cut).
    let limit = Setup {
        loop_limit: Some(2000),
        ..Setup::default()
    };
    let loops = kernel_loops(&p);
    assert_eq!(loops.iter().filter(|&&l| l > 2000).count(), 1, "{loops:?}");
    assert!(loops.iter().all(|&l| l <= 10 || l > 2000), "{loops:?}");
    let (mixed, again, compiles) = run(&p, n, limit, tol);
    assert_eq!(again, mixed);
    assert_eq!(compiles, 0, "the second call compiled shaders");
    assert!(
        mixed >= whole && mixed <= whole + 2,
        "{mixed} mixed dispatches vs {whole} staged whole"
    );
    // The same sum at the very end (the rounds first): a staged part and the sum.
    let closed = trace_fn(&[Aval::new(vec![n, 2, 2], DType::Float32)], |v| {
        let cur = rounds(&v[0], n, true);
        let total = sum_rows(&cur);
        vec![lit(BinaryOp::Mul, &total, 1.0 / n as f64)]
    });
    let tail = lower::lower(&closed.jaxpr, registry::limits(Device::WebGpu));
    let (whole, ..) = run(&tail, n, Setup::default(), tol);
    let (mixed, ..) = run(&tail, n, limit, tol);
    assert!(
        mixed >= whole && mixed <= whole + 2 && mixed + 4 <= steps(&tail),
        "{mixed} mixed dispatches vs {whole} staged whole, {} steps",
        steps(&tail)
    );
}

#[test]
fn a_multi_pass_routine_runs_alone_and_the_rest_stays_staged() {
    // Rounds, a sort of each row's pairs (a multi-pass routine: never a stage, and before, the
    // whole program then ran step by step), and rounds again over the sorted values.
    let n = 3000;
    let with_sort = |sort: bool| {
        let closed = trace_fn(&[Aval::new(vec![n, 2, 2], DType::Float32)], |v| {
            let cur = rounds(&v[0], n, true);
            let mid = match sort {
                true => bind_multi(Primitive::Sort, &[Operand::Value(&cur)]).unwrap()[0].clone(),
                false => lit(BinaryOp::Mul, &cur, 1.0),
            };
            vec![rounds(&mid, n, true)]
        });
        lower::lower(&closed.jaxpr, registry::limits(Device::WebGpu))
    };
    let (sort, plain) = (with_sort(true), with_sort(false));
    let body = lower::whole::one_step_loop(&sort).expect("a one-step loop").body.clone();
    assert!(
        body.steps.iter().any(|s| matches!(s, LoopStep::Routine { .. })),
        "the sort is a routine step"
    );
    let (whole, ..) = run(&plain, n, Setup::default(), 1e-4);
    let (mixed, again, compiles) = run(&sort, n, Setup::default(), 1e-4);
    assert_eq!(again, mixed);
    assert_eq!(compiles, 0, "the second call compiled shaders");
    // Its own dispatch, and at most a cut on each side of it.
    assert!(
        mixed <= whole + 3 && mixed + 10 < steps(&sort),
        "{mixed} mixed dispatches vs {whole} staged without the sort, {} steps",
        steps(&sort)
    );
}

#[test]
fn a_packed_buffer_over_the_binding_limit_is_halved() {
    let n = 3000;
    let p = program(n, DType::Float32, true);
    let tol = 1e-4;
    let (whole, ..) = run(&p, n, Setup::default(), tol);
    // Every slot of the program has words in the one packed buffer: a third of that fits.
    let bytes: u64 = p.avals.iter().map(|a| a.byte_size() as u64).sum();
    let third = Setup {
        packed_bytes: Some(bytes / 3),
        ..Setup::default()
    };
    let (halves, again, compiles) = run(&p, n, third, tol);
    assert_eq!(again, halves);
    assert_eq!(compiles, 0, "the second call compiled shaders");
    assert!(
        halves >= whole && halves <= whole + 4 && halves + 10 < steps(&p),
        "{halves} dispatches in parts vs {whole} staged whole, {} steps",
        steps(&p)
    );
    // A limit that no step's slots fit: nothing is staged, every step is its own dispatch.
    let none = Setup {
        packed_bytes: Some(64),
        ..Setup::default()
    };
    assert_eq!(run(&p, n, none, tol).0, steps(&p));
}

#[test]
fn float16_programs_run_widened_and_staged() {
    let probe = block_on(WebGpuBackend::new(Some(8))).expect("a Vulkan adapter");
    if !probe.has_float16() {
        // Without shader-f16 float16 arrays never reach webgpu (`registry::check_dtype`).
        let err = registry::check_dtype("t", Device::WebGpu, DType::Float16).unwrap_err();
        assert!(err.to_string().contains("float16"), "{err}");
        eprintln!("this adapter has no shader-f16: float16 programs are not run");
        return;
    }
    drop(probe);
    let n = 3000;
    let twin = |dtype| {
        let closed = trace_fn(&[Aval::new(vec![n, 2, 2], dtype)], |v| {
            vec![rounds(&v[0], n, false)]
        });
        lower::lower(&closed.jaxpr, registry::limits(Device::WebGpu))
    };
    let (f32_whole, ..) = run(&twin(DType::Float32), n, Setup::default(), 1e-4);
    let p = twin(DType::Float16);
    // float16 is exact to 2⁻¹¹ relative; each round rounds a few times.
    let (half, again, compiles) = run(&p, n, Setup::default(), 1e-2);
    assert_eq!(again, half);
    assert_eq!(compiles, 0, "the second call compiled shaders");
    // The float32 twin's stages, the input widened and the output narrowed (step by step:
    // one dispatch per step).
    assert_eq!(half, f32_whole + 2, "float16 vs float32 dispatches");
    assert!(half < steps(&p), "{half} dispatches of {} steps", steps(&p));
    // A small program (one workgroup's size for float32, where the packed one-workgroup
    // shader holds 32-bit words only): the planned stages of its float32 twin, converted.
    let n = 16;
    let small = |dtype| {
        let closed = trace_fn(&[Aval::new(vec![n, 2, 2], dtype)], |v| {
            vec![rounds(&v[0], n, false)]
        });
        lower::lower(&closed.jaxpr, registry::limits(Device::WebGpu))
    };
    let plan = lower::whole::one_step_loop(&small(DType::Float32)).expect("a one-step loop");
    let stages = stage_plan::plan(&plan.body).expect("stages").len() as u64;
    let (dispatches, ..) = run(&small(DType::Float16), n, Setup::default(), 1e-2);
    assert_eq!(dispatches, stages + 2, "a conversion, the stages, a conversion");
}
