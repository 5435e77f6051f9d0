//! vmap versus a loop, for every batching rule: a function of a few primitives is traced on one
//! batch member and run by the batching interpreter on batched arguments (batch axes in every
//! position, shapes with size-1 axes, some arguments unbatched); each batch member of the
//! result must equal the function applied eagerly to that member's arguments (the `cpu`
//! interpreter is the oracle).

use crate::common::trace::{read_value, try_op};
use crate::common::{encode, values};
use oxjax::core::ops::{BinaryOp, CompareOp, ReduceOp, UnaryOp};
use oxjax::core::{ConvParams, DType, Device, Primitive};
use oxjax::library::indexing::sort;
use oxjax::transform::trace::{self, bind, Operand, Value};
use oxjax::transform::vmap::vmap;
use oxjax::transform::ArrayValue;
use oxjax::util::Result;

type F = dyn Fn(&[Value]) -> Result<Value>;

/// A small deterministic generator (shapes, axes, seeds).
struct Rng(u64);
impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((self.0 >> 33) % n as u64) as usize
    }
}

fn arr(shape: &[usize], dtype: DType, seed: f64) -> Value {
    // Operand-less primitives (iota) go to the default device.
    oxjax::backend::registry::set_default_device("t", Device::Cpu).unwrap();
    let n = shape.iter().product();
    let vals: Vec<f64> = match dtype {
        DType::Int32 => values(n, seed).iter().map(|v| (v * 0.6).round()).collect(),
        _ => values(n, seed).iter().map(|v| v * 0.1).collect(),
    };
    let bytes = encode(dtype, &vals);
    Value::Concrete(
        ArrayValue::from_bytes("t", &bytes, shape.to_vec(), dtype, Device::Cpu).unwrap(),
    )
}

/// Member `i` of `v` along `axis` (the axis removed).
fn member(v: &Value, axis: usize, i: usize) -> Value {
    let shape = v.aval().shape.clone();
    let ranges = shape
        .iter()
        .enumerate()
        .map(|(a, &d)| if a == axis { (i, i + 1) } else { (0, d) })
        .collect();
    let s = try_op(Primitive::Shrink(ranges), &[v]).unwrap();
    let mut rest = shape;
    rest.remove(axis);
    try_op(Primitive::Reshape(rest), &[&s]).unwrap()
}

/// Runs `f` under vmap on `args` (with batch axes `axes`) and against a loop.
fn check(name: &str, f: &F, args: &[Value], axes: &[Option<usize>]) {
    let size = args
        .iter()
        .zip(axes)
        .find_map(|(a, ax)| ax.map(|ax| a.aval().shape[ax]))
        .unwrap();
    let example: Vec<_> = args
        .iter()
        .zip(axes)
        .map(|(a, ax)| {
            let mut aval = a.aval().clone();
            if let Some(ax) = ax {
                aval.shape.remove(*ax);
            }
            aval
        })
        .collect();
    let (frame, tracers) = trace::begin(&example);
    let tracers: Vec<Value> = tracers.into_iter().map(Value::Tracer).collect();
    let out = f(&tracers).unwrap_or_else(|e| panic!("{name}: tracing failed: {e}"));
    let closed = trace::end("test", frame, &[out]).unwrap();
    let batched = vmap(&closed, args, axes, 0)
        .unwrap_or_else(|e| panic!("{name}: vmap failed: {e}"))
        .remove(0);
    for i in 0..size {
        let member_args: Vec<Value> = args
            .iter()
            .zip(axes)
            .map(|(a, ax)| match ax {
                Some(ax) => member(a, *ax, i),
                None => a.clone(),
            })
            .collect();
        let want = f(&member_args).unwrap();
        let got = member(&batched, 0, i);
        assert_eq!(got.aval(), want.aval(), "{name}: member {i} aval");
        let (g, w) = (read_value(&got), read_value(&want));
        for (k, (x, y)) in g.iter().zip(&w).enumerate() {
            let close = x == y || (x.is_nan() && y.is_nan()) || (x - y).abs() <= 1e-5 * y.abs();
            assert!(close, "{name}: member {i} element {k}: {x} vs {y}");
        }
    }
}

/// `shape` with a batch axis of `size` inserted at a random position; returns the array and
/// the axis.
fn batched(rng: &mut Rng, shape: &[usize], size: usize, dtype: DType, seed: f64) -> (Value, usize) {
    let axis = rng.below(shape.len() + 1);
    let mut s = shape.to_vec();
    s.insert(axis, size);
    (arr(&s, dtype, seed), axis)
}

