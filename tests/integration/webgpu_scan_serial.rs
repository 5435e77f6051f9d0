//! The serial looping scan shader (`backend/webgpu/program/serial.rs`), natively on wgpu over Vulkan
//! (lavapipe) with the storage-buffer limit forced to 8: the step of case 2 of `bench/README.md`
//! (RTS-style: r' = Aᵀ·r + b, N' = Aᵀ·N·A + S, y = r', xs A, b, S) with m = 2 is taken by the
//! serial shader (one warp running the step unrolled, xs rows staged in workgroup memory a chunk at
//! a time: one barrier per chunk, none per step; its WGSL validated by naga), runs as ONE dispatch
//! per scan forward and reverse, including scans shorter than a chunk, lengths a chunk does not
//! divide and lengths it does, and matches the `cpu` device and, bit for bit, the level-scheduled
//! shader; m = 3 and m = 8 bodies are too large for it and run level-scheduled.

use crate::common::trace::{array, op, read_value};
use crate::common::wgsl::validate_source;
use crate::common::{block_on, values};
use oxjax::backend::registry;
use oxjax::backend::webgpu::program::serial;
use oxjax::backend::webgpu::WebGpuBackend;
use oxjax::core::ops::BinaryOp;
use oxjax::core::scan::{AcceptPaths, ScanParams};
use oxjax::core::{Aval, DType, Device, Primitive};
use oxjax::kernel::device_program::DeviceProgram;
use oxjax::kernel::DeviceLimits;
use oxjax::lower::scan_plan::plan;
use oxjax::transform::scan::{bind_scan, trace_body, Loop};
use oxjax::transform::scan_eval;
use oxjax::transform::trace::ClosedJaxpr;
use std::rc::Rc;

const F: DType = DType::Float32;

/// The body avals: carries r [m,1], N [m,m]; x rows A [m,m], b [m,1], S [m,m].
fn avals(m: usize) -> Vec<Aval> {
    let (v, s) = (Aval::new(vec![m, 1], F), Aval::new(vec![m, m], F));
    vec![v.clone(), s.clone(), s.clone(), v, s]
}

/// The RTS step of case 2 (tests/shared/scan_bodies.mjs `rtsStep`).
pub(crate) fn rts_body(m: usize) -> ClosedJaxpr {
    trace_body(&avals(m), |a| {
        let at = op(Primitive::Transpose(vec![1, 0]), &[&a[2]]);
        let atr = op(Primitive::Matmul, &[&at, &a[0]]);
        let r = op(Primitive::Binary(BinaryOp::Add), &[&atr, &a[3]]);
        let atn = op(Primitive::Matmul, &[&at, &a[1]]);
        let atna = op(Primitive::Matmul, &[&atn, &a[2]]);
        let n = op(Primitive::Binary(BinaryOp::Add), &[&atna, &a[4]]);
        Ok(vec![r.clone(), n, r])
    })
    .unwrap()
}

fn lp(n: usize, reverse: bool) -> Loop {
    Loop {
        length: n,
        reverse,
        segment: 1,
        accept: AcceptPaths::ANY,
    }
}

/// The scan parameters of the case-2 scan over `n` steps.
fn params(m: usize, n: usize, reverse: bool) -> ScanParams {
    let mut outer: Vec<Aval> = avals(m)[..2].to_vec();
    for x in &avals(m)[2..] {
        outer.push(Aval::new([vec![n], x.shape.clone()].concat(), F));
    }
    let closed = trace_body(&outer, |a| {
        bind_scan(rts_body(m), &[], &a[..2], &a[2..], lp(n, reverse))
    })
    .unwrap();
    let Primitive::Scan(p) = &closed.jaxpr.eqns.last().unwrap().primitive else {
        panic!("a scan")
    };
    p.clone()
}

fn serial_source(m: usize, n: usize, reverse: bool, lanes: u32) -> Option<String> {
    let limits = DeviceLimits {
        max_kernel_inputs: 7,
        inline_terms: oxjax::backend::webgpu::INLINE_TERMS,
    };
    let body = plan(&params(m, n, reverse), limits).expect("a compilable body");
    let l = DeviceProgram {
        body: Rc::new(body),
        length: n,
        reverse,
    };
    serial::source(&l, lanes).unwrap().map(|(_, s)| s)
}

