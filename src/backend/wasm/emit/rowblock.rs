//! Products blocked over rows: the kernels `kernel::matmul::row_side` recognises, whose row
//! side is a plain float32 load and whose column side (with its mask) is any expression — a
//! convolution, whose rows are its output channels (the kernel's weights) and whose columns
//! are its output positions (the input windows, masked by the padding). The column side is
//! computed once per block of [`W`] consecutive columns and step of k, with the SIMD lowering
//! (`simd`), and multiplied by the scalars of up to [`MAX_ROWS`] rows, each with accumulators
//! of its own; the generic vector loop (`vloop`) would compute it again for every row.
//!
//! Each output still sums `where(mask, x · y, 0)` in order k = 0, 1, … in the kernel's order
//! (`order::wide`: promoted to f64 and rounded once; else in float32), the product rounded to
//! float32 first and masked lanes exactly +0 (the mask is applied to the product, as the
//! kernel's expression does), so results equal the interpreter's bit for bit.
//!
//! Blocks are `rows × W` rectangles, so a call's range `start..end` counts output elements in
//! block order — row block by row block, within one column block by column block, within one
//! row by row — rather than by output index: any split of the kernel's elements into ranges at
//! multiples of [`block_elements`] (worker threads) still computes each output exactly once.
//! When the columns are not a multiple of `W`, ranges are whole row blocks and the last
//! columns of each row run the kernel's scalar code. The epilogue, if any, is applied block by
//! block.

use walrus::ir::{BinaryOp as B, LoadKind, StoreKind, UnaryOp as U};
use walrus::ValType;

use super::dsl::{i32c, Var, E, S};
use super::simd::{Simd, LANES};
use super::simd_ops::{splat_const, vector_step, HIGH_HALF, LOW_HALVES};
use super::{epilogue_value, vloop, Cx};
use crate::core::DType;
use crate::kernel::matmul::{row_side, RowSide};
use crate::kernel::{order, Kernel, ReduceOp};
use crate::util::Result;

/// Vectors of columns per block.
const U_VECS: usize = 2;

/// Columns per block.
pub const W: usize = U_VECS * LANES;

/// The most rows per block.
pub const MAX_ROWS: usize = 8;

struct Plan {
    p: RowSide,
    /// Rows per block.
    r: usize,
}

fn plan(kernel: &Kernel) -> Option<Plan> {
    if order::blocked(kernel) || kernel.output_dtype() != DType::Float32 {
        return None;
    }
    let p = row_side(kernel)?;
    // Columns left over run in whole row blocks of one product.
    let left_over = !p.n.is_multiple_of(W);
    if p.n < W || p.k == 0 || (left_over && p.batches > 1) {
        return None;
    }
    let r = (2..=MAX_ROWS).rev().find(|r| p.rows.is_multiple_of(*r))?;
    Some(Plan { p, r })
}

/// The output elements of one block of a kernel this file computes, or None.
pub fn block_elements(kernel: &Kernel) -> Option<usize> {
    plan(kernel).map(|p| p.r * unit_columns(p.p.n))
}

/// The columns of one range unit: a block's, or every column when some are left over.
fn unit_columns(n: usize) -> usize {
    if n.is_multiple_of(W) {
        W
    } else {
        n
    }
}

/// The loop variables of the blocked code: the first row and column of a block.
#[derive(Clone, Copy)]
struct At {
    row: Var,
    col: Var,
}

