//! The Routine IR (cholesky, triangular solve, LU, the Jacobi rotations of eigh and svd) on
//! every backend that runs natively: the `cpu` interpreter against independent residual
//! checks in f64 (L Lᵀ = A, op(A) X = B, P A = L U, A V = V D, A V = W with V orthogonal and
//! the columns of W orthogonal), wasm codegen validated by wasmparser (executed for real by the Node API tests),
//! WGSL validated by naga and run on wgpu over Vulkan (lavapipe) against the interpreter.

use crate::common::{block_on, decode, encode, run_routine_on};
use oxjax::backend::cpu::{run_routine, CpuBackend};
use oxjax::backend::wasm::emit::routines::emit_routine;
use oxjax::backend::webgpu::{wgsl_routines, wgsl_routines_group, WebGpuBackend};
use oxjax::backend::Backend;
use oxjax::core::DType;
use oxjax::kernel::{Routine, RoutineKind};

/// Deterministic pseudo-random values in (-1, 1).
fn noise(n: usize, seed: u64) -> Vec<f64> {
    let mut s = seed
        .wrapping_mul(6364136223846793005)
        .wrapping_add(1442695040888963407);
    (0..n)
        .map(|_| {
            s = s
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            ((s >> 11) as f64 / (1u64 << 53) as f64) * 2.0 - 1.0
        })
        .collect()
}

/// A batch of symmetric positive definite matrices: M Mᵀ / n + I.
fn spd(batch: usize, n: usize, seed: u64) -> Vec<f64> {
    let m = noise(batch * n * n, seed);
    let mut out = vec![0.0; batch * n * n];
    for b in 0..batch {
        for i in 0..n {
            for j in 0..n {
                let mut s = if i == j { 1.0 } else { 0.0 };
                for k in 0..n {
                    s += m[b * n * n + i * n + k] * m[b * n * n + j * n + k] / n as f64;
                }
                out[b * n * n + i * n + j] = s;
            }
        }
    }
    out
}

fn routine(kind: RoutineKind, dtype: DType, batch: usize, m: usize, n: usize) -> Routine {
    Routine {
        kind,
        dtype,
        batch,
        m,
        n,
    }
}

fn solve_kinds() -> Vec<RoutineKind> {
    let mut out = Vec::new();
    for bits in 0..16 {
        out.push(RoutineKind::TriangularSolve {
            left_side: bits & 1 != 0,
            lower: bits & 2 != 0,
            transpose_a: bits & 4 != 0,
            unit_diagonal: bits & 8 != 0,
        });
    }
    out
}

/// Inputs for `r`: SPD matrices for Cholesky, diagonally dominant ones for the others.
fn inputs(r: &Routine, seed: u64) -> Vec<Vec<f64>> {
    match r.kind {
        RoutineKind::Cholesky => vec![spd(r.batch, r.n, seed)],
        RoutineKind::TriangularSolve { .. } => {
            let k = r.k();
            let mut a = noise(r.batch * k * k, seed);
            for b in 0..r.batch {
                for i in 0..k {
                    a[b * k * k + i * k + i] += 3.0;
                }
            }
            vec![a, noise(r.batch * r.m * r.n, seed + 1)]
        }
        RoutineKind::Lu | RoutineKind::Sort | RoutineKind::OrthogonalColumns { .. } => {
            vec![noise(r.batch * r.m * r.n, seed)]
        }
        RoutineKind::Diagonalize => {
            let (n, mut a) = (r.n, noise(r.batch * r.n * r.n, seed));
            for m in a.chunks_mut(n * n) {
                for i in 0..n {
                    for j in 0..i {
                        m[i * n + j] = m[j * n + i];
                    }
                }
            }
            vec![a]
        }
        RoutineKind::Fft { .. } => vec![noise(r.batch * r.n, seed), noise(r.batch * r.n, seed + 1)],
    }
}

