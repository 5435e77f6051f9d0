//! Emitted WebAssembly kernels executed for real (wasm-bindgen-test in Node): every kernel of
//! the slice through the `wasm` backend, compared bit for bit with the `cpu` interpreter, plus
//! eager evaluation through the registry.
#![cfg(target_arch = "wasm32")]

mod common;

use common::{encode, slice_kernels, values};
use oxjax::backend::cpu::run_kernel;
use oxjax::backend::wasm::WasmBackend;
use oxjax::backend::Backend;
use oxjax::core::{DType, Device, Primitive};
use oxjax::transform::{eval, ArrayValue};
use wasm_bindgen_test::wasm_bindgen_test;

const DTYPES: &[(DType, DType)] = &[
    (DType::Float32, DType::Float32),
    (DType::Float64, DType::Float64),
    (DType::Int32, DType::Int32),
    (DType::Uint32, DType::Uint32),
    (DType::Int32, DType::Float32),
    (DType::Bool, DType::Uint32),
];

#[wasm_bindgen_test]
fn wasm_kernels_match_the_cpu_interpreter() {
    let mut backend = WasmBackend::new();
    for (name, avals, kernel) in slice_kernels(DTYPES) {
        let ins: Vec<Vec<u8>> = avals
            .iter()
            .enumerate()
            .map(|(i, a)| encode(a.dtype, &values(a.size(), i as f64 * 7.0)))
            .collect();
        let refs: Vec<&[u8]> = ins.iter().map(Vec::as_slice).collect();
        let want = run_kernel(&kernel, &refs).unwrap();
        let ids: Vec<_> = ins
            .iter()
            .map(|d| {
                let id = backend.alloc(d.len()).unwrap();
                backend.write(id, d).unwrap();
                id
            })
            .collect();
        let out = backend.alloc(want.len()).unwrap();
        let exe = backend.compile(&kernel).unwrap();
        backend.dispatch(exe, &ids, out).unwrap();
        assert_eq!(backend.read_sync(out).unwrap(), want, "{name}");
        for id in ids.into_iter().chain([out]) {
            backend.free(id);
        }
    }
    assert_eq!(backend.stats().live_buffers, 0);
}

#[wasm_bindgen_test]
fn eager_eval_on_wasm_equals_cpu() {
    let data = encode(DType::Float32, &values(12, 1.0));
    let run = |device| {
        let a = ArrayValue::from_bytes("t", &data, vec![3, 4], DType::Float32, device).unwrap();
        let s = ArrayValue::weak_scalar("t", 0.5, DType::Float32, device).unwrap();
        let b = eval::apply(Primitive::Mul, &[&a, &s]).unwrap();
        let c = eval::apply(Primitive::Add, &[&b, &a]).unwrap();
        c.read_sync("t").unwrap()
    };
    assert_eq!(run(Device::Wasm), run(Device::Cpu));
}
