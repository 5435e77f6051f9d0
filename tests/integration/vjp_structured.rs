//! Reverse-mode rules of gather, conv, unrank (sort) and the running products, maxima and
//! minima against central finite differences in float64 on the `cpu` interpreter: for
//! `L(x) = Σ w · f(x)` with fixed non-uniform weights, the gradient from `value_and_grad`
//! must match `(L(x + h eᵢ) − L(x − h eᵢ)) / 2h` for every element.

use crate::common::trace::{read_value, try_op};
use crate::common::encode;
use oxjax::core::ops::{BinaryOp, ReduceOp};
use oxjax::core::{ConvParams, DType, Device, Primitive};
use oxjax::library::indexing::sort;
use oxjax::transform::autodiff::value_and_grad;
use oxjax::transform::trace::{self, Operand, Value};
use oxjax::transform::ArrayValue;
use oxjax::util::Result;

const F64: DType = DType::Float64;

fn arr(shape: &[usize], dtype: DType, vals: &[f64]) -> Value {
    oxjax::backend::registry::set_default_device("t", Device::Cpu).unwrap();
    let bytes = encode(dtype, vals);
    Value::Concrete(
        ArrayValue::from_bytes("t", &bytes, shape.to_vec(), dtype, Device::Cpu).unwrap(),
    )
}

/// `Σ w · y` with weights `(k + 1) / 4` (a constant of the trace when traced).
fn wsum(y: &Value) -> Result<Value> {
    let shape = y.aval().shape.clone();
    let n: usize = shape.iter().product();
    let w: Vec<f64> = (0..n).map(|k| (k as f64 + 1.0) * 0.25).collect();
    let w = arr(&shape, F64, &w);
    let prod = try_op(Primitive::Binary(BinaryOp::Mul), &[y, &w])?;
    let axes = (0..shape.len()).collect();
    try_op(
        Primitive::Reduce {
            op: ReduceOp::Sum,
            axes,
        },
        &[&prod],
    )
}

fn check(name: &str, shape: &[usize], x0: &[f64], f: &dyn Fn(&Value) -> Result<Value>) {
    let x = arr(shape, F64, x0);
    let (frame, t) = trace::begin(&[x.aval().clone()]);
    let out = wsum(&f(&Value::Tracer(t[0].clone())).unwrap()).unwrap();
    let closed = trace::end("test", frame, &[out]).unwrap();
    let res = value_and_grad(&closed, &[x], &[0]).unwrap_or_else(|e| panic!("{name}: {e}"));
    let got = read_value(&res[1]);
    let h = 1e-6;
    for i in 0..x0.len() {
        let at = |d: f64| {
            let mut v = x0.to_vec();
            v[i] += d;
            read_value(&wsum(&f(&arr(shape, F64, &v)).unwrap()).unwrap())[0]
        };
        let fd = (at(h) - at(-h)) / (2.0 * h);
        assert!(
            (got[i] - fd).abs() <= 1e-6 * (1.0 + fd.abs()),
            "{name}[{i}]: {} vs finite difference {fd}",
            got[i]
        );
    }
}

const X: [f64; 12] = [
    0.31, -0.57, 0.83, 0.12, -0.29, 0.66, 0.45, -0.91, 0.05, 0.72, -0.38, 0.2,
];

#[test]
fn gather_vjp_accumulates_repeated_and_clamped_indices() {
    let idx = arr(&[2, 3], DType::Int32, &[2.0, 0.0, 2.0, -1.0, 7.0, 1.0]);
    check("gather axis 1", &[3, 4], &X, &|x| {
        try_op(
            Primitive::Gather {
                axes: vec![1],
                out_dim: 1,
            },
            &[x, &idx],
        )
    });
    let i0 = arr(&[3], DType::Int32, &[1.0, 0.0, 1.0]);
    let i1 = arr(&[2, 1], DType::Int32, &[2.0, -1.0]);
    check("gather two axes", &[2, 2, 3], &X, &|x| {
        try_op(
            Primitive::Gather {
                axes: vec![2, 0],
                out_dim: 0,
            },
            &[x, &i1, &i0],
        )
    });
}

#[test]
fn conv_vjp_with_strides_padding_dilation_and_groups() {
    let w: Vec<f64> = (0..32).map(|k| ((k as f64) * 0.7).sin()).collect();
    for (groups, strides, padding, lhs_d, rhs_d) in [
        (1, vec![1, 1], vec![(0, 0), (0, 0)], vec![1, 1], vec![1, 1]),
        (2, vec![2, 1], vec![(1, 0), (0, 1)], vec![1, 1], vec![1, 2]),
        (1, vec![1, 2], vec![(1, 1), (-1, 1)], vec![2, 1], vec![1, 1]),
    ] {
        let o = 2 * groups;
        let kern = arr(&[o, 2, 2, 2], F64, &w[..o * 8]);
        let params = ConvParams {
            strides,
            padding,
            lhs_dilation: lhs_d,
            rhs_dilation: rhs_d,
            groups,
        };
        let c = 2 * groups;
        let xs: Vec<f64> = (0..c * 12).map(|k| X[k % 12] + k as f64 * 0.01).collect();
        let q = params.clone();
        check("conv lhs", &[1, c, 4, 3], &xs, &|x| {
            try_op(Primitive::Conv(q.clone()), &[x, &kern])
        });
        let img = arr(&[1, c, 4, 3], F64, &xs);
        check("conv rhs", &[o, 2, 2, 2], &w[..o * 8], &|k| {
            try_op(Primitive::Conv(params.clone()), &[&img, k])
        });
    }
}

