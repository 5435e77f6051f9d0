//! The reference sort routine (`kernel::RoutineKind::Sort`): each row's positions ordered by
//! the standard library's stable sort under the routine's comparison, every element decoded
//! to f64 (exact for every dtype). The wasm and WebGPU sorts are tested against this.

use std::cmp::Ordering;

use crate::core::{f16, DType};
use crate::kernel::Routine;

/// The value of element `i` of `bytes` (a buffer of `dtype`), as f64.
fn element(dtype: DType, bytes: &[u8], i: usize) -> f64 {
    let w = dtype.byte_size();
    let b = &bytes[i * w..(i + 1) * w];
    match dtype {
        DType::Float16 => f16::from_bits(u16::from_le_bytes([b[0], b[1]])),
        DType::Float32 => f32::from_le_bytes(b.try_into().expect("4 bytes")) as f64,
        DType::Float64 => f64::from_le_bytes(b.try_into().expect("8 bytes")),
        DType::Int32 => i32::from_le_bytes(b.try_into().expect("4 bytes")) as f64,
        DType::Uint32 | DType::Bool => u32::from_le_bytes(b.try_into().expect("4 bytes")) as f64,
    }
}

/// JAX's sort order: NaN last (all NaN equal), otherwise numeric (`-0.0 == 0.0`).
fn compare(a: f64, b: f64) -> Ordering {
    match (a.is_nan(), b.is_nan()) {
        (true, true) => Ordering::Equal,
        (true, false) => Ordering::Greater,
        (false, true) => Ordering::Less,
        (false, false) => a.partial_cmp(&b).expect("not NaN"),
    }
}

/// Sorts every row of `x`; returns the bytes of the sorted values and of the permutation.
pub fn run(routine: &Routine, x: &[u8]) -> (Vec<u8>, Vec<u8>) {
    let (batch, n, dtype) = (routine.batch, routine.n, routine.dtype);
    let w = dtype.byte_size();
    let mut sorted = Vec::with_capacity(batch * n * w);
    let mut perm = Vec::with_capacity(batch * n * 4);
    for row in 0..batch {
        let base = row * n;
        let values: Vec<f64> = (0..n).map(|i| element(dtype, x, base + i)).collect();
        let mut order: Vec<usize> = (0..n).collect();
        // Stable: equal elements keep their positions' order.
        order.sort_by(|&i, &j| compare(values[i], values[j]));
        for &i in &order {
            // The element's own bytes: NaN payloads and the sign of zero survive.
            sorted.extend_from_slice(&x[(base + i) * w..(base + i + 1) * w]);
            perm.extend_from_slice(&(i as i32).to_le_bytes());
        }
    }
    (sorted, perm)
}
