//! The index-expression simplifier: rewrites the int32 arithmetic of a kernel (the unravels and
//! ravels of loads through views, the validity masks of pads and concatenates) to a smaller
//! equivalent, with the interpreter's exact int32 meaning (`BinaryOp::int32`: wrapping `+ − ×`,
//! division truncating toward zero, `x / 0 = x % 0 = 0`).
//!
//! Every int32 node gets a range `[lo, hi]` of the values it can take: the output index is in
//! `[0, size − 1]`, the reduction index in `[0, reduction.size − 1]`, loaded values are
//! unknown, and inside the taken side of a `where` the condition's comparisons of a
//! subexpression with a constant narrow that subexpression (a concatenate's `coord < end`, a
//! pad's `lo ≤ coord`). Interval arithmetic that could wrap gives the unknown range.
//!
//! Rules, each applied only where it is exact (those on sums and quotients in `simplify_sum`):
//! - constant folding; `x + 0`, `x · 1`, `x · 0`, `x / 1`, `x % 1`, `x / 0`, `x % 0`;
//! - sums (`+`, `−`, `·` by constants, negation) are canonical: a list of distinct terms with
//!   wrapping coefficients plus a constant, rebuilt with larger coefficients first and the
//!   constant last (exact in any order, since int32 `+ − ×` is arithmetic modulo 2³²);
//!   within a sum `(y/a)·a·c + (y%a)·c → y·c` and, for `y ≥ 0`, `((y/a)%b)·a·c + (y%a)·c →
//!   (y%(a·b))·c`;
//! - for `x ≥ 0` and constants `a, b > 0`: `x / a → q` and `x % a → x − q·a` when every
//!   value of `x` has the same quotient `q` (so `x % a → x` for `x < a`); `(y / a) / b →
//!   y / (a·b)`; `(y % (a·b)) / a → (y / a) % b`; `(y % m) % a → y % a` when `a` divides `m`;
//!   for a sum `x = g·y + r` (`y` the terms whose coefficients `g` divides) with `g` dividing
//!   `a` and `0 ≤ r < g`: `x / a → y / (a/g)`, `x % a → (y % (a/g))·g + r` (the latter only
//!   when smaller); for `g = a` and `r ≥ 0` only: `x / a → y + r / a`, `x % a → r % a`;
//! - int32 comparisons, `min` and `max` decided by the ranges; `x / a` against a constant as
//!   `x` against a multiple of `a` (for `x ≥ 0`); `and`/`or`/`not` of constants;
//!   a `where` with a constant condition or equal sides keeps one side.
//!
//! A rewrite never changes the value of a node wherever the node is evaluated (a `where`'s
//! untaken side may change, as it is never evaluated). When no rule is known to be exact, the
//! expression stays as it is. Float arithmetic is never touched.

use super::alu::{AluExp, AluKind, BinaryOp, CompareOp, UnaryOp};
use super::simplify_sum::by_const;
use super::Kernel;
use crate::core::DType;

/// The values an int32 node can take, inclusive.
pub type Range = (i64, i64);

pub(super) const FULL: Range = (i32::MIN as i64, i32::MAX as i64);

/// Rule applications per expression before the simplifier stops rewriting (a guard: every
/// rule makes the expression smaller or more canonical).
const FUEL: usize = 200_000;

/// `kernel` with its expression and epilogue simplified.
pub fn kernel(kernel: &Kernel) -> Kernel {
    let index = upto(kernel.size);
    let reduce = kernel.reduction.map(|r| upto(r.size));
    Kernel {
        exp: simplify(&kernel.exp, index, reduce),
        epilogue: kernel.epilogue.as_ref().map(|e| simplify(e, index, None)),
        ..kernel.clone()
    }
}

/// `[0, n − 1]` (`[0, 0]` for an empty range: the expression is never evaluated there).
pub fn upto(n: usize) -> Range {
    (0, (n.max(1) - 1).min(i32::MAX as usize) as i64)
}

/// `exp` simplified, the output index ranging over `index` and the reduction index over
/// `reduce` (unknown when `None`).
pub fn simplify(exp: &AluExp, index: Range, reduce: Option<Range>) -> AluExp {
    let mut s = Simplifier {
        index,
        reduce: reduce.unwrap_or(FULL),
        facts: Vec::new(),
        fuel: FUEL,
    };
    // One post-order pass reaches the fixed point: each rewritten node's new parts are
    // simplified as they are built (`tests/integration/simplify.rs` checks idempotence).
    s.walk(exp)
}

