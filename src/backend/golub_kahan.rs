//! The singular value decomposition of the `OrthogonalColumns` routine on the host (cpu and wasm
//! devices), in f64: Householder reduction to upper bidiagonal form, then implicit-shift QR
//! on the bidiagonal (Golub & Kahan; Golub & Van Loan, Algorithms 5.4.2 and 8.6.2) with a
//! Wilkinson shift of the trailing 2×2 block of `BᵀB`, deflating where a superdiagonal or
//! diagonal element is negligible. With vectors, the reflections and rotations are
//! accumulated into `U` and `V`; without, only the singular values are computed.
//!
//! Every vector is stored contiguously (the columns of `a`, `U` and `V` as rows), so each
//! reflection and rotation runs over consecutive memory.

/// QR sweeps at most, per singular value.
const MAX_SWEEPS_PER_VALUE: usize = 40;

/// The Householder reflection `I − τ v vᵀ` (with `v[0] = 1` implied by the scaling below)
/// mapping `x` onto `β e₀`: `x` is overwritten by `v`; returns `(β, τ)`.
pub(super) fn householder(x: &mut [f64]) -> (f64, f64) {
    let norm = x.iter().map(|v| v * v).sum::<f64>().sqrt();
    if norm == 0.0 {
        return (0.0, 0.0);
    }
    let beta = if x[0] > 0.0 { -norm } else { norm };
    let v0 = x[0] - beta;
    // v = x − β e₀ scaled so that v[0] = 1; then τ = 2 v₀² / (vᵀv) = (β − x₀) / β.
    let tau = (beta - x[0]) / beta;
    x[0] = 1.0;
    for v in &mut x[1..] {
        *v /= v0;
    }
    (beta, tau)
}

/// `y ← y − τ (vᵀ y) v`.
pub(super) fn reflect(v: &[f64], tau: f64, y: &mut [f64]) {
    let dot: f64 = v.iter().zip(y.iter()).map(|(a, b)| a * b).sum();
    let f = tau * dot;
    for (y, v) in y.iter_mut().zip(v) {
        *y -= f * v;
    }
}

/// Rows `i`, `j` of the row-major `rows` (rows of `len`) become `c·i + s·j` and `c·j − s·i`.
pub(super) fn rotate(rows: &mut [f64], len: usize, i: usize, j: usize, c: f64, s: f64) {
    if rows.is_empty() {
        return;
    }
    let (lo, hi) = (i.min(j), i.max(j));
    let (head, tail) = rows.split_at_mut(hi * len);
    let (a, b) = (&mut head[lo * len..][..len], &mut tail[..len]);
    let (x, y) = if i < j { (a, b) } else { (b, a) };
    for (x, y) in x.iter_mut().zip(y.iter_mut()) {
        let (p, q) = (*x, *y);
        *x = c * p + s * q;
        *y = c * q - s * p;
    }
}

/// `(c, s, r)` with `c·f + s·g = r`, `c·g − s·f = 0`.
pub(super) fn givens(f: f64, g: f64) -> (f64, f64, f64) {
    if g == 0.0 {
        return (1.0, 0.0, f);
    }
    let r = f.hypot(g);
    (f / r, g / r, r)
}

/// The Wilkinson shift of the symmetric 2×2 block `[[a, b], [b, c]]`: its eigenvalue nearer
/// `c`.
pub(super) fn wilkinson_shift(a: f64, b: f64, c: f64) -> f64 {
    let delta = (a - c) / 2.0;
    let root = delta.hypot(b);
    let den = delta + if delta < 0.0 { -root } else { root };
    if den == 0.0 {
        c
    } else {
        c - b * b / den
    }
}

/// The bidiagonal `B` (`d` its diagonal, `e[i] = B[i][i+1]`) with the factors accumulated so
/// far: `ut` (`n × m`, the columns of `U` as rows) and `vt` (`n × n`), empty without vectors.
struct Bidiagonal {
    d: Vec<f64>,
    e: Vec<f64>,
    ut: Vec<f64>,
    vt: Vec<f64>,
    m: usize,
    n: usize,
}

