//! Register-blocked, cache-tiled float32 matrix products: the kernels `kernel::matmul`
//! recognises whose operands are plain float32 loads at indices affine in (row, k) and
//! (col, k), with unit stride along the output columns for `b` (a row-major right operand;
//! any layout of the left one). Others keep the generic vector loop (`vloop`).
//!
//! The output is covered by 4×8 micro-tiles (4 rows, two f32x4 vectors of columns; a 1×8
//! tile for the last rows): per step of k, two vector loads of a row of `b`, four splatted
//! scalars of `a`, and eight multiply-then-add into accumulators that live in locals
//! (registers). Column blocks are the outer loop, so a `b` panel (k × 8) stays in cache while
//! every row block passes over it, and k is split into blocks of [`KC`] so that panel fits the
//! L1 cache; partial sums go through the output buffer between k blocks. Each output is still
//! summed in order k = 0, 1, … in float32 with the product rounded first (no fused
//! multiply-add), which is `order::narrow`'s order: results equal the interpreter's bit
//! for bit. The last `n mod 8` columns run the kernel's scalar code.

use walrus::ir::{BinaryOp as B, LoadKind, StoreKind, UnaryOp as U};
use walrus::ValType;

use super::dsl::{cond, i32c, Var, E, S};
use super::Cx;
use crate::kernel::matmul::{plain_load, structure, Lin, Matmul};
use crate::kernel::{order, Kernel};
use crate::util::Result;

/// Steps of k per block.
pub const KC: usize = 256;

/// Rows per micro-tile.
const MR: usize = 4;

/// Columns per micro-tile (two vectors).
const NR: usize = 8;

/// The layout of a product the tiled code handles.
struct Plan {
    m: Matmul,
    a: (usize, Lin),
    b: (usize, Lin),
}

fn plan(kernel: &Kernel) -> Option<Plan> {
    if !order::narrow(kernel) {
        return None;
    }
    // Batches of products on both sides keep the generic loop.
    let m = structure(kernel).filter(|m| m.batches == 1)?;
    let (rows, n, k) = (m.rows as i64, m.n as i64, m.k as i64);
    if n < NR as i64 || k == 0 {
        return None;
    }
    // a at i = row·n, b at i = col.
    let a = plain_load(&m.a, Lin { c: 0, v: [n, 0] }, [rows, k])?;
    let b = plain_load(&m.b, Lin { c: 0, v: [1, 0] }, [n, k])?;
    (b.1.v[0] == 1).then_some(Plan { m, a, b })
}

fn load_v(cx: &Cx, addr: E) -> E {
    E::Load(cx.memory, LoadKind::V128, ValType::V128, Box::new(addr))
}

fn load_f(cx: &Cx, addr: E) -> E {
    E::Load(cx.memory, LoadKind::F32, ValType::F32, Box::new(addr))
}

