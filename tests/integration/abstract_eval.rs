//! Abstract evaluation of every primitive family: output shapes and dtypes, and the errors for
//! bad operands (each naming the primitive). Also a traced Jaxpr typechecks against the rules.

use oxjax::core::ops::{BinaryOp, CompareOp, ReduceOp, UnaryOp};
use oxjax::core::{Aval, DType, Primitive};
use oxjax::rules::{abstract_eval, abstract_eval_multi};
use oxjax::transform::trace::{self, Operand, Value};

fn a(shape: &[usize], dtype: DType) -> Aval {
    Aval::new(shape.to_vec(), dtype)
}

fn ok(prim: Primitive, inputs: &[Aval]) -> Aval {
    let refs: Vec<&Aval> = inputs.iter().collect();
    abstract_eval(&prim, &refs).unwrap_or_else(|e| panic!("{prim}: {e}"))
}

fn err(prim: Primitive, inputs: &[Aval]) -> String {
    let refs: Vec<&Aval> = inputs.iter().collect();
    match abstract_eval(&prim, &refs) {
        Ok(out) => panic!("{prim} accepted {inputs:?} giving {out:?}"),
        Err(e) => e.message().to_string(),
    }
}

use DType::*;

#[test]
fn elementwise_broadcast_promote_and_check_dtypes() {
    let out = ok(
        Primitive::Binary(BinaryOp::Add),
        &[a(&[2, 1], Int32), a(&[3], Float32)],
    );
    assert_eq!((out.shape, out.dtype), (vec![2, 3], Float32));
    assert_eq!(
        ok(
            Primitive::Compare(CompareOp::Lt),
            &[a(&[4], Int32), a(&[4], Int32)]
        )
        .dtype,
        Bool
    );
    let w = ok(
        Primitive::Where,
        &[a(&[3, 1], Bool), a(&[4], Float32), a(&[], Float32)],
    );
    assert_eq!(w.shape, vec![3, 4]);
    assert_eq!(ok(Primitive::Cast(Int32), &[a(&[2], Float32)]).dtype, Int32);
    assert_eq!(
        ok(Primitive::Bitcast(Uint32), &[a(&[2], Float32)]).dtype,
        Uint32
    );
    assert_eq!(
        ok(Primitive::StopGradient, &[a(&[5], Float64)]),
        a(&[5], Float64)
    );
    assert!(err(Primitive::Unary(UnaryOp::Exp), &[a(&[2], Int32)])
        .starts_with("exp: requires floating-point"));
    assert!(err(
        Primitive::Binary(BinaryOp::And),
        &[a(&[2], Float32), a(&[2], Float32)]
    )
    .starts_with("and: requires bool or integer"));
    assert!(err(
        Primitive::Binary(BinaryOp::Shl),
        &[a(&[2], Bool), a(&[2], Bool)]
    )
    .starts_with("shift_left: requires integer"));
    assert!(err(
        Primitive::Where,
        &[a(&[2], Int32), a(&[2], Int32), a(&[2], Int32)]
    )
    .starts_with("where: requires a bool condition"));
    assert!(err(Primitive::Bitcast(Float64), &[a(&[2], Float32)])
        .starts_with("bitcast_convert_type: cannot bitcast float32 to float64"));
    assert_eq!(
        err(
            Primitive::Binary(BinaryOp::Mul),
            &[a(&[2], Float32), a(&[3], Float32)]
        ),
        "mul: shapes [2] and [3] cannot be broadcast together"
    );
    assert!(err(Primitive::Binary(BinaryOp::Add), &[a(&[2], Float32)])
        .starts_with("add: expected 2 operands"));
}

#[test]
fn threefry_takes_four_broadcast_uint32_operands() {
    use oxjax::core::ops::ThreefryMode;
    for mode in [ThreefryMode::Xor, ThreefryMode::Word0, ThreefryMode::Word1] {
        let prim = Primitive::Threefry(mode);
        let keys = [a(&[], Uint32), a(&[3, 1], Uint32)];
        let out = ok(prim.clone(), &[&keys[..], &[a(&[], Uint32), a(&[4], Uint32)]].concat());
        assert_eq!(out, a(&[3, 4], Uint32));
        assert!(!out.weak);
        let bad = [a(&[4], Uint32), a(&[4], Int32), a(&[4], Uint32), a(&[4], Uint32)];
        assert_eq!(
            err(prim.clone(), &bad),
            "threefry2x32: requires uint32 operands, got int32"
        );
        assert!(err(prim.clone(), &bad[..3]).starts_with("threefry2x32: expected 4 operands"));
    }
    assert_eq!(
        Primitive::Threefry(ThreefryMode::Word1).to_string(),
        "threefry2x32[mode=1]"
    );
}

