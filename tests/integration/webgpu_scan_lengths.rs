//! One scan body at many lengths on webgpu, natively on wgpu over Vulkan (lavapipe) with the
//! storage-buffer limit forced to 8: the length is a parameter of the compiled loop's shaders
//! (`backend/webgpu/program/length_params.rs`), so the first length compiles the loop's
//! pipeline and every later length — shorter or longer, odd or even, one step, a whole number
//! of chunks or not — compiles nothing (`BackendStats::shader_compiles`), in each form a scan
//! takes: the serial shader (case 2's RTS step, m = 2, on one invocation and on a warp), the
//! level-scheduled looping shader (the same body with the serial shader off, and m = 8) and
//! the pre-encoded steps (m = 40: state too large for one workgroup). Every result matches
//! the `cpu` device. A single-dispatch run allocates no scratch buffers and copies only its
//! carries (its xs and ys are bound directly).

use crate::common::block_on;
use crate::webgpu_scan_serial::{fused_on_gpu, run, set_fast, set_serial};
use oxjax::backend::registry;
use oxjax::backend::webgpu::WebGpuBackend;
use oxjax::core::Device;
use oxjax::transform::scan_eval;

/// Runs the case-2 scan of `m` over `n` steps on webgpu against the `cpu` device: the
/// shaders it compiled and its path detail.
fn compiles_at(m: usize, n: usize, reverse: bool) -> (u64, String) {
    let want = run(m, n, reverse, Device::Cpu);
    let (got, _, compiles, detail) = fused_on_gpu(m, n, reverse);
    let name = format!("m={m} n={n} reverse={reverse}");
    // m = 40: sums of 40 products, grouped differently from the cpu device's.
    let tol = if m > 8 { 1e-3 } else { 2e-5 };
    for (k, (g, w)) in got.iter().zip(&want).enumerate() {
        assert_eq!(g.len(), w.len(), "{name} output {k}");
        for (j, (a, b)) in g.iter().zip(w).enumerate() {
            assert!(
                (a - b).abs() <= tol * (1.0 + b.abs()),
                "{name} output {k}[{j}]: {a} vs {b}"
            );
        }
    }
    (compiles, detail)
}

/// Scans of `m` at `lengths` in each direction: the first compiles, no later length does
/// (the first forward one may: its shader differs from the reverse one's, except the
/// pre-encoded kernels'), and every detail contains `form`.
fn one_compile_per_body(m: usize, lengths: &[usize], form: &str) {
    for reverse in [true, false] {
        for (i, &n) in lengths.iter().enumerate() {
            let (compiles, detail) = compiles_at(m, n, reverse);
            let name = format!("m={m} n={n} reverse={reverse}: {detail}");
            assert!(detail.contains(form), "{name}");
            match (i, reverse) {
                (0, true) => assert!(compiles > 0, "{name}: the first length compiled nothing"),
                (0, false) => {}
                _ => assert_eq!(compiles, 0, "{name}: a new length compiled shaders"),
            }
        }
    }
}

#[test]
fn a_new_length_compiles_nothing() {
    registry::install_webgpu(block_on(WebGpuBackend::new(Some(8))).expect("a Vulkan adapter"));
    scan_eval::set_reporting(true);
    let lengths = [37, 100, 101, 64, 1, 250];
    for fast in [false, true] {
        set_fast(fast);
        one_compile_per_body(2, &lengths, "serial");
    }
    set_fast(false);
    set_serial(false);
    one_compile_per_body(2, &lengths, "workgroup of");
    set_serial(true);
    one_compile_per_body(8, &[20, 7, 33], "workgroup of");
    one_compile_per_body(40, &[3, 4, 6], "pre-encoded");
    scan_eval::set_reporting(false);
    registry::uninstall_webgpu();
}

/// The buffers the webgpu device allocated so far (pool hits and misses).
fn allocations() -> u64 {
    let gpu = registry::uninstall_webgpu().unwrap();
    let (hits, misses) = gpu.pool_counts();
    registry::install_webgpu(gpu);
    hits + misses
}

#[test]
fn single_dispatch_scans_allocate_no_scratch_and_copy_only_carries() {
    registry::install_webgpu(block_on(WebGpuBackend::new(Some(8))).expect("a Vulkan adapter"));
    scan_eval::set_reporting(true);
    // The serial shader and the looping one keep carries and temps in the packed buffer:
    // a run allocates its 5 operands (r, N and the xs A, b, S), its 3 results (r, N, ys) and
    // the packed buffer, and no scratch buffer for the 4 carry slots and the temps. They bind
    // the xs and ys directly (6 bindings besides the packed buffer and the parameters at the
    // limit of 8): only the carries are copied, r and N in and out. With direct binding off,
    // every operand and result is copied.
    for serial in [true, false] {
        set_serial(serial);
        for (direct, copies) in [(true, 2 + 2), (false, 5 + 3)] {
            set_bind_direct(direct);
            compiles_at(2, 30, true);
            let (before, copied) = (allocations(), buffer_copies());
            let (_, detail) = compiles_at(2, 31, true);
            assert_eq!(allocations() - before, 5 + 3 + 1, "{detail}");
            assert_eq!(buffer_copies() - copied, copies, "direct {direct}: {detail}");
        }
    }
    set_bind_direct(true);
    // At a limit of 4 storage buffers two of the four xs and ys are bound (A, b), the others
    // copied (S in, ys out) besides the carries; the results still match the cpu device.
    registry::uninstall_webgpu();
    registry::install_webgpu(block_on(WebGpuBackend::new(Some(4))).expect("a Vulkan adapter"));
    for serial in [true, false] {
        set_serial(serial);
        compiles_at(2, 30, true);
        let copied = buffer_copies();
        let (_, detail) = compiles_at(2, 31, true);
        assert_eq!(buffer_copies() - copied, 2 + 2 + 2, "limit 4: {detail}");
    }
    scan_eval::set_reporting(false);
    registry::uninstall_webgpu();
}

fn buffer_copies() -> u64 {
    registry::stats(Device::WebGpu).unwrap().buffer_copies
}

fn set_bind_direct(on: bool) {
    let mut gpu = registry::uninstall_webgpu().unwrap();
    gpu.set_loop_bind_direct(on);
    registry::install_webgpu(gpu);
}
