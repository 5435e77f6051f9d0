//! The lowering passes (fuse, split, lifetimes) and the jit executor on the `cpu` device:
//! kernel counts of fused programs, kernels within a forced input limit, frees at last use,
//! structural keys and the program cache. Values are checked against float64 formulas.

use crate::common::trace::{bin, data, f32s, f32v, lit, prim, read, trace_fn, un};
use oxjax::backend::registry;
use oxjax::core::key;
use oxjax::core::{Aval, Device, Primitive};
use oxjax::kernel::{BinaryOp, DeviceLimits, ReduceOp, UnaryOp};
use oxjax::lower::{self, Arg, Program, Step};
use oxjax::transform::jit::{execute, Compiled};
use oxjax::transform::runnable::Runnable;
use oxjax::transform::trace::{bind, ClosedJaxpr, Operand, Value};
use oxjax::transform::{jit_cache, ArrayValue};

fn dispatches() -> u64 {
    registry::stats(Device::Cpu).unwrap().dispatches
}

fn close(got: &[f64], want: &[f64]) {
    assert_eq!(got.len(), want.len());
    for (i, (g, w)) in got.iter().zip(want).enumerate() {
        assert!(
            (g - w).abs() <= 1e-5 + 1e-5 * w.abs(),
            "element {i}: {g} vs {w}"
        );
    }
}

fn run(closed: &ClosedJaxpr, args: Vec<ArrayValue>) -> Vec<ArrayValue> {
    let c = Compiled::new(closed.clone());
    let args: Vec<Value> = args.into_iter().map(Value::Concrete).collect();
    let outs = c.call(&args).unwrap();
    outs.into_iter()
        .map(|v| v.concrete("t").unwrap().clone())
        .collect()
}

fn chain(x: &Value) -> Value {
    let a = un(
        UnaryOp::Tanh,
        &lit(BinaryOp::Add, &lit(BinaryOp::Mul, x, 2.0), 1.0),
    );
    let b = un(UnaryOp::Exp, &un(UnaryOp::Neg, x));
    bin(
        BinaryOp::Add,
        &bin(BinaryOp::Mul, &a, &b),
        &un(UnaryOp::Sin, x),
    )
}

#[test]
fn an_elementwise_chain_is_one_kernel() {
    let closed = trace_fn(&[f32v(&[1000])], |x| vec![chain(&x[0])]);
    let p = lower::lower(&closed.jaxpr, DeviceLimits::UNBOUNDED);
    assert_eq!((p.kernel_count(), p.fallback_count()), (1, 0));
    let xs = data(1000, 1.0);
    let before = dispatches();
    let out = run(&closed, vec![f32s(&xs, vec![1000])]);
    assert_eq!(dispatches() - before, 1);
    let want: Vec<f64> = xs
        .iter()
        .map(|&x| (2.0 * x + 1.0).tanh() * (-x).exp() + x.sin())
        .collect();
    close(&read(&out[0]), &want);
}

#[test]
fn elementwise_prologues_fuse_into_reductions() {
    let sum = Primitive::Reduce {
        op: ReduceOp::Sum,
        axes: vec![0],
    };
    let closed = trace_fn(&[f32v(&[500]), f32v(&[500])], |v| {
        vec![prim(sum.clone(), &bin(BinaryOp::Mul, &v[0], &v[1]))]
    });
    let p = lower::lower(&closed.jaxpr, DeviceLimits::UNBOUNDED);
    assert_eq!(p.kernel_count(), 1);
    assert!(p.kernels().all(|k| k.reduction.is_some()));
    let (x, y) = (data(500, 1.0), data(500, 2.0));
    let out = run(&closed, vec![f32s(&x, vec![500]), f32s(&y, vec![500])]);
    let want: f64 = x.iter().zip(&y).map(|(a, b)| a * b).sum();
    close(&read(&out[0]), &[want]);
}

