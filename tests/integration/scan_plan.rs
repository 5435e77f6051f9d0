//! Planning compiled scan loops (`lower::scan_plan`): slot roles of the body's inputs and
//! outputs, the normalisation of outputs (pass-through and duplicate outputs get a
//! step of their own), routines as loop steps, nested scans as nested loop steps (whose bodies
//! are planned the same way), and bodies that are not compilable with the reason. Every plan is checked against the invariants of
//! `kernel/device_program.rs` and its wasm loop module is validated; running the modules is tested
//! in Node (tests/api/scan-fused.test.mjs).

use crate::common::trace::bin;
use oxjax::core::ops::{BinaryOp, UnaryOp};
use oxjax::core::scan::{AcceptPaths, ScanParams};
use oxjax::core::{Aval, DType, Primitive};
use oxjax::kernel::device_program::{LoopBody, LoopStep, SlotRole};
use oxjax::kernel::DeviceLimits;
use oxjax::lower::scan_plan::plan;
use oxjax::transform::scan::{bind_scan, trace_body, Loop};
use oxjax::transform::trace::{bind, ClosedJaxpr, Operand, Value};

fn f(shape: &[usize]) -> Aval {
    Aval::new(shape.to_vec(), DType::Float32)
}

const LOOP: Loop = Loop {
    length: 5,
    reverse: false,
    segment: 1,
    accept: AcceptPaths::ANY,
};

/// The scan parameters of `body` with `nc` consts and `nk` carries over xs of `x_avals`.
fn params(body: ClosedJaxpr, ins: &[Aval], nc: usize, nk: usize) -> ScanParams {
    let mut outer: Vec<Aval> = ins[..nc + nk].to_vec();
    for x in &ins[nc + nk..] {
        let mut shape = vec![LOOP.length];
        shape.extend_from_slice(&x.shape);
        outer.push(Aval::new(shape, x.dtype));
    }
    let closed = trace_body(&outer, |a| {
        bind_scan(body, &a[..nc], &a[nc..nc + nk], &a[nc + nk..], LOOP)
    })
    .unwrap();
    let eqn = closed.jaxpr.eqns.last().unwrap();
    let Primitive::Scan(p) = &eqn.primitive else {
        panic!("a scan")
    };
    p.clone()
}

/// The invariants of `kernel/device_program.rs`, and the wasm loop module of the body validates
/// (executed for real in Node).
fn check(body: &LoopBody) {
    let bytes = oxjax::backend::wasm::emit::loops::emit_loop(body).unwrap();
    wasmparser::Validator::new()
        .validate_all(&bytes)
        .unwrap_or_else(|e| panic!("invalid loop module: {e}"));
    check_body(body);
}

fn check_body(body: &LoopBody) {
    let mut writes = vec![0; body.slots.len()];
    let mut scratch = vec![0; body.slots.len()];
    for step in &body.steps {
        let (ins, outs) = match step {
            LoopStep::Kernel {
                kernel,
                inputs,
                output,
            } => {
                assert_eq!(kernel.inputs.len(), inputs.len());
                assert_eq!(kernel.size, body.slots[*output].elements);
                (inputs.clone(), vec![*output])
            }
            LoopStep::Routine {
                inputs, outputs, ..
            } => (inputs.clone(), outputs.clone()),
            LoopStep::Loop {
                inner,
                slots,
                init,
                finals,
            } => {
                check_body(&inner.body);
                assert_eq!(slots.len(), inner.body.slots.len());
                assert_eq!(
                    (init.len(), finals.len()),
                    (inner.body.num_carry, inner.body.num_carry)
                );
                let mut ins = init.clone();
                for (info, &s) in inner.body.slots.iter().zip(slots) {
                    let outer = body.slots[s];
                    assert_eq!(info.dtype, outer.dtype);
                    match info.role {
                        SlotRole::Const(_) => {
                            assert_eq!(info.elements, outer.elements);
                            ins.push(s);
                        }
                        SlotRole::XRow(_) => {
                            assert_eq!(info.elements * inner.length, outer.elements);
                            ins.push(s);
                        }
                        SlotRole::YRow(_) => {
                            assert_eq!(info.elements * inner.length, outer.elements)
                        }
                        _ => {
                            assert_eq!(info.elements, outer.elements);
                            assert_eq!(outer.role, SlotRole::Temp, "inner scratch is a temp");
                            scratch[s] += 1;
                        }
                    }
                }
                (ins, step.outputs())
            }
        };
        for s in ins {
            assert!(s < body.slots.len());
        }
        for s in outs {
            writes[s] += 1;
            assert!(
                matches!(
                    body.slots[s].role,
                    SlotRole::Temp | SlotRole::CarryOut(_) | SlotRole::YRow(_)
                ),
                "a step writes input slot {s}"
            );
        }
    }
    for (s, info) in body.slots.iter().enumerate() {
        assert!(
            scratch[s] + writes[s] <= 1 || scratch[s] == 0,
            "slot {s} shared by scratch"
        );
        if matches!(info.role, SlotRole::CarryOut(_) | SlotRole::YRow(_)) {
            assert_eq!(writes[s], 1, "output slot {s} written {} times", writes[s]);
        }
    }
    for k in 0..body.num_carry {
        let (i, o) = (body.carry_in(k), body.carry_out(k));
        assert_eq!(body.slots[i].elements, body.slots[o].elements);
    }
    for j in 0..body.num_ys {
        assert!(body.slot_of(SlotRole::YRow(j)).is_some());
    }
}

