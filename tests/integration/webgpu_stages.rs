//! Whole jitted programs as row-partitioned STAGES on webgpu
//! (`backend::webgpu::program::{stage_plan, stages}`), natively on wgpu over Vulkan
//! (lavapipe) with the storage-buffer limit forced to 8: a hand-built Kogge–Stone program (each round `cur ← concat(cur[:k], f(cur[:n-k],
//! cur[k:]))` with a batched 2×2 matmul, an add and a scale: row-local edges inside a round,
//! the concatenate's shifted by k, the next round's reads of `cur` at two shifts), followed by
//! a sum over the batch axis and a product with it (edges that are not row-local), too large
//! for one workgroup, runs as one dispatch per stage — the first four rounds in one (halos:
//! rows near a band's edges computed by two workgroups), one stage per later round, the tail
//! in one or two more — and matches the `cpu` device. Also: the planner's shifts and halos,
//! and routines large enough for a workgroup per matrix, which no stage takes.

use crate::common::block_on;
use crate::common::program::{webgpu_vs_cpu, webgpu_vs_cpu_square};
use crate::common::trace::{bin, f32v, lit, sum_rows, trace_fn};
use oxjax::backend::registry;
use oxjax::backend::caps::WEBGPU_STAGE_MAX_HALO_ROWS;
use oxjax::backend::webgpu::program::stage_plan;
use oxjax::backend::webgpu::WebGpuBackend;
use oxjax::core::{Device, Primitive};
use oxjax::kernel::BinaryOp;
use oxjax::lower::{self, Program};
use oxjax::transform::trace::{bind, Operand, Value};

fn shrink(x: &Value, rows: (usize, usize)) -> Value {
    bind(
        Primitive::Shrink(vec![rows, (0, 2), (0, 2)]),
        &[Operand::Value(x)],
    )
    .unwrap()
}

/// Kogge–Stone rounds over `x` [n, 2, 2]: each round `cur ← concat(cur[:k], f(cur[:n-k],
/// cur[k:]))`, k = 1, 2, 4, …
pub(crate) fn rounds(x: &Value, n: usize, f: impl Fn(&Value, &Value) -> Value) -> Value {
    let mut cur = x.clone();
    let mut k = 1;
    while k < n {
        let q = f(&shrink(&cur, (0, n - k)), &shrink(&cur, (k, n)));
        let head = shrink(&cur, (0, k));
        cur = bind(
            Primitive::Concatenate(0),
            &[Operand::Value(&head), Operand::Value(&q)],
        )
        .unwrap();
        k *= 2;
    }
    cur
}

/// Kogge–Stone rounds over x [n, 2, 2] (`(a, b) ↦ (p + b) / 2 + p / 4`, `p = b·a`: the
/// product has two uses, so it is a kernel of its own rather than written out in the next),
/// then, when `tail`, the sum over the batch and the result times it.
pub(crate) fn program(n: usize, tail: bool) -> Program {
    let closed = trace_fn(&[f32v(&[n, 2, 2])], |v| {
        let cur = rounds(&v[0], n, |a, b| {
            let p = bind(Primitive::Matmul, &[Operand::Value(b), Operand::Value(a)]).unwrap();
            let half = lit(BinaryOp::Mul, &bin(BinaryOp::Add, &p, b), 0.5);
            bin(BinaryOp::Add, &half, &lit(BinaryOp::Mul, &p, 0.25))
        });
        if !tail {
            return vec![cur];
        }
        let total = sum_rows(&cur);
        let scaled = bind(
            Primitive::Matmul,
            &[Operand::Value(&cur), Operand::Value(&total)],
        )
        .unwrap();
        vec![cur, total, scaled]
    });
    lower::lower(&closed.jaxpr, registry::limits(Device::WebGpu))
}