/// Checks `f` on every combination of batched/unbatched arguments (at least one batched),
/// batch axes at random positions, for a few batch sizes.
fn check_all(name: &str, f: &F, shapes: &[(&[usize], DType)], rng: &mut Rng) {
    let n = shapes.len();
    for mask in 1..(1u32 << n) {
        let size = [1, 2, 3][rng.below(3)];
        let mut args = Vec::new();
        let mut axes = Vec::new();
        for (k, (shape, dtype)) in shapes.iter().enumerate() {
            let seed = (k * 7 + mask as usize) as f64;
            if mask & (1 << k) != 0 {
                let (v, ax) = batched(rng, shape, size, *dtype, seed);
                args.push(v);
                axes.push(Some(ax));
            } else {
                args.push(arr(shape, *dtype, seed));
                axes.push(None);
            }
        }
        check(&format!("{name} (mask {mask:b})"), f, &args, &axes);
    }
}

const F32: DType = DType::Float32;
const I32: DType = DType::Int32;

#[test]
fn elementwise_rules_broadcast_batched_and_unbatched_operands() {
    let mut rng = Rng(1);
    let add = |a: &[Value]| try_op(Primitive::Binary(BinaryOp::Add), &[&a[0], &a[1]]);
    for (sa, sb) in [
        (&[3][..], &[3][..]),
        (&[2, 3], &[3]),
        (&[4, 1], &[1, 3]),
        (&[], &[2, 1, 3]),
        (&[1], &[2, 2]),
    ] {
        check_all("add", &add, &[(sa, F32), (sb, F32)], &mut rng);
    }
    let lit = |a: &[Value]| {
        bind(
            Primitive::Binary(BinaryOp::Sub),
            &[Operand::Literal(2.0), Operand::Value(&a[0])],
        )
    };
    check_all("sub literal", &lit, &[(&[2, 3], F32)], &mut rng);
    let exp = |a: &[Value]| try_op(Primitive::Unary(UnaryOp::Exp), &[&a[0]]);
    check_all("exp", &exp, &[(&[2, 1, 3], F32)], &mut rng);
    let lt = |a: &[Value]| try_op(Primitive::Compare(CompareOp::Lt), &[&a[0], &a[1]]);
    check_all("lt", &lt, &[(&[3], F32), (&[2, 3], F32)], &mut rng);
    let sel = |a: &[Value]| {
        let c = try_op(Primitive::Compare(CompareOp::Lt), &[&a[0], &a[1]])?;
        try_op(Primitive::Where, &[&c, &a[1], &a[2]])
    };
    check_all(
        "where",
        &sel,
        &[(&[3], F32), (&[2, 3], F32), (&[1], F32)],
        &mut rng,
    );
    let cast = |a: &[Value]| {
        let c = try_op(Primitive::Cast(I32), &[&a[0]])?;
        try_op(Primitive::StopGradient, &[&c])
    };
    check_all("cast", &cast, &[(&[2, 2], F32)], &mut rng);
    let bits = |a: &[Value]| try_op(Primitive::Bitcast(DType::Uint32), &[&a[0]]);
    check_all("bitcast", &bits, &[(&[3], F32)], &mut rng);
    let u = DType::Uint32;
    let threefry = |a: &[Value]| {
        let mode = oxjax::core::ops::ThreefryMode::Xor;
        try_op(Primitive::Threefry(mode), &[&a[0], &a[1], &a[2], &a[3]])
    };
    let shapes: [(&[usize], DType); 4] = [(&[], u), (&[2, 1], u), (&[3], u), (&[1, 3], u)];
    check_all("threefry2x32", &threefry, &shapes, &mut rng);
}

#[test]
fn reduce_and_cumulative_rules_keep_the_batch_axis_in_place() {
    let mut rng = Rng(2);
    for op in [ReduceOp::Sum, ReduceOp::Max, ReduceOp::Prod, ReduceOp::Min] {
        for axes in [vec![0], vec![1], vec![0, 2], vec![0, 1, 2]] {
            let f = move |a: &[Value]| {
                let axes = axes.clone();
                try_op(Primitive::Reduce { op, axes }, &[&a[0]])
            };
            check_all("reduce", &f, &[(&[2, 1, 3], F32)], &mut rng);
        }
        for (axis, reverse) in [(0, false), (1, true), (2, false)] {
            let f = move |a: &[Value]| try_op(Primitive::Cumulative { op, axis, reverse }, &[&a[0]]);
            check_all("cumulative", &f, &[(&[2, 1, 3], F32)], &mut rng);
        }
    }
}

