//! The FFT routine (`kernel::RoutineKind::Fft`) on every device that runs natively: the `cpu`
//! reference (f64, shared with the wasm device) against the dense transform in f64, the wasm
//! host routine equal to it bit for bit, and the WebGPU transform (naga-validated, run on
//! Vulkan/lavapipe with 8 storage buffers; float32 arithmetic) within 3e-5 of the largest
//! output magnitude, over powers of two (radix-2, tiles and global stages) and other lengths
//! (Bluestein), forward and inverse, in batches.

use crate::common::{block_on, decode, encode, run_routine_on};
use oxjax::backend::cpu::run_routine;
use oxjax::backend::wasm::WasmBackend;
use oxjax::backend::webgpu::{fft, WebGpuBackend};
use oxjax::core::DType;
use oxjax::kernel::{Routine, RoutineKind};

fn routine(dtype: DType, inverse: bool, batch: usize, n: usize) -> Routine {
    Routine {
        kind: RoutineKind::Fft { inverse },
        dtype,
        batch,
        m: 1,
        n,
    }
}

/// Exact float32 values in [-8, 8).
fn input(count: usize, part: usize) -> Vec<f64> {
    (0..count)
        .map(|i| ((7919 * i + 31 * part) % 1009) as f64 / 64.0 - 7.875)
        .collect()
}

const SHAPES: &[(usize, usize)] = &[
    (1, 1),
    (2, 2),
    (3, 3),
    (1, 5),
    (4, 8),
    (2, 64),
    (1, 1000),
    (3, 1024),
    (1, 2048),
    (2, 4096),
    (1, 4097),
    (1, 10001),
    (1, 65536),
];

#[test]
fn the_reference_matches_the_dense_transform() {
    for &(batch, n) in &SHAPES[..9] {
        for inverse in [false, true] {
            let r = routine(DType::Float64, inverse, batch, n);
            let (re, im) = (input(batch * n, 0), input(batch * n, 1));
            let out = run_routine(&r, &[&encode(r.dtype, &re), &encode(r.dtype, &im)]).unwrap();
            let (gr, gi) = (decode(r.dtype, &out[0]), decode(r.dtype, &out[1]));
            let sign = if inverse { 1.0 } else { -1.0 };
            for b in 0..batch {
                for k in (0..n).step_by(n.div_ceil(40)) {
                    let (mut wr, mut wi) = (0.0, 0.0);
                    for t in 0..n {
                        let a = sign * 2.0 * std::f64::consts::PI * ((k * t) % n) as f64 / n as f64;
                        let (x, y) = (re[b * n + t], im[b * n + t]);
                        wr += x * a.cos() - y * a.sin();
                        wi += x * a.sin() + y * a.cos();
                    }
                    let err = (gr[b * n + k] - wr).abs().max((gi[b * n + k] - wi).abs());
                    assert!(
                        err < 1e-9 * n as f64,
                        "n {n} inverse {inverse} [{b}, {k}]: {err}"
                    );
                }
            }
        }
    }
}

#[test]
fn the_wasm_host_fft_equals_the_reference() {
    let mut wasm = WasmBackend::new();
    for dtype in [DType::Float32, DType::Float64] {
        for &(batch, n) in SHAPES {
            let r = routine(dtype, n % 2 == 1, batch, n);
            let ins = [
                encode(dtype, &input(batch * n, 0)),
                encode(dtype, &input(batch * n, 1)),
            ];
            let want = run_routine(&r, &[&ins[0], &ins[1]]).unwrap();
            assert_eq!(
                run_routine_on(&mut wasm, &r, &ins),
                want,
                "{dtype:?} [{batch}, {n}]"
            );
        }
    }
}

#[test]
fn the_webgpu_fft_matches_the_reference_within_float32_rounding() {
    // WebGPU's default limits (256 invocations per workgroup, 8 storage buffers), as on
    // SwiftShader: a shader beyond them fails there.
    let mut gpu = block_on(WebGpuBackend::with_default_limits()).expect("a Vulkan adapter");
    for &(batch, n) in SHAPES {
        for inverse in [false, true] {
            let r = routine(DType::Float32, inverse, batch, n);
            let label = format!("[{batch}, {n}] inverse {inverse}");
            crate::common::wgsl::validate_source(&label, &fft::source(&r).unwrap());
            let ins = [
                encode(r.dtype, &input(batch * n, 0)),
                encode(r.dtype, &input(batch * n, 1)),
            ];
            let want = run_routine(&r, &[&ins[0], &ins[1]]).unwrap();
            let got = run_routine_on(&mut gpu, &r, &ins);
            let scale = want
                .iter()
                .flat_map(|w| decode(r.dtype, w))
                .fold(0.0f64, |m, v| m.max(v.abs()));
            for (g, w) in got.iter().zip(&want) {
                let (g, w) = (decode(r.dtype, g), decode(r.dtype, w));
                let worst = g
                    .iter()
                    .zip(&w)
                    .fold(0.0f64, |m, (a, b)| m.max((a - b).abs()));
                assert!(worst <= 3e-5 * scale, "{label}: {worst} vs scale {scale}");
            }
        }
    }
    let f64_fft = fft::source(&routine(DType::Float64, false, 1, 8)).unwrap_err();
    assert!(f64_fft.message().contains("float64"), "{f64_fft}");
}