impl Bidiagonal {
    /// Reduces `cols` (the `n` columns of `a`, each of `m ≥ n` elements, contiguous) to
    /// upper bidiagonal form `a = U B Vᵀ`.
    fn reduce(mut cols: Vec<f64>, m: usize, n: usize, vectors: bool) -> Bidiagonal {
        let (mut d, mut e) = (vec![0.0; n], vec![0.0; n]);
        let mut taus = vec![0.0; n];
        // The right reflections' vectors (row i: the vector over columns i+1..n) and τs.
        let mut right = vec![0.0; n * n];
        let mut right_taus = vec![0.0; n];
        let mut s = vec![0.0; m];
        for i in 0..n {
            let (head, rest) = cols.split_at_mut((i + 1) * m);
            let col = &mut head[i * m + i..];
            let (beta, tau) = householder(col);
            d[i] = beta;
            taus[i] = tau;
            if tau != 0.0 {
                for other in rest.chunks_exact_mut(m) {
                    reflect(col, tau, &mut other[i..]);
                }
            }
            if i + 1 >= n {
                continue;
            }
            // The right reflection on row i, over columns i+1..n.
            let x = &mut right[i * n + i + 1..(i + 1) * n];
            for (j, v) in x.iter_mut().enumerate() {
                *v = rest[j * m + i];
            }
            let (beta, tau) = householder(x);
            e[i] = beta;
            right_taus[i] = tau;
            if tau == 0.0 {
                continue;
            }
            // Rows i+1..m: row ← row − τ (row · x) x, as axpys over the columns.
            let s = &mut s[i + 1..];
            s.fill(0.0);
            for (col, &v) in rest.chunks_exact(m).zip(x.iter()) {
                for (s, a) in s.iter_mut().zip(&col[i + 1..]) {
                    *s += v * a;
                }
            }
            for (col, &v) in rest.chunks_exact_mut(m).zip(x.iter()) {
                let f = tau * v;
                for (a, s) in col[i + 1..].iter_mut().zip(s.iter()) {
                    *a -= f * s;
                }
            }
        }
        let (mut ut, mut vt) = (Vec::new(), Vec::new());
        if vectors {
            // U = H₀ H₁ … H_{n−1} [I; 0], applied from the last reflection back.
            ut = vec![0.0; n * m];
            (0..n).for_each(|j| ut[j * m + j] = 1.0);
            for i in (0..n).rev() {
                let v = &cols[i * m + i..(i + 1) * m];
                for col in ut[i * m..].chunks_exact_mut(m) {
                    reflect(v, taus[i], &mut col[i..]);
                }
            }
            // V = G₀ G₁ … G_{n−2}, G_i acting on indices i+1..n.
            vt = vec![0.0; n * n];
            (0..n).for_each(|j| vt[j * n + j] = 1.0);
            for i in (0..n.saturating_sub(1)).rev() {
                let v = &right[i * n + i + 1..(i + 1) * n];
                for col in vt[(i + 1) * n..].chunks_exact_mut(n) {
                    reflect(v, right_taus[i], &mut col[i + 1..]);
                }
            }
        }
        Bidiagonal { d, e, ut, vt, m, n }
    }

    /// Left rotation of rows `i`, `j` of `B` (`U` columns `i`, `j` rotated alike).
    fn left(&mut self, i: usize, j: usize, c: f64, s: f64) {
        rotate(&mut self.ut, self.m, i, j, c, s);
    }

    /// Right rotation of columns `i`, `j` of `B` (`V` columns alike).
    fn right(&mut self, i: usize, j: usize, c: f64, s: f64) {
        rotate(&mut self.vt, self.n, i, j, c, s);
    }

    /// `d[i]` is zero (`i < hi`): chases `e[i]` along row `i` to the right with left
    /// rotations, so that `e[i]` becomes zero.
    fn zero_row(&mut self, i: usize, hi: usize) {
        let mut f = self.e[i];
        self.e[i] = 0.0;
        for j in i + 1..=hi {
            // Rows (j, i): B[j][j] absorbs the element f = B[i][j].
            let (c, s, r) = givens(self.d[j], f);
            self.d[j] = r;
            self.left(j, i, c, s);
            if j < hi {
                f = -s * self.e[j];
                self.e[j] *= c;
            }
        }
    }

    /// `d[hi]` is zero: chases `e[hi−1]` up column `hi` with right rotations.
    fn zero_column(&mut self, lo: usize, hi: usize) {
        let mut f = self.e[hi - 1];
        self.e[hi - 1] = 0.0;
        for k in (lo..hi).rev() {
            // Columns (k, hi): B[k][k] absorbs the element f = B[k][hi].
            let (c, s, r) = givens(self.d[k], f);
            self.d[k] = r;
            self.right(k, hi, c, s);
            if k > lo {
                f = -s * self.e[k - 1];
                self.e[k - 1] *= c;
            }
        }
    }