/// The range of the int32 expression `exp` (as [`simplify`] sees it) over the output index
/// range `index` and reduction index range `reduce`.
pub(super) fn range_of(exp: &AluExp, index: Range, reduce: Option<Range>) -> Range {
    Simplifier {
        index,
        reduce: reduce.unwrap_or(FULL),
        facts: Vec::new(),
        fuel: FUEL,
    }
    .range(exp)
}

pub(super) struct Simplifier {
    index: Range,
    reduce: Range,
    /// Ranges known to hold for these subexpressions here (inside `where` sides).
    facts: Vec<(AluExp, Range)>,
    fuel: usize,
}

pub(super) fn int(v: i64) -> AluExp {
    AluExp::constant(DType::Int32, v as i32 as f64)
}

fn boolean(v: bool) -> AluExp {
    AluExp::constant(DType::Bool, if v { 1.0 } else { 0.0 })
}

/// The value of an int32 constant.
pub(super) fn as_int(e: &AluExp) -> Option<i64> {
    match e.dtype {
        DType::Int32 => e.const_value().map(|v| v as i32 as i64),
        _ => None,
    }
}

fn as_bool(e: &AluExp) -> Option<bool> {
    match e.dtype {
        DType::Bool => e.const_value().map(|v| v != 0.0),
        _ => None,
    }
}

pub(super) fn fits(v: i64) -> bool {
    v >= FULL.0 && v <= FULL.1
}

/// A range from i64 bounds, or the unknown range when it leaves int32 (the node may wrap).
fn checked(lo: i64, hi: i64) -> Range {
    if fits(lo) && fits(hi) {
        (lo, hi)
    } else {
        FULL
    }
}

impl Simplifier {
    /// The rewritten tree (post-order: children first, then the node's rules).
    fn walk(&mut self, e: &AluExp) -> AluExp {
        let kind = match &e.kind {
            AluKind::Const(_) | AluKind::Index | AluKind::ReduceIndex => return e.clone(),
            AluKind::Load { input, index } => AluKind::Load {
                input: *input,
                index: Box::new(self.walk(index)),
            },
            AluKind::Where(c, a, b) => {
                let c = self.walk(c);
                match as_bool(&c) {
                    Some(true) => return self.walk(a),
                    Some(false) => return self.walk(b),
                    None => {}
                }
                let depth = self.facts.len();
                facts(&c, true, &mut self.facts);
                let a = self.walk(a);
                self.facts.truncate(depth);
                facts(&c, false, &mut self.facts);
                let b = self.walk(b);
                self.facts.truncate(depth);
                AluKind::Where(Box::new(c), Box::new(a), Box::new(b))
            }
            AluKind::Unary(op, a) => AluKind::Unary(*op, Box::new(self.walk(a))),
            AluKind::Binary(op, a, b) => {
                AluKind::Binary(*op, Box::new(self.walk(a)), Box::new(self.walk(b)))
            }
            AluKind::Compare(op, a, b) => {
                AluKind::Compare(*op, Box::new(self.walk(a)), Box::new(self.walk(b)))
            }
            AluKind::Cast(a) => AluKind::Cast(Box::new(self.walk(a))),
            AluKind::Bitcast(a) => AluKind::Bitcast(Box::new(self.walk(a))),
            AluKind::Threefry(mode, ops) => {
                AluKind::Threefry(*mode, Box::new(ops.each_ref().map(|e| self.walk(e))))
            }
        };
        self.node(AluExp {
            dtype: e.dtype,
            kind,
        })
    }

    /// The range of an int32 expression ([0, 1] for bool, unknown for other dtypes).
    pub(super) fn range(&self, e: &AluExp) -> Range {
        if e.dtype == DType::Bool {
            return (0, 1);
        }
        if e.dtype != DType::Int32 {
            return FULL;
        }
        let mut r = match &e.kind {
            AluKind::Const(_) => {
                let v = as_int(e).unwrap_or(0);
                (v, v)
            }
            AluKind::Index => self.index,
            AluKind::ReduceIndex => self.reduce,
            AluKind::Binary(op, a, b) => self.binary_range(*op, a, b),
            AluKind::Unary(UnaryOp::Neg, a) => {
                let (lo, hi) = self.range(a);
                checked(-hi, -lo)
            }
            AluKind::Where(_, a, b) => {
                let (x, y) = (self.range(a), self.range(b));
                (x.0.min(y.0), x.1.max(y.1))
            }
            AluKind::Cast(a) if a.dtype == DType::Bool => (0, 1),
            _ => FULL,
        };
        for (f, fr) in &self.facts {
            if f == e {
                let narrowed = (r.0.max(fr.0), r.1.min(fr.1));
                if narrowed.0 <= narrowed.1 {
                    r = narrowed;
                }
            }
        }
        r
    }

