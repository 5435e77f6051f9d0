//! Which rows of its inputs a kernel reads, per row of its output: the analysis behind
//! row-partitioned dispatches (webgpu's staged programs), where one workgroup computes a band
//! of rows of several dependent kernels and so may only read rows its own band wrote.
//!
//! A kernel's output of `size` elements is seen as `rows` rows of `size / rows` elements (the
//! leading axis; every buffer is dense and row-major), an input likewise. Every load the kernel
//! makes is evaluated for every output element and reduction index, following `where` into the
//! taken side only (a concatenate's guarded loads), with the index arithmetic's exact integer
//! meaning (`cpu` interpreter: int32 wrapping, division truncating, `x / 0 = x % 0 = 0`); a load
//! whose index depends on loaded data (a gather) is unknown. Input `j`'s reads are
//! [`Rows::Range`]`(lo, hi)` when output row `n` only ever reads input rows within
//! `n + lo ..= n + hi` (`lo == hi`: a constant shift). Constant shifts are proved
//! symbolically; other kernels are evaluated element by element up to
//! [`MAX_EVALUATED_TERMS`] element-terms, past which their reads count as [`Rows::Any`] (a
//! planner must then not rely on them: it may start a new dispatch, never read a row no one
//! wrote).

use super::{simplify, AluExp, AluKind, Kernel};
use crate::core::ops::{BinaryOp, CompareOp, UnaryOp};
use crate::core::DType;

/// The most element-terms (output elements times reduction terms) a kernel's reads are
/// evaluated over: beyond, evaluation would cost more than it can save (a program of a few
/// million-element kernels would take seconds to plan).
pub const MAX_EVALUATED_TERMS: usize = 1 << 18;

/// How a kernel reads one input, by rows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Rows {
    /// Never read.
    Unread,
    /// Output row `n` reads input rows `n + lo ..= n + hi` only (any elements within them).
    Range(i64, i64),
    /// A data-dependent or out-of-range index.
    Any,
}

impl Rows {
    fn add(self, d: Option<i64>) -> Rows {
        match (self, d) {
            (Rows::Unread, Some(d)) => Rows::Range(d, d),
            (Rows::Range(a, b), Some(d)) => Rows::Range(a.min(d), b.max(d)),
            _ => Rows::Any,
        }
    }
}

/// The row reads of each input of `kernel`, whose output has `rows` rows; input `j` holds
/// `inputs[j].0` elements in `inputs[j].1` rows.
pub fn row_reads(kernel: &Kernel, rows: usize, inputs: &[(usize, usize)]) -> Vec<Rows> {
    let mut out = vec![Rows::Unread; kernel.inputs.len()];
    let per_row = |size: usize, rows: usize| {
        (rows > 0 && size > 0 && size.is_multiple_of(rows)).then(|| (size / rows) as i64)
    };
    let Some(c_out) = per_row(kernel.size, rows) else {
        return vec![Rows::Any; kernel.inputs.len()];
    };
    let c_in: Vec<Option<i64>> = inputs.iter().map(|&(s, r)| per_row(s, r)).collect();
    let sizes: Vec<usize> = inputs.iter().map(|&(s, _)| s).collect();
    if let Some(shifts) = constant_shifts(kernel, c_out, &c_in, &sizes) {
        return shifts;
    }
    let terms = kernel.reduction.map_or(1, |r| r.size.max(1));
    if kernel.size.saturating_mul(terms) > MAX_EVALUATED_TERMS {
        return vec![Rows::Any; kernel.inputs.len()];
    }
    for e in 0..kernel.size {
        let row = e as i64 / c_out;
        for r in 0..terms {
            let mut load = |input: usize, index: Option<i64>| {
                let Some(slot) = out.get_mut(input) else {
                    return;
                };
                let d = match (index, c_in.get(input).copied().flatten()) {
                    (Some(p), Some(c)) if p >= 0 && p < inputs[input].0 as i64 => Some(p / c - row),
                    _ => None,
                };
                *slot = slot.add(d);
            };
            eval(&kernel.exp, e as i64, r as i64, &mut load);
        }
    }
    out
}

