//! `kernel::fold::fold_indices` against the `cpu` interpreter: for every output index (and
//! reduction index) of kernels whose loads use int32 index arithmetic of every kind (the
//! strides, divisions and remainders of reshapes and transposes, negative operands, division
//! by zero, `i32::MIN / -1`, shifts, min/max), concatenate/pad guards (`Where` on index
//! comparisons joined by `And`/`Or`), the folded expression, run as a one-element kernel,
//! gives the interpreter's value of the original, and the index arithmetic is gone.

use oxjax::backend::cpu::run_kernel;
use oxjax::core::DType;
use oxjax::kernel::fold::fold_indices;
use oxjax::kernel::{AluExp, AluKind, BinaryOp, CompareOp, Kernel, ReduceOp, Reduction};

const I: DType = DType::Int32;

fn c(v: i32) -> AluExp {
    AluExp::constant(I, v as f64)
}

fn bin(op: BinaryOp, a: AluExp, b: AluExp) -> AluExp {
    AluExp::binary(op, a, b)
}

fn load(input: usize, index: AluExp) -> AluExp {
    AluExp::load(I, input, index)
}

/// An index in `0..len` whatever the int32 value `x`: `((x % len) + len) % len`.
fn wrap(x: AluExp, len: i32) -> AluExp {
    bin(
        BinaryOp::Rem,
        bin(BinaryOp::Add, bin(BinaryOp::Rem, x, c(len)), c(len)),
        c(len),
    )
}

const LEN: i32 = 12;

/// Index expressions of `i` (and `r`), each folded to a constant for known indices.
fn indices(i: AluExp, r: AluExp) -> Vec<AluExp> {
    use BinaryOp::*;
    vec![
        // A transpose of a 3×4 view: (i % 3) * 4 + i / 3.
        bin(
            Add,
            bin(Mul, bin(Rem, i.clone(), c(3)), c(4)),
            bin(Div, i.clone(), c(3)),
        ),
        // Negative operands: truncating division and the dividend's sign for the remainder.
        bin(
            Sub,
            bin(Div, bin(Sub, c(-7), i.clone()), c(2)),
            bin(Rem, c(-7), c(3)),
        ),
        // Division and remainder by zero give 0; i32::MIN / -1 wraps.
        bin(Add, bin(Div, i.clone(), c(0)), bin(Rem, i.clone(), c(0))),
        bin(Div, bin(Sub, c(i32::MIN), i.clone()), c(-1)),
        // Wrapping products, shifts (amount modulo 32, arithmetic right shift), min/max.
        bin(Mul, bin(Add, i.clone(), c(65_537)), c(65_537)),
        bin(Shl, bin(Add, i.clone(), c(1)), c(33)),
        bin(Shr, bin(Sub, c(-100), i.clone()), c(2)),
        bin(Max, bin(Min, i.clone(), c(5)), c(2)),
        bin(Xor, bin(And, i.clone(), c(6)), bin(Or, r.clone(), c(1))),
        bin(Add, bin(Mul, i, c(3)), r),
    ]
}

/// `Where` guards as a concatenate or pad emits them.
fn guarded(i: AluExp, r: AluExp) -> AluExp {
    let lt = |a: AluExp, b: AluExp| AluExp::compare(CompareOp::Lt, a, b);
    let le = |a: AluExp, b: AluExp| AluExp::compare(CompareOp::Le, a, b);
    let inside = bin(
        BinaryOp::And,
        le(c(2), i.clone()),
        lt(bin(BinaryOp::Add, i.clone(), r.clone()), c(7)),
    );
    let either = bin(
        BinaryOp::Or,
        AluExp::compare(CompareOp::Eq, i.clone(), c(9)),
        AluExp::compare(CompareOp::Ne, r.clone(), c(1)),
    );
    AluExp::where_(
        inside,
        load(0, bin(BinaryOp::Sub, i.clone(), c(2))),
        AluExp::where_(either, load(1, wrap(i, LEN)), c(-1)),
    )
}

/// The sum of every index expression loaded (wrapped into range), plus the guarded value.
fn expression() -> AluExp {
    let (i, r) = (AluExp::index(), AluExp::reduce_index());
    let mut exp = guarded(i.clone(), r.clone());
    for (k, ix) in indices(i, r).into_iter().enumerate() {
        exp = bin(BinaryOp::Add, exp, load(k % 2, wrap(ix, LEN)));
    }
    exp
}

/// Whether index arithmetic is left: an index, a guard, a comparison, or a load at an index
/// that is not a constant.
fn has_index_nodes(e: &AluExp) -> bool {
    let here = match &e.kind {
        AluKind::Index | AluKind::ReduceIndex | AluKind::Where(..) | AluKind::Compare(..) => true,
        AluKind::Load { index, .. } => index.const_value().is_none(),
        _ => false,
    };
    here || e.children().iter().any(|c| has_index_nodes(c))
}

fn bytes(v: &[i32]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}

fn ints(b: &[u8]) -> Vec<i32> {
    b.chunks(4)
        .map(|w| i32::from_le_bytes(w.try_into().unwrap()))
        .collect()
}

#[test]
fn folded_indices_match_the_interpreter() {
    let a: Vec<i32> = (0..LEN).map(|k| 3 * k * k - 7).collect();
    let b: Vec<i32> = (0..LEN).map(|k| 1000 - 11 * k).collect();
    let (a, b) = (bytes(&a), bytes(&b));
    let inputs: [&[u8]; 2] = [&a, &b];
    let size = 11;
    let reduction = Reduction {
        op: ReduceOp::Sum,
        size: 3,
    };
    let kernel = Kernel {
        inputs: vec![I, I],
        size,
        exp: expression(),
        reduction: Some(reduction),
        epilogue: None,
    };
    let want = ints(&run_kernel(&kernel, &inputs).unwrap());
    for i in 0..size as i32 {
        let mut total = 0i32;
        for r in 0..reduction.size as i32 {
            let folded = fold_indices(&kernel.exp, Some(i), Some(r));
            assert!(
                !has_index_nodes(&folded),
                "i={i} r={r}: index arithmetic left in {folded:?}"
            );
            let one = Kernel::elementwise(vec![I, I], 1, folded);
            total = total.wrapping_add(ints(&run_kernel(&one, &inputs).unwrap())[0]);
        }
        assert_eq!(total, want[i as usize], "element {i}");
    }
    // Without a reduction index only the output index is folded: `r` terms stay.
    let partial = fold_indices(&kernel.exp, Some(3), None);
    assert!(has_index_nodes(&partial));
}