    fn binary_range(&self, op: BinaryOp, a: &AluExp, b: &AluExp) -> Range {
        let (x, y) = (self.range(a), self.range(b));
        match op {
            BinaryOp::Add => checked(x.0 + y.0, x.1 + y.1),
            BinaryOp::Sub => checked(x.0 - y.1, x.1 - y.0),
            BinaryOp::Mul => {
                let p = [x.0 * y.0, x.0 * y.1, x.1 * y.0, x.1 * y.1];
                checked(*p.iter().min().unwrap_or(&0), *p.iter().max().unwrap_or(&0))
            }
            BinaryOp::Div if y.0 > 0 => {
                let q = [x.0 / y.0, x.0 / y.1, x.1 / y.0, x.1 / y.1];
                (*q.iter().min().unwrap_or(&0), *q.iter().max().unwrap_or(&0))
            }
            BinaryOp::Rem if y.0 > 0 => {
                let m = y.1 - 1;
                let lo = if x.0 >= 0 { 0 } else { x.0.max(-m) };
                let hi = if x.1 <= 0 { 0 } else { x.1.min(m) };
                if x.0 >= 0 && x.1 < y.0 {
                    x
                } else {
                    (lo, hi)
                }
            }
            BinaryOp::Min => (x.0.min(y.0), x.1.min(y.1)),
            BinaryOp::Max => (x.0.max(y.0), x.1.max(y.1)),
            _ => FULL,
        }
    }

    /// One node whose children are already simplified, with the node's rules applied.
    pub(super) fn node(&mut self, e: AluExp) -> AluExp {
        if self.fuel == 0 {
            return e;
        }
        self.fuel -= 1;
        let d = e.dtype;
        match &e.kind {
            AluKind::Binary(op, a, b) if d == DType::Int32 => {
                if let (Some(x), Some(y)) = (as_int(a), as_int(b)) {
                    return int(op.int32(x as i32, y as i32) as i64);
                }
                match op {
                    BinaryOp::Add | BinaryOp::Sub | BinaryOp::Mul => self.sum(&e),
                    BinaryOp::Div | BinaryOp::Rem => match as_int(b) {
                        Some(c) => self.divmod(*op, a, c).unwrap_or(e),
                        None => e,
                    },
                    BinaryOp::Min | BinaryOp::Max => {
                        let (x, y) = (self.range(a), self.range(b));
                        let min = *op == BinaryOp::Min;
                        if x.1 <= y.0 {
                            (if min { &**a } else { &**b }).clone()
                        } else if y.1 <= x.0 {
                            (if min { &**b } else { &**a }).clone()
                        } else {
                            e
                        }
                    }
                    _ => e,
                }
            }
            AluKind::Unary(UnaryOp::Neg, _) if d == DType::Int32 => self.sum(&e),
            AluKind::Binary(op, a, b) if d == DType::Bool => {
                let (x, y) = (as_bool(a), as_bool(b));
                match (op, x, y) {
                    (_, Some(x), Some(y)) => boolean(match op {
                        BinaryOp::And => x & y,
                        BinaryOp::Or => x | y,
                        BinaryOp::Xor => x ^ y,
                        _ => return e,
                    }),
                    (BinaryOp::And, Some(false), _) | (BinaryOp::And, _, Some(false)) => {
                        boolean(false)
                    }
                    (BinaryOp::Or, Some(true), _) | (BinaryOp::Or, _, Some(true)) => boolean(true),
                    (BinaryOp::And | BinaryOp::Or, Some(_), None) => (**b).clone(),
                    (BinaryOp::And | BinaryOp::Or, None, Some(_)) => (**a).clone(),
                    (BinaryOp::And | BinaryOp::Or, None, None) if a == b => (**a).clone(),
                    _ => e,
                }
            }
            AluKind::Unary(UnaryOp::Not, a) if d == DType::Bool => match as_bool(a) {
                Some(x) => boolean(!x),
                None => e,
            },
            AluKind::Compare(op, a, b) if a.dtype == DType::Int32 => {
                self.compare(*op, a, b, e.clone())
            }
            AluKind::Where(c, a, b) => match as_bool(c) {
                Some(true) => (**a).clone(),
                Some(false) => (**b).clone(),
                None if a == b => (**a).clone(),
                None => e,
            },
            _ => e,
        }
    }