fn run_cpu(r: &Routine, ins: &[Vec<f64>]) -> Vec<Vec<u8>> {
    let bytes: Vec<Vec<u8>> = ins.iter().map(|v| encode(r.dtype, v)).collect();
    let refs: Vec<&[u8]> = bytes.iter().map(Vec::as_slice).collect();
    run_routine(r, &refs).unwrap()
}

fn close(got: f64, want: f64, tol: f64) -> bool {
    (got - want).abs() <= tol * (1.0 + want.abs())
}

#[test]
fn cholesky_reconstructs_its_input() {
    for n in [1, 2, 3, 5, 8] {
        let r = routine(RoutineKind::Cholesky, DType::Float64, 3, n, n);
        let ins = inputs(&r, n as u64);
        let l = decode(DType::Float64, &run_cpu(&r, &ins)[0]);
        for b in 0..3 {
            let at = |i: usize, j: usize| l[b * n * n + i * n + j];
            for i in 0..n {
                for j in 0..n {
                    if j > i {
                        assert_eq!(at(i, j), 0.0, "upper part of L");
                    }
                    let s: f64 = (0..n).map(|k| at(i, k) * at(j, k)).sum();
                    assert!(close(s, ins[0][b * n * n + i * n + j], 1e-12), "n={n}");
                }
            }
        }
    }
}

/// `a` equals `b` element by element, NaN matching NaN.
fn same_with_nan(a: &[f64], b: &[f64]) -> bool {
    a.len() == b.len()
        && a.iter()
            .zip(b)
            .all(|(x, y)| (x.is_nan() && y.is_nan()) || x == y)
}

#[test]
fn cholesky_is_nan_from_the_first_failing_pivot_on() {
    // Values from @jax-js/jax 0.1.25: the leading block before a non-positive pivot keeps its
    // factor; a negative pivot is NaN, a zero pivot 0 with NaN (0 / 0) below it.
    let nan = f64::NAN;
    let r = routine(RoutineKind::Cholesky, DType::Float32, 3, 3, 3);
    let a = vec![
        1.0, 2.0, 0.0, 2.0, 1.0, 0.0, 0.0, 0.0, 1.0, // pivot 1 negative
        4.0, 2.0, 0.0, 2.0, 1.0, 0.0, 0.0, 0.0, 1.0, // pivot 1 zero
        4.0, 0.0, 0.0, 2.0, 5.0, 0.0, 0.0, 0.0, -1.0, // pivot 2 negative
    ];
    let l = decode(DType::Float32, &run_cpu(&r, &[a])[0]);
    let want = [
        1.0, 0.0, 0.0, 2.0, nan, 0.0, 0.0, nan, nan, //
        2.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, nan, nan, //
        2.0, 0.0, 0.0, 1.0, 2.0, 0.0, 0.0, 0.0, nan,
    ];
    assert!(same_with_nan(&l, &want), "{l:?}");
}

#[test]
fn triangular_solves_satisfy_their_equation() {
    for kind in solve_kinds() {
        let RoutineKind::TriangularSolve {
            left_side,
            lower,
            transpose_a,
            unit_diagonal,
        } = kind
        else {
            unreachable!()
        };
        let (m, n) = (4, 3);
        let r = routine(kind, DType::Float64, 2, m, n);
        let k = r.k();
        let ins = inputs(&r, 7);
        let x = decode(DType::Float64, &run_cpu(&r, &ins)[0]);
        for b in 0..2 {
            // The triangular matrix the solve reads, then op(a).
            let t = |i: usize, j: usize| {
                let keep = if lower { j <= i } else { j >= i };
                match (i == j && unit_diagonal, keep) {
                    (true, _) => 1.0,
                    (false, true) => ins[0][b * k * k + i * k + j],
                    _ => 0.0,
                }
            };
            let op = |i: usize, j: usize| if transpose_a { t(j, i) } else { t(i, j) };
            let xv = |i: usize, j: usize| x[b * m * n + i * n + j];
            for i in 0..m {
                for j in 0..n {
                    let s: f64 = if left_side {
                        (0..k).map(|c| op(i, c) * xv(c, j)).sum()
                    } else {
                        (0..k).map(|c| xv(i, c) * op(c, j)).sum()
                    };
                    assert!(close(s, ins[1][b * m * n + i * n + j], 1e-12), "{kind:?}");
                }
            }
        }
    }
}

