//! Shared helpers of the integration tests (native and wasm32): the slice's kernels over a grid of
//! shapes and dtypes, byte conversions, running one kernel or routine on a backend, and a minimal
//! `block_on` for wgpu's futures.
#![allow(dead_code)]

pub mod corpus;
pub mod oracle;
#[cfg(not(target_arch = "wasm32"))]
pub mod program;
pub mod trace;
#[cfg(not(target_arch = "wasm32"))]
pub mod wgsl;

use std::future::Future;
use std::pin::pin;
use std::sync::Arc;
use std::task::{Context, Poll, Wake, Waker};

use oxjax::backend::{Backend, BufferId};
use oxjax::core::{Aval, DType, Primitive};
use oxjax::kernel::{Kernel, Routine};
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

/// `values` as little-endian elements of `dtype` (integers truncated, uint32 of |v|, bool v > 0,
/// float16 rounded to nearest).
pub fn encode(dtype: DType, values: &[f64]) -> Vec<u8> {
    let mut out = Vec::new();
    for &v in values {
        match dtype {
            DType::Float32 => out.extend_from_slice(&(v as f32).to_le_bytes()),
            DType::Float64 => out.extend_from_slice(&v.to_le_bytes()),
            DType::Int32 => out.extend_from_slice(&(v as i32).to_le_bytes()),
            DType::Uint32 => out.extend_from_slice(&(v.abs() as u32).to_le_bytes()),
            DType::Bool => out.extend_from_slice(&((v > 0.0) as u32).to_le_bytes()),
            DType::Float16 => out.extend_from_slice(&oxjax::core::f16::to_bits(v).to_le_bytes()),
        }
    }
    out
}

/// The elements of little-endian `bytes` of `dtype`, as f64 (exactly: every dtype converts
/// without rounding).
pub fn decode(dtype: DType, bytes: &[u8]) -> Vec<f64> {
    bytes
        .chunks_exact(dtype.byte_size())
        .map(|b| match dtype {
            DType::Float16 => oxjax::core::f16::from_bits(u16::from_le_bytes([b[0], b[1]])),
            DType::Float32 => f32::from_le_bytes(b.try_into().unwrap()) as f64,
            DType::Float64 => f64::from_le_bytes(b.try_into().unwrap()),
            DType::Int32 => i32::from_le_bytes(b.try_into().unwrap()) as f64,
            DType::Uint32 | DType::Bool => u32::from_le_bytes(b.try_into().unwrap()) as f64,
        })
        .collect()
}

/// The elements of little-endian float32 `bytes`.
pub fn decode_f32(bytes: &[u8]) -> Vec<f32> {
    bytes
        .chunks_exact(4)
        .map(|c| f32::from_le_bytes(c.try_into().unwrap()))
        .collect()
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

/// A new buffer of `backend` holding `data`.
pub fn upload(backend: &mut dyn Backend, data: &[u8]) -> BufferId {
    let id = backend.alloc(data.len()).unwrap();
    backend.write(id, data).unwrap();
    id
}

/// Runs `kernel` on `backend` with `inputs` uploaded; returns the output bytes and frees every
/// buffer it made.
pub fn run_on(backend: &mut dyn Backend, kernel: &Kernel, inputs: &[Vec<u8>]) -> Vec<u8> {
    let ids: Vec<_> = inputs.iter().map(|d| upload(backend, d)).collect();
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

/// Runs routine `r` on `backend` with `inputs` uploaded; returns the bytes of each output and
/// frees every buffer it made.
pub fn run_routine_on(backend: &mut dyn Backend, r: &Routine, inputs: &[Vec<u8>]) -> Vec<Vec<u8>> {
    let ids: Vec<_> = inputs.iter().map(|d| upload(backend, d)).collect();
    let outs: Vec<_> = r
        .outputs()
        .iter()
        .map(|&(d, n)| backend.alloc(n * d.byte_size()).unwrap())
        .collect();
    let exe = backend.compile_routine(r).unwrap();
    backend.dispatch_routine(exe, &ids, &outs).unwrap();
    let got = outs
        .iter()
        .map(|&o| backend.read_sync(o).unwrap())
        .collect();
    for id in ids.into_iter().chain(outs) {
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
