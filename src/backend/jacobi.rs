//! The routines `kernel::RoutineKind::Diagonalize` and `OrthogonalColumns` on the cpu and wasm
//! devices, in f64: the batch loop and the conversions around `tridiagonal.rs` (the symmetric
//! eigendecomposition) and `golub_kahan.rs` (the singular value decomposition); and the bound
//! on the sweeps of the Jacobi rotations that the webgpu shaders run for them.

use crate::core::DType;
use crate::kernel::{Routine, RoutineKind};

/// Sweeps at most of the webgpu Jacobi rotations: they converge quadratically, in well under
/// this for any order.
pub const MAX_SWEEPS: usize = 40;

fn decode(dtype: DType, bytes: &[u8]) -> Vec<f64> {
    match dtype {
        DType::Float64 => bytes
            .chunks_exact(8)
            .map(|b| f64::from_le_bytes(b.try_into().expect("8 bytes")))
            .collect(),
        _ => bytes
            .chunks_exact(4)
            .map(|b| f32::from_le_bytes(b.try_into().expect("4 bytes")) as f64)
            .collect(),
    }
}

fn encode(dtype: DType, values: &[f64], out: &mut [u8]) {
    match dtype {
        DType::Float64 => {
            for (o, v) in out.chunks_exact_mut(8).zip(values) {
                o.copy_from_slice(&v.to_le_bytes());
            }
        }
        _ => {
            for (o, v) in out.chunks_exact_mut(4).zip(values) {
                o.copy_from_slice(&(*v as f32).to_le_bytes());
            }
        }
    }
}

/// Runs routine `routine` (float32 or float64) on `input` (`[batch, m, n]`), writing
/// its two outputs (`[batch, m, n]`, `[batch, n, n]`).
pub fn run(routine: &Routine, input: &[u8], first: &mut [u8], second: &mut [u8]) {
    let (m, n, dtype) = (routine.m, routine.n, routine.dtype);
    let size = dtype.byte_size();
    let (mn, nn) = (m * n, n * n);
    let mut v = vec![0.0; nn];
    for b in 0..routine.batch {
        let mut x = decode(dtype, &input[b * mn * size..(b + 1) * mn * size]);
        match routine.kind {
            RoutineKind::Diagonalize => super::tridiagonal::eigh(&mut x, &mut v, n),
            RoutineKind::OrthogonalColumns { vectors } => {
                let a = std::mem::replace(&mut x, vec![0.0; mn]);
                super::golub_kahan::columns(&a, &mut x, &mut v, m, n, vectors);
            }
            _ => unreachable!("not an eigh or svd routine"),
        }
        encode(dtype, &x, &mut first[b * mn * size..(b + 1) * mn * size]);
        encode(dtype, &v, &mut second[b * nn * size..(b + 1) * nn * size]);
    }
}
