//! Index arithmetic affine in the SIMD lane (see `simd`): sums, constant multiples, and
//! divisions and remainders by constants that provably do not cross a boundary inside a block
//! (`i / n` is uniform and `i % n` contiguous when `n` is a multiple of the block width).

use super::dsl::{i32c, E};
use super::ops;
use super::simd::Simd;
use crate::core::DType;
use crate::kernel::{AluExp, AluKind, BinaryOp};

/// The alignment of the constant 0 (a multiple of everything we test against).
pub const ZERO_ALIGN: u64 = 1 << 40;

/// An int32 value affine in the lane: lane `l` holds `base + stride·l`; `base` is a multiple
/// of `align`, and is non-negative when `nonneg`.
#[derive(Clone)]
pub struct Aff {
    pub base: E,
    pub stride: i64,
    pub align: u64,
    pub nonneg: bool,
}

pub fn gcd(a: u64, b: u64) -> u64 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

/// (align, nonneg) of an int32 expression that does not depend on the output index.
pub fn uniform_facts(e: &AluExp) -> (u64, bool) {
    match &e.kind {
        AluKind::Const(bits) => {
            let v = f64::from_bits(*bits);
            let align = if v == 0.0 { ZERO_ALIGN } else { v.abs() as u64 };
            (align.max(1), v >= 0.0)
        }
        AluKind::Index | AluKind::ReduceIndex => (1, true),
        AluKind::Binary(op, a, b) => {
            let ((x, p), (y, q)) = (uniform_facts(a), uniform_facts(b));
            match op {
                BinaryOp::Add => (gcd(x, y), p && q),
                BinaryOp::Mul => (x.saturating_mul(y).min(ZERO_ALIGN), p && q),
                BinaryOp::Div | BinaryOp::Rem => (1, p && q),
                _ => (1, false),
            }
        }
        _ => (1, false),
    }
}

impl Simd<'_> {
    /// Index arithmetic that stays affine in the lane, or `None`.
    pub(super) fn affine(&mut self, op: BinaryOp, p: &Aff, q: &Aff) -> Option<Aff> {
        let konst = |a: &Aff| match (a.stride, &a.base) {
            (0, E::I32(k)) => Some(i64::from(*k)),
            _ => None,
        };
        match op {
            BinaryOp::Add | BinaryOp::Sub => {
                let add = op == BinaryOp::Add;
                let base = if add {
                    p.base.clone() + q.base.clone()
                } else {
                    p.base.clone() - q.base.clone()
                };
                Some(Aff {
                    base: self.bind(base),
                    stride: if add {
                        p.stride + q.stride
                    } else {
                        p.stride - q.stride
                    },
                    align: gcd(p.align, q.align),
                    nonneg: add && p.nonneg && q.nonneg,
                })
            }
            BinaryOp::Mul => {
                let (x, k) = match (konst(p), konst(q)) {
                    (_, Some(k)) => (p, k),
                    (Some(k), _) => (q, k),
                    _ => return None,
                };
                Some(Aff {
                    base: self.bind(x.base.clone() * i32c(k as i32)),
                    stride: x.stride * k,
                    align: x
                        .align
                        .saturating_mul(k.unsigned_abs())
                        .clamp(1, ZERO_ALIGN),
                    nonneg: x.nonneg && k >= 0,
                })
            }
            BinaryOp::Div | BinaryOp::Rem => {
                let k = konst(q)?;
                if k <= 0 || !p.nonneg || p.stride < 0 {
                    return None;
                }
                let (ku, s) = (k as u64, p.stride as u64);
                let within_block = ku % p.align == 0 && s * (self.width() as u64 - 1) < p.align;
                let (stride, align) = if p.stride == 0 {
                    (
                        0,
                        if op == BinaryOp::Rem {
                            gcd(p.align, ku)
                        } else {
                            1
                        },
                    )
                } else if within_block {
                    if op == BinaryOp::Div {
                        (0, 1)
                    } else {
                        (p.stride, p.align)
                    }
                } else if s % ku == 0 {
                    if op == BinaryOp::Div {
                        (p.stride / k, 1)
                    } else {
                        (0, gcd(p.align, ku))
                    }
                } else {
                    return None;
                };
                let base =
                    ops::binary(self.cx, op, DType::Int32, p.base.clone(), i32c(k as i32)).ok()?;
                Some(Aff {
                    base: self.bind(base),
                    stride,
                    align,
                    nonneg: true,
                })
            }
            _ => None,
        }
    }
}
