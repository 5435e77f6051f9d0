//! The wasm loop module's size limits (`backend/wasm/emit/loops.rs`) and the planner's cap on
//! body size (`lower/scan_plan.rs`): a body too large for one module is refused with a reason
//! (the scan then runs as the host loop, tests/api/scan-large.test.mjs), never a panic or a
//! module the engine refuses. The driver's local count is checked against the emitted bytes.

use oxjax::backend::wasm::emit::loops::{driver_locals, emit_loop, MAX_LOCALS, MAX_MODULE_BYTES};
use oxjax::core::ops::BinaryOp;
use oxjax::core::scan::{AcceptPaths, ScanParams};
use oxjax::core::{Aval, DType, Primitive};
use oxjax::kernel::device_program::{LoopBody, LoopStep, SlotInfo, SlotRole};
use oxjax::kernel::{AluExp, DeviceLimits, Kernel};
use oxjax::lower::scan_plan::{body_eqns, plan, MAX_BODY_EQNS};
use oxjax::transform::scan::{bind_scan, trace_body, Loop};
use oxjax::transform::trace::{bind, ClosedJaxpr, Operand, Value};

const F32: DType = DType::Float32;

/// A body carrying 4 floats through `n` kernels `t ← t·k_j` (each a temp slot, the last the
/// carry-out); with `distinct`, every k_j differs, so no two kernels share a function.
fn chain(n: usize, distinct: bool) -> LoopBody {
    let info = |role| SlotInfo {
        role,
        dtype: F32,
        elements: 4,
    };
    let mut slots = vec![info(SlotRole::CarryIn(0))];
    let mut steps = Vec::with_capacity(n);
    for j in 0..n {
        slots.push(info(if j + 1 == n {
            SlotRole::CarryOut(0)
        } else {
            SlotRole::Temp
        }));
        let k = if distinct { 1.0 + j as f64 / 1e6 } else { 0.5 };
        let exp = AluExp::binary(
            BinaryOp::Mul,
            AluExp::load(F32, 0, AluExp::index()),
            AluExp::constant(F32, k),
        );
        steps.push(LoopStep::Kernel {
            kernel: Kernel::elementwise(vec![F32], 4, exp),
            inputs: vec![slots.len() - 2],
            output: slots.len() - 1,
        });
    }
    LoopBody {
        slots,
        steps,
        num_consts: 0,
        num_carry: 1,
        num_xs: 0,
        num_ys: 0,
        rows: vec![],
    }
}

fn f(shape: &[usize]) -> Aval {
    Aval::new(shape.to_vec(), F32)
}

fn add(a: &Value, b: &Value) -> Value {
    bind(
        Primitive::Binary(BinaryOp::Add),
        &[Operand::Value(a), Operand::Value(b)],
    )
    .unwrap()
}

const LOOP: Loop = Loop {
    length: 3,
    reverse: false,
    segment: 1,
    accept: AcceptPaths::ANY,
};

/// A body (carry c, x row) → (c + x + x + … (`n` adds), c): `n` equations.
fn adds(n: usize) -> ClosedJaxpr {
    trace_body(&[f(&[2]), f(&[2])], |a| {
        let mut c = a[0].clone();
        for _ in 0..n {
            c = add(&c, &a[1]);
        }
        Ok(vec![c, a[0].clone()])
    })
    .unwrap()
}

/// The scan parameters of `body` (one carry of [2], xs rows of [2]), optionally nested in an
/// outer body that scans it over its own x row of [3, 2] and adds one equation.
fn params(body: ClosedJaxpr, nested: bool) -> ScanParams {
    let (body, row) = if nested {
        let outer = trace_body(&[f(&[2]), f(&[3, 2])], |a| {
            let o = bind_scan(body.clone(), &[], &a[..1], &a[1..], LOOP)?;
            Ok(vec![add(&o[0], &a[0]), o[1].clone()])
        })
        .unwrap();
        (outer, f(&[3, 3, 2]))
    } else {
        (body, f(&[3, 2]))
    };
    let closed = trace_body(&[f(&[2]), row], |a| {
        bind_scan(body, &[], &a[..1], &a[1..], LOOP)
    })
    .unwrap();
    let Primitive::Scan(p) = &closed.jaxpr.eqns.last().unwrap().primitive else {
        panic!("a scan")
    };
    p.clone()
}