#[test]
fn roles_of_inputs_and_outputs() {
    // consts w, carry c, x → (c' = sin(c·w + x), y = c'·x): c' is shared, so materialised.
    let ins = [f(&[2]), f(&[2]), f(&[2])];
    let body = trace_body(&ins, |a| {
        let t = bin(BinaryOp::Add, &bin(BinaryOp::Mul, &a[1], &a[0]), &a[2]);
        let c = bind(Primitive::Unary(UnaryOp::Sin), &[Operand::Value(&t)])?;
        let y = bin(BinaryOp::Mul, &c, &a[2]);
        Ok(vec![c, y])
    })
    .unwrap();
    let p = params(body, &ins, 1, 1);
    let b = plan(&p, DeviceLimits::UNBOUNDED).unwrap();
    check(&b);
    let roles: Vec<SlotRole> = b.slots.iter().map(|s| s.role).collect();
    assert_eq!(
        &roles[..3],
        &[SlotRole::Const(0), SlotRole::CarryIn(0), SlotRole::XRow(0)]
    );
    assert_eq!(b.kernel_count(), 2, "{b:?}");
    assert_eq!(
        (b.num_consts, b.num_carry, b.num_xs, b.num_ys),
        (1, 1, 1, 1)
    );
    assert_eq!(b.slots[2].bytes(), 8, "the x row stride");
    // The y kernel reads the carry-out slot.
    let LoopStep::Kernel { inputs, .. } = &b.steps[1] else {
        panic!("kernels")
    };
    assert!(inputs.contains(&b.carry_out(0)));
}

#[test]
fn pass_through_and_duplicate_outputs_get_steps_of_their_own() {
    // carry (c, d), x → (c, d, x + 1, x + 1, x): carries passed through, a y returned twice and
    // an x row returned as y.
    let ins = [f(&[3]), f(&[]), f(&[3])];
    let body = trace_body(&ins, |a| {
        let one = Value::Concrete(
            oxjax::transform::ArrayValue::weak_scalar(
                "t",
                1.0,
                DType::Float32,
                oxjax::core::Device::Cpu,
            )
            .unwrap(),
        );
        let t = bin(BinaryOp::Add, &a[2], &one);
        Ok(vec![a[0].clone(), a[1].clone(), t.clone(), t, a[2].clone()])
    })
    .unwrap();
    let p = params(body, &ins, 0, 2);
    let b = plan(&p, DeviceLimits::UNBOUNDED).unwrap();
    check(&b);
    assert_eq!(b.num_ys, 3);
    // Two pass-through carries, one shared y and one x passed through each need a copy.
    assert_eq!(b.kernel_count(), 5, "{b:?}");
    assert_ne!(b.carry_in(0), b.carry_out(0));
}

#[test]
fn routines_are_loop_steps() {
    let ins = [f(&[3, 3]), f(&[3, 3])];
    let body = trace_body(&ins, |a| {
        let s = bin(BinaryOp::Add, &a[0], &a[1]);
        let l = bind(Primitive::Cholesky, &[Operand::Value(&s)])?;
        Ok(vec![l.clone(), l])
    })
    .unwrap();
    let p = params(body, &ins, 0, 1);
    let b = plan(&p, DeviceLimits::UNBOUNDED).unwrap();
    check(&b);
    assert_eq!(b.routine_count(), 1);
    assert!(matches!(
        b.steps.iter().find(|s| matches!(s, LoopStep::Routine { .. })),
        Some(LoopStep::Routine { routine, .. }) if routine.name() == "cholesky"
    ));
}

