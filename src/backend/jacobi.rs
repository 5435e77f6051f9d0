//! The routines `kernel::RoutineKind::JacobiEigh` and `JacobiColumns` in f64, shared by the
//! cpu and wasm devices. `JacobiColumns` is computed by `golub_kahan.rs`; `JacobiEigh` here:
//! cyclic sweeps of plane rotations, row by row over the pairs `p < q`, until a sweep finds
//! every pair already negligible (or `MAX_SWEEPS`).
//!
//! Each pair is rotated by `c = 1/√(1+t²)`, `s = t·c` with `t` the smaller root that zeroes
//! the pair's off-diagonal element (Golub & Van Loan, Algorithm 8.5.2), applied to columns as
//! `p ← c·p − s·q`, `q ← s·p + c·q` (and, two-sided, to rows likewise). A pair is skipped when
//! its off-diagonal element is negligible (relative to the pair, or at the rounding level of
//! the whole matrix), so converged matrices stop early.

use crate::core::DType;
use crate::kernel::{Routine, RoutineKind};

/// Sweeps at most: Jacobi converges quadratically, in well under this for any order.
pub const MAX_SWEEPS: usize = 40;

/// The rotation `(c, s)` zeroing `apq` of `[[app, apq], [apq, aqq]]`.
pub fn rotation(app: f64, aqq: f64, apq: f64) -> (f64, f64) {
    let d = aqq - app;
    let root = (d * d + 4.0 * apq * apq).sqrt();
    let den = d.abs() + root;
    if den == 0.0 {
        return (1.0, 0.0);
    }
    let t = 2.0 * apq * if d < 0.0 { -1.0 } else { 1.0 } / den;
    let c = 1.0 / (1.0 + t * t).sqrt();
    (c, t * c)
}

/// Whether `apq` is negligible beside `app` and `aqq`: below `tol` relative to them, or
/// below `floor` (rounding-level for the whole matrix, so zero eigenvalues or singular values
/// do not keep a sweep rotating noise).
fn negligible(app: f64, aqq: f64, apq: f64, tol: f64, floor: f64) -> bool {
    apq == 0.0 || apq.abs() <= tol * (app.abs() * aqq.abs()).sqrt() || apq.abs() <= floor
}

/// The relative tolerance for `rows`-long columns.
fn tolerance(rows: usize) -> f64 {
    (rows as f64).sqrt().max(4.0) * f64::EPSILON
}

/// Rotates columns `p`, `q` of the `rows × cols` row-major matrix `x`.
fn rotate_columns(x: &mut [f64], cols: usize, p: usize, q: usize, c: f64, s: f64) {
    for row in x.chunks_mut(cols) {
        let (a, b) = (row[p], row[q]);
        row[p] = c * a - s * b;
        row[q] = s * a + c * b;
    }
}

/// Two-sided Jacobi on the symmetric `n × n` matrix `a` (both triangles), in place: on return
/// `a` is `vᵀ a v`, diagonal up to rounding, and `v` (overwritten) holds the eigenvectors as
/// columns.
pub fn eigh(a: &mut [f64], v: &mut [f64], n: usize) {
    v.fill(0.0);
    (0..n).for_each(|i| v[i * n + i] = 1.0);
    let norm = a.iter().map(|x| x * x).sum::<f64>().sqrt();
    let (tol, floor) = (tolerance(n), f64::EPSILON * norm / n.max(1) as f64);
    for _ in 0..MAX_SWEEPS {
        let mut rotated = false;
        for p in 0..n {
            for q in p + 1..n {
                let (app, aqq, apq) = (a[p * n + p], a[q * n + q], a[p * n + q]);
                if negligible(app, aqq, apq, tol, floor) {
                    continue;
                }
                rotated = true;
                let (c, s) = rotation(app, aqq, apq);
                rotate_columns(a, n, p, q, c, s);
                for k in 0..n {
                    let (x, y) = (a[p * n + k], a[q * n + k]);
                    a[p * n + k] = c * x - s * y;
                    a[q * n + k] = s * x + c * y;
                }
                // Exactly zero, as the rotation intends (rounding would leave a residue).
                a[p * n + q] = 0.0;
                a[q * n + p] = 0.0;
                rotate_columns(v, n, p, q, c, s);
            }
        }
        if !rotated {
            break;
        }
    }
}

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
            RoutineKind::JacobiEigh => eigh(&mut x, &mut v, n),
            RoutineKind::JacobiColumns { vectors } => {
                let a = std::mem::replace(&mut x, vec![0.0; mn]);
                super::golub_kahan::columns(&a, &mut x, &mut v, m, n, vectors);
            }
            _ => unreachable!("not a Jacobi routine"),
        }
        encode(dtype, &x, &mut first[b * mn * size..(b + 1) * mn * size]);
        encode(dtype, &v, &mut second[b * nn * size..(b + 1) * nn * size]);
    }
}