/// The locals (parameters excluded) of the function exported as the driver.
fn driver_locals_in(bytes: &[u8]) -> usize {
    use wasmparser::{ExternalKind, Parser, Payload};
    let mut driver = None;
    let mut index = 0;
    for payload in Parser::new(0).parse_all(bytes) {
        match payload.unwrap() {
            Payload::ImportSection(s) => {
                for imp in s.into_imports() {
                    let imp = imp.unwrap();
                    if matches!(imp.ty, wasmparser::TypeRef::Func(_)) {
                        index += 1;
                    }
                }
            }
            Payload::ExportSection(s) => {
                for e in s {
                    let e = e.unwrap();
                    if e.name == "kernel" && e.kind == ExternalKind::Func {
                        driver = Some(e.index);
                    }
                }
            }
            Payload::CodeSectionEntry(body) => {
                if Some(index) == driver {
                    let mut locals = 0;
                    for l in body.get_locals_reader().unwrap() {
                        locals += l.unwrap().0 as usize;
                    }
                    return locals;
                }
                index += 1;
            }
            _ => {}
        }
    }
    panic!("no driver function")
}

#[test]
fn bodies_over_the_equation_cap_are_not_planned() {
    let under = params(adds(100), false);
    assert_eq!(body_eqns(under.body.jaxpr()), 100);
    assert!(plan(&under, DeviceLimits::UNBOUNDED).is_ok());
    // A nested scan counts with its body: 1 + 100 + the outer add.
    let nested = params(adds(100), true);
    assert_eq!(body_eqns(nested.body.jaxpr()), 102);
    let over = params(adds(MAX_BODY_EQNS + 1), false);
    let why = plan(&over, DeviceLimits::UNBOUNDED).unwrap_err();
    assert!(
        why.contains(&format!("{} equations", MAX_BODY_EQNS + 1)),
        "{why}"
    );
    // Over the cap through the nested body alone.
    let deep = params(adds(MAX_BODY_EQNS), true);
    let why = plan(&deep, DeviceLimits::UNBOUNDED).unwrap_err();
    assert!(why.contains("equations"), "{why}");
}

#[test]
fn the_driver_locals_are_counted_before_emitting() {
    for body in [
        chain(1000, false),
        plan(&params(adds(5), true), DeviceLimits::UNBOUNDED).unwrap(),
        plan(&params(adds(5), false), DeviceLimits::UNBOUNDED).unwrap(),
    ] {
        let bytes = emit_loop(&body).unwrap();
        // The estimate counts the three parameters and one swap temp per run that the driver
        // may leave unused.
        let have = driver_locals_in(&bytes) + 3;
        let want = driver_locals(&body, false);
        assert!(have <= want && want <= have + 2, "{have} vs {want}");
    }
    let why = emit_loop(&chain(MAX_LOCALS, false)).unwrap_err();
    assert!(why.message().contains("locals"), "{}", why.message());
}

#[test]
fn a_module_over_the_byte_cap_is_refused() {
    // ~174 bytes per distinct kernel function: 44,000 of them pass 7 MiB, under 50,000 locals.
    let n = 44_000;
    assert!(driver_locals(&chain(n, true), false) < MAX_LOCALS);
    let why = emit_loop(&chain(n, true)).unwrap_err();
    assert!(why.message().contains("KB"), "{}", why.message());
    let fits = emit_loop(&chain(n, false)).unwrap();
    assert!(fits.len() < MAX_MODULE_BYTES);
}