/// One micro-tile of `mr` rows × 8 columns at (row, col) over k in kc0..kend.
fn micro(cx: &mut Cx, p: &Plan, mr: usize, at: &Loops, out: Var) -> Vec<S> {
    let (n, rows_stride, ka, kb) = (
        p.m.n as i32,
        p.a.1.v[0] as i32,
        p.a.1.v[1] as i32,
        p.b.1.v[1] as i32,
    );
    let (pa, pb, po, kk) = (
        cx.tmp(ValType::I32),
        cx.tmp(ValType::I32),
        cx.tmp(ValType::I32),
        cx.tmp(ValType::I32),
    );
    let accs: Vec<Vec<Var>> = (0..mr)
        .map(|_| (0..2).map(|_| cx.tmp(ValType::V128)).collect())
        .collect();
    let (bv, av) = (
        [cx.tmp(ValType::V128), cx.tmp(ValType::V128)],
        cx.tmp(ValType::V128),
    );
    let base_a = cx.inputs[p.a.0].get();
    let base_b = cx.inputs[p.b.0].get();
    let mut s = vec![
        pa.set(
            base_a
                + (i32c(p.a.1.c as i32)
                    + at.row.get() * i32c(rows_stride)
                    + at.kc0.get() * i32c(ka))
                    * i32c(4),
        ),
        pb.set(base_b + (i32c(p.b.1.c as i32) + at.col.get() + at.kc0.get() * i32c(kb)) * i32c(4)),
        po.set(out.get() + (at.row.get() * i32c(n) + at.col.get()) * i32c(4)),
    ];
    let tile_addr = |x: usize, v: usize| po.get() + i32c((x as i32 * n + 4 * v as i32) * 4);
    for (x, acc) in accs.iter().enumerate() {
        for (v, a) in acc.iter().enumerate() {
            // The first k block starts from zero; later ones continue the stored partial sums.
            s.push(a.set(cond(
                at.kc0.get().eqz(),
                E::V128(0),
                load_v(cx, tile_addr(x, v)),
            )));
        }
    }
    let mut step = vec![
        bv[0].set(load_v(cx, pb.get())),
        bv[1].set(load_v(cx, pb.get() + i32c(16))),
    ];
    for (x, acc) in accs.iter().enumerate() {
        let scalar = load_f(cx, pa.get() + i32c(x as i32 * rows_stride * 4));
        step.push(av.set(scalar.v1(U::F32x4Splat)));
        for (v, a) in acc.iter().enumerate() {
            let product = av.get().v2(B::F32x4Mul, bv[v].get());
            step.push(a.set(a.get().v2(B::F32x4Add, product)));
        }
    }
    step.extend([
        pa.set(pa.get() + i32c(ka * 4)),
        pb.set(pb.get() + i32c(kb * 4)),
        kk.set(kk.get() + i32c(1)),
    ]);
    s.push(kk.set(at.kc0.get()));
    s.push(S::While(kk.get().ltu(at.kend.get()), step));
    for (x, acc) in accs.iter().enumerate() {
        for (v, a) in acc.iter().enumerate() {
            s.push(S::Store(
                cx.memory,
                StoreKind::V128,
                tile_addr(x, v),
                a.get(),
            ));
        }
    }
    s
}

/// The loop variables of the tiled code.
struct Loops {
    row: Var,
    col: Var,
    kc0: Var,
    kend: Var,
}

/// The tiled loops computing every output of `kernel` when it is a product the tiled code
/// handles and the call covers the whole output (`n = size`); `result` is the kernel's scalar
/// value at `cx.index` (for the last columns). Leaves `cx.index` at `n`.
/// The output elements of one block of 4-row tiles of a kernel this file tiles, or None.
pub fn tile_rows_elements(kernel: &Kernel) -> Option<usize> {
    plan(kernel).map(|p| MR * p.m.n)
}