#[test]
fn sort_and_running_reductions_vjp() {
    for axis in [1, 0] {
        check("sort", &[3, 4], &X, &|x| sort("sort", x, axis, false));
    }
    // fft of (x, x/2) along rows of 4 (radix-2) and of 3 (Bluestein), both outputs used.
    for shape in [[3, 4], [4, 3]] {
        for inverse in [false, true] {
            check("fft", &shape, &X, &|x| {
                let half = try_op(Primitive::Binary(BinaryOp::Mul), &[x, x])?;
                let ops = [Operand::Value(x), Operand::Value(&half)];
                let out = trace::bind_multi(Primitive::Fft { inverse }, &ops)?;
                let im = try_op(Primitive::Binary(BinaryOp::Mul), &[&out[1], &out[1]])?;
                try_op(Primitive::Binary(BinaryOp::Add), &[&out[0], &im])
            });
        }
    }
    // A zero among the factors: the product rule needs no division.
    let mut xz = X;
    xz[5] = 0.0;
    for op in [ReduceOp::Prod, ReduceOp::Max, ReduceOp::Min, ReduceOp::Sum] {
        for (axis, reverse) in [(1, false), (1, true), (0, false), (0, true)] {
            check("cumulative", &[3, 4], &xz, &|x| {
                try_op(Primitive::Cumulative { op, axis, reverse }, &[x])
            });
        }
    }
}

/// `vmap(grad(L))` against a loop of `grad(L)`: the batching rules applied to the operations
/// the VJP rules emit (pads, flips, iotas, one-hot contractions, transposed convolutions).
#[test]
fn vmap_of_grad_matches_a_loop() {
    use oxjax::transform::vmap::vmap;
    let grad_of = |f: &dyn Fn(&Value) -> Result<Value>, x: &Value| -> Result<Value> {
        let (frame, t) = trace::begin(&[x.aval().clone()]);
        let out = wsum(&f(&Value::Tracer(t[0].clone()))?)?;
        let closed = trace::end("test", frame, &[out])?;
        Ok(value_and_grad(&closed, std::slice::from_ref(x), &[0])?.remove(1))
    };
    let idx = arr(&[2, 3], DType::Int32, &[2.0, 0.0, 2.0, -1.0, 7.0, 1.0]);
    let kv: Vec<f64> = (0..16).map(|k| X[k % 12] - k as f64 * 0.03).collect();
    let kern = arr(&[4, 1, 2, 2], F64, &kv);
    let conv = ConvParams {
        strides: vec![1, 2],
        padding: vec![(1, 0), (0, 1)],
        lhs_dilation: vec![1, 1],
        rhs_dilation: vec![1, 1],
        groups: 2,
    };
    type Case<'a> = (
        &'a str,
        Vec<usize>,
        Box<dyn Fn(&Value) -> Result<Value> + 'a>,
    );
    let cases: Vec<Case> = vec![
        (
            "gather",
            vec![3, 4],
            Box::new(|x: &Value| {
                try_op(
                    Primitive::Gather {
                        axes: vec![1],
                        out_dim: 1,
                    },
                    &[x, &idx],
                )
            }),
        ),
        (
            "conv",
            vec![1, 2, 3, 2],
            Box::new(|x: &Value| try_op(Primitive::Conv(conv.clone()), &[x, &kern])),
        ),
        (
            "cumprod",
            vec![3, 4],
            Box::new(|x: &Value| {
                try_op(
                    Primitive::Cumulative {
                        op: ReduceOp::Prod,
                        axis: 1,
                        reverse: true,
                    },
                    &[x],
                )
            }),
        ),
        (
            "cummax",
            vec![3, 4],
            Box::new(|x: &Value| {
                try_op(
                    Primitive::Cumulative {
                        op: ReduceOp::Max,
                        axis: 0,
                        reverse: false,
                    },
                    &[x],
                )
            }),
        ),
        (
            "sort",
            vec![3, 4],
            Box::new(|x: &Value| sort("sort", x, 0, false)),
        ),
        (
            "reduce max",
            vec![3, 4],
            Box::new(|x: &Value| {
                try_op(
                    Primitive::Reduce {
                        op: ReduceOp::Max,
                        axes: vec![1],
                    },
                    &[x],
                )
            }),
        ),
    ];
    for (name, shape, f) in &cases {
        let n: usize = shape.iter().product();
        for axis in 0..=shape.len() {
            let mut bshape = shape.clone();
            bshape.insert(axis, 3);
            let vals: Vec<f64> = (0..3 * n).map(|k| ((k as f64) * 1.37).sin()).collect();
            let xs = arr(&bshape, F64, &vals);
            let (frame, t) = trace::begin(&[oxjax::core::Aval::new(shape.clone(), F64)]);
            let g = grad_of(f.as_ref(), &Value::Tracer(t[0].clone())).unwrap();
            let closed = trace::end("test", frame, &[g]).unwrap();
            let batched = vmap(&closed, std::slice::from_ref(&xs), &[Some(axis)], 0)
                .unwrap()
                .remove(0);
            let all = read_value(&batched);
            for i in 0..3 {
                let ranges = bshape
                    .iter()
                    .enumerate()
                    .map(|(a, &d)| if a == axis { (i, i + 1) } else { (0, d) })
                    .collect();
                let xi = try_op(Primitive::Shrink(ranges), &[&xs]).unwrap();
                let xi = try_op(Primitive::Reshape(shape.clone()), &[&xi]).unwrap();
                let want = read_value(&grad_of(f.as_ref(), &xi).unwrap());
                let got = &all[i * n..(i + 1) * n];
                for k in 0..n {
                    assert!(
                        (got[k] - want[k]).abs() <= 1e-12 * (1.0 + want[k].abs()),
                        "{name} axis {axis} member {i}[{k}]: {} vs {}",
                        got[k],
                        want[k]
                    );
                }
            }
        }
    }
}
