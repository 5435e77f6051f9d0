//! Compiled scans on the webgpu device, natively on wgpu over Vulkan (lavapipe) with the
//! storage-buffer limit forced to 8, through the whole stack (trace → plan → backend): case 2 of
//! `bench/README.md` (an RTS-style reverse scan: transpose → matmul → matmul → add on an m×m state)
//! runs as exactly ONE dispatch per scan, path "fused"; a body too large for one workgroup runs
//! pre-encoded (one dispatch per kernel and step, encoded without a submit per step); a body with a
//! routine runs as the host loop and says why; a scan nested in a scan body runs inside the outer
//! loop's one dispatch. Oracle: the same scan on the `cpu` device.

use crate::common::trace::{array, op, read_value};
use crate::common::{block_on, values};
use oxjax::backend::registry;
use oxjax::backend::webgpu::WebGpuBackend;
use oxjax::core::ops::BinaryOp;
use oxjax::core::scan::AcceptPaths;
use oxjax::core::{Aval, DType, Device, Primitive};
use oxjax::transform::scan::{bind_scan, trace_body, Loop};
use oxjax::transform::scan_eval;
use oxjax::transform::trace::ClosedJaxpr;

const F: DType = DType::Float32;

/// consts A, carry P, x Q → P' = A·Pᵀ·A + Q, y = P' (`cholesky`: y = chol(P'·P'ᵀ + I)).
fn rts_body(m: usize, cholesky: bool) -> ClosedJaxpr {
    let s = Aval::new(vec![m, m], F);
    trace_body(&[s.clone(), s.clone(), s], |a| {
        let pt = op(Primitive::Transpose(vec![1, 0]), &[&a[1]]);
        let u = op(Primitive::Matmul, &[&a[0], &pt]);
        let v = op(Primitive::Matmul, &[&u, &a[0]]);
        let next = op(Primitive::Binary(BinaryOp::Add), &[&v, &a[2]]);
        let y = if cholesky {
            let t = op(Primitive::Transpose(vec![1, 0]), &[&next]);
            let g = op(Primitive::Matmul, &[&next, &t]);
            let g = op(Primitive::Binary(BinaryOp::Add), &[&g, &a[2]]);
            op(Primitive::Cholesky, &[&g])
        } else {
            next.clone()
        };
        Ok(vec![next, y])
    })
    .unwrap()
}

/// Runs the scan on `device`: (final P, ys).
fn run(m: usize, n: usize, reverse: bool, cholesky: bool, device: Device) -> (Vec<f64>, Vec<f64>) {
    let a: Vec<f64> = values(m * m, 1.0)
        .iter()
        .map(|v| v / (12.0 * m as f64))
        .collect();
    let q: Vec<f64> = (0..n * m * m)
        .map(|k| {
            let (i, j) = ((k / m) % m, k % m);
            0.05 * values(1, k as f64)[0] + if i == j { 2.0 } else { 0.0 }
        })
        .collect();
    let a = array(&a, vec![m, m], F, device);
    let p0 = array(&values(m * m, 3.0), vec![m, m], F, device);
    let xs = array(&q, vec![n, m, m], F, device);
    let lp = Loop {
        length: n,
        reverse,
        segment: 1,
        accept: AcceptPaths::ANY,
    };
    let outs = bind_scan(rts_body(m, cholesky), &[a], &[p0], &[xs], lp).unwrap();
    (read_value(&outs[0]), read_value(&outs[1]))
}

/// An outer scan of 2 steps whose body runs the RTS scan (m = 2) over 3 rows: the final P.
pub(crate) fn nested(device: Device) -> Vec<f64> {
    let m = 2;
    let s = Aval::new(vec![m, m], F);
    let q: Vec<f64> = (0..6 * m * m).map(|k| values(1, k as f64)[0]).collect();
    let lp = |length| Loop {
        length,
        reverse: false,
        segment: 1,
        accept: AcceptPaths::ANY,
    };
    let body = trace_body(&[s.clone(), s, Aval::new(vec![3, m, m], F)], |a| {
        let o = bind_scan(rts_body(m, false), &a[..1], &a[1..2], &a[2..], lp(3))?;
        Ok(vec![o[0].clone()])
    })
    .unwrap();
    let a = array(&values(m * m, 1.0), vec![m, m], F, device);
    let p0 = array(&values(m * m, 3.0), vec![m, m], F, device);
    let xs = array(&q, vec![2, 3, m, m], F, device);
    read_value(&bind_scan(body, &[a], &[p0], &[xs], lp(2)).unwrap()[0])
}

fn close(what: &str, got: &[f64], want: &[f64]) {
    assert_eq!(got.len(), want.len(), "{what}: length");
    for (k, (g, w)) in got.iter().zip(want).enumerate() {
        assert!(
            (g - w).abs() <= 2e-5 * (1.0 + w.abs()),
            "{what}[{k}]: {g} vs {w}"
        );
    }
}

/// Runs on webgpu and cpu; returns the webgpu dispatches and submits the scan made and its
/// path event.
fn check(m: usize, n: usize, reverse: bool, cholesky: bool) -> (u64, u64, scan_eval::PathEvent) {
    let name = format!("m={m} n={n} reverse={reverse}");
    let want = run(m, n, reverse, cholesky, Device::Cpu);
    scan_eval::drain_events();
    let before = registry::stats(Device::WebGpu).unwrap();
    let got = run(m, n, reverse, cholesky, Device::WebGpu);
    let after = registry::stats(Device::WebGpu).unwrap();
    close(&format!("{name} P"), &got.0, &want.0);
    close(&format!("{name} ys"), &got.1, &want.1);
    let event = scan_eval::drain_events()
        .into_iter()
        .find(|e| e.device == "webgpu")
        .expect("a path event");
    // The reads submit; what the scan itself adds is counted from the dispatches.
    (
        after.dispatches - before.dispatches,
        after.submits - before.submits,
        event,
    )
}