/// The tiled product over the outputs `start..n` when both are whole rows (else None: the
/// kernel's other loops run). Tiling never changes a value (see the file comment).
pub fn tiled(
    cx: &mut Cx,
    kernel: &Kernel,
    (start, n): (Var, Var),
    out: Var,
    result: &E,
) -> Result<Option<S>> {
    let Some(p) = plan(kernel) else {
        return Ok(None);
    };
    let (cols, k) = (p.m.n as i32, p.m.k as i32);
    let main_cols = cols - cols % NR as i32;
    // The rows first..rows; 4-row tiles up to main_rows.
    let (first, rows, main_rows) = (
        cx.tmp(ValType::I32),
        cx.tmp(ValType::I32),
        cx.tmp(ValType::I32),
    );
    let bounds = vec![
        first.set(start.get().div_u(i32c(cols))),
        rows.set(n.get().div_u(i32c(cols))),
        main_rows.set(rows.get() - (rows.get() - first.get()).rem_u(i32c(MR as i32))),
    ];
    let at = Loops {
        row: cx.tmp(ValType::I32),
        col: cx.tmp(ValType::I32),
        kc0: cx.tmp(ValType::I32),
        kend: cx.tmp(ValType::I32),
    };
    let four = micro(cx, &p, MR, &at, out);
    let one = micro(cx, &p, 1, &at, out);
    let (row, col, kc0, kend) = (at.row, at.col, at.kc0, at.kend);
    let kc = KC as i32;
    let mut row_loops = vec![row.set(first.get())];
    let mut four = four;
    four.push(row.set(row.get() + i32c(MR as i32)));
    row_loops.push(S::While(row.get().lt(main_rows.get()), four));
    let mut one = one;
    one.push(row.set(row.get() + i32c(1)));
    row_loops.push(S::While(row.get().lt(rows.get()), one));
    row_loops.push(col.set(col.get() + i32c(NR as i32)));
    let blocks = S::While(
        kc0.get().lt(i32c(k)),
        vec![
            kend.set(cond(
                (kc0.get() + i32c(kc)).lt(i32c(k)),
                kc0.get() + i32c(kc),
                i32c(k),
            )),
            col.set(i32c(0)),
            S::While(col.get().lt(i32c(main_cols)), row_loops),
            kc0.set(kc0.get() + i32c(kc)),
        ],
    );
    // The last columns: the kernel's scalar code, output by output.
    let index = cx.index;
    let addr = out.get() + index.get() * i32c(4);
    let tail = vec![
        row.set(first.get()),
        S::While(
            row.get().lt(rows.get()),
            vec![
                col.set(i32c(main_cols)),
                S::While(
                    col.get().lt(i32c(cols)),
                    vec![
                        index.set(row.get() * i32c(cols) + col.get()),
                        S::Store(cx.memory, StoreKind::F32, addr, result.clone()),
                        col.set(col.get() + i32c(1)),
                    ],
                ),
                row.set(row.get() + i32c(1)),
            ],
        ),
    ];
    let mut body = bounds;
    body.extend([kc0.set(i32c(0)), blocks]);
    body.extend(tail);
    body.push(index.set(n.get()));
    let whole_rows = start.get().rem_u(i32c(cols)).eqz() & n.get().rem_u(i32c(cols)).eqz();
    let in_range = n.get().leu(i32c(kernel.size as i32));
    Ok(Some(S::If(whole_rows & in_range, body, vec![])))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::DType;
    use crate::kernel::index::{linear, unravel};
    use crate::kernel::{AluExp, BinaryOp, ReduceOp, Reduction};

    /// `out[row, col] = Σ_r a[row, r] · b[r, col]` for row-major `a [m, k]`, `b [k, n]`, built
    /// as `rules::linalg::matmul_kernel` builds it (a backend may not import the rules).
    fn product(m: usize, k: usize, n: usize) -> Kernel {
        let rc = unravel(&AluExp::index(), &[m, n]);
        let r = AluExp::reduce_index();
        let load = |input: usize, coords: [AluExp; 2], cols: usize| {
            AluExp::load(
                DType::Float32,
                input,
                linear(0, &coords, &[cols as isize, 1]),
            )
        };
        let a = load(0, [rc[0].clone(), r.clone()], k);
        let b = load(1, [r, rc[1].clone()], n);
        let mut kernel = Kernel::elementwise(
            vec![DType::Float32; 2],
            m * n,
            AluExp::binary(BinaryOp::Mul, a, b),
        );
        kernel.reduction = Some(Reduction {
            op: ReduceOp::Sum,
            size: k,
        });
        kernel
    }

    #[test]
    fn row_major_products_are_planned_with_affine_operands() {
        let p = plan(&product(33, 17, 40)).expect("tiled");
        assert_eq!(p.a.1, Lin { c: 0, v: [17, 1] });
        assert_eq!(p.b.1, Lin { c: 0, v: [1, 40] });
        assert!(plan(&product(33, 17, 7)).is_none(), "fewer than 8 columns");
    }
}
