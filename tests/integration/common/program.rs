//! Helper of the whole-program webgpu tests (`webgpu_whole.rs`, `webgpu_stages.rs`): a lowered
//! Program of one `[n, 2, 2]` (or `[n, d, d]`) float32 input run on webgpu and on the `cpu` device (the oracle),
//! compared element by element, with the webgpu dispatches of the run counted.
#![cfg(not(target_arch = "wasm32"))]

use super::trace::{data, f32s, read};
use oxjax::backend::registry;
use oxjax::core::Device;
use oxjax::lower::Program;
use oxjax::transform::jit::execute;
use oxjax::transform::runnable::Runnable;
use oxjax::transform::ArrayValue;

fn on(device: Device, values: &[f64], shape: &[usize]) -> ArrayValue {
    let cpu = f32s(values, shape.to_vec());
    oxjax::transform::eval::to_device("t", &cpu, device).unwrap()
}

/// Runs `p` on webgpu and cpu and returns the webgpu dispatches of the run. Each element must
/// lie within `tol(want, scale)` of the cpu's, `scale` being the largest |value| of that output
/// (at least 1).
pub fn webgpu_vs_cpu(p: &Program, n: usize, tol: impl Fn(f64, f64) -> f64) -> u64 {
    webgpu_vs_cpu_square(p, n, 2, tol)
}

/// [`webgpu_vs_cpu`] for a Program of one `[n, d, d]` input.
pub fn webgpu_vs_cpu_square(p: &Program, n: usize, d: usize, tol: impl Fn(f64, f64) -> f64) -> u64 {
    let shape = [n, d, d];
    let xs: Vec<f64> = data(n * d * d, 1.0).iter().map(|v| v * 0.3).collect();
    let p = &Runnable::new(p.clone());
    let want = execute(p, vec![on(Device::Cpu, &xs, &shape)], Device::Cpu).unwrap();
    let x = on(Device::WebGpu, &xs, &shape);
    let before = registry::stats(Device::WebGpu).unwrap().dispatches;
    let got = execute(p, vec![x], Device::WebGpu).unwrap();
    let dispatches = registry::stats(Device::WebGpu).unwrap().dispatches - before;
    assert_outputs_close(&got, &want, tol, &format!("n={n}"));
    dispatches
}

/// Asserts that `got` has `want`'s outputs, each element within `tol(want, scale)` of
/// `want`'s, `scale` being the largest |value| of that output (at least 1).
pub fn assert_outputs_close(
    got: &[ArrayValue],
    want: &[ArrayValue],
    tol: impl Fn(f64, f64) -> f64,
    label: &str,
) {
    assert_eq!(got.len(), want.len(), "{label}: outputs");
    for (j, (g, w)) in got.iter().zip(want).enumerate() {
        assert_eq!(g.aval, w.aval, "{label}: output {j}");
        let (g, w) = (read(g), read(w));
        let scale = w.iter().fold(1.0f64, |m, v| m.max(v.abs()));
        for (i, (a, b)) in g.iter().zip(&w).enumerate() {
            assert!(
                (a - b).abs() <= tol(*b, scale),
                "{label} out {j}[{i}]: {a} vs {b}"
            );
        }
    }
}
