//! Small sums written out in their consumer (`lower::inline_sum`), lowered with webgpu's
//! limits and run on the `cpu` device: the kernel counts of chains of batched small matrix
//! products (and with the cpu's and wasm's limits, which keep every product's kernel), jitted results equal to the eager
//! ones bit for bit (eager runs each product as a kernel of its own, in the kernel's order)
//! and close to float64 products; products with more terms, more uses or more reads per
//! element keep their kernels.

use crate::common::trace::{bin, data, f32s, f32v, lit, op, read, trace_fn, un};
use oxjax::core::Primitive;
use oxjax::kernel::{BinaryOp, DeviceLimits, UnaryOp};
use oxjax::lower;
use oxjax::transform::jit::Compiled;
use oxjax::transform::trace::Value;

const B: usize = 7;

/// Webgpu's limits: any number of inputs, sums of up to three terms written out.
const GPU: DeviceLimits = DeviceLimits {
    max_kernel_inputs: usize::MAX,
    inline_terms: oxjax::backend::webgpu::INLINE_TERMS,
};

fn mm(a: &Value, b: &Value) -> Value {
    op(Primitive::Matmul, &[a, b])
}

/// Runs `f` over inputs of `shapes` jitted and eagerly; checks the kernel count and that both
/// agree bit for bit; returns the inputs and the jitted result.
fn check(
    shapes: &[&[usize]],
    f: impl Fn(&[Value]) -> Value,
    kernels: usize,
) -> (Vec<Vec<f64>>, Vec<f64>) {
    let avals: Vec<_> = shapes.iter().map(|s| f32v(s)).collect();
    let closed = trace_fn(&avals, |v| vec![f(v)]);
    let p = lower::lower(&closed.jaxpr, GPU);
    assert_eq!(p.kernel_count(), kernels, "{}", p.describe());
    let xs: Vec<Vec<f64>> = shapes
        .iter()
        .enumerate()
        .map(|(k, s)| data(s.iter().product(), k as f64 + 1.0))
        .collect();
    let args: Vec<Value> = xs
        .iter()
        .zip(shapes)
        .map(|(x, s)| Value::Concrete(f32s(x, s.to_vec())))
        .collect();
    let jitted = Compiled::new(closed).call(&args).unwrap();
    let jitted = read(jitted[0].concrete("t").unwrap());
    let eager = read(f(&args).concrete("t").unwrap());
    assert_eq!(jitted, eager, "jit vs eager");
    (xs, jitted)
}

/// The float64 batched product of `a` [B, n, k] and `b` [B, k, m].
fn product(a: &[f64], b: &[f64], (n, k, m): (usize, usize, usize)) -> Vec<f64> {
    let mut out = vec![0.0; B * n * m];
    for t in 0..B {
        for i in 0..n {
            for j in 0..m {
                out[(t * n + i) * m + j] = (0..k)
                    .map(|r| a[(t * n + i) * k + r] * b[(t * k + r) * m + j])
                    .sum();
            }
        }
    }
    out
}

fn close(got: &[f64], want: &[f64], tol: f64) {
    assert_eq!(got.len(), want.len());
    for (g, w) in got.iter().zip(want) {
        assert!((g - w).abs() <= tol * (1.0 + w.abs()), "{g} vs {w}");
    }
}

#[test]
fn a_chain_of_2x2_products_is_one_kernel() {
    // (a·b)·c + a, scaled: each product has one use, two terms, and its consumer reads each of
    // its elements twice.
    let sq: &[usize] = &[B, 2, 2];
    let (xs, got) = check(
        &[sq, sq, sq],
        |v| {
            let abc = mm(&mm(&v[0], &v[1]), &v[2]);
            lit(BinaryOp::Mul, &bin(BinaryOp::Add, &abc, &v[0]), 0.5)
        },
        1,
    );
    let ab = product(&xs[0], &xs[1], (2, 2, 2));
    let abc = product(&ab, &xs[2], (2, 2, 2));
    let want: Vec<f64> = abc.iter().zip(&xs[0]).map(|(p, a)| 0.5 * (p + a)).collect();
    close(&got, &want, 1e-6);
    // The cpu's and wasm's limits keep each product's kernel.
    let sq = f32v(&[B, 2, 2]);
    let closed = trace_fn(&[sq.clone(), sq.clone(), sq], |v| {
        vec![bin(BinaryOp::Add, &mm(&mm(&v[0], &v[1]), &v[2]), &v[0])]
    });
    assert_eq!(lower::lower(&closed.jaxpr, DeviceLimits::UNBOUNDED).kernel_count(), 3);
}

#[test]
fn an_outer_product_with_an_epilogue_is_written_out() {
    // One term: the float32 sum of one product is the product, whatever the order.
    let (xs, got) = check(
        &[&[B, 3, 1], &[B, 1, 3], &[B, 3, 3]],
        |v| {
            let e = un(UnaryOp::Exp, &lit(BinaryOp::Mul, &mm(&v[0], &v[1]), 0.25));
            bin(BinaryOp::Sub, &e, &v[2])
        },
        1,
    );
    let want: Vec<f64> = product(&xs[0], &xs[1], (3, 1, 3))
        .iter()
        .zip(&xs[2])
        .map(|(p, c)| (0.25 * p).exp() - c)
        .collect();
    close(&got, &want, 1e-6);
}

#[test]
fn larger_shared_or_often_read_products_keep_their_kernels() {
    let six: &[usize] = &[B, 6, 6];
    // Six terms: a kernel of its own, then the sum.
    check(&[six, six], |v| bin(BinaryOp::Add, &mm(&v[0], &v[1]), &v[0]), 2);
    check(&[six, six, six], |v| mm(&mm(&v[0], &v[1]), &v[2]), 2);
    // Two uses.
    let sq: &[usize] = &[B, 2, 2];
    check(
        &[sq, sq],
        |v| {
            let p = mm(&v[0], &v[1]);
            bin(BinaryOp::Mul, &p, &un(UnaryOp::Exp, &p))
        },
        2,
    );
    // An outer product of 5-vectors read five times per element by the product after it.
    check(
        &[&[B, 5, 1], &[B, 1, 5], &[B, 5, 5]],
        |v| mm(&mm(&v[0], &v[1]), &v[2]),
        2,
    );
}