/// One step of k for every row of a block: the row's scalar times the column side's vectors,
/// masked, into accumulators (set up in `init`). Returns each row's result vectors.
fn accumulate(
    cx: &mut Cx,
    p: &RowSide,
    (rows, wide): (usize, bool),
    (bvars, mvars): (&[Var], Option<&[Var]>),
    ra: Var,
    (init, step): (&mut Vec<S>, &mut Vec<S>),
) -> Vec<Vec<E>> {
    let va = p.a.1.v[0] as i32 * 4;
    let av = cx.tmp(ValType::V128);
    let mut results = vec![];
    for j in 0..rows {
        let load = E::Load(
            cx.memory,
            LoadKind::F32,
            ValType::F32,
            Box::new(ra.get() + i32c(j as i32 * va)),
        );
        step.push(av.set(load.v1(U::F32x4Splat)));
        let mut row_results = vec![];
        for (u, b) in bvars.iter().enumerate() {
            let product = match p.a_first {
                true => av.get().v2(B::F32x4Mul, b.get()),
                false => b.get().v2(B::F32x4Mul, av.get()),
            };
            let product = match mvars {
                Some(m) => product.v2(B::V128And, m[u].get()),
                None => product,
            };
            if wide {
                let (lo, hi) = (cx.tmp(ValType::V128), cx.tmp(ValType::V128));
                let x = cx.tmp(ValType::V128);
                init.push(lo.set(splat_const(DType::Float64, 0.0)));
                init.push(hi.set(splat_const(DType::Float64, 0.0)));
                let high = E::Shuffle(HIGH_HALF, Box::new(x.get()), Box::new(x.get()));
                let (add, promote) = (B::F64x2Add, U::F64x2PromoteLowF32x4);
                step.push(x.set(product));
                step.push(lo.set(lo.get().v2(add, x.get().v1(promote))));
                step.push(hi.set(hi.get().v2(add, high.v1(promote))));
                let demote = U::F32x4DemoteF64x2Zero;
                row_results.push(E::Shuffle(
                    LOW_HALVES,
                    Box::new(lo.get().v1(demote)),
                    Box::new(hi.get().v1(demote)),
                ));
            } else {
                let acc = cx.tmp(ValType::V128);
                init.push(acc.set(splat_const(DType::Float32, 0.0)));
                let sum = vector_step(ReduceOp::Sum, DType::Float32, acc.get(), product);
                step.push(acc.set(sum));
                row_results.push(acc.get());
            }
        }
        results.push(row_results);
    }
    results
}

/// The code of one block at `at` (its row counted over every product of the batch): the column
/// side lowered at `cx.index` = the product's first output plus the column (W lanes from
/// there; it reads the output index only as columns and products) and `cx.reduce_index`, the
/// reduction, and the stores; leaves `cx.index` at the block's first output.
fn block(cx: &mut Cx, p: &RowSide, rows: usize, wide: bool, at: At, out: Var) -> Result<Vec<S>> {
    let mut s = Simd::new(cx, U_VECS, false);
    let (masks, bvals) = match &p.mask {
        Some(c) => {
            let (m, b) = s.lower_masked(c, &p.b)?;
            (Some(m), b)
        }
        None => (None, s.lower_vecs(&p.b)?),
    };
    let (lane_sets, stmts) = (
        std::mem::take(&mut s.lane_sets),
        std::mem::take(&mut s.stmts),
    );
    let (rix, index) = (cx.reduce_index, cx.index);
    let (invariant, mut step) = vloop::hoist(stmts, rix);
    // The column side's vectors and masks, once per step.
    let held = |cx: &mut Cx, es: Vec<E>, step: &mut Vec<S>| -> Vec<Var> {
        es.into_iter()
            .map(|e| {
                let x = cx.tmp(ValType::V128);
                step.push(x.set(e));
                x
            })
            .collect()
    };
    let bvars = held(cx, bvals, &mut step);
    let mvars = masks.map(|m| held(cx, m, &mut step));
    let (pa, ra) = (cx.tmp(ValType::I32), cx.tmp(ValType::I32));
    step.push(ra.set(pa.get() + rix.get() * i32c(p.a.1.v[1] as i32 * 4)));
    // The block's product of the batch and first row in it.
    let (batch, row) = (cx.tmp(ValType::I32), cx.tmp(ValType::I32));
    let per = i32c(p.rows as i32);
    let mut code = vec![
        batch.set(at.row.get().div_u(per.clone())),
        row.set(at.row.get().rem_u(per)),
        index.set(batch.get() * i32c((p.rows * p.n) as i32) + at.col.get()),
    ];
    code.extend(lane_sets);
    code.extend(invariant);
    let base_a = cx.inputs[p.a.0].get();
    let first_a = i32c(p.a.1.c as i32)
        + batch.get() * i32c(p.a_step as i32)
        + row.get() * i32c(p.a.1.v[0] as i32);
    code.push(pa.set(base_a + first_a * i32c(4)));
    let sides = (bvars.as_slice(), mvars.as_deref());
    let results = accumulate(cx, p, (rows, wide), sides, ra, (&mut code, &mut step));
    step.push(rix.set(rix.get() + i32c(1)));
    code.push(rix.set(i32c(0)));
    code.push(S::While(rix.get().ltu(i32c(p.k as u32 as i32)), step));
    let (n, addr) = (p.n as i32, cx.tmp(ValType::I32));
    code.push(index.set(at.row.get() * i32c(n) + at.col.get()));
    code.push(addr.set(out.get() + index.get() * i32c(4)));
    for (j, row_results) in results.into_iter().enumerate() {
        for (u, x) in row_results.into_iter().enumerate() {
            let to = addr.get() + i32c((j as i32 * n + (u * LANES) as i32) * 4);
            code.push(S::Store(cx.memory, StoreKind::V128, to, x));
        }
    }
    Ok(code)
}

