//! Epilogue fusion (`lower::epilogue`) on the `cpu` device: elementwise operations on a
//! reduction's result run in the reduction's kernel. Kernel counts of mean, a layer norm and a
//! log-sum-exp; jitted results equal to the eager ones bit for bit (the same operations in the
//! same order) and close to float64 formulas; no folding where the result has other uses.

use crate::common::trace::{bin, data, f32s, f32v, lit, prim, read, trace_fn, un};
use oxjax::core::Primitive;
use oxjax::kernel::{BinaryOp, DeviceLimits, ReduceOp, UnaryOp};
use oxjax::lower;
use oxjax::transform::jit::Compiled;
use oxjax::transform::trace::Value;

const N: usize = 5;
const M: usize = 12;

fn reduce(op: ReduceOp, x: &Value) -> Value {
    prim(Primitive::Reduce { op, axes: vec![1] }, x)
}

/// `r` ([N]) broadcast back along the reduced axis.
fn keep(r: &Value) -> Value {
    let b = Primitive::Broadcast {
        shape: vec![N, M],
        axes: vec![0],
    };
    prim(b, r)
}

fn mean(x: &Value) -> Value {
    lit(BinaryOp::Div, &reduce(ReduceOp::Sum, x), M as f64)
}

/// (x − mean) / sqrt(var + 1e-5), per row.
fn layer_norm(x: &Value) -> Value {
    let centered = bin(BinaryOp::Sub, x, &keep(&mean(x)));
    let var = mean(&bin(BinaryOp::Mul, &centered, &centered));
    let scale = un(UnaryOp::Sqrt, &lit(BinaryOp::Add, &var, 1e-5));
    bin(BinaryOp::Div, &centered, &keep(&scale))
}

/// log Σ exp(x), per row (no max shift: the data is small).
fn log_sum_exp(x: &Value) -> Value {
    un(UnaryOp::Log, &reduce(ReduceOp::Sum, &un(UnaryOp::Exp, x)))
}

/// Runs `f` jitted and eagerly on `xs` ([N, M]); checks the kernel count, that both agree bit
/// for bit, and returns the jitted result.
fn check(f: fn(&Value) -> Value, kernels: usize, xs: &[f64]) -> Vec<f64> {
    let closed = trace_fn(&[f32v(&[N, M])], |v| vec![f(&v[0])]);
    let p = lower::lower(&closed.jaxpr, DeviceLimits::UNBOUNDED);
    assert_eq!(p.kernel_count(), kernels, "{}", p.describe());
    let x = f32s(xs, vec![N, M]);
    let jitted = Compiled::new(closed).call(&[Value::Concrete(x.clone())]);
    let jitted = read(jitted.unwrap()[0].concrete("t").unwrap());
    let eager = f(&Value::Concrete(x));
    let eager = read(eager.concrete("t").unwrap());
    assert_eq!(jitted, eager, "jit vs eager");
    jitted
}

fn close(got: &[f64], want: &[f64], tol: f64) {
    assert_eq!(got.len(), want.len());
    for (g, w) in got.iter().zip(want) {
        assert!((g - w).abs() <= tol * (1.0 + w.abs()), "{g} vs {w}");
    }
}

fn rows(xs: &[f64]) -> impl Iterator<Item = &[f64]> {
    xs.chunks(M)
}

#[test]
fn mean_is_one_kernel() {
    let xs = data(N * M, 1.0);
    let got = check(mean, 1, &xs);
    let want: Vec<f64> = rows(&xs)
        .map(|r| r.iter().sum::<f64>() / M as f64)
        .collect();
    close(&got, &want, 1e-6);
    let closed = trace_fn(&[f32v(&[N, M])], |v| vec![mean(&v[0])]);
    let p = lower::lower(&closed.jaxpr, DeviceLimits::UNBOUNDED);
    assert!(p.kernels().all(|k| k.epilogue.is_some()));
}

#[test]
fn a_layer_norm_is_four_kernels() {
    // The mean (its /M fuses into its consumer anyway), the centred values (three uses), the
    // variance with its epilogue (/M, +ε, sqrt: one kernel instead of two) and the output.
    let xs = data(N * M, 2.0);
    let got = check(layer_norm, 4, &xs);
    let mut want = Vec::new();
    for r in rows(&xs) {
        let m = r.iter().sum::<f64>() / M as f64;
        let var = r.iter().map(|x| (x - m) * (x - m)).sum::<f64>() / M as f64;
        want.extend(r.iter().map(|x| (x - m) / (var + 1e-5).sqrt()));
    }
    close(&got, &want, 1e-5);
}

#[test]
fn log_sum_exp_is_one_kernel() {
    let xs = data(N * M, 3.0);
    let got = check(log_sum_exp, 1, &xs);
    let want: Vec<f64> = rows(&xs)
        .map(|r| r.iter().map(|x| x.exp()).sum::<f64>().ln())
        .collect();
    close(&got, &want, 1e-6);
}

#[test]
fn results_with_other_uses_are_not_folded() {
    // s has two uses: both consumers read it from its slot.
    let two_uses = |x: &Value| {
        let s = reduce(ReduceOp::Sum, x);
        bin(
            BinaryOp::Mul,
            &lit(BinaryOp::Mul, &s, 0.5),
            &un(UnaryOp::Exp, &s),
        )
    };
    let xs = data(N * M, 4.0);
    let got = check(two_uses, 2, &xs);
    let want: Vec<f64> = rows(&xs)
        .map(|r| {
            let s: f64 = r.iter().sum();
            0.5 * s * s.exp()
        })
        .collect();
    close(&got, &want, 1e-5);
    // An operand that is another array is not part of an epilogue either.
    let with_array = |x: &Value| {
        let m = reduce(ReduceOp::Max, x);
        bin(BinaryOp::Add, &reduce(ReduceOp::Sum, x), &m)
    };
    let got = check(with_array, 3, &xs);
    let want: Vec<f64> = rows(&xs)
        .map(|r| r.iter().sum::<f64>() + r.iter().cloned().fold(f64::MIN, f64::max))
        .collect();
    close(&got, &want, 1e-5);
}
