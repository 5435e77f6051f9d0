//! Shared helpers of the integration tests (native and wasm32): the slice's kernels over a grid of shapes
//! and dtypes, byte conversions, and a minimal `block_on` for wgpu's futures.
#![allow(dead_code)]

pub mod corpus;
#[cfg(not(target_arch = "wasm32"))]
pub mod program;
pub mod trace;
#[cfg(not(target_arch = "wasm32"))]
pub mod wgsl;

use std::future::Future;
use std::pin::pin;
use std::sync::Arc;
use std::task::{Context, Poll, Wake, Waker};

use oxjax::backend::Backend;
use oxjax::core::{Aval, DType, Primitive};
use oxjax::kernel::Kernel;
use oxjax::rules;

/// Shape pairs that exercise equal shapes, scalars and broadcasting on either side.
pub const SHAPES: &[(&[usize], &[usize])] = &[
    (&[5], &[5]),
    (&[], &[3]),
    (&[2, 3], &[3]),
    (&[4, 1], &[1, 3]),
    (&[2, 1, 3], &[4, 1]),
    (&[300], &[]),
];

/// Deterministic test values (no two equal, both signs, non-integers).
pub fn values(n: usize, seed: f64) -> Vec<f64> {
    (0..n)
        .map(|i| ((i as f64 + seed) * 1.618).sin() * 10.0)
        .collect()
}

pub fn encode(dtype: DType, values: &[f64]) -> Vec<u8> {
    let mut out = Vec::new();
    for &v in values {
        match dtype {
            DType::Float32 => out.extend_from_slice(&(v as f32).to_le_bytes()),
            DType::Float64 => out.extend_from_slice(&v.to_le_bytes()),
            DType::Int32 => out.extend_from_slice(&(v as i32).to_le_bytes()),
            DType::Uint32 => out.extend_from_slice(&(v.abs() as u32).to_le_bytes()),
            DType::Bool => out.extend_from_slice(&((v > 0.0) as u32).to_le_bytes()),
            DType::Float16 => unimplemented!("no float16 in the slice"),
        }
    }
    out
}

/// Every (primitive, a, b) combination of the slice, with its kernel.
pub fn slice_kernels(dtypes: &[(DType, DType)]) -> Vec<(String, Vec<Aval>, Kernel)> {
    let mut out = Vec::new();
    for prim in [Primitive::ADD, Primitive::MUL] {
        for &(sa, sb) in SHAPES {
            for &(da, db) in dtypes {
                let a = Aval::new(sa.to_vec(), da);
                let b = Aval::new(sb.to_vec(), db);
                let o = rules::abstract_eval(&prim, &[&a, &b]).unwrap();
                let k = rules::to_kernel(&prim, &[&a, &b], &o).unwrap();
                let name = format!(
                    "{}({sa:?} {}, {sb:?} {})",
                    prim.name(),
                    da.name(),
                    db.name()
                );
                out.push((name, vec![a, b], k));
            }
        }
    }
    out
}

struct NoopWake;
impl Wake for NoopWake {
    fn wake(self: Arc<Self>) {}
}

/// Drives a future to completion by polling (wgpu's native futures complete when polled
/// after the device has done the work).
pub fn block_on<F: Future>(future: F) -> F::Output {
    let waker = Waker::from(Arc::new(NoopWake));
    let mut cx = Context::from_waker(&waker);
    let mut future = pin!(future);
    loop {
        if let Poll::Ready(v) = future.as_mut().poll(&mut cx) {
            return v;
        }
        std::thread::yield_now();
    }
}

/// Runs `kernel` on `backend` with `inputs` uploaded; returns the output bytes and frees every
/// buffer it made.
pub fn run_on(backend: &mut dyn Backend, kernel: &Kernel, inputs: &[Vec<u8>]) -> Vec<u8> {
    let ids: Vec<_> = inputs
        .iter()
        .map(|d| {
            let id = backend.alloc(d.len()).unwrap();
            backend.write(id, d).unwrap();
            id
        })
        .collect();
    let out = backend
        .alloc(kernel.size * kernel.output_dtype().byte_size())
        .unwrap();
    let exe = backend.compile(kernel).unwrap();
    backend.dispatch(exe, &ids, out).unwrap();
    let got = backend.read_sync(out).unwrap();
    for id in ids.into_iter().chain([out]) {
        backend.free(id);
    }
    got
}

/// Every finite float16 value and the float32s just below, at and above the midpoint to the
/// next one (the ties of a float32 → float16 rounding), each with both signs.
pub fn float16_ties_f32() -> Vec<f32> {
    let mut wide = Vec::new();
    for bits in 0..0x7c00u16 {
        let a = oxjax::core::f16::from_bits(bits) as f32;
        let b = oxjax::core::f16::from_bits(bits + 1) as f32;
        let mid = (a + b) / 2.0;
        for v in [
            a,
            f32::from_bits(mid.to_bits() - 1),
            mid,
            f32::from_bits(mid.to_bits() + 1),
        ] {
            wide.extend([v, -v]);
        }
    }
    wide
}