#[test]
fn reductions_and_running_reductions() {
    let r = ok(
        Primitive::Reduce {
            op: ReduceOp::Sum,
            axes: vec![0, 2],
        },
        &[a(&[2, 3, 4], Float32)],
    );
    assert_eq!(r.shape, vec![3]);
    let c = ok(
        Primitive::Cumulative {
            op: ReduceOp::Max,
            axis: 1,
            reverse: true,
        },
        &[a(&[2, 3], Int32)],
    );
    assert_eq!(c, a(&[2, 3], Int32));
    assert!(err(
        Primitive::Reduce {
            op: ReduceOp::Sum,
            axes: vec![1, 0]
        },
        &[a(&[2, 3], Float32)]
    )
    .contains("must be sorted"));
    assert!(err(
        Primitive::Reduce {
            op: ReduceOp::Sum,
            axes: vec![0]
        },
        &[a(&[2], Bool)]
    )
    .contains("cast them first"));
    assert!(err(
        Primitive::Reduce {
            op: ReduceOp::Max,
            axes: vec![0]
        },
        &[a(&[0], Float32)]
    )
    .contains("no identity"));
    assert!(err(
        Primitive::Cumulative {
            op: ReduceOp::Sum,
            axis: 2,
            reverse: false
        },
        &[a(&[2, 3], Float32)]
    )
    .starts_with("cumsum: axis 2 out of range"));
}

#[test]
fn movement_is_checked_by_the_views() {
    assert_eq!(
        ok(Primitive::Reshape(vec![3, 2]), &[a(&[2, 3], Float32)]).shape,
        vec![3, 2]
    );
    assert_eq!(
        ok(
            Primitive::Transpose(vec![2, 0, 1]),
            &[a(&[2, 3, 4], Float32)]
        )
        .shape,
        vec![4, 2, 3]
    );
    let b = ok(
        Primitive::Broadcast {
            shape: vec![5, 2, 3],
            axes: vec![1, 2],
        },
        &[a(&[2, 1], Float32)],
    );
    assert_eq!(b.shape, vec![5, 2, 3]);
    assert_eq!(
        ok(
            Primitive::Shrink(vec![(1, 2), (0, 3)]),
            &[a(&[2, 3], Float32)]
        )
        .shape,
        vec![1, 3]
    );
    assert_eq!(
        ok(Primitive::Pad(vec![(1, 2)]), &[a(&[3], Float32)]).shape,
        vec![6]
    );
    assert_eq!(
        ok(Primitive::Flip(vec![0]), &[a(&[3], Float32)]).shape,
        vec![3]
    );
    let cat = ok(
        Primitive::Concatenate(1),
        &[a(&[2, 3], Float32), a(&[2, 5], Float32)],
    );
    assert_eq!(cat.shape, vec![2, 8]);
    assert!(err(Primitive::Reshape(vec![4]), &[a(&[2, 3], Float32)])
        .starts_with("reshape: cannot reshape"));
    assert!(
        err(Primitive::Transpose(vec![0, 0]), &[a(&[2, 3], Float32)]).starts_with("transpose:")
    );
    assert!(err(
        Primitive::Broadcast {
            shape: vec![3],
            axes: vec![0]
        },
        &[a(&[2], Float32)]
    )
    .starts_with("broadcast_in_dim: cannot broadcast"));
    assert!(err(Primitive::Shrink(vec![(2, 4)]), &[a(&[3], Float32)]).starts_with("slice:"));
    assert!(err(
        Primitive::Concatenate(0),
        &[a(&[2, 3], Float32), a(&[2, 4], Float32)]
    )
    .starts_with("concatenate: arrays must share"));
}

#[test]
fn creation_linalg_and_indexing() {
    let iota = ok(
        Primitive::Iota {
            shape: vec![2, 3],
            axis: 1,
            dtype: Int32,
        },
        &[],
    );
    assert_eq!(iota, a(&[2, 3], Int32));
    assert!(err(
        Primitive::Iota {
            shape: vec![2],
            axis: 1,
            dtype: Int32
        },
        &[]
    )
    .starts_with("iota: axis 1 out of range"));
    let m = ok(
        Primitive::Matmul,
        &[a(&[7, 1, 2, 3], Float32), a(&[5, 3, 4], Float32)],
    );
    assert_eq!(m.shape, vec![7, 5, 2, 4]);
    assert!(err(
        Primitive::Matmul,
        &[a(&[2, 3], Float32), a(&[4, 5], Float32)]
    )
    .starts_with("matmul: contraction sizes differ"));
    assert!(
        err(Primitive::Matmul, &[a(&[3], Float32), a(&[3, 5], Float32)])
            .starts_with("matmul: operands must have rank")
    );
    let g = ok(
        Primitive::Gather {
            axes: vec![1],
            out_dim: 1,
        },
        &[a(&[2, 5, 3], Float32), a(&[4, 6], Int32)],
    );
    assert_eq!(g.shape, vec![2, 4, 6, 3]);
    assert!(err(
        Primitive::Gather {
            axes: vec![0],
            out_dim: 0
        },
        &[a(&[2], Float32), a(&[2], Float32)]
    )
    .starts_with("gather: indices must be integers"));
}

