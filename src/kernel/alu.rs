//! Typed expression trees: the body of every kernel. Leaves are constants, the output index,
//! the reduction index and loads; inner nodes are ALU operations. The `cpu` interpreter defines
//! the meaning of each operation; the wasm and WGSL emitters must agree with it bit for bit for
//! exact operations (arithmetic, comparisons, casts) and within a few ulp for transcendentals.

pub use crate::core::ops::{BinaryOp, CompareOp, ReduceOp, ThreefryMode, UnaryOp};
use crate::core::DType;

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum AluKind {
    /// A constant; the payload is the value's f64 bit pattern (exact for every dtype we have).
    Const(u64),
    /// The index of the output element being computed (int32).
    Index,
    /// The position along the reduction axis, `0..reduction.size` (int32); only inside a
    /// reducing kernel.
    ReduceIndex,
    /// Element `index` of input buffer `input` (int32 index, in elements).
    Load {
        input: usize,
        index: Box<AluExp>,
    },
    Unary(UnaryOp, Box<AluExp>),
    Binary(BinaryOp, Box<AluExp>, Box<AluExp>),
    /// Typed bool.
    Compare(CompareOp, Box<AluExp>, Box<AluExp>),
    /// `cond ? a : b`, evaluating only the chosen side (so a guarded load never reads out of
    /// bounds).
    Where(Box<AluExp>, Box<AluExp>, Box<AluExp>),
    /// Conversion to this expression's dtype: float → integer truncates toward zero and
    /// saturates, NaN → 0; anything → bool is `!= 0`; bool → number is 0 or 1.
    Cast(Box<AluExp>),
    /// Reinterprets the 32 bits of the operand as this expression's dtype (same byte size).
    Bitcast(Box<AluExp>),
    /// threefry2x32 of key words `k0, k1` and counter words `c0, c1` (operands in that order,
    /// all uint32; the result is uint32), giving the words its mode names.
    Threefry(ThreefryMode, Box<[AluExp; 4]>),
}

/// An expression with its dtype.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct AluExp {
    pub dtype: DType,
    pub kind: AluKind,
}

impl AluExp {
    pub fn constant(dtype: DType, value: f64) -> AluExp {
        AluExp {
            dtype,
            kind: AluKind::Const(value.to_bits()),
        }
    }

    pub fn index() -> AluExp {
        AluExp {
            dtype: DType::Int32,
            kind: AluKind::Index,
        }
    }

    pub fn reduce_index() -> AluExp {
        AluExp {
            dtype: DType::Int32,
            kind: AluKind::ReduceIndex,
        }
    }

    pub fn load(dtype: DType, input: usize, index: AluExp) -> AluExp {
        AluExp {
            dtype,
            kind: AluKind::Load {
                input,
                index: Box::new(index),
            },
        }
    }

    pub fn unary(op: UnaryOp, a: AluExp) -> AluExp {
        AluExp {
            dtype: a.dtype,
            kind: AluKind::Unary(op, Box::new(a)),
        }
    }

    /// `a op b`; both sides must have the same dtype (checked by `verify`).
    pub fn binary(op: BinaryOp, a: AluExp, b: AluExp) -> AluExp {
        AluExp {
            dtype: a.dtype,
            kind: AluKind::Binary(op, Box::new(a), Box::new(b)),
        }
    }

    pub fn compare(op: CompareOp, a: AluExp, b: AluExp) -> AluExp {
        AluExp {
            dtype: DType::Bool,
            kind: AluKind::Compare(op, Box::new(a), Box::new(b)),
        }
    }

    pub fn where_(cond: AluExp, a: AluExp, b: AluExp) -> AluExp {
        AluExp {
            dtype: a.dtype,
            kind: AluKind::Where(Box::new(cond), Box::new(a), Box::new(b)),
        }
    }

    /// threefry2x32 of `[k0, k1, c0, c1]` (uint32) in `mode`.
    pub fn threefry(mode: ThreefryMode, operands: [AluExp; 4]) -> AluExp {
        AluExp {
            dtype: DType::Uint32,
            kind: AluKind::Threefry(mode, Box::new(operands)),
        }
    }

