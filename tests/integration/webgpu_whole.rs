//! Whole jitted programs as ONE webgpu dispatch (`lower::whole`, `Backend::compile_program`),
//! natively on wgpu over Vulkan (lavapipe) with the storage-buffer limit forced to 8: a Program
//! of many small kernels (a chain of batched 2×2 matmuls, as an `associativeScan` round makes)
//! is one dispatch per call; outputs that are inputs, duplicates or literals come out right;
//! a Program with few kernels runs kernel by kernel; one with a kernel too large for one
//! workgroup, or with a dependent chain longer than the barrier cap (slow to compile on
//! software adapters), runs as row-partitioned stages (`tests/integration/webgpu_stages.rs`). Oracle: the same Program on the `cpu` device.

use crate::common::block_on;
use crate::common::program::webgpu_vs_cpu;
use crate::common::trace::{f32v, lit, trace_fn};
use oxjax::backend::registry;
use oxjax::backend::caps::{
    WEBGPU_STAGE_MAX_LEVELS, WEBGPU_WORKGROUP_MAX_BARRIERS, WEBGPU_WORKGROUP_MAX_BARRIERS_CPU,
    WEBGPU_WORKGROUP_MAX_KERNELS, WHOLE_MIN_STEPS,
};
use oxjax::backend::webgpu::WebGpuBackend;
use oxjax::core::{Device, Primitive};
use oxjax::kernel::BinaryOp;
use oxjax::lower::{self, Program};
use oxjax::transform::trace::{bind, Operand, Value};

fn matmul(a: &Value, b: &Value) -> Value {
    bind(Primitive::Matmul, &[Operand::Value(a), Operand::Value(b)]).unwrap()
}

/// `k` chained batched matmuls y ← y·A + A over A [n, 2, 2] (one kernel each: a matmul's
/// result is read twice per element by the next, so it is not fused into it); outputs: the
/// last y, A itself, the last y again and y·2.
fn program(n: usize, k: usize) -> Program {
    let closed = trace_fn(&[f32v(&[n, 2, 2])], |v| {
        let mut y = v[0].clone();
        for _ in 0..k {
            let p = matmul(&y, &v[0]);
            y = bind(
                Primitive::Binary(BinaryOp::Add),
                &[Operand::Value(&p), Operand::Value(&v[0])],
            )
            .unwrap();
            y = lit(BinaryOp::Mul, &y, 0.5);
        }
        let twice = lit(BinaryOp::Mul, &y, 2.0);
        vec![y.clone(), v[0].clone(), y, twice]
    });
    lower::lower(&closed.jaxpr, registry::limits(Device::WebGpu))
}

/// Runs `p` on webgpu and cpu, compares, and returns the webgpu dispatches of the run.
fn check(p: &Program, n: usize) -> u64 {
    webgpu_vs_cpu(p, n, |b, _| 1e-5 * (1.0 + b.abs()))
}

#[test]
fn small_programs_are_one_dispatch() {
    registry::install_webgpu(block_on(WebGpuBackend::new(Some(8))).expect("a Vulkan adapter"));
    let p = program(100, 9);
    assert!(p.kernel_count() >= 9, "{}", p.describe());
    assert_eq!(check(&p, 100), 1);
    // Again: the compiled id kept with the Program, still one dispatch.
    assert_eq!(check(&p, 100), 1);
    // A kernel of 4 × 3000 elements is more than one workgroup should do: row-partitioned
    // stages (`program::stages`); the chain is row-local, so all of it is one stage.
    let big = program(3000, 9);
    assert_eq!(check(&big, 3000), 1);
    // Few kernels: kernel by kernel.
    let few = program(100, 2);
    assert!(few.kernel_count() < WHOLE_MIN_STEPS);
    assert_eq!(check(&few, 100), few.kernel_count() as u64);
    // A dependent chain of more levels than one shader may have barriers (each matmul waits
    // for the previous one): stages of at most WEBGPU_STAGE_MAX_LEVELS levels each.
    let long = program(16, 60);
    assert!(
        long.kernel_count() <= WEBGPU_WORKGROUP_MAX_KERNELS,
        "{}",
        long.kernel_count()
    );
    assert!(
        long.kernel_count() > WEBGPU_WORKGROUP_MAX_BARRIERS,
        "{}",
        long.kernel_count()
    );
    let levels = WEBGPU_STAGE_MAX_LEVELS;
    let want = long.kernel_count().div_ceil(levels) as u64;
    assert_eq!(check(&long, 16), want, "{} kernels", long.kernel_count());
    // Just under the cap (lavapipe is a CPU adapter: its tighter cap): one dispatch.
    let chain = program(16, WEBGPU_WORKGROUP_MAX_BARRIERS_CPU / 2);
    assert_eq!(check(&chain, 16), 1);
    drop(registry::uninstall_webgpu());
}
