//! The order in which a reducing kernel combines its values — part of the kernel's meaning,
//! since float addition is not associative. Every backend that claims bit-identical results
//! with the `cpu` interpreter follows it.
//!
//! The default is sequential: `acc = op(acc, x[r])` for r = 0, 1, …, size − 1. A reduction
//! whose loads read the reduced axis contiguously (stride 1 in the reduction index, e.g. a sum
//! over the last axis or over a whole array) and whose result is float32 sum/product or an
//! integer/bool reduction uses the *lane-blocked* order instead, which SIMD code computes
//! directly:
//!
//! 1. `main = size − size mod L` (L = [`BLOCK_LANES`]); lane `l` folds x[l], x[l+L], … below
//!    `main`, each lane starting from the identity;
//! 2. the lanes are combined pairwise: for width L/2, L/4, …, 1: `lane[l] = op(lane[l],
//!    lane[l + width])` for l < width;
//! 3. the tail x[main], …, x[size − 1] is folded into lane 0 in order.
//!
//! (Float32 sums and products accumulate in f64 throughout and round once, as in the
//! sequential order.) When size < L this is the sequential order. Integer and bool reductions
//! are exact in any order; float max/min and float64 reductions stay sequential.
//!
//! One exception to the f64 accumulation: a float32 *sum of products* (the kernel's expression
//! is a multiplication, as in every matrix product, or a multiplication masked by a select with
//! zero, `where(c, a·b, 0)`, as in a padded convolution) that is not lane-blocked (its loads read
//! the reduced axis with a stride) accumulates in float32, sequentially in r: `acc = acc +
//! a·b`, the product rounded to f32 first (no fused multiply-add). That is the order
//! register-blocked SIMD code computes directly (f32x4 accumulators over neighbouring outputs,
//! each summed over r in order however the r loop is tiled), so tiled wasm matmuls stay
//! bit-identical with the interpreter; its accuracy is that of a float32 BLAS (JAX's and
//! NumPy's float32 matmuls also accumulate in float32). The rule looks only at the dtype, the
//! op, the expression's root and the load strides in r, never at sizes or at how the output
//! index is decomposed, so batching a product (vmap: batched matmuls are not recognised as
//! tiles) does not change its order.
//!
//! A matrix product whose two operands both read r contiguously (`a·bᵀ`) would be
//! lane-blocked by this rule; when it is large, lowering never hands it over in that form:
//! `contract` stores one operand transposed first, so the product reads it with a stride and
//! is a float32 sum of products. The rule itself is unchanged; the kernel is.

use super::alu::{AluExp, AluKind, BinaryOp};
use super::{Kernel, ReduceOp};
use crate::core::DType;

/// Lanes of the blocked order (four f32x4 vectors).
pub const BLOCK_LANES: usize = 16;

fn depends_on_r(e: &AluExp) -> bool {
    matches!(e.kind, AluKind::ReduceIndex) || e.children().into_iter().any(depends_on_r)
}

/// The coefficient of the reduction index in an int32 index expression, when it is affine in
/// it (sums, differences and constant multiples).
fn stride_in_r(e: &AluExp) -> Option<i64> {
    if !depends_on_r(e) {
        return Some(0);
    }
    match &e.kind {
        AluKind::ReduceIndex => Some(1),
        AluKind::Binary(BinaryOp::Add, a, b) => Some(stride_in_r(a)? + stride_in_r(b)?),
        AluKind::Binary(BinaryOp::Sub, a, b) => Some(stride_in_r(a)? - stride_in_r(b)?),
        AluKind::Binary(BinaryOp::Mul, a, b) => match (a.const_value(), b.const_value()) {
            (Some(k), _) => Some(k as i64 * stride_in_r(b)?),
            (_, Some(k)) => Some(k as i64 * stride_in_r(a)?),
            _ => None,
        },
        _ => None,
    }
}

/// Whether every load that depends on the reduction index reads it with stride 1 (and at
/// least one does).
fn loads_contiguous_in_r(e: &AluExp, found: &mut bool) -> bool {
    if let AluKind::Load { index, .. } = &e.kind {
        if depends_on_r(index) {
            *found = true;
            if stride_in_r(index) != Some(1) {
                return false;
            }
        }
    }
    e.children()
        .into_iter()
        .all(|c| loads_contiguous_in_r(c, found))
}

/// Whether `kernel` reduces in the lane-blocked order (see the module documentation).
pub fn blocked(kernel: &Kernel) -> bool {
    let Some(red) = kernel.reduction else {
        return false;
    };
    let dtype_ok = match kernel.output_dtype() {
        DType::Float32 => matches!(red.op, ReduceOp::Sum | ReduceOp::Prod),
        DType::Int32 | DType::Uint32 | DType::Bool => true,
        _ => false,
    };
    let mut found = false;
    dtype_ok && loads_contiguous_in_r(&kernel.exp, &mut found) && found
}