/// Runs the scan on `device`: (final r, final N, ys).
pub(crate) fn run(m: usize, n: usize, reverse: bool, device: Device) -> Vec<Vec<f64>> {
    let s = m * m;
    let a: Vec<f64> = (0..n * s)
        .map(|k| 0.3 * values(1, k as f64)[0] / 10.0 + if k % (m + 1) == 0 { 0.9 } else { 0.0 })
        .collect();
    let r0 = array(&values(m, 1.0), vec![m, 1], F, device);
    let n0 = array(&values(s, 2.0), vec![m, m], F, device);
    let xs = [
        array(&a, vec![n, m, m], F, device),
        array(&values(n * m, 3.0), vec![n, m, 1], F, device),
        array(&values(n * s, 4.0), vec![n, m, m], F, device),
    ];
    let outs = bind_scan(rts_body(m), &[], &[r0, n0], &xs, lp(n, reverse)).unwrap();
    outs.iter().map(read_value).collect()
}

/// Runs on webgpu: the results, the dispatches of the scan and its path detail.
fn on_gpu(m: usize, n: usize, reverse: bool) -> (Vec<Vec<f64>>, u64, String) {
    let (got, dispatches, _, detail) = fused_on_gpu(m, n, reverse);
    (got, dispatches, detail)
}

/// Runs on webgpu, asserting that the scan ran fused: the results, the dispatches and shader
/// compilations of the run and the scan's path detail.
pub(crate) fn fused_on_gpu(m: usize, n: usize, reverse: bool) -> (Vec<Vec<f64>>, u64, u64, String) {
    scan_eval::drain_events();
    let before = registry::stats(Device::WebGpu).unwrap();
    let got = run(m, n, reverse, Device::WebGpu);
    let after = registry::stats(Device::WebGpu).unwrap();
    let event = scan_eval::drain_events()
        .into_iter()
        .find(|e| e.device == "webgpu")
        .expect("a path event");
    assert_eq!(event.path, "fused", "m={m} n={n} reverse={reverse}: {event:?}");
    let dispatches = after.dispatches - before.dispatches;
    (got, dispatches, after.shader_compiles - before.shader_compiles, event.detail)
}

pub(crate) fn set_serial(on: bool) {
    let mut gpu = registry::uninstall_webgpu().unwrap();
    gpu.set_loop_serial(on);
    registry::install_webgpu(gpu);
}

/// GPU adapters run the serial shader on a warp ([`serial::LANES`] invocations), CPU
/// adapters on one invocation; lavapipe is a CPU adapter, `fast` makes it take the GPU's.
pub(crate) fn set_fast(on: bool) {
    let mut gpu = registry::uninstall_webgpu().unwrap();
    gpu.set_fast_kernels(on);
    registry::install_webgpu(gpu);
}

