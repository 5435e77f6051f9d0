//! The reference implementation of the Routine IR (`kernel/routine.rs`): textbook algorithms
//! computed in f64 and rounded once to the routine's dtype (the sort: `sort.rs`; the FFT, shared
//! with the wasm device: `backend/fft.rs`). The wasm and WebGPU versions are tested against
//! these.

use crate::core::DType;
use crate::kernel::routine::{LeftSolve, Routine, RoutineKind};
use crate::util::{Error, Result};

/// Runs `routine` on input buffers given as bytes; returns the bytes of each output.
pub fn run_routine(routine: &Routine, inputs: &[&[u8]]) -> Result<Vec<Vec<u8>>> {
    let want = routine.inputs();
    if inputs.len() != want.len() {
        return Err(internal(routine, "wrong number of inputs"));
    }
    if routine.kind == RoutineKind::Sort {
        let need = want[0].1 * routine.dtype.byte_size();
        if inputs[0].len() < need {
            return Err(internal(routine, "input buffer too small"));
        }
        let (sorted, perm) = super::sort::run(routine, inputs[0]);
        return Ok(vec![sorted, perm]);
    }
    if let RoutineKind::Fft { inverse } = routine.kind {
        let bytes = want[0].1 * routine.dtype.byte_size();
        if inputs.iter().any(|i| i.len() < bytes) {
            return Err(internal(routine, "input buffer too small"));
        }
        let (mut re, mut im) = (vec![0; bytes], vec![0; bytes]);
        crate::backend::fft::transform(
            routine.dtype,
            routine.n,
            inverse,
            (&inputs[0][..bytes], &inputs[1][..bytes]),
            (&mut re, &mut im),
        );
        return Ok(vec![re, im]);
    }
    if matches!(
        routine.kind,
        RoutineKind::Diagonalize | RoutineKind::OrthogonalColumns { .. }
    ) {
        let size = routine.dtype.byte_size();
        let outs = routine.outputs();
        if inputs[0].len() < want[0].1 * size {
            return Err(internal(routine, "input buffer too small"));
        }
        let (mut first, mut second) = (vec![0; outs[0].1 * size], vec![0; outs[1].1 * size]);
        crate::backend::jacobi::run(routine, inputs[0], &mut first, &mut second);
        return Ok(vec![first, second]);
    }
    let mut ins = Vec::with_capacity(inputs.len());
    for (bytes, &(dtype, count)) in inputs.iter().zip(&want) {
        let values = decode(dtype, bytes)?;
        if values.len() < count {
            return Err(internal(routine, "input buffer too small"));
        }
        ins.push(values);
    }
    let (b, m, n) = (routine.batch, routine.m, routine.n);
    let outs: Vec<Vec<f64>> = match routine.kind {
        RoutineKind::Cholesky => {
            let mut out = vec![0.0; b * n * n];
            for (a, l) in ins[0].chunks(n * n).zip(out.chunks_mut(n * n)).take(b) {
                cholesky(a, l, n);
            }
            vec![out]
        }
        RoutineKind::TriangularSolve { .. } => {
            let s = LeftSolve::of(routine).expect("a triangular solve");
            let k = s.k;
            let mut out = ins[1][..b * m * n].to_vec();
            if k > 0 {
                for (a, x) in ins[0].chunks(k * k).zip(out.chunks_mut(m * n)).take(b) {
                    triangular_solve(&s, a, x);
                }
            }
            vec![out]
        }
        RoutineKind::Sort
        | RoutineKind::Fft { .. }
        | RoutineKind::Diagonalize
        | RoutineKind::OrthogonalColumns { .. } => unreachable!("computed above"),
        RoutineKind::Lu => {
            let p = m.min(n);
            let mut lu = ins[0][..b * m * n].to_vec();
            let mut pivots = vec![0.0; b * p];
            let mut perm = vec![0.0; b * m];
            for i in 0..b {
                lu_one(
                    &mut lu[i * m * n..(i + 1) * m * n],
                    &mut pivots[i * p..(i + 1) * p],
                    &mut perm[i * m..(i + 1) * m],
                    m,
                    n,
                );
            }
            vec![lu, pivots, perm]
        }
    };
    Ok(outs
        .iter()
        .zip(routine.outputs())
        .map(|(values, (dtype, _))| encode(dtype, values))
        .collect())
}

fn internal(routine: &Routine, what: &str) -> Error {
    Error::new("cpu", format!("internal error: {}: {what}", routine.name()))
}