/// Runs `p` on webgpu and cpu, compares, and returns the webgpu dispatches of the run.
fn check(p: &Program, n: usize) -> u64 {
    webgpu_vs_cpu(p, n, |_, scale| 1e-5 * scale)
}

/// The planned stages of `p` (through the Program's one-step loop).
fn stages(p: &Program) -> Vec<stage_plan::StagePlan> {
    let plan = lower::whole::one_step_loop(p).expect("a one-step loop");
    stage_plan::plan(&plan.body).expect("stages")
}

#[test]
fn kogge_stone_rounds_share_stage_shaders_after_the_first_four() {
    registry::install_webgpu(block_on(WebGpuBackend::new(Some(8))).expect("a Vulkan adapter"));
    // 3000 rows: 12 rounds of 12,000-element kernels, more than one workgroup should do.
    let n = 3000;
    let rounds = 12;
    let p = program(n, false);
    let st = stages(&p);
    let sizes: Vec<usize> = st.iter().map(|s| s.members.len()).collect();
    // Rounds k = 1, 2, 4, 8 share a stage (halos of up to 30 rows); from there on each round
    // is its body and its concatenate (which runs k rows later), never shifted against each
    // other in one stage.
    assert!(st.len() > rounds - 3 && st.len() <= 2 * rounds, "{sizes:?}");
    assert!(
        st.iter()
            .any(|s| s.members.len() >= 8 && s.members.iter().any(|m| m.ext_lo + m.ext_hi > 0)),
        "{sizes:?}"
    );
    for s in &st {
        let shift = s.members[0].shift;
        for m in &s.members {
            assert_eq!(m.shift, shift, "{s:?}");
            assert!(m.ext_lo >= 0 && m.ext_hi >= 0);
            assert!(m.ext_lo + m.ext_hi <= WEBGPU_STAGE_MAX_HALO_ROWS, "{m:?}");
        }
    }
    assert!(p.kernel_count() >= 2 * rounds, "{}", p.describe());
    let want = st.len() as u64;
    let compiles = || registry::stats(Device::WebGpu).unwrap().shader_compiles;
    let before = compiles();
    assert_eq!(check(&p, n), want);
    // The later rounds' stages share pipelines (integer constants apart).
    let first = compiles() - before;
    assert!(first < want, "{first} shaders for {want} stages");
    assert_eq!(check(&p, n), want, "again");
    assert_eq!(compiles() - before, first, "compiled once");
    // The sum over the batch reads every row (a stage of its own), and what reads the sum
    // reads its one row from every row (another).
    let t = program(n, true);
    let st = stages(&t);
    assert!(st.len() > rounds - 3 && st.len() <= 2 * rounds + 2, "{}", st.len());
    assert_eq!(check(&t, n), st.len() as u64);
    // Small sizes: one workgroup's single dispatch still comes first ...
    let small = program(100, false);
    assert_eq!(check(&small, 100), 1);
    // ... except where it is over its caps (a sum of 100 terms): stages.
    let small = program(100, true);
    assert_eq!(check(&small, 100), stages(&small).len() as u64);
    assert!(stages(&small).len() < small.kernel_count());
    drop(registry::uninstall_webgpu());
}

/// Rounds like [`program`]'s whose combine runs a routine: `x = solve(L(b·a), b)` with the
/// unit-lower triangle of the product (a batched triangular solve), then `(x + b) / 2`.
fn routine_program(n: usize) -> Program {
    let closed = trace_fn(&[f32v(&[n, 2, 2])], |v| {
        let cur = rounds(&v[0], n, |a, b| {
            let p = bind(Primitive::Matmul, &[Operand::Value(b), Operand::Value(a)]).unwrap();
            let solve = Primitive::TriangularSolve {
                left_side: true,
                lower: true,
                transpose_a: false,
                unit_diagonal: true,
            };
            let x = bind(solve, &[Operand::Value(&p), Operand::Value(b)]).unwrap();
            lit(BinaryOp::Mul, &bin(BinaryOp::Add, &x, b), 0.5)
        });
        vec![cur]
    });
    lower::lower(&closed.jaxpr, registry::limits(Device::WebGpu))
}

