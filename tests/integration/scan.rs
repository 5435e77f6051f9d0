//! The `scan` primitive from Rust on the `cpu` device: eager host loop against a plain loop
//! (forward and reverse), a staged scan that typechecks and prints as one multi-output
//! equation, structural equality of bodies traced twice, and its gradient against float64
//! central finite differences for every checkpoint segment.

use crate::common::trace::{bin, read_value};
use crate::common::encode;
use oxjax::core::jaxpr::Atom;
use oxjax::core::ops::{BinaryOp, UnaryOp};
use oxjax::core::scan::AcceptPaths;
use oxjax::core::{Aval, DType, Device, Primitive};
use oxjax::rules::abstract_eval_multi;
use oxjax::transform::autodiff::value_and_grad;
use oxjax::transform::scan::{bind_scan, trace_body, Loop};
use oxjax::transform::trace::{self, bind, ClosedJaxpr, Operand, Value};
use oxjax::transform::ArrayValue;

fn f64s(v: &[f64], shape: Vec<usize>) -> Value {
    Value::Concrete(
        ArrayValue::from_bytes(
            "t",
            &encode(DType::Float64, v),
            shape,
            DType::Float64,
            Device::Cpu,
        )
        .unwrap(),
    )
}

/// Body: consts (w), carry c, x → (c' = sin(c * w + x), y = c' * x).
fn body() -> ClosedJaxpr {
    let s = Aval::new(vec![2], DType::Float64);
    trace_body(&[s.clone(), s.clone(), s], |a| {
        let t = bin(BinaryOp::Add, &bin(BinaryOp::Mul, &a[1], &a[0]), &a[2]);
        let c = bind(Primitive::Unary(UnaryOp::Sin), &[Operand::Value(&t)])?;
        let y = bin(BinaryOp::Mul, &c, &a[2]);
        Ok(vec![c, y])
    })
    .unwrap()
}

fn lp(length: usize, reverse: bool, segment: usize) -> Loop {
    Loop {
        length,
        reverse,
        segment,
        accept: AcceptPaths::ANY,
    }
}

const XS: [f64; 10] = [0.1, 0.2, -0.3, 0.5, 1.0, -1.0, 0.25, 0.75, -0.6, 0.4];

fn plain(w: &[f64], c0: &[f64], reverse: bool) -> (Vec<f64>, Vec<f64>) {
    let mut c = c0.to_vec();
    let mut ys = vec![0.0; 10];
    for step in 0..5 {
        let i = if reverse { 4 - step } else { step };
        for k in 0..2 {
            let x = XS[2 * i + k];
            c[k] = (c[k] * w[k] + x).sin();
            ys[2 * i + k] = c[k] * x;
        }
    }
    (c, ys)
}

#[test]
fn eager_scan_matches_a_plain_loop() {
    for reverse in [false, true] {
        let w = f64s(&[0.9, -1.1], vec![2]);
        let c0 = f64s(&[0.3, 0.7], vec![2]);
        let xs = f64s(&XS, vec![5, 2]);
        let outs = bind_scan(body(), &[w], &[c0], &[xs], lp(5, reverse, 1)).unwrap();
        let (c, ys) = plain(&[0.9, -1.1], &[0.3, 0.7], reverse);
        for (got, want) in read_value(&outs[0])
            .iter()
            .zip(&c)
            .chain(read_value(&outs[1]).iter().zip(&ys))
        {
            assert!((got - want).abs() < 1e-12, "{got} vs {want}");
        }
        assert_eq!(outs[1].aval().shape, vec![5, 2]);
    }
}

