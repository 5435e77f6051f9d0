//! Reductions in the lane-blocked order of `kernel::order`, vectorised over the reduction
//! index: each block of `BLOCK_LANES` consecutive r is one SIMD step (`simd` lowering with
//! lanes over r) into per-lane accumulators; the lanes are then combined pairwise and the tail
//! is folded in sequentially — exactly the order the `cpu` interpreter uses for such kernels.
//! Float32 sums and products accumulate in f64x2 pairs (two lanes each) and round once.

use walrus::ir::{BinaryOp as B, UnaryOp as U};
use walrus::ValType;

use super::dsl::{i32c, seq, E, S};
use super::simd::{Simd, LANES};
use super::simd_ops::{splat_const, vector_step, HIGH_HALF};
use super::{ops, Cx};
use crate::core::DType;
use crate::kernel::order::BLOCK_LANES;
use crate::kernel::{reduce_identity, Kernel, ReduceOp, Reduction};
use crate::util::Result;

/// `out[i]` of a blocked reduction; `value` is the scalar lowering of the expression (at the
/// current reduction index), used for the tail.
pub fn reduce(cx: &mut Cx, kernel: &Kernel, red: Reduction, value: E) -> Result<E> {
    let dtype = kernel.output_dtype();
    let wide = dtype == DType::Float32 && matches!(red.op, ReduceOp::Sum | ReduceOp::Prod);
    let mut s = Simd::new(cx, BLOCK_LANES / LANES, true);
    let values = s.lower_vecs(&kernel.exp)?;
    let mut body = std::mem::take(&mut s.lane_sets);
    body.append(&mut s.stmts);
    let identity = reduce_identity(red.op, dtype);
    let r = cx.reduce_index;
    let mut stmts = vec![];
    // Accumulator vectors in lane order, and the lanes each holds.
    let (accs, per) = if wide {
        let code = if red.op == ReduceOp::Sum {
            B::F64x2Add
        } else {
            B::F64x2Mul
        };
        let mut accs = vec![];
        for v in values {
            let (lo, hi) = (cx.tmp(ValType::V128), cx.tmp(ValType::V128));
            let high = E::Shuffle(HIGH_HALF, Box::new(v.clone()), Box::new(v.clone()));
            let promote = U::F64x2PromoteLowF32x4;
            body.push(lo.set(lo.get().v2(code, v.v1(promote))));
            body.push(hi.set(hi.get().v2(code, high.v1(promote))));
            accs.extend([lo, hi]);
        }
        (accs, 2)
    } else {
        let mut accs = vec![];
        for v in values {
            let acc = cx.tmp(ValType::V128);
            body.push(acc.set(vector_step(red.op, dtype, acc.get(), v)));
            accs.push(acc);
        }
        (accs, LANES)
    };
    let acc_dtype = if wide { DType::Float64 } else { dtype };
    for a in &accs {
        stmts.push(a.set(splat_const(acc_dtype, identity)));
    }
    body.push(r.set(r.get() + i32c(BLOCK_LANES as i32)));
    stmts.push(r.set(i32c(0)));
    stmts.push(S::While(
        (r.get() + i32c(BLOCK_LANES as i32)).leu(i32c(red.size as u32 as i32)),
        body,
    ));
    // Pairwise over whole vectors, then within the last one.
    let step = |a: E, b: E| -> E {
        if wide {
            let code = if red.op == ReduceOp::Sum {
                B::F64x2Add
            } else {
                B::F64x2Mul
            };
            a.v2(code, b)
        } else {
            vector_step(red.op, dtype, a, b)
        }
    };
    let mut len = accs.len();
    while len > 1 {
        len /= 2;
        for k in 0..len {
            let v = step(accs[k].get(), accs[k + len].get());
            stmts.push(accs[k].set(v));
        }
    }
    let v0 = accs[0];
    if per == LANES {
        let high = E::Shuffle(HIGH_HALF, Box::new(v0.get()), Box::new(v0.get()));
        let v = step(v0.get(), high);
        stmts.push(v0.set(v));
    }
    // Non-wide blocked reductions are integer or bool: i32 lanes.
    let total = cx.tmp(if wide { ValType::F64 } else { ValType::I32 });
    let lane = |idx: u8| {
        if wide {
            v0.get().unop(U::F64x2ExtractLane { idx }, ValType::F64)
        } else {
            v0.get().unop(U::I32x4ExtractLane { idx }, ValType::I32)
        }
    };
    let combined = ops::reduce_step(cx, red.op, acc_dtype, lane(0), lane(1));
    stmts.push(total.set(combined));
    // The tail, sequentially.
    let x = if wide { value.widen() } else { value };
    let next = ops::reduce_step(cx, red.op, acc_dtype, total.get(), x);
    stmts.push(S::While(
        r.get().ltu(i32c(red.size as u32 as i32)),
        vec![total.set(next), r.set(r.get() + i32c(1))],
    ));
    let result = if wide {
        total.get().demote()
    } else {
        total.get()
    };
    Ok(seq(stmts, result))
}