/// The condition under which the blocked loops run (`start` and `end` whole units, `end`
/// within the kernel) and the loops over the elements `start..end` in block order, leaving
/// `cx.index` at `end`; `result` is the kernel's scalar value at `cx.index` (for the last
/// columns). None for kernels this file does not compute.
pub fn blocked(
    cx: &mut Cx,
    kernel: &Kernel,
    (start, end): (Var, Var),
    out: Var,
    result: &E,
) -> Result<Option<(E, Vec<S>)>> {
    let Some(Plan { p, r: rows }) = plan(kernel) else {
        return Ok(None);
    };
    let (n, unit) = (p.n as i32, (rows * unit_columns(p.n)) as i32);
    let (band, tail, w) = (rows as i32 * n, (p.n % W) as i32, W as i32);
    let at = At {
        row: cx.tmp(ValType::I32),
        col: cx.tmp(ValType::I32),
    };
    let (v, stop, index) = (cx.tmp(ValType::I32), cx.tmp(ValType::I32), cx.index);
    let mut code = block(cx, &p, rows, order::wide(kernel), at, out)?;
    let mapped = match &kernel.epilogue {
        Some(ep) => Some(epilogue_value(cx, ep, out, DType::Float32)?),
        None => None,
    };
    if let Some((addr, mapped)) = &mapped {
        // Each output of the block mapped in place (the epilogue's input 0 is `out`).
        let (first, t) = (cx.tmp(ValType::I32), cx.tmp(ValType::I32));
        code.extend([
            first.set(index.get()),
            t.set(i32c(0)),
            S::While(
                t.get().ltu(i32c(rows as i32 * w)),
                vec![
                    index.set(
                        first.get() + t.get().div_u(i32c(w)) * i32c(n) + t.get().rem_u(i32c(w)),
                    ),
                    S::Store(cx.memory, StoreKind::F32, addr.clone(), mapped.clone()),
                    t.set(t.get() + i32c(1)),
                ],
            ),
        ]);
    }
    code.push(at.col.set(at.col.get() + i32c(w)));
    // A unit: one block, or a row block's blocks and then its last columns.
    let mut units = vec![
        at.row.set(v.get().div_u(i32c(band)) * i32c(rows as i32)),
        at.col
            .set(v.get().rem_u(i32c(band)).div_u(i32c(rows as i32))),
        stop.set(match tail {
            0 => at.col.get() + i32c(w),
            _ => i32c(n - tail),
        }),
        S::While(at.col.get().ltu(stop.get()), code),
    ];
    if tail > 0 {
        let t = cx.tmp(ValType::I32);
        let addr = out.get() + index.get() * i32c(4);
        let mut each = vec![
            index.set(
                (at.row.get() + t.get().div_u(i32c(tail))) * i32c(n)
                    + i32c(n - tail)
                    + t.get().rem_u(i32c(tail)),
            ),
            S::Store(cx.memory, StoreKind::F32, addr, result.clone()),
        ];
        if let Some((addr, mapped)) = mapped {
            each.push(S::Store(cx.memory, StoreKind::F32, addr, mapped));
        }
        each.push(t.set(t.get() + i32c(1)));
        units.extend([
            t.set(i32c(0)),
            S::While(t.get().ltu(i32c(rows as i32 * tail)), each),
        ]);
    }
    units.push(v.set(v.get() + i32c(unit)));
    let body = vec![
        v.set(start.get()),
        S::While(v.get().ltu(end.get()), units),
        index.set(end.get()),
    ];
    let whole = start.get().rem_u(i32c(unit)).eqz() & end.get().rem_u(i32c(unit)).eqz();
    let within = end.get().leu(i32c(kernel.size as i32));
    Ok(Some((whole & within, body)))
}
