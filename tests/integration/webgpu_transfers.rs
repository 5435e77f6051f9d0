//! Work that stays on the `webgpu` device natively (wgpu on Vulkan, lavapipe): sort and
//! argsort, the routines (cholesky, LU, triangular solve) and conv read nothing back to the
//! host and move nothing between devices until a result is read (`backend::transfers`), with
//! the storage-buffer limit forced to 8. Results are checked against the `cpu` device: sort
//! bit for bit, the float routines and conv within 1e-5·(1 + |cpu|).

use crate::common::trace::{array, read};
use crate::common::block_on;
use oxjax::backend::webgpu::WebGpuBackend;
use oxjax::backend::{registry, transfers};
use oxjax::core::{DType, Device, Primitive};
use oxjax::library::conv::{conv_general_dilated, Padding};
use oxjax::library::{indexing, lax_linalg};
use oxjax::transform::{eval, scope, ArrayValue, Value};

fn concrete(v: Value) -> ArrayValue {
    match v {
        Value::Concrete(a) => a,
        Value::Tracer(_) => panic!("eager work gave a tracer"),
    }
}

/// Every piece of work on `device`, not yet read. Operand-less operations (argsort's iota)
/// follow the committed operands, as inside every API call (`transform::scope`).
fn work(device: Device) -> Vec<ArrayValue> {
    let anchor = array(&[0.0], vec![1], DType::Float32, device);
    scope::follow(&[anchor], || work_in_scope(device))
}

fn work_in_scope(device: Device) -> Vec<ArrayValue> {
    let row: Vec<f64> = (0..300)
        .map(|i| match i % 37 {
            0 => f64::NAN,
            5 => -0.0,
            9 => f64::INFINITY,
            _ => (((i as f64) * 0.71).sin() * 4.0).round() / 2.0,
        })
        .collect();
    let x = array(&row, vec![3, 100], DType::Float32, device);
    let spd = array(
        &[4.0, 1.0, 0.5, 1.0, 3.0, 0.2, 0.5, 0.2, 2.0],
        vec![3, 3],
        DType::Float32,
        device,
    );
    let b = array(&[1.0, 2.0, 3.0, 4.0, 5.0, 6.0], vec![3, 2], DType::Float32, device);
    let img: Vec<f64> = (0..2 * 3 * 6 * 6).map(|i| (i as f64).sin()).collect();
    let ker: Vec<f64> = (0..4 * 3 * 3 * 3).map(|i| (i as f64).cos()).collect();
    let img = array(&img, vec![2, 3, 6, 6], DType::Float32, device);
    let ker = array(&ker, vec![4, 3, 3, 3], DType::Float32, device);
    let mut out = Vec::new();
    for axis in [0, 1] {
        out.push(indexing::sort("sort", &x, axis, false).unwrap());
        out.push(indexing::sort("argsort", &x, axis, true).unwrap());
    }
    let l = lax_linalg::cholesky_lower("cholesky", &spd).unwrap();
    out.push(lax_linalg::triangular_solve("t", &l, &b, true, true, false, false).unwrap());
    out.push(l);
    out.push(conv_general_dilated(&img, &ker, &[1, 1], &Padding::Same, None, None, 1).unwrap());
    let mut out: Vec<ArrayValue> = out.into_iter().map(concrete).collect();
    out.extend(eval::apply_multi(&Primitive::Lu, &[&concrete(spd)]).unwrap());
    out
}

#[test]
fn sort_routines_and_conv_stay_on_webgpu_and_match_cpu() {
    let gpu = block_on(WebGpuBackend::new(Some(8))).expect("a Vulkan adapter (lavapipe)");
    registry::install_webgpu(gpu);
    // Small operations on host-held arrays would run on the host (`eval_host`): these
    // check the device's kernels.
    oxjax::transform::eval_host::set_enabled(false);
    let before = transfers::get(Device::WebGpu);
    let got = work(Device::WebGpu);
    let during = transfers::get(Device::WebGpu);
    assert_eq!(
        during.readbacks, before.readbacks,
        "no readback before a read"
    );
    assert_eq!(during.moves, before.moves, "no move between devices");
    let want = work(Device::Cpu);
    for (k, (g, w)) in got.iter().zip(&want).enumerate() {
        assert_eq!(g.device, Device::WebGpu);
        assert_eq!(g.aval, w.aval, "output {k}");
        let (g, w) = (read(g), read(w));
        // The four sort outputs first: bit for bit (NaN placement included).
        let tol = if k < 4 { 0.0 } else { 1e-5 };
        for (i, (a, b)) in g.iter().zip(&w).enumerate() {
            let same =
                a == b || (a.is_nan() && b.is_nan()) || (a - b).abs() <= tol * (1.0 + b.abs());
            let signs = tol > 0.0 || a.is_nan() || a.is_sign_negative() == b.is_sign_negative();
            assert!(same && signs, "output {k}[{i}]: {a} vs {b}");
        }
    }
    let after = transfers::get(Device::WebGpu);
    assert_eq!(after.readbacks, during.readbacks + got.len() as u64);
    assert_eq!(after.moves, before.moves);
    drop((got, want));
    drop(registry::uninstall_webgpu());
}
