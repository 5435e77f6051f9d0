//! The sort routine (`kernel::RoutineKind::Sort`) on every device that runs natively, and the
//! conv kernel as WGSL. The `cpu` reference is checked for what it promises (ascending in
//! JAX's order, NaN last, `-0.0 = 0.0`, stable, values the input's own bytes); the wasm host
//! sort (compiled Rust, runs natively too) and the WebGPU bitonic sort (naga-validated for
//! every dtype webgpu has, run on Vulkan/lavapipe with 8 storage buffers; float16 where the
//! adapter has shader-f16) must equal it bit for bit on every dtype each device has, for rows
//! shorter than, equal to and longer than their tiles and passes, in batches; conv within
//! 1e-5·(1 + Σ|terms|), with the shared-memory kernels off and on.

use crate::common::wgsl::validate_kernel as validate;
use crate::common::{block_on, decode, encode, run_on, run_routine_on};
use oxjax::backend::cpu::{run_kernel, run_routine};
use oxjax::backend::wasm::WasmBackend;
use oxjax::backend::webgpu::{sort, WebGpuBackend};
use oxjax::core::{f16, Aval, ConvParams, DType, Primitive};
use oxjax::kernel::{Kernel, Routine, RoutineKind};
use oxjax::rules;

fn kernel(prim: &Primitive, inputs: &[&Aval]) -> Kernel {
    let out = rules::abstract_eval(prim, inputs).unwrap();
    rules::to_kernel(prim, inputs, &out).unwrap()
}

fn sort_routine(dtype: DType, batch: usize, n: usize) -> Routine {
    Routine {
        kind: RoutineKind::Sort,
        dtype,
        batch,
        m: 1,
        n,
    }
}

/// `count` elements of `dtype` with many ties and, for floats, NaN (both signs, a payload),
/// ±0 and ±infinity; integers of both signs and large magnitudes.
fn sort_data(dtype: DType, count: usize, seed: u64) -> Vec<u8> {
    let mut s = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
    let mut out = Vec::new();
    for i in 0..count {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        // Few distinct values: ties everywhere.
        let v = ((s % 41) as f64 - 20.0) * 0.75;
        match dtype {
            DType::Float32 => {
                let bits: u32 = match i % 11 {
                    0 => 0x7fc0_0000,
                    1 => 0xffc0_0001,
                    2 => 0x8000_0000,
                    3 => 0,
                    4 => 0xff80_0000,
                    5 => 0x7f80_0000,
                    _ => (v as f32).to_bits(),
                };
                out.extend_from_slice(&bits.to_le_bytes());
            }
            DType::Float64 => {
                let x = match i % 11 {
                    0 => f64::NAN,
                    1 => -f64::NAN,
                    2 => -0.0,
                    3 => f64::NEG_INFINITY,
                    _ => v,
                };
                out.extend_from_slice(&x.to_le_bytes());
            }
            DType::Float16 => {
                let bits: u16 = match i % 11 {
                    0 => 0x7e00,
                    1 => 0xfe01,
                    2 => 0x8000,
                    3 => 0xfc00,
                    4 => 0x0001,
                    _ => f16::to_bits(v),
                };
                out.extend_from_slice(&bits.to_le_bytes());
            }
            DType::Int32 => out.extend_from_slice(&((v * 3e7) as i32).to_le_bytes()),
            DType::Uint32 => out.extend_from_slice(&(((v + 20.0) * 1e8) as u32).to_le_bytes()),
            DType::Bool => out.extend_from_slice(&u32::from(v > 0.0).to_le_bytes()),
        }
    }
    out
}

const SHAPES: &[(usize, usize)] = &[
    (1, 1),
    (4, 2),
    (3, 7),
    (2, 48),
    (2, 49),
    (1, 512),
    (3, 513),
    (2, 3000),
    (1, 70_000),
];

#[test]
fn the_reference_sort_is_stable_ascending_with_nan_last() {
    for dtype in DType::ALL {
        for &(batch, n) in SHAPES {
            let r = sort_routine(dtype, batch, n);
            let x = sort_data(dtype, batch * n, 7);
            let out = run_routine(&r, &[&x]).unwrap();
            let (sorted, perm) = (&out[0], &out[1]);
            let w = dtype.byte_size();
            let (xs, perm) = (decode(dtype, &x), decode(DType::Int32, perm));
            for row in 0..batch {
                let p: Vec<usize> = (0..n).map(|i| perm[row * n + i] as usize).collect();
                let mut seen = vec![false; n];
                p.iter().for_each(|&j| seen[j] = true);
                assert!(seen.iter().all(|&s| s), "{dtype:?} {n}: not a permutation");
                for (i, &j) in p.iter().enumerate() {
                    let (a, b) = ((row * n + i) * w, (row * n + j) * w);
                    assert_eq!(
                        sorted[a..a + w],
                        x[b..b + w],
                        "{dtype:?} {n}: sorted[{i}] not x[perm[{i}]]"
                    );
                }
                for i in 1..n {
                    let (u, v) = (
                        xs[row * n + p[i - 1]],
                        xs[row * n + p[i]],
                    );
                    let ordered = match (u.is_nan(), v.is_nan()) {
                        (_, true) => u.is_nan() <= v.is_nan() && (!u.is_nan() || p[i - 1] < p[i]),
                        (true, false) => false,
                        _ => u < v || (u == v && p[i - 1] < p[i]),
                    };
                    assert!(
                        ordered,
                        "{dtype:?} {n}: {u} (at {}) before {v} (at {})",
                        p[i - 1],
                        p[i]
                    );
                }
            }
        }
    }
}

