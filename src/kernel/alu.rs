//! Typed expression trees over loads, constants and the output index.

use crate::core::DType;

/// Binary operators of the IR. Integer `Div` truncates toward zero; `Rem` has the sign of the
/// dividend (C semantics), which is what index arithmetic needs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum BinaryOp {
    Add,
    Sub,
    Mul,
    Div,
    Rem,
}

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum AluKind {
    /// A constant; the payload is the value's f64 bit pattern (exact for every dtype we have).
    Const(u64),
    /// The index of the output element being computed (int32).
    Index,
    /// Element `index` of input buffer `input`.
    Load {
        input: usize,
        index: Box<AluExp>,
    },
    Binary(BinaryOp, Box<AluExp>, Box<AluExp>),
    /// Conversion of the operand to this expression's dtype (NumPy `astype` semantics).
    Cast(Box<AluExp>),
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

    pub fn load(dtype: DType, input: usize, index: AluExp) -> AluExp {
        AluExp {
            dtype,
            kind: AluKind::Load {
                input,
                index: Box::new(index),
            },
        }
    }

    /// `a op b`; both sides must have the same dtype (checked by `verify`).
    pub fn binary(op: BinaryOp, a: AluExp, b: AluExp) -> AluExp {
        AluExp {
            dtype: a.dtype,
            kind: AluKind::Binary(op, Box::new(a), Box::new(b)),
        }
    }

    /// `a` converted to `dtype`; no node when it already has that dtype.
    pub fn cast(a: AluExp, dtype: crate::core::DType) -> AluExp {
        if a.dtype == dtype {
            a
        } else {
            AluExp {
                dtype,
                kind: AluKind::Cast(Box::new(a)),
            }
        }
    }

    /// Integer index arithmetic that folds the trivial cases (`x*1`, `x+0`, `x/1`).
    pub fn index_mul(a: AluExp, k: usize) -> AluExp {
        match k {
            0 => AluExp::constant(DType::Int32, 0.0),
            1 => a,
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
        AluExp::binary(BinaryOp::Rem, a, AluExp::constant(DType::Int32, k as f64))
    }

    pub fn index_add(a: AluExp, b: AluExp) -> AluExp {
        match (&a.kind, &b.kind) {
            (AluKind::Const(0), _) => b,
            (_, AluKind::Const(0)) => a,
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
}
