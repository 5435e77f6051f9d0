//! One jitted program at many sizes on webgpu, natively on wgpu over Vulkan (lavapipe) with
//! the storage-buffer limit forced to 8: the hand-built Kogge–Stone program of
//! `webgpu_stages` (rounds of batched 2×2 matmuls, adds and scales over `[n, 2, 2]`) lowered
//! at another `n` has shaders of the same templates, whose sizes, offsets and bands are
//! parameters from the second size on (`backend/webgpu/program/stage_templates.rs`): as
//! row-partitioned stages, the first size compiles its shaders with constants, the second
//! compiles them once more with parameters, and later sizes — more rows, more rounds, fewer
//! rounds — compile nothing; as one workgroup's single dispatch likewise for sizes of one
//! shape of code. Every result matches the `cpu` device.

use crate::common::block_on;
use crate::common::program::webgpu_vs_cpu;
use crate::webgpu_stages::program;
use oxjax::backend::registry;
use oxjax::backend::webgpu::WebGpuBackend;
use oxjax::core::Device;

/// Runs the program of `n` rows on webgpu against the `cpu` device: (dispatches, compiles).
fn run(n: usize) -> (u64, u64) {
    let compiles = || registry::stats(Device::WebGpu).unwrap().shader_compiles;
    let before = compiles();
    let dispatches = webgpu_vs_cpu(&program(n, false), n, |_, scale| 1e-5 * scale);
    (dispatches, compiles() - before)
}

#[test]
fn a_new_size_of_a_program_compiles_nothing() {
    registry::install_webgpu(block_on(WebGpuBackend::new(Some(8))).expect("a Vulkan adapter"));
    // Staged: 11 rounds at the first three sizes, 12 and 9 at the others.
    let (dispatches, compiles) = run(1600);
    assert!(dispatches > 1 && compiles > 0, "{dispatches} {compiles}");
    let (_, second) = run(1601);
    assert!(second > 0 && second <= compiles, "{second} of {compiles}");
    for n in [1700, 3000, 400] {
        let (d, c) = run(n);
        assert!(d > 1, "n={n}: {d} dispatches");
        assert_eq!(c, 0, "n={n}: a new size compiled {c} shaders");
    }
    // One workgroup, one dispatch (kernels of more elements than its invocations).
    assert_eq!(run(100), (1, 1));
    assert_eq!(run(101), (1, 1));
    for n in [102, 120] {
        assert_eq!(run(n), (1, 0), "n={n}");
    }
    drop(registry::uninstall_webgpu());
}
