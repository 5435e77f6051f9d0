//! The subgroup form of the tiled matrix product (`a` shared within subgroups instead of
//! through shared memory) against the cpu interpreter, natively on wgpu over Vulkan with the
//! storage-buffer limit forced to 8: plain, transposed, batched and broadcast products (each
//! tile shape and depth), an expression operand and convolutions. Its WGSL is validated with
//! naga for every case whether or not the adapter has subgroups; it runs where it does (the
//! `subgroups` feature), and the switch back to the shared-memory form is checked through the
//! dispatch counters.

use crate::common::wgsl::validate_source as validate;
use crate::common::{block_on, decode_f32, encode, run_on, values};
use crate::webgpu_fast::{assert_close, conv, matmul, matmul_cases};
use oxjax::backend::cpu::run_kernel;
use oxjax::backend::webgpu::{wgsl_matmul, WebGpuBackend};
use oxjax::backend::Backend;
use oxjax::core::{Aval, DType};
use oxjax::kernel::Kernel;
use oxjax::rules::linalg::matmul_kernel;

fn gpu() -> WebGpuBackend {
    let mut gpu = block_on(WebGpuBackend::new(Some(8))).expect("a Vulkan adapter (lavapipe)");
    // Off by default on CPU adapters like lavapipe; on here to test them.
    gpu.set_fast_kernels(true);
    gpu.set_matmul_subgroups(true);
    gpu
}

/// Tile shapes: 4×4 outputs per invocation (the small products' own) and 8×8 (forced), with
/// the workgroup storage for 16 steps of k per barrier in both forms, and for 8 steps in the
/// subgroup form (its `b` tile alone takes 4 or 8 KiB at 16 steps).
const SHAPES: [(bool, u32); 4] = [(false, 16384), (true, 32768), (false, 8192), (true, 6144)];

/// Runs `kernel` (a product `wgsl_matmul` tiles) on `gpu` in the form the device picks and
/// compares it with the interpreter within the float32-BLAS tolerance (1e-6 of Σ|a·b|;
/// operands from `values` are at most 10 in magnitude). Returns whether it ran in the
/// subgroup form.
fn check(gpu: &mut WebGpuBackend, name: &str, kernel: &Kernel, inputs: &[Vec<u8>]) -> bool {
    let m = wgsl_matmul::recognise(kernel).unwrap_or_else(|| panic!("{name}: not tiled"));
    let refs: Vec<&[u8]> = inputs.iter().map(Vec::as_slice).collect();
    let want = run_kernel(kernel, &refs).unwrap();
    let (tiled, subgroup) = (gpu.stats().tiled_dispatches, gpu.subgroup_dispatches());
    let got = run_on(gpu, kernel, inputs);
    let scale = vec![m.k as f64 * 100.0; kernel.size];
    assert_close(name, &decode_f32(&got), &decode_f32(&want), &scale, 1e-6);
    assert_eq!(gpu.stats().tiled_dispatches, tiled + 1, "{name}: tiled");
    gpu.subgroup_dispatches() == subgroup + 1
}

/// The subgroup form of `kernel`'s product with `large` tiles and `shared` bytes of
/// workgroup storage, validated with naga (it has no `enable subgroups;`, which naga lacks).
fn validate_subgroup_form(name: &str, kernel: &Kernel, large: bool, shared: u32) {
    let m = wgsl_matmul::recognise(kernel).unwrap_or_else(|| panic!("{name}: not tiled"));
    let tile = wgsl_matmul::tile(&m, large, shared, 32);
    assert!(tile.subgroup, "{name}: {tile:?}");
    assert!(tile.shared_bytes() <= shared, "{name}: {tile:?}");
    let source = wgsl_matmul::emit(kernel, &m, &tile).unwrap();
    assert!(source.contains("subgroupShuffle") && !source.contains(" ta:"));
    validate(name, &source);
    // Subgroups smaller than a row group (4 invocations) keep the shared-memory form.
    assert!(!wgsl_matmul::tile(&m, large, shared, 2).subgroup, "{name}");
}

fn operands(kernel_inputs: &[(usize, f64)]) -> Vec<Vec<u8>> {
    kernel_inputs
        .iter()
        .map(|&(n, seed)| encode(DType::Float32, &values(n, seed)))
        .collect()
}

#[test]
fn subgroup_matmuls_match_the_interpreter() {
    let mut gpu = gpu();
    let has = gpu.subgroups();
    for (name, shape_a, shape_b, sa, sb) in matmul_cases() {
        let kernel = matmul(&shape_a, &shape_b, &sa, &sb);
        let (na, nb) = (shape_a.iter().product(), shape_b.iter().product());
        let inputs = operands(&[(na, 1.0), (nb, 2.0)]);
        for (large, shared) in SHAPES {
            validate_subgroup_form(name, &kernel, large, shared);
            gpu.set_large_tiles(large);
            gpu.set_matmul_shared_bytes(shared);
            let label = format!("{name} large {large} shared {shared}");
            gpu.set_matmul_subgroups(true);
            assert_eq!(check(&mut gpu, &label, &kernel, &inputs), has.is_some());
            gpu.set_matmul_subgroups(false);
            assert!(!check(&mut gpu, &label, &kernel, &inputs), "{label}");
        }
    }
}

#[test]
fn subgroup_matmul_of_an_expression_operand_and_convolutions() {
    let mut gpu = gpu();
    let has = gpu.subgroups().is_some();
    // An int32 left operand is a cast, re-emitted per element in the subgroup loads.
    let a = Aval::new(vec![100, 40], DType::Int32);
    let b = Aval::new(vec![40, 70], DType::Float32);
    let kernel = matmul_kernel(&a, &b, &Aval::new(vec![100, 70], DType::Float32));
    validate_subgroup_form("int32 @ f32", &kernel, false, 16384);
    let xa: Vec<f64> = values(4000, 1.0).iter().map(|v| v.round()).collect();
    let inputs = vec![
        encode(DType::Int32, &xa),
        encode(DType::Float32, &values(2800, 2.0)),
    ];
    assert_eq!(check(&mut gpu, "int32 @ f32", &kernel, &inputs), has);
    // Convolutions are batches of products whose windows are expressions.
    for (name, x, w, pad) in [
        ("3×3 SAME", [2, 4, 8, 8], [32, 4, 3, 3], 1),
        ("1×1", [3, 16, 6, 7], [40, 16, 1, 1], 0),
    ] {
        let (kernel, x, w, _) = conv(x, w, pad);
        validate_subgroup_form(name, &kernel, false, 16384);
        let inputs = operands(&[(x.size(), 1.0), (w.size(), 2.0)]);
        assert_eq!(check(&mut gpu, name, &kernel, &inputs), has, "{name}");
    }
}