#[test]
fn movement_rules() {
    let mut rng = Rng(3);
    let s: &[usize] = &[2, 1, 3];
    let cases: Vec<(&str, Primitive)> = vec![
        ("reshape", Primitive::Reshape(vec![3, 2])),
        ("reshape to scalar-ish", Primitive::Reshape(vec![6, 1])),
        ("transpose", Primitive::Transpose(vec![2, 0, 1])),
        (
            "broadcast",
            Primitive::Broadcast {
                shape: vec![4, 2, 5, 3],
                axes: vec![1, 2, 3],
            },
        ),
        ("shrink", Primitive::Shrink(vec![(1, 2), (0, 1), (0, 2)])),
        ("pad", Primitive::Pad(vec![(1, 0), (0, 2), (2, 1)])),
        ("flip", Primitive::Flip(vec![0, 2])),
    ];
    for (name, prim) in cases {
        let f = move |a: &[Value]| try_op(prim.clone(), &[&a[0]]);
        check_all(name, &f, &[(s, F32)], &mut rng);
    }
    for axis in [0, 1] {
        let f = move |a: &[Value]| try_op(Primitive::Concatenate(axis), &[&a[0], &a[1], &a[2]]);
        check_all(
            "concatenate",
            &f,
            &[(&[2, 3], F32), (&[2, 3], F32), (&[2, 3], F32)],
            &mut rng,
        );
    }
    // fft along the last axis (both outputs), radix-2 and Bluestein lengths.
    for s in [&[2, 4][..], &[3, 5]] {
        let f = |a: &[Value]| {
            let ops = [Operand::Value(&a[0]), Operand::Value(&a[1])];
            let out = trace::bind_multi(Primitive::Fft { inverse: false }, &ops)?;
            try_op(Primitive::Binary(BinaryOp::Sub), &[&out[0], &out[1]])
        };
        check_all("fft", &f, &[(s, F32), (s, F32)], &mut rng);
    }
    // sort and argsort along every axis (the routine sorts the last: others are moved there).
    for axis in [0, 1, 2] {
        let f = move |a: &[Value]| sort("sort", &a[0], axis, false);
        check_all("sort", &f, &[(s, F32)], &mut rng);
        let f = move |a: &[Value]| sort("argsort", &a[0], axis, true);
        check_all("argsort", &f, &[(s, F32)], &mut rng);
    }
    // iota (no operands: never batched) combined with a batched operand.
    let f = |a: &[Value]| {
        let i = bind(
            Primitive::Iota {
                shape: vec![2, 3],
                axis: 1,
                dtype: F32,
            },
            &[],
        )?;
        try_op(Primitive::Binary(BinaryOp::Mul), &[&i, &a[0]])
    };
    check_all("iota", &f, &[(&[3], F32)], &mut rng);
}

#[test]
fn gather_rules_for_batched_values_indices_or_both() {
    let mut rng = Rng(4);
    let one = |a: &[Value]| {
        try_op(
            Primitive::Gather {
                axes: vec![1],
                out_dim: 0,
            },
            &[&a[0], &a[1]],
        )
    };
    check_all(
        "gather axis 1",
        &one,
        &[(&[3, 4, 2], F32), (&[2, 3], I32)],
        &mut rng,
    );
    let mid = |a: &[Value]| {
        try_op(
            Primitive::Gather {
                axes: vec![0],
                out_dim: 1,
            },
            &[&a[0], &a[1]],
        )
    };
    check_all(
        "gather out_dim 1",
        &mid,
        &[(&[4, 2, 3], F32), (&[5], I32)],
        &mut rng,
    );
    let two = |a: &[Value]| {
        try_op(
            Primitive::Gather {
                axes: vec![2, 0],
                out_dim: 1,
            },
            &[&a[0], &a[1], &a[2]],
        )
    };
    check_all(
        "gather two axes",
        &two,
        &[(&[3, 2, 4], F32), (&[2, 1], I32), (&[3], I32)],
        &mut rng,
    );
}

#[test]
fn conv_rules_fold_the_batch_into_images_or_groups() {
    let mut rng = Rng(5);
    for groups in [1, 2] {
        let params = ConvParams {
            strides: vec![2, 1],
            padding: vec![(1, 0), (0, 1)],
            lhs_dilation: vec![1, 1],
            rhs_dilation: vec![1, 2],
            groups,
        };
        let f = move |a: &[Value]| try_op(Primitive::Conv(params.clone()), &[&a[0], &a[1]]);
        let c = 2 * groups;
        check_all(
            "conv",
            &f,
            &[(&[2, c, 5, 4], F32), (&[2 * groups, 2, 2, 2], F32)],
            &mut rng,
        );
    }
}

