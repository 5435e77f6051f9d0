//! The sort and conv kernels (`rules::sort`, `rules::conv`) as WGSL: naga-validated, then run
//! natively on Vulkan (lavapipe) with 8 storage buffers against the `cpu` interpreter, with the
//! shared-memory kernels off (CPU adapters) and on (real GPUs). Rank and unrank (sort and
//! argsort) must agree bit for bit on every dtype webgpu has (float32 with NaN, ±0, ±infinity
//! and ties; int32; uint32; bool), on every axis; conv within 1e-5·(1 + Σ|terms|).

mod common;

use common::wgsl::validate_kernel as validate;
use common::{block_on, encode, run_on};
use oxjax::backend::cpu::run_kernel;
use oxjax::backend::webgpu::WebGpuBackend;
use oxjax::core::{Aval, ConvParams, DType, Primitive};
use oxjax::kernel::Kernel;
use oxjax::rules;

fn kernel(prim: &Primitive, inputs: &[&Aval]) -> Kernel {
    let out = rules::abstract_eval(prim, inputs).unwrap();
    rules::to_kernel(prim, inputs, &out).unwrap()
}

/// 105 values with ties and, for float32, NaN, ±0 and ±infinity in every row of every axis.
fn sort_data(dtype: DType) -> Vec<u8> {
    let special = [
        f64::NAN,
        0.0,
        -0.0,
        f64::INFINITY,
        f64::NEG_INFINITY,
        2.0,
        2.0,
        -1.5,
    ];
    let values: Vec<f64> = (0..105)
        .map(|i| {
            if i % 4 == 0 && dtype == DType::Float32 {
                special[(i / 4) % special.len()]
            } else {
                ((i as f64 * 1.7).sin() * 6.0).round() / 2.0
            }
        })
        .collect();
    match dtype {
        // Integers: ties, both signs (uint32 keeps magnitudes), large values.
        DType::Int32 | DType::Uint32 => {
            encode(dtype, &values.iter().map(|v| v * 3e8).collect::<Vec<_>>())
        }
        _ => encode(dtype, &values),
    }
}

#[test]
fn rank_and_unrank_match_the_interpreter_bit_for_bit() {
    let mut gpu = block_on(WebGpuBackend::new(Some(8))).expect("a Vulkan adapter (lavapipe)");
    for fast in [false, true] {
        gpu.set_fast_kernels(fast);
        for dtype in [DType::Float32, DType::Int32, DType::Uint32, DType::Bool] {
            let x = Aval::new(vec![3, 5, 7], dtype);
            let data = sort_data(dtype);
            for axis in 0..3 {
                let label = format!("{dtype:?} axis {axis} fast {fast}");
                let rank = kernel(&Primitive::Rank { axis }, &[&x]);
                validate(&format!("rank {label}"), &rank);
                let want = run_kernel(&rank, &[&data]).unwrap();
                assert_eq!(
                    run_on(&mut gpu, &rank, std::slice::from_ref(&data)),
                    want,
                    "rank {label}"
                );
                let ranks = Aval::new(vec![3, 5, 7], DType::Int32);
                let unrank = kernel(&Primitive::Unrank { axis }, &[&x, &ranks]);
                validate(&format!("unrank {label}"), &unrank);
                let sorted = run_kernel(&unrank, &[&data, &want]).unwrap();
                let got = run_on(&mut gpu, &unrank, &[data.clone(), want.clone()]);
                assert_eq!(got, sorted, "unrank {label}");
            }
        }
    }
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
    let a = encode(DType::Float32, &common::values(lhs.size(), 1.0));
    let b = encode(DType::Float32, &common::values(rhs.size(), 2.0));
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