#[test]
fn the_wasm_host_sort_matches_the_reference_bit_for_bit() {
    let mut wasm = WasmBackend::new();
    for dtype in DType::ALL {
        for &(batch, n) in SHAPES.iter().chain(&[(1, 300_000)]) {
            let r = sort_routine(dtype, batch, n);
            let x = sort_data(dtype, batch * n, 3);
            let want = run_routine(&r, &[&x]).unwrap();
            assert_eq!(
                run_routine_on(&mut wasm, &r, std::slice::from_ref(&x)),
                want,
                "{dtype:?} [{batch}, {n}]"
            );
        }
    }
}

#[test]
fn the_webgpu_bitonic_sort_matches_the_reference_bit_for_bit() {
    let mut gpu = block_on(WebGpuBackend::new(Some(8))).expect("a Vulkan adapter (lavapipe)");
    let dtypes = [
        DType::Float32,
        DType::Int32,
        DType::Uint32,
        DType::Bool,
        DType::Float16,
    ];
    for dtype in dtypes {
        for &(batch, n) in SHAPES {
            let r = sort_routine(dtype, batch, n);
            crate::common::wgsl::validate_source(
                &format!("sort {dtype:?} {n}"),
                &sort::source(&r).unwrap(),
            );
            // float16 arrays live on webgpu only where the adapter has shader-f16.
            if dtype == DType::Float16 && !gpu.has_float16() {
                continue;
            }
            let x = sort_data(dtype, batch * n, 5);
            let want = run_routine(&r, &[&x]).unwrap();
            let got = run_routine_on(&mut gpu, &r, std::slice::from_ref(&x));
            // float16 rows of odd total length: the last word's upper half is padding.
            let bytes = batch * n * dtype.byte_size();
            assert_eq!(
                got[0][..bytes],
                want[0][..],
                "{dtype:?} [{batch}, {n}] values"
            );
            assert_eq!(got[1], want[1], "{dtype:?} [{batch}, {n}] permutation");
        }
    }
    let f64_sort = sort::source(&sort_routine(DType::Float64, 1, 4)).unwrap_err();
    assert!(f64_sort.message().contains("float64"), "{f64_sort}");
}

#[test]
fn conv_matches_the_interpreter() {
    let mut gpu = block_on(WebGpuBackend::new(Some(8))).expect("a Vulkan adapter (lavapipe)");
    let lhs = Aval::new(vec![2, 4, 6, 8], DType::Float32);
    let rhs = Aval::new(vec![6, 2, 3, 3], DType::Float32);
    let params = ConvParams {
        strides: vec![1, 2],
        padding: vec![(1, 1), (0, 2)],
        lhs_dilation: vec![1, 2],
        rhs_dilation: vec![2, 1],
        groups: 2,
    };
    let conv = kernel(&Primitive::Conv(params), &[&lhs, &rhs]);
    validate("conv", &conv);
    let a = encode(DType::Float32, &crate::common::values(lhs.size(), 1.0));
    let b = encode(DType::Float32, &crate::common::values(rhs.size(), 2.0));
    let floats = |bytes: &[u8]| -> Vec<f32> {
        bytes
            .chunks(4)
            .map(|c| f32::from_le_bytes(c.try_into().unwrap()))
            .collect()
    };
    let want = floats(&run_kernel(&conv, &[&a, &b]).unwrap());
    // Σ|terms| ≤ 18 taps · 10 · 10 (values lie in [-10, 10]).
    let bound = 18.0 * 100.0;
    for fast in [false, true] {
        gpu.set_fast_kernels(fast);
        let got = floats(&run_on(&mut gpu, &conv, &[a.clone(), b.clone()]));
        assert_eq!(got.len(), want.len());
        for (i, (g, w)) in got.iter().zip(&want).enumerate() {
            assert!(
                (g - w).abs() <= 1e-5 * (1.0 + bound),
                "conv fast {fast} [{i}]: {g} vs {w}"
            );
        }
    }
}