#[test]
fn softmax_is_few_kernels() {
    let (n, m) = (4, 6);
    let keep = |p: Primitive, x: &Value| {
        let r = prim(p, x);
        let b = Primitive::Broadcast {
            shape: vec![n, m],
            axes: vec![0],
        };
        prim(b, &r)
    };
    let closed = trace_fn(&[f32v(&[n, m])], |v| {
        let x = &v[0];
        let max = Primitive::Reduce {
            op: ReduceOp::Max,
            axes: vec![1],
        };
        let sum = Primitive::Reduce {
            op: ReduceOp::Sum,
            axes: vec![1],
        };
        let e = un(UnaryOp::Exp, &bin(BinaryOp::Sub, x, &keep(max, x)));
        vec![bin(BinaryOp::Div, &e, &keep(sum, &e))]
    });
    let p = lower::lower(&closed.jaxpr, DeviceLimits::UNBOUNDED);
    // max, exp(x - max) (two uses), sum, divide.
    assert_eq!(p.kernel_count(), 4, "{}", p.describe());
    let xs = data(n * m, 3.0);
    let out = read(&run(&closed, vec![f32s(&xs, vec![n, m])])[0]);
    let mut want = Vec::new();
    for row in xs.chunks(m) {
        let mx = row.iter().cloned().fold(f64::MIN, f64::max);
        let s: f64 = row.iter().map(|v| (v - mx).exp()).sum();
        want.extend(row.iter().map(|v| (v - mx).exp() / s));
    }
    close(&out, &want);
}

#[test]
fn views_fuse_and_inputs_are_read_through_their_views() {
    // out = transpose(x) * 2 + reshape(b) broadcast over rows: one kernel.
    let closed = trace_fn(&[f32v(&[3, 2]), f32v(&[3])], |v| {
        let t = prim(Primitive::Transpose(vec![1, 0]), &v[0]);
        let b = prim(
            Primitive::Broadcast {
                shape: vec![2, 3],
                axes: vec![1],
            },
            &v[1],
        );
        vec![bin(BinaryOp::Add, &lit(BinaryOp::Mul, &t, 2.0), &b)]
    });
    let p = lower::lower(&closed.jaxpr, DeviceLimits::UNBOUNDED);
    assert_eq!(p.kernel_count(), 1);
    // The argument itself is a transposed view of a [2, 3] buffer.
    let base = data(6, 5.0);
    let x = oxjax::transform::eval::apply(
        &Primitive::Transpose(vec![1, 0]),
        &[&f32s(&base, vec![2, 3])],
    )
    .unwrap();
    assert!(!x.is_dense());
    let b = data(3, 7.0);
    let out = read(&run(&closed, vec![x, f32s(&b, vec![3])])[0]);
    // transpose(transpose(base)) is base.
    let want: Vec<f64> = (0..6).map(|i| base[i] * 2.0 + b[i % 3]).collect();
    close(&out, &want);
}

#[test]
fn shared_values_are_stored_unless_cheap() {
    // exp(x) has two uses and is stored; 2x has two uses and is recomputed.
    let closed = trace_fn(&[f32v(&[10])], |v| {
        let e = un(UnaryOp::Exp, &v[0]);
        let d = lit(BinaryOp::Mul, &v[0], 2.0);
        let a = bin(BinaryOp::Mul, &e, &d);
        let b = bin(BinaryOp::Add, &e, &d);
        vec![bin(BinaryOp::Sub, &a, &b)]
    });
    let p = lower::lower(&closed.jaxpr, DeviceLimits::UNBOUNDED);
    assert_eq!(p.kernel_count(), 2, "{}", p.describe());
    let xs = data(10, 0.5);
    let out = read(&run(&closed, vec![f32s(&xs, vec![10])])[0]);
    let want: Vec<f64> = xs
        .iter()
        .map(|&x| x.exp() * 2.0 * x - (x.exp() + 2.0 * x))
        .collect();
    close(&out, &want);
}

fn sum_of(n: usize) -> ClosedJaxpr {
    let avals: Vec<Aval> = (0..n).map(|_| f32v(&[8])).collect();
    trace_fn(&avals, |v| {
        let mut acc = v[0].clone();
        for (i, x) in v.iter().enumerate().skip(1) {
            // Alternate shapes of the tree: a chain, with a product every third input.
            acc = if i % 3 == 0 {
                bin(BinaryOp::Add, &acc, &bin(BinaryOp::Mul, x, &v[i - 1]))
            } else {
                bin(BinaryOp::Add, &acc, x)
            };
        }
        vec![acc]
    })
}