/// Lower Cholesky factor of the `n × n` matrix `a` (lower triangle read) into `l`. A pivot that
/// is not positive makes NaN (or, when zero, infinities) from that pivot on, while the factor of
/// the leading block before it stays valid (jax-js's behaviour).
fn cholesky(a: &[f64], l: &mut [f64], n: usize) {
    for j in 0..n {
        let mut d = a[j * n + j];
        for k in 0..j {
            d -= l[j * n + k] * l[j * n + k];
        }
        let djj = d.sqrt();
        l[j * n + j] = djj;
        for i in j + 1..n {
            let mut s = a[i * n + j];
            for k in 0..j {
                s -= l[i * n + k] * l[j * n + k];
            }
            l[i * n + j] = s / djj;
        }
    }
}

/// Solves `t y = c` in place in `x` (which holds `c`), as described by `s`.
fn triangular_solve(s: &LeftSolve, a: &[f64], x: &mut [f64]) {
    let k = s.k;
    let rows: Vec<usize> = if s.lower {
        (0..k).collect()
    } else {
        (0..k).rev().collect()
    };
    for j in 0..s.cols {
        for (pos, &r) in rows.iter().enumerate() {
            let mut v = x[s.b_at(r, j)];
            // The rows solved before this one.
            for &c in &rows[..pos] {
                v -= a[s.a_at(r, c)] * x[s.b_at(c, j)];
            }
            if !s.unit_diagonal {
                v /= a[s.a_at(r, r)];
            }
            x[s.b_at(r, j)] = v;
        }
    }
}

/// LU with partial pivoting of the `m × n` matrix `a`, in place.
fn lu_one(a: &mut [f64], pivots: &mut [f64], perm: &mut [f64], m: usize, n: usize) {
    for (i, p) in perm.iter_mut().enumerate() {
        *p = i as f64;
    }
    for j in 0..m.min(n) {
        let mut p = j;
        for i in j + 1..m {
            if a[i * n + j].abs() > a[p * n + j].abs() {
                p = i;
            }
        }
        pivots[j] = p as f64;
        if p != j {
            for c in 0..n {
                a.swap(j * n + c, p * n + c);
            }
            perm.swap(j, p);
        }
        let d = a[j * n + j];
        if d != 0.0 {
            for i in j + 1..m {
                a[i * n + j] /= d;
            }
        }
        for i in j + 1..m {
            let f = a[i * n + j];
            for c in j + 1..n {
                a[i * n + c] -= f * a[j * n + c];
            }
        }
    }
}

fn decode(dtype: DType, bytes: &[u8]) -> Result<Vec<f64>> {
    Ok(match dtype {
        DType::Float32 => bytes
            .chunks_exact(4)
            .map(|c| f32::from_le_bytes(c.try_into().expect("4 bytes")) as f64)
            .collect(),
        DType::Float64 => bytes
            .chunks_exact(8)
            .map(|c| f64::from_le_bytes(c.try_into().expect("8 bytes")))
            .collect(),
        d => {
            return Err(Error::new(
                "cpu",
                format!(
                    "routines take float32 or float64 matrices, not {}",
                    d.name()
                ),
            ))
        }
    })
}

fn encode(dtype: DType, values: &[f64]) -> Vec<u8> {
    let mut out = Vec::with_capacity(values.len() * dtype.byte_size());
    for &v in values {
        match dtype {
            DType::Float64 => out.extend_from_slice(&v.to_le_bytes()),
            DType::Int32 => out.extend_from_slice(&(v as i32).to_le_bytes()),
            _ => out.extend_from_slice(&(v as f32).to_le_bytes()),
        }
    }
    out
}

/// Runs compiled routine `exe` of `backend` on its buffers.
pub(super) fn dispatch(
    backend: &mut super::CpuBackend,
    exe: crate::backend::ExeId,
    inputs: &[crate::backend::BufferId],
    outputs: &[crate::backend::BufferId],
) -> Result<()> {
    use crate::backend::Backend;
    let routine = backend.routines.get(exe)?.0;
    crate::backend::routines::check_arity(&routine, inputs.len(), outputs.len())?;
    let ins = inputs
        .iter()
        .map(|&id| backend.buffer(id).map(Vec::as_slice));
    let ins: Vec<&[u8]> = ins.collect::<Result<_>>()?;
    let outs = run_routine(&routine, &ins)?;
    backend.dispatches += 1;
    for (&id, bytes) in outputs.iter().zip(outs) {
        backend.write(id, &bytes)?;
    }
    Ok(())
}
