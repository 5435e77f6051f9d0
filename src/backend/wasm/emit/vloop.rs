//! The vectorised loop of a kernel: blocks of `4·u` consecutive output elements computed with
//! SIMD (`simd`), stored with `v128.store`; the scalar loop of `emit` finishes the remainder.
//! A reducing kernel keeps one accumulator vector per output vector and runs the reduction in
//! order r = 0, 1, … for every lane, as the interpreter does, so results are bit-identical.
//! Float32 sums and products accumulate in f64x2 pairs and round once, as the interpreter does
//! (strided float32 sums of products, matrix products among them, in f32x4: `order::wide`).

use walrus::ir::{StoreKind, UnaryOp as U};
use walrus::{LocalId, ValType};

use std::collections::HashSet;

use super::dsl::{i32c, Var, E, S};
use super::simd::{is32, Simd, LANES};
use super::simd_ops::{splat_const, vector_step, HIGH_HALF, LOW_HALVES};
use super::Cx;
use crate::core::DType;
use crate::kernel::order::BLOCK_LANES;
use crate::kernel::{
    order, reduce_identity, AluExp, AluKind, BinaryOp, Kernel, ReduceOp, Reduction,
};
use crate::util::Result;

/// The lowered block: vectors per block, per-lane index setup, statements and values.
struct Lowered {
    u: usize,
    lane_sets: Vec<S>,
    stmts: Vec<S>,
    values: Vec<E>,
}

/// Tries the block widths; `None` when SIMD would gain nothing.
fn pick(cx: &mut Cx, kernel: &Kernel) -> Result<Option<Lowered>> {
    // Blocks of 4 are tried too where they can do better: an index division by a row length
    // that is a multiple of 4 but not 8 is uniform within a block of 4, not of 8.
    let tries: &[usize] = if kernel.reduction.is_some() {
        &[4, 1]
    } else if divides_by_odd_fours(&kernel.exp) {
        &[2, 1]
    } else {
        &[2]
    };
    let mut best: Option<(usize, Lowered)> = None;
    for &u in tries {
        let mut s = Simd::new(cx, u, false);
        let values = s.lower_vecs(&kernel.exp)?;
        if s.root_fallback {
            return Ok(None);
        }
        let fallbacks = s.fallbacks;
        let lowered = Lowered {
            u,
            lane_sets: s.lane_sets,
            stmts: s.stmts,
            values,
        };
        if best.as_ref().is_none_or(|(f, _)| fallbacks < *f) {
            best = Some((fallbacks, lowered));
        }
        if fallbacks == 0 {
            break;
        }
    }
    Ok(best.map(|(_, l)| l))
}

/// Whether `e` divides (or takes a remainder) by a constant that is 4 times an odd number.
fn divides_by_odd_fours(e: &AluExp) -> bool {
    let odd_fours = |d: &AluExp| d.const_value().is_some_and(|k| k.rem_euclid(8.0) == 4.0);
    let here =
        matches!(&e.kind, AluKind::Binary(BinaryOp::Div | BinaryOp::Rem, _, d) if odd_fours(d));
    here || e.children().into_iter().any(divides_by_odd_fours)
}

/// Whether `kernel` reduces in the lane-blocked order with at least one whole block (`rblock`);
/// a shorter one is the sequential order (`kernel::order`), vectorised over outputs here.
pub fn lane_blocked(kernel: &Kernel) -> bool {
    order::blocked(kernel) && kernel.reduction.is_some_and(|r| r.size >= BLOCK_LANES)
}

/// The vector loop over `index` (starting where it is, stopping with fewer than one block of
/// elements left), or `None` for kernels that stay scalar.
pub fn vector_loop(cx: &mut Cx, kernel: &Kernel, n: Var, out: Var) -> Result<Option<S>> {
    let dtype = kernel.output_dtype();
    // A blocked reduction vectorises over r instead (`rblock`), in its own order.
    if !is32(dtype) || lane_blocked(kernel) {
        return Ok(None);
    }
    let Some(lowered) = pick(cx, kernel)? else {
        return Ok(None);
    };
    let width = (lowered.u * LANES) as i32;
    let index = cx.index;
    let mut block = lowered.lane_sets;
    let results = match kernel.reduction {
        None => {
            block.extend(lowered.stmts);
            lowered.values
        }
        Some(red) => reduce(cx, kernel, red, lowered.stmts, lowered.values, &mut block),
    };
    let at = cx.tmp(ValType::I32);
    block.push(at.set(out.get() + index.get() * i32c(dtype.byte_size() as i32)));
    for (k, v) in results.into_iter().enumerate() {
        let addr = at.get() + i32c(16 * k as i32);
        block.push(S::Store(cx.memory, StoreKind::V128, addr, v));
    }
    block.push(index.set(index.get() + i32c(width)));
    Ok(Some(S::While(
        (index.get() + i32c(width)).leu(n.get()),
        block,
    )))
}