    /// One implicit-shift QR sweep over the unreduced block `lo..=hi`.
    fn sweep(&mut self, lo: usize, hi: usize) {
        let (d, e) = (&self.d, &self.e);
        // The Wilkinson shift: the eigenvalue of the trailing 2×2 block of BᵀB nearer its
        // last diagonal element.
        let above = if hi - 1 > lo { e[hi - 2] } else { 0.0 };
        let a = d[hi - 1] * d[hi - 1] + above * above;
        let b = d[hi - 1] * e[hi - 1];
        let c = d[hi] * d[hi] + e[hi - 1] * e[hi - 1];
        let mu = wilkinson_shift(a, b, c);
        let mut y = d[lo] * d[lo] - mu;
        let mut z = d[lo] * e[lo];
        for k in lo..hi {
            // Right rotation of columns k, k+1 zeroing z against y.
            let (c, s, r) = givens(y, z);
            if k > lo {
                self.e[k - 1] = r;
            }
            let (dk, ek, dk1) = (self.d[k], self.e[k], self.d[k + 1]);
            let new_dk = c * dk + s * ek;
            self.e[k] = c * ek - s * dk;
            let bulge = s * dk1;
            self.d[k + 1] = c * dk1;
            self.right(k, k + 1, c, s);
            // Left rotation of rows k, k+1 zeroing the bulge below the diagonal.
            let (c, s, r) = givens(new_dk, bulge);
            self.d[k] = r;
            let (ek, dk1) = (self.e[k], self.d[k + 1]);
            self.e[k] = c * ek + s * dk1;
            self.d[k + 1] = c * dk1 - s * ek;
            self.left(k, k + 1, c, s);
            if k + 1 < hi {
                y = self.e[k];
                z = s * self.e[k + 1];
                self.e[k + 1] *= c;
            }
        }
    }

    /// Diagonalizes `B` (singular values in `d`, unsorted, non-negative).
    fn diagonalize(&mut self) {
        let n = self.n;
        let eps = f64::EPSILON;
        let norm = (0..n).fold(0.0f64, |x, i| x.max(self.d[i].abs() + self.e[i].abs()));
        let floor = eps * norm;
        let mut hi = n.saturating_sub(1);
        let mut budget = MAX_SWEEPS_PER_VALUE * n;
        while hi > 0 && budget > 0 {
            for i in 0..hi {
                let e = self.e[i].abs();
                if e <= floor || e <= eps * (self.d[i].abs() + self.d[i + 1].abs()) {
                    self.e[i] = 0.0;
                }
            }
            if self.e[hi - 1] == 0.0 {
                hi -= 1;
                continue;
            }
            let mut lo = hi - 1;
            while lo > 0 && self.e[lo - 1] != 0.0 {
                lo -= 1;
            }
            if let Some(i) = (lo..hi).find(|&i| self.d[i].abs() <= floor) {
                self.d[i] = 0.0;
                self.zero_row(i, hi);
                continue;
            }
            if self.d[hi].abs() <= floor {
                self.d[hi] = 0.0;
                self.zero_column(lo, hi);
                continue;
            }
            self.sweep(lo, hi);
            budget -= 1;
        }
        for i in 0..n {
            if self.d[i] < 0.0 {
                self.d[i] = -self.d[i];
                if !self.vt.is_empty() {
                    self.vt[i * n..(i + 1) * n]
                        .iter_mut()
                        .for_each(|v| *v = -*v);
                }
            }
        }
    }
}