#[test]
fn routines_run_inside_stages_without_halos() {
    registry::install_webgpu(block_on(WebGpuBackend::new(Some(8))).expect("a Vulkan adapter"));
    for n in [100, 1500] {
        let p = routine_program(n);
        let st = stages(&p);
        let body = lower::whole::one_step_loop(&p).expect("a one-step loop").body.clone();
        let routine = |m: &stage_plan::Member| {
            matches!(
                body.steps[m.step],
                oxjax::kernel::device_program::LoopStep::Routine { .. }
            )
        };
        let members: Vec<_> = st.iter().flat_map(|s| &s.members).collect();
        // Every round's solve joined a stage of kernels (none is a stage of its own) ...
        assert!(st.iter().all(|s| s.routine.is_none()), "{st:?}");
        assert!(members.iter().filter(|m| routine(m)).count() >= 7);
        // ... computed by one workgroup per row: no halo (it reads back what it wrote).
        for m in members.iter().filter(|m| routine(m)) {
            assert_eq!((m.ext_lo, m.ext_hi), (0, 0), "{m:?}");
            assert_eq!(m.per_row, 1);
        }
        assert!(st.len() < p.steps.len());
        let want = st.len() as u64;
        assert_eq!(check(&p, n), want);
        assert_eq!(check(&p, n), want, "again, compiled once");
    }
    drop(registry::uninstall_webgpu());
}

/// Three rounds of `v ← (solve(L(v/20), v) + v) / 2` on one 32×32 matrix: a triangular solve
/// large enough for the routine's workgroup-per-matrix form.
fn large_routine_program() -> Program {
    let closed = trace_fn(&[f32v(&[1, 32, 32])], |v| {
        let mut cur = v[0].clone();
        for _ in 0..3 {
            let a = lit(BinaryOp::Mul, &cur, 0.05);
            let solve = Primitive::TriangularSolve {
                left_side: true,
                lower: true,
                transpose_a: false,
                unit_diagonal: true,
            };
            let x = bind(solve, &[Operand::Value(&a), Operand::Value(&cur)]).unwrap();
            cur = lit(BinaryOp::Mul, &bin(BinaryOp::Add, &x, &cur), 0.5);
        }
        vec![cur]
    });
    lower::lower(&closed.jaxpr, registry::limits(Device::WebGpu))
}

#[test]
fn large_routines_keep_their_workgroup_per_matrix() {
    registry::install_webgpu(block_on(WebGpuBackend::new(Some(8))).expect("a Vulkan adapter"));
    let p = large_routine_program();
    let body = lower::whole::one_step_loop(&p).expect("a one-step loop").body.clone();
    let st = stages(&p);
    // A stage runs a routine with one invocation per matrix (one GPU thread for a whole
    // 32×32 solve); each solve is left alone, to run through its own pipeline ...
    let solves: Vec<usize> = (0..body.steps.len())
        .filter(|&k| {
            matches!(
                body.steps[k],
                oxjax::kernel::device_program::LoopStep::Routine { .. }
            )
        })
        .collect();
    assert_eq!(solves.len(), 3, "{}", p.describe());
    for s in &st {
        assert!(s.members.iter().all(|m| !solves.contains(&m.step)), "{st:?}");
    }
    assert_eq!(st.iter().filter(|s| s.routine.is_some()).count(), 3);
    // ... between the staged kernels (the mixed path), with the same values as the cpu
    // device: a dispatch per kernel stage and per solve.
    let run = || webgpu_vs_cpu_square(&p, 1, 32, |_, scale| 1e-5 * scale);
    let want = st.len() as u64;
    assert_eq!(run(), want);
    assert_eq!(run(), want, "again");
    drop(registry::uninstall_webgpu());
}