#[test]
fn traced_jaxprs_typecheck_against_the_rules() {
    let (frame, tracers) = trace::begin(&[a(&[2, 3], Float32), a(&[3], Float32)]);
    let (x, y) = (
        Value::Tracer(tracers[0].clone()),
        Value::Tracer(tracers[1].clone()),
    );
    let s = trace::bind(
        Primitive::Binary(BinaryOp::Add),
        &[Operand::Value(&x), Operand::Value(&y)],
    )
    .unwrap();
    let e = trace::bind(Primitive::Unary(UnaryOp::Exp), &[Operand::Value(&s)]).unwrap();
    let r = trace::bind(
        Primitive::Reduce {
            op: ReduceOp::Sum,
            axes: vec![1],
        },
        &[Operand::Value(&e)],
    )
    .unwrap();
    let m = trace::bind(
        Primitive::Binary(BinaryOp::Mul),
        &[Operand::Value(&r), Operand::Literal(2.0)],
    )
    .unwrap();
    let closed = trace::end("test", frame, &[m]).unwrap();
    closed
        .jaxpr
        .typecheck(&|p, ins| abstract_eval_multi(p, ins))
        .unwrap();
    assert_eq!(closed.jaxpr.eqns.len(), 4);
    // A corrupted Jaxpr is caught.
    let mut bad = closed.jaxpr.clone();
    bad.avals[bad.eqns[0].outputs[0].0 as usize] = a(&[9], Float32);
    let msg = bad
        .typecheck(&|p, ins| abstract_eval_multi(p, ins))
        .unwrap_err();
    assert!(
        msg.message()
            .starts_with("jaxpr typecheck: c = add has aval"),
        "{msg}"
    );
}

#[test]
fn fft_primitive() {
    let x = a(&[2, 5], Float64);
    let fft = Primitive::Fft { inverse: true };
    let outs = abstract_eval_multi(&fft, &[&x, &x]).unwrap();
    assert_eq!(outs, vec![x.clone(), x.clone()]);
    let err = |ins: &[&Aval]| {
        abstract_eval_multi(&fft, ins)
            .unwrap_err()
            .message()
            .to_string()
    };
    assert!(err(&[&x]).starts_with("fft: expected 2 operands"));
    assert!(err(&[&x, &a(&[5], Float64)]).starts_with("fft: real and imag parts must have"));
    let i = a(&[5], Int32);
    assert!(err(&[&i, &i]).starts_with("fft: operands must be float32 or float64"));
    let s = a(&[], Float32);
    assert!(err(&[&s, &s]).starts_with("fft: needs an array of at least 1"));
}

#[test]
fn sort_primitive() {
    let x = a(&[2, 5], Float16);
    let outs = abstract_eval_multi(&Primitive::Sort, &[&x]).unwrap();
    assert_eq!(outs, vec![a(&[2, 5], Float16), a(&[2, 5], Int32)]);
    let scalar = abstract_eval_multi(&Primitive::Sort, &[&a(&[], Float32)]).unwrap_err();
    assert!(scalar
        .message()
        .starts_with("sort: needs an array of at least 1"));
    let two = abstract_eval_multi(&Primitive::Sort, &[&x, &x]).unwrap_err();
    assert!(two.message().starts_with("sort: expected 1 operand"));
}

#[test]
fn conv_shapes_and_errors() {
    use oxjax::core::ConvParams;
    let p = |strides: Vec<usize>, padding: Vec<(i64, i64)>, groups| ConvParams {
        lhs_dilation: vec![1; strides.len()],
        rhs_dilation: vec![1; strides.len()],
        strides,
        padding,
        groups,
    };
    let out = ok(
        Primitive::Conv(p(vec![2, 1], vec![(1, 1), (0, 0)], 1)),
        &[a(&[2, 4, 7, 5], Float32), a(&[3, 4, 3, 3], Float32)],
    );
    assert_eq!(out.shape, vec![2, 3, 4, 3]);
    let grouped = ok(
        Primitive::Conv(p(vec![1], vec![(0, 0)], 2)),
        &[a(&[1, 4, 5], Float32), a(&[6, 2, 2], Float32)],
    );
    assert_eq!(grouped.shape, vec![1, 6, 4]);
    assert!(err(
        Primitive::Conv(p(vec![1], vec![(0, 0)], 1)),
        &[a(&[1, 4, 5], Float32), a(&[6, 3, 2], Float32)]
    )
    .contains("inconsistent"));
    assert!(err(
        Primitive::Conv(p(vec![1], vec![(0, 0)], 1)),
        &[a(&[1, 1, 2], Float32), a(&[1, 1, 3], Float32)]
    )
    .contains("does not fit"));
    assert!(err(
        Primitive::Conv(p(vec![1], vec![(0, 0)], 1)),
        &[a(&[1, 1, 4], Int32), a(&[1, 1, 3], Int32)]
    )
    .contains("int32 operands are not supported"));
}
