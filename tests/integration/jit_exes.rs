//! The jit executor keeps each kernel step's compiled id beside the Program
//! (`transform::runnable`): a
//! repeated call does no compile-cache lookups, and ids kept before the backend's cache
//! evicted or cleared are dropped. Checked on the `cpu` device through its cache counters,
//! with values against float64 formulas.

use crate::common::trace::{f32v, lit, read, trace_fn};
use oxjax::backend::registry;
use oxjax::core::{Device, Primitive};
use oxjax::kernel::{BinaryOp, DeviceLimits, ReduceOp, UnaryOp};
use oxjax::lower;
use oxjax::transform::jit::execute;
use oxjax::transform::runnable::Runnable;
use oxjax::transform::trace::{bind, ClosedJaxpr, Operand};
use oxjax::transform::ArrayValue;

fn f32s(data: &[f64]) -> ArrayValue {
    crate::common::trace::f32s(data, vec![data.len()])
}

/// (lookups, dispatches) of the cpu backend's compile cache so far.
fn counters() -> (u64, u64) {
    let s = registry::stats(Device::Cpu).unwrap();
    (s.kernel_cache.hits + s.kernel_cache.misses, s.dispatches)
}

/// exp(x·2+1) then a sum, then the sum times x: several kernel steps.
fn program() -> (ClosedJaxpr, Runnable) {
    let closed = trace_fn(&[f32v(&[4])], |v| {
        let e = bind(
            Primitive::Unary(UnaryOp::Exp),
            &[Operand::Value(&lit(
                BinaryOp::Add,
                &lit(BinaryOp::Mul, &v[0], 0.5),
                1.0,
            ))],
        )
        .unwrap();
        let sum = Primitive::Reduce {
            op: ReduceOp::Sum,
            axes: vec![0],
        };
        let s = bind(sum, &[Operand::Value(&e)]).unwrap();
        let broadcast = Primitive::Broadcast {
            shape: vec![4],
            axes: vec![],
        };
        let s = bind(broadcast, &[Operand::Value(&s)]).unwrap();
        let y = bind(
            Primitive::Binary(BinaryOp::Mul),
            &[Operand::Value(&v[0]), Operand::Value(&s)],
        )
        .unwrap();
        vec![y, e]
    });
    let p = lower::lower(&closed.jaxpr, DeviceLimits::UNBOUNDED);
    (closed, Runnable::new(p))
}

fn want(xs: &[f64]) -> Vec<f64> {
    let s: f64 = xs.iter().map(|x| (x * 0.5 + 1.0).exp()).sum();
    xs.iter().map(|x| x * s).collect()
}

#[test]
fn repeated_calls_do_no_compile_lookups() {
    let (_closed, p) = program();
    let kernels = p.program.kernel_count() as u64;
    assert!(kernels >= 2, "{kernels} kernels");
    let xs = [0.5, -1.0, 2.0, 0.0];
    let (l0, d0) = counters();
    let first = execute(&p, vec![f32s(&xs)], Device::Cpu).unwrap();
    let (l1, d1) = counters();
    assert_eq!((l1 - l0, d1 - d0), (kernels, kernels));
    for _ in 0..3 {
        let out = execute(&p, vec![f32s(&xs)], Device::Cpu).unwrap();
        assert_eq!(read(&out[0]), read(&first[0]));
    }
    let (l2, d2) = counters();
    assert_eq!((l2 - l1, d2 - d1), (0, 3 * kernels));
    let got = read(&first[0]);
    for (g, w) in got.iter().zip(want(&xs)) {
        assert!((g - w).abs() <= 1e-5 * w.abs(), "{g} vs {w}");
    }
}

#[test]
fn kept_ids_are_dropped_when_the_backend_cache_evicts() {
    let (_closed, p) = program();
    let kernels = p.program.kernel_count() as u64;
    let xs = [1.0, 2.0, -0.25, 3.0];
    execute(&p, vec![f32s(&xs)], Device::Cpu).unwrap();
    // Compile more distinct kernels than the cpu cache holds: every kept id is evicted.
    let generation = registry::with_backend("t", Device::Cpu, |b| Ok(b.exe_generation())).unwrap();
    let capacity = registry::stats(Device::Cpu).unwrap().kernel_cache.capacity;
    for i in 0..=capacity {
        let c = trace_fn(&[f32v(&[4])], |v| {
            vec![lit(BinaryOp::Add, &v[0], i as f64 + 0.5)]
        });
        let other = Runnable::new(lower::lower(&c.jaxpr, DeviceLimits::UNBOUNDED));
        execute(&other, vec![f32s(&xs)], Device::Cpu).unwrap();
    }
    let now = registry::with_backend("t", Device::Cpu, |b| Ok(b.exe_generation())).unwrap();
    assert_ne!(now, generation);
    let (l0, _) = counters();
    let out = execute(&p, vec![f32s(&xs)], Device::Cpu).unwrap();
    let (l1, _) = counters();
    assert_eq!(l1 - l0, kernels, "the evicted ids are looked up again");
    let got = read(&out[0]);
    for (g, w) in got.iter().zip(want(&xs)) {
        assert!((g - w).abs() <= 1e-5 * w.abs(), "{g} vs {w}");
    }
    // Kept again once a call compiled nothing new (compiling above evicted other ids).
    execute(&p, vec![f32s(&xs)], Device::Cpu).unwrap();
    let (l2, _) = counters();
    execute(&p, vec![f32s(&xs)], Device::Cpu).unwrap();
    assert_eq!(counters().0, l2);
}

#[test]
fn kept_ids_are_dropped_when_the_caches_are_cleared() {
    let (_closed, p) = program();
    let kernels = p.program.kernel_count() as u64;
    let xs = [0.25, 1.5, -3.0, 2.0];
    execute(&p, vec![f32s(&xs)], Device::Cpu).unwrap();
    registry::clear_caches();
    assert_eq!(
        registry::stats(Device::Cpu).unwrap().kernel_cache.entries,
        0
    );
    let (l0, _) = counters();
    let out = execute(&p, vec![f32s(&xs)], Device::Cpu).unwrap();
    assert_eq!(counters().0 - l0, kernels, "compiled again");
    let got = read(&out[0]);
    for (g, w) in got.iter().zip(want(&xs)) {
        assert!((g - w).abs() <= 1e-5 * w.abs(), "{g} vs {w}");
    }
}
