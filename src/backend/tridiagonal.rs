//! The symmetric eigendecomposition of the `Diagonalize` routine on the host (cpu and wasm
//! devices), in f64: Householder reduction to tridiagonal form `a = Q T Qᵀ`, then implicit
//! symmetric QR on `T` with a Wilkinson shift (Golub & Van Loan, Algorithms 8.3.1 and 8.3.3),
//! deflating where a subdiagonal element is negligible, the rotations accumulated into `Q`.
//!
//! The matrix is symmetric, so its rows serve as its columns; `Q` is kept with its columns as
//! rows, so every reflection and rotation runs over consecutive memory.

use super::golub_kahan::{givens, householder, reflect, rotate, wilkinson_shift};

/// QR sweeps at most, per eigenvalue.
const MAX_SWEEPS_PER_VALUE: usize = 40;

/// Reduces the symmetric `n × n` row-major `a` (both triangles) to tridiagonal form: returns
/// the diagonal, the subdiagonal (`off[i] = T[i+1][i]`) and `Q` with its columns as rows.
fn reduce(a: &mut [f64], n: usize) -> (Vec<f64>, Vec<f64>, Vec<f64>) {
    let (mut diag, mut off) = (vec![0.0; n], vec![0.0; n]);
    let mut taus = vec![0.0; n];
    let (mut p, mut w) = (vec![0.0; n], vec![0.0; n]);
    for k in 0..n.saturating_sub(2) {
        diag[k] = a[k * n + k];
        // Row k right of the diagonal (column k below it, by symmetry) onto its first element.
        let (head, rest) = a.split_at_mut((k + 1) * n);
        let v = &mut head[k * n + k + 1..];
        let (beta, tau) = householder(v);
        off[k] = beta;
        taus[k] = tau;
        if tau == 0.0 {
            continue;
        }
        // The trailing block A₂₂ ← H A₂₂ H = A₂₂ − v wᵀ − w vᵀ with p = τ A₂₂ v and
        // w = p − (τ/2)(pᵀv) v.
        let len = n - k - 1;
        let (p, w) = (&mut p[..len], &mut w[..len]);
        for (pi, row) in p.iter_mut().zip(rest.chunks_exact(n)) {
            *pi = tau
                * row[k + 1..]
                    .iter()
                    .zip(v.iter())
                    .map(|(x, y)| x * y)
                    .sum::<f64>();
        }
        let half = tau / 2.0 * p.iter().zip(v.iter()).map(|(x, y)| x * y).sum::<f64>();
        for ((wi, pi), vi) in w.iter_mut().zip(p.iter()).zip(v.iter()) {
            *wi = pi - half * vi;
        }
        for ((row, &vi), &wi) in rest.chunks_exact_mut(n).zip(v.iter()).zip(w.iter()) {
            for ((x, &vj), &wj) in row[k + 1..].iter_mut().zip(v.iter()).zip(w.iter()) {
                *x -= vi * wj + wi * vj;
            }
        }
    }
    if n >= 2 {
        diag[n - 2] = a[(n - 2) * n + n - 2];
        off[n - 2] = a[(n - 1) * n + n - 2];
    }
    if n >= 1 {
        diag[n - 1] = a[(n - 1) * n + n - 1];
    }
    // Q = H₀ H₁ … H_{n−3}, H_k acting on indices k+1..n, applied from the last one back.
    let mut qt = vec![0.0; n * n];
    (0..n).for_each(|j| qt[j * n + j] = 1.0);
    for k in (0..n.saturating_sub(2)).rev() {
        let v = &a[k * n + k + 1..(k + 1) * n];
        for col in qt[(k + 1) * n..].chunks_exact_mut(n) {
            reflect(v, taus[k], &mut col[k + 1..]);
        }
    }
    (diag, off, qt)
}

/// One implicit-shift QR sweep over the unreduced block `lo..=hi` of `T`.
fn sweep(diag: &mut [f64], off: &mut [f64], qt: &mut [f64], n: usize, lo: usize, hi: usize) {
    // The Wilkinson shift: the eigenvalue of the trailing 2×2 block nearer its last element.
    let mu = wilkinson_shift(diag[hi - 1], off[hi - 1], diag[hi]);
    let (mut f, mut g) = (diag[lo] - mu, off[lo]);
    for k in lo..hi {
        // The rotation R of rows and columns k, k+1 zeroing g against f: T ← R T Rᵀ.
        let (c, s, r) = givens(f, g);
        if k > lo {
            off[k - 1] = r;
        }
        let (a, b, d) = (diag[k], off[k], diag[k + 1]);
        let (cc, ss, cs) = (c * c, s * s, c * s);
        diag[k] = cc * a + 2.0 * cs * b + ss * d;
        diag[k + 1] = ss * a - 2.0 * cs * b + cc * d;
        off[k] = cs * (d - a) + (cc - ss) * b;
        rotate(qt, n, k, k + 1, c, s);
        if k + 1 < hi {
            f = off[k];
            g = s * off[k + 1];
            off[k + 1] *= c;
        }
    }
}

