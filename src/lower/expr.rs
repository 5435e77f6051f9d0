//! Expressions of values during fusion: an [`AluExp`] computing element `Index` of a value,
//! whose loads name Program slots (a materialised value in slot `s` is `load(s, Index)`).
//! Substitution puts a producer's expression in place of a consumer's load; renumbering turns
//! slot loads into a kernel's input positions.

use crate::core::DType;
use crate::kernel::{AluExp, AluKind, UnaryOp};

/// Element `Index` of slot `slot` (a materialised value).
pub fn slot_load(dtype: DType, slot: usize) -> AluExp {
    AluExp::load(dtype, slot, AluExp::index())
}

/// `exp` evaluated at element `at`: every `Index` replaced by `at`.
pub fn at_index(exp: &AluExp, at: &AluExp) -> AluExp {
    exp.rewrite(&|e| matches!(e.kind, AluKind::Index).then(|| at.clone()))
}

/// `kernel_exp` (a rule's kernel reading input `i` with logical indices) with each load of
/// input `i` replaced by `operands[i]` evaluated at the load's index.
pub fn substitute(kernel_exp: &AluExp, operands: &[AluExp]) -> AluExp {
    kernel_exp.rewrite(&|e| match &e.kind {
        AluKind::Load { input, index } => {
            let index = substitute(index, operands);
            Some(at_index(&operands[*input], &index))
        }
        _ => None,
    })
}

/// The number of nodes of the tree.
pub fn size(exp: &AluExp) -> usize {
    1 + exp.children().into_iter().map(size).sum::<usize>()
}

/// The length of the longest path from the root to a leaf.
pub fn depth(exp: &AluExp) -> usize {
    1 + exp.children().into_iter().map(depth).max().unwrap_or(0)
}

/// The distinct slots `exp` loads from, in first-visit order.
pub fn slots(exp: &AluExp) -> Vec<usize> {
    fn walk(e: &AluExp, out: &mut Vec<usize>) {
        if let AluKind::Load { input, .. } = &e.kind {
            if !out.contains(input) {
                out.push(*input);
            }
        }
        for c in e.children() {
            walk(c, out);
        }
    }
    let mut out = Vec::new();
    walk(exp, &mut out);
    out
}

/// Loads of slots renumbered to kernel inputs: slot `order[j]` becomes input `j`.
pub fn renumber(exp: &AluExp, order: &[usize]) -> AluExp {
    exp.rewrite(&|e| match &e.kind {
        AluKind::Load { input, index } => {
            let j = order.iter().position(|s| s == input).expect("slot listed");
            Some(AluExp::load(e.dtype, j, renumber(index, order)))
        }
        _ => None,
    })
}

/// The largest expression fused into one value before it is materialised: deep chains of view
/// changes multiply index arithmetic, and a huge kernel costs more to compile than it saves.
pub const MAX_NODES: usize = 3000;

/// The deepest expression fused into one value: code generators and the interpreter recurse
/// over the tree, and a long dependent chain (a sequential filter's accumulator) would
/// otherwise become one tree as deep as the chain is long.
pub const MAX_DEPTH: usize = 48;

/// True when recomputing `exp` in each consumer costs about as much as loading a stored copy:
/// at most one load, no transcendental operation or threefry, a small tree (views, broadcasts, constants,
/// casts, `2·x + 1`).
pub fn is_cheap(exp: &AluExp) -> bool {
    fn walk(e: &AluExp, loads: &mut usize, nodes: &mut usize) -> bool {
        *nodes += 1;
        match &e.kind {
            AluKind::Load { .. } => *loads += 1,
            AluKind::Threefry(..) => return false,
            AluKind::Unary(op, _) if !matches!(op, UnaryOp::Neg | UnaryOp::Abs | UnaryOp::Not) => {
                return false
            }
            _ => {}
        }
        e.children().into_iter().all(|c| walk(c, loads, nodes))
    }
    let (mut loads, mut nodes) = (0, 0);
    walk(exp, &mut loads, &mut nodes) && loads <= 1 && nodes <= 64
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernel::BinaryOp;

    #[test]
    fn substitution_and_renumbering() {
        let x = slot_load(DType::Float32, 4);
        let doubled = AluExp::binary(BinaryOp::Mul, x, AluExp::constant(DType::Float32, 2.0));
        // A consumer reading its input 0 at index + 1.
        let at = AluExp::index_add(AluExp::index(), AluExp::constant(DType::Int32, 1.0));
        let consumer = AluExp::unary(UnaryOp::Exp, AluExp::load(DType::Float32, 0, at.clone()));
        let fused = substitute(&consumer, &[doubled]);
        assert_eq!(slots(&fused), vec![4]);
        let want = AluExp::unary(
            UnaryOp::Exp,
            AluExp::binary(
                BinaryOp::Mul,
                AluExp::load(DType::Float32, 0, at),
                AluExp::constant(DType::Float32, 2.0),
            ),
        );
        assert_eq!(renumber(&fused, &[4]), want);
        assert!(!is_cheap(&fused));
        assert_eq!(size(&want), 7);
    }
}