/// carry c [4], x [4] → t = sqrt(Σx²) (a reduction with an epilogue), c' = t − c, y = t: run
/// on `device`, (final c, ys).
fn epilogue_scan(device: Device) -> (Vec<f64>, Vec<f64>) {
    let v = Aval::new(vec![4], F);
    let body = trace_body(&[v.clone(), v], |a| {
        let sq = op(Primitive::Binary(BinaryOp::Mul), &[&a[1], &a[1]]);
        let s = op(
            Primitive::Reduce {
                op: oxjax::core::ops::ReduceOp::Sum,
                axes: vec![0],
            },
            &[&sq],
        );
        let t = op(Primitive::Unary(oxjax::core::ops::UnaryOp::Sqrt), &[&s]);
        let tb = op(
            Primitive::Broadcast {
                shape: vec![4],
                axes: vec![],
            },
            &[&t],
        );
        let next = op(Primitive::Binary(BinaryOp::Sub), &[&tb, &a[0]]);
        Ok(vec![next, t])
    })
    .unwrap();
    let c0 = array(&values(4, 1.0), vec![4], F, device);
    let xs = array(&values(40, 2.0), vec![10, 4], F, device);
    let lp = Loop {
        length: 10,
        reverse: false,
        segment: 1,
        accept: AcceptPaths::ANY,
    };
    let outs = bind_scan(body, &[], &[c0], &[xs], lp).unwrap();
    (read_value(&outs[0]), read_value(&outs[1]))
}

#[test]
fn compiled_scans_on_webgpu() {
    registry::install_webgpu(block_on(WebGpuBackend::new(Some(8))).expect("a Vulkan adapter"));
    scan_eval::set_reporting(true);
    // Case 2: one dispatch per scan, whatever N, m = 2..8, both directions, with the state in
    // workgroup memory (xs rows prefetched) and all in the storage buffer.
    for memory in ["workgroup", "storage"] {
        let mut gpu = registry::uninstall_webgpu().unwrap();
        gpu.set_loop_workgroup_memory(memory == "workgroup");
        // The level-scheduled shader for every size (tiny bodies: tests/integration/webgpu_scan_serial.rs).
        gpu.set_loop_serial(false);
        registry::install_webgpu(gpu);
        for (m, n) in [(2, 100), (3, 37), (5, 64), (8, 100), (2, 1600)] {
            for reverse in [true, false] {
                let (dispatches, _, event) = check(m, n, reverse, false);
                assert_eq!(event.path, "fused", "{event:?}");
                assert!(event.detail.contains("one dispatch"), "{event:?}");
                assert!(
                    event.detail.contains(&format!("state in {memory}")),
                    "{event:?}"
                );
                assert_eq!(dispatches, 1, "m={m} n={n}: {event:?}");
            }
        }
    }
    // Too large for one workgroup: pre-encoded, a dispatch per kernel and step, no submit
    // per step (the two reads of the results submit at most twice).
    let (dispatches, submits, event) = check(40, 12, true, false);
    assert_eq!(event.path, "fused", "{event:?}");
    assert!(event.detail.contains("pre-encoded"), "{event:?}");
    assert_eq!(dispatches % 12, 0, "{dispatches} dispatches");
    assert!(dispatches >= 2 * 12, "{dispatches} dispatches");
    assert!(submits <= 3, "{submits} submits");
    // A reduction with an epilogue (sqrt of a sum) inside the one dispatch.
    scan_eval::drain_events();
    let want = epilogue_scan(Device::Cpu);
    let before = registry::stats(Device::WebGpu).unwrap();
    let got = epilogue_scan(Device::WebGpu);
    assert_eq!(
        registry::stats(Device::WebGpu).unwrap().dispatches - before.dispatches,
        1
    );
    close("epilogue c", &got.0, &want.0);
    close("epilogue ys", &got.1, &want.1);
    // A routine in the body: the host loop, saying why.
    let (_, _, event) = check(3, 5, true, true);
    assert_eq!(event.path, "fallback", "{event:?}");
    assert!(event.detail.contains("cholesky"), "{event:?}");
    // A nested scan: the outer loop runs the inner one inside its dispatch, ONE dispatch in
    // all, path "fused" for both (the inner one reported once per outer step).
    let want = nested(Device::Cpu);
    scan_eval::drain_events();
    let before = registry::stats(Device::WebGpu).unwrap();
    close("nested", &nested(Device::WebGpu), &want);
    let after = registry::stats(Device::WebGpu).unwrap();
    assert_eq!(after.dispatches - before.dispatches, 1);
    let events = scan_eval::drain_events();
    let outer: Vec<_> = events.iter().filter(|e| e.length == 2).collect();
    assert_eq!(outer.len(), 1, "{events:?}");
    assert_eq!(outer[0].path, "fused", "{events:?}");
    assert!(outer[0].detail.contains("nested"), "{events:?}");
    assert!(events.iter().all(|e| e.path == "fused"), "{events:?}");
    scan_eval::set_reporting(false);
    registry::uninstall_webgpu();
}