    /// An int32 comparison decided by the operands' ranges, else with a constant moved from
    /// a sum to the constant side (so the sum's terms match the facts of `where` sides).
    fn compare(&mut self, op: CompareOp, a: &AluExp, b: &AluExp, e: AluExp) -> AluExp {
        let (x, y) = (self.range(a), self.range(b));
        let decided = match op {
            CompareOp::Lt if x.1 < y.0 => Some(true),
            CompareOp::Lt if x.0 >= y.1 => Some(false),
            CompareOp::Le if x.1 <= y.0 => Some(true),
            CompareOp::Le if x.0 > y.1 => Some(false),
            CompareOp::Eq | CompareOp::Ne if x.1 < y.0 || y.1 < x.0 => Some(op == CompareOp::Ne),
            CompareOp::Eq | CompareOp::Ne if x.0 == x.1 && y.0 == y.1 && x.0 == y.0 => {
                Some(op == CompareOp::Eq)
            }
            _ if a == b => Some(matches!(op, CompareOp::Le | CompareOp::Eq)),
            _ => None,
        };
        if let Some(v) = decided {
            return boolean(v);
        }
        // `x / c` against `k`, for x ≥ 0: `x/c < k ⟺ x < k·c`, `x/c ≤ k ⟺ x < (k+1)·c`,
        // `k < x/c ⟺ (k+1)·c ≤ x`, `k ≤ x/c ⟺ k·c ≤ x`.
        let divided = match (as_int(a), as_int(b)) {
            (None, Some(k)) => by_const(a, BinaryOp::Div).map(|(x, c)| (x, c, k, false)),
            (Some(k), None) => by_const(b, BinaryOp::Div).map(|(x, c)| (x, c, k, true)),
            _ => None,
        };
        if let Some((x, c, k, flipped)) = divided {
            let bound = match (op, flipped) {
                (CompareOp::Lt, false) | (CompareOp::Le, true) => Some(k * c),
                (CompareOp::Le, false) | (CompareOp::Lt, true) => Some((k + 1) * c),
                _ => None,
            };
            if let Some(bound) = bound.filter(|&b| fits(b) && self.range(x).0 >= 0) {
                let (x, bound) = (x.clone(), int(bound));
                return self.node(if flipped {
                    AluExp::compare(CompareOp::Le, bound, x)
                } else {
                    AluExp::compare(CompareOp::Lt, x, bound)
                });
            }
        }
        // `s + k op c` → `s op c − k` when neither side wraps.
        let moved = match (as_int(a), as_int(b)) {
            (None, Some(c)) => self
                .moved(a, c)
                .map(|(s, c)| AluExp::compare(op, s, int(c))),
            (Some(c), None) => self
                .moved(b, c)
                .map(|(s, c)| AluExp::compare(op, int(c), s)),
            _ => None,
        };
        match moved {
            Some(m) => self.node(m),
            None => e,
        }
    }
}

/// The ranges a `where`'s condition implies on the side where it is `truth`: for each
/// comparison of a subexpression with a constant that must hold.
fn facts(c: &AluExp, truth: bool, out: &mut Vec<(AluExp, Range)>) {
    match &c.kind {
        AluKind::Binary(BinaryOp::And, a, b) if truth && c.dtype == DType::Bool => {
            facts(a, truth, out);
            facts(b, truth, out);
        }
        AluKind::Binary(BinaryOp::Or, a, b) if !truth && c.dtype == DType::Bool => {
            facts(a, truth, out);
            facts(b, truth, out);
        }
        AluKind::Unary(UnaryOp::Not, a) if c.dtype == DType::Bool => facts(a, !truth, out),
        AluKind::Compare(op, a, b) if a.dtype == DType::Int32 => {
            let (x, k, flipped) = match (as_int(a), as_int(b)) {
                (None, Some(k)) => (a, k, false),
                (Some(k), None) => (b, k, true),
                _ => return,
            };
            let (lo, hi) = FULL;
            // `x op k` (or `k op x` when flipped) holding, as a range of x.
            let range = match (op, flipped, truth) {
                (CompareOp::Lt, false, true) | (CompareOp::Le, true, false) => (lo, k - 1),
                (CompareOp::Lt, false, false) | (CompareOp::Le, true, true) => (k, hi),
                (CompareOp::Le, false, true) | (CompareOp::Lt, true, false) => (lo, k),
                (CompareOp::Le, false, false) | (CompareOp::Lt, true, true) => (k + 1, hi),
                (CompareOp::Eq, _, true) | (CompareOp::Ne, _, false) => (k, k),
                _ => return,
            };
            out.push(((**x).clone(), range));
        }
        _ => {}
    }
}