#[test]
fn matmul_rule_with_broadcast_batch_axes() {
    let mut rng = Rng(6);
    let f = |a: &[Value]| try_op(Primitive::Matmul, &[&a[0], &a[1]]);
    for (sa, sb) in [
        (&[2, 3][..], &[3, 4][..]),
        (&[2, 2, 3], &[3, 1]),
        (&[1, 3], &[2, 3, 2]),
    ] {
        check_all("matmul", &f, &[(sa, F32), (sb, F32)], &mut rng);
    }
}

#[test]
fn nested_vmap_and_errors() {
    use oxjax::transform::vmap::example_avals;
    let a = arr(&[2, 3], F32, 1.0);
    let b = arr(&[4, 3], F32, 2.0);
    let avals = [a.aval(), b.aval()];
    let e = example_avals("vmap", &avals, &[Some(0), Some(0)]).unwrap_err();
    assert!(
        e.message()
            .starts_with("vmap: batched axes have different sizes"),
        "{e}"
    );
    let e = example_avals("vmap", &avals, &[Some(0)]).unwrap_err();
    assert_eq!(
        e.message(),
        "vmap: inAxes has 1 entries for 2 array arguments"
    );
    let e = example_avals("vmap", &avals, &[Some(2), None]).unwrap_err();
    assert!(
        e.message().starts_with("vmap: inAxes 2 is out of range"),
        "{e}"
    );
    let e = example_avals("vmap", &avals, &[None, None]).unwrap_err();
    assert!(
        e.message()
            .contains("at least one argument must be batched"),
        "{e}"
    );
    // vmap of vmap: the inner batching interpreter runs inside the outer trace.
    let x = arr(&[2, 3, 4], F32, 3.0);
    let inner = |v: &[Value]| -> Result<Value> {
        let (frame, t) = trace::begin(&[oxjax::core::Aval::new(vec![4], F32)]);
        let t = Value::Tracer(t[0].clone());
        let s = try_op(
            Primitive::Reduce {
                op: ReduceOp::Sum,
                axes: vec![0],
            },
            &[&t],
        )?;
        let y = try_op(Primitive::Binary(BinaryOp::Mul), &[&t, &s])?;
        let closed = trace::end("inner", frame, &[y])?;
        Ok(vmap(&closed, &[v[0].clone()], &[Some(0)], 0)?.remove(0))
    };
    check("nested", &inner, &[x], &[Some(1)]);
}

#[test]
fn two_views_of_one_buffer_are_two_constants() {
    let x = arr(&[3], F32, 1.0);
    let a = member(&x, 0, 0);
    let b = member(&x, 0, 1);
    let (frame, t) = trace::begin(&[oxjax::core::Aval::new(vec![], F32)]);
    let t = Value::Tracer(t[0].clone());
    let ta = try_op(Primitive::Binary(BinaryOp::Mul), &[&t, &a]).unwrap();
    let tb = try_op(Primitive::Binary(BinaryOp::Mul), &[&t, &b]).unwrap();
    let closed = trace::end("test", frame, &[ta, tb]).unwrap();
    assert_eq!(closed.consts.len(), 2);
}

#[test]
fn linalg_routines_batch_over_leading_axes() {
    let mut rng = Rng(7);
    // An SPD matrix from any square one: a aᵀ + 3 I.
    let spd = |a: &Value| -> Result<Value> {
        let at = try_op(Primitive::Transpose(vec![1, 0]), &[a])?;
        let m = try_op(Primitive::Matmul, &[a, &at])?;
        let i = bind(
            Primitive::Iota {
                shape: vec![3, 3],
                axis: 0,
                dtype: F32,
            },
            &[],
        )?;
        let j = bind(
            Primitive::Iota {
                shape: vec![3, 3],
                axis: 1,
                dtype: F32,
            },
            &[],
        )?;
        let eq = try_op(Primitive::Compare(CompareOp::Eq), &[&i, &j])?;
        let eye = try_op(Primitive::Cast(F32), &[&eq])?;
        let three = bind(
            Primitive::Binary(BinaryOp::Mul),
            &[Operand::Value(&eye), Operand::Literal(3.0)],
        )?;
        try_op(Primitive::Binary(BinaryOp::Add), &[&m, &three])
    };
    let chol = move |a: &[Value]| try_op(Primitive::Cholesky, &[&spd(&a[0])?]);
    check_all("cholesky", &chol, &[(&[3, 3], F32)], &mut rng);
    let solve = move |a: &[Value]| {
        let l = try_op(Primitive::Cholesky, &[&spd(&a[0])?])?;
        let prim = Primitive::TriangularSolve {
            left_side: true,
            lower: true,
            transpose_a: false,
            unit_diagonal: false,
        };
        try_op(prim, &[&l, &a[1]])
    };
    check_all(
        "triangular_solve",
        &solve,
        &[(&[3, 3], F32), (&[3, 2], F32)],
        &mut rng,
    );
}