#[test]
fn lu_factors_the_permuted_input() {
    for (m, n) in [(1, 1), (4, 4), (5, 3), (3, 5), (6, 6)] {
        let r = routine(RoutineKind::Lu, DType::Float64, 2, m, n);
        let ins = inputs(&r, (m * 10 + n) as u64);
        let outs = run_cpu(&r, &ins);
        let (lu, piv, perm) = (decode(DType::Float64, &outs[0]), decode(DType::Int32, &outs[1]), decode(DType::Int32, &outs[2]));
        let p = m.min(n);
        for b in 0..2 {
            // The permutation is the pivots' row swaps applied in order.
            let mut want: Vec<f64> = (0..m).map(|i| i as f64).collect();
            for j in 0..p {
                want.swap(j, piv[b * p + j] as usize);
            }
            assert_eq!(&perm[b * m..(b + 1) * m], &want[..]);
            let at = |i: usize, j: usize| lu[b * m * n + i * n + j];
            for i in 0..m {
                for j in 0..n {
                    // (L U)[i][j] over c ≤ min(i, j), c < p; L is unit lower.
                    let l_u: f64 = (0..=i.min(j).min(p - 1))
                        .map(|c| if c == i { 1.0 } else { at(i, c) } * at(c, j))
                        .sum();
                    let a = ins[0][b * m * n + perm[b * m + i] as usize * n + j];
                    assert!(close(l_u, a, 1e-12), "{m}x{n} ({i}, {j}): {l_u} vs {a}");
                }
            }
            // Partial pivoting: every multiplier has magnitude ≤ 1.
            for j in 0..p {
                for i in j + 1..m {
                    assert!(at(i, j).abs() <= 1.0);
                }
            }
        }
    }
}

fn all_routines(dtype: DType) -> Vec<Routine> {
    let mut out = Vec::new();
    for (batch, n) in [(1, 1), (3, 4), (2, 7)] {
        out.push(routine(RoutineKind::Cholesky, dtype, batch, n, n));
    }
    for kind in solve_kinds() {
        out.push(routine(kind, dtype, 2, 4, 3));
        out.push(routine(kind, dtype, 1, 3, 5));
    }
    for (m, n) in [(4, 4), (5, 3), (3, 5)] {
        out.push(routine(RoutineKind::Lu, dtype, 3, m, n));
    }
    for n in [1, 2, 5] {
        out.push(routine(RoutineKind::Diagonalize, dtype, 2, n, n));
    }
    for (m, n) in [(6, 4), (3, 3), (5, 1)] {
        out.push(routine(RoutineKind::OrthogonalColumns { vectors: true }, dtype, 2, m, n));
    }
    out
}

/// `x [rows, k]ᵀ · y [rows, l]` of row-major matrices.
fn tmul(x: &[f64], y: &[f64], rows: usize, k: usize, l: usize) -> Vec<f64> {
    let mut out = vec![0.0; k * l];
    for r in 0..rows {
        for i in 0..k {
            for j in 0..l {
                out[i * l + j] += x[r * k + i] * y[r * l + j];
            }
        }
    }
    out
}