/// Whether `e` reads any of `locals` (looking inside nested statements too).
fn reads(e: &E, locals: &HashSet<LocalId>) -> bool {
    let any = |es: &[&E]| es.iter().any(|x| reads(x, locals));
    match e {
        E::F32(_) | E::F64(_) | E::I32(_) | E::I64(_) | E::V128(_) | E::MemoryPages(_) => false,
        E::Get(v) => locals.contains(&v.id),
        E::Bin(_, _, a, b) | E::Shuffle(_, a, b) => any(&[a, b]),
        E::Un(_, _, a) | E::Load(_, _, _, a) => reads(a, locals),
        E::Call(_, _, args) => args.iter().any(|a| reads(a, locals)),
        E::If(c, a, b) | E::Select(c, a, b) | E::Bitselect(a, b, c) => any(&[c, a, b]),
        E::Seq(stmts, v) => stmts.iter().any(|s| stmt_reads(s, locals)) || reads(v, locals),
    }
}

fn stmt_reads(s: &S, locals: &HashSet<LocalId>) -> bool {
    match s {
        S::Set(_, e) | S::Return(e) => reads(e, locals),
        S::If(c, a, b) => reads(c, locals) || a.iter().chain(b).any(|s| stmt_reads(s, locals)),
        S::While(c, body) => reads(c, locals) || body.iter().any(|s| stmt_reads(s, locals)),
        S::Store(_, _, a, v) => reads(a, locals) || reads(v, locals),
        S::Block(b) => b.iter().any(|s| stmt_reads(s, locals)),
        S::Call(_, args) => args.iter().any(|a| reads(a, locals)),
        S::Copy(_, d, s, n) => [d, s, n].iter().any(|e| reads(e, locals)),
    }
}

/// The locals that `s` sets (looking inside nested statements too).
fn sets(s: &S, out: &mut HashSet<LocalId>) {
    match s {
        S::Set(v, _) => {
            out.insert(v.id);
        }
        S::If(_, a, b) => a.iter().chain(b).for_each(|s| sets(s, out)),
        S::While(_, body) | S::Block(body) => body.iter().for_each(|s| sets(s, out)),
        S::Store(..) | S::Return(_) | S::Call(..) | S::Copy(..) => {}
    }
}

/// Splits the statements of one reduction step into those that do not depend on `r` (moved
/// before the reduction loop: the lowering binds each value to a fresh local, set once, and
/// nothing in the loop writes memory) and those that do. A local set by a compound statement
/// (kept in the loop) or set twice is variant.
pub(super) fn hoist(stmts: Vec<S>, r: Var) -> (Vec<S>, Vec<S>) {
    let mut variant: HashSet<LocalId> = HashSet::from([r.id]);
    let mut compound = HashSet::new();
    let mut seen = HashSet::new();
    for s in &stmts {
        match s {
            S::Set(v, _) if seen.insert(v.id) => {}
            S::Set(v, _) => {
                compound.insert(v.id);
            }
            other => sets(other, &mut compound),
        }
    }
    variant.extend(compound);
    let (mut before, mut inside) = (vec![], vec![]);
    for s in stmts {
        match s {
            S::Set(v, e) if !variant.contains(&v.id) && !reads(&e, &variant) => {
                before.push(S::Set(v, e))
            }
            S::Set(v, e) => {
                variant.insert(v.id);
                inside.push(S::Set(v, e));
            }
            other => inside.push(other),
        }
    }
    (before, inside)
}

/// The reduction loop around the lowered statements; pushes accumulator setup and the loop
/// onto `block` and returns the result vectors.
fn reduce(
    cx: &mut Cx,
    kernel: &Kernel,
    red: Reduction,
    stmts: Vec<S>,
    values: Vec<E>,
    block: &mut Vec<S>,
) -> Vec<E> {
    let (invariant, mut body) = hoist(stmts, cx.reduce_index);
    block.extend(invariant);
    let wide = order::wide(kernel);
    let dtype = kernel.output_dtype();
    let identity = reduce_identity(red.op, dtype);
    let r = cx.reduce_index;
    let results = if wide {
        let code = if red.op == ReduceOp::Sum {
            walrus::ir::BinaryOp::F64x2Add
        } else {
            walrus::ir::BinaryOp::F64x2Mul
        };
        let mut results = vec![];
        for v in values {
            let (lo, hi) = (cx.tmp(ValType::V128), cx.tmp(ValType::V128));
            block.push(lo.set(splat_const(DType::Float64, identity)));
            block.push(hi.set(splat_const(DType::Float64, identity)));
            let high = E::Shuffle(HIGH_HALF, Box::new(v.clone()), Box::new(v.clone()));
            let promote = U::F64x2PromoteLowF32x4;
            body.push(lo.set(lo.get().v2(code, v.v1(promote))));
            body.push(hi.set(hi.get().v2(code, high.v1(promote))));
            let demote = U::F32x4DemoteF64x2Zero;
            results.push(E::Shuffle(
                LOW_HALVES,
                Box::new(lo.get().v1(demote)),
                Box::new(hi.get().v1(demote)),
            ));
        }
        results
    } else {
        let mut results = vec![];
        for v in values {
            let acc = cx.tmp(ValType::V128);
            block.push(acc.set(splat_const(dtype, identity)));
            body.push(acc.set(vector_step(red.op, dtype, acc.get(), v)));
            results.push(acc.get());
        }
        results
    };
    body.push(r.set(r.get() + i32c(1)));
    block.push(r.set(i32c(0)));
    block.push(S::While(r.get().ltu(i32c(red.size as u32 as i32)), body));
    results
}
