//! Evaluation of a kernel, one output element (and reduction step) at a time, then its
//! epilogue over the results.

use super::scalar::Scalar;
use crate::kernel::{order, reduce_identity, AluExp, AluKind, Kernel};
use crate::util::Result;

/// Runs `kernel` over input buffers given as bytes; returns the output bytes.
pub fn run_kernel(kernel: &Kernel, inputs: &[&[u8]]) -> Result<Vec<u8>> {
    let dtype = kernel.output_dtype();
    let mut out = Vec::with_capacity(kernel.size * dtype.byte_size());
    for i in 0..kernel.size {
        let value = match kernel.reduction {
            None => eval(&kernel.exp, i, 0, inputs)?,
            Some(red) => {
                // Float sums and products accumulate in f64 and round once (the most accurate
                // oracle), except strided float32 sums of products (`order::wide`); other
                // combinations are exact in the dtype.
                let wide = order::wide(kernel);
                let acc_dtype = if wide {
                    crate::core::DType::Float64
                } else {
                    dtype
                };
                let identity = Scalar::from_f64(acc_dtype, reduce_identity(red.op, dtype))?;
                let value = |r: usize| -> Result<Scalar> {
                    let x = eval(&kernel.exp, i, r, inputs)?;
                    if wide {
                        x.cast(acc_dtype)
                    } else {
                        Ok(x)
                    }
                };
                let step = |acc, x| Scalar::reduce(red.op, acc, x);
                // The kernel's combination order (`kernel::order`): lane-blocked or sequential.
                let (mut acc, tail) = if order::blocked(kernel) {
                    let main = red.size - red.size % order::BLOCK_LANES;
                    let mut lanes = [identity; order::BLOCK_LANES];
                    for r in 0..main {
                        let l = r % order::BLOCK_LANES;
                        lanes[l] = step(lanes[l], value(r)?)?;
                    }
                    (order::combine_lanes(&mut lanes, step)?, main)
                } else {
                    (identity, 0)
                };
                for r in tail..red.size {
                    acc = step(acc, value(r)?)?;
                }
                acc.cast(dtype)?
            }
        };
        value.write(&mut out);
    }
    // The epilogue maps each result; its input 0 is the results so far.
    if let Some(ep) = &kernel.epilogue {
        let mut mapped = Vec::with_capacity(out.len());
        for i in 0..kernel.size {
            eval(ep, i, 0, &[&out])?.write(&mut mapped);
        }
        out = mapped;
    }
    Ok(out)
}

fn eval(exp: &AluExp, i: usize, r: usize, inputs: &[&[u8]]) -> Result<Scalar> {
    let ev = |e: &AluExp| eval(e, i, r, inputs);
    match &exp.kind {
        AluKind::Const(bits) => Scalar::from_f64(exp.dtype, f64::from_bits(*bits)),
        AluKind::Index => Ok(Scalar::I32(i as i32)),
        AluKind::ReduceIndex => Ok(Scalar::I32(r as i32)),
        AluKind::Load { input, index } => {
            Scalar::read(exp.dtype, inputs[*input], ev(index)?.as_index()?)
        }
        AluKind::Unary(op, a) => Scalar::unary(*op, ev(a)?),
        AluKind::Binary(op, a, b) => Scalar::binary(*op, ev(a)?, ev(b)?),
        AluKind::Compare(op, a, b) => Scalar::compare(*op, ev(a)?, ev(b)?),
        AluKind::Where(c, a, b) => {
            if ev(c)?.as_bool()? {
                ev(a)
            } else {
                ev(b)
            }
        }
        AluKind::Cast(a) => ev(a)?.cast(exp.dtype),
        AluKind::Bitcast(a) => ev(a)?.bitcast(exp.dtype),
        AluKind::Threefry(mode, ops) => {
            let [k0, k1, c0, c1] = ops.as_ref();
            super::threefry::eval(*mode, [ev(k0)?, ev(k1)?, ev(c0)?, ev(c1)?])
        }
    }
}