/// The results `x` (eigh: the rotated matrix; svd: the rotated columns) and `v` of a Jacobi
/// routine of `a` (`m × n`): V orthogonal, A V = V D with D diagonal (eigh) or A V = W with
/// W's columns orthogonal (svd), within `tol`.
fn check_jacobi(
    kind: RoutineKind,
    (a, x, v): (&[f64], &[f64], &[f64]),
    m: usize,
    n: usize,
    tol: f64,
    label: &str,
) {
        // V orthogonal.
        let vtv = tmul(v, v, n, n, n);
        for i in 0..n {
            for j in 0..n {
                let want = f64::from(u8::from(i == j));
                assert!(close(vtv[i * n + j], want, tol), "{label}: VᵀV");
            }
        }
        // A V = V D (eigh: D the diagonal of x, off-diagonal zero) or A V = W.
        let scale = a.iter().fold(1.0f64, |s, v| s.max(v.abs()));
        for i in 0..m {
            for j in 0..n {
                let av: f64 = (0..n).map(|k| a[i * n + k] * v[k * n + j]).sum();
                let want = match kind {
                    RoutineKind::Diagonalize => {
                        assert!(i == j || x[i * n + j].abs() <= tol * scale, "{label}");
                        v[i * n + j] * x[j * n + j]
                    }
                    _ => x[i * n + j],
                };
                assert!((av - want).abs() <= tol * scale * n as f64, "{label}: AV");
            }
        }
        if matches!(kind, RoutineKind::OrthogonalColumns { .. }) {
            let wtw = tmul(x, x, m, n, n);
            for i in 0..n {
                for j in 0..i {
                    let bound = tol * (wtw[i * n + i] * wtw[j * n + j]).sqrt();
                    assert!(
                        wtw[i * n + j].abs() <= bound + tol * scale,
                        "{label}: WᵀW"
                    );
                }
            }
        }
}

/// `r.batch` identity matrices of order `r.n`, row-major.
fn identities(r: &Routine) -> Vec<f64> {
    let n = r.n;
    let eye = (0..n * n).map(|e| f64::from(u8::from(e / n == e % n)));
    eye.cycle().take(r.batch * n * n).collect()
}

/// The column norms of each `m × n` matrix of `x` (routine `r`'s batch), descending.
fn column_norms(x: &[f64], r: &Routine) -> Vec<f64> {
    let (m, n) = (r.m, r.n);
    let mut out = Vec::new();
    for w in x.chunks(m * n).take(r.batch) {
        let mut s: Vec<f64> = (0..n)
            .map(|j| (0..m).map(|i| w[i * n + j].powi(2)).sum::<f64>().sqrt())
            .collect();
        s.sort_by(|a, b| b.total_cmp(a));
        out.extend(s);
    }
    out
}

#[test]
fn jacobi_routines_diagonalize_and_orthogonalize() {
    for (m, n) in [(1, 1), (2, 2), (5, 5), (16, 16), (9, 4), (7, 7)] {
        for dtype in [DType::Float64, DType::Float32] {
            let tol = if dtype == DType::Float64 { 1e-12 } else { 1e-5 };
            let read = |b: &[u8]| decode(dtype, b);
            let kinds = if m == n {
                vec![RoutineKind::Diagonalize, RoutineKind::OrthogonalColumns { vectors: true }]
            } else {
                vec![RoutineKind::OrthogonalColumns { vectors: true }]
            };
            for kind in kinds {
                let r = routine(kind, dtype, 2, m, n);
                let ins = inputs(&r, (m * 31 + n) as u64);
                let a: Vec<f64> = read(&encode(dtype, &ins[0]));
                let outs = run_cpu(&r, &ins);
                let (x, v) = (read(&outs[0]), read(&outs[1]));
                if let RoutineKind::OrthogonalColumns { .. } = kind {
                    let values = RoutineKind::OrthogonalColumns { vectors: false };
                    let only = Routine { kind: values, ..r };
                    let outs = run_cpu(&only, &ins);
                    assert_eq!(read(&outs[1]), identities(&r), "{kind:?}: v without vectors");
                    let got = column_norms(&read(&outs[0]), &only);
                    for (g, w) in got.iter().zip(column_norms(&x, &r)) {
                        assert!((g - w).abs() <= tol * w.max(1.0), "{kind:?} {m}×{n}: {g} vs {w}");
                    }
                }
                for b in 0..2 {
                    let (a, x) = (&a[b * m * n..][..m * n], &x[b * m * n..][..m * n]);
                    let v = &v[b * n * n..][..n * n];
                    let label = format!("{kind:?} {dtype:?} {m}×{n} matrix {b}");
                    check_jacobi(kind, (a, x, v), m, n, tol, &label);
                }
            }
        }
    }
}

