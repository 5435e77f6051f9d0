//! L2: the Kernel IR that every backend compiles. A [`Kernel`] computes one output element per
//! index from loads of its inputs; the expression is an [`AluExp`] tree. With a [`Reduction`],
//! each output element combines `reduction.size` values of the expression, one per
//! `ReduceIndex`, and an optional epilogue then maps each combined value (`mean` is a sum
//! and a division in one kernel). Backends share this IR: the `cpu` interpreter defines its meaning, the wasm
//! and WGSL emitters translate it.

pub mod alu;
pub mod contract;
pub mod device_program;
pub mod fold;
pub mod index;
pub mod limits;
pub mod matmul;
pub mod order;
pub mod routine;
pub mod row_reads;
pub mod simplify;
mod simplify_sum;
pub mod split;
pub mod verify;
pub mod view_index;

pub use alu::{AluExp, AluKind, BinaryOp, CompareOp, ReduceOp, ThreefryMode, UnaryOp};
pub use limits::DeviceLimits;
pub use routine::{Routine, RoutineKind};

use crate::core::DType;

/// A reduction over an inner loop: `out[i] = op over r in 0..size of exp(i, r)`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Reduction {
    pub op: ReduceOp,
    pub size: usize,
}

/// One kernel: `out[i] = exp(i)` (or the reduction of `exp(i, r)`) for `i` in `0..size`,
/// then `out[i] = epilogue(i)` when there is an epilogue.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Kernel {
    /// The dtype of each input buffer, by position.
    pub inputs: Vec<DType>,
    /// The number of output elements.
    pub size: usize,
    /// The expression computed for each output element (and reduction index); its dtype is the
    /// output dtype.
    pub exp: AluExp,
    pub reduction: Option<Reduction>,
    /// Elementwise operations on the result, in an expression of its own whose only input
    /// (input 0, loaded at `Index`) is the value `exp` or its reduction gave element `i`; its
    /// dtype is that value's (see `verify`). Backends apply it after the reduction.
    pub epilogue: Option<AluExp>,
}

impl Kernel {
    /// An elementwise kernel.
    pub fn elementwise(inputs: Vec<DType>, size: usize, exp: AluExp) -> Kernel {
        Kernel {
            inputs,
            size,
            exp,
            reduction: None,
            epilogue: None,
        }
    }

    /// The epilogue as an elementwise kernel over a buffer of this kernel's results without
    /// it (backends that run it as a second pass).
    pub fn epilogue_kernel(&self) -> Option<Kernel> {
        let ep = self.epilogue.clone()?;
        Some(Kernel::elementwise(vec![self.exp.dtype], self.size, ep))
    }

    /// This kernel without its epilogue.
    pub fn without_epilogue(&self) -> Kernel {
        Kernel {
            epilogue: None,
            ..self.clone()
        }
    }

    pub fn output_dtype(&self) -> DType {
        self.exp.dtype
    }
}

/// The identity element of `op` for `dtype`, as an f64 (exact for every dtype).
pub fn reduce_identity(op: ReduceOp, dtype: DType) -> f64 {
    match (op, dtype) {
        (ReduceOp::Sum, _) => 0.0,
        (ReduceOp::Prod, _) => 1.0,
        (ReduceOp::Max, DType::Bool | DType::Uint32) => 0.0,
        (ReduceOp::Max, DType::Int32) => i32::MIN as f64,
        (ReduceOp::Max, _) => f64::NEG_INFINITY,
        (ReduceOp::Min, DType::Bool) => 1.0,
        (ReduceOp::Min, DType::Uint32) => u32::MAX as f64,
        (ReduceOp::Min, DType::Int32) => i32::MAX as f64,
        (ReduceOp::Min, _) => f64::INFINITY,
    }
}
