//! Evaluation of a kernel, one output element at a time.

use super::scalar::Scalar;
use crate::kernel::{AluExp, AluKind, Kernel};
use crate::util::Result;

/// Runs `kernel` over input buffers given as bytes; returns the output bytes.
pub fn run_kernel(kernel: &Kernel, inputs: &[&[u8]]) -> Result<Vec<u8>> {
    let mut out = Vec::with_capacity(kernel.size * kernel.output_dtype().byte_size());
    for i in 0..kernel.size {
        eval(&kernel.exp, i, inputs)?.write(&mut out);
    }
    Ok(out)
}

fn eval(exp: &AluExp, index: usize, inputs: &[&[u8]]) -> Result<Scalar> {
    match &exp.kind {
        AluKind::Const(bits) => Scalar::from_f64(exp.dtype, f64::from_bits(*bits)),
        AluKind::Index => Ok(Scalar::I32(index as i32)),
        AluKind::Load { input, index: at } => {
            let at = eval(at, index, inputs)?.as_index()?;
            Scalar::read(exp.dtype, inputs[*input], at)
        }
        AluKind::Cast(a) => eval(a, index, inputs)?.cast(exp.dtype),
        AluKind::Binary(op, a, b) => {
            Scalar::binary(*op, eval(a, index, inputs)?, eval(b, index, inputs)?)
        }
    }
}
