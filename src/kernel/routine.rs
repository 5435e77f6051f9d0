//! The Routine IR: named sequential kernels that every backend implements by hand (ARCHITECTURE.md
//! decision 4), for algorithms that are not one expression per output element — Cholesky,
//! triangular solves, LU, sorting, the FFT. A [`Routine`] is a batch of independent problems
//! of one shape (matrices, or rows for the sort and the FFT); every buffer is dense,
//! row-major, batch-major (`[batch, rows, cols]`).
//!
//! The `cpu` interpreter (`backend/cpu/routines.rs`) defines what each routine computes; the
//! wasm and WGSL versions are tested against it.

use crate::core::DType;

/// Which routine, with its flags.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum RoutineKind {
    /// `a [batch, n, n]` → `l [batch, n, n]`: the lower Cholesky factor (`l lᵀ = a`), read from
    /// the lower triangle of `a` only; zeros above the diagonal. A pivot `≤ 0` or NaN (a
    /// matrix that is not positive definite) makes NaN (or, for a zero pivot, infinities) from
    /// that pivot on, the leading block's factor staying valid, as jax-js does.
    Cholesky,
    /// `a [batch, k, k]`, `b [batch, m, n]` → `x [batch, m, n]` solving `op(a) x = b`
    /// (`left_side`, `k = m`) or `x op(a) = b` (`k = n`), where `op(a)` is `a` or `aᵀ`
    /// (`transpose_a`) and only the `lower` (or upper) triangle of `a` is read; with
    /// `unit_diagonal` the diagonal is taken as ones.
    TriangularSolve {
        left_side: bool,
        lower: bool,
        transpose_a: bool,
        unit_diagonal: bool,
    },
    /// `a [batch, m, n]` → `lu [batch, m, n]`, `pivots int32 [batch, min(m, n)]`,
    /// `permutation int32 [batch, m]`: LU with partial pivoting as LAPACK's `getrf` (the
    /// first row of largest magnitude is the pivot; a zero pivot column is left unscaled).
    /// `lu` packs the unit-lower `L` below the diagonal and `U` on and above it; row `i` of
    /// `P a` is row `permutation[i]` of `a`.
    Lu,
    /// `x [batch, n]` → `sorted [batch, n]`, `perm int32 [batch, n]` with
    /// `sorted[b, i] = x[b, perm[b, i]]`: each row in ascending order, stably (equal elements
    /// keep their order). Floats order as JAX's sort does: NaN (any sign or payload) after
    /// everything, `-0.0` equal to `0.0`; bool as false < true. `m` is 1; any dtype.
    Sort,
    /// `re, im [batch, n]` → `re, im [batch, n]`: `X[k] = Σ_t x[t]·e^(∓2πi·k·t/n)` for each row
    /// (sign `-`, or `+` when `inverse`; no scaling), in the float dtype `dtype`. `m` is 1.
    Fft { inverse: bool },
    /// `a [batch, n, n]` (symmetric, both triangles read) → `d [batch, n, n]`,
    /// `v [batch, n, n]`: `d = vᵀ a v` with `v` orthogonal and the off-diagonal part of `d`
    /// negligible — the eigenvalues are the diagonal of `d` (unsorted), the eigenvectors the
    /// columns of `v`. By Householder tridiagonalization and implicit QR on the host devices
    /// (`d` exactly diagonal), by cyclic two-sided Jacobi rotations on webgpu. `m = n`.
    Diagonalize,
    /// `a [batch, m, n]` → `w [batch, m, n]`, `v [batch, n, n]`: `w = a v` with `v`
    /// orthogonal and the columns of `w` mutually orthogonal (the singular values are their
    /// norms) — by Golub–Kahan on the host devices, by cyclic one-sided Jacobi rotations on
    /// webgpu. Without `vectors`, only the column norms of `w` are defined and `v` is the
    /// identity (the host writes the singular values on the diagonal of `w`).
    OrthogonalColumns { vectors: bool },
}

/// One routine over a batch of matrices of one shape and dtype.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Routine {
    pub kind: RoutineKind,
    /// The float dtype of the matrices (the key dtype of a sort).
    pub dtype: DType,
    /// The number of independent problems.
    pub batch: usize,
    /// Rows and columns of the main operand: `a` for Cholesky and LU, `b` (and the result) for
    /// the triangular solve.
    pub m: usize,
    pub n: usize,
}