/// The row reads of `kernel` when every load reads its input at a constant row shift, proved
/// symbolically: for each load, `index / c_in − i / c_out` (input row minus output row) must
/// simplify to a constant over every output element `i` and reduction index (the
/// simplifier's rewrites are exact wherever a node is evaluated). Loads are taken whatever
/// `where` guards them, which can only add reads. None when one is not proved constant, may
/// index outside its input, or reads data: the exact evaluation then decides.
fn constant_shifts(
    kernel: &Kernel,
    c_out: i64,
    c_in: &[Option<i64>],
    sizes: &[usize],
) -> Option<Vec<Rows>> {
    let mut loads = Vec::new();
    collect_loads(&kernel.exp, &mut loads)?;
    let index = simplify::upto(kernel.size);
    let reduce = kernel.reduction.map(|r| simplify::upto(r.size));
    let int = |v: i64| AluExp::constant(DType::Int32, v as f64);
    let mut out = vec![Rows::Unread; c_in.len()];
    for (input, at) in loads {
        let c = (*c_in.get(input)?)?;
        // Every index in the input (else the exact evaluation tells reads from guarded ones).
        let (lo, hi) = simplify::range_of(at, index, reduce);
        if lo < 0 || hi >= *sizes.get(input)? as i64 {
            return None;
        }
        let row_in = AluExp::binary(BinaryOp::Div, at.clone(), int(c));
        let row_out = AluExp::binary(BinaryOp::Div, AluExp::index(), int(c_out));
        let d = simplify::simplify(
            &AluExp::binary(BinaryOp::Sub, row_in, row_out),
            index,
            reduce,
        );
        let shift = d.const_value().filter(|v| v.fract() == 0.0)? as i64;
        out[input] = out[input].add(Some(shift));
    }
    Some(out)
}

/// Every load of `exp` (input and index), or None when an index itself loads.
fn collect_loads<'a>(exp: &'a AluExp, out: &mut Vec<(usize, &'a AluExp)>) -> Option<()> {
    if let AluKind::Load { input, index } = &exp.kind {
        if has_load(index) {
            return None;
        }
        out.push((*input, index));
        return Some(());
    }
    for child in exp.children() {
        collect_loads(child, out)?;
    }
    Some(())
}

fn has_load(exp: &AluExp) -> bool {
    matches!(exp.kind, AluKind::Load { .. }) || exp.children().into_iter().any(has_load)
}

fn is_int(dtype: DType) -> bool {
    matches!(dtype, DType::Int32 | DType::Uint32 | DType::Bool)
}

/// `v` wrapped to `dtype`'s range.
fn wrap(dtype: DType, v: i64) -> i64 {
    match dtype {
        DType::Int32 => v as i32 as i64,
        DType::Uint32 => v as u32 as i64,
        DType::Bool => (v != 0) as i64,
        _ => v,
    }
}

