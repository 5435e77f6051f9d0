//! Fusion barriers (`lower::barrier`, `Fusion::Barriers`) on the `cpu` device: the computed
//! operand of a float sum, product, matrix product or convolution is a kernel of its own,
//! before any views of it, so the reducing kernel and its summation order (`kernel::order`) are
//! those of the eager operation, and the compiled results equal the eager ones bit for bit
//! (the interpreter is the oracle). Fully fused, the same programs reduce in another order.

use crate::common::trace::{bin, data, f32s, f32v, lit, op, prim, read, trace_fn};
use oxjax::core::Primitive;
use oxjax::kernel::{order, BinaryOp, DeviceLimits, Kernel, ReduceOp};
use oxjax::lower::{self, barrier, Fusion};
use oxjax::transform::jit::Compiled;
use oxjax::transform::trace::Value;

const ROWS: usize = 40;
const COLS: usize = 6;

fn sum(axes: Vec<usize>, x: &Value) -> Value {
    let p = Primitive::Reduce {
        op: ReduceOp::Sum,
        axes,
    };
    prim(p, x)
}

fn square(x: &Value) -> Value {
    bin(BinaryOp::Mul, x, x)
}

/// Σ over rows of x² ([ROWS, COLS] → [COLS]): a strided float32 sum.
fn sum_of_squares(x: &Value) -> Value {
    sum(vec![0], &square(x))
}

/// The same sum read through a transpose of the squares (a view kept as a view).
fn sum_through_view(x: &Value) -> Value {
    let t = prim(Primitive::Transpose(vec![1, 0]), &square(x));
    sum(vec![1], &t)
}

/// A matrix product of a computed operand (cheap enough to fuse): (x · 3)ᵀ · x.
fn product(x: &Value) -> Value {
    let t = prim(Primitive::Transpose(vec![1, 0]), &lit(BinaryOp::Mul, x, 3.0));
    op(Primitive::Matmul, &[&t, x])
}

/// The kernels of `f`'s Program lowered with `fusion`.
fn kernels(f: fn(&Value) -> Value, fusion: Fusion) -> Vec<Kernel> {
    let closed = trace_fn(&[f32v(&[ROWS, COLS])], |v| vec![f(&v[0])]);
    let p = lower::lower_traced(&closed.jaxpr, DeviceLimits::UNBOUNDED, fusion, &mut |_, _| {});
    p.kernels().cloned().collect()
}

/// `f` compiled with barriers and eagerly on the same data: the same bits.
fn same_bits(f: fn(&Value) -> Value) {
    let closed = trace_fn(&[f32v(&[ROWS, COLS])], |v| vec![f(&v[0])]);
    let x = f32s(&data(ROWS * COLS, 0.5), vec![ROWS, COLS]);
    let compiled = Compiled::with_fusion(closed, Fusion::Barriers);
    let got = compiled.call(&[Value::Concrete(x.clone())]).unwrap();
    let got = read(got[0].concrete("t").unwrap());
    let want = read(f(&Value::Concrete(x)).concrete("t").unwrap());
    let bits = |v: &[f64]| v.iter().map(|x| (*x as f32).to_bits()).collect::<Vec<_>>();
    assert_eq!(bits(&got), bits(&want));
}

#[test]
fn a_computed_operand_of_a_float_sum_is_its_own_kernel() {
    // Fused, the sum's expression is x · x, strided: accumulated in float32 (`order::narrow`);
    // the eager sum reads the buffer of squares and accumulates in float64.
    let full = kernels(sum_of_squares, Fusion::Full);
    assert_eq!(full.len(), 1);
    assert!(order::narrow(&full[0]));
    let kept = kernels(sum_of_squares, Fusion::Barriers);
    assert_eq!(kept.len(), 2);
    assert!(kept[0].reduction.is_none());
    assert!(order::wide(&kept[1]) && !order::narrow(&kept[1]));
    same_bits(sum_of_squares);
}

#[test]
fn views_between_the_value_and_the_reduction_stay_views() {
    let kept = kernels(sum_through_view, Fusion::Barriers);
    assert_eq!(kept.len(), 2, "the squares, then the sum through the transpose");
    assert_eq!(kept[0].size, ROWS * COLS);
    same_bits(sum_through_view);
}

#[test]
fn products_of_computed_operands_read_them_from_buffers() {
    assert_eq!(kernels(product, Fusion::Full).len(), 1);
    assert_eq!(kernels(product, Fusion::Barriers).len(), 2);
    same_bits(product);
}

#[test]
fn only_reorderable_reductions_of_computed_values_get_barriers() {
    let closed = trace_fn(&[f32v(&[ROWS, COLS])], |v| {
        let max = prim(
            Primitive::Reduce {
                op: ReduceOp::Max,
                axes: vec![0],
            },
            &square(&v[0]),
        );
        // A sum of the input read through a view needs no barrier.
        let t = prim(Primitive::Transpose(vec![1, 0]), &v[0]);
        vec![max, sum(vec![1], &t)]
    });
    assert!(barrier::sources(&closed.jaxpr).is_empty());
    let closed = trace_fn(&[f32v(&[ROWS, COLS])], |v| vec![sum_of_squares(&v[0])]);
    assert_eq!(barrier::sources(&closed.jaxpr).len(), 1, "the squares");
}