#[test]
fn wasm_codegen_emits_valid_routine_modules() {
    for dtype in [DType::Float32, DType::Float64] {
        for r in all_routines(dtype) {
            let bytes = emit_routine(&r).unwrap();
            wasmparser::Validator::new()
                .validate_all(&bytes)
                .unwrap_or_else(|e| panic!("{r:?}: invalid wasm: {e}"));
        }
    }
}

#[test]
fn wgsl_routines_are_valid_and_float64_is_a_clear_error() {
    for r in all_routines(DType::Float32).into_iter().chain(group_routines()) {
        let source = wgsl_routines::emit_routine(&r).unwrap();
        let module = naga::front::wgsl::parse_str(&source)
            .unwrap_or_else(|e| panic!("{r:?}: WGSL parse error: {e}\n{source}"));
        naga::valid::Validator::new(Default::default(), naga::valid::Capabilities::all())
            .validate(&module)
            .unwrap_or_else(|e| panic!("{r:?}: invalid WGSL: {e:?}\n{source}"));
    }
    let r = routine(RoutineKind::Cholesky, DType::Float64, 1, 2, 2);
    let err = wgsl_routines::emit_routine(&r).unwrap_err();
    assert!(err.message().contains("float64"), "{err}");
}

#[test]
fn cpu_backend_dispatches_and_caches_routines() {
    let mut cpu = CpuBackend::new();
    let r = routine(RoutineKind::Lu, DType::Float32, 2, 3, 3);
    let ins: Vec<Vec<u8>> = inputs(&r, 3).iter().map(|v| encode(r.dtype, v)).collect();
    let want = run_cpu(&r, &inputs(&r, 3));
    for _ in 0..2 {
        assert_eq!(run_routine_on(&mut cpu, &r, &ins), want);
    }
    let stats = cpu.stats();
    assert_eq!((stats.live_buffers, stats.dispatches), (0, 2));
}

/// Routines large enough to run with a workgroup per matrix on webgpu
/// (`wgsl_routines_group`): both workgroup sizes, batches, rectangular LU, every solve (with
/// right-hand sides of one, several and partial column blocks), the
/// Jacobi rotations (an odd side: a dummy column in the round-robin).
fn group_routines() -> Vec<Routine> {
    let f32 = DType::Float32;
    let mut out = vec![
        routine(RoutineKind::Cholesky, f32, 3, 20, 20),
        routine(RoutineKind::Cholesky, f32, 1, 100, 100),
        routine(RoutineKind::Lu, f32, 2, 20, 20),
        routine(RoutineKind::Lu, f32, 2, 33, 17),
        routine(RoutineKind::Lu, f32, 1, 17, 40),
        routine(RoutineKind::Lu, f32, 1, 70, 70),
    ];
    for kind in solve_kinds() {
        out.push(routine(kind, f32, 2, 20, 18));
    }
    out.push(routine(solve_kinds()[3], f32, 1, 70, 3));
    // Right-hand sides of several whole column blocks (a workgroup per block).
    out.push(routine(solve_kinds()[1], f32, 3, 24, 48));
    out.push(routine(RoutineKind::Diagonalize, f32, 1, 33, 33));
    out.push(routine(RoutineKind::OrthogonalColumns { vectors: true }, f32, 2, 24, 20));
    for r in &out {
        assert!(wgsl_routines_group::group_size(r).is_some(), "{r:?}");
    }
    out
}