/// The value of `exp` at output element `i`, reduction index `r` when it is a known integer
/// (or bool); calls `load(input, index)` for every load reached.
fn eval(exp: &AluExp, i: i64, r: i64, load: &mut impl FnMut(usize, Option<i64>)) -> Option<i64> {
    let int = is_int(exp.dtype);
    let v = match &exp.kind {
        AluKind::Const(bits) => {
            let f = f64::from_bits(*bits);
            (int && f.fract() == 0.0 && f.abs() < 1e18).then_some(f as i64)?
        }
        AluKind::Index => i,
        AluKind::ReduceIndex => r,
        AluKind::Load { input, index } => {
            let at = eval(index, i, r, load);
            load(*input, at);
            return None;
        }
        AluKind::Unary(op, a) => {
            let a = eval(a, i, r, load);
            match (op, a) {
                (UnaryOp::Neg, Some(a)) if int => -a,
                _ => return None,
            }
        }
        AluKind::Binary(op, a, b) => {
            let (a, b) = (eval(a, i, r, load), eval(b, i, r, load));
            let (a, b) = (a?, b?);
            if !int {
                return None;
            }
            binary(*op, exp.dtype, a, b)?
        }
        AluKind::Compare(op, a, b) => {
            let (x, y) = (eval(a, i, r, load), eval(b, i, r, load));
            let (x, y) = (x?, y?);
            if !is_int(a.dtype) {
                return None;
            }
            (match op {
                CompareOp::Lt => x < y,
                CompareOp::Le => x <= y,
                CompareOp::Eq => x == y,
                CompareOp::Ne => x != y,
            }) as i64
        }
        AluKind::Where(c, a, b) => match eval(c, i, r, load) {
            Some(c) if c != 0 => eval(a, i, r, load)?,
            Some(_) => eval(b, i, r, load)?,
            None => {
                // Data-dependent: both sides may be reached.
                eval(a, i, r, load);
                eval(b, i, r, load);
                return None;
            }
        },
        AluKind::Cast(a) => {
            let v = eval(a, i, r, load)?;
            if !int || !is_int(a.dtype) {
                return None;
            }
            v
        }
        AluKind::Bitcast(a) => {
            eval(a, i, r, load);
            return None;
        }
        AluKind::Threefry(_, ops) => {
            // Not evaluated: its operands' loads are reached, its value is unknown here.
            for o in ops.iter() {
                eval(o, i, r, load);
            }
            return None;
        }
    };
    Some(wrap(exp.dtype, v))
}