#[test]
fn kernels_stay_within_the_input_limit() {
    let n = 20;
    let closed = sum_of(n);
    let inputs: Vec<Vec<f64>> = (0..n).map(|i| data(8, i as f64)).collect();
    let want: Vec<f64> = (0..8)
        .map(|k| {
            let mut acc = inputs[0][k];
            for i in 1..n {
                acc += if i % 3 == 0 {
                    inputs[i][k] * inputs[i - 1][k]
                } else {
                    inputs[i][k]
                };
            }
            acc
        })
        .collect();
    let unbounded = lower::lower(&closed.jaxpr, DeviceLimits::UNBOUNDED);
    assert_eq!(unbounded.kernel_count(), 1);
    for max in [2, 3, 7] {
        let limits = DeviceLimits {
            max_kernel_inputs: max,
            inline_terms: 0,
        };
        let p = lower::lower(&closed.jaxpr, limits);
        assert!(p.kernels().all(|k| k.inputs.len() <= max), "limit {max}");
        assert!(p.kernel_count() >= (n - 1).div_ceil(max - 1), "limit {max}");
        let args: Vec<ArrayValue> = inputs.iter().map(|d| f32s(d, vec![8])).collect();
        let out = execute(&Runnable::new(p.clone()), args, Device::Cpu).unwrap();
        close(&read(&out[0]), &want);
    }
}

#[test]
fn an_equation_over_the_limit_runs_as_a_fallback() {
    let avals: Vec<Aval> = (0..10).map(|_| f32v(&[2])).collect();
    let closed = trace_fn(&avals, |v| {
        let ops: Vec<Operand> = v.iter().map(Operand::Value).collect();
        vec![bind(Primitive::Concatenate(0), &ops).unwrap()]
    });
    let p = lower::lower(
        &closed.jaxpr,
        DeviceLimits {
            max_kernel_inputs: 7,
            inline_terms: 0,
        },
    );
    assert_eq!((p.kernel_count(), p.fallback_count()), (0, 1));
    let inputs: Vec<Vec<f64>> = (0..10).map(|i| data(2, i as f64)).collect();
    let args: Vec<ArrayValue> = inputs.iter().map(|d| f32s(d, vec![2])).collect();
    let out = execute(&Runnable::new(p.clone()), args, Device::Cpu).unwrap();
    close(&read(&out[0]), &inputs.concat());
}

/// Every non-output slot is freed once, after the last step that reads it.
fn check_lifetimes(p: &Program) {
    let reads = |s: &Step| -> Vec<usize> {
        match s {
            Step::Kernel { inputs, .. } => inputs.clone(),
            Step::Fallback { inputs, .. } => inputs
                .iter()
                .filter_map(|a| match a {
                    Arg::Slot(s) => Some(*s),
                    Arg::Literal(..) => None,
                })
                .collect(),
        }
    };
    let mut freed = vec![0; p.avals.len()];
    for (i, frees) in p.frees.iter().enumerate() {
        for &s in frees {
            freed[s] += 1;
            assert!(p.steps[i + 1..].iter().all(|st| !reads(st).contains(&s)));
            assert!(reads(&p.steps[i]).contains(&s) || s >= p.inputs);
        }
    }
    for (s, &n) in freed.iter().enumerate() {
        let output = p.outputs.contains(&Arg::Slot(s));
        let used = p.steps.iter().any(|st| reads(st).contains(&s));
        let expected = usize::from(!output && (used || s >= p.inputs));
        assert_eq!(n, expected, "slot {s}");
    }
}

#[test]
fn intermediates_are_freed_at_their_last_use() {
    let closed = sum_of(20);
    let p = lower::lower(
        &closed.jaxpr,
        DeviceLimits {
            max_kernel_inputs: 3,
            inline_terms: 0,
        },
    );
    assert!(p.kernel_count() > 5);
    check_lifetimes(&p);
    // While it runs, at most a few intermediates are alive: buffers return to the inputs'.
    let args: Vec<ArrayValue> = (0..20).map(|i| f32s(&data(8, i as f64), vec![8])).collect();
    let before = registry::stats(Device::Cpu).unwrap().live_buffers;
    let out = execute(&Runnable::new(p.clone()), args, Device::Cpu).unwrap();
    let after = registry::stats(Device::Cpu).unwrap().live_buffers;
    assert_eq!(after + 20, before + 1, "only the output remains");
    drop(out);
}