/// The SVD of the row-major `m × n` matrix `a` (`m ≥ n`), as the `OrthogonalColumns` routine's
/// results: `w = a v` (`m × n`, row-major, mutually orthogonal columns, the singular values
/// their norms) and `v` (`n × n`, orthogonal). Without `vectors`, `w` is the singular values
/// on its diagonal (zero elsewhere) and `v` the identity.
pub fn columns(a: &[f64], w: &mut [f64], v: &mut [f64], m: usize, n: usize, vectors: bool) {
    let mut cols = vec![0.0; n * m];
    for (r, row) in a.chunks_exact(n).enumerate().take(m) {
        for (j, &x) in row.iter().enumerate() {
            cols[j * m + r] = x;
        }
    }
    let mut b = Bidiagonal::reduce(cols, m, n, vectors);
    b.diagonalize();
    w.fill(0.0);
    v.fill(0.0);
    if !vectors {
        (0..n).for_each(|j| {
            w[j * n + j] = b.d[j];
            v[j * n + j] = 1.0;
        });
        return;
    }
    for j in 0..n {
        let (u, s) = (&b.ut[j * m..(j + 1) * m], b.d[j]);
        for (r, &x) in u.iter().enumerate() {
            w[r * n + j] = x * s;
        }
        for (r, &x) in b.vt[j * n..(j + 1) * n].iter().enumerate() {
            v[r * n + j] = x;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::columns;

    /// A deterministic pseudo-random `m × n` matrix in [-1, 1).
    fn matrix(m: usize, n: usize, seed: u64) -> Vec<f64> {
        let mut x = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (0..m * n)
            .map(|_| {
                x = x
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                (x >> 11) as f64 / (1u64 << 53) as f64 * 2.0 - 1.0
            })
            .collect()
    }

    /// The singular values (descending) of `a`, checking `a v = w` with `v` orthogonal and
    /// the columns of `w` orthogonal, and that the values-only mode agrees.
    fn check(a: &[f64], m: usize, n: usize) -> Vec<f64> {
        let (mut w, mut v) = (vec![0.0; m * n], vec![0.0; n * n]);
        columns(a, &mut w, &mut v, m, n, true);
        let scale = a.iter().fold(1.0f64, |s, x| s.max(x.abs()));
        let tol = 1e-12 * scale * (m + n) as f64;
        for i in 0..n {
            for j in 0..n {
                let dot: f64 = (0..n).map(|k| v[k * n + i] * v[k * n + j]).sum();
                let want = if i == j { 1.0 } else { 0.0 };
                assert!((dot - want).abs() < 1e-12 * n as f64, "vᵀv {m}×{n}");
                let ww: f64 = (0..m).map(|k| w[k * n + i] * w[k * n + j]).sum();
                assert!(i == j || ww.abs() < tol * scale, "wᵀw {m}×{n}: {ww}");
            }
        }
        for r in 0..m {
            for j in 0..n {
                let av: f64 = (0..n).map(|k| a[r * n + k] * v[k * n + j]).sum();
                assert!((av - w[r * n + j]).abs() < tol, "a v = w {m}×{n}");
            }
        }
        let norm = |w: &[f64], j: usize| (0..m).map(|r| w[r * n + j].powi(2)).sum::<f64>().sqrt();
        let mut s: Vec<f64> = (0..n).map(|j| norm(&w, j)).collect();
        columns(a, &mut w, &mut v, m, n, false);
        let mut only: Vec<f64> = (0..n).map(|j| norm(&w, j)).collect();
        s.sort_by(|x, y| y.total_cmp(x));
        only.sort_by(|x, y| y.total_cmp(x));
        for (x, y) in s.iter().zip(&only) {
            assert!((x - y).abs() < tol, "values only {m}×{n}: {x} vs {y}");
        }
        s
    }

    #[test]
    fn factors_of_random_matrices() {
        for (m, n) in [(1, 1), (3, 1), (2, 2), (5, 3), (8, 8), (40, 17), (33, 33)] {
            let a = matrix(m, n, (m * 100 + n) as u64);
            let s = check(&a, m, n);
            // The squares of the singular values sum to the squared Frobenius norm.
            let frob: f64 = a.iter().map(|x| x * x).sum();
            let sum: f64 = s.iter().map(|x| x * x).sum();
            assert!(
                (frob - sum).abs() < 1e-12 * frob * (m * n) as f64,
                "{m}×{n}"
            );
        }
    }

    #[test]
    fn known_singular_values() {
        // [[3, 0], [4, 5]]: aᵀa has eigenvalues 45 and 5.
        let s = check(&[3.0, 0.0, 4.0, 5.0], 2, 2);
        assert!((s[0] - 45f64.sqrt()).abs() < 1e-14 && (s[1] - 5f64.sqrt()).abs() < 1e-14);
        // A scaled permutation: the magnitudes of its entries.
        let mut a = vec![0.0; 16];
        for (r, (c, x)) in [(2, -3.0), (0, 0.5), (3, 7.0), (1, -1e-3)]
            .into_iter()
            .enumerate()
        {
            a[r * 4 + c] = x;
        }
        let s = check(&a, 4, 4);
        for (got, want) in s.iter().zip([7.0, 3.0, 0.5, 1e-3]) {
            assert!((got - want).abs() < 1e-14, "{got} vs {want}");
        }
    }

    #[test]
    fn rank_deficient_and_zero_matrices() {
        // x yᵀ: one singular value ‖x‖‖y‖, the others zero.
        let (x, y) = ([1.0, -2.0, 0.5, 3.0, 1.5, -1.0], [2.0, 1.0, -1.0, 0.25]);
        let a: Vec<f64> = x
            .iter()
            .flat_map(|p| y.iter().map(move |q| p * q))
            .collect();
        let s = check(&a, 6, 4);
        let norm = |v: &[f64]| v.iter().map(|t| t * t).sum::<f64>().sqrt();
        assert!((s[0] - norm(&x) * norm(&y)).abs() < 1e-13 * s[0]);
        assert!(s[1..].iter().all(|&t| t < 1e-13 * s[0]));
        // A zero column in the middle, and the zero matrix.
        let mut b = matrix(5, 4, 7);
        (0..5).for_each(|r| b[r * 4 + 1] = 0.0);
        let s = check(&b, 5, 4);
        assert!(s[3] < 1e-14 && s[2] > 1e-3);
        let s = check(&[0.0; 12], 4, 3);
        assert!(s.iter().all(|&t| t == 0.0));
    }
}