#[test]
fn staged_scan_is_one_equation_and_bodies_compare_structurally() {
    assert_eq!(body().jaxpr.to_string(), body().jaxpr.to_string());
    let s = Aval::new(vec![2], DType::Float64);
    let xs_aval = Aval::new(vec![5, 2], DType::Float64);
    let closed = trace_body(&[s.clone(), s, xs_aval], |a| {
        bind_scan(body(), &a[..1], &a[1..2], &a[2..], lp(5, false, 2))
    })
    .unwrap();
    let j = &closed.jaxpr;
    assert_eq!(j.eqns.len(), 1);
    assert_eq!(j.eqns[0].outputs.len(), 2);
    j.typecheck(&|p, ins| abstract_eval_multi(p, ins)).unwrap();
    let text = j.to_string();
    assert!(
        text.contains("d:f64[2] e:f64[5,2] = scan[length=5 reverse=false num_consts=1"),
        "{text}"
    );
    // Equal bodies make equal primitives (structural Hash/Eq), different ones differ.
    let two = vec![Aval::new(vec![2], DType::Float64); 2];
    let again = trace_body(&two, |a| {
        let xs = bind(
            Primitive::Broadcast {
                shape: vec![5, 2],
                axes: vec![1],
            },
            &[Operand::Value(&a[1])],
        )?;
        bind_scan(body(), &a[..1], &a[1..2], &[xs], lp(5, false, 2))
    })
    .unwrap();
    assert_eq!(j.eqns[0].primitive, again.jaxpr.eqns[1].primitive);
    let Atom::Var(_) = j.outs[0] else {
        panic!("outputs are variables")
    };
    trace::abort(u64::MAX); // harmless when no such frame exists
}

#[test]
fn gradient_matches_finite_differences_for_every_segment() {
    let loss = |segment: usize, reverse: bool| {
        let s = Aval::new(vec![2], DType::Float64);
        trace_body(
            &[s.clone(), s, Aval::new(vec![5, 2], DType::Float64)],
            |a| {
                let o = bind_scan(body(), &a[..1], &a[1..2], &a[2..], lp(5, reverse, segment))?;
                let t = bin(BinaryOp::Add, &o[0], &o[0]);
                let y2 = bin(BinaryOp::Mul, &o[1], &o[1]);
                let sy = bind(
                    Primitive::Reduce {
                        op: oxjax::core::ops::ReduceOp::Sum,
                        axes: vec![0, 1],
                    },
                    &[Operand::Value(&y2)],
                )?;
                let st = bind(
                    Primitive::Reduce {
                        op: oxjax::core::ops::ReduceOp::Sum,
                        axes: vec![0],
                    },
                    &[Operand::Value(&t)],
                )?;
                Ok(vec![bin(BinaryOp::Add, &sy, &st)])
            },
        )
        .unwrap()
    };
    let value = |w: &[f64], c0: &[f64], reverse: bool| {
        let (c, ys) = plain(w, c0, reverse);
        2.0 * c.iter().sum::<f64>() + ys.iter().map(|y| y * y).sum::<f64>()
    };
    for reverse in [false, true] {
        for segment in [1, 2, 3, 5, 9] {
            let args = [
                f64s(&[0.9, -1.1], vec![2]),
                f64s(&[0.3, 0.7], vec![2]),
                f64s(&XS, vec![5, 2]),
            ];
            let out = value_and_grad(&loss(segment, reverse), &args, &[0, 1]).unwrap();
            let v = read_value(&out[0])[0];
            assert!((v - value(&[0.9, -1.1], &[0.3, 0.7], reverse)).abs() < 1e-12);
            let (gw, gc) = (read_value(&out[1]), read_value(&out[2]));
            for k in 0..2 {
                let h = 1e-6;
                let mut wp = [0.9, -1.1];
                let mut wm = wp;
                wp[k] += h;
                wm[k] -= h;
                let fd = (value(&wp, &[0.3, 0.7], reverse) - value(&wm, &[0.3, 0.7], reverse))
                    / (2.0 * h);
                assert!(
                    (gw[k] - fd).abs() < 1e-6,
                    "w[{k}] seg {segment}: {} vs {fd}",
                    gw[k]
                );
                let mut cp = [0.3, 0.7];
                let mut cm = cp;
                cp[k] += h;
                cm[k] -= h;
                let fd = (value(&[0.9, -1.1], &cp, reverse) - value(&[0.9, -1.1], &cm, reverse))
                    / (2.0 * h);
                assert!(
                    (gc[k] - fd).abs() < 1e-6,
                    "c0[{k}] seg {segment}: {} vs {fd}",
                    gc[k]
                );
            }
        }
    }
}