#[test]
fn webgpu_routines_on_vulkan_match_the_interpreter() {
    let mut gpu = block_on(WebGpuBackend::with_default_limits()).unwrap_or_else(|e| {
        panic!("no Vulkan adapter ({e}); scripts/setup.sh installs Mesa's lavapipe")
    });
    let mut extra = vec![
        routine(RoutineKind::Cholesky, DType::Float32, 100, 3, 3),
        routine(RoutineKind::Cholesky, DType::Float32, 2, 2, 2),
    ];
    // The host computes the eigh and svd routines by implicit QR, webgpu by Jacobi rotations
    // (the group shaders pair columns in another order still): other valid factors, checked
    // by their residuals (`webgpu_jacobi_with_a_workgroup_per_matrix_diagonalizes_and_orthogonalizes`).
    let jacobi = |r: &Routine| {
        matches!(
            r.kind,
            RoutineKind::Diagonalize | RoutineKind::OrthogonalColumns { .. }
        )
    };
    extra.extend(all_routines(DType::Float32).into_iter().filter(|r| !jacobi(r)));
    extra.extend(group_routines().into_iter().filter(|r| !jacobi(r)));
    for (i, r) in extra.iter().enumerate() {
        let mut ins = inputs(r, i as u64);
        if i == 1 {
            ins[0] = vec![4.0, 0.0, 2.0, 5.0, 1.0, 2.0, 2.0, 1.0]; // second one indefinite
        }
        let bytes: Vec<Vec<u8>> = ins.iter().map(|v| encode(r.dtype, v)).collect();
        let want = run_cpu(r, &ins);
        let got = run_routine_on(&mut gpu, r, &bytes);
        for (o, (g, w)) in got.iter().zip(&want).enumerate() {
            if r.outputs()[o].0 == DType::Int32 {
                assert_eq!(decode(DType::Int32, g), decode(DType::Int32, w), "{r:?} output {o}");
                continue;
            }
            for (e, (x, y)) in decode(DType::Float32, g).iter().zip(decode(DType::Float32, w)).enumerate() {
                let ok = (x.is_nan() && y.is_nan()) || close(*x, y, 1e-4);
                assert!(ok, "{r:?} element {e}: {x} vs {y}");
            }
        }
    }
    let stats = gpu.stats();
    assert_eq!((stats.live_buffers, stats.live_bytes), (0, 0));
}

#[test]
fn webgpu_jacobi_with_a_workgroup_per_matrix_diagonalizes_and_orthogonalizes() {
    let mut gpu = block_on(WebGpuBackend::with_default_limits()).unwrap_or_else(|e| {
        panic!("no Vulkan adapter ({e}); scripts/setup.sh installs Mesa's lavapipe")
    });
    let f32 = DType::Float32;
    let cases = [
        routine(RoutineKind::Diagonalize, f32, 2, 20, 20),
        routine(RoutineKind::Diagonalize, f32, 1, 33, 33),
        routine(RoutineKind::OrthogonalColumns { vectors: true }, f32, 2, 24, 20),
        routine(RoutineKind::OrthogonalColumns { vectors: true }, f32, 1, 17, 17),
    ];
    // And with one invocation per matrix (small sides).
    let small = all_routines(f32).into_iter().filter(|r| {
        matches!(
            r.kind,
            RoutineKind::Diagonalize | RoutineKind::OrthogonalColumns { .. }
        )
    });
    let small: Vec<Routine> = small.collect();
    for r in cases.iter().chain(&small) {
        let grouped = wgsl_routines_group::group_size(r).is_some();
        assert_eq!(grouped, r.m.max(r.n) >= 16, "{r:?}");
        let ins = inputs(r, (r.m * 7 + r.n) as u64);
        let bytes: Vec<Vec<u8>> = ins.iter().map(|v| encode(f32, v)).collect();
        let a = decode(f32, &bytes[0]);
        let outs = run_routine_on(&mut gpu, r, &bytes);
        let (x, v) = (decode(f32, &outs[0]), decode(f32, &outs[1]));
        let (m, n) = (r.m, r.n);
        for b in 0..r.batch {
            let (a, x) = (&a[b * m * n..][..m * n], &x[b * m * n..][..m * n]);
            let v = &v[b * n * n..][..n * n];
            check_jacobi(r.kind, (a, x, v), m, n, 1e-4, &format!("webgpu {r:?} matrix {b}"));
        }
        if matches!(r.kind, RoutineKind::OrthogonalColumns { .. }) {
            // The singular values (column norms) agree with the host's, without vectors too.
            let host = column_norms(&decode(f32, &run_cpu(r, &ins)[0]), r);
            let values = RoutineKind::OrthogonalColumns { vectors: false };
            let only = Routine { kind: values, ..*r };
            let outs = run_routine_on(&mut gpu, &only, &bytes);
            let gpu_only = decode(f32, &outs[0]);
            assert_eq!(decode(f32, &outs[1]), identities(r), "webgpu {r:?}: v without vectors");
            for got in [column_norms(&x, r), column_norms(&gpu_only, &only)] {
                for (g, w) in got.iter().zip(&host) {
                    assert!(close(*g, *w, 1e-4), "webgpu {r:?}: singular value {g} vs {w}");
                }
            }
        }
    }
    let stats = gpu.stats();
    assert_eq!((stats.live_buffers, stats.live_bytes), (0, 0));
}

