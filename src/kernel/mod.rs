//! L2: the Kernel IR that every backend compiles. A [`Kernel`] computes one output element per
//! index from loads of its inputs; the expression is an [`AluExp`] tree. Backends share this IR:
//! the `cpu` interpreter defines its meaning, the wasm and WGSL emitters translate it.

pub mod alu;
pub mod verify;

pub use alu::{AluExp, AluKind, BinaryOp};

use crate::core::DType;

/// One elementwise kernel: `out[i] = exp(i)` for `i` in `0..size`.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Kernel {
    /// The dtype of each input buffer, by position.
    pub inputs: Vec<DType>,
    /// The number of output elements.
    pub size: usize,
    /// The expression computed for each output element; its dtype is the output dtype.
    pub exp: AluExp,
}

impl Kernel {
    pub fn output_dtype(&self) -> DType {
        self.exp.dtype
    }
}