/// The eigenvalues (unsorted) and eigenvectors of the symmetric `n × n` row-major `a` (both
/// triangles), as the `Diagonalize` routine's results: `a` is overwritten by the diagonal
/// matrix of the eigenvalues, `v` by the orthogonal matrix of the eigenvectors (columns).
pub fn eigh(a: &mut [f64], v: &mut [f64], n: usize) {
    let (mut diag, mut off, mut qt) = reduce(a, n);
    let eps = f64::EPSILON;
    let norm = (0..n).fold(0.0f64, |x, i| {
        x.max(diag[i].abs() + off[i].abs() + if i > 0 { off[i - 1].abs() } else { 0.0 })
    });
    let floor = eps * norm;
    let mut hi = n.saturating_sub(1);
    let mut budget = MAX_SWEEPS_PER_VALUE * n;
    while hi > 0 && budget > 0 {
        for i in 0..hi {
            let e = off[i].abs();
            if e <= floor || e <= eps * (diag[i].abs() + diag[i + 1].abs()) {
                off[i] = 0.0;
            }
        }
        if off[hi - 1] == 0.0 {
            hi -= 1;
            continue;
        }
        let mut lo = hi - 1;
        while lo > 0 && off[lo - 1] != 0.0 {
            lo -= 1;
        }
        sweep(&mut diag, &mut off, &mut qt, n, lo, hi);
        budget -= 1;
    }
    a.fill(0.0);
    for j in 0..n {
        a[j * n + j] = diag[j];
        for (r, &x) in qt[j * n..(j + 1) * n].iter().enumerate() {
            v[r * n + j] = x;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::eigh;

    /// A deterministic pseudo-random symmetric `n × n` matrix with entries in [-1, 1).
    fn symmetric(n: usize, seed: u64) -> Vec<f64> {
        let mut x = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let mut a = vec![0.0; n * n];
        for i in 0..n {
            for j in 0..=i {
                x = x
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                let v = (x >> 11) as f64 / (1u64 << 53) as f64 * 2.0 - 1.0;
                a[i * n + j] = v;
                a[j * n + i] = v;
            }
        }
        a
    }

    /// The eigenvalues (ascending) of `a`, checking `v` orthogonal and `a v = v diag(w)`.
    fn check(a: &[f64], n: usize) -> Vec<f64> {
        let (mut d, mut v) = (a.to_vec(), vec![0.0; n * n]);
        eigh(&mut d, &mut v, n);
        let scale = a.iter().fold(1.0f64, |s, x| s.max(x.abs()));
        let tol = 1e-12 * scale * n as f64;
        for i in 0..n {
            for j in 0..n {
                let dot: f64 = (0..n).map(|k| v[k * n + i] * v[k * n + j]).sum();
                let want = if i == j { 1.0 } else { 0.0 };
                assert!((dot - want).abs() < 1e-12 * n as f64, "vᵀv {n}");
                assert!(i == j || d[i * n + j] == 0.0, "d diagonal {n}");
                let av: f64 = (0..n).map(|k| a[i * n + k] * v[k * n + j]).sum();
                assert!(
                    (av - v[i * n + j] * d[j * n + j]).abs() < tol,
                    "a v = v d {n}"
                );
            }
        }
        let mut w: Vec<f64> = (0..n).map(|j| d[j * n + j]).collect();
        w.sort_by(f64::total_cmp);
        w
    }

    #[test]
    fn eigenpairs_of_random_symmetric_matrices() {
        for n in [1, 2, 3, 5, 16, 33] {
            let a = symmetric(n, n as u64);
            let w = check(&a, n);
            // The trace and the squared Frobenius norm are the sums of w and of w².
            let trace: f64 = (0..n).map(|i| a[i * n + i]).sum();
            let frob: f64 = a.iter().map(|x| x * x).sum();
            assert!((w.iter().sum::<f64>() - trace).abs() < 1e-12 * n as f64);
            assert!((w.iter().map(|x| x * x).sum::<f64>() - frob).abs() < 1e-11 * frob);
        }
    }

    #[test]
    fn known_eigenvalues_and_repeated_ones() {
        // [[2, 1], [1, 2]]: 1 and 3.
        let w = check(&[2.0, 1.0, 1.0, 2.0], 2);
        assert!((w[0] - 1.0).abs() < 1e-15 && (w[1] - 3.0).abs() < 1e-15);
        // The tridiagonal [-1, 2, -1] of order 6: 2 − 2 cos(kπ/7).
        let n = 6;
        let mut a = vec![0.0; n * n];
        for i in 0..n {
            a[i * n + i] = 2.0;
            if i + 1 < n {
                a[i * n + i + 1] = -1.0;
                a[(i + 1) * n + i] = -1.0;
            }
        }
        let w = check(&a, n);
        for (k, got) in w.iter().enumerate() {
            let want = 2.0 - 2.0 * ((k + 1) as f64 * std::f64::consts::PI / 7.0).cos();
            assert!((got - want).abs() < 1e-14, "{got} vs {want}");
        }
        // J − I (all ones but a zero diagonal) of order 5: 4 once and −1 four times.
        let a: Vec<f64> = (0..25)
            .map(|k| if k % 6 == 0 { 0.0 } else { 1.0 })
            .collect();
        let w = check(&a, 5);
        assert!(w[..4].iter().all(|x| (x + 1.0).abs() < 1e-14) && (w[4] - 4.0).abs() < 1e-14);
        // Diagonal and zero matrices are left as they are.
        let w = check(&[3.0, 0.0, 0.0, 0.0, -1.0, 0.0, 0.0, 0.0, 0.0], 3);
        assert_eq!(w, vec![-1.0, 0.0, 3.0]);
        assert_eq!(check(&[0.0; 16], 4), vec![0.0; 4]);
    }
}