#[test]
fn abstract_eval_of_the_routines_checks_shapes_and_dtypes() {
    use oxjax::core::{Aval, Primitive};
    use oxjax::rules::abstract_eval_multi;
    let f = |s: &[usize]| Aval::new(s.to_vec(), DType::Float32);
    let solve = Primitive::TriangularSolve {
        left_side: true,
        lower: true,
        transpose_a: false,
        unit_diagonal: false,
    };
    let outs = abstract_eval_multi(&Primitive::Lu, &[&f(&[2, 5, 3])]).unwrap();
    assert_eq!(
        outs,
        vec![
            f(&[2, 5, 3]),
            Aval::new(vec![2, 3], DType::Int32),
            Aval::new(vec![2, 5], DType::Int32)
        ]
    );
    let out = abstract_eval_multi(&solve, &[&f(&[2, 4, 4]), &f(&[2, 4, 3])]).unwrap();
    assert_eq!(out, vec![f(&[2, 4, 3])]);
    let bad: Vec<(Primitive, Vec<Aval>, &str)> = vec![
        (
            Primitive::Cholesky,
            vec![f(&[3])],
            "cholesky: the operand must have rank ≥ 2",
        ),
        (
            Primitive::Cholesky,
            vec![f(&[2, 3])],
            "cholesky: the operand must be square",
        ),
        (
            Primitive::Cholesky,
            vec![Aval::new(vec![2, 2], DType::Int32)],
            "cholesky: the operand must be float32 or float64",
        ),
        (
            Primitive::Lu,
            vec![f(&[4])],
            "lu: the operand must have rank ≥ 2",
        ),
        (
            solve.clone(),
            vec![f(&[4, 4]), f(&[3, 2])],
            "triangular_solve: a is 4×4 but b has 3 rows",
        ),
        (
            solve.clone(),
            vec![f(&[2, 4, 4]), f(&[3, 4, 2])],
            "triangular_solve: a and b must have the same batch dimensions",
        ),
        (
            solve,
            vec![f(&[4, 4]), Aval::new(vec![4, 2], DType::Float64)],
            "triangular_solve: a and b must have the same dtype",
        ),
    ];
    for (prim, ins, want) in bad {
        let refs: Vec<&Aval> = ins.iter().collect();
        let err = abstract_eval_multi(&prim, &refs).unwrap_err();
        assert!(err.message().starts_with(want), "{}", err.message());
    }
    // The single-output shorthand refuses lu rather than dropping two outputs.
    assert!(oxjax::rules::abstract_eval(&Primitive::Lu, &[&f(&[2, 2])]).is_err());
}