fn binary(op: BinaryOp, dtype: DType, a: i64, b: i64) -> Option<i64> {
    let unsigned = dtype == DType::Uint32;
    Some(match op {
        BinaryOp::Add => a + b,
        BinaryOp::Sub => a - b,
        BinaryOp::Mul => a.wrapping_mul(b),
        BinaryOp::Div if b == 0 => 0,
        BinaryOp::Div => a / b,
        BinaryOp::Rem if b == 0 => 0,
        BinaryOp::Rem => a % b,
        BinaryOp::Min => a.min(b),
        BinaryOp::Max => a.max(b),
        BinaryOp::And => a & b,
        BinaryOp::Or => a | b,
        BinaryOp::Xor => a ^ b,
        BinaryOp::Shl => a << (b & 31),
        BinaryOp::Shr if unsigned => a >> (b & 31),
        BinaryOp::Shr => (a as i32 >> (b & 31)) as i64,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn idx() -> AluExp {
        AluExp::index()
    }

    fn c(v: f64) -> AluExp {
        AluExp::constant(DType::Int32, v)
    }

    fn bin(op: BinaryOp, a: AluExp, b: AluExp) -> AluExp {
        AluExp::binary(op, a, b)
    }

    /// concat(x[:2], y) over rows of 3: output row n < 2 reads x row n, else y row n − 2.
    #[test]
    fn concatenate_reads_shifted_rows() {
        let f = DType::Float32;
        let split = c(6.0);
        let exp = AluExp::where_(
            AluExp::compare(CompareOp::Lt, idx(), split.clone()),
            AluExp::load(f, 0, idx()),
            AluExp::load(f, 1, bin(BinaryOp::Sub, idx(), split)),
        );
        let k = Kernel::elementwise(vec![f, f], 15, exp);
        let reads = row_reads(&k, 5, &[(15, 5), (9, 3)]);
        assert_eq!(reads, [Rows::Range(0, 0), Rows::Range(-2, -2)]);
    }

    /// Constant shifts are proved without evaluating every element: a shifted read, a
    /// transpose within rows, a broadcast row.
    #[test]
    fn constant_shifts_are_proved_symbolically() {
        let f = DType::Float32;
        // Rows of 4: x[n + 2] read as a row (index i + 8), and within a row transposed 2×2.
        let shifted = AluExp::load(f, 0, bin(BinaryOp::Add, idx(), c(8.0)));
        let t = bin(
            BinaryOp::Add,
            bin(
                BinaryOp::Add,
                bin(BinaryOp::Mul, bin(BinaryOp::Div, idx(), c(4.0)), c(4.0)),
                bin(BinaryOp::Mul, bin(BinaryOp::Rem, idx(), c(2.0)), c(2.0)),
            ),
            bin(BinaryOp::Rem, bin(BinaryOp::Div, idx(), c(2.0)), c(2.0)),
        );
        let exp = bin(BinaryOp::Add, shifted, AluExp::load(f, 1, t));
        let k = Kernel::elementwise(vec![f, f], 40, exp);
        let shapes = [(48, 12), (40, 10)];
        assert_eq!(
            constant_shifts(&k, 4, &[Some(4), Some(4)], &[48, 40]),
            Some(vec![Rows::Range(2, 2), Rows::Range(0, 0)])
        );
        assert_eq!(
            row_reads(&k, 10, &shapes),
            [Rows::Range(2, 2), Rows::Range(0, 0)]
        );
    }

    /// A read of rows n and n + 1 together, of one row for all, a data-dependent read.
    #[test]
    fn ranges_and_other_reads() {
        let f = DType::Float32;
        let two = AluExp::binary(
            BinaryOp::Add,
            AluExp::load(f, 0, idx()),
            AluExp::load(f, 0, bin(BinaryOp::Add, idx(), c(2.0))),
        );
        let k = Kernel::elementwise(vec![f], 8, two);
        assert_eq!(row_reads(&k, 4, &[(10, 5)]), [Rows::Range(0, 1)]);
        let first = AluExp::load(f, 0, bin(BinaryOp::Rem, idx(), c(2.0)));
        let k = Kernel::elementwise(vec![f], 8, first);
        assert_eq!(row_reads(&k, 4, &[(8, 4)]), [Rows::Range(-3, 0)]);
        let beyond = AluExp::load(f, 0, bin(BinaryOp::Add, idx(), c(8.0)));
        let k = Kernel::elementwise(vec![f], 8, beyond);
        assert_eq!(row_reads(&k, 4, &[(8, 4)]), [Rows::Any]);
        let gather = AluExp::load(f, 0, AluExp::load(DType::Int32, 1, idx()).clone());
        let k = Kernel::elementwise(vec![f, DType::Int32], 4, gather);
        assert_eq!(
            row_reads(&k, 4, &[(4, 4), (4, 4)]),
            [Rows::Any, Rows::Range(0, 0)]
        );
        let none = Kernel::elementwise(vec![f], 4, AluExp::constant(f, 1.0));
        assert_eq!(row_reads(&none, 4, &[(4, 4)]), [Rows::Unread]);
    }

    #[test]
    fn large_unproved_kernels_read_any_row() {
        // A reversal (not a constant shift) over more element-terms than are evaluated.
        let n = MAX_EVALUATED_TERMS + 1;
        let rev = bin(BinaryOp::Sub, c((n - 1) as f64), idx());
        let k = Kernel::elementwise(
            vec![DType::Float32],
            n,
            AluExp::load(DType::Float32, 0, rev),
        );
        assert_eq!(row_reads(&k, n, &[(n, n)]), vec![Rows::Any]);
        // The same within the budget is evaluated exactly.
        let m = 1000;
        let rev = bin(BinaryOp::Sub, c((m - 1) as f64), idx());
        let k = Kernel::elementwise(
            vec![DType::Float32],
            m,
            AluExp::load(DType::Float32, 0, rev),
        );
        assert_eq!(
            row_reads(&k, m, &[(m, m)]),
            vec![Rows::Range(-(m as i64 - 1), m as i64 - 1)]
        );
    }
}