#[test]
fn a_nested_scan_is_a_nested_loop_step() {
    // Inner: carry c, x → (c + x, y = c). Outer: carry c, xs row [5, 2] → (inner's final, y =
    // the inner ys + 1): the inner xs are the outer x row, the inner ys a temp of the outer.
    let inner = trace_body(&[f(&[2]), f(&[2])], |a| {
        Ok(vec![bin(BinaryOp::Add, &a[0], &a[1]), a[0].clone()])
    })
    .unwrap();
    let ins = [f(&[2]), f(&[5, 2])];
    let body = trace_body(&ins, |a| {
        let o = bind_scan(inner.clone(), &[], &a[..1], &a[1..], LOOP)?;
        let one = Value::Concrete(
            oxjax::transform::ArrayValue::weak_scalar(
                "t",
                1.0,
                DType::Float32,
                oxjax::core::Device::Cpu,
            )
            .unwrap(),
        );
        Ok(vec![o[0].clone(), bin(BinaryOp::Add, &o[1], &one)])
    })
    .unwrap();
    let p = params(body, &ins, 0, 1);
    let b = plan(&p, DeviceLimits::UNBOUNDED).unwrap();
    check(&b);
    assert_eq!(b.loop_count(), 1, "{b:?}");
    let Some(LoopStep::Loop {
        inner: lp,
        slots,
        init,
        finals,
    }) = b.steps.iter().find(|s| matches!(s, LoopStep::Loop { .. }))
    else {
        panic!("a loop step")
    };
    assert_eq!((lp.length, lp.reverse), (5, false));
    assert_eq!(lp.body.kernel_count(), 2);
    assert_eq!(init, &vec![b.carry_in(0)]);
    assert_eq!(
        b.slots[finals[0]].role,
        SlotRole::CarryOut(0),
        "the final carry is the outer's"
    );
    let x = lp.body.slot_of(SlotRole::XRow(0)).unwrap();
    assert_eq!(
        b.slots[slots[x]].role,
        SlotRole::XRow(0),
        "the inner xs are the outer x row"
    );

    // A twice-nested scan plans too; a nested scan that refuses "fused" does not.
    let ins3 = [f(&[2]), f(&[3, 5, 2])];
    let mid = trace_body(&ins, |a| {
        let o = bind_scan(inner.clone(), &[], &a[..1], &a[1..], LOOP)?;
        Ok(vec![o[0].clone()])
    })
    .unwrap();
    let deep = trace_body(&ins3, |a| {
        let lp = Loop { length: 3, ..LOOP };
        let o = bind_scan(mid.clone(), &[], &a[..1], &a[1..], lp)?;
        Ok(vec![o[0].clone()])
    })
    .unwrap();
    let p3 = params(deep, &ins3, 0, 1);
    let b3 = plan(&p3, DeviceLimits::UNBOUNDED).unwrap();
    check(&b3);
    let strict = trace_body(&ins, |a| {
        let lp = Loop {
            accept: AcceptPaths {
                fused: false,
                fallback: true,
            },
            ..LOOP
        };
        let o = bind_scan(inner.clone(), &[], &a[..1], &a[1..], lp)?;
        Ok(vec![o[0].clone()])
    })
    .unwrap();
    let why = plan(&params(strict, &ins, 0, 1), DeviceLimits::UNBOUNDED).unwrap_err();
    assert!(why.contains("fused"), "{why}");
}

#[test]
fn kernels_respect_the_device_limit() {
    // y = sum of eight distinct inputs: with a limit of 3, every kernel binds at most 3.
    let ins: Vec<Aval> = (0..8).map(|_| f(&[4])).collect();
    let body = trace_body(&ins, |a| {
        let mut s = a[0].clone();
        for x in &a[1..] {
            s = bin(BinaryOp::Add, &s, x);
        }
        Ok(vec![s.clone(), s])
    })
    .unwrap();
    let p = params(body, &ins, 7, 1);
    let b = plan(
        &p,
        DeviceLimits {
            max_kernel_inputs: 3,
            inline_terms: 0,
        },
    )
    .unwrap();
    check(&b);
    for step in &b.steps {
        if let LoopStep::Kernel { inputs, .. } = step {
            assert!(inputs.len() <= 3);
        }
    }
}

#[test]
fn set_debug_level_3_dumps_each_pass_of_every_scan_body() {
    use oxjax::core::Device;
    use oxjax::transform::{jit_cache, scan_fused};
    // Outer: carry c, xs row [4, 3] → (inner's final, y = c); inner: c · x over the row.
    let inner = trace_body(&[f(&[3]), f(&[3])], |a| {
        Ok(vec![bin(BinaryOp::Mul, &a[0], &a[1])])
    })
    .unwrap();
    let ins = [f(&[3]), f(&[4, 3])];
    let body = trace_body(&ins, |a| {
        let lp = Loop { length: 4, ..LOOP };
        let o = bind_scan(inner.clone(), &[], &a[..1], &a[1..], lp)?;
        Ok(vec![o[0].clone(), a[0].clone()])
    })
    .unwrap();
    let p = params(body, &ins, 0, 1);
    jit_cache::set_logging(3);
    let planned = scan_fused::plan(&p, Device::Cpu);
    let lowered = jit_cache::take_lowered();
    jit_cache::set_logging(0);
    let b = planned.unwrap();
    assert_eq!(b.loop_count(), 1);
    // The outer body, then the nested one: each through fusion and every listed pass.
    assert_eq!(lowered.len(), 2);
    let listed: Vec<&str> = oxjax::lower::PASSES.iter().map(|(n, _)| *n).collect();
    for l in &lowered {
        assert_eq!(l.what, "scan body");
        let names: Vec<&str> = l.passes.iter().map(|(n, _)| *n).collect();
        assert_eq!(names[0], "fuse");
        assert_eq!(names[1..], listed[..]);
        assert_eq!(l.passes.last().unwrap().1, l.program.describe());
    }
    assert_eq!(lowered[1].program.kernel_count(), 1, "the inner body's multiply");
    // The plan is the one planned without logging.
    let limits = oxjax::backend::registry::limits(Device::Cpu);
    assert_eq!(*b, plan(&p, limits).unwrap());
}
