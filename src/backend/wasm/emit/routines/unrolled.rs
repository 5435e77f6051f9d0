//! Small routines of loop modules, unrolled: a scan body factors and solves with the same few
//! small matrices every step (a 2×2 innovation covariance), where the loop counters of the
//! textbook loops cost more than the arithmetic. The same algorithms as `cholesky` and
//! `triangular_solve` of the parent module, with Rust loops over the constant sizes in place of
//! wasm loops: every index is a constant, and the operations and their order are unchanged
//! (so results equal the looped code and the `cpu` interpreter's exactly).

use walrus::ValType;

use super::{c, Cx};
use crate::backend::wasm::emit::dsl::{f64c, Var, E, S};
use crate::kernel::routine::LeftSolve;

/// The most multiply-adds of an unrolled routine (code size).
const MAX_TERMS: usize = 128;

/// Whether a Cholesky factorisation of order `n` is unrolled.
pub fn cholesky_small(n: usize) -> bool {
    n * n * n <= MAX_TERMS
}

/// Whether the triangular solve `s` is unrolled.
pub fn solve_small(s: &LeftSolve) -> bool {
    s.cols * s.k * s.k <= 2 * MAX_TERMS
}

/// `parent::cholesky` unrolled.
pub fn cholesky(cx: &mut Cx, n: usize, l: Var, a: Var) -> Vec<S> {
    let (d, s) = (cx.var(ValType::F64), cx.var(ValType::F64));
    let at = |r: usize, col: usize| c(r * n + col);
    let mut out = Vec::new();
    for j in 0..n {
        out.push(d.set(cx.ld(a, at(j, j))));
        for k in 0..j {
            let t = cx.ld(l, at(j, k));
            out.push(d.set(d.get() - t.clone() * t));
        }
        out.push(d.set(d.get().sqrt()));
        out.push(cx.st(l, at(j, j), d.get()));
        for i in j + 1..n {
            out.push(s.set(cx.ld(a, at(i, j))));
            for k in 0..j {
                out.push(s.set(s.get() - cx.ld(l, at(i, k)) * cx.ld(l, at(j, k))));
            }
            out.push(cx.st(l, at(i, j), s.get() / d.get()));
        }
        for i in 0..j {
            out.push(cx.st(l, at(i, j), f64c(0.0)));
        }
    }
    out
}

/// `parent::triangular_solve` unrolled.
pub fn triangular_solve(
    cx: &mut Cx,
    s: &LeftSolve,
    count: usize,
    x: Var,
    a: Var,
    b: Var,
) -> Vec<S> {
    let v = cx.var(ValType::F64);
    let k = s.k;
    let a_at = |row: usize, cl: usize| -> E {
        if s.a_transposed {
            c(cl * k + row)
        } else {
            c(row * k + cl)
        }
    };
    let b_at = |row: usize, jj: usize| -> E {
        if s.b_transposed {
            c(jj * k + row)
        } else {
            c(row * s.cols + jj)
        }
    };
    let row_of = |p: usize| if s.lower { p } else { k - 1 - p };
    let mut out: Vec<S> = (0..count).map(|e| cx.st(x, c(e), cx.ld(b, c(e)))).collect();
    for j in 0..s.cols {
        for pos in 0..k {
            let r = row_of(pos);
            out.push(v.set(cx.ld(x, b_at(r, j))));
            for q in 0..pos {
                let col = row_of(q);
                out.push(v.set(v.get() - cx.ld(a, a_at(r, col)) * cx.ld(x, b_at(col, j))));
            }
            if !s.unit_diagonal {
                out.push(v.set(v.get() / cx.ld(a, a_at(r, r))));
            }
            out.push(cx.st(x, b_at(r, j), v.get()));
        }
    }
    out
}