#[test]
fn tiny_bodies_run_serially_in_one_dispatch() {
    for lanes in [serial::LANES, 1] {
        for (n, reverse) in [(40, true), (3, false), (1, true), (64, false)] {
            let source =
                serial_source(2, n, reverse, lanes).expect("m = 2 suits the serial shader");
            validate_source("serial shader", &source);
            assert!(source.contains(&format!("@workgroup_size({lanes})")));
            // One barrier after the first chunk is staged, one per chunk in the loop.
            assert_eq!(
                source.matches("Barrier").count(),
                2,
                "barriers in\n{source}"
            );
        }
    }
    // m = 3 fits too (its 3×3 products are written out in their consumers); m = 8 has
    // ~1100 element-terms per step: level-scheduled.
    assert!(serial_source(3, 10, true, 1).is_some());
    assert!(serial_source(8, 10, true, 1).is_none());

    registry::install_webgpu(block_on(WebGpuBackend::new(Some(8))).expect("a Vulkan adapter"));
    scan_eval::set_reporting(true);
    for (m, n, reverse) in [
        (2, 100, true),
        (2, 37, false),
        (2, 3, true),
        (2, 1, false),
        (2, 64, true),
        (3, 20, true),
    ] {
        let name = format!("m={m} n={n} reverse={reverse}");
        let want = run(m, n, reverse, Device::Cpu);
        let mut serial = Vec::new();
        for fast in [false, true] {
            set_fast(fast);
            let (got, dispatches, detail) = on_gpu(m, n, reverse);
            assert!(detail.contains("one dispatch, serial"), "{name}: {detail}");
            let lanes = if fast { serial::LANES } else { 1 };
            assert!(
                detail.contains(&format!("({lanes} invocation")),
                "{name}: {detail}"
            );
            assert_eq!(dispatches, 1, "{name}: {detail}");
            for (k, (g, w)) in got.iter().zip(&want).enumerate() {
                assert_eq!(g.len(), w.len());
                for (j, (a, b)) in g.iter().zip(w).enumerate() {
                    assert!(
                        (a - b).abs() <= 2e-5 * (1.0 + b.abs()),
                        "{name} output {k}[{j}]: {a} vs {b}"
                    );
                }
            }
            serial.push(got);
        }
        set_fast(false);
        // The same sums as the level-scheduled shader, bit for bit, on a warp or not.
        set_serial(false);
        let (level, dispatches, detail) = on_gpu(m, n, reverse);
        set_serial(true);
        assert!(!detail.contains("serial"), "{name}: {detail}");
        assert_eq!(dispatches, 1, "{name}: {detail}");
        assert_eq!(serial[0], level, "{name}: serial vs level-scheduled");
        assert_eq!(
            serial[1], level,
            "{name}: serial on a warp vs level-scheduled"
        );
    }
    for m in [8] {
        let want = run(m, 20, true, Device::Cpu);
        let (got, dispatches, detail) = on_gpu(m, 20, true);
        assert!(!detail.contains("serial"), "m={m}: {detail}");
        assert!(detail.contains("workgroup of"), "m={m}: {detail}");
        assert_eq!(dispatches, 1, "m={m}: {detail}");
        for (g, w) in got.iter().flatten().zip(want.iter().flatten()) {
            assert!((g - w).abs() <= 2e-5 * (1.0 + w.abs()), "m={m}: {g} vs {w}");
        }
    }
    scan_eval::set_reporting(false);
    registry::uninstall_webgpu();
}

/// A scan nested in the body (an outer scan of 2 steps running the RTS scan, m = 2, over 3
/// rows of its x row): the serial shader runs the inner loop inside its step, one dispatch,
/// on one invocation and on a warp, equal to the `cpu` device.
#[test]
fn nested_scans_run_inside_the_serial_shader() {
    registry::install_webgpu(block_on(WebGpuBackend::new(Some(8))).expect("a Vulkan adapter"));
    scan_eval::set_reporting(true);
    let want = crate::webgpu_scan::nested(Device::Cpu);
    for fast in [false, true] {
        set_fast(fast);
        scan_eval::drain_events();
        let before = registry::stats(Device::WebGpu).unwrap();
        let got = crate::webgpu_scan::nested(Device::WebGpu);
        let after = registry::stats(Device::WebGpu).unwrap();
        for (k, (g, w)) in got.iter().zip(&want).enumerate() {
            assert!((g - w).abs() <= 2e-5 * (1.0 + w.abs()), "fast {fast} [{k}]: {g} vs {w}");
        }
        assert_eq!(got.len(), want.len());
        assert_eq!(after.dispatches - before.dispatches, 1, "fast {fast}");
        let events = scan_eval::drain_events();
        let outer: Vec<_> = events.iter().filter(|e| e.length == 2).collect();
        assert_eq!(outer.len(), 1, "{events:?}");
        assert!(
            outer[0].path == "fused"
                && outer[0].detail.contains("serial")
                && outer[0].detail.contains("1 nested loops"),
            "{events:?}"
        );
    }
    set_fast(false);
    scan_eval::set_reporting(false);
    registry::uninstall_webgpu();
}