impl Routine {
    pub fn name(&self) -> &'static str {
        match self.kind {
            RoutineKind::Cholesky => "cholesky",
            RoutineKind::TriangularSolve { .. } => "triangular_solve",
            RoutineKind::Lu => "lu",
            RoutineKind::Sort => "sort",
            RoutineKind::Fft { .. } => "fft",
            RoutineKind::Diagonalize => "eigh",
            RoutineKind::OrthogonalColumns { .. } => "svd",
        }
    }

    /// The order of the triangular matrix of a triangular solve.
    pub fn k(&self) -> usize {
        match self.kind {
            RoutineKind::TriangularSolve {
                left_side: false, ..
            } => self.n,
            _ => self.m,
        }
    }

    /// Dtype and element count of each input buffer, by position.
    pub fn inputs(&self) -> Vec<(DType, usize)> {
        let (b, m, n) = (self.batch, self.m, self.n);
        match self.kind {
            RoutineKind::Cholesky
            | RoutineKind::Lu
            | RoutineKind::Sort
            | RoutineKind::Diagonalize
            | RoutineKind::OrthogonalColumns { .. } => {
                vec![(self.dtype, b * m * n)]
            }
            RoutineKind::TriangularSolve { .. } => {
                let k = self.k();
                vec![(self.dtype, b * k * k), (self.dtype, b * m * n)]
            }
            RoutineKind::Fft { .. } => vec![(self.dtype, b * n), (self.dtype, b * n)],
        }
    }

    /// Dtype and element count of each output buffer, by position.
    pub fn outputs(&self) -> Vec<(DType, usize)> {
        let (b, m, n) = (self.batch, self.m, self.n);
        match self.kind {
            RoutineKind::Cholesky | RoutineKind::TriangularSolve { .. } => {
                vec![(self.dtype, b * m * n)]
            }
            RoutineKind::Lu => vec![
                (self.dtype, b * m * n),
                (DType::Int32, b * m.min(n)),
                (DType::Int32, b * m),
            ],
            RoutineKind::Sort => vec![(self.dtype, b * n), (DType::Int32, b * n)],
            RoutineKind::Fft { .. } => vec![(self.dtype, b * n), (self.dtype, b * n)],
            RoutineKind::Diagonalize | RoutineKind::OrthogonalColumns { .. } => {
                vec![(self.dtype, b * m * n), (self.dtype, b * n * n)]
            }
        }
    }

    /// True when there is no element to compute (nothing to dispatch).
    pub fn is_empty(&self) -> bool {
        self.outputs().iter().all(|&(_, n)| n == 0)
    }
}

/// A triangular solve rewritten as a left-side solve `t y = c` with `t` lower or upper
/// triangular: what every backend implements. Element `(r, c)` of `t` is element
/// `a_at(r, c)` of the `k × k` matrix `a`, element `(r, j)` of the `k × cols` right-hand side
/// (and of the result) is element `b_at(r, j)` of the `m × n` buffer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LeftSolve {
    pub k: usize,
    /// Columns of the right-hand side.
    pub cols: usize,
    /// `t` is lower triangular (solve forward) rather than upper (backward).
    pub lower: bool,
    /// `t = aᵀ`.
    pub a_transposed: bool,
    /// The right-hand side is `bᵀ` (a right-side solve).
    pub b_transposed: bool,
    pub unit_diagonal: bool,
}

impl LeftSolve {
    /// `x op(a) = b` is `op(a)ᵀ xᵀ = bᵀ` (so `t` is `a` transposed exactly when `transpose_a`
    /// equals `left_side`); `aᵀ` lower is `a` upper.
    pub fn of(r: &Routine) -> Option<LeftSolve> {
        let RoutineKind::TriangularSolve {
            left_side,
            lower,
            transpose_a,
            unit_diagonal,
        } = r.kind
        else {
            return None;
        };
        let a_transposed = transpose_a == left_side;
        Some(LeftSolve {
            k: r.k(),
            cols: if left_side { r.n } else { r.m },
            lower: lower != a_transposed,
            a_transposed,
            b_transposed: !left_side,
            unit_diagonal,
        })
    }

    /// The flat index into `a` of `t[r][c]`.
    pub fn a_at(&self, r: usize, c: usize) -> usize {
        if self.a_transposed {
            c * self.k + r
        } else {
            r * self.k + c
        }
    }

    /// The flat index into `b` (and the result) of right-hand side element `[r][j]`.
    pub fn b_at(&self, r: usize, j: usize) -> usize {
        if self.b_transposed {
            j * self.k + r
        } else {
            r * self.cols + j
        }
    }
}