#[test]
fn lowering_hands_the_program_to_its_caller_after_each_pass() {
    let closed = sum_of(20);
    let limits = DeviceLimits {
        max_kernel_inputs: 3,
        inline_terms: 0,
    };
    let mut seen: Vec<(&str, Program)> = Vec::new();
    let full = lower::Fusion::Full;
    let p = lower::lower_traced(&closed.jaxpr, limits, full, &mut |name, p| {
        seen.push((name, p.clone()))
    });
    let names: Vec<&str> = seen.iter().map(|(n, _)| *n).collect();
    assert_eq!(names, ["fuse", "lifetimes"]);
    let listed: Vec<&str> = lower::PASSES.iter().map(|(n, _)| *n).collect();
    assert_eq!(names[1..], listed[..]);
    // Fusion frees nothing; the lifetimes pass frees every intermediate once.
    assert!(seen[0].1.frees.iter().all(|f| f.is_empty()));
    assert!(!seen[0].1.describe().contains("free"));
    check_lifetimes(&seen[1].1);
    assert!(seen[1].1.describe().contains("; free ["));
    assert_eq!(seen[1].1, p);
    assert_eq!(p, lower::lower(&closed.jaxpr, limits));
}

#[test]
fn set_debug_level_3_records_the_program_after_each_pass() {
    jit_cache::set_logging(3);
    let runnable = Compiled::new(sum_of(6)).program(Device::Cpu);
    let lowered = jit_cache::take_lowered();
    jit_cache::set_logging(0);
    assert_eq!(lowered.len(), 1);
    let names: Vec<&str> = lowered[0].passes.iter().map(|(n, _)| *n).collect();
    assert_eq!(names, ["fuse", "lifetimes"]);
    assert_eq!(lowered[0].passes[1].1, runnable.program.describe());
    // Level 1 records the Program without its passes; level 0 records nothing.
    jit_cache::set_logging(1);
    Compiled::new(sum_of(5)).program(Device::Cpu);
    let lowered = jit_cache::take_lowered();
    jit_cache::set_logging(0);
    assert_eq!(lowered.len(), 1);
    assert!(lowered[0].passes.is_empty());
    Compiled::new(sum_of(4)).program(Device::Cpu);
    assert!(jit_cache::take_lowered().is_empty());
}

#[test]
fn structural_keys_ignore_numbering_and_constant_values() {
    let make = |c: f64, literal: f64| {
        let k = f32s(&[c, c], vec![2]);
        trace_fn(&[f32v(&[2])], |v| {
            let kv = Value::Concrete(k.clone());
            vec![lit(BinaryOp::Mul, &bin(BinaryOp::Add, &v[0], &kv), literal)]
        })
    };
    let (a, b, c) = (make(1.0, 3.0), make(2.0, 3.0), make(1.0, 4.0));
    assert_eq!(key::structural_key(&a.jaxpr), key::structural_key(&b.jaxpr));
    assert_ne!(key::structural_key(&a.jaxpr), key::structural_key(&c.jaxpr));
    // A fresh trace of the same code finds the lowered program in the cache.
    jit_cache::clear();
    let before = jit_cache::stats();
    let x = f32s(&[1.0, 2.0], vec![2]);
    let out_a = run(&a, vec![x.clone()]);
    let out_b = run(&b, vec![x]);
    let after = jit_cache::stats();
    assert_eq!(after.misses - before.misses, 1);
    assert_eq!(after.hits - before.hits, 1);
    assert_eq!(after.entries, 1);
    close(&read(&out_a[0]), &[6.0, 9.0]);
    close(&read(&out_b[0]), &[9.0, 12.0]);
}

#[test]
fn long_dependent_chains_are_cut_into_shallow_kernels() {
    // x ← x·0.99 + 1, a thousand times: every value has one use, so fusion alone would make
    // one tree a thousand levels deep.
    let n = 1000;
    let closed = trace_fn(&[f32v(&[4])], |v| {
        let mut x = v[0].clone();
        for _ in 0..n {
            x = lit(BinaryOp::Add, &lit(BinaryOp::Mul, &x, 0.99), 1.0);
        }
        vec![x]
    });
    let p = lower::lower(&closed.jaxpr, DeviceLimits::UNBOUNDED);
    let max = oxjax::lower::expr::MAX_DEPTH;
    assert!(p
        .kernels()
        .all(|k| oxjax::lower::expr::depth(&k.exp) <= 2 * max));
    assert!(
        p.kernel_count() >= 2 * n / max,
        "{} kernels",
        p.kernel_count()
    );
    let xs = [0.0, 1.0, -2.0, 50.0];
    let out = read(&run(&closed, vec![f32s(&xs, vec![4])])[0]);
    let want: Vec<f64> = xs
        .iter()
        .map(|&x0| (0..n).fold(x0, |x, _| x * 0.99 + 1.0))
        .collect();
    for (g, w) in out.iter().zip(&want) {
        assert!((g - w).abs() <= 1e-3 * w.abs(), "{g} vs {w}");
    }
}