    /// `a` converted to `dtype`; no node when it already has that dtype.
    pub fn cast(a: AluExp, dtype: DType) -> AluExp {
        if a.dtype == dtype {
            a
        } else {
            AluExp {
                dtype,
                kind: AluKind::Cast(Box::new(a)),
            }
        }
    }

    pub fn bitcast(a: AluExp, dtype: DType) -> AluExp {
        if a.dtype == dtype {
            a
        } else {
            AluExp {
                dtype,
                kind: AluKind::Bitcast(Box::new(a)),
            }
        }
    }

    /// Integer index arithmetic that folds the trivial cases (`x*1`, `x+0`, `x/1`).
    pub fn index_mul(a: AluExp, k: isize) -> AluExp {
        match (k, a.const_value()) {
            (0, _) => AluExp::constant(DType::Int32, 0.0),
            (_, Some(c)) => AluExp::constant(DType::Int32, c * k as f64),
            (1, _) => a,
            _ => AluExp::binary(BinaryOp::Mul, a, AluExp::constant(DType::Int32, k as f64)),
        }
    }

    pub fn index_div(a: AluExp, k: usize) -> AluExp {
        if k == 1 {
            a
        } else {
            AluExp::binary(BinaryOp::Div, a, AluExp::constant(DType::Int32, k as f64))
        }
    }

    pub fn index_rem(a: AluExp, k: usize) -> AluExp {
        if k == 1 {
            AluExp::constant(DType::Int32, 0.0)
        } else {
            AluExp::binary(BinaryOp::Rem, a, AluExp::constant(DType::Int32, k as f64))
        }
    }

    pub fn index_add(a: AluExp, b: AluExp) -> AluExp {
        match (a.const_value(), b.const_value()) {
            (Some(x), Some(y)) => AluExp::constant(DType::Int32, x + y),
            (Some(0.0), _) => b,
            (_, Some(0.0)) => a,
            _ => AluExp::binary(BinaryOp::Add, a, b),
        }
    }

    /// The constant's value, if this is a constant.
    pub fn const_value(&self) -> Option<f64> {
        match self.kind {
            AluKind::Const(bits) => Some(f64::from_bits(bits)),
            _ => None,
        }
    }

    /// A copy of the tree in which every node for which `f` returns a replacement is replaced
    /// (its subtree is not visited); other nodes are rebuilt from rewritten children.
    pub fn rewrite(&self, f: &impl Fn(&AluExp) -> Option<AluExp>) -> AluExp {
        if let Some(replacement) = f(self) {
            return replacement;
        }
        let r = |e: &AluExp| Box::new(e.rewrite(f));
        let kind = match &self.kind {
            AluKind::Const(_) | AluKind::Index | AluKind::ReduceIndex => self.kind.clone(),
            AluKind::Load { input, index } => AluKind::Load {
                input: *input,
                index: r(index),
            },
            AluKind::Unary(op, a) => AluKind::Unary(*op, r(a)),
            AluKind::Binary(op, a, b) => AluKind::Binary(*op, r(a), r(b)),
            AluKind::Compare(op, a, b) => AluKind::Compare(*op, r(a), r(b)),
            AluKind::Where(c, a, b) => AluKind::Where(r(c), r(a), r(b)),
            AluKind::Cast(a) => AluKind::Cast(r(a)),
            AluKind::Bitcast(a) => AluKind::Bitcast(r(a)),
            AluKind::Threefry(mode, ops) => {
                AluKind::Threefry(*mode, Box::new(ops.each_ref().map(|e| e.rewrite(f))))
            }
        };
        AluExp {
            dtype: self.dtype,
            kind,
        }
    }

    /// The direct operands of this node.
    pub fn children(&self) -> Vec<&AluExp> {
        match &self.kind {
            AluKind::Const(_) | AluKind::Index | AluKind::ReduceIndex => vec![],
            AluKind::Load { index, .. } => vec![index],
            AluKind::Unary(_, a) | AluKind::Cast(a) | AluKind::Bitcast(a) => vec![a],
            AluKind::Binary(_, a, b) | AluKind::Compare(_, a, b) => vec![a, b],
            AluKind::Where(c, a, b) => vec![c, a, b],
            AluKind::Threefry(_, ops) => ops.iter().collect(),
        }
    }
}