/// Whether `kernel` is a float32 sum accumulated in float32 (see the module documentation).
pub fn narrow(kernel: &Kernel) -> bool {
    let mul = |e: &AluExp| matches!(e.kind, AluKind::Binary(BinaryOp::Mul, ..));
    let product = match &kernel.exp.kind {
        AluKind::Where(_, t, f) => mul(t) && f.const_value() == Some(0.0),
        _ => mul(&kernel.exp),
    };
    kernel.reduction.is_some_and(|red| {
        red.op == ReduceOp::Sum
            && kernel.output_dtype() == DType::Float32
            && product
            && !blocked(kernel)
    })
}

/// Whether a float sum or product accumulates in f64 and rounds once to the output dtype.
pub fn wide(kernel: &Kernel) -> bool {
    kernel.reduction.is_some_and(|red| {
        kernel.output_dtype().is_float()
            && matches!(red.op, ReduceOp::Sum | ReduceOp::Prod)
            && !narrow(kernel)
    })
}

/// Step 2 of the blocked order: combines `lanes` (a power of two of them) pairwise.
pub fn combine_lanes<T: Copy, E>(
    lanes: &mut [T],
    op: impl Fn(T, T) -> Result<T, E>,
) -> Result<T, E> {
    let mut width = lanes.len() / 2;
    while width >= 1 {
        for l in 0..width {
            lanes[l] = op(lanes[l], lanes[l + width])?;
        }
        width /= 2;
    }
    Ok(lanes[0])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernel::Reduction;

    fn sum(dtype: DType, index: AluExp) -> Kernel {
        let mut k = Kernel::elementwise(vec![dtype], 3, AluExp::load(dtype, 0, index));
        k.reduction = Some(Reduction {
            op: ReduceOp::Sum,
            size: 40,
        });
        k
    }

    fn int(v: f64) -> AluExp {
        AluExp::constant(DType::Int32, v)
    }

    #[test]
    fn contiguous_reductions_are_blocked_strided_ones_are_not() {
        let rows = AluExp::index_add(
            AluExp::index_mul(AluExp::index(), 40),
            AluExp::reduce_index(),
        );
        assert!(blocked(&sum(DType::Float32, rows.clone())));
        assert!(blocked(&sum(DType::Int32, rows.clone())));
        assert!(!blocked(&sum(DType::Float64, rows)));
        let cols = AluExp::index_add(
            AluExp::index_mul(AluExp::reduce_index(), 3),
            AluExp::index(),
        );
        assert!(!blocked(&sum(DType::Float32, cols)));
        let div = AluExp::index_div(AluExp::reduce_index(), 2);
        assert!(!blocked(&sum(DType::Float32, div)));
        assert!(!blocked(&sum(DType::Float32, int(0.0))));
    }

    #[test]
    fn strided_products_masked_or_not_accumulate_in_float32() {
        let col = |input| {
            let index = AluExp::index_add(
                AluExp::index_mul(AluExp::reduce_index(), 3),
                AluExp::index(),
            );
            AluExp::load(DType::Float32, input, index)
        };
        let product = AluExp::binary(BinaryOp::Mul, col(0), col(1));
        let mut k = sum(DType::Float32, AluExp::index());
        k.exp = product.clone();
        assert!(narrow(&k) && !wide(&k));
        let mask = AluExp::compare(crate::kernel::CompareOp::Lt, AluExp::index(), int(2.0));
        k.exp = AluExp::where_(
            mask.clone(),
            product.clone(),
            AluExp::constant(DType::Float32, 0.0),
        );
        assert!(narrow(&k) && !wide(&k));
        // A select with another value, or a plain load, accumulates in f64.
        k.exp = AluExp::where_(mask, product, AluExp::constant(DType::Float32, 1.0));
        assert!(!narrow(&k) && wide(&k));
        k.exp = col(0);
        assert!(!narrow(&k) && wide(&k));
    }

    #[test]
    fn lanes_combine_pairwise() {
        let mut lanes: Vec<u64> = (0..16).collect();
        let order = std::cell::RefCell::new(vec![]);
        let total = combine_lanes(&mut lanes, |a, b| {
            order.borrow_mut().push((a, b));
            Ok::<_, ()>(a + b)
        });
        assert_eq!(total, Ok(120));
        assert_eq!(order.borrow()[0], (0, 8));
        assert_eq!(order.borrow().len(), 15);
    }
}
